"""Properties of the engine over generated valid games (hypothesis).

The generator builds records the rules accept: 2, 3 or 4 seats, standard or Check Pinochle,
single or double deck, legal bids and legal melds. Melds are kept certainly valid by a simple
budget: at most two seats meld, and each seat holds at most half the copies of any card (one in a
single deck, two in a double deck), so the deck can always hold the deal. Points and chips are
also worked out here from the rule book, independently of the engine, and compared.
"""

import copy
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.rules.engine import score_record
from scoring.rules.errors import RecordError

SIDES = {4: ("NS", "EW"), 3: ("N", "E", "S"), 2: ("N", "E")}
SEATS = {4: "NESW", 3: "NES", 2: "NE"}
TRICK_POINTS = {"single": 25, "double": 50}
TRICKS_PER_HAND = {"single": {4: 12, 3: 15, 2: 24}, "double": {4: 20, 3: 25, 2: 40}}
SUITS = ("spades", "hearts", "diamonds", "clubs")

# docs/rules.md, "Meld table" for the items the generator uses: points (both decks) and Check chips.
POINTS = {
    "run": 15,
    "double_run": 150,
    "trump_marriage": 4,
    "marriage": 2,
    "dix": 1,
    "pinochle": 4,
    "double_pinochle": 30,
    "aces": 10,
    "double_aces": 100,
    "kings": 8,
    "double_kings": 80,
    "queens": 6,
    "double_queens": 60,
    "jacks": 4,
    "double_jacks": 40,
}
CHIPS = {
    "run": 2,
    "double_run": 4,
    "double_pinochle": 1,
    "aces": 2,
    "double_aces": 4,
    "kings": 1,
    "double_kings": 2,
    "queens": 1,
    "double_queens": 2,
    "jacks": 1,
    "double_jacks": 2,
}

# Check Pinochle (single deck) is listed twice: it is where chips are in play.
TABLES = [
    (4, "check", "single"),
    (4, "check", "single"),
    (4, "check", "double"),
    (4, "standard", "single"),
    (4, "standard", "double"),
    (3, "standard", "single"),
    (3, "standard", "double"),
    (2, "standard", "single"),
    (2, "standard", "double"),
]
# The number of examples comes from the profile (conftest.py): 25 while working, 200 in CI.
PROPERTY_SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def side_of(seat, seats):
    if seats == 4:
        return "NS" if seat in ("N", "S") else "EW"
    return seat


def legal_bids(min_bid, deck):
    if deck == "single":
        return st.integers(min_bid, min_bid + 40)
    by_fives = [bid for bid in range(min_bid + 11, min_bid + 120) if bid % 5 == 0]
    return st.sampled_from([*range(min_bid, min_bid + 11), *by_fives])


@st.composite
def seat_melds(draw, deck, needs_trump_marriage):
    """One seat's melds using at most half the deck's copies of any card."""
    most = 1 if deck == "single" else 2
    if deck == "single":
        trump_parts = [[], ["trump_marriage"], ["run"]]
    else:
        trump_parts = [
            [],
            ["trump_marriage"],
            ["trump_marriage", "trump_marriage"],
            ["run"],
            ["run", "trump_marriage"],
            ["double_run"],
        ]
    if needs_trump_marriage:
        trump_parts = trump_parts[1:]
    items = list(draw(st.sampled_from(trump_parts)))
    marriages = draw(st.integers(0, 3 * most))
    items += ["marriage"] * marriages
    if deck == "single" and draw(st.booleans()):
        items.append("dix")
    levels = {
        family: draw(st.integers(0, most)) for family in ("pinochle", "aces", "kings", "queens", "jacks")
    }
    if levels["kings"] and levels["queens"] and (marriages < 3 or not items or items[0] == "marriage"):
        levels["queens"] = 0  # a roundhouse must list its marriages (docs/rules.md, "Roundhouse")
    for family, level in levels.items():
        if level:
            items.append(family if level == 1 else f"double_{family}")
    return draw(st.permutations(items))


