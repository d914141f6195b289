"""The permission matrix: every write endpoint × every kind of visitor.

Exactly the allowed visitors succeed; everyone else gets 403 or the login page, and nothing in the
database changes (a dump of every affected table is compared before and after).

The URL patterns are enumerated from the URLconf: a new URL name that is neither in the matrix nor
listed as read-only (and refusing POST) fails `test_every_url_is_in_the_matrix_or_read_only`.
"""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.models import Club, ClubRole, Invite, Membership, Player, Season
from ledger.balances import season_ledger
from ledger.models import NightLock, Payment
from ledger.selectors import night_ledger
from nights import arrivals
from nights import rounds as night_rounds
from nights import services as nights
from nights.models import Night, NightBye, NightPlayer, NightSeat, NightTable
from scoring import game_settings
from scoring.handover import recovery_code, start_handover
from scoring.models import DeviceGame, Game, GameSeat, GameSignature, Hand, HandChange
from tests.access_helpers import CLUB, PASSWORD, ROOT, edit_token_cookie, make_game
from tests.admin_urls import every_admin_url, unchecked_admin_url_names
from tests.helpers import WORKED_EXAMPLE, hand_post
from tests.ledger_helpers import NS_MAKES, make_night, roster

pytestmark = pytest.mark.django_db

EXAMPLE = Path(__file__).resolve().parents[1] / "docs" / "examples" / "record-example.json"

ORGANISER, SCORER, MEMBER, OUTSIDER = "organiser", "scorer", "member", "outsider"
ANONYMOUS, TOKEN, SHARE = "anonymous", "edit-token holder", "share-link holder"
EVERYONE = frozenset({ORGANISER, SCORER, MEMBER, OUTSIDER, ANONYMOUS, TOKEN, SHARE})
GAME_EDITORS = frozenset({ORGANISER, SCORER, TOKEN})  # a club game in progress (docs/security.md)
# Taking a club game over (handover link, recovery code): a phone nobody is signed in on, or an
# account that scores for the club; a signed-in member or outsider would hold a right that does
# not count, so is refused (docs/security.md, "Club games").
TAKE_OVER = frozenset({ORGANISER, SCORER, ANONYMOUS, TOKEN, SHARE})
# The organiser pages (/clubs/) are also tried by a signed-in stranger (no club at all) and a superuser.
STRANGER, SUPERUSER = "signed-in stranger", "superuser"
EVERY_VISITOR = EVERYONE | {STRANGER, SUPERUSER}
SIGNED_IN = frozenset({ORGANISER, SCORER, MEMBER, OUTSIDER, STRANGER, SUPERUSER})
CLUB_MANAGERS = frozenset({ORGANISER, SUPERUSER})


@dataclass
class World:
    game: Game  # club game in progress, 2 hands, the token holder's device created it
    keep: Player
    duplicate: Player
    season: Season
    token_cookie: tuple[str, str]
    handover_secret: str
    invite: Invite
    night: Night  # drawn, no round started: N1..N4 checked in, N5 on the roster
    live: Night  # round 1 of 3 started: L1..L4 checked in, L5 on the roster
    settled: Night  # a finished Check Pinochle night of the season, S1..S4: chips to settle
    payment: Payment  # one of its two payments, marked as paid
    square: Night  # a finished night whose payments are all marked: it can be locked
    locked: Night  # a night like it, locked ("Settled — locked")


def _night(club: Club, prefix: str, *, season: Season | None = None, start: bool = False) -> Night:
    night = nights.open_night(
        club=club, season=season, played_on=datetime.date(2026, 3, 5), variant="standard", deck="single",
        target=None, min_bid=None, meld_needs_trick=False, rounds=3, round_ends="game",
        hands_per_round=None, stake_per_chip=None, stake_per_win=None, created_by=None,
    )  # fmt: skip
    players = [Player.objects.create(name=f"{prefix}{n}") for n in range(1, 6)]
    for player in players:
        Membership.objects.create(club=club, player=player)
    for player in players[:4]:
        arrivals.set_checked_in(night=night, player=player, present=True)
    nights.draw_plan(night=night)
    if start:
        night_rounds.start_round(night=night, round_no=1)
    return night


