"""Bad input: thousands of malformed or hostile submissions to every form and the import endpoint.

Against gunicorn (2 workers, DEBUG off) on 127.0.0.1 with a fresh database (SQLite, or
`--postgres` for a throwaway cluster). Every URL pattern of the site (admin aside: only its login)
gets requests built from a valid form with random damage: fields dropped, wrong types, huge and
negative numbers, unknown seats and meld items, NUL bytes and long text, forged game codes and
ids, a missing or wrong CSRF token, the wrong method; the import gets broken CSV and JSON,
undecodable bytes and a file over the 10 MB limit.

Checks: no answer is a 5xx, and a request the server refused (4xx, a form shown again with its
errors, a redirect to the login page) changed no row count in any table (sessions and the rate
limit's cache table aside: a refused login is meant to count there). The requests run one at a
time so each row-count difference belongs to one request.

    .venv/bin/python bench/fuzz.py [--requests 6000] [--seed 1] [--postgres]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import (
    Browser,
    Response,
    Server,
    database,
    environment,
    free_port,
    prepare_database,
    setup_django,
)

NASTY = [
    "",
    " ",
    "-1",
    "0",
    "-99999",
    "1e5",
    "3.5",
    "٣",
    "99999999999999999999",
    "9" * 400,
    "NaN",
    "inf",
    "<script>alert(1)</script>",
    "N",
    "NS",
    "Q",
    "\x00",
    "on",
    "true",
    "null",
    "[]",
    "{}",
    "spades",
    "a" * 5000,
    "é" * 200,
    "'; DROP TABLE scoring_hand; --",
    "../../etc/passwd",
    "%00",
    "\ud7ff",
    '=HYPERLINK("x")',
    "2026-02-30",
    "0000-00-00",
    str(uuid.uuid4()),
    "not-a-uuid",
    "-0",
    "+7",
    " 12 ",
]
SEATS = ["N", "E", "S", "W", "Q", "", "NS", "n"]
ITEMS = [
    "run",
    "marriage",
    "trump_marriage",
    "dix",
    "aces",
    "kings",
    "queens",
    "jacks",
    "pinochle",
    "double_pinochle",
    "bogus",
    "run_double",
    "",
    "__class__",
]
BAD_CODES = ["AAAAAAAAAAA", "x", "-" * 16, "a" * 300, "%2e%2e", "%00", "code%20with%20space", "ünï"]
BAD_INTS = ["0", "99999999999999999999999", "9223372036854775808", "2147483648", "4294967296"]

HAND = {
    "bidder": "N",
    "bid": "27",
    "trump": "hearts",
    "meld_N_run": "1",
    "meld_N_marriage": "1",
    "meld_S_pinochle": "1",
    "meld_E_aces": "1",
    "tricks_NS": "15",
}
HAND_FIELDS = [
    "number",
    "submission_id",
    "bidder",
    "bid",
    "trump",
    "passed",
    "conceded",
    "meld_mode",
    "meld_points_NS",
    "meld_points_EW",
    "meld_points_N",
    "tricks_NS",
    "tricks_EW",
    "tricks_N",
    "tricks_E",
    "tricks_S",
    "slam",
    "step",
]
GAME_SETUP = {
    "seats": "4",
    "variant": "standard",
    "deck": "single",
    "target": "",
    "min_bid": "",
    "first_dealer": "N",
    "name_N": "Anna",
    "name_E": "Bo",
    "name_S": "Cecilia",
    "name_W": "David",
}
CSV_HEADER = (
    "game_id,date,club,season,place,note,variant,deck,seats,target,min_bid,first_dealer,"
    "meld_needs_trick,player_N,player_E,player_S,player_W,hand,dealer,bidder,bid,trump,passed,"
    "conceded,result,melds_N,melds_E,melds_S,melds_W,tricks_NS,tricks_EW"
)
PASSWORD = "a quiet club night 2026"


@dataclass
class State:
    """What the seeded database holds, for building requests that reach deep into the views."""

    codes: list[str]
    club_id: int
    season_id: int
    player_ids: list[int]
    web_codes: list[str] = field(default_factory=list)


@dataclass
class Request:
    target: str
    method: str
    path: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    files: list[tuple[str, str, bytes]] = field(default_factory=list)
    csrf: str = "ok"  # ok, missing, wrong
    who: str = "anon"  # anon, alice


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
    return State(codes, club.pk, season.pk, [p.pk for p in players])


class Fuzzer:
    def __init__(self, rng: random.Random, state: State) -> None:
        self.rng, self.state = rng, state

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
        from urllib.parse import quote

        which = self.rng.choice(["games", "hands"])
        return Request("export", "GET", f"/league/export/{which}.csv?" + quote(query, safe="=&"))

    def pages(self) -> Request:
        """The read-only pages with forged ids and query strings (and the wrong method)."""
        s = self.state
        path = self.rng.choice(
            [
                f"/league/clubs/{self.int_id([s.club_id])}/",
                f"/league/seasons/{self.int_id([s.season_id])}/"
                f"?sort={self.nasty()[:30]}&dir={self.nasty()[:10]}",
                f"/league/players/{self.int_id(s.player_ids)}/",
                f"/clubs/{self.int_id([s.club_id])}/corrections/?page={self.nasty()[:30]}",
                f"/games/{self.code()}/history/",
                f"/g/{self.code()}/",
                f"/g/{self.code()}/hands/last/delete",
                "/rules/",
                "/accounts/logout/",
                "/accounts/password/change/done/",
                "/accounts/password/reset/sent/",
                "/accounts/password/reset/done/",
                "/league/",
                "/",
                "/healthz",
            ]
        )
        method = "GET" if self.rng.random() < 0.8 else self.rng.choice(["POST", "PUT", "DELETE"])
        return Request("pages", method, path, [], csrf=self.csrf(), who=self.rng.choice(["anon", "alice"]))

    def handover(self) -> Request:
        if self.rng.random() < 0.5:
            return Request(
                "hand-over",
                "POST",
                f"/games/{self.code()}/hand-over/",
                [],
                csrf=self.csrf(),
                who=self.rng.choice(["anon", "alice"]),
            )
        token = self.rng.choice(["x", "a" * 43, "%00", "a" * 500])
        method = self.rng.choice(["GET", "POST"])
        return Request("take-over", method, f"/games/{self.code()}/take-over/{token}/", [], csrf=self.csrf())

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
        record: dict[str, object] = {
            "seats": 4,
            "variant": "standard",
            "deck": "single",
            "first_dealer": "N",
            "players": {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"},
            "hands": [
                {
                    "bidder": "N",
                    "bid": 27,
                    "trump": "hearts",
                    "melds": {"N": ["run", "marriage"]},
                    "tricks": {"NS": 15, "EW": 10},
                }
            ],
        }
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
    (3, Fuzzer.pages),
    (2, Fuzzer.handover),
    (1, Fuzzer.admin_login),
    (5, Fuzzer.import_upload),
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
    from urllib.parse import quote, urlencode

    path = quote(request.path, safe="/?=&%")
    headers = {"Referer": f"http://127.0.0.1:{browser.port}/"}
    if request.method == "GET":
        return browser.request("GET", path, headers=headers)
    if request.files:
        body, content_type = multipart(fields, request.files)
    else:
        body = urlencode([(k, v.encode("utf-8", "surrogatepass")) for k, v in fields]).encode()
        content_type = "application/x-www-form-urlencoded"
    return browser.request(request.method, path, body, {**headers, "Content-Type": content_type})


def row_counts() -> tuple[int, ...]:
    """Every table's row count (sessions and the cache aside) and the newest hand change, in one query."""
    from django.db import connection

    quote = connection.ops.quote_name
    tables = sorted(
        name
        for name in connection.introspection.table_names()
        if name not in ("django_session", "pinochle_cache", "django_migrations")
    )
    sql = ", ".join(f"(SELECT COUNT(*) FROM {quote(name)})" for name in tables)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql}, (SELECT COUNT(*) FROM scoring_hand WHERE updated_at > created_at)")
        return tuple(cursor.fetchone())


