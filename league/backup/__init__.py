"""Backup and restore of everything a club made, and the league's part of it.

`dump()` builds one JSON-ready object from the parts of every app (`backups.parts`: each app's
`backup.py` says what it holds and what it leaves out as derived), read in one transaction so the
parts agree; `load()` restores them in the order of INSTALLED_APPS (every app after those it
points at), all in one transaction, into an empty database only, and then computes the ratings
afresh from the restored games.

The league's part: accounts (with password hashes, so keep backups private) with their admin
permissions and groups, the groups and their permissions, clubs, players and rosters, seasons
(with their published-results codes), club roles by username, club invites, every game as its
game record (settings, players, hands) with its league details (club, season, date, place, note,
which player sat in each seat), its code, share code and edit secrets, each hand's submission id
and times, the game's correction history, and every other column of the game (`columns`, written
by `backups.rows`, so a field added to `Game` later is kept); and the phones' edit rights. Derived
figures (totals, statistics) are not in the file: `load()` rescores every game with the engine and
writes them afresh through `league.services.store_games`.

Version 2 added the permissions, groups, publish codes, hand submission ids and the correction
history; version 3 the club invites, pending and accepted, and the phones' edit rights (each
device's id hash, the SHA-256 of its cookie, and the games it may score, each with the account it
is held for, without which a lapsed right would count again), so a table's phone goes on scoring
after a restore and an invite link sent before it still works; version 4 the club nights and the
ledger (the parts of `nights` and `ledger`), every row's id (accounts, clubs, players, seasons,
games, corrections and the rows of the new parts keep their ids, so every link and every order
by id is the same after a restore) and the games' other columns. Version 1 to 3 files still restore, without
what they lack.

Every value is checked before it is written: types, references, and each text against its
column's length and choices (a message names the part of the file and the field), so SQLite and
PostgreSQL refuse the same files and neither is asked to store what the other would not.
"""

from backups.rows import BackupRefused
from league.backup.part import PART
from league.backup.whole import FORMAT, READABLE, VERSION, database_is_empty, dump, load
from league.backup.write import FIELDS_WRITTEN, GAME_FIELDS_BY_NAME, GAME_FIELDS_DERIVED

__all__ = [
    "FIELDS_WRITTEN",
    "FORMAT",
    "GAME_FIELDS_BY_NAME",
    "GAME_FIELDS_DERIVED",
    "PART",
    "READABLE",
    "VERSION",
    "BackupRefused",
    "database_is_empty",
    "dump",
    "load",
]