@pytest.fixture
def world(people) -> World:
    # people: alice organiser, bob scorer, charlie member of CLUB; dave organises another club
    game = make_game(hands=2, club_id=CLUB)
    club = Club.objects.get(pk=CLUB)
    keep = Player.objects.create(name="Anna")
    duplicate = Player.objects.create(name="Anna L.")
    Membership.objects.create(club=club, player=keep)
    Membership.objects.create(club=club, player=duplicate)
    season = Season.objects.create(
        club=club, name="Spring", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 6, 30)
    )
    token_cookie = edit_token_cookie(game)
    User.objects.create_user("erin", "erin@example.org", PASSWORD)  # signed in, in no club
    people.superuser()
    invite = Invite.objects.create(club=club, player=duplicate, token="invite-token-for-anna-l")
    Season.objects.filter(pk=season.pk).update(publish_code="published-spring")
    night = _night(club, "N")
    live = _night(club, "L", season=season, start=True)
    s1, s2, s3, s4 = roster(club, "S1", "S2", "S3", "S4")
    settled = make_night(
        club=club,
        season=season,
        played_on=datetime.date(2026, 3, 12),
        tables=[((s1, s2, s3, s4), [NS_MAKES])],
    )
    due = night_ledger(settled).suggestions[0]
    payment = Payment.objects.create(
        club=club, season=season, night=settled, payer_id=due.payer, payee_id=due.payee, amount=due.amount,
        unit=due.unit, paid_on=datetime.date(2026, 3, 12), token=uuid.uuid4(),
    )  # fmt: skip
    square, locked = (_square_night(club, (s1, s2, s3, s4), day) for day in (19, 26))
    NightLock.objects.create(night=locked, unit="chips", figures=[], locked_by_label="alice")
    return World(
        game,
        keep,
        duplicate,
        season,
        token_cookie,
        start_handover(game=game),
        invite,
        night,
        live,
        settled,
        payment,
        square,
        locked,
    )


def _square_night(club: Club, players: tuple[Player, ...], day: int) -> Night:
    """A finished night in no season with every proposed payment marked."""
    night = make_night(
        club=club, season=None, played_on=datetime.date(2026, 3, day), tables=[(players, [NS_MAKES])]
    )
    for due in night_ledger(night).suggestions:
        Payment.objects.create(
            club=club, night=night, payer_id=due.payer, payee_id=due.payee, amount=due.amount, unit=due.unit,
            paid_on=night.played_on, token=uuid.uuid4(),
        )  # fmt: skip
    return night


def _any_payment(unit: str) -> dict[str, Any]:
    """A payment nobody proposed, as the "Record a payment" form posts it."""
    return {"payer": _player("S1"), "payee": _player("S2"), "amount": "1", "unit": unit, "method": "swish",
            "token": str(uuid.uuid4())}  # fmt: skip


def _due_payment(suggestions: list[Any]) -> dict[str, Any]:
    """The first payment the ledger suggests, as its "Mark as paid" form posts it."""
    first = suggestions[0]
    return {"payer": first.payer, "payee": first.payee, "amount": str(first.amount), "unit": first.unit,
            "token": str(uuid.uuid4())}  # fmt: skip


def _player(name: str) -> int:
    return Player.objects.get(name=name).pk


def _token(world: World) -> str:
    return NightTable.objects.filter(night=world.live, round_no=1).order_by("pk")[0].token


def client_for(persona: str, world: World) -> Client:
    client = Client()
    users = {ORGANISER: "alice", SCORER: "bob", MEMBER: "charlie", OUTSIDER: "dave",
             STRANGER: "erin", SUPERUSER: ROOT}  # fmt: skip
    if persona in users:
        assert client.login(username=users[persona], password=PASSWORD)
    elif persona == TOKEN:
        client.cookies[world.token_cookie[0]] = world.token_cookie[1]
    elif persona == SHARE:
        assert client.get(f"/s/{world.game.share_code}/").status_code == 200
    return client


