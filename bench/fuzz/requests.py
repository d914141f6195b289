"""The requests: one maker per form (and per URL pattern), each building a valid request and
then damaging it; `send` puts one on the wire as a browser (or a script) would."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import quote, urlencode

from bench.fuzz.payloads import (
    BAD_CODES,
    BAD_INTS,
    CSV_HEADER,
    FOREIGN_CHARSETS,
    GAME_SETUP,
    HAND,
    HAND_FIELDS,
    HOSTILE_CSV_CELLS,
    HOSTILE_JSON,
    ITEMS,
    LOOKALIKE_USERNAMES,
    NASTY,
    PASSWORD,
    SEATS,
    hands_csv,
    id_variants,
    valid_record,
)
from bench.harness import Browser, Response


@dataclass
class State:
    """What the seeded database holds, for building requests that reach deep into the views."""

    codes: list[str]
    club_id: int
    season_id: int
    player_ids: list[int]
    share_codes: list[str] = field(default_factory=list)
    publish_code: str = ""
    game_ids: list[int] = field(default_factory=list)
    web_codes: list[str] = field(default_factory=list)
    night_id: int = 0  # a club night, drawn, its first round started
    table_tokens: list[str] = field(default_factory=list)


@dataclass
class Request:
    target: str
    method: str
    path: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    files: list[tuple[str, str, bytes]] = field(default_factory=list)
    csrf: str = "ok"  # ok, missing, wrong
    who: str = "anon"  # anon, alice (an organiser), sam (a staff organiser: the admin)
    charset: str = ""  # declared in the Content-Type (the body is encoded in it when Python can)
    # A known hole: the answer must be a refusal, or exactly this status; a redirect
    # to the log-in page (the browser was signed out) cannot tell and passes.
    must_refuse: bool = False
    must_status: int = 0


def seed() -> State:
    from django.contrib.auth.models import User

    from clubs.models import Club, ClubRole, Season
    from clubs.services import add_player
    from scoring import filing, services

    club = Club.objects.create(name="Fuzz club")
    season = Season.objects.create(club=club, name="Autumn", starts_on="2026-01-01", ends_on="2026-12-31")
    players = [add_player(club=club, name=name) for name in ("Anna", "Bo", "Cecilia", "David")]
    alice = User.objects.create_user("alice", "alice@example.org", PASSWORD)
    ClubRole.objects.create(user=alice, club_id=club.pk, role=ClubRole.Role.ORGANISER)
    # sam organises the club in the admin: staff, with the admin rights of the club and game models.
    from django.contrib.auth.models import Permission

    sam = User.objects.create_user("sam", "sam@example.org", PASSWORD, is_staff=True)
    sam.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["clubs", "scoring"]))
    ClubRole.objects.create(user=sam, club_id=club.pk, role=ClubRole.Role.ORGANISER)
    User.objects.create_user("bob", "bob@example.org", PASSWORD)  # a name look-alike sign-ups aim at
    from clubs.services import create_invite

    create_invite(club=club, player=players[0], by=alice)  # a pending invite for the backup
    Season.objects.filter(pk=season.pk).update(publish_code="fuzzpublished")
    share_codes, game_ids = [], []
    codes = []
    hand = {
        "bidder": "N",
        "bid": 27,
        "trump": "hearts",
        "melds": {"N": ["run", "marriage"]},
        "tricks": {"NS": 15, "EW": 10},
    }
    for seats, variant in ((4, "check"), (4, "standard"), (3, "standard"), (2, "standard")):
        names = dict(zip("NESW"[:seats], ("Anna", "Bo", "Cecilia", "David"), strict=False))
        game = services.create_game(
            seats=seats,
            variant=variant,
            deck="single",
            target=None,
            min_bid=None,
            first_dealer="N",
            meld_needs_trick=False,
            players=names,
        )
        if seats == 4:
            for number in (1, 2, 3):
                services.record_hand(game=game, number=number, data=hand)
            filing.file_game(
                game=game,
                club=club,
                season=season,
                played_on=None,
                place="",
                note="",
                players=dict(zip("NESW", players, strict=True)),
            )
        codes.append(game.code)
        share_codes.append(game.share_code)
        game_ids.append(game.pk)
    import datetime

    from nights import services as nights

    night = nights.open_night(
        club=club, season=Season.objects.get(pk=season.pk), played_on=datetime.date(2026, 3, 14),
        variant="check", deck="single",
        target=None,
        min_bid=None, meld_needs_trick=False, rounds=3, round_ends="game", hands_per_round=None,
        stake_per_chip=None, stake_per_win=None, created_by=alice,
    )  # fmt: skip
    for player in players:
        nights.set_checked_in(night=night, player=player, present=True)
    nights.draw_plan(night=night)
    nights.start_round(night=night, round_no=1)
    return State(
        codes,
        club.pk,
        season.pk,
        [p.pk for p in players],
        share_codes=share_codes,
        publish_code="fuzzpublished",
        game_ids=game_ids,
        night_id=night.pk,
        table_tokens=list(night.tables.values_list("token", flat=True)),
    )


class Fuzzer:
    def __init__(self, rng: random.Random, state: State) -> None:
        self.rng, self.state = rng, state
        self.password_guesses = 0

    def nasty(self) -> str:
        return self.rng.choice(NASTY)

    def damage(self, fields: dict[str, str], extra_keys: list[str]) -> list[tuple[str, str]]:
        """A valid form with one to four kinds of damage."""
        rng = self.rng
        items = dict(fields)
        for _ in range(rng.randint(1, 4)):
            kind = rng.random()
            keys = list(items) or ["x"]
            if kind < 0.25 and items:
                items.pop(rng.choice(keys), None)  # a missing field
            elif kind < 0.7:
                items[rng.choice(keys + extra_keys)] = self.nasty()  # a wrong value
            elif kind < 0.85:
                items[rng.choice([*extra_keys, "x", "csrfmiddlewaretoken"])] = self.nasty()
            else:
                items = {key: self.nasty() for key in items}  # everything wrong at once
        pairs = list(items.items())
        if rng.random() < 0.1 and pairs:
            pairs.append((rng.choice(pairs)[0], self.nasty()))  # the same key twice
        return pairs

    def csrf(self) -> str:
        roll = self.rng.random()
        return "missing" if roll < 0.08 else "wrong" if roll < 0.12 else "ok"

    def code(self) -> str:
        pool = self.state.codes + self.state.web_codes
        return self.rng.choice(pool) if self.rng.random() < 0.85 else self.rng.choice(BAD_CODES)

    def int_id(self, real: list[int]) -> str:
        return str(self.rng.choice(real)) if self.rng.random() < 0.8 else self.rng.choice(BAD_INTS)

    # --- targets: one per form (and per URL pattern) ------------------------------------------

    def game_new(self) -> Request:
        return Request(
            "game setup",
            "POST",
            "/games/new",
            self.damage(GAME_SETUP, ["seats", "deck", "target"]),
            csrf=self.csrf(),
        )

    def hand_fields(self) -> list[tuple[str, str]]:
        rng = self.rng
        form = {"number": str(rng.choice([1, 2, 3, 4, 5])), "submission_id": str(uuid.uuid4()), **HAND}
        melds = [f"meld_{rng.choice(SEATS)}_{rng.choice(ITEMS)}" for _ in range(rng.randint(0, 6))]
        return self.damage(form, HAND_FIELDS + melds)

    def hand_save(self) -> Request:
        return Request("hand save", "POST", f"/g/{self.code()}/hands", self.hand_fields(), csrf=self.csrf())

    def hand_preview(self) -> Request:
        number = self.rng.choice(["", "1/", "3/", "0/", "999999/", "99999999999999999999999/"])
        path = f"/g/{self.code()}/preview" if not number else f"/g/{self.code()}/hands/{number}preview"
        fields = self.hand_fields()
        if self.rng.random() < 0.3:
            fields.append(("step", self.rng.choice(["bid_up", "bid_down", "sideways", ""])))
        return Request("hand preview", "POST", path, fields, csrf=self.csrf())

    def hand_edit(self) -> Request:
        number = self.rng.choice(["1", "2", "3", "4", *BAD_INTS])
        method = "POST" if self.rng.random() < 0.85 else "GET"
        return Request(
            "hand edit",
            method,
            f"/g/{self.code()}/hands/{number}/",
            self.hand_fields(),
            csrf=self.csrf(),
            who=self.rng.choice(["anon", "alice"]),
        )

    def hand_delete(self) -> Request:
        number = self.rng.choice([self.nasty(), "0", "2", "4", "-3"])
        fields = [("number", number)] if self.rng.random() < 0.9 else []
        return Request("hand delete", "POST", f"/g/{self.code()}/hands/last/delete", fields, csrf=self.csrf())

    def login(self) -> Request:
        fields = {
            "username": self.rng.choice(["alice", "bob", "", "a" * 300]),
            "password": self.nasty(),
            "next": self.rng.choice(["/", "//evil.example", "https://evil.example/", "javascript:x"]),
        }
        return Request("login", "POST", "/accounts/login/", self.damage(fields, ["next"]), csrf=self.csrf())

    def signup(self) -> Request:
        name = self.rng.choice(["alice", "", "a" * 200, "<b>", "bad name!", "Zoë", "\x00"])
        fields = {"username": name, "email": self.nasty(), "password1": PASSWORD, "password2": self.nasty()}
        return Request("signup", "POST", "/accounts/signup/", self.damage(fields, []), csrf=self.csrf())

    def password_forms(self) -> Request:
        path = self.rng.choice(
            [
                "/accounts/password/reset/",
                "/accounts/password/change/",
                f"/accounts/password/reset/{self.nasty()[:20] or 'x'}/set-password/",
            ]
        )
        fields = {
            "email": self.nasty(),
            "old_password": self.nasty(),
            "new_password1": self.nasty(),
            "new_password2": self.nasty(),
        }
        return Request(
            "password forms",
            "POST",
            path,
            self.damage(fields, []),
            csrf=self.csrf(),
            who=self.rng.choice(["anon", "alice"]),
        )

    def language(self) -> Request:
        fields = {"language": self.rng.choice(["sv", "cs", "xx", "", "en" * 100]), "next": self.nasty()}
        return Request("language", "POST", "/i18n/setlang/", self.damage(fields, []), csrf=self.csrf())

    def merge(self) -> Request:
        path = f"/league/players/{self.int_id(self.state.player_ids)}/merge"
        fields = {"duplicate": self.int_id(self.state.player_ids)}
        return Request(
            "player merge",
            "POST",
            path,
            self.damage(fields, []),
            csrf=self.csrf(),
            who=self.rng.choice(["anon", "alice"]),
        )

    def league_game(self) -> Request:
        s = self.state
        fields = {
            "club": self.int_id([s.club_id]),
            "season": self.int_id([s.season_id]),
            "played_on": self.rng.choice(["2026-03-14", "2027-01-01", self.nasty()]),
            "place": self.nasty(),
            "note": self.nasty(),
            **{f"seat_{seat}": self.int_id(s.player_ids) for seat in "NESW"},
        }
        return Request(
            "league game details",
            "POST",
            f"/league/games/{self.code()}/",
            self.damage(fields, []),
            csrf=self.csrf(),
            who=self.rng.choice(["anon", "alice"]),
        )

    def export(self) -> Request:
        s = self.state
        query = "&".join(
            f"{key}={value}"
            for key, value in self.damage(
                {
                    "season": self.int_id([s.season_id]),
                    "club": self.int_id([s.club_id]),
                    "date_from": "2026-01-01",
                    "date_to": "2026-12-31",
                    "game": self.code(),
                },
                [],
            )
        )

        which = self.rng.choice(["games", "hands"])
        return Request("export", "GET", f"/league/export/{which}.csv?" + quote(query, safe="=&"))

    def pages(self) -> Request:
        """The read-only pages with forged ids and query strings (and the wrong method, and HEAD)."""
        s = self.state
        share = self.rng.choice(s.share_codes) if self.rng.random() < 0.8 else self.rng.choice(BAD_CODES)
        publish = s.publish_code if self.rng.random() < 0.7 else self.rng.choice(BAD_CODES)
        path = self.rng.choice(
            [
                f"/league/clubs/{self.int_id([s.club_id])}/",
                f"/league/clubs/{self.int_id([s.club_id])}/roles/",
                f"/league/seasons/{self.int_id([s.season_id])}/"
                f"?sort={self.nasty()[:30]}&dir={self.nasty()[:10]}",
                f"/league/players/{self.int_id(s.player_ids)}/",
                f"/league/results/{publish}/",
                f"/games/clubs/{self.int_id([s.club_id])}/corrections/?page={self.nasty()[:30]}",
                f"/games/{self.code()}/history/",
                f"/g/{self.code()}/",
                f"/g/{self.code()}/live",
                f"/g/{self.code()}/history/",
                f"/g/{self.code()}/details/",
                f"/g/{self.code()}/settings/",
                f"/g/{self.code()}/hands/last/delete",
                f"/s/{share}/",
                f"/s/{share}/live",
                "/rules/",
                "/accounts/logout/",
                "/accounts/login/",
                "/accounts/signup/",
                "/accounts/password/change/done/",
                "/accounts/password/reset/sent/",
                "/accounts/password/reset/done/",
                "/league/",
                "/",
                "/healthz",
                f"/admin/scoring/{self.rng.choice(['club', 'player', 'season'])}/",  # moved to /admin/clubs/
            ]
        )
        roll = self.rng.random()
        method = (
            "GET" if roll < 0.65 else "HEAD" if roll < 0.85 else self.rng.choice(["POST", "PUT", "DELETE"])
        )
        return Request("pages", method, path, [], csrf=self.csrf(), who=self.rng.choice(["anon", "alice"]))

    def publish(self) -> Request:
        fields = {"action": self.rng.choice(["publish", "unpublish", "", self.nasty()])}
        return Request(
            "publish",
            "POST",
            f"/league/seasons/{self.int_id([self.state.season_id])}/publish",
            self.damage(fields, []),
            csrf=self.csrf(),
            who=self.rng.choice(["anon", "alice"]),
        )

    def roles(self) -> Request:
        fields = {"username": self.rng.choice(["alice", "bob", "", "\x00", "a" * 300]), "role": "member"}
        return Request(
            "club roles",
            "POST",
            f"/league/clubs/{self.int_id([self.state.club_id])}/roles/",
            self.damage(fields, ["role"]),
            csrf=self.csrf(),
            who=self.rng.choice(["anon", "alice"]),
        )

    def game_details(self) -> Request:
        s = self.state
        fields = {
            "club": self.int_id([s.club_id]),
            "season": self.int_id([s.season_id]),
            "played_on": self.rng.choice(["2026-03-14", self.nasty()]),
            "place": self.nasty(),
            "note": self.nasty(),
            **{f"seat_{seat}": self.int_id(s.player_ids) for seat in "NESW"},
        }
        return Request(
            "game details",
            "POST",
            f"/g/{self.code()}/details/",
            self.damage(fields, []),
            csrf=self.csrf(),
            who=self.rng.choice(["anon", "alice"]),
        )

    def game_settings(self) -> Request:
        """The settings page (names, first dealer, target, minimum bid, house rule): Preview, and
        Save with a stale or forged version (refused, nothing written) or a forged confirmation."""
        rng = self.rng
        fields = {
            "version": rng.choice(["", "3-1700000000.000000", self.nasty()]),
            "confirm": rng.choice(["", "1-NS-3", self.nasty()]),
            **{f"name_{seat}": rng.choice(["Anna", "Bo", "", "x" * 101, self.nasty()]) for seat in SEATS},
            "first_dealer": rng.choice([*SEATS, "", "Q"]),
            "target": rng.choice(["", "1", "30", "150", "1000001", self.nasty()]),
            "min_bid": rng.choice(["", "1", "20", "28", "9999", self.nasty()]),
            "meld_needs_trick": rng.choice(["on", ""]),
            rng.choice(["preview", "save"]): "1",
        }
        method = "POST" if rng.random() < 0.85 else "GET"
        return Request(
            "game settings",
            method,
            f"/g/{self.code()}/settings/",
            self.damage(fields, ["target", "min_bid", "first_dealer"]),
            csrf=self.csrf(),
            who=rng.choice(["anon", "alice"]),
        )

    def nights(self) -> Request:
        """The club night pages (/nights/): every form damaged, forged ids, rounds and tokens."""
        s, rng = self.state, self.rng
        night = self.int_id([s.night_id])
        token = rng.choice(s.table_tokens) if rng.random() < 0.7 else rng.choice(BAD_CODES)
        rounds = self.int_id([1, 2, 3])
        forms: list[tuple[str, str, dict[str, str]]] = [
            (f"/nights/clubs/{self.int_id([s.club_id])}/new", "POST", {
                "played_on": "2026-03-14", "season": str(s.season_id), "variant": "check", "deck": "single",
                "target": "", "min_bid": "", "rounds": "3", "round_ends": "hands", "hands_per_round": "8",
                "stake_per_chip": "0.50", "stake_per_win": "",
            }),
            (f"/nights/{night}/check-in/{self.int_id(s.player_ids)}", "POST", {"present": "yes"}),
            (f"/nights/{night}/newcomer", "POST", {"name": "Zoe"}),
            (f"/nights/{night}/draw", "POST", {}),
            (f"/nights/{night}/swap", "POST", {
                "round": "2", "first": self.int_id(s.player_ids), "second": self.int_id(s.player_ids),
            }),
            (f"/nights/{night}/late", "POST", {"late-player": self.int_id(s.player_ids)}),
            (f"/nights/{night}/leave", "POST", {"leave-player": self.int_id(s.player_ids)}),
            (f"/nights/{night}/rounds/{rounds}/start", "POST", {}),
            (f"/nights/{night}/finish", "POST", {
                "finished": rng.choice(["yes", "no"]), "confirm": rng.choice(["yes", "", "no"]),
            }),
            (f"/nights/{night}/remove", "GET", {}),
            (f"/nights/t/{token}/", rng.choice(["GET", "POST"]), {}),
            (f"/nights/clubs/{self.int_id([s.club_id])}/", "GET", {}),
            (f"/nights/{night}/", "GET", {}),
            (f"/nights/{night}/rounds/{rounds}/cards", "GET", {}),
            (f"/nights/{night}/plan", "GET", {}),
            (f"/nights/{night}/standings/", "GET", {}),
            (f"/nights/{night}/standings/live?v={self.nasty()[:20]}", "GET", {}),
            (f"/nights/results/{s.publish_code}/{night}/", "GET", {}),
            (f"/nights/results/{s.publish_code}/{night}/live", "GET", {}),
        ]  # fmt: skip
        path, method, fields = rng.choice(forms)
        pairs = self.damage(fields, ["round", "present"]) if method == "POST" and fields else []
        who = rng.choice(["anon", "alice"])
        return Request("club nights", method, path, pairs, csrf=self.csrf(), who=who)

    def ledger(self) -> Request:
        """The chip ledger (/ledger/): the settlement, season and statement pages with forged ids and
        months, and the mark-paid forms damaged (a payment nobody was shown, bad amounts and tokens)."""
        s, rng = self.state, self.rng
        night = self.int_id([s.night_id])
        season = self.int_id([s.season_id])
        player = self.int_id(s.player_ids)
        month = rng.choice(["2026-03", "2026-01", "2025-12", "2026-13", "0000-00", "9999-99"])
        pay = {
            "payer": self.int_id(s.player_ids), "payee": self.int_id(s.player_ids),
            "amount": rng.choice(["1.00", "0.01", "12", "1e3", "-5", "0", "99999999999.99"]),
            "unit": rng.choice(["money", "chips"]), "token": str(uuid.uuid4()),
        }  # fmt: skip
        forms: list[tuple[str, str, dict[str, str]]] = [
            (f"/ledger/nights/{night}/", "GET", {}),
            (f"/ledger/nights/{night}/pay", "POST", pay),
            (f"/ledger/seasons/{season}/", "GET", {}),
            (f"/ledger/seasons/{season}/pay", "POST", pay),
            (f"/ledger/nights/{night}/payments/{self.int_id([1, 2, 3])}/remove", "POST", {}),
            (f"/ledger/seasons/{season}/payments/{self.int_id([1, 2, 3])}/remove", "POST", {}),
            (f"/ledger/seasons/{season}/players/{player}/{month}/", "GET", {}),
            (f"/ledger/seasons/{season}/players/{player}/{month}.csv", "GET", {}),
        ]
        path, method, fields = rng.choice(forms)
        pairs = self.damage(fields, ["amount", "token", "unit"]) if method == "POST" else []
        return Request(
            "chip ledger", method, path, pairs, csrf=self.csrf(), who=rng.choice(["anon", "alice"])
        )

    def foreign_charset(self) -> Request:
        """A form posted as UTF-16, Latin-1 or UTF-32: 400, never a 500."""
        request = self.rng.choice(
            [self.game_new, self.login, self.hand_save, self.league_game, self.language]
        )()
        request.target, request.charset = "foreign charset", self.rng.choice(FOREIGN_CHARSETS)
        return request

    def hostile_import(self) -> Request:
        """The imports' known holes: each must be refused with a message."""
        rng = self.rng
        if rng.random() < 0.5:
            kind = rng.choice(sorted(HOSTILE_JSON))
            name, data = "games.json", HOSTILE_JSON[kind]().encode("utf-8", "surrogatepass")
        else:
            name, data = (
                "hands.csv",
                hands_csv(**rng.choice(HOSTILE_CSV_CELLS)).encode("utf-8", "surrogatepass"),
            )
        fields = [("club", str(self.state.club_id))]
        return Request(
            "hostile import", "POST", "/league/import/", fields, [("file", name, data)], who="alice"
        )

    # --- known holes: each must stay refused ---------------------------

    def known_holes(self) -> Request:
        return self.rng.choice([self.lookalike_signup, self.id_syntax, self.password_guess])()

    def lookalike_signup(self) -> Request:
        name = self.rng.choice([n for names in LOOKALIKE_USERNAMES.values() for n in names])
        fields = [("username", name), ("email", ""), ("password1", PASSWORD), ("password2", PASSWORD)]
        return Request("look-alike sign-up", "POST", "/accounts/signup/", fields, must_refuse=True)

    def id_syntax(self) -> Request:
        """A valid form or query whose one id is a real id in int() syntax (`0_7`, ` 7`, `７`)."""
        rng, s = self.rng, self.state
        ids = {"club": s.club_id, "season": s.season_id, "seat_N": s.player_ids[0]}
        kinds = ["details", "export", "merge", "admin form", "admin address", "admin filter", "admin page"]
        kind = rng.choice(kinds)
        if kind in ("details", "export"):
            name = rng.choice(["club", "season"] + (["seat_N"] if kind == "details" else []))
            if kind == "export":
                query = urlencode(
                    {"season": s.season_id, "club": s.club_id, name: rng.choice(id_variants(ids[name]))}
                )
                return Request(
                    "id syntax", "GET", f"/league/export/games.csv?{query}", who="alice", must_status=400
                )
            seats = {f"seat_{seat}": str(pk) for seat, pk in zip("NESW", s.player_ids, strict=True)}
            fields = {"club": str(s.club_id), "season": str(s.season_id), "played_on": "2026-03-14",
                      "place": "", "note": "", **seats}  # fmt: skip
            fields[name] = rng.choice(id_variants(ids[name]))
            path = f"/g/{s.codes[0]}/details/"
            return Request("id syntax", "POST", path, list(fields.items()), who="alice", must_refuse=True)
        if kind == "merge":
            keep, duplicate = rng.sample(s.player_ids, 2)
            fields = [("duplicate", rng.choice(id_variants(duplicate)))]
            path = f"/clubs/{s.club_id}/players/{keep}/merge"  # the roster's merge: 400 and its form
            return Request("id syntax", "POST", path, fields, who="alice", must_refuse=True)
        if kind == "admin form":
            fields = {"club": str(s.club_id), "season": rng.choice(id_variants(s.season_id)),
                      "played_on": "", "place": "", "note": "", "seat_rows-TOTAL_FORMS": "0",
                      "seat_rows-INITIAL_FORMS": "0"}  # fmt: skip
            path = f"/admin/scoring/game/{s.game_ids[0]}/change/"
            return Request("id syntax", "POST", path, list(fields.items()), who="sam", must_refuse=True)
        variant = quote(rng.choice(id_variants(s.club_id)))
        if kind == "admin address":  # "does not exist": back to the admin's index
            return Request(
                "id syntax", "GET", f"/admin/clubs/club/{variant}/change/", who="sam", must_status=302
            )
        if kind == "admin page":  # the first page, with a message
            return Request(
                "id syntax", "GET", f"/admin/clubs/season/?p={variant}", who="sam", must_status=302
            )
        path = f"/admin/clubs/season/?club__id__exact={variant}"  # the filter is left out, with a message
        return Request("id syntax", "GET", path, who="sam", must_status=302)

    def password_guess(self) -> Request:
        """Wrong old passwords on alice's password change; past the login limit even the right one
        must get 429 (new = old, so a reopened hole changes nothing else in the run)."""
        self.password_guesses += 1
        right = self.password_guesses > 5
        fields = [
            ("old_password", PASSWORD if right else f"guess {self.password_guesses}"),
            ("new_password1", PASSWORD),
            ("new_password2", PASSWORD),
        ]
        path = "/accounts/password/change/"
        if right:
            return Request("password guesses", "POST", path, fields, who="alice", must_status=429)
        return Request("password guesses", "POST", path, fields, who="alice", must_refuse=True)

    # --- the admin, as a staff organiser ------------------------------------------------------------

    ADMIN_FORMS: dict[str, list[str]] = {
        "clubs/club": ["name", "seasons-TOTAL_FORMS", "seasons-INITIAL_FORMS", "memberships-TOTAL_FORMS"],
        "clubs/season": ["club", "name", "starts_on", "ends_on"],
        "clubs/player": [
            "name",
            "memberships-TOTAL_FORMS",
            "memberships-INITIAL_FORMS",
            "memberships-0-club",
        ],
        "clubs/clubrole": ["user", "club", "role"],
        "clubs/membership": ["club", "player", "joined_on"],
        "scoring/game": ["club", "season", "played_on", "place", "note", "seat_rows-TOTAL_FORMS"],
    }

    def admin_form(self) -> Request:
        rng, s = self.rng, self.state
        model = rng.choice(sorted(self.ADMIN_FORMS))
        if model == "scoring/game":
            page = f"{self.int_id(s.game_ids)}/change/"
        elif rng.random() < 0.6:
            page = "add/"
        else:
            page = f"{self.int_id([s.club_id, s.season_id, *s.player_ids])}/change/"
        base = {key: self.nasty() for key in self.ADMIN_FORMS[model]}
        base.update(
            {
                key: value
                for key, value in {
                    "club": str(s.club_id),
                    "season": str(s.season_id),
                    "name": rng.choice(["Autumn", "New club", "Zoë", self.nasty()]),
                    "starts_on": "2026-01-01",
                    "ends_on": rng.choice(["2026-12-31", "2025-01-01", self.nasty()]),
                    "role": rng.choice(["organiser", "scorer", "member", "boss"]),
                    "player": str(rng.choice(s.player_ids)),
                    "user": rng.choice(["1", "2", "3", *BAD_INTS]),
                }.items()
                if key in base and rng.random() < 0.7
            }
        )
        if rng.random() < 0.3:
            base["action"], base["_selected_action"] = rng.choice(["delete_selected", "merge", "x"]), "1"
        method = "POST" if rng.random() < 0.8 else rng.choice(["GET", "HEAD"])
        path = f"/admin/{model}/{page}" if method != "POST" or "action" not in base else f"/admin/{model}/"
        return Request("admin forms", method, path, self.damage(base, []), csrf=self.csrf(), who="sam")

    def handover(self) -> Request:
        if self.rng.random() < 0.5:
            return Request(
                "hand-over",
                "POST",
                f"/{self.rng.choice(['g', 'games'])}/{self.code()}/hand-over/",
                [],
                csrf=self.csrf(),
                who=self.rng.choice(["anon", "alice"]),
            )
        token = self.rng.choice(["x", "a" * 43, "%00", "a" * 500])
        method = self.rng.choice(["GET", "POST"])
        prefix = self.rng.choice(["g", "games"])  # /games/… is the old address, moved to /g/…
        return Request(
            "take-over", method, f"/{prefix}/{self.code()}/take-over/{token}/", [], csrf=self.csrf()
        )

    def admin_login(self) -> Request:
        fields = {
            "username": self.rng.choice(["alice", "admin", ""]),
            "password": self.nasty(),
            "next": "/admin/",
        }
        return Request("admin login", "POST", "/admin/login/", self.damage(fields, []), csrf=self.csrf())

    def import_upload(self) -> Request:
        rng = self.rng
        files = [
            ("file", rng.choice(["hands.csv", "games.json", "x", "../../etc/passwd", ""]), self.upload())
        ]
        if rng.random() < 0.05:
            files = []
        s = self.state
        fields = {
            "club": self.int_id([s.club_id]),
            "season": self.int_id([s.season_id]),
            "played_on": rng.choice(["", "2026-03-14", "2025-01-01", self.nasty()]),
        }
        return Request(
            "import",
            "POST",
            "/league/import/",
            self.damage(fields, []) if rng.random() < 0.5 else list(fields.items()),
            files,
            csrf=self.csrf(),
            who=rng.choice(["anon", "alice"]),
        )

    def upload(self) -> bytes:
        rng = self.rng
        kind = rng.random()
        if kind < 0.004:
            return b"game_id," + b"x" * (10 * 1024 * 1024 + 100)  # over the limit
        if kind < 0.45:
            return self.bad_csv().encode("utf-8", "surrogatepass")
        if kind < 0.9:
            return self.bad_json().encode("utf-8", "surrogatepass")
        return rng.choice(
            [
                b"\xff\xfe\x00\x00garbage",
                b"\x00" * 100,
                "ﾃｽﾄ".encode("shift_jis"),
                b"",
                b"\xef\xbb\xbf",
                "hands".encode("utf-16"),
                bytes(rng.randrange(256) for _ in range(300)),
            ]
        )

    def bad_csv(self) -> str:
        rng = self.rng
        header = CSV_HEADER.split(",")
        if rng.random() < 0.1:
            header.remove(rng.choice(header))
        rows = []
        code = rng.choice(["fz" + str(rng.randrange(10**6)), self.code(), "", "=cmd|' /C calc'!A0", "a" * 40])
        for number in range(1, rng.randint(1, 6)):
            row = {
                "game_id": code,
                "variant": "standard",
                "deck": "single",
                "seats": "4",
                "first_dealer": "N",
                "hand": str(number),
                "bidder": "N",
                "bid": "27",
                "trump": "hearts",
                "melds_N": "run marriage",
                "tricks_NS": "15",
                "tricks_EW": "10",
                "date": "2026-03-14",
                "club": "Fuzz club",
                "season": "Autumn",
                "player_N": "Anna",
            }
            for _ in range(rng.randint(0, 3)):
                key = rng.choice(header)
                row[key] = rng.choice(NASTY + SEATS + ITEMS + ["run " * 80, "-5", "1e9", str(10**30)])
            rows.append(",".join('"' + str(row.get(key, "")).replace('"', '""') + '"' for key in header))
        text = ",".join(header) + "\n" + "\n".join(rows) + "\n"
        damage = rng.random()
        if damage < 0.15:
            text = text.replace('"', "", 1)  # an unbalanced quote
        elif damage < 0.25:
            text = text[: rng.randrange(len(text))]  # cut short
        elif damage < 0.3:
            text += "," * 500 + "\n"  # too many cells
        elif damage < 0.35:
            text = text.replace("\n", "\r", 3)
        return text

    def bad_json(self) -> str:
        rng = self.rng
        record = valid_record()  # one valid hand, shared with the tests
        values: list[object] = [
            None,
            True,
            -1,
            0,
            10**30,
            -(10**30),
            1e308,
            3.5,
            "x",
            "",
            [],
            {},
            [1, 2],
            {"N": None},
            "N",
            2**63,
            float("nan") if rng.random() < 0.1 else 7,
        ]
        hand = record["hands"][0]  # type: ignore[index]
        for _ in range(rng.randint(1, 4)):
            where = rng.random()
            if where < 0.4:
                record[
                    rng.choice(
                        [
                            "seats",
                            "variant",
                            "deck",
                            "target",
                            "min_bid",
                            "first_dealer",
                            "players",
                            "hands",
                            "options",
                        ]
                    )
                ] = rng.choice(values)
            elif where < 0.8:
                hand[
                    rng.choice(
                        [
                            "bidder",
                            "bid",
                            "trump",
                            "melds",
                            "tricks",
                            "tricks_won",
                            "meld_points",
                            "passed",
                            "conceded",
                            "x",
                        ]
                    )
                ] = rng.choice(values)
            elif where < 0.9:
                hand["melds"] = {rng.choice(SEATS): [rng.choice(ITEMS) for _ in range(rng.randint(0, 70))]}
            else:
                record["players"] = {
                    rng.choice(SEATS): self.nasty(),
                    "E": rng.choice(["Bo", "\x00", "x\x00y"]),
                }
        text = json.dumps(rng.choice([record, [record] * rng.randint(1, 3), [], {}, "x", 5]))
        damage = rng.random()
        if damage < 0.1:
            text = text[: rng.randrange(len(text) or 1)]
        elif damage < 0.15:
            text = "[" * 100_000 + "]" * 100_000  # nested too deeply
        elif damage < 0.2:
            text = '{"hands": [' + ",".join(["{}"] * 20_000) + "]}"
        return text


