"""Club, Player, Membership, Season and ClubRole move here from the scoring app.

Their tables keep their names (db_table) and their rows: this migration only tells Django's state
where the models now live (scoring 0005 forgets them there), and renames their content types so
admin permissions and groups that name them still hold.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MOVED = ["club", "player", "membership", "season", "clubrole"]


def move_content_types(apps, schema_editor, source="scoring", target="clubs"):
    ContentType = apps.get_model("contenttypes", "ContentType")
    db = schema_editor.connection.alias
    taken = set(ContentType.objects.using(db).filter(app_label=target).values_list("model", flat=True))
    rows = ContentType.objects.using(db).filter(app_label=source, model__in=[m for m in MOVED if m not in taken])
    rows.update(app_label=target)


def move_content_types_back(apps, schema_editor):
    move_content_types(apps, schema_editor, source="clubs", target="scoring")


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("contenttypes", "0002_remove_content_type_name"),
        # The tables exist already: scoring's migrations made them when these models lived there.
        ("scoring", "0004_clubrole_club_foreign_key_season_publish_code"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Club',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, unique=True, verbose_name='name')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                    ],
                    options={
                        'verbose_name': 'club',
                        'verbose_name_plural': 'clubs',
                        'db_table': 'scoring_club',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='Membership',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('joined_on', models.DateField(blank=True, null=True, verbose_name='joined on')),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='clubs.club', verbose_name='club')),
                    ],
                    options={
                        'verbose_name': 'membership',
                        'verbose_name_plural': 'roster',
                        'db_table': 'scoring_membership',
                        'ordering': ['club', 'player__name'],
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('clubs', models.ManyToManyField(related_name='players', through='clubs.Membership', to='clubs.club', verbose_name='clubs')),
                    ],
                    options={
                        'verbose_name': 'player',
                        'verbose_name_plural': 'players',
                        'db_table': 'scoring_player',
                        'ordering': ['name', 'id'],
                    },
                ),
                migrations.AddField(
                    model_name='membership',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='memberships', to='clubs.player', verbose_name='player'),
                ),
                migrations.CreateModel(
                    name='Season',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('starts_on', models.DateField(verbose_name='starts on')),
                        ('ends_on', models.DateField(verbose_name='ends on')),
                        ('publish_code', models.CharField(blank=True, editable=False, max_length=32, null=True, unique=True, verbose_name='published results code')),
                        ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seasons', to='clubs.club', verbose_name='club')),
                    ],
                    options={
                        'verbose_name': 'season',
                        'verbose_name_plural': 'seasons',
                        'db_table': 'scoring_season',
                        'ordering': ['club', '-starts_on'],
                    },
                ),
                migrations.CreateModel(
                    name='ClubRole',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('role', models.CharField(choices=[('organiser', 'Organiser'), ('scorer', 'Scorer'), ('member', 'Member')], max_length=10, verbose_name='role')),
                        ('updated_at', models.DateTimeField(auto_now=True)),
                        ('club', models.ForeignKey(db_column='club_id', on_delete=django.db.models.deletion.CASCADE, related_name='roles', to='clubs.club', verbose_name='club')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='club_roles', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'club role',
                        'verbose_name_plural': 'club roles',
                        'db_table': 'scoring_clubrole',
                        'constraints': [models.UniqueConstraint(fields=('user', 'club'), name='one_role_per_user_and_club')],
                    },
                ),
                migrations.AddConstraint(
                    model_name='membership',
                    constraint=models.UniqueConstraint(fields=('club', 'player'), name='one_membership_per_club'),
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.UniqueConstraint(fields=('club', 'name'), name='season_name_unique_in_club'),
                ),
                migrations.AddConstraint(
                    model_name='season',
                    constraint=models.CheckConstraint(condition=models.Q(('ends_on__gte', models.F('starts_on'))), name='season_ends_after_start'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_types, move_content_types_back),
    ]
