"""Uploads of games, run by a task worker, that never hold up the tables.

An upload becomes an ImportBatch (league/models.py): its file is kept in the database
(`ImportFile`) and a task is queued (Django's task framework, the django-tasks backport with its
database backend), so a `manage.py db_worker` process on any machine sharing the database runs it;
the web worker that took the upload keeps nothing. Before it keeps the file, the upload page
refuses one whose first rows name a club or season the user may not import into
(`csv_io.first_places`), and one more upload than `IMPORTS_WAITING_PER_USER` unfinished imports of
the user, or `IMPORTS_WAITING_PER_SITE` of everyone, with 429 (`waiting_problem`).

The worker's task (`run_batch`) then, game by game, never holding the whole file as rows or
records (`csv_io.FileReader`):
1. reads the file through once without scoring: its encoding and kind, the uploader's rights over
   every club and season it names, JSON's syntax; a file refused here is refused before any game
   is scored;
2. reads it again, each game through the rules engine, and writes the checked games in short
   transactions of `IMPORT_CHUNK_GAMES` games, hidden (`Game.hidden`, filtered by `Game.objects`;
   `PendingGame` notes each as the batch's), with codes already here and seasons' dates checked
   per chunk; after the first problem nothing more is written, but the reading goes on to name
   every problem;
3. makes them visible in one last short transaction (`publish_pending_games`).
A problem or a failure deletes the batch's hidden games: for the user the import is all or nothing.
A hand saved at a table waits at most for one chunk's transaction, never for the whole file.

The batch's state lives in the database, so any web worker shows its page. The task stamps the
batch as it goes (a heartbeat, at least every `HEARTBEAT_SECONDS` while it works): a batch without
a stamp for `QUIET_AFTER` is shown as stalled, and one silent for `IMPORT_STALLED_SECONDS` (its
worker was killed, or its machine stopped) is refused and its hidden games deleted by the next
look at its page, the next upload or the next import a worker starts. A task that ends by an
exception is refused and cleaned at once.
"""