def snapshot() -> dict[str, Any]:
    """Every row a write endpoint could change."""
    return {
        "games": list(
            Game.objects.order_by("pk").values(
                "pk",
                "hand_count",
                "scores",
                "finished",
                "club",
                "season",
                "place",
                "note",
                "played_on",
                "handover_token_hash",
                "share_code",
                "created_by",
                "target",
                "min_bid",
                "first_dealer",
                "meld_needs_trick",
                "signed_at",
            )
        ),
        "signatures": list(GameSignature.objects.order_by("pk").values()),
        "hands": list(Hand.objects.order_by("pk").values("pk", "game", "number", "data", "confirmed_at")),
        "seats": list(GameSeat.objects.order_by("pk").values("pk", "name", "player")),
        "changes": HandChange.objects.count(),
        "roles": list(ClubRole.objects.order_by("pk").values("user", "club", "role")),
        "players": list(Player.objects.order_by("pk").values("pk", "name", "user")),
        "memberships": list(Membership.objects.order_by("pk").values("club", "player", "retired_on")),
        "clubs": list(Club.objects.order_by("pk").values("pk", "name", "confirm_hands", "sign_at_end")),
        "seasons": list(
            Season.objects.order_by("pk").values(
                "pk", "name", "publish_code", "starts_on", "ends_on", "closed_at"
            )
        ),
        "invites": list(Invite.objects.order_by("pk").values("pk", "player", "token", "accepted_at")),
        "users": list(User.objects.order_by("pk").values("pk", "username", "password")),
        "nights": list(
            Night.objects.order_by("pk").values(
                "pk", "seed", "finished_at", "prize_first", "prize_high_meld", "last_hand_round"
            )
        ),
        "night_players": list(
            NightPlayer.objects.order_by("pk").values("player", "from_round", "until_round", "group")
        ),
        "night_tables": list(NightTable.objects.order_by("pk").values("pk", "round_no", "table_no", "game")),
        "night_seats": list(NightSeat.objects.order_by("pk").values("table", "seat", "player")),
        "night_byes": list(NightBye.objects.order_by("pk").values("round_no", "player")),
        "device_rights": list(DeviceGame.objects.order_by("pk").values("device", "game", "active")),
        "payments": list(
            Payment.all_objects.order_by("pk").values(
                "payer", "payee", "amount", "unit", "night", "removed_at"
            )
        ),
        "night_locks": list(NightLock.objects.order_by("pk").values("night", "unlocked_at")),
    }


def _import_file() -> SimpleUploadedFile:
    record = json.loads(EXAMPLE.read_text())
    return SimpleUploadedFile("game.json", json.dumps(record).encode(), content_type="application/json")


@dataclass(frozen=True)
class Write:
    url: Callable[[World], str]
    data: Callable[[World], dict[str, Any]]
    allowed: frozenset[str]
    writes: bool = True  # False: allowed visitors get an answer but nothing is stored (preview)


MATRIX: dict[str, Write] = {
    "scoring:game_new": Write(
        lambda w: "/games/new",
        lambda w: {"seats": "4", "variant": "check", "deck": "single", "first_dealer": "N"},
        EVERYONE,  # anyone may start a quick game
    ),
    "scoring:hand_save": Write(lambda w: f"/g/{w.game.code}/hands", lambda w: hand_post(3), GAME_EDITORS),
    "scoring:hand_preview": Write(
        lambda w: f"/g/{w.game.code}/preview", lambda w: hand_post(3), GAME_EDITORS, writes=False
    ),
    "scoring:hand_edit": Write(
        lambda w: f"/g/{w.game.code}/hands/1/", lambda w: {"number": "1", **WORKED_EXAMPLE}, GAME_EDITORS
    ),
    "scoring:hand_edit_preview": Write(
        lambda w: f"/g/{w.game.code}/hands/1/preview",
        lambda w: {"number": "1", **WORKED_EXAMPLE},
        GAME_EDITORS,
        writes=False,
    ),
    "scoring:hand_delete_last": Write(
        lambda w: f"/g/{w.game.code}/hands/last/delete", lambda w: {"number": "2"}, GAME_EDITORS
    ),
    # The other side's OK, Not right and the signatures: the game's editors (here a game without
    # these rules: answered, nothing written; tests of their own in scoring/tests/test_confirm_and_sign.py).
    "scoring:hand_confirm": Write(
        lambda w: f"/g/{w.game.code}/hands/1/confirm", lambda w: {}, GAME_EDITORS, writes=False
    ),
    "scoring:hand_not_right": Write(
        lambda w: f"/g/{w.game.code}/hands/1/not-right", lambda w: {}, GAME_EDITORS, writes=False
    ),
    "scoring:game_sign": Write(
        lambda w: f"/g/{w.game.code}/sign", lambda w: {"side": "NS"}, GAME_EDITORS, writes=False
    ),
    "scoring:game_hand_over": Write(lambda w: f"/g/{w.game.code}/hand-over/", lambda w: {}, GAME_EDITORS),
    # The one-time secret in the link is the right: whoever has the link takes over.
    "scoring:game_take_over": Write(
        lambda w: f"/g/{w.game.code}/take-over/{w.handover_secret}/", lambda w: {}, TAKE_OVER
    ),
    # The recovery code is the right: whoever knows it takes over (wrong codes are rate-limited).
    "scoring:game_recover": Write(
        lambda w: f"/g/{w.game.code}/recover", lambda w: {"recovery_code": recovery_code(w.game)}, TAKE_OVER
    ),
    "scoring:game_shared_recover": Write(
        lambda w: f"/s/{w.game.share_code}/recover",
        lambda w: {"recovery_code": recovery_code(w.game)},
        TAKE_OVER,
    ),
    "scoring:game_details": Write(
        lambda w: f"/g/{w.game.code}/details/",
        lambda w: {
            "club": str(CLUB),
            "season": "",
            "played_on": "",
            "place": "Table 2",
            "note": "",
            "seat_N": str(w.keep.pk),
        },
        GAME_EDITORS,
    ),
    "scoring:game_settings": Write(
        lambda w: f"/g/{w.game.code}/settings/",
        lambda w: {
            "version": game_settings.version(Game.objects.get(pk=w.game.pk)),
            "name_N": "Anna",
            "name_E": "Bosse",
            "name_S": "Cecilia",
            "name_W": "David",
            "first_dealer": "E",
            "target": "200",
            "min_bid": "20",
            "save": "1",
        },
        GAME_EDITORS,
    ),
    "league:merge": Write(
        lambda w: f"/league/players/{w.keep.pk}/merge",
        lambda w: {"duplicate": str(w.duplicate.pk)},
        frozenset({ORGANISER}),
    ),
    "league:import": Write(
        lambda w: "/league/import/",
        lambda w: {"file": _import_file(), "club": str(CLUB), "season": "", "played_on": ""},
        frozenset({ORGANISER, SCORER}),
    ),
    "league:roles": Write(
        lambda w: f"/league/clubs/{CLUB}/roles/",
        lambda w: {"username": "dave", "role": "member"},
        frozenset({ORGANISER}),
    ),
    "league:publish": Write(
        lambda w: f"/league/seasons/{w.season.pk}/publish",
        lambda w: {"publish": "on"},
        frozenset({ORGANISER}),
    ),
}

