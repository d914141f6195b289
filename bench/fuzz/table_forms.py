"""Requests to the table's forms: a game's setup, hands saved, previewed, edited and deleted,
the game's details and settings, handing the scoring over."""

from __future__ import annotations

import uuid

from bench.fuzz.maker import Maker
from bench.fuzz.payloads import BAD_INTS, GAME_SETUP, HAND, HAND_FIELDS, ITEMS, SEATS
from bench.fuzz.state import Request


class TableForms(Maker):
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

    def handover(self) -> Request:
        if self.rng.random() < 0.5:
            return Request(
                "hand-over",
                "POST",
                f"/g/{self.code()}/hand-over/",
                [],
                csrf=self.csrf(),
                who=self.rng.choice(["anon", "alice"]),
            )
        token = self.rng.choice(["x", "a" * 43, "%00", "a" * 500])
        method = self.rng.choice(["GET", "POST"])
        return Request("take-over", method, f"/g/{self.code()}/take-over/{token}/", [], csrf=self.csrf())
