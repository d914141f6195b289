"""A backup restored into a fresh, empty database shows every page and every export of a club byte
for byte as before, and a table's phone scores on through its link.

The club: a Check Pinochle night played for money (a bye every round) and a standard night with a
stake per game won, a late arrival, a leaver and a swap, both finished, with payments marked and one
removed, and a payment recorded by Swish that the settlement did not propose; a night of rounds of 3
hands (its games over after the third hand), paid in full and locked as settled; an open night
whose table is mid-round, scored by a phone through the table's link; a merged duplicate player and
a deleted game, so the ids have gaps a restore must keep. Every page is read before the backup; the
database is then flushed (every table emptied, as a new database), the backup restored, and every
page read again. Only what differs between two reads of the same page
is masked: the CSRF tokens and the forms' one-time ids (the share link's host is the same test
server here, and masked all the same). After the restore the locked night still refuses a payment and
a game of the round of 3 hands a fourth hand. Runs on SQLite and PostgreSQL (CI runs both).
"""

from __future__ import annotations

import datetime
import io
import json
import re
import time
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.test import Client

from clubs import services as club_services
from clubs.models import Club, Membership, Player, Season
from ledger import selectors as ledger_selectors
from ledger import services as ledger_services
from ledger.models import Payment
from nights import arrivals
from nights import removal as night_removal
from nights import rounds as night_rounds
from nights import services as night_services
from nights.models import Night, NightTable
from scoring.models import Game
from scoring.rules.errors import RecordError
from scoring.services.games import create_game, delete_game
from scoring.services.hands import record_hand
from tests.access_helpers import CLUB, PASSWORD
from tests.helpers import hand_post
from tests.ledger_helpers import CHECK_HANDS, standard_hand

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Anna", "Bo", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ida"]
PUBLISH_CODE = "autumn-results-2026"


def _play(game: Game, hands: list[dict[str, Any]]) -> None:
    """Score hands until the game is over (the engine refuses the next)."""
    for hand in hands:
        game.refresh_from_db()
        if game.finished:
            return
        try:
            record_hand(game=game, number=game.hand_count + 1, data=hand)
        except RecordError:
            return


def _night(club: Club, season: Season, alice, **settings) -> Night:
    options = {
        "club": club, "season": season, "deck": "single", "min_bid": None, "meld_needs_trick": False,
        "round_ends": "game", "hands_per_round": None, "stake_per_chip": None, "stake_per_win": None,
        "created_by": alice, **settings,
    }  # fmt: skip
    night = night_services.open_night(**options)
    Night.objects.filter(pk=night.pk).update(seed=night.pk * 7919)  # the same plan on every run
    night.refresh_from_db()
    return night


def _check_in(night: Night, names: list[str]) -> None:
    for name in names:
        arrivals.set_checked_in(night=night, player=Player.objects.get(name=name), present=True)


def _play_round(night: Night, round_no: int, hands: list[dict[str, Any]]) -> None:
    for game in night_rounds.start_round(night=night, round_no=round_no):
        _play(game, hands)


def _pay(alice, night: Night, *, count: int) -> list[Payment]:
    """Mark the first payment the settlement proposes, `count` times."""
    night.refresh_from_db()
    paid = []
    for _time in range(count):
        s = ledger_selectors.night_ledger(night).suggestions[0]
        paid.append(ledger_services.mark_paid(
            actor=alice, club=night.club, night=night, season=None, payer=s.payer, payee=s.payee,
            amount=s.amount, unit=s.unit, token=uuid.uuid4(),
        ).payment)  # fmt: skip
    return paid


