"""The club's ledger adds up to zero after every kind of change: a correction, a deleted hand, merged
players, a removed night, payments; and every balance is what the rules engine's results of the
games and the payments give (worked out here independently, game by game)."""

import contextlib
import datetime
import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Player
from clubs.services import merge_players
from ledger import balances, selectors, services
from ledger.models import Payment
from nights.models import Night
from nights.removal import remove_night
from scoring.rules.errors import RecordError
from scoring.services.hands import delete_last_hand, edit_hand
from scoring.services.results import score
from tests.ledger_helpers import CHECK_HANDS, EW_MAKES, NS_MAKES, make_night, roster, standard_hand

pytestmark = pytest.mark.django_db


def side_of(seat, seats):
    return seat if seats < 4 else ("NS" if seat in "NS" else "EW")


def table_figures(night, game):
    """(chips by side, winning side or "draw" or None, decided) of a night's table from the engine:
    the whole game (a round of a fixed number of hands is a game of that many deals, which the
    engine ends after its last hand, game chips included)."""
    hands = [hand.data for hand in game.hands.order_by("number")]
    if night.round_ends == Night.RoundEnds.HANDS:
        assert game.deals == night.hands_per_round
    result = score(game, hands)
    return result.chips, result.winner, result.finished


def expected_balances(club):
    """Per unit, each player's balance from the engine's result of every game and the payments."""
    out: dict[str, dict[int | None, Decimal]] = {}
    for night in Night.objects.filter(club=club, finished_at__isnull=False):
        stake_chip = night.stake_per_chip or Decimal(0)
        stake_win = night.stake_per_win or Decimal(0)
        unit = (
            "money" if stake_win or (night.is_check and stake_chip) else ("chips" if night.is_check else None)
        )
        if unit is None:
            continue
        book = out.setdefault(unit, {})
        for table in night.tables.filter(game__isnull=False).select_related("game"):
            game = table.game
            assert game is not None
            chips, winner, decided = table_figures(night, game)
            seats = list(game.seat_rows.all())
            winners = [s for s in seats if winner == side_of(s.seat, len(seats))]
            for seat in seats:
                side = side_of(seat.seat, len(seats))
                value = Decimal(0)
                if night.is_check:
                    value += chips[side] * (stake_chip if unit == "money" else 1)
                if stake_win and decided and winners:
                    losers = len(seats) - len(winners)
                    value += stake_win * losers / len(winners) if seat in winners else -stake_win
                book[seat.player_id] = book.get(seat.player_id, Decimal(0)) + value
    for payment in Payment.objects.filter(club=club):
        book = out.setdefault(payment.unit, {})
        book[payment.payer_id] = book.get(payment.payer_id, Decimal(0)) + payment.amount
        book[payment.payee_id] = book.get(payment.payee_id, Decimal(0)) - payment.amount
    return out


def assert_balanced(club):
    actual = balances.club_balances(club.pk)
    for unit, book in actual.items():
        assert sum(book.values()) == 0, (unit, book)
    expected = expected_balances(club)
    assert {u: {p: v for p, v in b.items() if v} for u, b in actual.items()} == {
        u: {p: v for p, v in b.items() if v} for u, b in expected.items()
    }


def pay_first(night, people):
    suggestion = selectors.night_ledger(night).suggestions[0]
    services.mark_paid(
        actor=people["alice"], club=night.club, night=night, season=None, payer=suggestion.payer,
        payee=suggestion.payee, amount=suggestion.amount, unit=suggestion.unit, token=uuid.uuid4(),
    )  # fmt: skip


def test_a_correction_a_deleted_hand_a_merge_and_a_removed_night_keep_it_at_zero(club, season, people):
    anna, bo, cleo, dan, eva, anna2 = roster(club, "Anna", "Bo", "Cleo", "Dan", "Eva", "Anna L.")
    stake = Decimal("0.25")
    first = make_night(
        club=club, season=season, tables=[((anna, bo, cleo, dan), [NS_MAKES, EW_MAKES])], stake_per_chip=stake
    )
    second = make_night(
        club=club,
        season=season,
        tables=[((anna2, eva, bo, dan), [EW_MAKES, NS_MAKES, NS_MAKES])],
        played_on=datetime.date(2026, 11, 12),
        stake_per_chip=stake,
    )
    assert_balanced(club)
    pay_first(first, people)
    pay_first(second, people)
    assert_balanced(club)
    before = balances.club_balances(club.pk)

    game = first.tables.get().game
    assert game is not None
    edit_hand(game=game, number=1, data=EW_MAKES)  # a correction after the night
    assert_balanced(club)
    assert balances.club_balances(club.pk) != before

    game = second.tables.get().game
    assert game is not None
    delete_last_hand(game=game)
    assert_balanced(club)

    merge_players(keep=anna, duplicate=anna2)
    assert not Player.objects.filter(pk=anna2.pk).exists()
    assert_balanced(club)
    assert balances.season_ledger(season).totals == {"money": Decimal(0)}

    remove_night(night=first)
    assert Payment.objects.count() == 2  # a payment made stays made
    assert_balanced(club)


