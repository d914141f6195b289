"""ClubRole.club_id becomes a ForeignKey to Club on the same column, keeping every row; seasons get
a code for their published results page.

A role whose club id has no Club row (written before the league branch met the access branch)
gets a placeholder club named "Club <id>", so the foreign key holds and no role is lost.
"""

import django.db.models.deletion
from django.db import migrations, models


def add_missing_clubs(apps, schema_editor):
    Club = apps.get_model("scoring", "Club")
    ClubRole = apps.get_model("scoring", "ClubRole")
    known = set(Club.objects.values_list("pk", flat=True))
    for club_id in set(ClubRole.objects.values_list("club_id", flat=True)) - known:
        name = f"Club {club_id}"
        if Club.objects.filter(name=name).exists():
            name = f"Club {club_id} (roles)"
        Club.objects.create(pk=club_id, name=name)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_league_records"),
    ]

    operations = [
        migrations.RunPython(add_missing_clubs, migrations.RunPython.noop),
        migrations.RemoveConstraint(model_name="clubrole", name="one_role_per_user_and_club"),
        # Name the column explicitly first, so the rename and the type change keep it.
        migrations.AlterField(
            model_name="clubrole",
            name="club_id",
            field=models.PositiveBigIntegerField(db_column="club_id", db_index=True, verbose_name="club"),
        ),
        migrations.RenameField(model_name="clubrole", old_name="club_id", new_name="club"),
        migrations.AlterField(
            model_name="clubrole",
            name="club",
            field=models.ForeignKey(
                db_column="club_id",
                on_delete=django.db.models.deletion.CASCADE,
                related_name="roles",
                to="scoring.club",
                verbose_name="club",
            ),
        ),
        migrations.AddConstraint(
            model_name="clubrole",
            constraint=models.UniqueConstraint(fields=("user", "club"), name="one_role_per_user_and_club"),
        ),
        migrations.AddField(
            model_name="season",
            name="publish_code",
            field=models.CharField(
                blank=True,
                editable=False,
                max_length=32,
                null=True,
                unique=True,
                verbose_name="published results code",
            ),
        ),
    ]
