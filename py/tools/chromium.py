"""Launch Chromium for the browser tests and benchmarks (Playwright, sync API).

Prefers Debian's ``/usr/bin/chromium`` (``playwright install`` cannot download here) and
falls back to Playwright's bundled browser where that path does not exist.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

SYSTEM_CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_options(**extra: Any) -> dict[str, Any]:
    """Keyword arguments for ``playwright.chromium.launch``."""
    options: dict[str, Any] = {"args": list(ARGS), **extra}
    if SYSTEM_CHROMIUM.exists():
        options.setdefault("executable_path", str(SYSTEM_CHROMIUM))
    return options


def launch(playwright: Any, **extra: Any) -> Any:
    """A headless Chromium browser."""
    return playwright.chromium.launch(**launch_options(**extra))
