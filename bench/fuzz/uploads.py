"""Uploads to the import: hostile files, broken CSV and JSON, undecodable bytes and a file over
the limit."""

from __future__ import annotations

import json
from collections.abc import Callable

from bench.fuzz.maker import Maker
from bench.fuzz.payloads import (
    CSV_HEADER,
    HOSTILE_CSV_CELLS,
    HOSTILE_JSON,
    ITEMS,
    NASTY,
    SEATS,
    hands_csv,
    valid_record,
)
from bench.fuzz.state import Request


class Uploads(Maker):
    def hostile_import(self) -> Request:
        """The imports' known holes: each must be refused with a message."""
        rng = self.rng
        if rng.random() < 0.5:
            kind = rng.choice(sorted(HOSTILE_JSON))
            make_record: Callable[[], str] = HOSTILE_JSON[kind]
            name, data = "games.json", make_record().encode("utf-8", "surrogatepass")
        else:
            name, data = (
                "hands.csv",
                hands_csv(**rng.choice(HOSTILE_CSV_CELLS)).encode("utf-8", "surrogatepass"),
            )
        fields = [("club", str(self.state.club_id))]
        return Request(
            "hostile import", "POST", "/league/import/", fields, [("file", name, data)], who="alice"
        )

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
        hands = record["hands"]
        assert isinstance(hands, list)
        hand = hands[0]
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
