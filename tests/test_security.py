import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from pinochle_site.settings import BASE_DIR

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def _production_env() -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "pinochle_site.settings",
        "PATH": "/usr/bin:/bin",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "scores.example.org",
        "CSRF_TRUSTED_ORIGINS": "https://scores.example.org",
    }


def test_it_passes_the_deployment_checks_with_the_production_environment():
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "System check identified no issues" in checked.stdout


def test_it_fails_the_deployment_checks_with_a_weak_secret_key():
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env={**_production_env(), "SECRET_KEY": "short"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode != 0
    assert "security.W009" in checked.stdout + checked.stderr


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/healthz", "/accounts/login/", "/accounts/signup/", "/no-such-page/"])
def test_it_sends_the_security_headers_on_every_page(client, url):
    response = client.get(url)
    assert sorted(response["Content-Security-Policy"].split("; ")) == sorted(CSP.split("; "))
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.django_db
def test_a_view_can_replace_the_policy_for_its_page(rf):
    from csp.decorators import csp_replace
    from csp.middleware import CSPMiddleware
    from django.http import HttpResponse

    @csp_replace({"img-src": ["https://example.org"]})
    def view(request):
        return HttpResponse()

    response = CSPMiddleware(view)(rf.get("/"))
    assert isinstance(response, HttpResponse)
    header = response["Content-Security-Policy"]
    assert "img-src https://example.org" in header
    assert "script-src 'self'" in header


@pytest.mark.django_db
def test_it_marks_the_session_and_csrf_cookies_httponly_and_lax(client, settings, people):
    from tests.access_helpers import PASSWORD

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    session = response.cookies[settings.SESSION_COOKIE_NAME]
    assert session["httponly"]
    assert session["samesite"] == "Lax"


# Templates must not need 'unsafe-inline': no <script> or <style> blocks, no style= or on*= attributes.
INLINE = re.compile(r"<script(?![^>]*\ssrc=)|<style|\sstyle=|\son[a-z]+=", re.IGNORECASE)


@pytest.mark.parametrize(
    "template", sorted(Path(BASE_DIR, "templates").rglob("*.html")), ids=lambda path: path.name
)
def test_it_has_no_inline_script_or_style_in_templates(template):
    assert not INLINE.search(template.read_text()), template


@pytest.mark.django_db
def test_it_explains_a_refused_form_without_saving_anything():
    from django.test import Client

    from tests.access_helpers import make_game

    game = make_game()
    response = Client(enforce_csrf_checks=True).post(f"/g/{game.code}/hand-over/")
    assert response.status_code == 403
    assert "Nothing was saved" in response.content.decode()
    game.refresh_from_db()
    assert game.handover_token_hash == ""
