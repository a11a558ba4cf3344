"""Online play: the session over a proven deal (:mod:`web.sessions.online.peer`), its scheduler (when
work runs, texts leave and the table is drawn: :mod:`.runner`), its channel and heartbeat
(:mod:`.connection`), opening a room (:mod:`.room`), what the page gives it and a room's names
(:mod:`.env`), its sentences (:mod:`.words`), the room's rules (:mod:`.room_rules`) and the table's
online panel (:mod:`.panel`). Imported on first use."""
