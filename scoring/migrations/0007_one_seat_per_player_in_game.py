from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_unlink_second_seats_of_one_player")]

    operations = [
        migrations.AddConstraint(
            model_name="gameseat",
            constraint=models.UniqueConstraint(
                condition=models.Q(("player__isnull", False)),
                fields=("game", "player"),
                name="one_seat_per_player_in_game",
            ),
        ),
    ]
