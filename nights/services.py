"""Writes of a club night: open it, check players in, draw and change the plan, start rounds,
finish it, remove it. Keyword-only, typed, one transaction each.

The draw is `nights.planning` (plain Python); this module turns the stored rows into a
`NightPlan`, asks the planner, and writes back the rounds that are not started yet. Games are
made, filed and deleted only through scoring's own services, so the table pages, statistics and
ratings treat a night's games like any other club game.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Membership, Player, Season
from clubs.services import add_roster_player
from nights import planning
from nights.models import Night, NightBye, NightPlayer, NightSeat, NightTable, new_seed
from scoring import services as scoring_services
from scoring.audit import Actor
from scoring.filing import file_game
from scoring.handover import take_over_with_link
from scoring.models import Device, DeviceGame, Game
from scoring.rules.tables import SEAT_ORDER, seats_for

#: Who the corrections trail names when a phone takes a table over through its link.
TABLE_LINK_ACTOR = Actor(user=None, label="table-link")


@transaction.atomic
def open_night(
    *,
    club: Club,
    season: Season | None,
    played_on: datetime.date,
    variant: str,
    deck: str,
    target: int | None,
    min_bid: int | None,
    meld_needs_trick: bool,
    rounds: int,
    round_ends: str,
    hands_per_round: int | None,
    stake_per_chip: Decimal | None,
    stake_per_win: Decimal | None,
    created_by: AbstractBaseUser | None,
) -> Night:
    """Open a night; the caller's form has checked the settings with the rules engine."""
    if season is not None:
        _check_season(club=club, season=season, played_on=played_on)
    return Night.objects.create(
        club=club,
        season=season,
        played_on=played_on,
        variant=variant,
        deck=deck,
        target=target,
        min_bid=min_bid,
        meld_needs_trick=meld_needs_trick,
        rounds=rounds,
        round_ends=round_ends,
        hands_per_round=hands_per_round if round_ends == Night.RoundEnds.HANDS else None,
        stake_per_chip=stake_per_chip,
        stake_per_win=stake_per_win,
        created_by=created_by,
    )


def _check_season(*, club: Club, season: Season, played_on: datetime.date) -> None:
    if season.club_id != club.pk:  # type: ignore[attr-defined]
        raise ValidationError({"season": _("The season belongs to another club.")})
    if season.is_closed:
        raise ValidationError({"season": _("This season is closed: it accepts no new games.")})
    if not season.starts_on <= played_on <= season.ends_on:
        raise ValidationError({"played_on": _("The date is outside the season.")})


# --- state of the plan --------------------------------------------------------------------------


def started_rounds(night: Night) -> int:
    """How many rounds have started (their tables have games); rounds start in order."""
    numbers = night.tables.filter(game__isnull=False).values_list("round_no", flat=True)
    return max(numbers, default=0)


def is_drawn(night: Night) -> bool:
    return night.tables.exists()


def plan_version(night: Night) -> str:
    """A short fingerprint of the stored plan: a form drawn from one plan refuses to change
    another (a double tap on Swap would otherwise swap the two players back)."""
    seats = NightSeat.objects.filter(table__night=night)
    seats = seats.order_by("table__round_no", "table__table_no", "seat")
    rows = [*seats.values_list("table__round_no", "table__table_no", "seat", "player_id")]
    rows += [*night.byes.order_by("round_no", "player_id").values_list("round_no", "player_id")]
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def _check_open(night: Night) -> None:
    if night.is_finished:
        raise ValidationError(_("This night is finished: its plan no longer changes."))


def stored_plan(night: Night) -> planning.NightPlan:
    """The plan the rows hold (every round drawn so far), with the players present now."""
    rounds: list[planning.Round] = []
    tables = list(night.tables.prefetch_related("seats").order_by("round_no", "table_no"))
    byes = list(night.byes.order_by("round_no", "id").values_list("round_no", "player_id"))
    for number in range(1, night.rounds + 1):
        drawn = tuple(
            planning.Table(tuple(seat.player_id for seat in ordered_seats(table)))  # type: ignore[attr-defined]
            for table in tables
            if table.round_no == number
        )
        rounds.append(planning.Round(drawn, tuple(p for r, p in byes if r == number)))
    present = tuple(row.player_id for row in night.players.all() if row.until_round is None)  # type: ignore[attr-defined]
    return planning.NightPlan(present, night.table_sizes(), night.seed, tuple(rounds))


