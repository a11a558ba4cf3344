"""The browser glue: the only package that imports ``pyscript``/``js`` (:mod:`web.page.start`, run by
``main.py``; :mod:`web.page.host`; the scorekeeper's page)."""
