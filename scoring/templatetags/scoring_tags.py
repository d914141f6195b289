import re
from collections.abc import Mapping
from typing import Any

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import conditional_escape, json_script
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from core.strict_input import is_game_code
from scoring.labels import SEAT_NAMES, SUIT_NAMES, seat_letter, side_short
from scoring.rules.scale import shown

register = template.Library()


@register.filter
def side(value: str) -> str:
    """ "NS" → "N–S" ("S–J" in Czech); "draw" in words; a lone seat as its letter in the page's language."""
    if value == "draw":
        return _("draw")
    return side_short(value) if value else ""


@register.filter(needs_autoescape=True)
def sides_whole(line: Any, autoescape: bool = True) -> SafeString:
    """A line about a hand ("Stav po rozdání: S–J 35 · V–Z 20") with each partnership's label in a
    span the line never breaks inside (css/app.css): browsers break a line after an en dash, which
    would leave "V–" at the end of one line and "Z" at the start of the next."""
    text = str(conditional_escape(line) if autoescape else line)
    labels = "|".join(re.escape(conditional_escape(side_short(pair))) for pair in ("NS", "EW"))
    return mark_safe(re.sub(labels, lambda label: f'<span class="side-short">{label[0]}</span>', text))


NO_BREAK = "\u00a0"


@register.filter(needs_autoescape=True)
def with_its_number(phrase: Any, autoescape: bool = True) -> SafeString:
    """A short phrase about a number ("64 to go", "chybí 64", "-4 žetony") that a line breaks only
    where no word is left on its own: the words on each side of the number are kept together, and
    kept with the number unless there are two or more of them ("64" / "to go" may take two lines;
    "64 kvar", "chybí 64" and "4 žetony" never do). In a span whose data-chars is its longest piece
    that cannot break, so that css/app.css draws it smaller where a narrow column needs it whole."""
    words = str(conditional_escape(phrase) if autoescape else phrase).split()
    figures = [i for i, word in enumerate(words) if any(c.isdigit() for c in word)]
    if not figures:
        lines = [NO_BREAK.join(words)]
    else:
        before, after = words[: figures[0]], words[figures[-1] + 1 :]
        lines = [NO_BREAK.join(before)] if len(before) > 1 else []
        line = NO_BREAK.join((before if len(before) == 1 else []) + words[figures[0] : figures[-1] + 1])
        if len(after) == 1:
            line += NO_BREAK + after[0]
        lines.append(line)
        if len(after) > 1:
            lines.append(NO_BREAK.join(after))
    longest = max((len(line) for line in lines), default=0)
    return mark_safe(f'<span class="figure-words" data-chars="{longest}">{" ".join(lines)}</span>')


@register.filter
def suit_name(value: str) -> str:
    """ "hearts" → "Hearts" in the page's language ("Hjärter", "Srdce")."""
    return str(SUIT_NAMES[value]) if value in SUIT_NAMES else value


@register.simple_tag
def language_choices() -> list[tuple[str, str]]:
    """settings.LANGUAGES as written there, each language named in itself and never translated.

    Unlike `{% get_available_languages %}` (which runs the names through Django's own catalogues:
    "English" becomes "anglicky").
    """
    return list(settings.LANGUAGES)


@register.filter
def get_item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """`mapping[key]`, or None: a dictionary looked up by a loop variable."""
    return mapping.get(key) if mapping else None


@register.filter
def game_url(code: str, name: str = "scoring:game") -> str:
    """The address of a game's page (`name` takes the game's code), or "" for a code no address can
    hold: the imports and restore refuse such codes, but a page that lists games must not fail on
    one written into the database by other means (a hand-edited row)."""
    return reverse(name, kwargs={"code": code}) if is_game_code(code) else ""


@register.simple_tag
def table_strings() -> str:
    """What the scripts at the table say (static/js/outbox-view.js, table.js, logout.js, app.js's
    "range" and "no-preview"), in the page's language, as a JSON script element (`{number}` stands for a hand
    number, `{count}` for a count; static/js/app.js fills them in)."""
    strings = {
        "online": _("Online"),
        "offline": _("Offline"),
        "sending": _("Sending hand {number}…"),
        "queued": _(
            "Offline: hand {number} is kept on this phone and will be sent when the network is back."
        ),
        "retrying": _("Hand {number} not confirmed — retrying."),
        "refused": _(
            "Hand {number} was not accepted by the server. It is kept on this phone: reload the page, "
            "then save it again or discard it."
        ),
        "held": _(
            "Hand {number} has a question for you: it was already saved, with other values. Your "
            "values are shown below and kept on this phone. The question comes back here when the "
            "network is back; saving is off until you answer it."
        ),
        "answer-held": _(
            "Your answer to the question about hand {number} is not confirmed yet. It is sent again "
            "when this page opens and when the network is back; saving is off until then."
        ),
        "pending": _("Waiting to be sent: {count}"),
        "draft": _("Draft restored"),
        "discard": _("Discard"),
        "unsent": _(
            "Hands not yet sent from this phone: {count}. If you log out now they may never be "
            "saved. Stay signed in until the network is back and they have been sent."
        ),
        "range": _("{field}: enter a whole number from {min} to {max}."),
        "no-preview": _(
            "No preview without the network: the points are worked out when the hand is saved. "
            "Save keeps the hand on this phone until the network is back."
        ),
        "stay": _("Stay signed in"),
        "leave": _("Log out anyway"),
    }
    return json_script(strings, "table-strings")


@register.filter
def saved_hand(message: Any) -> int | None:
    """The hand number a "Hand N saved." message is about (its "saved-hand-N" tag), else None."""
    for tag in (getattr(message, "extra_tags", "") or "").split():
        if tag.startswith("saved-hand-") and tag[11:].isdecimal():
            return int(tag[11:])
    return None


@register.filter(name="seat_letter")
def seat_letter_filter(seat: str) -> str:
    """The seat's letter in the page's language ("E" → "V" in Czech)."""
    return seat_letter(seat)


@register.filter
def seat_name(seat: str) -> str:
    """The seat's name in the page's language ("N" → "North")."""
    return str(SEAT_NAMES.get(seat, seat))


@register.filter
def points(value: Any, scale: Any = 1) -> Any:
    """A stored point figure as the table sees it at the game's scale (points ×10, a house rule):
    `{{ side.total|points:board.settings.scale }}`. Anything but a whole number is left as it is."""
    if isinstance(value, int) and not isinstance(value, bool) and isinstance(scale, int):
        return shown(value, scale)
    return value
