import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from tests.access_helpers import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_shows_a_sign_up_form_with_labelled_fields(client):
    page = client.get("/accounts/signup/").content.decode()
    for field in ("id_username", "id_email", "id_password1", "id_password2"):
        assert f'<label for="{field}"' in page


def test_it_signs_up_and_logs_the_new_user_in(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "alice", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert User.objects.get(username="alice").email == ""
    assert client.get("/accounts/password/change/").status_code == 200


def test_it_refuses_a_common_password_next_to_the_field(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "alice", "email": "", "password1": "password", "password2": "password"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="id_password2_errors"' in page
    assert "too common" in page
    assert not User.objects.exists()


def test_it_logs_in_and_goes_to_the_next_page(client, alice):
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD, "next": "/accounts/password/change/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/change/"


def test_it_does_not_follow_a_next_link_to_another_site(client, alice):
    response = client.post(
        "/accounts/login/", {"username": "alice", "password": PASSWORD, "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_it_says_so_when_the_password_is_wrong(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_logs_out_only_by_post(client, alice):
    client.force_login(alice)
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_log_out_tells_the_browser_to_forget_the_pages_it_kept_of_the_account(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/logout/")
    assert response["Clear-Site-Data"] == '"cache"'  # not "storage": hands waiting to be sent stay


def test_every_page_says_whose_session_it_was_drawn_for_and_a_new_login_is_a_new_session(client, alice):
    """The service worker keeps offline copies per session (templates/sw.js)."""
    assert client.get("/")["X-Session-Tag"] == "anonymous"
    client.force_login(alice)
    first = client.get("/")["X-Session-Tag"]
    assert first != "anonymous" and client.get("/rules/")["X-Session-Tag"] == first
    assert client.session.session_key not in first  # the key itself is never shown to scripts
    client.post("/accounts/logout/")
    assert client.get("/")["X-Session-Tag"] == "anonymous"
    client.force_login(alice)
    assert client.get("/")["X-Session-Tag"] not in (first, "anonymous")


def test_it_asks_for_a_login_before_changing_a_password(client):
    response = client.get("/accounts/password/change/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_it_changes_a_password(client, alice):
    client.force_login(alice)
    new = "a much newer passphrase"
    response = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)


def test_it_resets_a_forgotten_password_by_email(client, alice):
    response = client.post("/accounts/password/reset/", {"email": "alice@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice@example.org"]
    found = re.search(r"http://testserver(/accounts/password/reset/\S+/)", str(mail.outbox[0].body))
    assert found is not None
    link = found.group(1)
    form_page = client.get(link, follow=True)
    assert form_page.context["validlink"]
    new = "a freshly chosen passphrase"
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    assert done.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)
    assert not client.get(link, follow=True).context["validlink"]


def test_it_sends_no_email_for_an_unknown_address(client):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_it_shows_log_in_links_or_the_user_with_a_log_out_form(rf, alice):
    from django.contrib.auth.models import AnonymousUser
    from django.template.loader import render_to_string

    request = rf.get("/somewhere/")
    request.user = AnonymousUser()
    anonymous = render_to_string("_account_nav.html", {"user": request.user}, request=request)
    assert "/accounts/login/?next=/somewhere/" in anonymous
    assert "/accounts/signup/" in anonymous
    request.user = alice
    signed_in = render_to_string("_account_nav.html", {"user": alice}, request=request)
    assert "alice" in signed_in
    assert 'method="post" action="/accounts/logout/"' in signed_in
    assert "csrfmiddlewaretoken" in signed_in
