"""Settings for the Pinochle scorekeeper, read from the environment.

Development defaults are safe to run on a laptop; production sets SECRET_KEY, DEBUG=false,
ALLOWED_HOSTS and usually DATABASE_URL. Every variable: docs/settings.md; running it: docs/operations.md.
"""

import os
from pathlib import Path

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from pinochle_site.env import envbool, envint, envlist, envstr

# The admin's classes written with their model (`admin.ModelAdmin[Club]`) for the type checker.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DEBUG", True)
SECRET_KEY = envstr("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
if DEBUG and "ALLOWED_HOSTS" not in os.environ:
    # Development: phones on the same Wi-Fi reach `make run HOST=0.0.0.0` by this machine's address.
    from core.lan import private_addresses

    ALLOWED_HOSTS += private_addresses()
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "pinochle_site.apps.LimitedAdminConfig",  # django.contrib.admin, its log-in limited (accounts/lockout.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",  # django-csp: the Content-Security-Policy header (CONTENT_SECURITY_POLICY below)
    "django_htmx",
    "template_partials",
    "django_tasks",
    "django_tasks_db",  # the queue of background tasks (imports), worked by `manage.py db_worker`
    # Import direction (docs/architecture.md): accounts, clubs <- scoring <- league.
    "throttles",  # the client address and the one counter of every throttle; imports no app
    "accounts",
    "clubs",
    "scoring",
    "ratings",
    "league",
    "nights",  # club nights: imports clubs and scoring (docs/architecture.md)
    "ledger",  # the chip ledger: imports nights, scoring and clubs
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before any view or 404 page: their CSRF check reads the body, which Django cannot decode.
    "pinochle_site.middleware.RefuseForeignCharsetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scoring.devices.DeviceMiddleware",
    "csp.middleware.CSPMiddleware",
    # Whose session each page was drawn for: the service worker keeps offline copies per session.
    "pinochle_site.middleware.SessionTagMiddleware",
]

ROOT_URLCONF = "pinochle_site.urls"
WSGI_APPLICATION = "pinochle_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "pinochle_site.display.display",
            ],
            # django-template-partials 25.x does not register its tags by itself.
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
]

