"""The page's entry point. PyScript runs this file from source at every load, so it only hands over
to :mod:`web.browser`, which ships as bytecode in the app archive."""

from web.browser import start

CONTROLLER = start()
