"""Round control on a club night: the organiser follows every table of the round in play, calls
the last hand (each table's game ends after its next saved hand; taken back until a table saves),
or gives the rounds a number of minutes (the hand in play when time is up is the last); each table's
phone says the hands or minutes left, the last hand, and waits for the next round."""

from __future__ import annotations

import datetime
import html
import re
import zoneinfo
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from clubs.models import Club
from nights import arrivals, rounds, services
from nights.models import Night, NightTable
from scoring.models import Game
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB
from tests.helpers import found, hand_post, quick_hand, text
from tests.ledger_helpers import roster

pytestmark = pytest.mark.django_db

EVENING = datetime.datetime(2026, 11, 5, 19, 0, tzinfo=zoneinfo.ZoneInfo("Europe/Stockholm"))
NAMES = ("Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana")


def open_night(round_ends: str = "game", *, hands: int | None = None, minutes: int | None = None) -> Night:
    """A night of 8 players (two tables a round), two rounds, round 1 started."""
    club = Club.objects.get(pk=CLUB)
    night = services.open_night(
        club=club, season=None, played_on=EVENING.date(), variant="standard", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=2, round_ends=round_ends,
        hands_per_round=hands, stake_per_chip=None, stake_per_win=Decimal("1.00"), created_by=None,
        round_minutes=minutes,
    )  # fmt: skip
    for player in roster(club, *NAMES):
        arrivals.set_checked_in(night=night, player=player, present=True)
    services.draw_plan(night=night)
    rounds.start_round(night=night, round_no=1)
    return night


def tables(night: Night, round_no: int = 1) -> list[NightTable]:
    return list(night.tables.filter(round_no=round_no).select_related("game").order_by("table_no"))


def save_hand(game: Game, hand: dict[str, Any] | None = None) -> Game:
    game.refresh_from_db()
    record_hand(game=game, number=game.hand_count + 1, data=hand or quick_hand())
    game.refresh_from_db()
    return game


def games(night: Night, round_no: int = 1) -> list[Game]:
    return [t.game for t in tables(night, round_no) if t.game is not None]


# --- last hand ----------------------------------------------------------------------------------


def test_it_ends_each_table_after_its_next_hand_once_the_last_hand_is_called(people):
    night = open_night()
    first, second = games(night)
    save_hand(first)
    save_hand(first)
    assert rounds.call_last_hand(night=night) == 1
    first = save_hand(first)  # N-S lead 75 to 30 after three hands, far from the target
    assert first.finished and first.hand_count == 3 and first.winner == "NS"
    assert not Game.objects.get(pk=second.pk).finished  # the other table is still on its last hand
    second = save_hand(second, quick_hand(bidder="E", ns_meld=0, ns_tricks=5))
    assert second.finished and second.hand_count == 1
    assert not rounds.open_play(night).tables  # the round is over: round 2 may start


def test_the_last_hand_is_taken_back_until_a_table_saves(people):
    night = open_night(Night.RoundEnds.HANDS, hands=5)
    first, second = games(night)
    rounds.call_last_hand(night=night)
    assert rounds.take_back_last_hand(night=night) == 1
    assert not save_hand(first).finished  # the round of five hands goes on as it was set
    rounds.call_last_hand(night=night)
    assert save_hand(second).finished
    with pytest.raises(ValidationError, match="cannot be taken back"):
        rounds.take_back_last_hand(night=night)
    assert save_hand(first).finished  # the call still holds for the table that has not saved


def test_the_last_hand_cannot_be_called_when_no_table_plays(people):
    night = open_night()
    rounds.call_last_hand(night=night)
    for game in games(night):
        save_hand(game)
    with pytest.raises(ValidationError, match="No table is playing"):
        rounds.call_last_hand(night=night)


# --- a round of minutes -------------------------------------------------------------------------


def test_a_round_of_minutes_ends_with_the_hand_in_play_when_time_is_up(people, time_machine):
    time_machine.move_to(EVENING, tick=False)
    night = open_night(Night.RoundEnds.MINUTES, minutes=30)
    first, second = games(night)
    time_machine.move_to(EVENING + datetime.timedelta(minutes=29, seconds=59), tick=False)
    assert not save_hand(first).finished  # saved before time is up: the round goes on
    time_machine.move_to(EVENING + datetime.timedelta(minutes=31), tick=False)
    first = save_hand(first)  # the hand in play when time ran out: the last
    assert first.finished and first.hand_count == 2 and first.winner == "NS"
    assert not Game.objects.get(pk=second.pk).finished  # a table finishes its own hand
    assert save_hand(second).finished


