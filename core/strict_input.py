"""Strict reading of numbers, text and JSON that come from outside (forms, uploads, backups).

Python's own readers are generous where a scorekeeper must not be: `int()` takes `25_0`, `+5` and
Arabic-Indic digits, `json.loads` keeps the last of two equal keys, accepts lone surrogates
(`"\\ud800"`, which no database can store) and NUL characters (PostgreSQL refuses them in text),
and raises a bare ValueError for an integer longer than 4,300 digits. The readers here refuse all
of that with a message that names the field or key.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

#: A game code as the app makes them (`secrets.token_urlsafe`): URL-safe letters, digits, - and _.
GAME_CODE = re.compile(r"[A-Za-z0-9_-]{1,16}", re.ASCII)
_WHOLE = re.compile(r"[0-9]+", re.ASCII)
_SIGNED = re.compile(r"-?[0-9]+", re.ASCII)
_SURROGATE = re.compile("[\ud800-\udfff]")
#: No number in a game record or a backup needs more digits (an id, a bid, a date part).
MAX_DIGITS = 30


def is_game_code(value: object) -> bool:
    return isinstance(value, str) and GAME_CODE.fullmatch(value) is not None


def whole_number(text: str, *, negative: bool = False) -> int | None:
    """Plain digits (and a leading minus where `negative`), surrounding blanks aside; None if not."""
    text = text.strip()
    if len(text) > MAX_DIGITS or not (_SIGNED if negative else _WHOLE).fullmatch(text):
        return None
    return int(text)


def text_problem(value: str) -> str | None:
    """What makes a text unstorable (a NUL character, a lone surrogate), or None."""
    if "\x00" in value:
        return _("it contains a NUL character")
    if _SURROGATE.search(value):
        return _("it contains a lone surrogate (not a character)")
    return None


def find_bad_text(data: Any, where: str = "") -> tuple[str, str] | None:
    """The first key or string in parsed JSON that no database can store: (where, problem)."""
    stack: list[tuple[str, Any]] = [(where, data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem:
                return path or "(top)", problem
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                problem = text_problem(key)
                if problem:
                    return f"{path}.{key!a}".lstrip("."), problem
                stack.append((f"{path}.{key}".lstrip("."), item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{index}]", item) for index, item in reversed(list(enumerate(value))))
    return None


class JsonRefused(ValueError):
    """The text is not JSON this app accepts; the message says why (and where, when known)."""

    def __init__(
        self, message: str, line: int | None = None, decode_error: json.JSONDecodeError | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.decode_error = decode_error


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JsonRefused(_("the key %(key)s appears twice in one object") % {"key": json.dumps(key)})
        out[key] = value
    return out


def _dict_if_no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`_no_duplicate_keys` in one C call while the keys differ, as they almost always do: the
    loop that names the key runs only for an object that repeats one."""
    out = dict(pairs)
    if len(out) != len(pairs):
        return _no_duplicate_keys(pairs)  # raises, naming the first key seen twice
    return out


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise JsonRefused(
            ngettext(
                "a number in the JSON has more than %(digits)s digit (%(start)s…)",
                "a number in the JSON has more than %(digits)s digits (%(start)s…)",
                MAX_DIGITS,
            )
            % {"digits": MAX_DIGITS, "start": text[:12]}
        )
    return int(text)


def _has_surrogate(text: str) -> bool:
    # isascii() is a flag Python keeps on every str: an ASCII text is not searched.
    return not text.isascii() and _SURROGATE.search(text) is not None


def _invalid(error: json.JSONDecodeError) -> JsonRefused:
    return JsonRefused(
        _("not valid JSON: %(error)s (column %(column)s)") % {"error": error.msg, "column": error.colno},
        line=error.lineno,
        decode_error=error,
    )


def loads(text: str) -> Any:
    """JSON text -> Python data, refusing duplicate keys, huge integers, NUL and lone surrogates."""
    # The reader makes a few objects per value and no reference cycles: the cycle collector,
    # paused, does not walk a large file's objects again and again while they are made.
    collecting = gc.isenabled()
    gc.disable()
    try:
        if _short_numbers_only(text):
            data = json.loads(text, object_pairs_hook=_dict_if_no_duplicate_keys)
        else:
            data = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_int=_integer)
    except json.JSONDecodeError as error:
        raise _invalid(error) from None
    except RecursionError:
        raise JsonRefused(_("the JSON is nested too deeply")) from None
    finally:
        if collecting:
            gc.enable()
    # A NUL or a surrogate gets into JSON text only as a \u escape (or raw, from text decoded with
    # surrogateescape): a large file without either is not walked.
    bad = find_bad_text(data) if "\\u" in text or _has_surrogate(text) else None
    if bad is not None:
        raise JsonRefused(_("%(where)s: %(problem)s") % {"where": bad[0], "problem": bad[1]})
    return data


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicate_keys, parse_int=_integer)
#: The same refusals for a text with no run of more than MAX_DIGITS digits (nearly every text):
#: its integers are short, so the C reader reads them without calling `_integer` for each.
_SHORT_NUMBERS_DECODER = json.JSONDecoder(object_pairs_hook=_dict_if_no_duplicate_keys)
_DIGIT_TO_ZERO = str.maketrans("123456789", "000000000")
_TOO_MANY_DIGITS = "0" * (MAX_DIGITS + 1)
_BLANK = re.compile(r"[ \t\n\r]*")


def _short_numbers_only(text: str) -> bool:
    """No run of digits an integer too long could be: then `_integer` need not see each integer
    (a run inside a string or a fraction is harmless, but the careful reader decides then)."""
    return _TOO_MANY_DIGITS not in text.translate(_DIGIT_TO_ZERO)


def iter_loads(text: str) -> Iterator[Any]:
    """`loads`, one item of a top-level array at a time (a text that is not an array: its one
    value), so a large file is never held whole as Python objects. The same refusals as `loads`,
    raised when the reading gets there: a caller that must refuse a bad file before doing anything
    reads it through once first."""
    walk = "\\u" in text or _has_surrogate(text)
    decoder = _SHORT_NUMBERS_DECODER if _short_numbers_only(text) else _DECODER
    try:
        position = _skip_blanks(text, 0)
        if not text.startswith("[", position):
            value, end = decoder.raw_decode(text, position)
            _refuse_bad_text(value, "", walk)
            yield value
        else:
            position = _skip_blanks(text, position + 1)
            index = 0
            while not (index == 0 and text.startswith("]", position)):  # not an empty array
                value, position = decoder.raw_decode(text, position)
                _refuse_bad_text(value, f"[{index}]", walk)
                yield value
                index += 1
                position = _skip_blanks(text, position)
                if text.startswith("]", position):
                    break
                if not text.startswith(",", position):
                    raise json.JSONDecodeError("Expecting ',' delimiter", text, position)
                position = _skip_blanks(text, position + 1)
            end = position + 1
        end = _skip_blanks(text, end)
        if end != len(text):
            raise json.JSONDecodeError("Extra data", text, end)
    except json.JSONDecodeError as error:
        raise _invalid(error) from None
    except RecursionError:
        raise JsonRefused(_("the JSON is nested too deeply")) from None


def _skip_blanks(text: str, position: int) -> int:
    match = _BLANK.match(text, position)
    return match.end() if match else position


def _refuse_bad_text(value: Any, where: str, walk: bool) -> None:
    bad = find_bad_text(value, where) if walk else None
    if bad is not None:
        raise JsonRefused(_("%(where)s: %(problem)s") % {"where": bad[0], "problem": bad[1]})
