"""Online play: the session over a proven deal (:mod:`web.sessions.online.peer`), the room's
rules (:mod:`web.sessions.online.room_rules`) and the table's online panel
(:mod:`web.sessions.online.panel`). Imported on first use."""