def ordered_seats(table: NightTable) -> list[NightSeat]:
    return sorted(table.seats.all(), key=lambda seat: SEAT_ORDER.index(seat.seat))


def _write_rounds(night: Night, plan: planning.NightPlan, *, from_round: int) -> None:
    """Store rounds `from_round`.. of `plan`. A table keeps its row (and so the token of its link
    and its printed card) when its round and number stay; only its seats are written again."""
    kept = {(t.round_no, t.table_no): t for t in night.tables.filter(round_no__gte=from_round)}
    NightSeat.objects.filter(table__in=list(kept.values())).delete()
    night.byes.filter(round_no__gte=from_round).delete()
    seats: list[NightSeat] = []
    byes: list[NightBye] = []
    for number, drawn in enumerate(plan.rounds, start=1):
        if number < from_round:
            continue
        for table_no, table in enumerate(drawn.tables, start=1):
            row = kept.pop((number, table_no), None) or NightTable.objects.create(
                night=night, round_no=number, table_no=table_no
            )
            seats += [
                NightSeat(table=row, seat=letter, player_id=player)
                for letter, player in zip(seats_for(len(table.seats)), table.seats, strict=True)
            ]
        byes += [NightBye(night=night, round_no=number, player_id=player) for player in drawn.byes]
    NightTable.objects.filter(pk__in=[t.pk for t in kept.values()]).delete()
    NightSeat.objects.bulk_create(seats)
    NightBye.objects.bulk_create(byes)


def _planner_error(error: planning.PlanError) -> ValidationError:
    messages = {
        "duplicate_player": _("A player is checked in twice."),
        "not_in_round": _("That player does not play in this round."),
        "same_player": _("Choose two different players to swap."),
        "already_present": _("That player is already checked in."),
        "not_present": _("That player is not checked in."),
        "no_round": _("There is no such round in this night."),
    }
    return ValidationError({error.field: messages.get(error.code, error.message)})


# --- check-in -------------------------------------------------------------------------------------


def _lock_night(night: Night) -> Night:
    return Night.objects.select_for_update().get(pk=night.pk)


@transaction.atomic
def set_checked_in(*, night: Night, player: Player, present: bool) -> None:
    """One tap on a name before the first round starts: check the player in or out. A drawn plan
    is drawn again for the new list (nothing has been played yet)."""
    night = _lock_night(night)
    _check_open(night)
    if started_rounds(night):
        raise ValidationError(
            _("The night has started: add a late arrival or let a player leave for the remaining rounds.")
        )
    if not Membership.objects.filter(club_id=night.club_id, player=player).exists():  # type: ignore[attr-defined]
        raise ValidationError(_("%(name)s is not on this club's roster.") % {"name": player.name})
    if present:
        NightPlayer.objects.get_or_create(night=night, player=player)
    else:
        NightPlayer.objects.filter(night=night, player=player).delete()
    if is_drawn(night):
        _draw_all(night)


@transaction.atomic
def check_in_newcomer(*, night: Night, name: str) -> tuple[Player, int]:
    """Someone not on the roster yet: added to the club's roster and checked in at once. Once a
    round has started they come as a late arrival and play the rounds not started yet (refused,
    and nobody added to the roster, when every round has started). Returns the player and the
    first round they play."""
    _check_open(night)
    player = add_roster_player(club=night.club, name=name)  # type: ignore[arg-type]
    if started_rounds(night):
        return player, add_late_arrival(night=night, player=player)
    set_checked_in(night=night, player=player, present=True)
    return player, 1