def test_the_last_hand_in_a_round_of_minutes_is_taken_back_to_the_clock(people, time_machine):
    time_machine.move_to(EVENING, tick=False)
    night = open_night(Night.RoundEnds.MINUTES, minutes=30)
    first, _second = games(night)
    time_machine.move_to(EVENING + datetime.timedelta(minutes=10), tick=False)
    rounds.call_last_hand(night=night)
    rounds.take_back_last_hand(night=night)
    time_machine.move_to(EVENING + datetime.timedelta(minutes=11), tick=False)
    assert not save_hand(first).finished
    time_machine.move_to(EVENING + datetime.timedelta(minutes=30), tick=False)
    assert save_hand(first).finished


# --- the phone ----------------------------------------------------------------------------------


def phone_at(table: NightTable) -> Client:
    phone = Client()
    phone.post(f"/nights/t/{table.token}/")
    return phone


@pytest.mark.parametrize(
    ("lang", "left", "last"),
    [
        ("en", "3 hands left in round 1", "Last hand of round 1"),
        ("sv", "3 givar kvar i omgång 1", "Sista given i omgång 1"),
        ("cs", "Zbývají 3 rozdání 1. kola", "Poslední rozdání 1. kola"),
    ],
)
def test_the_phone_shows_the_hands_left_and_the_last_hand(people, lang, left, last):
    night = open_night(Night.RoundEnds.HANDS, hands=4)
    table = tables(night)[0]
    assert table.game is not None
    phone = phone_at(table)
    lang_header = {"Accept-Language": lang}
    phone.post(f"/g/{table.game.code}/hands", hand_post(1), headers=lang_header)
    assert left in text(phone.get(f"/g/{table.game.code}/", headers=lang_header))
    rounds.call_last_hand(night=night)
    assert last in text(phone.get(f"/g/{table.game.code}/", headers=lang_header))
    assert last in text(phone.get(f"/nights/t/{table.token}/", headers=lang_header))


@pytest.mark.parametrize(
    ("lang", "left"),
    [
        ("en", "12 minutes left in round 1"),
        ("sv", "12 minuter kvar av omgång 1"),
        ("cs", "Zbývá 12 minut 1. kola"),
    ],
)
def test_the_phone_shows_the_minutes_left_without_javascript(people, time_machine, lang, left):
    time_machine.move_to(EVENING, tick=False)
    night = open_night(Night.RoundEnds.MINUTES, minutes=30)
    table = tables(night)[0]
    assert table.game is not None
    phone = phone_at(table)
    time_machine.move_to(EVENING + datetime.timedelta(minutes=18, seconds=30), tick=False)
    page = phone.get(f"/g/{table.game.code}/", headers={"Accept-Language": lang})
    assert left in text(page)
    assert b'data-countdown-seconds="690"' in page.content  # a script, if any, counts down from there
    time_machine.move_to(EVENING + datetime.timedelta(minutes=30), tick=False)
    page = phone.get(f"/g/{table.game.code}/", headers={"Accept-Language": "en"})
    assert "Last hand of round 1" in text(page)


@pytest.mark.parametrize(
    ("lang", "waiting", "started"),
    [
        ("en", "Waiting for round 2", "Go to table 1 of round 2"),
        ("sv", "Väntar på omgång 2", "Gå till bord 1 i omgång 2"),
        ("cs", "Čeká se na 2. kolo", "Jít ke stolu 1 v 2. kole"),
    ],
)
def test_a_finished_table_waits_for_the_next_round_then_leads_to_it(people, lang, waiting, started):
    night = open_night()
    table = tables(night)[0]
    assert table.game is not None
    phone = phone_at(table)
    rounds.call_last_hand(night=night)
    headers = {"Accept-Language": lang}
    phone.post(f"/g/{table.game.code}/hands", hand_post(1), headers=headers)
    for url in (f"/nights/t/{table.token}/", f"/g/{table.game.code}/", f"/s/{table.game.share_code}/"):
        assert waiting in text(phone.get(url, headers=headers, follow=True)), url
    for game in games(night):
        if not Game.objects.get(pk=game.pk).finished:
            save_hand(game)
    rounds.start_round(night=night, round_no=2)
    page = phone.get(f"/nights/t/{table.token}/", headers=headers)
    assert waiting not in text(page) and started in text(page)
    following = tables(night, 2)[0]
    assert f'href="/nights/t/{following.token}/"'.encode() in page.content


