"""The web table: pure renderers (board, cards, table, speech), the controller, and the browser glue.

Who moves and how a move is agreed sit behind one seam: ``modes.py`` (the registry of ways to play)
opens a ``session.py`` Session whose seats are driven by ``seats.py`` (you, the computer, a remote
seat); the controller only proposes moves and offers to the session and redraws on its changes.

Only ``browser.py`` (started by the entry ``main.py``) imports ``pyscript``/``js``; every other
module here runs under plain CPython, so the rendering and the click/keyboard routing are tested
without a browser (``tests/web/``).
"""
