"""Requests to the club's pages and forms: players merged, league games, exports, read-only
pages, publishing, roles, club nights and the chip ledger."""

from __future__ import annotations

import uuid
from urllib.parse import quote

from bench.fuzz.maker import Maker
from bench.fuzz.payloads import BAD_CODES
from bench.fuzz.state import Request


class ClubForms(Maker):
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
            f"/g/{self.code()}/details/",
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
