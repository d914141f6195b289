"""The club nights' part of a backup: every night with its settings, stakes, seed and lock
(`finished_at`), check-ins with late arrivals and leavers, the tables of every round with their
games and secret link tokens, the seats and the byes; every field of every row, with its id
(`backups.rows`), so a printed table card's QR code opens its table again after a restore, a
finished night stays locked, and the draw reads the check-ins in the same order."""

from backups.parts import whole_app

PART = whole_app("nights")
