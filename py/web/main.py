"""Placeholder browser entry point (the web UI replaces this file).

It proves the shipping path end to end: the engine package imports inside Pyodide, then the
page is marked ready (``<body data-ready="true">``), which the loading screen, the browser
tests and the load benchmark all wait for.
"""

from pyscript import document

try:  # the engine is being written alongside; the page must still start without it
    import cribbage
except ImportError:
    cribbage = None

loading = document.getElementById("loading")
if loading is not None:
    loading.hidden = True
table = document.getElementById("table")
if table is not None:
    table.textContent = (
        "Engine loaded." if cribbage is not None else "Engine not available yet."
    )
document.body.dataset.ready = "true"
