#!/bin/sh
# Web benchmark (see bench/web.py): gunicorn with 2 workers on 127.0.0.1:8301, wrk for 10 s each.
set -e
cd "$(dirname "$0")/.."
exec .venv/bin/python bench/web.py "$@"