def a_club_with_nights_and_money(people: dict[str, User]) -> dict[str, Any]:
    alice = people["alice"]
    club = Club.objects.get(pk=CLUB)
    # A duplicate entered by mistake and merged, a casual game deleted and a night opened by
    # mistake and removed: ids with gaps, which the restore keeps.
    for name in [NAMES[0], "Anna B", *NAMES[1:]]:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    club_services.merge_players(
        keep=Player.objects.get(name="Anna"), duplicate=Player.objects.get(name="Anna B")
    )
    delete_game(game=create_game(
        seats=4, variant="standard", deck="single", target=None, min_bid=None, first_dealer="N",
        meld_needs_trick=False, players={"N": "W", "E": "X", "S": "Y", "W": "Z"},
    ))  # fmt: skip
    season = Season.objects.create(
        club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1), ends_on=datetime.date(2026, 12, 31),
        publish_code=PUBLISH_CODE,
    )  # fmt: skip

    mistake = _night(club, season, alice, played_on=datetime.date(2026, 11, 4), variant="standard",
                     target=None, rounds=1)  # fmt: skip
    night_removal.remove_night(night=mistake)

    # A Check Pinochle night for money: 9 players at tables of 4, so one sits out each round.
    check = _night(club, season, alice, played_on=datetime.date(2026, 11, 5), variant="check", target=None,
                   rounds=2, stake_per_chip=Decimal("0.25"))  # fmt: skip
    _check_in(check, NAMES)
    night_services.draw_plan(night=check)
    for round_no in (1, 2):
        _play_round(check, round_no, CHECK_HANDS * 4)
    night_rounds.finish_night(night=check)

    # A standard night with a stake per game won: a late arrival, a leaver and a swap.
    standard = _night(club, season, alice, played_on=datetime.date(2026, 11, 12), variant="standard",
                      target=50, rounds=3, stake_per_win=Decimal("1.00"))  # fmt: skip
    _check_in(standard, NAMES[:8])
    night_services.draw_plan(night=standard)
    _play_round(standard, 1, [standard_hand("N", True), standard_hand("E", True)] * 4)
    arrivals.add_late_arrival(night=standard, player=Player.objects.get(name="Ida"))
    arrivals.remove_for_remaining_rounds(night=standard, player=Player.objects.get(name="Bo"))
    seated = [seat.player for seat in standard.tables.get(round_no=2, table_no=1).seats.order_by("seat")]
    other = standard.tables.get(round_no=2, table_no=2).seats.order_by("seat")[0].player
    night_services.swap_players(night=standard, round_no=2, first=seated[0], second=other)
    _play_round(standard, 2, [standard_hand("E", True), standard_hand("N", False)] * 4)
    _play_round(standard, 3, [standard_hand("S", True)] * 4)
    night_rounds.finish_night(night=standard)

    # Payments: two of each night's settlement marked, one of them taken back.
    paid = _pay(alice, check, count=2) + _pay(alice, standard, count=2)
    ledger_services.remove_payment(actor=alice, club=club, payment_id=paid[1].pk, night=check, season=None)

    # A night of rounds of 3 hands: its games end after the third hand ("Round over"), not at a target.
    # Its settlement is paid in full and the organiser locks it ("Settled — locked").
    hands = _night(club, season, alice, played_on=datetime.date(2026, 11, 8), variant="standard",
                   target=None, rounds=1, round_ends="hands", hands_per_round=3,
                   stake_per_win=Decimal("2.00"))  # fmt: skip
    _check_in(hands, NAMES[:8])
    night_services.draw_plan(night=hands)
    _play_round(hands, 1, [standard_hand("N", True), standard_hand("E", False), standard_hand("W", True)] * 2)
    night_rounds.finish_night(night=hands)
    round_games = [table.game for table in hands.tables.select_related("game")]
    assert round_games and all(
        g is not None and g.deals == 3 and g.finished and g.hand_count == 3 for g in round_games
    )
    while ledger_selectors.night_ledger(hands).suggestions:
        _pay(alice, hands, count=1)
    assert ledger_services.lock_night(actor=alice, night=hands) is not None

    # A payment recorded by Swish that the settlement did not propose (the proposals are worked out
    # again from it).
    proposed = {(s.payer, s.payee) for s in ledger_selectors.night_ledger(standard).suggestions}
    # The first pair of the night's players (by name) the settlement does not propose: the draw
    # and so the proposals differ from run to run.
    players = list(Player.objects.filter(night_entries__night=standard).order_by("name"))
    payer, payee = next((a, b) for a in players for b in players if a != b and (a.pk, b.pk) not in proposed)
    ledger_services.record_payment(
        actor=alice, club=club, night=standard, season=None, payer=payer, payee=payee, amount=Decimal("1.50"),
        unit=Payment.Unit.MONEY, method=Payment.Method.SWISH, token=uuid.uuid4(),
    )  # fmt: skip

    # An open night: its table is mid-round, scored by a phone through the table's link.
    open_night = _night(club, season, alice, played_on=datetime.date(2026, 11, 19), variant="standard",
                        target=None, rounds=1)  # fmt: skip
    _check_in(open_night, NAMES[:4])
    night_services.draw_plan(night=open_night)
    night_rounds.start_round(night=open_night, round_no=1)
    table = NightTable.objects.get(night=open_night)
    assert table.game is not None  # the round has started
    phone = Client()
    assert phone.post(f"/nights/t/{table.token}/").status_code == 302
    for number in (1, 2):
        assert phone.post(f"/g/{table.game.code}/hands", hand_post(number)).status_code in (200, 302)
    return {"club": club, "season": season, "nights": [check, standard, open_night], "table": table,
            "phone": phone, "finished_table": check.tables.first(), "locked": hands,
            "round_game": round_games[0], "swish_night": standard}  # fmt: skip


