"""Every message that counts something has plural forms (Czech has three, Swedish two).

The committed catalogues hold every message of the code (Python, templates, and the words the
pages hand to static/js: `tests/test_i18n_catalogues.py` checks that against a fresh
`makemessages`), so reading one catalogue sees them all. A message "carries a count" when

- one of its placeholders is named like a count (`%(count)s`, `%(counter)s`, `%(n)s`, `{count}`),
  or is a bare `%d`; or
- a countable noun follows a placeholder, with at most one word between them that is not an
  article ("%(total)s games", "%(points)s trick points", "%(count)s new names").

Numbers that are labels rather than counts do not match: "Hand %(number)d", "after hand
%(hand)s", "Round %(round)d, table %(table)d" put the noun *before* the number, as an ordinal
name ("hand 3" is the third hand, not three hands), and a number that stands alone ("%(points)s
to go", "Trick points (%(total)s in all)") has no noun to agree with. A count with a noun that
still needs no plural form is listed in `NOT_A_PLURAL` with the reason. A price per one ("%(stake)s
a chip") is not a count either. The deck check ("the melds need %(need)s %(cards)s") puts its noun
in a placeholder of its own, which `scoring/engine_messages.py` chooses by the count (`CARD_NAMES`,
`ngettext_lazy`).
"""

from __future__ import annotations

import re
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "locale" / "cs" / "LC_MESSAGES" / "django.po"

PLACEHOLDER = r"(?:%\((?P<name>\w+)\)[sdif]|%d|\{(?P<brace>\w+)\})"
COUNT_NAMES = {"count", "counter", "n"}
NOUNS = (
    "hands?|deals?|games?|points?|chips?|tricks?|seats?|players?|melds?|characters?|minutes?|"
    "seconds?|hours?|days?|years?|names?|uploads?|cells?|columns?|digits?|rounds?|tables?|"
    "cards?|kings?|queens?|aces?|jacks?|times|people|members?|payments?|nights?|seasons?|"
    "clubs?|rows?|lines?|files?|records?|letters?|words?|entries|entry|items?"
)
#: Words that do not stand between a count and its noun ("%(stake)s a chip", "%(target)s in hand").
NOT_BETWEEN = r"(?!(?:a|an|the|per|of|and|or|to|in|on|at|after|before|from|with|for|by)\b)[\w-]+"
NOUN_AFTER = re.compile(PLACEHOLDER + r"\s+(?:" + NOT_BETWEEN + r"\s+)?(?:" + NOUNS + r")\b", re.IGNORECASE)
#: Placeholders that name someone or something, never a count ("%(dealer)s deals", "%(family)s meld").
NOT_A_COUNT = {"dealer", "name", "side", "player", "who", "item", "family", "seat", "club", "variant", "deck"}
ANY_PLACEHOLDER = re.compile(PLACEHOLDER)

#: msgid -> why it carries a number with a noun yet needs no plural form in any language.
NOT_A_PLURAL = {
    "Waiting to be sent: {count}": (
        "a label and its count after a colon: no noun agrees with the count in any language"
    ),
    "Hands not yet sent from this phone: {count}. If you log out now they may never be saved. "
    "Stay signed in until the network is back and they have been sent.": (
        "a label and its count after a colon (Czech: 'Neodeslaná rozdání z tohoto telefonu: 3')"
    ),
    "bid %(bid)s is off its step: above %(top)s this game's bids are multiples of %(multiple)s": (
        "'this game's' follows the number: a bid's limit and a step, no noun counted"
    ),
    "With a double deck, triple and quadruple arounds are worth %(triple)s and %(quadruple)s times "
    "the double.": ("a multiplier, never 1: Swedish says 'gånger' and Czech '3násobek' for every number"),
}


def counts_in(msgid: str) -> list[str]:
    """The placeholders of `msgid` that count something (see the module's docstring)."""
    found = []
    for match in ANY_PLACEHOLDER.finditer(msgid):
        name = match.group("name") or match.group("brace")
        if name is None or name in COUNT_NAMES:
            found.append(match.group(0))
    found += [
        match.group(0)
        for match in NOUN_AFTER.finditer(msgid)
        if (match.group("name") or match.group("brace")) not in NOT_A_COUNT
    ]
    return found


def test_it_sees_a_count_and_lets_a_label_be():
    assert counts_in("The game has %(count)d hands now.")
    assert counts_in("Imported %(written)s of %(total)s games…")
    assert counts_in("%(side)s needed %(need)d trick points (bid %(bid)s − meld %(meld)d).")
    assert counts_in("The list has %(count)s new names; add at most %(max)s at a time.")
    assert counts_in("Waiting to be sent: {count}")
    assert counts_in("%(size).1f MB, %d left")
    assert not counts_in("Hand %(number)d saved.")
    assert not counts_in("The game ended after hand %(hand)s; no hand may be recorded after the end")
    assert not counts_in("Round %(round)d, table %(table)d")
    assert not counts_in("%(points)s to go")
    assert not counts_in("%(item)s: at most %(top)d per seat.")
    assert not counts_in("%(name)s is larger than %(size)s MB")


def test_every_message_with_a_count_has_plural_forms():
    singular = []
    for entry in polib.pofile(str(CATALOGUE)):
        if entry.obsolete or entry.msgid_plural or entry.msgid in NOT_A_PLURAL:
            continue
        if counts_in(entry.msgid):
            singular.append(entry.msgid)
    assert singular == [], (
        "these messages count something but have one form only: use ngettext / ngettext_lazy, or "
        "{% blocktranslate count %} in a template (docs/i18n.md, 'Adding a string'):\n" + "\n".join(singular)
    )


def test_the_allow_list_names_only_messages_that_exist_and_count():
    msgids = {entry.msgid for entry in polib.pofile(str(CATALOGUE)) if not entry.obsolete}
    assert sorted(set(NOT_A_PLURAL) - msgids) == []
    assert [m for m in NOT_A_PLURAL if not counts_in(m)] == []
