"""The player's choice of looks (the felt, the card backs: :mod:`web.kit.looks`), kept with the other
settings: ``cribbage.settings`` → ``"looks"`` (``{"felt": "blue", "back": "navy"}``), read at start and
after an import, written on every change. A stored value that is not one of the choices is the
default (settings are a convenience: never an error)."""

from __future__ import annotations

import json

from web.kit.looks import KINDS, LookChoice
from web.sessions.storage import Storage
from web.kit.caught import caught

__all__ = ["SETTING", "Looks"]

SETTING = "looks"
"""The key of the choice in the settings."""


class Looks:
    """The player's choice of looks, over the settings in ``storage`` at ``settings_key``."""

    def __init__(self, storage: Storage, settings_key: str) -> None:
        self.storage = storage
        self.settings_key = settings_key
        self.choice = LookChoice()
        self.reload()

    def _settings(self) -> dict[str, object]:
        try:
            raw = self.storage.get(self.settings_key)
            settings = json.loads(raw) if raw else {}
        except Exception as exc:  # noqa: BLE001 - settings are a convenience
            caught("shell.looks.Looks._settings", exc)
            return {}
        return settings if isinstance(settings, dict) else {}

    def reload(self) -> None:
        """Read the choice from the settings (at start, and after an import replaced them)."""
        found = self._settings().get(SETTING)
        found = found if isinstance(found, dict) else {}
        values = {kind: found.get(kind) for kind in KINDS}
        self.choice = LookChoice(**{kind: value for kind, value in values.items()
                                    if isinstance(value, str) and value in dict(KINDS[kind])})

    def choose(self, kind: str, value: str) -> bool:
        """Take ``value`` for ``kind`` (``felt`` or ``back``) and keep it; False if it is not a choice."""
        if kind not in KINDS or value not in dict(KINDS[kind]):
            return False
        self.choice = LookChoice(**{**self.choice.__dict__, kind: value})
        settings = self._settings()
        settings[SETTING] = dict(self.choice.__dict__)  # the other settings stay as they are
        try:
            self.storage.set(self.settings_key, json.dumps(settings))
        except Exception as exc:  # noqa: BLE001 - kept for this visit if the browser refuses
            caught("shell.looks.Looks.choose", exc)
        return True
