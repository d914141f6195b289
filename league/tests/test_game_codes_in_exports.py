"""Game codes copy cleanly out of a spreadsheet: a new code never starts like a formula (- + = @),
so the CSV exports carry it as it is; codes made before that still open their games."""

from __future__ import annotations

import csv
import io
import secrets

import pytest

from core.spreadsheet import neutralise
from scoring.models import Game, new_game_code
from scoring.services.hands import record_hand
from tests.helpers import quick_hand, standard_game

pytestmark = pytest.mark.django_db


def exported(client, which: str, code: str) -> list[dict[str, str]]:
    response = client.get(f"/league/export/{which}.csv", {"game": code})
    assert response.status_code == 200
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(body)))


def test_no_new_game_code_starts_like_a_spreadsheet_formula():
    # A random code started with "-" once in 64; 4,000 codes hold about 62 of them.
    codes = [new_game_code() for _ in range(4000)]
    assert not [code for code in codes if code[0] in "-+=@"]
    assert all(neutralise(code) == code for code in codes)
    assert len(set(codes)) == len(codes) and all(len(code) == 11 for code in codes)


def test_a_code_drawn_with_a_leading_minus_is_drawn_again(monkeypatch):
    drawn = iter(["-36ZdKq0aBc", "=1+2aaaaaaa", "Q36ZdKq0aBc"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda size: next(drawn))
    assert new_game_code() == "Q36ZdKq0aBc"


def test_the_exports_carry_a_new_games_code_verbatim(table_client, monkeypatch):
    drawn = iter(["-36ZdKq0aBc", "36ZdKq0aBcX", "-share00000", "share000000"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda size: next(drawn))
    game = standard_game()
    assert (game.code, game.share_code) == ("36ZdKq0aBcX", "share000000")
    monkeypatch.undo()
    record_hand(game=game, number=1, data=quick_hand())
    assert [row["game_id"] for row in exported(table_client, "games", game.code)] == ["36ZdKq0aBcX"]
    hands = exported(table_client, "hands", game.code)
    assert hands and {row["game_id"] for row in hands} == {"36ZdKq0aBcX"}


def test_a_code_with_a_leading_minus_still_opens_its_game(table_client):
    game = standard_game()
    Game.objects.filter(pk=game.pk).update(code="-36ZdKq0aBc")
    page = table_client.get("/g/-36ZdKq0aBc/")
    assert page.status_code == 200 and "Anna" in page.content.decode()
    assert table_client.get("/g/-36ZdKq0aBc/history/").status_code == 200
    # The export still escapes it as any other text cell starting like a formula.
    assert [row["game_id"] for row in exported(table_client, "games", "-36ZdKq0aBc")] == ["'-36ZdKq0aBc"]