SPRING = {"name": "Spring", "starts_on": "2026-02-01", "ends_on": "2026-05-31"}

# The organiser pages: any signed-in visitor creates a club or accepts an invite; the rest is the
# club's organisers' (and site staff's). Tried by every visitor of EVERY_VISITOR.
CLUB_WRITES: dict[str, Write] = {
    "clubs:create": Write(lambda w: "/clubs/new", lambda w: {"name": "New club"}, SIGNED_IN),
    "clubs:invite": Write(lambda w: f"/clubs/join/{w.invite.token}/", lambda w: {}, SIGNED_IN),
    "clubs:player_add": Write(
        lambda w: f"/clubs/{CLUB}/roster/add", lambda w: {"name": "Cecilia"}, CLUB_MANAGERS
    ),
    "clubs:players_add": Write(
        lambda w: f"/clubs/{CLUB}/roster/add-list", lambda w: {"names": "Cecilia\nDavid"}, CLUB_MANAGERS
    ),
    "clubs:player_rename": Write(
        lambda w: f"/clubs/{CLUB}/players/{w.keep.pk}/rename", lambda w: {"name": "Anna Z."}, CLUB_MANAGERS
    ),
    "clubs:player_retire": Write(
        lambda w: f"/clubs/{CLUB}/players/{w.keep.pk}/retire", lambda w: {"retired": "yes"}, CLUB_MANAGERS
    ),
    "clubs:player_invite": Write(
        lambda w: f"/clubs/{CLUB}/players/{w.keep.pk}/invite", lambda w: {}, CLUB_MANAGERS
    ),
    "clubs:player_merge": Write(
        lambda w: f"/clubs/{CLUB}/players/{w.keep.pk}/merge",
        lambda w: {"duplicate": str(w.duplicate.pk)},
        CLUB_MANAGERS,
    ),
    "clubs:settings": Write(
        lambda w: f"/clubs/{CLUB}/settings/", lambda w: {"confirm_hands": "on"}, CLUB_MANAGERS
    ),
    "clubs:seasons": Write(
        lambda w: f"/clubs/{CLUB}/seasons/", lambda w: {**SPRING, "name": "Autumn"}, CLUB_MANAGERS
    ),
    "clubs:season_edit": Write(
        lambda w: f"/clubs/{CLUB}/seasons/{w.season.pk}/", lambda w: SPRING, CLUB_MANAGERS
    ),
    "clubs:season_close": Write(
        lambda w: f"/clubs/{CLUB}/seasons/{w.season.pk}/close", lambda w: {"closed": "yes"}, CLUB_MANAGERS
    ),
    # Club nights (/nights/): run by the club's organisers; a table's link is the right to score it.
    "nights:new": Write(
        lambda w: f"/nights/clubs/{CLUB}/new",
        lambda w: {
            "played_on": "2026-03-05",
            "variant": "standard",
            "deck": "single",
            "rounds": "3",
            "round_ends": "game",
        },
        CLUB_MANAGERS,
    ),
    "nights:check_in": Write(
        lambda w: f"/nights/{w.night.pk}/check-in/{_player('N5')}",
        lambda w: {"present": "yes"},
        CLUB_MANAGERS,
    ),
    "nights:newcomer": Write(
        lambda w: f"/nights/{w.night.pk}/newcomer", lambda w: {"name": "Zed"}, CLUB_MANAGERS
    ),
    "nights:draw": Write(lambda w: f"/nights/{w.night.pk}/draw", lambda w: {}, CLUB_MANAGERS),
    "nights:swap": Write(
        lambda w: f"/nights/{w.night.pk}/swap",
        lambda w: {"round": "1", "first": _player("N1"), "second": _player("N2")},
        CLUB_MANAGERS,
    ),
    "nights:late": Write(
        lambda w: f"/nights/{w.live.pk}/late", lambda w: {"late-player": _player("L5")}, CLUB_MANAGERS
    ),
    "nights:leave": Write(
        lambda w: f"/nights/{w.live.pk}/leave", lambda w: {"leave-player": _player("L1")}, CLUB_MANAGERS
    ),
    # No result changed under a swap in this world: the answer is refused and nothing is stored.
    "nights:changed_results": Write(
        lambda w: f"/nights/{w.live.pk}/changed-results",
        lambda w: {"choice": "keep"},
        CLUB_MANAGERS,
        writes=False,
    ),
    "nights:round_start": Write(lambda w: f"/nights/{w.live.pk}/rounds/2/start", lambda w: {}, CLUB_MANAGERS),
    "nights:last_hand": Write(lambda w: f"/nights/{w.live.pk}/last-hand", lambda w: {}, CLUB_MANAGERS),
    "nights:finish": Write(
        lambda w: f"/nights/{w.live.pk}/finish",
        lambda w: {"finished": "yes", "confirm": "yes"},
        CLUB_MANAGERS,
    ),
    "ledger:night_remove": Write(
        lambda w: f"/ledger/nights/{w.night.pk}/remove", lambda w: {}, CLUB_MANAGERS
    ),
    "nights:table": Write(lambda w: f"/nights/t/{_token(w)}/", lambda w: {}, EVERY_VISITOR),
    "nights:prizes": Write(
        lambda w: f"/nights/{w.live.pk}/prizes", lambda w: {"prizes": ["first", "high_meld"]}, CLUB_MANAGERS
    ),
    "nights:groups": Write(
        lambda w: f"/nights/{w.live.pk}/groups", lambda w: {f"group-{_player('L1')}": "Men"}, CLUB_MANAGERS
    ),
    # The chip ledger (/ledger/): organisers mark the suggested payments as paid.
    "ledger:night_pay": Write(
        lambda w: f"/ledger/nights/{w.settled.pk}/pay",
        lambda w: _due_payment(night_ledger(w.settled).suggestions),
        CLUB_MANAGERS,
    ),
    "ledger:night_unpay": Write(
        lambda w: f"/ledger/nights/{w.settled.pk}/payments/{w.payment.pk}/remove", lambda w: {}, CLUB_MANAGERS
    ),
    "ledger:season_unpay": Write(
        lambda w: f"/ledger/seasons/{w.season.pk}/payments/{w.payment.pk}/remove", lambda w: {}, CLUB_MANAGERS
    ),
    "ledger:season_pay": Write(
        lambda w: f"/ledger/seasons/{w.season.pk}/pay",
        lambda w: _due_payment(season_ledger(w.season).suggestion_list),
        CLUB_MANAGERS,
    ),
    # Any payment that was made, proposed or not; a settled night's lock.
    "ledger:night_record": Write(
        lambda w: f"/ledger/nights/{w.settled.pk}/record", lambda w: _any_payment("chips"), CLUB_MANAGERS
    ),
    "ledger:season_record": Write(
        lambda w: f"/ledger/seasons/{w.season.pk}/record", lambda w: _any_payment("chips"), CLUB_MANAGERS
    ),
    "ledger:night_lock": Write(lambda w: f"/ledger/nights/{w.square.pk}/lock", lambda w: {}, CLUB_MANAGERS),
    "ledger:night_unlock": Write(
        lambda w: f"/ledger/nights/{w.locked.pk}/unlock", lambda w: {}, CLUB_MANAGERS
    ),
}

