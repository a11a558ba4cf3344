"""The web table: pure renderers (board, cards, table, speech), the controller, and the browser glue.

Only ``browser.py`` (started by the entry ``main.py``) imports ``pyscript``/``js``; every other
module here runs under plain CPython, so the rendering and the click/keyboard routing are tested
without a browser (``tests/web/``).
"""
