"""The chip ledger's part of a backup: every payment marked, with who marked it and when, its
form token, and the removed ones with who removed them and when; every field of every model of
the ledger, with its id (`backups.rows`). What a night brings each player is not stored anywhere
(it is read from the games), so it comes back with the games."""

from backups.parts import whole_app

PART = whole_app("ledger")