def _draw_all(night: Night) -> None:
    players = list(night.players.values_list("player_id", flat=True))
    try:
        plan = planning.plan_night(
            players=players, table_sizes=night.table_sizes(), rounds=night.rounds, seed=night.seed
        )
    except planning.PlanError as error:
        raise _planner_error(error) from None
    _write_rounds(night, plan, from_round=1)


@transaction.atomic
def draw_plan(*, night: Night) -> None:
    """Draw every round for the players checked in (again, while no round has started)."""
    night = _lock_night(night)
    _check_open(night)
    if started_rounds(night):
        raise ValidationError(_("The night has started: its played rounds stay as they are."))
    smallest = min(night.table_sizes())
    if night.players.count() < smallest:
        raise ValidationError(
            {"players": _("Check in at least %(count)d players to draw the tables.") % {"count": smallest}}
        )
    if is_drawn(night):
        night.seed = new_seed()  # drawing again gives another draw
        night.save(update_fields=["seed"])
    _draw_all(night)


def _first_open_round(night: Night) -> int:
    return started_rounds(night) + 1


@transaction.atomic
def swap_players(
    *, night: Night, round_no: int, first: Player, second: Player, expected_plan: str | None = None
) -> None:
    """Swap two players' seats (or bye) in a round that has not started; the later rounds are
    drawn again so that the swap makes no partnership repeat. With `expected_plan` (the
    `plan_version` the form was drawn from) nothing changes if the plan changed meanwhile."""
    night = _lock_night(night)
    _check_open(night)
    if expected_plan is not None and expected_plan != plan_version(night):
        raise ValidationError(
            _("The plan changed since this page was drawn (a second tap?): nothing was swapped.")
        )
    if round_no < _first_open_round(night):
        raise ValidationError(
            {"round": _("Round %(round)d has started: its tables stay.") % {"round": round_no}}
        )
    try:
        plan = planning.swap_players(
            stored_plan(night), round_index=round_no - 1, first=first.pk, second=second.pk
        )
    except planning.PlanError as error:
        raise _planner_error(error) from None
    _write_rounds(night, plan, from_round=round_no)


@transaction.atomic
def add_late_arrival(*, night: Night, player: Player) -> int:
    """A player who comes late plays from the first round not started yet; that round and the
    later ones are drawn again. Returns that round's number."""
    night = _lock_night(night)
    _check_open(night)
    from_round = _first_open_round(night)
    if from_round > night.rounds:
        raise ValidationError({"player": _("Every round has started: there is no round left to join.")})
    if not Membership.objects.filter(club_id=night.club_id, player=player).exists():  # type: ignore[attr-defined]
        raise ValidationError({"player": _("%(name)s is not on this club's roster.") % {"name": player.name}})
    entry = NightPlayer.objects.filter(night=night, player=player).first()
    if entry is not None and entry.until_round is None:
        raise ValidationError({"player": _("%(name)s is already checked in.") % {"name": player.name}})
    plan = stored_plan(night)
    try:
        plan = planning.add_player(plan, player=player.pk, from_round=from_round - 1)
    except planning.PlanError as error:
        raise _planner_error(error) from None
    if entry is None:
        NightPlayer.objects.create(night=night, player=player, from_round=from_round)
    else:  # left earlier and came back: plays again from this round
        entry.until_round = None
        entry.save(update_fields=["until_round"])
    _write_rounds(night, plan, from_round=from_round)
    return from_round


@transaction.atomic
def remove_for_remaining_rounds(*, night: Night, player: Player) -> int:
    """A player who leaves: the rounds not started yet are drawn again without them. Their played
    rounds stay. Returns the first round they miss."""
    night = _lock_night(night)
    _check_open(night)
    from_round = _first_open_round(night)
    if from_round > night.rounds:
        raise ValidationError({"player": _("Every round has started: there is no round left to change.")})
    entry = NightPlayer.objects.filter(night=night, player=player, until_round=None).first()
    if entry is None:
        raise ValidationError({"player": _("%(name)s is not checked in.") % {"name": player.name}})
    try:
        plan = planning.remove_player(stored_plan(night), player=player.pk, from_round=from_round - 1)
    except planning.PlanError as error:
        raise _planner_error(error) from None
    if from_round == 1 or entry.from_round >= from_round:
        entry.delete()  # never played: as if never checked in
    else:
        entry.until_round = from_round - 1
        entry.save(update_fields=["until_round"])
    _write_rounds(night, plan, from_round=from_round)
    return from_round


