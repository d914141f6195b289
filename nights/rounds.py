"""A club night's rounds: start a round (one game per table, through scoring's services), what is
still playing, finish and reopen the night, and a table's link taken by a phone."""

from __future__ import annotations

import contextlib
import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from nights.figures import awaits_confirmation
from nights.models import Night, NightTable
from nights.movement_plan import plan_moved_round, table_final, tables_still_playing
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
from scoring.models import Device, Game, Hand
from scoring.services.games import create_game
from scoring.services.plans import follow_plan, last_hand_from
from scoring.signals import PlanNotice

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
    if not tables and night.moves_by_round and round_no > 1:
        raise ValidationError({"round": waiting_message(round_no, tables_still_playing(night, round_no - 1))})
    moved = night.moves_by_round and round_no > 1
    before = night.tables.filter(round_no=round_no - 1).select_related("game").order_by("table_no")
    not_ended = [t for t in before if not table_final(t)] if tables and moved else []
    if not_ended:  # the organiser's round, kept while a table of the round before has not ended
        raise ValidationError({"round": kept_waiting_message(round_no, not_ended)})
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
        # A Check Pinochle night's leftover table (3 or 2 seats) plays the standard game, no chips,
        # to the rule book's target and minimum bid for it (the night's are Check Pinochle's).
        leftover = night.variant == Game.Variant.CHECK and len(seats) != 4
        game = create_game(
            seats=len(seats),
            variant=Game.Variant.STANDARD if leftover else night.variant,
            deck=night.deck,
            target=None if leftover else night.target,
            min_bid=None if leftover else night.min_bid,
            first_dealer="N",
            meld_needs_trick=night.meld_needs_trick,
            players={seat.seat: seat.player.name for seat in seats},
            deals=round_deals(night),
            confirm_hands=night.club.confirm_hands,
            sign_at_end=night.club.sign_at_end,
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
    night.round_started_at = timezone.now()
    night.last_hand_round = night.last_hand_called_at = None
    night.save(update_fields=["round_started_at", "last_hand_round", "last_hand_called_at"])
    if night.round_ends == Night.RoundEnds.MINUTES:
        last_hand_from(games=games, at=round_deadline(night))
    return games


def waiting_message(round_no: int, playing: list[int]) -> str:
    """Why round `round_no` of a night with a movement has no tables yet: the tables `playing` of
    the round before are still playing (none listed: that round has not started)."""
    if not playing:
        return _("Round %(round)d is planned when round %(previous)d ends.") % {
            "round": round_no,
            "previous": round_no - 1,
        }
    return ngettext(
        "Round %(round)d is planned when round %(previous)d ends: table %(tables)s is still playing.",
        "Round %(round)d is planned when round %(previous)d ends: tables %(tables)s are still playing.",
        len(playing),
    ) % {"round": round_no, "previous": round_no - 1, "tables": ", ".join(map(str, playing))}


def kept_waiting_message(round_no: int, not_ended: Sequence[NightTable]) -> str:
    """Why round `round_no`, planned and changed by hand, cannot start: the started tables
    `not_ended` of the round before play again (a last hand taken back), or their game is over but
    its last hand, corrected to another result, waits for the other side's OK."""
    waiting = [t.table_no for t in not_ended if t.game is not None and t.game.finished]
    playing = [t.table_no for t in not_ended if t.table_no not in waiting]
    numbers = {"round": round_no, "previous": round_no - 1}
    said = []
    if playing:
        said.append(
            ngettext(
                "Round %(round)d stays as you changed it and can start when round %(previous)d ends: "
                "table %(tables)s is playing again.",
                "Round %(round)d stays as you changed it and can start when round %(previous)d ends: "
                "tables %(tables)s are playing again.",
                len(playing),
            )
            % {**numbers, "tables": ", ".join(map(str, playing))}
        )
    if waiting and playing:
        said.append(
            ngettext(
                "Table %(tables)s waits for the other side's OK.",
                "Tables %(tables)s wait for the other side's OK.",
                len(waiting),
            )
            % {"tables": ", ".join(map(str, waiting))}
        )
    elif waiting:
        said.append(
            ngettext(
                "Round %(round)d stays as you changed it and can start when round %(previous)d ends: "
                "table %(tables)s waits for the other side's OK.",
                "Round %(round)d stays as you changed it and can start when round %(previous)d ends: "
                "tables %(tables)s wait for the other side's OK.",
                len(waiting),
            )
            % {**numbers, "tables": ", ".join(map(str, waiting))}
        )
    return " ".join(said)


def table_waits_message(round_no: int, playing: list[int]) -> str:
    """What a finished table's link says while round `round_no`, planned and changed by hand,
    waits for the tables `playing` of the round before to end again (a last hand taken back, or
    corrected and waiting for the other side's OK): no seats yet, as the organiser may still plan
    the round again once they end."""
    return ngettext(
        "Round %(round)d waits until table %(tables)s of round %(previous)d has ended again. Where you "
        "sit next shows here then.",
        "Round %(round)d waits until tables %(tables)s of round %(previous)d have ended again. Where you "
        "sit next shows here then.",
        len(playing),
    ) % {"round": round_no, "previous": round_no - 1, "tables": ", ".join(map(str, playing))}


def round_deadline(night: Night) -> datetime.datetime | None:
    """When a round on the clock is up: its start and its minutes. The hand in play then is the
    round's last (each table finishes the hand it is playing)."""
    if night.round_ends != Night.RoundEnds.MINUTES or not night.round_minutes or not night.round_started_at:
        return None
    return night.round_started_at + datetime.timedelta(minutes=night.round_minutes)


def _playing_games(night: Night, round_no: int) -> list[Game]:
    return list(Game.objects.filter(night_table__night=night, night_table__round_no=round_no, finished=False))


@transaction.atomic
def call_last_hand(*, night: Night) -> int:
    """The organiser calls the last hand of the round in play: each of its tables ends its game
    after its next saved hand (the most points win, as after a round's fixed number of hands).
    Returns the round's number."""
    night = locked_for_update(night)
    check_open(night)
    round_no = started_rounds(night)
    games = _playing_games(night, round_no) if round_no else []
    if not games:
        raise ValidationError({"round": _("No table is playing: there is no round to end.")})
    if night.last_hand_round == round_no and night.last_hand_called_at is not None:
        # Called already (a second tap, a stale page): the first call stands, so that the take-back
        # still sees every table that has saved its last hand since.
        return round_no
    now = timezone.now()
    night.last_hand_round, night.last_hand_called_at = round_no, now
    night.save(update_fields=["last_hand_round", "last_hand_called_at"])
    deadline = round_deadline(night)
    last_hand_from(games=games, at=min(now, deadline) if deadline else now)
    return round_no


@transaction.atomic
def take_back_last_hand(*, night: Night) -> int:
    """Undo a last hand called by mistake, as long as no table of the round has saved a hand since
    (that table's game is over). The round ends again as it was set to. Returns the round's number."""
    night = locked_for_update(night)
    check_open(night)
    round_no, called = night.last_hand_round, night.last_hand_called_at
    if round_no is None or called is None or round_no != started_rounds(night):
        raise ValidationError({"round": _("The last hand has not been called in this round.")})
    games = Game.objects.filter(night_table__night=night, night_table__round_no=round_no)
    if Hand.objects.filter(game__in=games, created_at__gte=called).exists():
        message = _("A table has saved a hand since the last hand was called: it cannot be taken back.")
        raise ValidationError({"round": message})
    night.last_hand_round = night.last_hand_called_at = None
    night.save(update_fields=["last_hand_round", "last_hand_called_at"])
    last_hand_from(games=games.filter(finished=False), at=round_deadline(night))
    return round_no


def round_deals(night: Night) -> int | None:
    """The length of a round's games: a round of N hands is a game of N deals, which ends after
    hand N (docs/rules.md, "A fixed number of deals"); a round of one game plays the night's
    deals, if it has that house rule, else to the target."""
    if night.round_ends == Night.RoundEnds.HANDS and night.hands_per_round:
        return int(night.hands_per_round)
    return night.deals


def _last_hand_text(round_no: int) -> str:
    return _("Last hand of round %(round)d") % {"round": round_no}


def _minutes_text(minutes: int, round_no: int) -> str:
    if minutes <= 0:
        return _last_hand_text(round_no)
    return ngettext(
        "%(count)d minute left in round %(round)d", "%(count)d minutes left in round %(round)d", minutes
    ) % {"count": minutes, "round": round_no}


def table_notice(table: NightTable, now: datetime.datetime) -> PlanNotice | None:
    """What the phone of a table says about its round: while it plays, the hands or minutes left
    or "Last hand"; once its game is over, that it waits for the next round, or the way to the
    next round's table once that has started. None when there is nothing to say."""
    night, game = table.night, table.game
    if game is None or night.is_finished:
        return None
    round_no = table.round_no
    if game.finished:
        return _after_the_round(table)
    if game.last_hand_from is not None and now >= game.last_hand_from:
        return PlanNotice(_last_hand_text(round_no))
    if game.last_hand_from is not None:  # a round on the clock
        seconds = (game.last_hand_from - now).total_seconds()
        minutes = math.ceil(seconds / 60)
        texts = tuple(_minutes_text(n, round_no) for n in range(minutes + 1))
        return PlanNotice(texts[-1], seconds_left=math.ceil(seconds), countdown=texts)
    if game.deals is not None:
        left = game.deals - game.hand_count
        if left <= 1:
            return PlanNotice(_last_hand_text(round_no))
        text = ngettext(
            "%(count)d hand left in round %(round)d", "%(count)d hands left in round %(round)d", left
        )
        return PlanNotice(text % {"count": left, "round": round_no})
    return None


def clock_text(night: Night, round_no: int, now: datetime.datetime) -> str:
    """The organiser's line of the round in play (`round_no`, the last started) on the clock: the
    minutes left, or "Last hand" once time is up; "" for a round of another kind."""
    deadline = round_deadline(night)
    if deadline is None:
        return ""
    return _minutes_text(math.ceil((deadline - now).total_seconds() / 60), round_no)


def _after_the_round(table: NightTable) -> PlanNotice | None:
    """A finished table: it waits for the next round, or (once that has started) its phone goes on
    to the same table number of the next round; while its last hand waits for the other side's OK,
    that the round ends with the OK. Where each player sits next is the plan's (the
    wall plan and the table cards show it)."""
    night, next_no = table.night, table.round_no + 1
    assert table.game is not None
    if awaits_confirmation(table.game):  # the last hand may still be "Not right": not over yet
        return PlanNotice(
            _("Round %(round)d ends when the other side has OK'd the last hand.") % {"round": table.round_no}
        )
    if next_no > night.rounds:
        return None
    drawn = list(night.tables.filter(round_no=next_no).only("night", "table_no", "token", "game"))
    if not any(t.game_id for t in drawn):
        return PlanNotice(_("Waiting for round %(round)d") % {"round": next_no})
    following = next((t for t in drawn if t.table_no == table.table_no), None)
    if following is None:  # the next round has fewer tables: the wall plan says where to go
        return PlanNotice(_("Round %(round)d has started.") % {"round": next_no})
    return PlanNotice(
        _("Round %(round)d has started.") % {"round": next_no},
        link=(
            reverse("nights:table", args=[following.token]),
            _("Go to table %(table)d of round %(round)d") % {"table": table.table_no, "round": next_no},
        ),
    )


def round_note(night: Night) -> str:
    """What a table should know about its round: when it ends, if not with the game."""
    if night.round_ends == Night.RoundEnds.HANDS and night.hands_per_round:
        return ngettext(
            "Club night: this round ends after %(hands)d hand; the standings count it.",
            "Club night: this round ends after %(hands)d hands; the standings count those.",
            night.hands_per_round,
        ) % {"hands": night.hands_per_round}
    if night.round_ends == Night.RoundEnds.MINUTES and night.round_minutes:
        return ngettext(
            "Club night: this round lasts %(minutes)d minute; the hand in play then is its last.",
            "Club night: this round lasts %(minutes)d minutes; the hand in play then is its last.",
            night.round_minutes,
        ) % {"minutes": night.round_minutes}
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
    with contextlib.suppress(ValidationError):  # not planned then: the night page says so
        plan_moved_round(night=night)  # a movement's round that ended while the night was finished


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
