"""The ways to play: the registry (:mod:`web.modes.registry`), the local modes, online play (imported
on first use) and the scorekeeper screen."""
