"""Bad input: thousands of malformed or hostile submissions to every form and the import endpoint.

Against gunicorn (2 workers, DEBUG off) on 127.0.0.1 with a fresh database (SQLite, or
`--postgres` for a throwaway cluster). Every URL pattern of the site gets requests built from a
valid form with random damage: fields dropped, wrong types, huge and negative numbers, unknown
seats and meld items, NUL bytes and long text, forged game codes and ids, a missing or wrong CSRF
token, the wrong method; the import gets broken CSV and JSON, undecodable bytes and a file over
the 10 MB limit. The hostile inputs are shared with the tests (tests/hostile.py): game codes
with a slash, JSON integers past 4,300 digits, duplicate JSON keys, lone surrogates and NUL in
names and cells, Python's integer syntax (`25_0`, `+5`), posts declared in UTF-16, Latin-1 or
UTF-32, HEAD on every page. The admin's forms are fuzzed too, signed in as a staff organiser of
the seeded club, who is not a superuser and must get only the admin's log-in page.

Modules: `payloads` (what is sent), `state` (the seeded database, one request), the request
makers by job (`table_forms`, `account_forms`, `club_forms`, `uploads`, sharing `maker`),
`requests` (the fuzzer and its weights), `wire` (`send`), `checks` (row counts, what counts as
refused, which URL patterns were reached); `__main__` runs them.

Checks: no answer is a 5xx, and a request the server refused (4xx, a form shown again with its
errors, a redirect to the login page) changed no row count in any table (sessions and the
throttles' counts aside: a refused login is meant to count there). The requests run one at a
time so each row-count difference belongs to one request.

    .venv/bin/python bench/fuzz [--requests 6000] [--seed 1] [--postgres]
"""