CLUB_VIEWERS = frozenset({ORGANISER, SCORER, MEMBER, SUPERUSER})

# Who may open the organiser pages (GET): 200 for them, the login page or 403 for the others.
CLUB_READS: dict[str, tuple[Callable[[World], str], frozenset[str]]] = {
    "clubs:index": (lambda w: "/clubs/", SIGNED_IN),
    "clubs:create": (lambda w: "/clubs/new", SIGNED_IN),
    "clubs:invite": (lambda w: f"/clubs/join/{w.invite.token}/", EVERY_VISITOR),
    "clubs:roster": (lambda w: f"/clubs/{CLUB}/roster/", CLUB_MANAGERS),
    "clubs:player": (lambda w: f"/clubs/{CLUB}/players/{w.keep.pk}/", CLUB_MANAGERS),
    "clubs:settings": (lambda w: f"/clubs/{CLUB}/settings/", CLUB_MANAGERS),
    "clubs:seasons": (lambda w: f"/clubs/{CLUB}/seasons/", CLUB_MANAGERS),
    "clubs:season_edit": (lambda w: f"/clubs/{CLUB}/seasons/{w.season.pk}/", CLUB_MANAGERS),
    "nights:club_nights": (lambda w: f"/nights/clubs/{CLUB}/", CLUB_VIEWERS),
    "nights:new": (lambda w: f"/nights/clubs/{CLUB}/new", CLUB_MANAGERS),
    "nights:night": (lambda w: f"/nights/{w.live.pk}/", CLUB_MANAGERS),
    "nights:cards": (lambda w: f"/nights/{w.live.pk}/rounds/1/cards", CLUB_MANAGERS),
    "nights:wall": (lambda w: f"/nights/{w.live.pk}/plan", CLUB_VIEWERS),
    "nights:standings": (lambda w: f"/nights/{w.live.pk}/standings/", CLUB_VIEWERS),
    "nights:standings_live": (lambda w: f"/nights/{w.live.pk}/standings/live", CLUB_VIEWERS),
    "nights:board": (lambda w: f"/nights/{w.live.pk}/board/", CLUB_VIEWERS),
    "nights:board_live": (lambda w: f"/nights/{w.live.pk}/board/live", CLUB_VIEWERS),
    "nights:live_tables": (lambda w: f"/nights/{w.live.pk}/tables/live", CLUB_MANAGERS),
    "ledger:night_remove": (lambda w: f"/ledger/nights/{w.live.pk}/remove", CLUB_MANAGERS),
    "nights:table": (lambda w: f"/nights/t/{_token(w)}/", EVERY_VISITOR),
    "nights:published": (lambda w: f"/nights/results/published-spring/{w.live.pk}/", EVERY_VISITOR),
    "nights:published_live": (lambda w: f"/nights/results/published-spring/{w.live.pk}/live", EVERY_VISITOR),
    "nights:published_board": (
        lambda w: f"/nights/results/published-spring/{w.live.pk}/board/",
        EVERY_VISITOR,
    ),
    "nights:published_board_live": (
        lambda w: f"/nights/results/published-spring/{w.live.pk}/board/live",
        EVERY_VISITOR,
    ),
    "nights:results": (lambda w: f"/nights/{w.live.pk}/results/", CLUB_VIEWERS),
    "nights:card": (lambda w: f"/nights/{w.live.pk}/players/{_player('L1')}/", CLUB_VIEWERS),
    "nights:published_results": (
        lambda w: f"/nights/results/published-spring/{w.live.pk}/final/",
        EVERY_VISITOR,
    ),
    "nights:published_card": (
        lambda w: f"/nights/results/published-spring/{w.live.pk}/players/{_player('L1')}/",
        EVERY_VISITOR,
    ),
    # The chip ledger: every role of the club reads it; the published results link does not show it.
    "ledger:night": (lambda w: f"/ledger/nights/{w.settled.pk}/", CLUB_VIEWERS),
    "ledger:season": (lambda w: f"/ledger/seasons/{w.season.pk}/", CLUB_VIEWERS),
    "ledger:statement": (
        lambda w: f"/ledger/seasons/{w.season.pk}/players/{_player('S1')}/2026-03/",
        CLUB_VIEWERS,
    ),
    "ledger:statement_csv": (
        lambda w: f"/ledger/seasons/{w.season.pk}/players/{_player('S1')}/2026-03.csv",
        CLUB_VIEWERS,
    ),
}

