"""Who moves and how a move is agreed: seat drivers, the session, the storage port."""