# --- the organiser's page -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "played", "scores", "button"),
    [
        ("en", "2 hands played", "N–S 50 · E–W 20", "Last hand"),
        ("sv", "2 givar spelade", "N–S 50 · Ö–V 20", "Sista given"),
        ("cs", "2 odehraná rozdání", "S–J 50 · V–Z 20", "Poslední rozdání"),
    ],
)
def test_the_organiser_sees_every_table_and_calls_the_last_hand_without_javascript(
    alice_client, lang, played, scores, button
):
    night = open_night()
    first, _second = games(night)
    save_hand(first)
    save_hand(first)
    headers = {"Accept-Language": lang}
    page = text(alice_client.get(f"/nights/{night.pk}/", headers=headers))
    assert played in page and scores in page and button in page
    live = alice_client.get(f"/nights/{night.pk}/tables/live", headers=headers)
    assert played in text(live) and b'hx-trigger="every 5s"' in live.content
    answer = alice_client.post(f"/nights/{night.pk}/last-hand", headers=headers)
    assert answer.status_code == 302 and answer["Location"].endswith("#live-tables")
    night.refresh_from_db()
    assert night.last_hand_round == 1
    page = text(alice_client.get(f"/nights/{night.pk}/", headers={"Accept-Language": "en"}))
    assert "Take back the last hand" in page
    alice_client.post(f"/nights/{night.pk}/last-hand", {"take_back": "yes"})
    night.refresh_from_db()
    assert night.last_hand_round is None


def test_a_finished_round_stops_the_live_tables(alice_client):
    night = open_night()
    rounds.call_last_hand(night=night)
    for game in games(night):
        save_hand(game)
    live = alice_client.get(f"/nights/{night.pk}/tables/live")
    assert "Every table of round 1 has finished." in text(live)
    assert b"hx-trigger" not in live.content


def test_a_night_of_minutes_is_opened_with_its_minutes(alice_client):
    data = {"played_on": "2026-11-05", "variant": "standard", "deck": "single", "rounds": "3",
            "round_ends": "minutes"}  # fmt: skip
    answer = alice_client.post(f"/nights/clubs/{CLUB}/new", data)
    assert answer.status_code == 400 and "Enter how many minutes a round lasts." in text(answer)
    assert alice_client.post(f"/nights/clubs/{CLUB}/new", {**data, "round_minutes": "25"}).status_code == 302
    night = Night.objects.latest("pk")
    assert (night.round_ends, night.round_minutes, night.hands_per_round) == ("minutes", 25, None)
    assert "3 rounds of 25 minutes" in text(alice_client.get(f"/nights/{night.pk}/"))


@pytest.fixture
def alice_client(people) -> Client:
    client: Client = people.client("alice")
    return client


def test_the_organiser_sees_the_minutes_left_and_then_the_last_hand(alice_client, time_machine):
    time_machine.move_to(EVENING, tick=False)
    night = open_night(Night.RoundEnds.MINUTES, minutes=30)
    time_machine.move_to(EVENING + datetime.timedelta(minutes=18, seconds=1), tick=False)
    assert "12 minutes left in round 1" in text(alice_client.get(f"/nights/{night.pk}/tables/live"))
    time_machine.move_to(EVENING + datetime.timedelta(minutes=30), tick=False)
    live = text(alice_client.get(f"/nights/{night.pk}/tables/live"))
    assert "Last hand of round 1" in live and "Table 1 · 0 hands played · N–S 0 · E–W 0 · last hand" in live


def test_a_phone_that_keeps_the_page_open_hears_of_the_last_hand_by_its_poll(people):
    night = open_night(Night.RoundEnds.HANDS, hands=4)
    table = tables(night)[0]
    assert table.game is not None
    phone = phone_at(table)
    page = phone.get(f"/g/{table.game.code}/")
    version = re.search(r'/live\?v=([^"&]+)"', page.content.decode())
    assert version is not None and "4 hands left in round 1" in text(page)
    poll = {"HX-Request": "true"}
    assert phone.get(f"/g/{table.game.code}/live?v={version[1]}", headers=poll).status_code == 204
    rounds.call_last_hand(night=night)
    answer = phone.get(f"/g/{table.game.code}/live?v={version[1]}", headers=poll)
    assert answer.status_code == 200 and 'id="plan-notice" hx-swap-oob="true"' in answer.content.decode()
    assert "Last hand of round 1" in text(answer)


