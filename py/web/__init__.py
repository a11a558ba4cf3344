"""The web table, in packages of one concern each; imports go one way (page -> app -> table ->
modes, record -> play -> kit -> the engine; tests/web/test_import_graph.py keeps them free of circles):

- ``page/``   the browser glue, the only code that imports ``pyscript``/``js`` (started by ``main.py``)
- ``app/``    the shell: the controller (UI state, boot, switching, clicks and keys to intents), dialogs
- ``table/``  the scene of one frame, where the seats sit, the renderers by region, the patch
- ``modes/``  the registry of ways to play, the local modes, online play, the scorekeeper
- ``record/`` the player's record: store, screens, drawing (imported on first use)
- ``play/``   who moves and how a move is agreed: seat drivers, sessions, the storage port
- ``kit/``    pure markup pieces: cards, board, charts, QR code, speech, the rules text

Every module outside ``page/`` runs under plain CPython, so the rendering and the click/keyboard
routing are tested without a browser (``tests/web/``).
"""
