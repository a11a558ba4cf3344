"""Online play at three and four seats (partners included): the web session over a
:class:`~cribbage.online.table_session.TableSession` and the page's mesh of channels
(:mod:`web.sessions.online.mesh_env`). :mod:`.session` is the table's Session, :mod:`.driver` what a
batch carries between the table session, the channels and the store, :mod:`.panel` the lobby and the
room's panel, :mod:`.store` the room's sealed record, :mod:`.room` opening one (a new room from the
menu, a room link, a reload). Imported on first use, as the two-player room (:mod:`web.sessions.online.room`)."""
