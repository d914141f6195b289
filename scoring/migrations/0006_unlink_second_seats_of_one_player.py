"""One player, one seat per game.

Before the constraint is added, any game where one player is linked to two or more seats is
repaired: the player keeps the first of those seats (clockwise from North) and the others are
unlinked (their typed names stay, so an organiser can link them to the right people on the
game's page). Each repair is reported on the migration's output; nothing else changes.
"""

from __future__ import annotations

import sys
from typing import Any

from django.db import migrations, models
from django.db.models import Count

ORDER = "NESW"


def unlink_duplicate_seats(apps: Any, schema_editor: Any) -> None:
    GameSeat = apps.get_model("scoring", "GameSeat")
    alias = schema_editor.connection.alias
    seats = GameSeat.objects.using(alias)
    doubled = (
        seats.filter(player__isnull=False)
        .values("game_id", "player_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    for row in doubled:
        rows = sorted(
            seats.filter(game_id=row["game_id"], player_id=row["player_id"]).select_related("game"),
            key=lambda seat: ORDER.index(seat.seat),
        )
        keep, unlink = rows[0], rows[1:]
        seats.filter(pk__in=[seat.pk for seat in unlink]).update(player=None)
        sys.stdout.write(
            f"\n  game {keep.game.code}: player {row['player_id']} sat in seats "
            f"{', '.join(seat.seat for seat in rows)}; kept seat {keep.seat}, unlinked "
            f"{', '.join(seat.seat for seat in unlink)}"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("scoring", "0005_club_models_move_to_clubs"),
    ]

    # The constraint comes in 0007, in a transaction of its own: PostgreSQL will not alter a table
    # with the updates above still pending in the same transaction.
    operations = [migrations.RunPython(unlink_duplicate_seats, migrations.RunPython.noop)]