@pytest.mark.parametrize(
    ("lang", "question", "ends", "elsewhere", "waiting"),
    [
        ("en", "Hand 1 saved: is it right?", "Round 1 ends when the other side has OK'd the last hand.",
         "The last hand waits for the other side's OK", "Waiting for round 2"),
        ("sv", "Giv 1 sparad: stämmer den?", "Omgång 1 slutar när andra sidan har godkänt sista given.",
         "Sista given väntar på andra sidans OK", "Väntar på omgång 2"),
        ("cs", "Rozdání 1 uloženo: je v pořádku?",
         "1. kolo skončí, až druhá strana potvrdí poslední rozdání.",
         "Poslední rozdání čeká na potvrzení druhé strany", "Čeká se na 2. kolo"),
    ],
)  # fmt: skip
def test_a_table_link_asks_for_the_ok_of_its_last_hand_before_anything_else(
    people, lang, question, ends, elsewhere, waiting
):
    # With the opponents' OK on, the table's last hand saved is not the end of its round: the table
    # link asks the OK first (above "Round over"), and says the round waits for it, not for round 2.
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    night = open_night()
    table = tables(night)[0]
    assert table.game is not None
    phone = phone_at(table)
    rounds.call_last_hand(night=night)
    headers = {"Accept-Language": lang}
    phone.post(f"/g/{table.game.code}/hands", hand_post(1), headers=headers)
    link = f"/nights/t/{table.token}/"
    page = html.unescape(text(phone.get(link, headers=headers)))
    assert question in page and ends in page and waiting not in page
    assert page.index(question) < page.index(ends)
    round_over = {"en": "Round over", "sv": "Omgången är slut", "cs": "Konec kola"}[lang]
    assert page.index(question) < page.index(round_over)
    assert f'action="/g/{table.game.code}/hands/1/confirm"'.encode() in phone.get(link).content
    onlooker = html.unescape(text(Client().get(link, headers=headers)))  # another phone at the table
    assert elsewhere in onlooker and ends in onlooker and waiting not in onlooker
    assert b"/confirm" not in Client().get(link).content  # only the scoring phone takes the OK
    game = Game.objects.get(pk=table.game.pk)
    seen = re.search(rb'name="seen" value="(\w+)"', phone.get(link).content)
    assert seen is not None
    phone.post(f"/g/{game.code}/hands/1/confirm", {"seen": seen.group(1).decode()})
    page = html.unescape(text(phone.get(link, headers=headers)))
    assert waiting in page and question not in page and ends not in page


@pytest.mark.parametrize("htmx", [False, True])
def test_the_ok_tapped_on_a_table_link_goes_back_to_it_to_show_where_the_players_sit_next(people, htmx):
    # The phone stays on the table's link after the OK, with or without JavaScript: the round is
    # over there, and it says what comes next; the game's page would not.
    Club.objects.filter(pk=CLUB).update(confirm_hands=True)
    night = open_night()
    table = tables(night)[0]
    assert table.game is not None
    phone = phone_at(table)
    rounds.call_last_hand(night=night)
    phone.post(f"/g/{table.game.code}/hands", hand_post(1))
    link = f"/nights/t/{table.token}/"
    form = found(r'<form[^>]*/hands/1/confirm"[^>]*>(.*?)</form>', phone.get(link).content.decode())
    posted = dict(re.findall(r'<input type="hidden" name="(seen|next)" value="([^"]*)"', form))
    assert posted["next"] == link
    response = phone.post(
        f"/g/{table.game.code}/hands/1/confirm", posted, headers={"HX-Request": "true"} if htmx else {}
    )
    assert (response["HX-Redirect"] if htmx else response["Location"]) == link
    page = text(phone.get(link))
    assert "Hand 1 confirmed." in page and "Waiting for round 2" in page
    assert Game.objects.get(pk=table.game.pk).unconfirmed_hands == 0
