from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from core.qr import qr_svg
from scoring.devices import DEVICE_COOKIE
from scoring.handover import claim_handover, recovery_code, start_handover
from scoring.models import Device, Game
from scoring.permissions import can_edit_game
from scoring.views import sharing
from tests.access_helpers import (
    client_with_token,
    make_game,
    request_as,
)
from tests.helpers import found

pytestmark = pytest.mark.django_db


def _handover_link(client, game):
    response = client.post(f"/g/{game.code}/hand-over/")
    assert response.status_code == 200
    page = response.content.decode()
    return found(r'href="http://testserver(/g/[^"]+/take-over/[^"]+/)"', page), page


def _can_edit(client, game):
    cookie = client.cookies.get(DEVICE_COOKIE)
    cookies = {DEVICE_COOKIE: cookie.value} if cookie else {}
    return can_edit_game(request_as(cookies=cookies), Game.objects.get(pk=game.pk))


def test_it_hands_the_edit_right_to_the_phone_that_opens_the_link():
    game = make_game(hands=1)
    first = client_with_token(game)
    link, page = _handover_link(first, game)
    assert '<svg role="img" aria-label="QR code of the handover link"' in page
    second = Client()
    assert second.get(link).status_code == 200
    assert not _can_edit(second, game), "opening the link (or a link preview) changes nothing"
    response = second.post(link)
    assert response.status_code == 302
    assert _can_edit(second, game)
    assert not _can_edit(first, game)


def test_a_head_request_on_the_link_asks_like_a_get_and_claims_nothing():
    game = make_game()
    first = client_with_token(game)
    link, _page = _handover_link(first, game)
    second = Client()
    assert second.head(link).status_code == 200
    assert not _can_edit(second, game), "a link checker's HEAD changes nothing"
    assert _can_edit(first, game)
    assert second.post(link).status_code == 302


def test_it_uses_a_handover_link_once():
    game = make_game()
    link, _page = _handover_link(client_with_token(game), game)
    assert Client().post(link).status_code == 302
    third = Client()
    assert third.get(link).status_code == 410
    assert third.post(link).status_code == 410
    assert not _can_edit(third, game)


def test_it_refuses_an_expired_or_replaced_link():
    game = make_game()
    old = start_handover(game=game)
    new = start_handover(game=game)
    device = Device.objects.create(id_hash="a" * 64)
    assert claim_handover(game=game, token=old, device=device) is False
    Game.objects.filter(pk=game.pk).update(handover_expires_at=timezone.now() - timedelta(seconds=1))
    assert claim_handover(game=game, token=new, device=device) is False


def test_it_refuses_a_made_up_token():
    game = make_game()
    start_handover(game=game)
    assert Client().post(f"/g/{game.code}/take-over/{'x' * 43}/").status_code == 410


def test_it_lets_only_an_editor_start_a_handover(people):
    game = make_game()
    stranger = people.client("charlie")
    assert stranger.post(f"/g/{game.code}/hand-over/").status_code == 403
    assert Client().post(f"/g/{game.code}/hand-over/").status_code == 302
    assert client_with_token(game).get(f"/g/{game.code}/hand-over/").status_code == 405
    assert Game.objects.get(pk=game.pk).handover_token_hash == ""


def test_it_draws_a_qr_code_without_inline_styles():
    svg = qr_svg("https://scores.example/games/abc/take-over/xyz/", title='a "quoted" <title>')
    assert svg.startswith('<svg role="img" aria-label="a &quot;quoted&quot; &lt;title&gt;"')
    assert "style" not in svg
    assert "<path" in svg


def test_the_phone_that_handed_over_keeps_watching_read_only():
    game = make_game(hands=1)
    first = client_with_token(game)
    link, _page = _handover_link(first, game)
    Client().post(link)
    game.refresh_from_db()
    response = first.get(f"/g/{game.code}/")
    assert response.status_code == 302
    assert response["Location"] == f"/s/{game.share_code}/"  # the read-only scoreboard, not the login
    assert first.post(f"/g/{game.code}/hands", {"number": "2"}).status_code == 302  # a write: to log in
    assert Game.objects.get(pk=game.pk).hand_count == 1
    # A browser that never held the edit right is told why and offered the take-over form.
    stranger = Client().get(f"/g/{game.code}/")
    assert stranger.status_code == 403
    assert "Take over scoring" in stranger.content.decode()


def test_the_phone_that_lost_the_scoring_is_told_when_and_keeps_the_hand_it_sent_to_copy():
    from django.utils import timezone as tz

    from scoring.models import Hand
    from tests.helpers import hand_post, text

    game = make_game()
    first = client_with_token(game)
    link, _page = _handover_link(first, game)
    assert Client().post(link).status_code == 302
    at = tz.localtime(game.device_rights.get(active=True).granted_at).strftime("%H:%M")
    # The old phone, without JavaScript, saves the hand it had on its form: nothing is written,
    # and it lands on the read-only page, which says since when and shows what it sent.
    post = hand_post(1, {"bidder": "S", "bid": "27", "trump": "hearts", "tricks_NS": "15"})
    response = first.post(f"/g/{game.code}/hands", post, follow=True)
    page = text(response)
    assert response.redirect_chain[-1][0] == f"/s/{game.share_code}/"
    assert f"Scoring moved to another phone at {at}." in page
    assert "Bidder: South (Cecilia) Bid: 27 Trump: ♥ Hearts N–S (Anna & Cecilia): 15" in page
    assert Hand.objects.filter(game=game).count() == 0
    # The old phone's script gets 409 (its outbox keeps the hand, refused), and nothing is written.
    assert first.post(f"/g/{game.code}/hands", post, HTTP_HX_REQUEST="true").status_code == 409
    assert Hand.objects.filter(game=game).count() == 0


