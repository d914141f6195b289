"""gunicorn's settings for serving the app: `make serve`, docs/operations.md and the benchmarks
(bench/harness.py) start gunicorn with this file (`-c gunicorn.conf.py`), so what is measured is
what is shipped. The command line still gives the address and the number of workers (`-w`).

Threaded workers that keep connections alive: every open game page polls its scoreboard every
3 s, and a browser sends those polls on the connection it keeps open to the site. gunicorn's sync
workers close every connection after one answer, so each poll paid for a new connection (about
half the CPU of a poll answered 304, measured by bench/capacity.py, docs/benchmarks.md). A kept
connection waits in the worker's poller, not in a thread; a thread is taken only while a request
is answered. Django keeps one database connection per thread.
"""

import resource

worker_class = "gthread"
# Two threads per worker: a save waiting for SQLite's write lock does not hold up the polls
# behind it. The work is Python's (one thread at a time runs it), so more threads add no CPU, and
# four made it worse: at 200 simulated tables the p95 of a poll passed 600 ms in each of three
# runs, where two threads kept it at 60 ms (docs/benchmarks.md, "Capacity").
threads = 2
# Longer than the 3 s between two polls and the 10 s between two reloads of the standings, and
# longer than a proxy's own idle timeout towards the app (nginx's `keepalive_timeout`, 60 s by
# default), so the proxy, not gunicorn, closes an idle connection and never sends a request on one
# gunicorn has just closed.
keepalive = 75
# Kept-alive connections per worker: one per phone with a page open (three a table: the scoring
# phone and two watching, and the organisers), for a thousand tables on two workers.
worker_connections = 4000

# Every connection is a file descriptor of its worker: raise the soft limit (per process, the
# workers inherit it) to what a worker may hold; where the hard limit is lower, fewer connections.
_needed = worker_connections + 256
_soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
if _soft != resource.RLIM_INFINITY and _soft < _needed:
    _raised = _needed if _hard == resource.RLIM_INFINITY else min(_needed, _hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (_raised, _hard))
    worker_connections = max(100, _raised - 256)
