# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test serve migrate deps lint system-deps clean bench messages bench-league bench-load bench-faults \
	bench-fuzz bench-nights bench-import bench-chaos bench-ratings bench-taps bench-ledger bench-capacity \
	bench-request-cost

$(BIN)/python:
	$(PYTHON) -m venv $(VENV) || { echo "make: '$(PYTHON) -m venv' failed; on Debian install python3-venv first"; exit 1; }
	$(BIN)/pip install -q --upgrade pip

# The stamp file re-runs pip only when a requirements file changes.
$(VENV)/.deps-stamp: requirements.txt requirements-dev.txt | $(BIN)/python
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $@

deps: $(VENV)/.deps-stamp

migrate: deps
	$(BIN)/python manage.py migrate --noinput

# The task worker (`manage.py db_worker`, Django's task framework: it runs the uploads' imports)
# starts beside the server, at a lower CPU priority than the server (WORKER_NICENESS), and is
# stopped when the server stops: a second signal interrupts an import still running, which is then
# refused with a message and leaves nothing behind. Further workers, on this machine or others
# sharing the database, start with the same command (docs/operations.md, "The task worker").
WORKER_NICENESS ?= 10
WORKER = nice -n $(WORKER_NICENESS) $(BIN)/python manage.py db_worker --no-reload --no-startup-delay
WITH_WORKER = worker=$$!; trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT; trap 'exit 130' INT TERM;

run: migrate
	$(BIN)/python manage.py table_url --host $(HOST) --port $(PORT)
	$(WORKER) & $(WITH_WORKER) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# Production-like: gunicorn (gunicorn.conf.py: threaded workers keeping connections alive), DEBUG off, hashed and compressed static files served by whitenoise.
# Plain HTTP on this machine unless told otherwise; behind an HTTPS proxy set SECURE_SSL_REDIRECT
# and SECURE_COOKIES to true (docs/operations.md, "Serving"). The secret key is made once and kept
# in .secret_key unless SECRET_KEY is set.
PROD_ENV = DEBUG=false SECRET_KEY="$${SECRET_KEY:-$$(cat .secret_key)}" \
	SECURE_SSL_REDIRECT="$${SECURE_SSL_REDIRECT:-false}" SECURE_COOKIES="$${SECURE_COOKIES:-false}"

.secret_key:
	umask 077 && $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

serve: migrate .secret_key
	$(PROD_ENV) $(BIN)/python manage.py collectstatic --noinput -v0
	$(PROD_ENV) $(WORKER) & $(WITH_WORKER) \
	$(PROD_ENV) $(BIN)/gunicorn -c gunicorn.conf.py pinochle_site.wsgi -w $${WORKERS:-2} -b $(HOST):$(PORT) --no-control-socket

# Chromium for the browser tests; installed here when missing so `make test` works on a fresh machine.
system-deps:
	@command -v $${CHROMIUM_PATH:-/usr/bin/chromium} >/dev/null 2>&1 || sh .ci/system-deps

test: deps system-deps lint
	$(BIN)/pytest $(PYTEST_ARGS)

# lint-imports checks the import contracts of pyproject.toml ([tool.importlinter]): which app may
# import which (docs/architecture.md).
lint: deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

# Translations: refresh locale/*/LC_MESSAGES/django.po from the code, then compile the .mo files.
# Needs gettext (xgettext, msgmerge, msgfmt); the compiled .mo files are committed, so `make run`
# and `make test` never need it. Workflow: docs/i18n.md.
messages: deps
	$(BIN)/python manage.py makemessages -l sv -l cs --ignore=.venv --ignore=staticfiles --ignore=test-output
	$(BIN)/python manage.py compilemessages -l sv -l cs --ignore=.venv

bench: deps
	$(BIN)/python bench/engine.py

# A 5,000-game season in a throwaway SQLite database: standings, player page, hands.csv export.
bench-league: deps
	$(BIN)/python bench/league.py

# Reliability figures (docs/benchmarks.md): gunicorn with 2 workers on 127.0.0.1, first on
# an SQLite file, then on a throwaway PostgreSQL 15 cluster the script starts and stops itself.
# BENCH_ARGS="--seconds 20" shortens a load run, BENCH_ARGS="--requests 1000" a fuzz run.
bench-load: deps
	$(BIN)/python bench/load.py $(BENCH_ARGS)
	$(BIN)/python bench/load.py --postgres $(BENCH_ARGS)

bench-faults: deps
	$(BIN)/python bench/load.py --faults $(BENCH_ARGS)
	$(BIN)/python bench/load.py --faults --postgres $(BENCH_ARGS)

# A 10.9 MB import through the upload page and the task worker while another client saves hands.
bench-import: deps
	$(BIN)/python bench/import_while_saving.py $(BENCH_ARGS)
	$(BIN)/python bench/import_while_saving.py --postgres $(BENCH_ARGS)

bench-fuzz: deps
	$(BIN)/python bench/fuzz $(BENCH_ARGS)
	$(BIN)/python bench/fuzz --postgres $(BENCH_ARGS)

# How many card tables gunicorn (2 workers, production settings) serves on this machine before the
# p95 of a save passes 250 ms or of a poll 100 ms: SQLite, then a throwaway PostgreSQL cluster.
# BENCH_ARGS="--database sqlite --max 200 --seconds 15" for a quick run.
bench-capacity: deps
	$(BIN)/python bench/capacity.py $(BENCH_ARGS)

# The CPU of each kind of request in bench-capacity's load (a poll answered 304, a save, the night's
# standings...), in this process through Django's WSGI application, with its queries.
# BENCH_ARGS="--profile scorer-304" adds cProfile's view of one kind.
bench-request-cost: deps
	$(BIN)/python bench/request_cost.py $(BENCH_ARGS)

# Club night draws for 8 to 40 players over 3 to 8 rounds: partner repeats, opponent spread, time.
bench-nights: deps
	$(BIN)/python bench/nights.py $(BENCH_ARGS)

# The chip ledger over a season of club nights: settlement, season and statement pages, queries.
bench-ledger: deps
	$(BIN)/python bench/ledger.py $(BENCH_ARGS)

# The chaos journey: 200 hands through the phone's UI (Chromium, Playwright) on a bad network
# (latency 0-800 ms, 10 % of answers dropped, offline spells, double taps, reloads, Back, a second
# phone), then the stored games must equal the intended ones. BENCH_ARGS="--hands 40" shortens it.
bench-chaos: deps system-deps
	$(BIN)/python bench/chaos.py $(BENCH_ARGS)

bench-ratings: deps
	$(BIN)/python bench/ratings.py $(BENCH_ARGS)

# Taps, typed fields and screens scrolled per hand on a 390x844 phone, in Chromium.
bench-taps: deps system-deps
	$(BIN)/python bench/taps.py

clean:
	rm -rf $(VENV) staticfiles test-output
