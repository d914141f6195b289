"""Shared test helpers: games at the table and what their phones post."""

from __future__ import annotations

import re
import uuid
from typing import Any

from scoring.models import Game
from scoring.rules import worked_example
from scoring.services.games import create_game

PLAYERS = {"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"}

#: docs/rules.md, "Worked example", hand 1, as the entry form posts it: N bids 27 in hearts; NS make
#: 36, EW score 20; chips NS +4.
WORKED_EXAMPLE = worked_example.entry_fields(worked_example.hand(1))


#: The account the table's phone is signed in with in the web tests: it creates their games, so it
#: may enter and correct hands (docs/security.md). Fixture `table_client` (conftest.py) logs it in.
TABLE_USER = "table"


def table_user() -> Any:
    from django.contrib.auth.models import User

    return User.objects.get_or_create(username=TABLE_USER)[0]


def check_game(**overrides: Any) -> Game:
    options = {
        "seats": 4,
        "variant": "check",
        "deck": "single",
        "target": None,
        "min_bid": None,
        "first_dealer": "N",
        "meld_needs_trick": False,
        "players": PLAYERS,
    }
    game = create_game(**{**options, **overrides})
    game.created_by = table_user()
    game.save(update_fields=["created_by"])
    return game


def standard_game(seats: int = 4, **overrides: Any) -> Game:
    players = {seat: name for seat, name in PLAYERS.items() if seat in "NESW"[:seats]}
    return check_game(seats=seats, variant="standard", players=players, **overrides)


def hand_post(number: int, fields: dict[str, str] | None = None, **more: str) -> dict[str, str]:
    """What the entry form posts for hand `number` (a fresh submission id, like a new form)."""
    return {"submission_id": str(uuid.uuid4()), "number": str(number), **(fields or WORKED_EXAMPLE), **more}


def quick_hand(bidder: str = "N", bid: int = 20, ns_meld: int = 10, ns_tricks: int = 15) -> dict[str, Any]:
    """A standard 4-seat hand object with plain meld points (quick mode)."""
    return {
        "bidder": bidder,
        "bid": bid,
        "meld_points": {"NS": ns_meld, "EW": 0},
        "tricks": {"NS": ns_tricks, "EW": 25 - ns_tricks},
    }


def text(response: Any) -> str:
    """The response's HTML with tags removed and white space squeezed, as a person reads it."""
    html = response.content.decode()
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&amp;", "&").strip()


def found(pattern: str, text: str, group: int = 1) -> str:
    """The `group` of the first match of `pattern` in `text`; the test fails if there is none."""
    match = re.search(pattern, text)
    assert match is not None, f"{pattern!r} not in the page"
    return match.group(group)


def save_url(game: Game) -> str:
    return f"/g/{game.code}/hands"


def at_once(count: int, work: Any) -> list[Any]:
    """`work(index)` run by `count` threads released together (each with its own database
    connection, closed after), for races on a real database; their results in index order."""
    import threading

    from django.db import connection

    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = work(index)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