def club_pages(club: Club, season: Season) -> list[tuple[str, str]]:
    """(who reads it, address) of every page and export of the club, read from the database."""
    pages = [
        ("alice", "/league/"), ("alice", f"/league/clubs/{club.pk}/"),
        ("alice", f"/league/clubs/{club.pk}/roles/"),
        ("alice", f"/league/seasons/{season.pk}/"), ("anyone", f"/league/results/{PUBLISH_CODE}/"),
        ("alice", "/league/export/games.csv"), ("alice", "/league/export/hands.csv"),
        ("alice", f"/nights/clubs/{club.pk}/"), ("alice", f"/ledger/seasons/{season.pk}/"),
        ("alice", f"/games/clubs/{club.pk}/corrections/"), ("alice", f"/clubs/{club.pk}/roster/"),
        ("alice", f"/clubs/{club.pk}/seasons/"), ("alice", "/"),
    ]  # fmt: skip
    for night in Night.objects.filter(club=club):
        base = f"/nights/{night.pk}/"
        pages += [("alice", base), ("alice", f"{base}plan"), ("alice", f"{base}standings/"),
                  ("alice", f"{base}standings/live"), ("alice", f"/ledger/nights/{night.pk}/"),
                  ("anyone", f"/nights/results/{PUBLISH_CODE}/{night.pk}/"), ("alice", f"{base}board/"),
                  ("anyone", f"/nights/results/{PUBLISH_CODE}/{night.pk}/board/"),
                  ("alice", f"{base}results/"),
                  ("anyone", f"/nights/results/{PUBLISH_CODE}/{night.pk}/final/")]  # fmt: skip
        pages += [("alice", f"{base}players/{entry.player_id}/") for entry in night.players.all()]
        pages += [("alice", f"{base}rounds/{r}/cards") for r in range(1, night.rounds + 1)]
        pages += [("anyone", f"/nights/t/{table.token}/") for table in night.tables.all()]
    months = ["2026-11", datetime.date.today().strftime("%Y-%m")]
    for player in Player.objects.filter(memberships__club=club).order_by("pk"):
        pages += [
            ("alice", f"/league/players/{player.pk}/"),
            ("alice", f"/clubs/{club.pk}/players/{player.pk}/"),
        ]
        for month in dict.fromkeys(months):
            statement = f"/ledger/seasons/{season.pk}/players/{player.pk}/{month}/"
            pages += [("alice", statement), ("alice", statement.rstrip("/") + ".csv")]
    for game in Game.objects.filter(club=club).order_by("pk"):
        pages += [("alice", f"/g/{game.code}/"), ("alice", f"/g/{game.code}/history/"),
                  ("anyone", f"/s/{game.share_code}/")]  # fmt: skip
    return pages


# What a page draws afresh for every request: CSRF tokens, the one-time ids of its forms.
PER_REQUEST = [
    re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'),
    re.compile(r'("X-CSRFToken": ")[^"]+'),
    re.compile(r'(name="(?:submission_id|token|form_id)" value=")[^"]+'),
    re.compile(r'(data-submission-id=")[^"]+'),
]
SHARE_HOST = re.compile(r"(https?://)[^/\"'<\s]+(/s/)")


def masked(body: bytes) -> str:
    text = body.decode()
    for pattern in PER_REQUEST:
        text = pattern.sub(r"\1…", text)
    return SHARE_HOST.sub(r"\1HOST\2", text)


