import ast
import subprocess
import sys

import pytest


def _start(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter, as `manage.py` would at start-up."""
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={"DJANGO_SETTINGS_MODULE": "pinochle_site.settings", "PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "variable"),
    [
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"DEBUG": "false"}, "SECRET_KEY"),
        ({"DATABASE_URL": "mysql://x@localhost/db"}, "DATABASE_URL"),
        ({"DATABASE_URL": "nonsense"}, "DATABASE_URL"),
        ({"CONN_MAX_AGE": "soon"}, "CONN_MAX_AGE"),
        ({"ALLOWED_HOSTS": " , "}, "ALLOWED_HOSTS"),
    ],
)
def test_it_refuses_a_bad_setting_naming_the_variable(env, variable):
    started = _start(env)
    assert started.returncode != 0
    last_line = started.stderr.strip().splitlines()[-1]
    assert "ImproperlyConfigured" in last_line
    assert variable in last_line


def test_it_starts_with_the_development_defaults():
    assert _start({}).returncode == 0


def test_it_starts_in_production_mode_with_a_secret_key():
    started = _start({"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "scores.example"})
    assert started.returncode == 0, started.stderr


def _settings_of(env: dict[str, str], *names: str) -> dict[str, object]:
    """The named settings as a fresh interpreter reads them from `env`."""
    code = f"from django.conf import settings; print({{n: getattr(settings, n, None) for n in {names!r}}})"
    started = subprocess.run(
        [sys.executable, "-c", code],
        env={"DJANGO_SETTINGS_MODULE": "pinochle_site.settings", "PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert started.returncode == 0, started.stderr
    values: dict[str, object] = ast.literal_eval(started.stdout)  # the values as the child printed them
    return values


def _allowed_hosts(env: dict[str, str]) -> list[str]:
    hosts = _settings_of(env, "ALLOWED_HOSTS")["ALLOWED_HOSTS"]
    assert isinstance(hosts, list)
    return hosts


def test_in_development_the_machines_private_addresses_are_allowed_for_the_phones_at_the_table():
    from core.lan import private_addresses

    hosts = _allowed_hosts({})
    assert hosts[:3] == ["127.0.0.1", "localhost", "[::1]"]
    assert hosts[3:] == private_addresses()
    # Set by hand, or with DEBUG off, the list is exactly what was given.
    assert _allowed_hosts({"ALLOWED_HOSTS": "scores.example"}) == ["scores.example"]
    production = {"DEBUG": "false", "SECRET_KEY": "x" * 50}
    assert _allowed_hosts(production) == ["127.0.0.1", "localhost", "[::1]"]


def test_make_test_runs_the_tests_of_every_app():
    """`make test` runs the folders pyproject.toml lists: an app whose tests folder is missing
    there has tests that never run (the ledger's were, once)."""
    import tomllib
    from pathlib import Path

    from django.apps import apps

    root = Path(__file__).resolve().parent.parent
    listed = set(
        tomllib.loads((root / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["testpaths"]
    )
    with_tests = {
        Path(config.path).name
        for config in apps.get_app_configs()
        if Path(config.path).parent == root and (Path(config.path) / "tests").is_dir()
    }
    assert with_tests, "no app of this project was found"
    assert with_tests - listed == set()
    assert "tests" in listed


PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "scores.example"}


def test_it_trusts_x_forwarded_proto_only_when_a_proxy_is_configured():
    alone = _settings_of(PRODUCTION, "SECURE_PROXY_SSL_HEADER")
    assert alone["SECURE_PROXY_SSL_HEADER"] is None  # a client's own header does not make it secure
    behind = _settings_of({**PRODUCTION, "TRUSTED_PROXY_COUNT": "1"}, "SECURE_PROXY_SSL_HEADER")
    assert behind["SECURE_PROXY_SSL_HEADER"] == ("HTTP_X_FORWARDED_PROTO", "https")


def test_the_language_cookie_is_as_secure_as_the_session_and_csrf_cookies():
    names = ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE")
    production = _settings_of(PRODUCTION, *names, "LANGUAGE_COOKIE_HTTPONLY", "LANGUAGE_COOKIE_SAMESITE")
    assert [production[name] for name in names] == [True, True, True]
    assert production["LANGUAGE_COOKIE_HTTPONLY"] is True
    assert production["LANGUAGE_COOKIE_SAMESITE"] == "Lax"
    plain = _settings_of({**PRODUCTION, "SECURE_COOKIES": "false"}, *names)
    assert [plain[name] for name in names] == [False, False, False]
