"""The fuzzer: every request maker (one per form and per URL pattern, by job in table_forms,
account_forms, club_forms and uploads), the requests that mix them (a foreign charset, the
known holes), and how often each is sent."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote, urlencode

from bench.fuzz.account_forms import AccountForms
from bench.fuzz.club_forms import ClubForms
from bench.fuzz.payloads import FOREIGN_CHARSETS, LOOKALIKE_USERNAMES, PASSWORD, id_variants
from bench.fuzz.state import Request
from bench.fuzz.table_forms import TableForms
from bench.fuzz.uploads import Uploads


class Fuzzer(TableForms, AccountForms, ClubForms, Uploads):
    def foreign_charset(self) -> Request:
        """A form posted as UTF-16, Latin-1 or UTF-32: 400, never a 500."""
        request = self.rng.choice(
            [self.game_new, self.login, self.hand_save, self.league_game, self.language]
        )()
        request.target, request.charset = "foreign charset", self.rng.choice(FOREIGN_CHARSETS)
        return request

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
            merge = [("duplicate", rng.choice(id_variants(duplicate)))]
            path = f"/clubs/{s.club_id}/players/{keep}/merge"  # the roster's merge: 400 and its form
            return Request("id syntax", "POST", path, merge, who="alice", must_refuse=True)
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
