# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test serve migrate deps lint system-deps clean bench bench-league

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

run: migrate
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Production-like: gunicorn, DEBUG off, hashed and compressed static files served by whitenoise.
serve: migrate
	DEBUG=false $(BIN)/python manage.py collectstatic --noinput -v0
	DEBUG=false $(BIN)/gunicorn pinochle_site.wsgi -w $${WORKERS:-2} -b $(HOST):$(PORT) --no-control-socket

# Chromium for the browser tests; installed here when missing so `make test` works on a fresh machine.
system-deps:
	@command -v $${CHROMIUM_PATH:-/usr/bin/chromium} >/dev/null 2>&1 || sh .ci/system-deps

test: deps system-deps lint
	$(BIN)/pytest $(PYTEST_ARGS)

lint: deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: deps
	$(BIN)/python bench/engine.py

# A 5,000-game season in a throwaway SQLite database: standings, player page, hands.csv export.
bench-league: deps
	$(BIN)/python bench/league.py

clean:
	rm -rf $(VENV) staticfiles test-output