# --- rounds ---------------------------------------------------------------------------------------


@transaction.atomic
def start_round(*, night: Night, round_no: int, actor: Actor | None = None) -> list[Game]:
    """Start the next round: one game per table through scoring's services, filed in the night's
    club and season, each seat linked to its roster player with the name filled in."""
    night = _lock_night(night)
    _check_open(night)
    if round_no != _first_open_round(night):
        raise ValidationError(
            {"round": _("Start round %(round)d first.") % {"round": _first_open_round(night)}}
            if round_no > _first_open_round(night)
            else {"round": _("Round %(round)d has started already.") % {"round": round_no}}
        )
    if night.season is not None and night.season.is_closed:
        raise ValidationError({"round": _("This season is closed: it accepts no new games.")})
    tables = list(
        night.tables.filter(round_no=round_no).prefetch_related("seats__player").order_by("table_no")
    )
    if not tables:
        message = (
            _("Round %(round)d has no table: too few players are checked in for it.") % {"round": round_no}
            if is_drawn(night)
            else _("Draw the tables first.")
        )
        raise ValidationError({"round": message})
    games = []
    for table in tables:
        seats = ordered_seats(table)
        game = scoring_services.create_game(
            seats=len(seats),
            variant=night.variant,
            deck=night.deck,
            target=night.target,
            min_bid=night.min_bid,
            first_dealer="N",
            meld_needs_trick=night.meld_needs_trick,
            players={seat.seat: seat.player.name for seat in seats},
            deals=round_deals(night),
        )
        file_game(
            game=game,
            club=night.club,  # type: ignore[arg-type]
            season=night.season,  # type: ignore[arg-type]
            played_on=night.played_on,
            place=_("Round %(round)d, table %(table)d") % {"round": round_no, "table": table.table_no},
            note=round_note(night),
            players={seat.seat: seat.player for seat in seats},
            actor=actor,
        )
        table.game = game
        table.save(update_fields=["game"])
        games.append(game)
    return games


def round_deals(night: Night) -> int | None:
    """The length of a round's games: a round of N hands is a game of N deals, which ends after
    hand N (docs/rules.md, "A fixed number of deals"); a round of one game plays to the target."""
    if night.round_ends == Night.RoundEnds.HANDS and night.hands_per_round:
        return int(night.hands_per_round)
    return None


def round_note(night: Night) -> str:
    """What a table should know about its round: when it ends, if not with the game."""
    if night.round_ends == Night.RoundEnds.HANDS and night.hands_per_round:
        return ngettext(
            "Club night: this round ends after %(hands)d hand; the standings count it.",
            "Club night: this round ends after %(hands)d hands; the standings count those.",
            night.hands_per_round,
        ) % {"hands": night.hands_per_round}
    return ""


@dataclass(frozen=True)
class OpenPlay:
    """What is still open when a night is finished: tables whose game goes on (as (round, table,
    hands)) and rounds not started yet."""

    tables: list[tuple[int, int, int]]
    unstarted_rounds: list[int]

    def __bool__(self) -> bool:
        return bool(self.tables or self.unstarted_rounds)

    @property
    def rounds(self) -> list[int]:
        """The rounds with a table still playing."""
        return sorted({round_no for round_no, _table, _hands in self.tables})


def table_complete(night: Night, game: Game) -> bool:
    """A table's round is over: its game has ended (a round of a fixed number of hands is a game
    of that many deals, which the engine ends after its last hand). The standings and the ledger
    count it the same way."""
    return bool(game.finished)


