"""Club writes: clubs, rosters, merging players, invites, club roles (seasons: `clubs.seasons`).

Keyword-only, typed, one transaction each. The rows other apps keep of a player or a club role
(game seats, a night's check-ins, the ledger's payments, the phones' rights to games) are theirs to
move: this module sends `clubs.signals` and the owning apps receive them. Statistics follow a
seat's player, so merging rewrites no derived rows.
"""

from __future__ import annotations

import dataclasses
import datetime
import secrets
import unicodedata
from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import signals
from clubs.models import Club, ClubRole, Invite, Membership, Player, Season
from clubs.permissions import can_manage_club, clubs_not_run, may_change_player
from core.lookalike import scripts_mixed, skeleton_keys


@transaction.atomic
def create_club(*, name: str, founder: AbstractBaseUser) -> Club:
    """A new club; the user who creates it is its first organiser."""
    name = name.strip()
    if not name:
        raise ValidationError(_("A club needs a name."))
    check_club_name(name=name)
    club = Club.objects.create(name=name)
    grant_founding_organiser(user=founder, club_id=club.pk)
    return club


def create_club_without_founder(*, name: str) -> Club:
    """A club the site's own tools make for the games they store (restore, the `import_games`
    command, the benchmark): no organiser, and the name as given (they found no club of that name)."""
    return Club.objects.create(name=name)


def check_club_name(*, name: str) -> None:
    """Refuse the name of an existing club (in any letter case: compared case-folded here, as
    SQLite's `iexact` folds only ASCII letters and would let "KLUBBÉN" past "Klubbén"), and a
    name that only looks like one: another Unicode form of its accents, look-alike letters of
    another alphabet ("Кlubbén" with a Cyrillic К), other spaces or invisible characters. Such a
    club would pass for the existing one on every page and invite link."""
    folded = name.casefold()
    keys = _club_name_keys(name)
    for other in Club.objects.values_list("name", flat=True).iterator():
        if other.casefold() == folded:
            raise ValidationError(_("There is already a club called %(name)s.") % {"name": name})
        if not keys.isdisjoint(_club_name_keys(other)):
            raise ValidationError(
                _("%(name)s looks like %(other)s, a club already here; choose another name.")
                % {"name": name, "other": other}
            )


def _club_name_keys(name: str) -> frozenset[str]:
    """The look-alike keys of a club name, its invisible characters left out and its spaces of
    any kind read as one."""
    visible = "".join(char for char in name if unicodedata.category(char) not in ("Cc", "Cf"))
    return skeleton_keys(" ".join(visible.split()))


def check_season_name(*, club: Club, name: str, exclude: Season | None = None) -> None:
    """Refuse the name of another season of the club (in any letter case)."""
    same = club.seasons.filter(name__iexact=name)
    if exclude is not None:
        same = same.exclude(pk=exclude.pk)
    if same.exists():
        raise ValidationError(
            _("%(club)s already has a season called %(name)s.") % {"club": club.name, "name": name}
        )


def check_player_name(*, club: Club, name: str, exclude: Player | None = None) -> None:
    """Refuse a name another player on the club's roster already has (in any letter case,
    compared case-folded here: SQLite's `iexact` folds only ASCII letters)."""
    same = Player.objects.filter(memberships__club=club)
    if exclude is not None:
        same = same.exclude(pk=exclude.pk)
    folded = name.casefold()
    if any(other.casefold() == folded for other in same.values_list("name", flat=True)):
        raise ValidationError(
            _("%(club)s already has a player called %(name)s.") % {"club": club.name, "name": name}
        )


@transaction.atomic
def add_player(*, club: Club, name: str) -> Player:
    """A new player on the club's roster."""
    name = name.strip()
    if not name:
        raise ValidationError(_("A player needs a name."))
    player = Player.objects.create(name=name)
    Membership.objects.create(club=club, player=player)
    return player


#: The most names one pasted list adds (a club's whole roster fits; a runaway paste does not).
NAME_LIST_MAX = 300


