"""Look-alike usernames: a name that mixes alphabets ("оrgA" with a Cyrillic о) or that reads the
same as an existing one once confusable characters are folded (TR39's idea of a skeleton), using
the Unicode confusables data of `confusable_homoglyphs`."""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables


@lru_cache(maxsize=4096)
def _prototype(char: str) -> str:
    """One representative of the characters `char` can be confused with: an ASCII one if there
    is one (the lowest), else the lowest code point; followed until it no longer changes."""
    seen = char
    for _step in range(4):
        found = confusables.confusables_data.get(seen, [])
        candidates = [seen, *(item["c"] for item in found if len(item["c"]) == 1)]
        ascii_ones = [c for c in candidates if c.isascii()]
        nxt = min(ascii_ones or candidates, key=ord)
        if nxt == seen:
            break
        seen = nxt
    return seen


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, case-folded, each character replaced by its prototype."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(_prototype(char) for char in folded)


def scripts_mixed(name: str) -> list[str]:
    """The alphabets a name mixes (e.g. ["CYRILLIC", "LATIN"]), or [] when it uses one."""
    if not confusables.is_mixed_script(name):
        return []
    return sorted(categories.unique_aliases(name) - {"COMMON"})