# URL names that change nothing: each must answer a POST with 405 (checked below), so a write
# endpoint cannot hide here.
READ_ONLY = {
    "scoring:game_list", "healthz", "service_worker", "scoring:game", "scoring:game_live",
    "scoring:game_shared", "scoring:game_table", "scoring:game_shared_table",
    "scoring:game_shared_live", "rules_help", "scoring:game_history", "scoring:club_corrections",
    "league:index", "league:club", "league:season", "league:player", "league:export_games",
    "league:export_hands", "league:results", "league:import_status",
    "clubs:index", "clubs:roster", "clubs:player",
    "nights:club_nights", "nights:night", "nights:cards", "nights:wall", "nights:standings",
    "nights:standings_live", "nights:published", "nights:published_live", "nights:live_tables",
    "nights:board", "nights:board_live", "nights:published_board", "nights:published_board_live",
    "nights:results", "nights:card", "nights:published_results", "nights:published_card",
    "ledger:night", "ledger:season", "ledger:statement", "ledger:statement_csv",
}  # fmt: skip

# A visitor's own account, language and display (Django's auth views, accounts/tests/test_accounts.py;
# large text and high contrast, tests/test_display_setting.py).
OWN_ACCOUNT = {
    "signup", "login", "logout", "password_change", "password_change_done", "password_reset",
    "password_reset_done", "password_reset_confirm", "password_reset_complete", "set_language",
    "display",
}  # fmt: skip