@dataclasses.dataclass(frozen=True)
class NameList:
    """A pasted list of names, read against a club's roster: the names to add, the lines skipped
    because the name is on the roster already (or earlier in the list), and the lines refused."""

    new: list[str]
    skipped: list[tuple[int, str]]
    refused: list[str]


def read_name_list(*, club: Club, text: str) -> NameList:
    """One name per line: blank lines and the spaces around a name are ignored. A name already on
    the roster (in any letter case, retired players included) or earlier in the list is skipped;
    a name that only looks like one of them ("Аnna" with a Cyrillic А, "Ann0" for "Anno"), mixes
    alphabets, holds a control character or is longer than a name may be is refused, naming
    its line."""
    max_length = Player._meta.get_field("name").max_length or 100
    taken: dict[str, str] = {}  # case-folded name -> the name as written
    alike: dict[str, str] = {}  # look-alike key -> the name as written
    for name in Player.objects.filter(memberships__club=club).values_list("name", flat=True):
        _remember(name, taken, alike)
    new: list[str] = []
    skipped: list[tuple[int, str]] = []
    refused: list[str] = []
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        name = line.strip()
        if not name:
            continue
        problem = _name_problem(name, max_length=max_length, taken=taken, alike=alike)
        if problem is None and name.casefold() in taken:
            skipped.append((number, taken[name.casefold()]))
        elif problem is None:
            new.append(name)
            _remember(name, taken, alike)
        else:
            refused.append(_("Line %(line)s: %(problem)s") % {"line": number, "problem": problem})
    if len(new) > NAME_LIST_MAX:
        refused.append(
            ngettext(
                "The list has %(count)s new name; add at most %(max)s at a time.",
                "The list has %(count)s new names; add at most %(max)s at a time.",
                len(new),
            )
            % {"count": len(new), "max": NAME_LIST_MAX}
        )
    return NameList(new=new, skipped=skipped, refused=refused)


def _remember(name: str, taken: dict[str, str], alike: dict[str, str]) -> None:
    taken.setdefault(name.casefold(), name)
    for key in skeleton_keys(name):
        alike.setdefault(key, name)


def _name_problem(name: str, *, max_length: int, taken: dict[str, str], alike: dict[str, str]) -> str | None:
    if len(name) > max_length:
        return ngettext(
            "%(name)s… is longer than %(max)s character.",
            "%(name)s… is longer than %(max)s characters.",
            max_length,
        ) % {"name": name[:20], "max": max_length}
    if any(unicodedata.category(char)[0] == "C" for char in name):
        return _("%(name)s holds a control character.") % {"name": repr(name[:40])}
    if scripts := scripts_mixed(name):
        return _("%(name)s mixes letters of different alphabets (%(scripts)s); type it again.") % {
            "name": name,
            "scripts": ", ".join(script.title() for script in scripts),
        }
    if name.casefold() in taken:
        return None
    twin = next((alike[key] for key in skeleton_keys(name) if key in alike), None)
    if twin is not None:
        return _("%(name)s looks like %(other)s, who is on the roster or higher in the list.") % {
            "name": name,
            "other": twin,
        }
    return None


@transaction.atomic
def add_roster_players(*, club: Club, names: Sequence[str]) -> list[Player]:
    """Add the new names of a pasted list (`read_name_list(...).new`), all or none: a name
    another organiser added meanwhile refuses the lot (ValidationError)."""
    return [add_roster_player(club=club, name=name) for name in names]


@transaction.atomic
def add_roster_player(*, club: Club, name: str) -> Player:
    """An organiser adds a player to the roster: refused when the roster has one of that name
    (imports, which bind names to roster players, go through `add_player`)."""
    check_player_name(club=club, name=name.strip())
    return add_player(club=club, name=name)


def shared_player_refusal(*, actor: User | AnonymousUser, player: Player) -> str:
    """Why `actor` may not change `player` (`may_change_player`), naming the clubs they do not run."""
    others = clubs_not_run(actor, player)
    if not others:  # a player on no roster: site staff only
        return _("Only site staff may change %(name)s, who is on no club's roster.") % {"name": player.name}
    return _(
        "%(name)s is also on the roster of %(clubs)s. Only someone who organises every club %(name)s "
        "is on may rename them, invite someone to their place or merge them."
    ) % {"name": player.name, "clubs": ", ".join(club.name for club in others)}