def test_a_merge_of_two_players_who_paid_each_other_changes_no_balance(club, season, people):
    anna, bo, cleo, dan, anna2 = roster(club, "Anna", "Bo", "Cleo", "Dan", "Anna L.")
    make_night(club=club, season=season, tables=[((anna, bo, cleo, dan), [NS_MAKES])])
    Payment.objects.create(club=club, season=season, payer=anna2, payee=anna, amount=3, unit="chips",
                           paid_on=datetime.date(2026, 11, 6), token=uuid.uuid4())  # fmt: skip
    merge_players(keep=anna, duplicate=anna2)
    assert_balanced(club)
    assert balances.club_balances(club.pk)["chips"][anna.pk] == 4


check_hands = st.lists(st.sampled_from(range(len(CHECK_HANDS))), min_size=1, max_size=6)
standard_hands = st.lists(st.tuples(st.sampled_from("NESW"), st.booleans()), min_size=1, max_size=6)
night_shape = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(["check", "standard"]),
        "tables": st.integers(1, 2),
        "stake": st.sampled_from([None, "chip", "win", "both"]),
        "target": st.sampled_from([None, 40]),
        "hands_per_round": st.sampled_from([None, None, 2]),
        "hands": st.lists(st.tuples(check_hands, standard_hands), min_size=2, max_size=2),
        "seed": st.randoms(use_true_random=False),
    }
)
change = st.sampled_from(["edit", "delete", "pay", "merge", "remove", "unfinish"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(nights=st.lists(night_shape, min_size=1, max_size=3), changes=st.lists(change, max_size=5))
def test_random_nights_and_changes_keep_every_balance_at_zero_and_true_to_the_engine(
    club, people, nights, changes
):
    with transaction.atomic():
        pool = roster(club, *[f"P{i}" for i in range(9)])
        made = []
        for index, shape in enumerate(nights):
            rng = shape["seed"]
            players = rng.sample(pool[:8], 8)
            tables = []
            for t in range(shape["tables"]):
                check, standard = shape["hands"][t]
                seats = players[4 * t : 4 * t + 4]
                if shape["variant"] == "check":
                    tables.append((seats, [CHECK_HANDS[i] for i in check]))
                else:
                    seats = seats[: rng.choice([2, 3, 4])]
                    bidders = [b if "NESW".index(b) < len(seats) else "N" for b, _ in standard]
                    tables.append(
                        (
                            seats,
                            [
                                _standard(len(seats), b, m)
                                for b, (_, m) in zip(bidders, standard, strict=True)
                            ],
                        )
                    )
            stake = shape["stake"]
            made.append(
                make_night(
                    club=club,
                    season=None,
                    tables=tables,
                    variant=shape["variant"],
                    target=shape["target"],
                    played_on=datetime.date(2026, 10, 1 + index),
                    stake_per_chip=Decimal("0.25") if stake in ("chip", "both") else None,
                    stake_per_win=Decimal("1.00") if stake in ("win", "both") else None,
                    hands_per_round=shape["hands_per_round"],
                )
            )
        assert_balanced(club)
        for what in changes:
            alive = [n for n in made if Night.objects.filter(pk=n.pk).exists()]
            if not alive:
                break
            night = alive[0]
            table = night.tables.first()
            assert table is not None and table.game is not None
            game = table.game
            if what == "edit" and game.hand_count:
                try:
                    data = CHECK_HANDS[1] if night.is_check else _standard(game.seats, "N", False)
                    edit_hand(game=game, number=1, data=data)
                except RecordError:
                    pass  # a correction that would end the game before later hands: refused
            elif what == "delete":
                delete_last_hand(game=game)
            elif what == "pay" and selectors.night_ledger(night).suggestions:
                pay_first(night, people)
            elif what == "merge":
                # Refused when they sat in one game or night, or are one player already.
                seat = game.seat_rows.first()
                assert seat is not None and seat.player is not None
                with contextlib.suppress(ValidationError):
                    merge_players(keep=pool[8], duplicate=seat.player)
            elif what == "remove":
                remove_night(night=night)
            elif what == "unfinish":
                Night.objects.filter(pk=night.pk).update(finished_at=None)
            assert_balanced(club)
        transaction.set_rollback(True)


def _standard(seats, bidder, made):
    if seats == 4:
        return standard_hand(bidder, made)
    letters = "NESW"[:seats]
    tricks = {seat: 0 for seat in letters}
    tricks[bidder] = 15 if made else 2
    rest = [seat for seat in letters if seat != bidder]
    tricks[rest[0]] = 25 - tricks[bidder]
    return {"bidder": bidder, "bid": 20, "meld_points": {seat: 5 for seat in letters}, "tricks": tricks}


def test_a_merge_moves_the_payments_taken_back_with_a_removed_night_too(club, season, people):
    """A payment of a removed night is kept, marked removed; the merge deletes the duplicate, so
    such a payment moves to the kept player too, and the merge goes through."""
    anna, bo, cleo, dan, anna2 = roster(club, "Anna", "Bo", "Cleo", "Dan", "Anna L.")
    night = make_night(club=club, season=season, tables=[((anna2, bo, cleo, dan), [NS_MAKES])])
    pay_first(night, people)
    paid = Payment.objects.get()
    assert anna2.pk in (paid.payer_id, paid.payee_id)
    remove_night(night=night, keep_payments=False)
    assert Payment.objects.count() == 0 and Payment.all_objects.count() == 1  # taken back, kept on record
    merge_players(keep=anna, duplicate=anna2)
    assert not Player.objects.filter(pk=anna2.pk).exists()
    moved = Payment.all_objects.get()
    assert anna.pk in (moved.payer_id, moved.payee_id)
    assert_balanced(club)