def _url_names(resolver: URLResolver, namespace: str = "") -> set[str]:
    names = set()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            if pattern.app_name == "admin":
                continue  # the admin: superusers only (test_only_a_superuser_gets_anything_from_the_admin)
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= _url_names(pattern, inner)
        elif isinstance(pattern, URLPattern):
            assert pattern.name, f"URL pattern without a name: {pattern.pattern}"
            names.add(namespace + pattern.name)
    return names


def test_every_url_is_in_the_matrix_or_read_only():
    names = _url_names(get_resolver())
    unclassified = names - set(MATRIX) - set(CLUB_WRITES) - READ_ONLY - OWN_ACCOUNT
    assert not unclassified, f"add these URL names to the permission matrix (or READ_ONLY): {unclassified}"
    known = set(MATRIX) | set(CLUB_WRITES) | set(CLUB_READS) | READ_ONLY | OWN_ACCOUNT
    assert not known - names, "the matrix names URLs that are gone"


@pytest.mark.parametrize("name", sorted(READ_ONLY))
def test_a_read_only_url_refuses_a_post(name, world):
    urls = {
        "scoring:game": f"/g/{world.game.code}/",
        "scoring:game_live": f"/g/{world.game.code}/live",
        "scoring:game_shared": f"/s/{world.game.share_code}/",
        "scoring:game_shared_live": f"/s/{world.game.share_code}/live",
        "scoring:game_table": f"/g/{world.game.code}/table/",
        "scoring:game_shared_table": f"/s/{world.game.share_code}/table/",
        "scoring:game_history": f"/g/{world.game.code}/history/",
        "scoring:club_corrections": f"/games/clubs/{CLUB}/corrections/",
        "league:club": f"/league/clubs/{CLUB}/",
        "league:season": f"/league/seasons/{world.season.pk}/",
        "league:player": f"/league/players/{world.keep.pk}/",
        "league:results": "/league/results/any-code/",
        "league:import_status": "/league/import/1/",
        "league:export_games": "/league/export/games.csv",
        "league:export_hands": "/league/export/hands.csv",
        "league:index": "/league/",
        "scoring:game_list": "/",
        "healthz": "/healthz",
        "service_worker": "/sw.js",
        "rules_help": "/rules/",
        "clubs:index": "/clubs/",
        "clubs:roster": f"/clubs/{CLUB}/roster/",
        "clubs:player": f"/clubs/{CLUB}/players/{world.keep.pk}/",
        "nights:club_nights": f"/nights/clubs/{CLUB}/",
        "nights:night": f"/nights/{world.live.pk}/",
        "nights:cards": f"/nights/{world.live.pk}/rounds/1/cards",
        "nights:wall": f"/nights/{world.live.pk}/plan",
        "nights:standings": f"/nights/{world.live.pk}/standings/",
        "nights:standings_live": f"/nights/{world.live.pk}/standings/live",
        "nights:live_tables": f"/nights/{world.live.pk}/tables/live",
        "nights:published": f"/nights/results/published-spring/{world.live.pk}/",
        "nights:published_live": f"/nights/results/published-spring/{world.live.pk}/live",
        "nights:board": f"/nights/{world.live.pk}/board/",
        "nights:board_live": f"/nights/{world.live.pk}/board/live",
        "nights:published_board": f"/nights/results/published-spring/{world.live.pk}/board/",
        "nights:published_board_live": f"/nights/results/published-spring/{world.live.pk}/board/live",
        "nights:results": f"/nights/{world.live.pk}/results/",
        "nights:card": f"/nights/{world.live.pk}/players/{_player('L1')}/",
        "nights:published_results": f"/nights/results/published-spring/{world.live.pk}/final/",
        "nights:published_card": f"/nights/results/published-spring/{world.live.pk}/players/{_player('L1')}/",
        "ledger:night": f"/ledger/nights/{world.settled.pk}/",
        "ledger:season": f"/ledger/seasons/{world.season.pk}/",
        "ledger:statement": f"/ledger/seasons/{world.season.pk}/players/{world.keep.pk}/2026-03/",
        "ledger:statement_csv": f"/ledger/seasons/{world.season.pk}/players/{world.keep.pk}/2026-03.csv",
    }
    client = client_for(ORGANISER, world)
    assert client.post(urls[name]).status_code == 405