def check_may_change_player(*, actor: User | AnonymousUser, player: Player) -> None:
    """PermissionDenied, with the reason, unless `actor` may change `player` (`may_change_player`)."""
    if not may_change_player(actor, player):
        raise PermissionDenied(shared_player_refusal(actor=actor, player=player))


@transaction.atomic
def rename_player(*, actor: User | AnonymousUser, club: Club, player: Player, name: str) -> Player:
    """A new name for a roster player: every game and standing shows it, since seats point here.
    Refused (PermissionDenied) unless `actor` organises every club the player is on."""
    check_may_change_player(actor=actor, player=player)
    name = name.strip()
    if not name:
        raise ValidationError(_("A player needs a name."))
    check_player_name(club=club, name=name, exclude=player)
    player.name = name
    player.save(update_fields=["name"])
    return player


@transaction.atomic
def set_retired(*, club: Club, player: Player, retired: bool, today: datetime.date | None = None) -> None:
    """Retire a player from the roster (kept in past games and standings, not offered for new
    ones), or bring them back."""
    membership = Membership.objects.select_for_update().get(club=club, player=player)
    membership.retired_on = (today or timezone.localdate()) if retired else None
    membership.save(update_fields=["retired_on"])


@transaction.atomic
def create_invite(*, club: Club, player: Player, by: User) -> Invite:
    """A single-use link for the person behind a roster player; earlier unused links for them die.
    Refused (PermissionDenied) unless `by` organises every club the player is on: whoever accepts
    the link has their account tied to the player."""
    check_may_change_player(actor=by, player=player)
    if player.user_id is not None:
        raise ValidationError(_("%(name)s already has an account.") % {"name": player.name})
    Invite.objects.filter(club=club, player=player, accepted_at=None).delete()
    return Invite.objects.create(club=club, player=player, token=secrets.token_urlsafe(24), created_by=by)


@transaction.atomic
def accept_invite(*, token: str, user: User) -> Invite:
    """Tie the user's account to the invite's player and make them a member of the club (a role
    they already hold stays). The link then stops working."""
    invite = Invite.objects.select_for_update().select_related("player", "club").filter(token=token).first()
    if invite is None or invite.accepted_at is not None:
        raise ValidationError(_("This invite link has been used or withdrawn."))
    player = Player.objects.select_for_update().get(pk=invite.player_id)
    if player.user_id is not None:
        raise ValidationError(_("%(name)s already has an account.") % {"name": player.name})
    # A player merged onto another club's roster since the link was made: the link holds only if its
    # maker organises that club too (as `create_invite` would ask now).
    maker = invite.created_by or AnonymousUser()
    if any(club.pk != invite.club_id for club in clubs_not_run(maker, player)):
        raise ValidationError(
            _(
                "This invite link no longer works: %(name)s is now on another club's roster too. "
                "Ask an organiser of the club for a new link."
            )
            % {"name": player.name}
        )
    if Player.objects.filter(user=user).exists():
        raise ValidationError(_("Your account is already tied to a player."))
    player.user = user
    player.save(update_fields=["user"])
    ClubRole.objects.get_or_create(user=user, club=invite.club, defaults={"role": ClubRole.Role.MEMBER})
    invite.accepted_at = timezone.now()
    invite.accepted_by = user
    invite.save(update_fields=["accepted_at", "accepted_by"])
    return invite


@transaction.atomic
def merge_players(*, keep: Player, duplicate: Player) -> Player:
    """Fold `duplicate` into `keep`: seats, rosters and so every statistic move; the duplicate goes.

    Refused when both sat in the same game: they are then two people, not one entered twice.
    """
    if keep.pk == duplicate.pk:
        raise ValidationError(_("A player cannot be merged with themselves."))
    # The seats of the games, the nights' check-ins, seats and byes and the ledger's payments are
    # the other apps' rows: each app refuses the merge or moves its own (clubs/signals.py).
    signals.players_merging.send(sender=Player, keep=keep, duplicate=duplicate)
    have = set(Membership.objects.filter(player=keep).values_list("club_id", flat=True))
    Membership.objects.filter(player=duplicate).exclude(club_id__in=have).update(player=keep)
    duplicate.delete()  # its remaining memberships (clubs both were in) cascade
    return keep


