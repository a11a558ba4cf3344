"""Who moves and how a move is agreed: seat drivers, the session protocol and the local session,
the storage port, the registry of ways to play, the New game choice, a series, and online play
(:mod:`web.sessions.online`, imported on first use). Below the screens: never imports them."""
