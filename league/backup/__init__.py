"""Backup and restore of everything a club made: the orchestration, and the league's own part.

`dump()` builds one JSON-ready object from the parts of every app (`backups.parts`: each app's
`backup.py` says what it holds and what it leaves out as derived, and writes and restores only
its own app's rows), read in one transaction so the parts agree; `load()` restores them in the
order of INSTALLED_APPS (every app after those it points at), all in one transaction, into an
empty database only. The format is described in docs/operations.md ("Backups").

The file is `{"format": FORMAT, "version": VERSION, "created": …}` and one key per app with a
part: `accounts`, `clubs`, `scoring`, `league`, `nights`, `ledger`, each an object of that app's
tables, each a list of rows, every field by name and every row with its id. Only files of this
`VERSION` restore: an older or a newer one is refused, naming its version.

Every value is checked before it is written: types, references, and each text against its
column's length and choices (a message names the part of the file, the row and the field), so
SQLite and PostgreSQL refuse the same files and neither is asked to store what the other would
not. Derived figures (game totals, statistics, ratings) are not in the file: the games' and the
ratings' parts compute them afresh.
"""