@transaction.atomic
def merge_players_as(*, actor: User | AnonymousUser, keep: Player, duplicate: Player) -> Player:
    """`merge_players` for a person: refused (PermissionDenied, nothing written) unless the actor
    organises every club both players are on. The web merge and the admin's action call this."""
    if not may_change_player(actor, keep, duplicate):
        refused = keep if clubs_not_run(actor, keep) else duplicate
        raise PermissionDenied(shared_player_refusal(actor=actor, player=refused))
    return merge_players(keep=keep, duplicate=duplicate)


def check_role_change(
    *,
    actor: User | AnonymousUser,
    user: User,
    club_id: int,
    role: str | None,
) -> None:
    """Whether `actor` may give `user` this role in the club (None: remove them): PermissionDenied
    unless an organiser; ValidationError for an unknown role or when the club would be left without
    an organiser. `set_club_role` checks this again under a lock; forms call it to show the message."""
    if not can_manage_club(actor, club_id):
        raise PermissionDenied(_("Only an organiser of the club can change roles."))
    if role is not None and role not in ClubRole.Role.values:
        raise ValidationError(_("Unknown role: %(role)s") % {"role": role}, code="invalid_role")
    roles = ClubRole.objects.filter(club_id=club_id)
    current = roles.filter(user=user).first()
    if (
        current is not None
        and current.role == ClubRole.Role.ORGANISER
        and role != ClubRole.Role.ORGANISER
        and not roles.filter(role=ClubRole.Role.ORGANISER).exclude(user=user).exists()
    ):
        raise ValidationError(_("A club needs at least one organiser."), code="last_organiser")


_SCORING_ROLES = (ClubRole.Role.ORGANISER, ClubRole.Role.SCORER)


@transaction.atomic
def set_club_role(
    *,
    actor: User | AnonymousUser,
    user: User,
    club_id: int,
    role: str | None,
) -> ClubRole | None:
    """Give `user` the role in the club (None removes them). Only an organiser may do it
    (PermissionDenied otherwise, nothing written); the club's last organiser cannot step down.

    Someone who no longer scores for the club also loses the devices' edit right to the club games
    in progress that they started (their phone, and any phone it was handed over to): the club's
    organisers and scorers carry on signed in, and may hand the scoring to a phone again.
    """
    list(ClubRole.objects.select_for_update().filter(club_id=club_id))  # one role change at a time
    check_role_change(actor=actor, user=user, club_id=club_id, role=role)
    current = ClubRole.objects.filter(club_id=club_id, user=user).first()
    if current is not None and current.role in _SCORING_ROLES and role not in _SCORING_ROLES:
        # The phones' rights to the club games they started end with the role (scoring's rows).
        signals.scoring_ended.send(sender=ClubRole, club_id=club_id, user=user)
    if role is None:
        if current is not None:
            current.delete()
        return None
    if current is None:
        return ClubRole.objects.create(user=user, club_id=club_id, role=role)
    current.role = role
    current.save(update_fields=["role", "updated_at"])
    return current


@transaction.atomic
def grant_founding_organiser(*, user: AbstractBaseUser, club_id: int) -> ClubRole:
    """Make the user who creates a club its first organiser; refused once the club has one."""
    if ClubRole.objects.select_for_update().filter(club_id=club_id, role=ClubRole.Role.ORGANISER).exists():
        raise PermissionDenied(_("This club already has an organiser."))
    role, _created = ClubRole.objects.update_or_create(
        user=user, club_id=club_id, defaults={"role": ClubRole.Role.ORGANISER}
    )
    return role


def save_club_settings(*, club: Club, confirm_hands: bool, sign_at_end: bool) -> Club:
    """The club's rules for making a game final; games made from now on copy them (a game keeps
    the rule it was played under)."""
    club.confirm_hands, club.sign_at_end = confirm_hands, sign_at_end
    club.save(update_fields=["confirm_hands", "sign_at_end"])
    return club
