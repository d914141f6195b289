"""Requests to the accounts' forms (log-in, sign-up, passwords, language) and the admin's, as a
staff organiser."""

from __future__ import annotations

from bench.fuzz.maker import Maker
from bench.fuzz.payloads import BAD_INTS, PASSWORD
from bench.fuzz.state import Request


class AccountForms(Maker):
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

    def admin_login(self) -> Request:
        fields = {
            "username": self.rng.choice(["alice", "admin", ""]),
            "password": self.nasty(),
            "next": "/admin/",
        }
        return Request("admin login", "POST", "/admin/login/", self.damage(fields, []), csrf=self.csrf())