def refused(request: Request, response: Response) -> bool:
    if response.status >= 400:
        return True
    if response.status in (301, 302, 303):
        return "/login/" in response.location()
    return request.method == "POST"  # a POST answered 200 showed its form again (or a preview)


def route_of(path: str) -> str | None:
    """The URL pattern a request path resolves to (None: no pattern, a 404 by routing)."""
    from urllib.parse import urlsplit

    from django.urls import Resolver404, resolve

    try:
        return resolve(urlsplit(path).path).route
    except (Resolver404, ValueError):
        return None


def url_patterns() -> list[str]:
    from django.urls import URLPattern, URLResolver, get_resolver

    def walk(patterns: list[object], prefix: str) -> list[str]:
        found = []
        for item in patterns:
            if isinstance(item, URLResolver):
                found += walk(item.url_patterns, prefix + str(item.pattern))
            elif isinstance(item, URLPattern):
                found.append(prefix + str(item.pattern))
        return found

    return [route for route in walk(get_resolver().url_patterns, "") if not route.startswith("admin/")]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--port", type=int, default=8711)
    parser.add_argument("--minutes", type=float, default=10, help="stop early after this long")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    with database(args.postgres) as url:
        env = environment(url)
        env["LOGIN_FAILURES_PER_ADDRESS"] = "1000000"  # let the fuzzed logins reach the form
        prepare_database(env)
        setup_django(env)
        state = seed()
        from django.db import connections

        connections.close_all()
        log = Path(url.removeprefix("sqlite:///")).with_name("server.log") if not args.postgres else None
        log = log or Path(f"/tmp/fuzz-server-{os.getpid()}.log")
        server = Server(env, free_port(args.port), log=log)
        server.start()
        statuses: Counter[str] = Counter()
        by_target: Counter[str] = Counter()
        failures: list[str] = []
        wrote: list[str] = []
        sent = 0
        reached: set[str | None] = set()
        try:
            anon, alice = Browser(server.port), Browser(server.port)
            anon.get("/games/new")
            for _ in range(2):  # games this browser set up itself (it holds their edit right)
                answer = anon.post("/games/new", GAME_SETUP)
                if answer.status == 302:
                    state.web_codes.append(answer.location().strip("/").split("/")[-1])
            alice.get("/accounts/login/")
            if alice.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status != 302:
                print("  warning: alice could not log in")
            fuzzer = Fuzzer(rng, state)
            weights = [weight for weight, _make in WEIGHTS]
            makers = [make for _weight, make in WEIGHTS]
            before = row_counts()
            stop = time.monotonic() + args.minutes * 60
            while sent < args.requests and time.monotonic() < stop:
                request = rng.choices(makers, weights)[0](fuzzer)
                browser = alice if request.who == "alice" else anon
                try:
                    response = send(browser, request)
                except OSError as error:
                    failures.append(f"{request.target}: {request.method} {request.path[:80]}: {error}")
                    continue
                finally:
                    sent += 1
                by_target[request.target] += 1
                reached.add(route_of(request.path))
                statuses[str(response.status)] += 1
                after = row_counts()
                if response.status >= 500:
                    failures.append(
                        f"{request.target}: {request.method} {request.path[:80]} -> {response.status}"
                        f" {[(k, v[:40]) for k, v in request.fields][:12]}"
                    )
                elif refused(request, response) and after != before:
                    wrote.append(
                        f"{request.target}: {request.method} {request.path[:80]} -> {response.status}"
                    )
                before = after
                if alice.cookies.get("sessionid") is None:  # a fuzzed form logged her out: log in again
                    alice.get("/accounts/login/")
                    alice.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
        finally:
            server.stop()
        routes = url_patterns()
        tracebacks = [line for line in log.read_text(errors="replace").splitlines() if "Error" in line]
        log.unlink()
        connections.close_all()

    for line in failures[:25] + wrote[:25] + tracebacks[:40]:
        print("  problem:", line)
    missed = sorted(set(routes) - reached)
    print(
        f"  URL patterns (admin aside): {len(routes)}, {len(routes) - len(missed)} reached; missed: {missed}"
    )
    print("  requests per form: " + ", ".join(f"{name} {count}" for name, count in by_target.most_common()))
    print("  answers: " + ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items())))
    server_errors = sum(1 for line in failures)
    print(
        f"fuzz: {sent} requests, {server_errors} server errors, {len(wrote)} rows written by refused requests"
        f" ({'postgres' if args.postgres else 'sqlite'})"
    )
    return 1 if failures or wrote else 0


if __name__ == "__main__":
    sys.exit(main())