_SQLITE_DEFAULT = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    _db = dj_database_url.config(default=_SQLITE_DEFAULT, conn_max_age=envint("CONN_MAX_AGE", 60))
except ValueError as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL this app understands: {exc}") from None
if _db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL + IMMEDIATE transactions keep concurrent writers from "database is locked" (measured
    # with gunicorn -w 2: 2,300 one-row inserts/s against 600 with the defaults).
    _db["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
elif _db["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("DATABASE_URL must be a sqlite:// or postgres:// URL")
DATABASES = {"default": _db}
# dumpdata/loaddata (`backup`, `restore`) keep every microsecond of a time (core/full_json.py).
SERIALIZATION_MODULES = {"json": "core.full_json"}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Per process: the `{% cache %}` blocks of the game page (a hand's row, a blank entry form) and the
# share link's new scoreboard, each keyed on every value it shows, so a process's own copy is never
# out of date (docs/operations.md, "Several machines", has what they take in memory). The counts
# every app server must share (the login limits and the throttles) are rows of the database
# (throttles/counter.py), not cached.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "drawn-parts",
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Failed logins allowed per username, and per client address, within the window; one more is
# refused with 429 without checking the password. The per-address limit is higher because a whole
# club night often shares one Wi-Fi address.
LOGIN_FAILURES_PER_USERNAME = envint("LOGIN_FAILURES_PER_USERNAME", 5)
LOGIN_FAILURES_PER_ADDRESS = envint("LOGIN_FAILURES_PER_ADDRESS", 20)
LOGIN_FAILURE_WINDOW_SECONDS = envint("LOGIN_FAILURE_WINDOW_SECONDS", 15 * 60)
# Counted before the password is checked by the backend first in the list (accounts/lockout.py),
# which refuses the attempt unchecked once a limit is reached, on every login form.
AUTHENTICATION_BACKENDS = [
    "accounts.lockout.LoginLimitsBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Password-reset requests and sign-ups, per client address and per target (email / username)
# in a sliding window (throttles/counter.py); one more is refused with 429.
PASSWORD_RESETS_PER_EMAIL = envint("PASSWORD_RESETS_PER_EMAIL", 3)
PASSWORD_RESETS_PER_ADDRESS = envint("PASSWORD_RESETS_PER_ADDRESS", 10)
SIGNUPS_PER_ADDRESS = envint("SIGNUPS_PER_ADDRESS", 10)
SIGNUPS_PER_USERNAME = envint("SIGNUPS_PER_USERNAME", 3)
ACCOUNT_THROTTLE_WINDOW_SECONDS = envint("ACCOUNT_THROTTLE_WINDOW_SECONDS", 60 * 60)
# The club roles form, per organiser account and per client address in the same window: it looks
# accounts up by name, so it is not a free way to try names.
ROLE_CHANGES_PER_ACCOUNT = envint("ROLE_CHANGES_PER_ACCOUNT", 30)
ROLE_CHANGES_PER_ADDRESS = envint("ROLE_CHANGES_PER_ADDRESS", 60)
# How many reverse proxies in front of the app append to X-Forwarded-For; 0 trusts only
# REMOTE_ADDR (a client can write anything into X-Forwarded-For).
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", 0)

# Imports (league/imports/): the largest file accepted, in MB (a bigger upload is refused before
# it is read); how many games one short write transaction holds; how many unfinished imports one
# account, and the whole site, may have waiting or running at once (one upload more is refused with
# 429 before its file is read); after how long without a sign of life a running import is refused
# (its worker was killed or its machine stopped) and its hidden games deleted.
IMPORT_MAX_MB = envint("IMPORT_MAX_MB", 20)
IMPORT_CHUNK_GAMES = envint("IMPORT_CHUNK_GAMES", 20)
IMPORTS_WAITING_PER_USER = envint("IMPORTS_WAITING_PER_USER", 2)
IMPORTS_WAITING_PER_SITE = envint("IMPORTS_WAITING_PER_SITE", 10)
IMPORT_STALLED_SECONDS = envint("IMPORT_STALLED_SECONDS", 180)
# After each chunk an import rests this share of the time the chunk took to write (100: as long).
IMPORT_WRITE_PAUSE_PERCENT = envint("IMPORT_WRITE_PAUSE_PERCENT", 100)

# The most `manage.py restore` reads, decompressed: a backup of a club's many years of play is some
# tens of MB (about 1 KB a hand with its statistics), so 20 times the largest plausible one; beyond it
# a file is refused unread, so a small compressed file cannot fill the memory.
RESTORE_MAX_BYTES = envint("RESTORE_MAX_BYTES", 512 * 1024 * 1024)

# Background tasks (Django's task framework, the django-tasks backport): queued in the database,
# so every web worker enqueues and any number of `manage.py db_worker` processes, on this machine
# or others sharing the database, run them. `make run` and `make serve` start one beside the server.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

# The browser that created a game keeps its edit right this long; a handover link lives this long.
EDIT_TOKEN_MAX_AGE_DAYS = envint("EDIT_TOKEN_MAX_AGE_DAYS", 365)
HANDOVER_LINK_MINUTES = envint("HANDOVER_LINK_MINUTES", 15)
# Wrong recovery codes at one game (scoring/handover.py): at most this many from one browser, from
# one client address and from everyone in the window, then that browser, address or everyone is
# refused unchecked until the oldest failure leaves the window. A spectator with the share link
# locks out only his own browser; one address (a club's Wi-Fi) cannot use up the game's own limit.
RECOVERY_FAILURES_PER_CLIENT = envint("RECOVERY_FAILURES_PER_CLIENT", 5)
RECOVERY_FAILURES_PER_ADDRESS = envint("RECOVERY_FAILURES_PER_ADDRESS", 20)
RECOVERY_FAILURES_PER_GAME = envint("RECOVERY_FAILURES_PER_GAME", 40)
RECOVERY_FAILURE_WINDOW_SECONDS = envint("RECOVERY_FAILURE_WINDOW_SECONDS", 15 * 60)

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("sv", "Svenska"), ("cs", "Čeština")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# How each language prints a date (pinochle_site/formats/<language>/formats.py).
FORMAT_MODULE_PATH = ["pinochle_site.formats"]
# Django's default language cookie ends with the browser session; a phone at the card table
# should keep the language its players chose, so the switcher's choice lasts a year.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
# No script reads it (the switcher is a form), and it goes with top-level links like the session.
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = envstr("TIME_ZONE", "Europe/Stockholm")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_AUTOREFRESH = DEBUG

EMAIL_BACKEND = envstr("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = envstr("DEFAULT_FROM_EMAIL", "webmaster@localhost")

# Headers on every response, also in development so pages are built against them from the start.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
# Only the app's own files: no inline scripts, styles or style= attributes (pinochle_site/middleware.py).
# Sent on every response by django-csp: only the app's own scripts and styles, so no page may use
# an inline <script>, <style> or style="" attribute (a test scans the templates). htmx would inject an
# inline indicator style unless base.html turns it off (`includeIndicatorStyles: false`).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

if not DEBUG:
    SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = envbool("SECURE_COOKIES", True)
    LANGUAGE_COOKIE_SECURE = envbool("SECURE_COOKIES", True)
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
    if TRUSTED_PROXY_COUNT > 0:
        # Only a proxy in front of the app may say the request came over HTTPS: without one, a
        # client could write X-Forwarded-Proto itself and pass for secure.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    if not SECURE_HSTS_PRELOAD:
        # Preloading is the domain owner's decision, taken at hstspreload.org and hard to undo;
        # SECURE_HSTS_PRELOAD=true opts in. Without it, check --deploy would always warn.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "WARNING")},
}