def read_all(pages: list[tuple[str, str]]) -> dict[str, tuple[int, str, str]]:
    clients = {"anyone": Client(), "alice": Client()}
    assert clients["alice"].login(username="alice", password=PASSWORD)
    read = {}
    for who, url in pages:
        response = clients[who].get(url)
        body = response.getvalue()  # a streamed page's body too
        read[f"{who} {url}"] = (response.status_code, response.get("Content-Type", ""), masked(body))
    return read


def fresh_process() -> None:
    """What a restarted server holds in memory: nothing (the caches)."""
    for cache in caches.all():
        cache.clear()


def test_a_restore_into_a_fresh_database_shows_every_page_and_export_as_before(tmp_path, people):
    club = a_club_with_nights_and_money(people)
    pages = club_pages(club["club"], club["season"])
    fresh_process()
    before = read_all(pages)
    assert read_all(pages) == before, "the mask leaves something that differs between two reads"
    assert before[f"alice /ledger/nights/{club['nights'][0].pk}/"][0] == 200
    assert Payment.all_objects.filter(removed_at__isnull=False).count() == 1
    locked_page = before[f"alice /ledger/nights/{club['locked'].pk}/"][2]
    assert "Settled — locked" in locked_page and "Locked by alice" in locked_page
    assert "Round over" in before[f"alice /g/{club['round_game'].code}/"][2]
    assert "· Swish" in before[f"alice /ledger/nights/{club['swish_night'].pk}/"][2]
    path = tmp_path / "backup.json"
    started = time.perf_counter()
    call_command("backup", str(path), stderr=io.StringIO())
    backed_up = time.perf_counter() - started
    assert {row["model"] for row in json.loads(path.read_text())} >= {"nights.night", "ledger.payment"}

    call_command("flush", interactive=False, verbosity=0)
    fresh_process()
    assert not Game.all_objects.exists() and not Night.objects.exists()
    out = io.StringIO()
    started = time.perf_counter()
    call_command("restore", str(path), stdout=out)
    restored = time.perf_counter() - started
    after = read_all(pages)

    differ = [page for page in before if after[page] != before[page]]
    assert not differ, f"{len(differ)} of {len(before)} pages differ after the restore, first {differ[0]}"
    exports = sum(1 for page in before if page.endswith(".csv"))
    print(
        f"\n{connection.vendor}: {len(before) - exports} pages and {exports} CSV exports identical after the"
        f" restore (backup {backed_up:.2f} s, restore {restored:.2f} s, {path.stat().st_size} bytes)"
    )
    assert out.getvalue().startswith("Installed ")

    # The open table's phone scores on through its link; the finished night's link stays refused.
    phone, table = club["phone"], club["table"]
    assert phone.post(f"/g/{table.game.code}/hands", hand_post(3)).status_code in (200, 302)
    assert Game.objects.get(pk=table.game.pk).hand_count == 3
    assert Client().post(f"/nights/t/{club['finished_table'].token}/").status_code == 410
    assert Client().post(f"/nights/t/{table.token}/").status_code == 302  # a new phone may take it over
    alice = User.objects.get(username="alice")
    # The locked night still refuses a payment; the round of 3 hands still refuses a fourth hand.
    locked = Night.objects.get(pk=club["locked"].pk)
    anna, bo = Player.objects.get(name="Anna"), Player.objects.get(name="Bo")
    with pytest.raises(ValidationError, match="settled and locked"):
        ledger_services.record_payment(
            actor=alice, club=locked.club, night=locked, season=None, payer=anna, payee=bo,
            amount=Decimal("1.00"), unit=Payment.Unit.MONEY, method=Payment.Method.CASH, token=uuid.uuid4(),
        )  # fmt: skip
    round_game = Game.objects.get(pk=club["round_game"].pk)
    assert round_game.deals == 3 and round_game.finished and round_game.hand_count == 3
    with pytest.raises(RecordError):
        record_hand(game=round_game, number=4, data=standard_hand("N", True))
    assert Game.objects.get(pk=round_game.pk).hand_count == 3
    # New rows after the restore take new ids (PostgreSQL's sequences were moved past the file's).
    night = _night(club["club"], club["season"], alice, played_on=datetime.date(2026, 11, 26),
                   variant="standard", target=None, rounds=1)  # fmt: skip
    newcomer, _round = arrivals.check_in_newcomer(night=night, name="Zoe")
    assert night.pk > club["nights"][-1].pk and newcomer.pk > max(
        p.pk for p in Player.objects.exclude(pk=newcomer.pk)
    )