def test_the_old_phones_poll_swaps_the_read_only_game_in_without_a_reload_and_says_since_when():
    from django.utils import timezone as tz

    game = make_game()
    first = client_with_token(game)
    link, _page = _handover_link(first, game)
    assert Client().post(link).status_code == 302
    at = tz.localtime(game.device_rights.get(active=True).granted_at).strftime("%H:%M")
    page_url = f"http://testserver/g/{game.code}/"
    poll = first.get(
        f"/g/{game.code}/live?v=0", HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=page_url, follow=True
    )
    assert poll.redirect_chain == [(f"/s/{game.share_code}/", 302)]
    assert "HX-Redirect" not in poll.headers  # no page load: the game's page swaps this in
    assert poll["HX-Retarget"] == "#game" and poll["HX-Reswap"] == "outerHTML"
    assert "HX-Replace-Url" not in poll.headers  # nothing of the page before kept by htmx
    html = poll.content.decode()
    assert html.lstrip().startswith('<div id="game"')
    assert f"Scoring moved to another phone at {at}." in html
    assert 'id="hand-form"' not in html and 'id="unsent-strings"' in html
    assert f'data-url="/s/{game.share_code}/"' in html  # the address the page takes (moved.js)
    # A script's request from another page than the game's (its table view) opens the read-only page.
    other = first.get(f"/g/{game.code}/live", HTTP_HX_REQUEST="true", HTTP_HX_CURRENT_URL=f"{page_url}table/")
    assert other["HX-Redirect"] == f"/s/{game.share_code}/"


def test_without_javascript_the_old_phone_opening_the_game_is_told_it_moved():
    game = make_game()
    first = client_with_token(game)
    link, _page = _handover_link(first, game)
    assert Client().post(link).status_code == 302
    page = first.get(f"/g/{game.code}/", follow=True).content.decode()
    assert "Scoring moved to another phone at" in page
    assert 'id="hand-form"' not in page


def test_a_save_the_script_sent_after_the_take_over_is_refused_and_left_to_the_script_to_keep():
    from tests.helpers import hand_post

    game = make_game()
    first = client_with_token(game)
    link, _page = _handover_link(first, game)
    assert Client().post(link).status_code == 302
    post = hand_post(1, {"bidder": "S", "bid": "27", "trump": "hearts", "tricks_NS": "15"})
    assert first.post(f"/g/{game.code}/hands", post, HTTP_HX_REQUEST="true").status_code == 409
    # The phone's outbox keeps it: the read-only page draws no second copy of it from the server.
    page = first.get(f"/s/{game.share_code}/").content.decode()
    assert "Bid: 27" not in page
    assert game.hands.count() == 0


def test_the_count_of_unsent_hands_is_said_in_each_languages_plural_forms():
    from django.utils import translation

    from scoring.unsent import unsent_strings

    with translation.override("cs"):
        title = unsent_strings()["title"]
    assert title["one"].startswith("{count} rozdání není uloženo, je jen")
    assert title["few"].startswith("{count} rozdání nejsou uložena")
    assert title["other"].startswith("{count} rozdání není uloženo")
    with translation.override("sv"):
        title = unsent_strings()["title"]
    assert title["one"].startswith("{count} giv är") and title["other"].startswith("{count} givar är")


def test_a_handover_link_made_before_a_take_over_moves_nothing_after_it():
    """The scoring phone makes a handover link and nobody uses it; then another phone takes the
    scoring over with the recovery code (the first was lost, say). The old link moves nothing: not
    to a stranger, not back to the phone that lost the scoring."""
    game = make_game(hands=1)
    first = client_with_token(game)
    link, _page = _handover_link(first, game)
    second = Client()
    assert second.post(f"/g/{game.code}/recover", {"recovery_code": recovery_code(game)}).status_code == 302
    assert _can_edit(second, game)
    for someone in (Client(), first):
        assert someone.post(link).status_code == 410
        assert not _can_edit(someone, game)
    assert _can_edit(second, game)


def test_a_phone_that_lost_the_scoring_since_its_checks_gets_no_handover_link(monkeypatch):
    """A take-over lands between the hand-over tap's checks and its link: the right is read again
    under the game's lock, and the phone that lost the scoring is sent back to the game (where it is
    told the scoring moved), with no link to take it back."""
    game = make_game(hands=1)
    first = client_with_token(game)
    second = Client()
    checked = can_edit_game  # the check the view makes under the lock
    taken: list[int] = []

    def taken_over_meanwhile(request, locked):
        if not taken:  # the other phone's take-over, just before the check under the lock
            taken.append(
                second.post(f"/g/{game.code}/recover", {"recovery_code": recovery_code(game)}).status_code
            )
        return checked(request, locked)

    monkeypatch.setattr(sharing, "can_edit_game", taken_over_meanwhile)
    response = first.post(f"/g/{game.code}/hand-over/")
    assert taken == [302]
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    assert Game.objects.get(pk=game.pk).handover_token_hash == ""
    assert _can_edit(second, game) and not _can_edit(first, game)