def seat_points(items):
    return sum(POINTS[item] for item in items)


def seat_chips(items):
    kings = any(item in ("kings", "double_kings") for item in items)
    queens = any(item in ("queens", "double_queens") for item in items)
    return sum(CHIPS.get(item, 0) for item in items) + (5 if kings and queens else 0)


@st.composite
def tricks_for(draw, seats, deck):
    """Trick points and (maybe) tricks won that agree: no tricks, no points; all tricks, all points."""
    sides = SIDES[seats]
    per_hand, total = TRICKS_PER_HAND[deck][seats], TRICK_POINTS[deck]
    won = dict(zip(sides, draw(split(per_hand, len(sides))), strict=True))
    takers = [side for side in sides if won[side] > 0]
    points = dict.fromkeys(sides, 0)
    points.update(zip(takers, draw(split(total, len(takers))), strict=True))
    return points, (won if draw(st.booleans()) else None)


@st.composite
def split(draw, total, parts):
    """`total` cut into `parts` non-negative whole numbers."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


@st.composite
def hands(draw, game):
    seats, deck, chips_in_play = game["seats"], game["deck"], game["chips_in_play"]
    kinds = ["played", "played", "conceded"]
    if chips_in_play:
        kinds.append("passed")
    if seats == 2:
        kinds.append("nobid")
    kind = draw(st.sampled_from(kinds))
    if kind == "passed":
        return {"passed": True}
    hand = {}
    bidder = None
    if kind != "nobid":
        bidder = draw(st.sampled_from(SEATS[seats]))
        hand["bidder"] = bidder
        hand["bid"] = draw(legal_bids(game["min_bid"], deck))
    if chips_in_play or draw(st.booleans()):
        hand["trump"] = draw(st.sampled_from(SUITS))
    if not chips_in_play and draw(st.booleans()):
        hand["meld_points"] = draw(st.dictionaries(st.sampled_from(SIDES[seats]), st.integers(0, 300)))
    else:
        others = [seat for seat in SEATS[seats] if seat != bidder]
        showers = [bidder] if bidder else []
        showers += draw(st.lists(st.sampled_from(others), max_size=2 - len(showers), unique=True))
        needs = game["needs_trump_marriage"]
        hand["melds"] = {
            seat: draw(seat_melds(deck, needs_trump_marriage=needs and seat == bidder)) for seat in showers
        }
    if kind == "conceded":
        hand["conceded"] = True
    else:
        tricks, won = draw(tricks_for(seats, deck))
        hand["tricks"] = tricks
        if won is not None:
            hand["tricks_won"] = won
    return hand


@st.composite
def games(draw):
    seats, variant, deck = draw(st.sampled_from(TABLES))
    record = {"seats": seats, "variant": variant, "deck": deck}
    default_min = 20 if deck == "single" else 50
    min_bid = draw(st.one_of(st.none(), st.integers(default_min - 10, default_min + 10)))
    record["min_bid"] = min_bid
    record["target"] = draw(st.sampled_from([None, 99999, 200, 300]))
    record["first_dealer"] = draw(st.sampled_from(SEATS[seats]))
    record["options"] = {"meld_needs_trick": draw(st.booleans())}
    game = {
        "seats": seats,
        "deck": deck,
        "chips_in_play": variant == "check" and deck == "single",
        "needs_trump_marriage": variant == "check" or deck == "double",
        "min_bid": default_min if min_bid is None else min_bid,
    }
    record["hands"] = draw(st.lists(hands(game), min_size=1, max_size=12))
    extra = draw(hands(game))
    return up_to_the_end(record), extra


def up_to_the_end(record):
    """Drop the hands the engine refuses as coming after the end of the game."""
    try:
        score_record(record)
    except RecordError as error:
        assert error.field == "hands", str(error)  # the generator makes only valid hands
        assert str(error).endswith("no hand may be recorded after the end")
        assert error.hand is not None
        record = dict(record, hands=record["hands"][: error.hand - 1])
    return record


def expected_hand(hand, record):
    """Points and chips of one hand worked out from docs/rules.md, independently of the engine."""
    seats, deck = record["seats"], record["deck"]
    sides = SIDES[seats]
    chips_in_play = record["variant"] == "check" and deck == "single"
    zero = dict.fromkeys(sides, 0)
    if hand.get("passed"):
        return zero, zero
    meld, meld_chips = dict(zero), dict(zero)
    if "meld_points" in hand:
        meld.update(hand["meld_points"])
    for seat, items in hand.get("melds", {}).items():
        meld[side_of(seat, seats)] += seat_points(items)
        meld_chips[side_of(seat, seats)] += seat_chips(items)
    tricks = hand.get("tricks", zero)
    if record["options"]["meld_needs_trick"] and not hand.get("conceded"):
        took = hand.get("tricks_won", tricks)
        meld = {side: meld[side] if took[side] > 0 else 0 for side in sides}
    points = {side: meld[side] + tricks[side] for side in sides}
    won = dict(meld_chips)
    if "bidder" in hand:
        bidders, bid = side_of(hand["bidder"], seats), hand["bid"]
        made = not hand.get("conceded") and points[bidders] >= bid
        if not made:
            points[bidders] = -bid
        contract = 2 if bid <= 24 else 4 + 3 * ((bid - 25) // 5)
        if made:
            won[bidders] += contract
        else:
            for side in sides:
                if side != bidders:
                    won[side] += 2 * contract
    for side, count in hand.get("tricks_won", {}).items():
        if count == TRICKS_PER_HAND[deck][seats]:
            won[side] += 5
    if not chips_in_play:
        return points, zero
    a, b = sides
    return points, {a: won[a] - won[b], b: won[b] - won[a]}


@PROPERTY_SETTINGS
@given(games())
def test_it_scores_every_hand_as_the_rule_book_says(generated):
    record, _ = generated
    result = score_record(record)
    assert len(result["hands"]) == len(record["hands"])
    for hand, scored in zip(record["hands"], result["hands"], strict=True):
        points, chips = expected_hand(hand, record)
        assert scored["points"] == points
        assert scored["chips"] == chips


@PROPERTY_SETTINGS
@given(games())
def test_its_chips_always_sum_to_zero(generated):
    record, _ = generated
    result = score_record(record)
    for hand in result["hands"]:
        assert sum(hand["chips"].values()) == 0
        assert sum(hand["chip_totals"].values()) == 0
    assert sum(result["result"]["game_chips"].values()) == 0
    assert sum(result["result"]["chips"].values()) == 0
    if not result["chips_in_play"]:
        assert set(result["result"]["chips"].values()) == {0}


@PROPERTY_SETTINGS
@given(games())
def test_its_running_totals_are_the_sums_of_the_hand_points(generated):
    record, _ = generated
    result = score_record(record)
    totals = dict.fromkeys(result["sides"], 0)
    chip_totals = dict.fromkeys(result["sides"], 0)
    for hand in result["hands"]:
        for side in result["sides"]:
            totals[side] += hand["points"][side]
            chip_totals[side] += hand["chips"][side]
        assert hand["totals"] == totals
        assert hand["chip_totals"] == chip_totals
    assert result["result"]["scores"] == totals
    final = {side: chip_totals[side] + result["result"]["game_chips"][side] for side in result["sides"]}
    assert result["result"]["chips"] == final


@PROPERTY_SETTINGS
@given(games())
def test_set_bidders_score_exactly_minus_the_bid(generated):
    record, _ = generated
    result = score_record(record)
    for hand, scored in zip(record["hands"], result["hands"], strict=True):
        if scored["result"] in ("set", "conceded"):
            bidders = side_of(hand["bidder"], record["seats"])
            assert scored["points"][bidders] == -hand["bid"]
        if scored["result"] == "made":
            bidders = side_of(hand["bidder"], record["seats"])
            assert scored["points"][bidders] >= hand["bid"]


@PROPERTY_SETTINGS
@given(games())
def test_the_trick_points_of_a_played_hand_add_up_to_25_or_50(generated):
    record, _ = generated
    result = score_record(record)
    for scored in result["hands"]:
        taken = sum(scored["tricks"].values())
        if scored["result"] in ("made", "set", "nobid"):
            assert taken == TRICK_POINTS[record["deck"]]
        else:
            assert taken == 0


@PROPERTY_SETTINGS
@given(games())
def test_scoring_a_record_twice_gives_the_same_result_and_leaves_it_untouched(generated):
    record, _ = generated
    before = copy.deepcopy(record)
    first = score_record(record)
    second = score_record(record)
    assert first == second
    assert record == before


@PROPERTY_SETTINGS
@given(games())
def test_the_dealer_rotates_clockwise_every_hand(generated):
    record, _ = generated
    result = score_record(record)
    letters = SEATS[record["seats"]]
    start = letters.index(record["first_dealer"])
    assert [hand["dealer"] for hand in result["hands"]] == [
        letters[(start + n) % len(letters)] for n in range(len(result["hands"]))
    ]


@PROPERTY_SETTINGS
@given(games())
def test_a_game_ends_only_once_a_side_reaches_the_target(generated):
    record, _ = generated
    result = score_record(record)
    target, outcome = result["target"], result["result"]
    scores = outcome["scores"]
    if outcome["finished"]:
        assert scores[outcome["reached"]] >= target
        if result["chips_in_play"]:
            reached = outcome["reached"]
            (other,) = (side for side in result["sides"] if side != reached)
            lead = scores[reached] - scores[other]
            assert outcome["game_chips"][reached] == (10 + math.ceil(lead / 10) if lead > 0 else 10)
            chips = outcome["chips"]
            expected = "draw" if chips[reached] == chips[other] else max(chips, key=chips.__getitem__)
            assert outcome["winner"] == expected
        else:
            assert outcome["winner"] == outcome["reached"]
    else:
        over = [side for side in scores if scores[side] >= target]
        # Play goes on only while no side has reached the target, or those that did are level.
        assert len(over) == 0 or (len(over) >= 2 and len({scores[side] for side in over}) == 1)
        assert outcome["winner"] is None and outcome["reached"] is None


@PROPERTY_SETTINGS
@given(games())
def test_a_hand_appended_after_the_end_is_refused(generated):
    record, extra = generated
    result = score_record(record)
    longer = dict(record, hands=[*record["hands"], extra])
    if not result["result"]["finished"]:
        return
    with pytest.raises(RecordError) as caught:
        score_record(longer)
    assert caught.value.field == "hands"
    assert caught.value.hand == len(record["hands"]) + 1
    ended = len(record["hands"])
    assert str(caught.value) == (
        f"hand {ended + 1}: the game ended after hand {ended}; no hand may be recorded after the end"
    )


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["N", "E", "NE", "NS", "EW", "", "run", "aces", "hearts", "check", "double"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.text(max_size=4) | st.sampled_from(["N", "NS", "bid", "tricks"]), inner, max_size=3
        )
    ),
    max_leaves=6,
)


def places(value, path=()):
    """Every path into a parsed JSON value, the value itself included."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from places(inner, (*path, index))


@PROPERTY_SETTINGS
@given(games(), st.data())
def test_it_refuses_a_spoiled_record_with_a_one_line_record_error_and_nothing_else(generated, data):
    record = copy.deepcopy(generated[0])
    path = data.draw(st.sampled_from(list(places(record))))
    value = data.draw(JSON_VALUES)
    if not path:
        record = value
    else:
        parent = record
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(parent, dict) and data.draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    try:
        score_record(record)
    except RecordError as error:
        assert "\n" not in str(error)
        assert error.message == error.message.strip()
        assert error.message
