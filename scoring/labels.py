"""Words and symbols the pages show for seats, sides, suits and meld items (all translatable)."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

SEAT_NAMES = {"N": _("North"), "E": _("East"), "S": _("South"), "W": _("West")}
# The compass letters of the page's language: Swedish N Ö S V, Czech S V J Z (Sever, Východ, Jih,
# Západ). The engine, the stored hands and the CSV files keep the English letters.
SEAT_LETTERS = {
    "N": pgettext_lazy("seat letter", "N"),
    "E": pgettext_lazy("seat letter", "E"),
    "S": pgettext_lazy("seat letter", "S"),
    "W": pgettext_lazy("seat letter", "W"),
}

SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
#: The double deck's bid ladders (docs/rules.md, "Tens above 100 (house rule)").
BID_STEP_NAMES = {"standard": _("The rule book's steps"), "tens_above_100": _("Tens above 100")}
SUIT_NAMES = {"spades": _("Spades"), "hearts": _("Hearts"), "diamonds": _("Diamonds"), "clubs": _("Clubs")}

MELD_NAMES = {
    "run": _("Run (A 10 K Q J of trump)"),
    "double_run": _("Double run"),
    "triple_run": _("Triple run"),
    "quadruple_run": _("Quadruple run"),
    "trump_marriage": _("Trump marriage (K Q of trump)"),
    "marriage": _("Marriage (K Q, other suit)"),
    "dix": _("Dix (9 of trump)"),
    "pinochle": _("Pinochle (Q♠ J♦)"),
    "double_pinochle": _("Double pinochle"),
    "triple_pinochle": _("Triple pinochle"),
    "quadruple_pinochle": _("Quadruple pinochle"),
    "aces": _("Aces around"),
    "double_aces": _("Double aces"),
    "triple_aces": _("Triple aces"),
    "quadruple_aces": _("Quadruple aces"),
    "kings": _("Kings around"),
    "double_kings": _("Double kings"),
    "triple_kings": _("Triple kings"),
    "quadruple_kings": _("Quadruple kings"),
    "queens": _("Queens around"),
    "double_queens": _("Double queens"),
    "triple_queens": _("Triple queens"),
    "quadruple_queens": _("Quadruple queens"),
    "jacks": _("Jacks around"),
    "double_jacks": _("Double jacks"),
    "triple_jacks": _("Triple jacks"),
    "quadruple_jacks": _("Quadruple jacks"),
}


def seat_label(seat: str, players: Mapping[str, str]) -> str:
    """ "North (Anna)", or "North" when the seat has no name."""
    name = players.get(seat, "")
    return f"{SEAT_NAMES[seat]} ({name})" if name else str(SEAT_NAMES[seat])


def seat_letter(seat: str) -> str:
    """A seat's letter in the page's language ("Ö" in Swedish, "V" in Czech for "E")."""
    return str(SEAT_LETTERS[seat]) if seat in SEAT_LETTERS else seat


def side_short(side: str) -> str:
    """ "N–S" for a partnership ("S–J" in Czech, "Ö–V" in Swedish for "EW"), the seat letter otherwise."""
    if len(side) == 2 and all(seat in SEAT_LETTERS for seat in side):
        return f"{seat_letter(side[0])}–{seat_letter(side[1])}"
    return seat_letter(side)


def side_label(side: str, players: Mapping[str, str]) -> str:
    """ "N–S (Anna & Cecilia)" for a partnership, "North (Anna)" for a lone seat."""
    if len(side) == 1:
        return seat_label(side, players)
    names = [players[seat] for seat in side if players.get(seat)]
    return f"{side_short(side)} ({' & '.join(names)})" if names else side_short(side)


# The Rules page reads the same names.
MELD_LABELS = MELD_NAMES
