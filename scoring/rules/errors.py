"""Every problem the engine reports: one table of codes and their English sentences.

Each raise names a code and the values its sentence needs (`RecordError.of("tricks_total",
field="tricks", hand=3, total=24, expected=25)`); the sentence comes from `MESSAGES`, so the
wording lives here once. The web shows the same sentences in the player's language: the
sentences are the msgids of the translation catalogues (`scoring/engine_messages.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NamedTuple


def gettext_noop(message: str) -> str:
    """Marks a sentence for `makemessages` (Django's keyword) without tying the engine to Django."""
    return message


class Plural(NamedTuple):
    """A sentence with a noun that follows a count ("1 trick point", "5 trick points"): the
    English for one and for more, and the name of the value that counts. Its translations are
    `ngettext_lazy` entries in `scoring/engine_messages.py` (`PLURAL_MESSAGES`), written with
    the same English; a test holds the two alike."""

    singular: str
    plural: str
    counter: str

    def pick(self, params: Mapping[str, Any]) -> str:
        return self.singular if params[self.counter] == 1 else self.plural


#: code -> English sentence, with the values it needs as `%(name)s` (a `Plural` when a noun follows
#: a count).
MESSAGES: Final[Mapping[str, str | Plural]] = {
    # --- values of the wrong kind (mostly from imported files) ---
    "not_whole_number": gettext_noop("%(name)s must be a whole number, not %(value)s"),
    "negative": gettext_noop("%(name)s must not be negative, got %(value)s"),
    "too_low": gettext_noop("%(name)s must not be below %(low)s, got %(value)s"),
    "too_high": gettext_noop("%(name)s must be at most %(high)s, got %(value)s"),
    "not_one_of": gettext_noop("%(name)s must be one of %(choices)s, not %(value)s"),
    "not_object": gettext_noop("%(name)s must be an object, not %(value)s"),
    "not_boolean": gettext_noop("%(name)s must be true or false, not %(value)s"),
    "unknown_field": gettext_noop("%(name)s is not a field of a game record"),
    # --- the game's settings ---
    "bad_seats": gettext_noop("seats must be 2, 3 or 4, not %(value)s"),
    "check_needs_four": gettext_noop("Check Pinochle is played at 4 seats only, not %(seats)s"),
    "player_name_not_text": gettext_noop("players.%(seat)s must be a name, not %(value)s"),
    "player_name_too_long": Plural(
        "players.%(seat)s is longer than %(max)s character",
        "players.%(seat)s is longer than %(max)s characters",
        "max",
    ),
    "hands_not_list": gettext_noop("hands must be a list of hands"),
    "game_over": gettext_noop("the game ended after hand %(hand)s; no hand may be recorded after the end"),
    # --- bidding ---
    "pass_not_allowed": gettext_noop(
        "only in Check Pinochle may all four pass; in this game someone must bid"
    ),
    "passed_has_field": gettext_noop("a passed hand has no %(key)s"),
    "bidder_required": gettext_noop("every hand has a bidder in this game"),
    "nobid_conceded": gettext_noop("a hand with no bid cannot be conceded"),
    "bid_without_bidder": gettext_noop("a bid needs a bidder"),
    "bid_missing": gettext_noop("the bidder's bid is missing"),
    "bid_below_minimum": gettext_noop("bid %(bid)s is below the minimum bid of %(min_bid)s"),
    "bid_off_step": gettext_noop(
        "bid %(bid)s is off its step: above %(top)s a double-deck bid is a multiple of 5"
    ),
    "bid_off_tens": gettext_noop(
        "bid %(bid)s is off its step: above %(top)s this game's bids are multiples of %(multiple)s"
    ),
    "bid_steps_single_deck": gettext_noop(
        "%(name)s: %(value)s is a ladder of the double deck; a single-deck bid is any whole number"
    ),
    "trump_required": gettext_noop("the bidder must name trump in Check Pinochle"),
    "conceded_has_field": gettext_noop("a conceded hand is not played, so it has no %(key)s"),
    # --- tricks ---
    "tricks_missing": gettext_noop("the trick points of each side are missing"),
    "tricks_total": gettext_noop("tricks add up to %(total)s, expected %(expected)s"),
    "tricks_won_total": Plural(
        "tricks_won add up to %(total)s, expected the %(expected)s trick of a hand",
        "tricks_won add up to %(total)s, expected the %(expected)s tricks of a hand",
        "expected",
    ),
    "slam_points": Plural(
        "side %(side)s won every trick, so it took all %(points)s point",
        "side %(side)s won every trick, so it took all %(points)s points",
        "points",
    ),
    "no_trick_points": Plural(
        "side %(side)s won no trick, so it cannot have %(points)s trick point",
        "side %(side)s won no trick, so it cannot have %(points)s trick points",
        "points",
    ),
    "not_a_side": gettext_noop("%(name)s: %(key)s is not a side of this table (%(sides)s)"),
    "side_missing": gettext_noop("%(name)s: side %(side)s is missing"),
    # --- melds ---
    "meld_both": gettext_noop("give either melds or meld_points for a hand, not both"),
    "meld_points_in_check": gettext_noop(
        "plain meld points are refused in Check Pinochle, where chips depend on which melds were "
        "shown; list the meld items"
    ),
    "not_a_seat": gettext_noop("%(seat)s is not a seat of this table (%(seats)s)"),
    "trump_marriage_check": gettext_noop(
        "in Check Pinochle the bidder must hold a marriage in trump (trump_marriage, a run or a roundhouse)"
    ),
    "trump_marriage_double": gettext_noop(
        "in the double-deck game the bidder must hold a marriage in trump "
        "(trump_marriage, a run or a roundhouse)"
    ),
    "meld_not_list": gettext_noop("%(name)s must be a list of meld items"),
    "too_many_melds": Plural(
        "%(name)s lists %(count)s meld, more than a hand can hold",
        "%(name)s lists %(count)s melds, more than a hand can hold",
        "count",
    ),
    "not_meld_item": gettext_noop("%(item)s is not a meld item"),
    "meld_not_in_single_deck": gettext_noop(
        "%(item)s is not a meld in a single deck (only a double deck holds it)"
    ),
    "meld_not_in_double_deck": gettext_noop("%(item)s is not a meld in a double deck (no nines)"),
    "meld_level_twice": gettext_noop(
        "%(item)s and another %(family)s meld are listed together; list the %(family)s level once "
        "(two runs are a double_run)"
    ),
    "roundhouse_incomplete": gettext_noop(
        "kings and queens around make a roundhouse, a marriage in every suit: list three marriages "
        "and a trump_marriage (or a run) with them"
    ),
    # `card` is the card's name (the key of the web's table of card names), `cards` the same name
    # in the number `need` asks for ("trump kings"): the noun follows the count in `cards`.
    "deck_short": gettext_noop("the melds need %(need)s %(cards)s, but the deck has only %(capacity)s"),
    "deck_short_side_suits": gettext_noop(
        "the marriages and arounds need %(need)s %(cards)s, but the deck has only %(capacity)s"
    ),
    "marriages_do_not_fit": gettext_noop(
        "the marriages outside trump cannot all be placed: with the arounds and pinochles shown, the "
        "side suits have too few kings and queens left for them"
    ),
}

#: Codes whose sentence follows the offending field's name: "passed: only in Check Pinochle ...".
AFTER_FIELD: Final = frozenset(
    {
        "check_needs_four",
        "pass_not_allowed",
        "passed_has_field",
        "bidder_required",
        "nobid_conceded",
        "bid_without_bidder",
        "bid_missing",
        "trump_required",
        "conceded_has_field",
        "tricks_missing",
        "slam_points",
        "no_trick_points",
        "meld_both",
        "meld_points_in_check",
        "not_a_seat",
        "trump_marriage_check",
        "trump_marriage_double",
        "not_meld_item",
        "meld_not_in_single_deck",
        "meld_not_in_double_deck",
        "meld_level_twice",
        "roundhouse_incomplete",
        "deck_short",
        "deck_short_side_suits",
        "marriages_do_not_fit",
    }
)


def sentence(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence for `code` with its values filled in (without the field's name)."""
    message = MESSAGES[code]
    return (message.pick(params) if isinstance(message, Plural) else message) % params


class RecordError(ValueError):
    """A game record the rules refuse, with where it went wrong.

    `hand` is the 1-based hand number (None for the game's settings), `field` the dotted path of
    the offending key (`"tricks"`, `"melds.E"`, `"bid"`), and `message` a sentence a player can
    act on, which names the field itself. `str()` gives the one-line form `score_game` prints:
    `hand 3: tricks add up to 24, expected 25`.

    `code` names the kind of problem (`"tricks_total"`) and `params` the values its sentence
    needs (`{"total": 24, "expected": 25}`), so a page can say the same in the player's
    language (`scoring/engine_messages.py`); the English `message` stays the CLI's wording.
    The engine builds every error with `RecordError.of`, which takes the sentence from `MESSAGES`.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str,
        hand: int | None = None,
        code: str = "invalid",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.hand = hand
        self.code = code
        self.params: dict[str, Any] = dict(params or {})

    @classmethod
    def of(
        cls,
        code: str,
        /,
        *,
        field: str,
        hand: int | None = None,
        params: Mapping[str, Any] | None = None,
        **named: Any,
    ) -> RecordError:
        """The error `code` at `field` of `hand`, its sentence filled from the values.

        The values come as keywords; `params` is for a value whose name is taken by `field` or
        `hand` (the hand that ended the game: `params={"hand": 7}`).
        """
        values = {**params, **named} if params else named
        text = sentence(code, values)
        return cls(
            f"{field}: {text}" if code in AFTER_FIELD else text,
            field=field,
            hand=hand,
            code=code,
            params=values,
        )

    def __str__(self) -> str:
        return f"hand {self.hand}: {self.message}" if self.hand is not None else self.message
