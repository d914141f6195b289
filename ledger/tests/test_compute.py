"""The ledger's arithmetic, with no database: a night's figures, balances, settling, statements."""

from decimal import Decimal

from ledger.compute import (
    CHIPS,
    MONEY,
    Line,
    SeatResult,
    Stakes,
    Transfer,
    balances,
    night_figures,
    night_unit,
    settle,
    statement,
)

ANNA, BO, CLEO, DAN = 1, 2, 3, 4


def check_game(game, ns, ew, ns_chips, winner="NS"):
    outcome = {"NS": "win" if winner == "NS" else "loss", "EW": "win" if winner == "EW" else "loss"}
    if winner == "draw":
        outcome = {"NS": "draw", "EW": "draw"}
    return [SeatResult(game, "NS", p, ns_chips, outcome["NS"]) for p in ns] + [
        SeatResult(game, "EW", p, -ns_chips, outcome["EW"]) for p in ew
    ]


def test_it_gives_each_partner_the_sides_chips_in_full():
    seats = check_game(1, (ANNA, CLEO), (BO, DAN), 12) + check_game(2, (ANNA, BO), (CLEO, DAN), 4)
    figures = night_figures(seats, chips_in_play=True, stakes=Stakes())
    assert figures.unit == CHIPS
    assert figures.chips == {ANNA: 16, BO: -8, CLEO: 8, DAN: -16}
    assert figures.games == {ANNA: 2, BO: 2, CLEO: 2, DAN: 2}
    assert figures.wins == {ANNA: 2, BO: 1, CLEO: 1, DAN: 0}


def test_it_turns_chips_into_money_at_the_stake_and_settles_in_fewest_payments():
    """The module docstring's worked example."""
    seats = check_game(1, (ANNA, CLEO), (BO, DAN), 12) + check_game(2, (ANNA, BO), (CLEO, DAN), 4)
    figures = night_figures(seats, chips_in_play=True, stakes=Stakes(per_chip=Decimal("0.50")))
    assert figures.unit == MONEY
    assert figures.amounts == {
        ANNA: Decimal("8.00"),
        BO: Decimal("-4.00"),
        CLEO: Decimal("4.00"),
        DAN: Decimal("-8.00"),
    }
    payments = [(p.payer, p.payee, p.amount) for p in settle(figures.amounts, MONEY)]
    assert payments == [(BO, CLEO, Decimal("4.00")), (DAN, ANNA, Decimal("8.00"))]
    assert str(payments[0][2]) == "4.00"


def test_a_standard_night_pays_a_stake_per_game_won_and_a_draw_or_open_game_pays_nothing():
    won = check_game(1, (ANNA, CLEO), (BO, DAN), 0)
    drawn = check_game(2, (ANNA, BO), (CLEO, DAN), 0, winner="draw")
    going = [SeatResult(3, "N", ANNA, 0, ""), SeatResult(3, "E", BO, 0, ""), SeatResult(3, "S", CLEO, 0, "")]
    figures = night_figures(won + drawn + going, chips_in_play=False, stakes=Stakes(per_win=Decimal("2")))
    assert figures.amounts == {
        ANNA: Decimal("2.00"),
        BO: Decimal("-2.00"),
        CLEO: Decimal("2.00"),
        DAN: Decimal("-2.00"),
    }
    three = [
        SeatResult(4, "N", ANNA, 0, "win"),
        SeatResult(4, "E", BO, 0, "loss"),
        SeatResult(4, "S", CLEO, 0, "loss"),
    ]
    figures = night_figures(three, chips_in_play=False, stakes=Stakes(per_win=Decimal("1.50")))
    assert figures.amounts == {ANNA: Decimal("3.00"), BO: Decimal("-1.50"), CLEO: Decimal("-1.50")}


def test_the_unit_is_money_with_a_stake_chips_without_and_nothing_for_a_standard_night_without_stake():
    assert night_unit(chips_in_play=True, stakes=Stakes(per_chip=Decimal("0.1"))) == MONEY
    assert night_unit(chips_in_play=True, stakes=Stakes(per_chip=Decimal("0"))) == CHIPS
    assert night_unit(chips_in_play=True, stakes=Stakes()) == CHIPS
    assert night_unit(chips_in_play=False, stakes=Stakes(per_chip=Decimal("1"))) is None
    assert night_unit(chips_in_play=False, stakes=Stakes(per_win=Decimal("1"))) == MONEY


def test_a_payment_moves_both_balances_and_keeps_the_sum_at_zero():
    book = balances(
        [(CHIPS, {ANNA: Decimal(12), BO: Decimal(-12)}), (CHIPS, {ANNA: Decimal(-5), CLEO: Decimal(5)})],
        [Transfer(BO, ANNA, Decimal(10), CHIPS)],
    )
    assert book == {CHIPS: {ANNA: Decimal(-3), BO: Decimal(-2), CLEO: Decimal(5)}}
    assert sum(book[CHIPS].values()) == 0


def test_a_statement_carries_the_balance_in_and_runs_it_through_the_month():
    lines = [
        Line("2026-10-08", "night", 1, CHIPS, Decimal(-12)),
        Line("2026-11-05", "night", 2, CHIPS, Decimal(4)),
        Line("2026-11-05", "paid", 7, CHIPS, Decimal(8), other=ANNA),
        Line("2026-12-03", "night", 3, CHIPS, Decimal(100)),
    ]
    result = statement(lines, month_start="2026-11-01", month_end="2026-12-01")
    assert result.opening == {CHIPS: Decimal(-12)}
    assert [(line.ref, line.balance) for line in result.lines] == [(2, Decimal(-8)), (7, Decimal(0))]
    assert result.closing == {CHIPS: Decimal(0)}
