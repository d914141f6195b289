"""A club night's rounds: start a round (one game per table, through scoring's services), what is
still playing, finish and reopen the night, and a table's link taken by a phone."""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from nights.models import Night, NightTable
from nights.services import (
    check_open,
    first_open_round,
    is_drawn,
    locked_for_update,
    ordered_seats,
    started_rounds,
)
from scoring.audit import Actor
from scoring.devices import end_rights
from scoring.filing import file_game
from scoring.handover import take_over_with_link
from scoring.models import Device, Game
from scoring.services.games import create_game
from scoring.services.plans import follow_plan

#: Who the corrections trail names when a phone takes a table over through its link.
TABLE_LINK_ACTOR = Actor(user=None, label="table-link")


@transaction.atomic
def start_round(*, night: Night, round_no: int, actor: Actor | None = None) -> list[Game]:
    """Start the next round: one game per table through scoring's services, filed in the night's
    club and season, each seat linked to its roster player with the name filled in."""
    night = locked_for_update(night)
    check_open(night)
    if round_no != first_open_round(night):
        raise ValidationError(
            {"round": _("Start round %(round)d first.") % {"round": first_open_round(night)}}
            if round_no > first_open_round(night)
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
        game = create_game(
            seats=len(seats),
            variant=night.variant,
            deck=night.deck,
            target=night.target,
            min_bid=night.min_bid,
            first_dealer="N",
            meld_needs_trick=night.meld_needs_trick,
            players={seat.seat: seat.player.name for seat in seats},
            deals=round_deals(night),
            bid_steps=night.bid_steps,
            meld_counts_from=night.meld_counts_from,
            spread=night.spread,
            scale=night.scale,
        )
        file_game(
            game=game,
            club=night.club,
            season=night.season,
            played_on=night.played_on,
            place=_("Round %(round)d, table %(table)d") % {"round": round_no, "table": table.table_no},
            note=round_note(night),
            players={seat.seat: seat.player for seat in seats},
            actor=actor,
        )
        table.game = game
        table.save(update_fields=["game"])
        games.append(game)
    follow_plan(games=games)  # the rights checks read it on the game: its filing and seats are the plan's
    return games


def round_deals(night: Night) -> int | None:
    """The length of a round's games: a round of N hands is a game of N deals, which ends after
    hand N (docs/rules.md, "A fixed number of deals"); a round of one game plays the night's
    deals, if it has that house rule, else to the target."""
    if night.round_ends == Night.RoundEnds.HANDS and night.hands_per_round:
        return int(night.hands_per_round)
    return night.deals


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
        (t.round_no, t.table_no, t.game.hand_count)
        for t in tables
        if t.game is not None and not table_complete(night, t.game)
    ]
    started = started_rounds(night)
    drawn = set(night.tables.values_list("round_no", flat=True))
    unstarted = [n for n in range(started + 1, night.rounds + 1) if n in drawn]
    return OpenPlay(playing, unstarted)


@transaction.atomic
def finish_night(*, night: Night) -> None:
    """The night is over: its plan is kept, and the table links score no more (every phone that
    scored a table through its link follows its game read-only; organisers still correct)."""
    night = locked_for_update(night)
    if night.is_finished:
        return
    night.finished_at = timezone.now()
    night.save(update_fields=["finished_at"])
    follow_plan(games=Game.objects.filter(night_table__night=night), over=True)
    end_rights(games=Game.objects.filter(night_table__night=night))


@transaction.atomic
def reopen_night(*, night: Night) -> None:
    """Undo a finish by mistake: the table links score again (a phone opens its link again)."""
    night = locked_for_update(night)
    night.finished_at = None
    night.save(update_fields=["finished_at"])
    follow_plan(games=Game.objects.filter(night_table__night=night))


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
