"""Look-alike usernames: a name that mixes alphabets ("оrgA" with a Cyrillic о) or that reads the
same as an existing one once confusable characters are folded (Unicode TR39's skeleton), using the
Unicode confusables data shipped by `confusable_homoglyphs`.

TR39 maps each confusable character to one prototype ("I", "1" and "|" to "l"; "0" to "O"; "m" to
"rn"). The package's data lists, for every character, the characters it is confused with in both
directions, so the prototype classes are rebuilt here as the connected groups of those pairs (in
TR39 they are stars around one prototype, so nothing more is joined). A few look-alikes that the
confusables data leaves out because they differ in case or are two letters are added
(`EXTRA_PAIRS`, `EXTRA_SEQUENCES`).

Letter case needs care: the skeleton is case-sensitive ("aIice" reads "alice" because a capital I
looks like a small l), while two names that differ only in case must collide too ("ALICE",
"alice"). Folding case first loses the capital I ("aIice" would read "aiice"); folding only
after the skeleton makes "Ian" read "lan", which then no longer collides with "ian". So a name has
two keys (`skeleton_keys`): its case-folded skeleton, and the
case-folded reading of its skeleton. Two names look alike when they share a key.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

#: Look-alikes the confusables data does not join: the digit 0 and a small o (the data joins 0
#: with a capital O only), and two letters that read as one ("vv" as "w").
EXTRA_PAIRS: tuple[tuple[str, str], ...] = (("0", "o"),)
EXTRA_SEQUENCES: dict[str, str] = {"w": "vv"}

#: The package marks right-to-left characters with these, which are not part of them.
_DIRECTION_MARKS = "\u200e\u200f"


def _find(parent: dict[str, str], char: str) -> str:
    while parent.setdefault(char, char) != char:
        parent[char] = parent[parent[char]]
        char = parent[char]
    return char


def _representative(members: list[str]) -> str:
    """The character a class is written as: a small ASCII letter if it has one, else an ASCII
    character, else its lowest code point (so "O", "0" and "o" are all written "o")."""

    def rank(char: str) -> tuple[bool, bool, int]:
        return (not (char.isascii() and char.islower()), not char.isascii(), ord(char))

    return min(members, key=rank)


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, str], dict[str, str]]:
    """(single character → its class's representative, character → the sequence it reads as)."""
    parent: dict[str, str] = {}
    sequences: dict[str, str] = dict(EXTRA_SEQUENCES)
    for key, found in confusables.confusables_data.items():
        char = key.strip(_DIRECTION_MARKS)
        if len(char) != 1:
            continue
        for item in found:
            other = item["c"].strip(_DIRECTION_MARKS)
            if len(other) == 1:
                parent[_find(parent, other)] = _find(parent, char)
            elif len(other) > 1:
                sequences.setdefault(char, other)
    for first, second in EXTRA_PAIRS:
        parent[_find(parent, second)] = _find(parent, first)
    classes: dict[str, list[str]] = {}
    for char in list(parent):
        classes.setdefault(_find(parent, char), []).append(char)
    single: dict[str, str] = {}
    for members in classes.values():
        written = _representative(members)
        for char in members:
            single[char] = written
    return single, sequences


@lru_cache(maxsize=8192)
def _fold(char: str) -> str:
    """What one character reads as, in prototypes ("m" → "rn", "I" → "l", "𝟎" → "o")."""
    single, sequences = _tables()
    reading = sequences.get(char)
    if reading is None:
        reading = sequences.get(single.get(char, char), char)
    return "".join(single.get(part, part) for part in reading)


def skeleton(name: str) -> str:
    """How a name reads, case kept: NFKC, then each character folded to its prototype."""
    return "".join(_fold(char) for char in unicodedata.normalize("NFKC", name))


def skeleton_keys(name: str) -> frozenset[str]:
    """The keys a name is compared by: its case-folded skeleton ("ALICE" and "alice" collide)
    and its skeleton read case-folded ("aIice" reads "alice"). Two names look alike when they
    share one."""
    return frozenset({folded_skeleton(name), skeleton(skeleton(name).casefold())})


def folded_skeleton(name: str) -> str:
    """The name's skeleton without letter case: the key the sign-up throttle counts a name by."""
    return skeleton(unicodedata.normalize("NFKC", name).casefold())


def looks_alike(name: str, other: str) -> bool:
    return not skeleton_keys(name).isdisjoint(skeleton_keys(other))


def scripts_mixed(name: str) -> list[str]:
    """The alphabets a name mixes (e.g. ["CYRILLIC", "LATIN"]), or [] when it uses one. Common
    characters (digits, spaces) and combining marks (Inherited: the accent of "Bo\u0301b", as a
    phone or a Mac may send "Bób") belong to no alphabet of their own."""
    scripts = categories.unique_aliases(name) - {"COMMON", "INHERITED"}
    return sorted(scripts) if len(scripts) > 1 else []
