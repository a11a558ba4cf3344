"""The page's entry point. PyScript runs this file from source at every load, so it only hands over
to :mod:`web.page.start`, which ships as bytecode in the app archive."""

from web.page.start import start

CONTROLLER = start()