def open_play(night: Night) -> OpenPlay:
    """The tables still playing and the rounds not started: what finishing the night would stop."""
    tables = night.tables.filter(game__isnull=False).select_related("game").order_by("round_no", "table_no")
    playing = [
        (t.round_no, t.table_no, t.game.hand_count)  # type: ignore[union-attr]
        for t in tables
        if not table_complete(night, t.game)  # type: ignore[arg-type]
    ]
    started = started_rounds(night)
    drawn = set(night.tables.values_list("round_no", flat=True))
    unstarted = [n for n in range(started + 1, night.rounds + 1) if n in drawn]
    return OpenPlay(playing, unstarted)


@transaction.atomic
def finish_night(*, night: Night) -> None:
    """The night is over: its plan is kept, and the table links score no more (every phone that
    scored a table through its link follows its game read-only; organisers still correct)."""
    night = _lock_night(night)
    if night.is_finished:
        return
    night.finished_at = timezone.now()
    night.save(update_fields=["finished_at"])
    DeviceGame.objects.filter(game__night_table__night=night, active=True).update(active=False)


@transaction.atomic
def reopen_night(*, night: Night) -> None:
    """Undo a finish by mistake: the table links score again (a phone opens its link again)."""
    night = _lock_night(night)
    night.finished_at = None
    night.save(update_fields=["finished_at"])


def marked_payments(night: Night) -> list:  # type: ignore[type-arg]
    """The payments marked (and not taken back) for this night's settlement. Read through the
    reverse relation of the ledger's `Payment` (the ledger knows nights, not the other way)."""
    rows = night.ledger_payments.filter(removed_at__isnull=True)  # type: ignore[attr-defined]
    return list(rows.select_related("payer", "payee", "season").order_by("paid_on", "id"))


def settled_and_locked(night: Night) -> bool:
    """Whether the ledger holds the night "Settled — locked" (read through the reverse relation of
    the ledger's `NightLock`): its payments cannot change, so neither can the night be removed."""
    return night.ledger_locks.filter(unlocked_at__isnull=True).exists()  # type: ignore[attr-defined]


@transaction.atomic
def remove_night(*, night: Night, keep_payments: bool = True, removed_by: str = "") -> int:
    """Remove a night with its plan, and its games through scoring's services (statistics and
    ratings follow the deleted games). Returns the number of games removed.

    The payments marked for its settlement: with `keep_payments` those of a season stay in that
    season's ledger (money that changed hands did; the season then proposes paying it back),
    otherwise they are taken back (they stop counting and keep who removed them and when). A
    payment of a night in no season would show in no ledger once the night is gone: it is always
    taken back. Refused (ValidationError, nothing removed) while the ledger holds the night
    settled and locked."""
    night = _lock_night(night)
    if settled_and_locked(night):
        raise ValidationError(
            _("The night is settled and locked in the ledger: an organiser unlocks it on its "
              "settlement page first.")
        )  # fmt: skip
    payments = night.ledger_payments.filter(removed_at__isnull=True)  # type: ignore[attr-defined]
    if keep_payments:
        payments = payments.filter(season__isnull=True)
    payments.update(removed_at=timezone.now(), removed_by_label=removed_by)
    games = list(night.games)
    night.delete()  # players, tables, seats and byes cascade; games are PROTECTed until now
    for game in games:
        scoring_services.delete_game(game=game)
    return len(games)


def claim_table(*, table: NightTable, device: Device, actor: Actor) -> bool:
    """The phone opening a table's link scores that table's game; another phone that held it
    follows read-only and the take-over goes into the game's corrections. Refused
    (ValidationError) once the night is finished or before the round has started. Returns
    whether another phone was scoring it."""
    night = table.night
    if night.is_finished:
        raise ValidationError(_("This night is finished: the table links no longer score."))
    if table.game is None:
        raise ValidationError(_("This round has not started yet."))
    return take_over_with_link(game=table.game, device=device, actor=actor)


def night_players(night: Night) -> Sequence[NightPlayer]:
    return list(night.players.select_related("player"))
