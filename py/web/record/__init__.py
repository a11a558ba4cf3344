"""The player's record: the store (history, export, import), its screens and their drawing. Imported
on first use (a match over, the record dialog opened)."""
