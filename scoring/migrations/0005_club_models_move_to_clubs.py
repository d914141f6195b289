"""Club, Player, Membership, Season and ClubRole now live in the clubs app (clubs 0001): forget
them here, and point Game.club, Game.season and GameSeat.player at them there. State only: the
tables, their rows and their foreign keys stay as they are."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0001_initial'),
        ('scoring', '0004_clubrole_club_foreign_key_season_publish_code'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='player',
                    name='clubs',
                ),
                migrations.RemoveField(
                    model_name='season',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='club',
                ),
                migrations.AlterField(
                    model_name='game',
                    name='club',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='games', to='clubs.club', verbose_name='club'),
                ),
                migrations.RemoveField(
                    model_name='clubrole',
                    name='club',
                ),
                migrations.RemoveField(
                    model_name='clubrole',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='membership',
                    name='player',
                ),
                migrations.AlterField(
                    model_name='gameseat',
                    name='player',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='seats', to='clubs.player', verbose_name='player'),
                ),
                migrations.AlterField(
                    model_name='game',
                    name='season',
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='games', to='clubs.season', verbose_name='season'),
                ),
                migrations.DeleteModel(
                    name='Club',
                ),
                migrations.DeleteModel(
                    name='ClubRole',
                ),
                migrations.DeleteModel(
                    name='Membership',
                ),
                migrations.DeleteModel(
                    name='Player',
                ),
                migrations.DeleteModel(
                    name='Season',
                ),
            ],
            database_operations=[],
        ),
    ]
