"""Season writes: a season made or changed by an organiser, closed or opened, its results published,
and the season an import names when the club has none of that name.

Keyword-only, typed. The organisers' writes are one transaction each; the import's runs in the
import's transaction (`league.services`), adding no savepoint to it.
"""

from __future__ import annotations

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Season
from clubs.services import check_season_name


@transaction.atomic
def save_season(
    *, club: Club, name: str, starts_on: datetime.date, ends_on: datetime.date, season: Season | None = None
) -> Season:
    """Create a season, or change a season's name and dates."""
    name = name.strip()
    if ends_on < starts_on:
        raise ValidationError(_("The season ends before it starts."))
    check_season_name(club=club, name=name, exclude=season)
    if season is None:
        return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
    season.name, season.starts_on, season.ends_on = name, starts_on, ends_on
    season.save(update_fields=["name", "starts_on", "ends_on"])
    return season


@transaction.atomic
def set_season_closed(*, season: Season, closed: bool) -> Season:
    """Close a season (it accepts no new games) or open it again."""
    season.closed_at = timezone.now() if closed else None
    season.save(update_fields=["closed_at"])
    return season


def set_publish_code(*, season: Season, publish_code: str | None) -> Season:
    """Publish the season's results under an unguessable code (anyone with the link reads its
    standings), or take them down (None: the old link is dead)."""
    season.publish_code = publish_code
    season.save(update_fields=["publish_code"])
    return season


def create_season_for_games(
    *, club: Club, name: str, starts_on: datetime.date, ends_on: datetime.date
) -> Season:
    """The season an import, a restore or the benchmark names and the club does not have (they
    looked it up by this name), spanning the dates of its games. No name check: a hands.csv names
    its seasons as they are."""
    return Season.objects.create(club=club, name=name, starts_on=starts_on, ends_on=ends_on)
