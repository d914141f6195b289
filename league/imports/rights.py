"""Who may import into which club and season, and which new clubs an upload may make."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import services as club_services
from clubs.models import Club, Season
from clubs.permissions import AnyUser, can_manage_club, can_score_for_club, is_site_admin
from league.csv_io.problems import Place, PlaceCheck, Problem

CLUB_NAME_MAX = Club._meta.get_field("name").max_length or 100
#: The most clubs one upload by someone other than a site administrator makes (a newcomer moves
#: their club's records; a file naming hundreds of new clubs is refused before any is made).
NEW_CLUBS_MAX = 5

Check = PlaceCheck


def rights_of(user_id: int | None) -> Check:
    """The rights check of the batch's uploader, for a process that has no request."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first() if user_id else None
    new_clubs: set[str] = set()

    def check(places: Sequence[Place]) -> list[Problem]:
        if user is None:
            return [Problem(None, _("the account that uploaded the file no longer exists"))]
        return import_rights(user, places, new_clubs=new_clubs)

    return check


def import_rights(
    user: AnyUser, places: Sequence[Place], *, new_clubs: set[str] | None = None
) -> list[Problem]:
    """What the user may not import, named once per club or season at the line that first names
    it: games into a club they do not score for, a new season of a club they do not organise, a
    closed season, games outside a club (nobody could see them).

    A club that does not exist yet is made by the import, with the uploader as its first organiser
    (`league.services.publish_pending_games`); only a name no club has, in any letter case, can be
    made, so nobody writes into a club that is not theirs by naming it. `new_clubs` gathers the
    new clubs of one file over the calls made while it is read: past `NEW_CLUBS_MAX` of them the
    file is refused."""
    if is_site_admin(user):
        return []
    if not user.is_authenticated:
        return [Problem(None, _("sign in to import games"))]
    names = {place.club for place in places if place.club}
    clubs = {club.name: club.pk for club in Club.objects.filter(name__in=names)}
    seasons = set(Season.objects.filter(club__name__in=clubs).values_list("club__name", "name"))
    closed = set(
        Season.objects.filter(club__name__in=clubs, closed_at__isnull=False).values_list("club__name", "name")
    )
    problems: dict[str, Problem] = {}
    for place in places:
        problem: str | None
        if not place.club:
            problem = _("only an administrator imports games outside a club")
        elif place.club not in clubs:
            problem = new_club_problem(place.club)
            if problem is None and new_clubs is not None:
                new_clubs.add(place.club.casefold())
                if len(new_clubs) > NEW_CLUBS_MAX:
                    problem = ngettext(
                        "the file names more than %(max)s club that is not here yet; an import makes"
                        " at most %(max)s (create the others on the Clubs page first)",
                        "the file names more than %(max)s clubs that are not here yet; an import makes"
                        " at most %(max)s (create the others on the Clubs page first)",
                        NEW_CLUBS_MAX,
                    ) % {"max": NEW_CLUBS_MAX}
        elif not can_score_for_club(user, clubs[place.club]):
            problem = _("you are not a scorer or organiser of %(club)s") % {"club": place.club}
        elif (
            place.season
            and (place.club, place.season) not in seasons
            and not can_manage_club(user, clubs[place.club])
        ):
            problem = _("season %(season)s does not exist; an organiser of the club creates it") % {
                "season": place.season
            }
        elif (place.club, place.season) in closed:
            problem = _("season %(season)s is closed: it accepts no new games") % {"season": place.season}
        else:
            problem = None
        if problem is not None and problem not in problems:
            problems[problem] = Problem(place.line, problem)
    return list(problems.values())


def new_club_problem(name: str) -> str | None:
    """Why an import cannot make a club of this name (too long, a control character, the name of
    an existing club in other letter case), or None."""
    if len(name) > CLUB_NAME_MAX:
        return ngettext(
            "club: %(club)s… is longer than %(max)s character",
            "club: %(club)s… is longer than %(max)s characters",
            CLUB_NAME_MAX,
        ) % {
            "club": name[:20],
            "max": CLUB_NAME_MAX,
        }
    if any(unicodedata.category(char).startswith("C") for char in name):
        return _("club: %(club)s holds a control character") % {"club": repr(name[:40])}
    try:
        club_services.check_club_name(name=name)
    except ValidationError as error:
        return _("club %(club)s: %(problem)s Write its name exactly as it is spelt, or another name.") % {
            "club": name,
            "problem": " ".join(error.messages),
        }
    return None
