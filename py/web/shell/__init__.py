"""The shell: the controller (UI state, boot, switching between ways to play, clicks and keys to
intents), the dialogs and the ports to the browser. Imports the table, the modes and play; the
record on first use."""