@pytest.mark.parametrize("persona", sorted(EVERYONE))
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_exactly_the_allowed_visitors_may_write(name, persona, world):
    check_write(MATRIX[name], persona, world)


@pytest.mark.parametrize("persona", sorted(EVERY_VISITOR))
@pytest.mark.parametrize("name", sorted(CLUB_WRITES))
def test_exactly_the_allowed_visitors_may_use_the_organiser_pages(name, persona, world):
    check_write(CLUB_WRITES[name], persona, world)


@pytest.mark.parametrize("persona", sorted(EVERY_VISITOR))
@pytest.mark.parametrize("name", sorted(CLUB_READS))
def test_exactly_the_allowed_visitors_may_open_the_organiser_pages(name, persona, world):
    url, allowed = CLUB_READS[name]
    response = client_for(persona, world).get(url(world))
    if persona in allowed:
        assert response.status_code == 200, (response.status_code, response.get("Location"))
    elif persona in (ANONYMOUS, TOKEN, SHARE):
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == 403


def check_write(write: Write, persona: str, world: World) -> None:
    client = client_for(persona, world)
    before = snapshot()
    response = client.post(write.url(world), write.data(world))
    after = snapshot()
    if persona in write.allowed:
        assert response.status_code in (200, 302), (response.status_code, response.content[:300])
        assert "/accounts/login/" not in response.get("Location", "")
        if write.writes:
            assert after != before, "an allowed write changed nothing"
        else:
            assert after == before
    else:
        if persona in (ANONYMOUS, TOKEN, SHARE) and response.status_code == 302:
            assert response["Location"].startswith("/accounts/login/"), response["Location"]
        else:
            assert response.status_code == 403, (response.status_code, response.content[:300])
        assert after == before, "a refused request changed something"


# A finished club game is a league record: only its organisers change it.
@pytest.mark.parametrize("persona", sorted(EVERYONE))
@pytest.mark.parametrize(
    "name", ["scoring:hand_edit", "scoring:hand_delete_last", "scoring:game_details", "scoring:game_settings"]
)
def test_only_organisers_correct_a_finished_club_game(name, persona, world):
    Game.objects.filter(pk=world.game.pk).update(finished=True)
    world.game.refresh_from_db()
    client = client_for(persona, world)
    write = MATRIX[name]
    before = snapshot()
    response = client.post(write.url(world), write.data(world))
    if persona == ORGANISER:
        assert response.status_code in (200, 302)
    else:
        assert response.status_code in (302, 403)
        if response.status_code == 302:
            # The phone that scored the game stays on its page (it says the game is over); anyone
            # else is asked to log in.
            page = f"/g/{world.game.code}/" if persona == TOKEN else "/accounts/login/"
            assert response["Location"].startswith(page)
        assert snapshot() == before


# Django's admin is the operator's tool: an active superuser only. Every other visitor — the club's
# organiser made staff with every model permission too — gets the admin's log-in page from every
# admin address, reading nothing and changing nothing.
STAFF_ORGANISER = "staff organiser"


@pytest.mark.parametrize("persona", sorted((EVERY_VISITOR - {SUPERUSER}) | {STAFF_ORGANISER}))
def test_only_a_superuser_gets_anything_from_the_admin(persona, world):
    from django.contrib.auth.models import Permission

    if persona == STAFF_ORGANISER:
        User.objects.filter(username="alice").update(is_staff=True)
        User.objects.get(username="alice").user_permissions.set(Permission.objects.all())
    client = client_for(ORGANISER if persona == STAFF_ORGANISER else persona, world)
    assert not unchecked_admin_url_names()
    before = snapshot()
    for url in every_admin_url():
        for response in (client.get(url), client.post(url, {"post": "yes", "name": "Forged"})):
            assert response.status_code == 302, (url, response.status_code)
            assert response["Location"].startswith("/admin/login/"), (url, response["Location"])
            assert not response.content, url
    assert snapshot() == before


def test_a_superuser_gets_the_admin(world):
    client = client_for(SUPERUSER, world)
    page = client.get("/admin/").content.decode()
    assert "/admin/clubs/club/" in page and "/admin/scoring/game/" in page
    assert client.get("/admin/clubs/club/").status_code == 200