WEIGHTS: list[tuple[float, Callable[[Fuzzer], Request]]] = [
    (3, Fuzzer.game_new),
    (6, Fuzzer.hand_save),
    (5, Fuzzer.hand_preview),
    (4, Fuzzer.hand_edit),
    (2, Fuzzer.hand_delete),
    (2, Fuzzer.login),
    (2, Fuzzer.signup),
    (1, Fuzzer.password_forms),
    (1, Fuzzer.language),
    (2, Fuzzer.merge),
    (3, Fuzzer.league_game),
    (2, Fuzzer.export),
    (5, Fuzzer.pages),
    (2, Fuzzer.handover),
    (1, Fuzzer.admin_login),
    (5, Fuzzer.import_upload),
    (1, Fuzzer.publish),
    (1, Fuzzer.roles),
    (2, Fuzzer.game_details),
    (2, Fuzzer.game_settings),
    (2, Fuzzer.foreign_charset),
    (2, Fuzzer.hostile_import),
    (3, Fuzzer.admin_form),
    (4, Fuzzer.nights),
    (2, Fuzzer.ledger),
    (3, Fuzzer.known_holes),
]


def multipart(fields: list[tuple[str, str]], files: list[tuple[str, str, bytes]]) -> tuple[bytes, str]:
    boundary = "----fuzz" + uuid.uuid4().hex
    parts = []
    for name, value in fields:
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
            + value.encode("utf-8", "surrogatepass")
            + b"\r\n"
        )
    for name, filename, data in files:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        parts.append(head.encode() + b"Content-Type: application/octet-stream\r\n\r\n" + data + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def send(browser: Browser, request: Request) -> Response:
    fields = [(k, v) for k, v in request.fields if k != "csrfmiddlewaretoken" or request.csrf != "ok"]
    token = browser.cookies.get("csrftoken", "")
    if request.csrf == "ok":
        fields.append(("csrfmiddlewaretoken", token))
    elif request.csrf == "wrong":
        fields.append(("csrfmiddlewaretoken", "x" * 64))

    path = quote(request.path, safe="/?=&%")
    headers = {"Referer": f"http://127.0.0.1:{browser.port}/"}
    if request.method in ("GET", "HEAD"):
        return browser.request(request.method, path, headers=headers)
    if request.files:
        body, content_type = multipart(fields, request.files)
    else:
        body = urlencode([(k, v.encode("utf-8", "surrogatepass")) for k, v in fields]).encode()
        content_type = "application/x-www-form-urlencoded"
    if request.charset:
        try:
            text = "&".join(f"{quote(k)}={quote(v, errors='surrogatepass')}" for k, v in fields)
            body = text.encode(request.charset) if not request.files else body
        except (LookupError, UnicodeError):
            pass  # a charset Python does not know: the body stays UTF-8, the header still lies
        content_type += f"; charset={request.charset}"
    return browser.request(request.method, path, body, {**headers, "Content-Type": content_type})
