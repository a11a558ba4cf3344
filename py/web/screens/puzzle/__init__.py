"""The puzzle screen: its state, clicks and keys (``screen``) and its markup (``view``)."""
