"""The score-progression chart of a game: both sides' totals after each hand (and the chip
balance in Check Pinochle), drawn on the server as inline SVG, no JavaScript.

The SVG scales to the page's width (viewBox, width 100%); its text is large enough to read at
360 px. Colours are attributes, not style (the site's CSP allows no inline style).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.labels import side_short
from scoring.rules.engine import GameResult
from scoring.rules.scale import shown

COLOURS = ("#0b5a2a", "#a4001a", "#1a4fa0")  # green, red, blue: one per side, AA on white
DASHES = ("", "6 4", "2 3")  # and a dash pattern, for print and colour-blind readers
WIDTH, HEIGHT = 320, 150
LEFT, RIGHT, TOP, BOTTOM = 34, 60, 10, 24


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[int]


def progression_svg(result: GameResult) -> SafeString:
    """Totals by hand (a line per side, the target dashed), then chips by hand in Check."""
    if not result.hands:
        return mark_safe("")
    sides, scale = result.settings.sides, result.settings.scale
    points = [
        Series(side_short(side), [0] + [shown(hand.totals[side], scale) for hand in result.hands])
        for side in sides
    ]
    parts = [_chart(points, _("Points after each hand"), target=shown(result.settings.target, scale))]
    if result.settings.chips_in_play:
        # At the end the game chips are added to the last hand's balance: one more point, so the
        # line ends on the final chips of the chip table.
        final = result.finished and dict(result.chips) != dict(result.hands[-1].chip_totals)
        chips = [
            Series(
                side_short(side),
                [0]
                + [hand.chip_totals[side] for hand in result.hands]
                + ([result.chips[side]] if final else []),
            )
            for side in sides
        ]
        parts.append(
            _chart(chips, _("Chips after each hand"), target=None, last_tick=_("final") if final else None)
        )
    return mark_safe("".join(parts))


def _chart(series: list[Series], title: str, *, target: int | None, last_tick: str | None = None) -> str:
    count = len(series[0].values) - 1
    values = [value for line in series for value in line.values] + ([target] if target else [])
    low, high = min(0, *values), max(1, *values)
    span = high - low or 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + plot_w * index / max(count, 1)

    def y(value: int) -> float:
        return TOP + plot_h * (high - value) / span

    body = [
        format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#767676"/>',
            LEFT,
            _f(y(0)),
            WIDTH - RIGHT,
            _f(y(0)),
        ),
        format_html(
            '<text x="{}" y="{}" text-anchor="end" font-size="11">{}</text>', LEFT - 4, _f(y(high) + 4), high
        ),
        format_html(
            '<text x="{}" y="{}" text-anchor="end" font-size="11">{}</text>', LEFT - 4, _f(y(low) + 4), low
        ),
    ]
    # The end labels and the target's share the right margin: nudged apart so they never overlap
    # (at least 13 units between baselines); key -1 is the target's.
    marks = [(y(line.values[-1]) + 4, n) for n, line in enumerate(series)]
    if target:
        marks.append((y(target) + 4, -1))
    label_y: dict[int, float] = {}
    last = -100.0
    for base, n in sorted(marks):
        label_y[n] = max(base, last + 13)
        last = label_y[n]
    if target:
        body.append(
            format_html(
                '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#444" stroke-dasharray="2 3"/>'
                '<text x="{}" y="{}" font-size="11" fill="#444">{}</text>',
                LEFT,
                _f(y(target)),
                WIDTH - RIGHT,
                _f(y(target)),
                WIDTH - RIGHT + 3,
                _f(label_y[-1]),
                target,
            )
        )
    step = max(1, count // 8)
    ticks: dict[int, object] = {index: index for index in range(step, count + 1, step)}
    if last_tick:
        ticks.pop(count - 1, None)  # room for the word
        ticks[count] = last_tick
    for index, tick in ticks.items():
        body.append(
            format_html(
                '<text x="{}" y="{}" text-anchor="middle" font-size="11">{}</text>',
                _f(x(index)),
                HEIGHT - 8,
                tick,
            )
        )
    for number, line in enumerate(series):
        colour, dash = COLOURS[number % 3], DASHES[number % 3]
        coords = " ".join(f"{_f(x(index))},{_f(y(value))}" for index, value in enumerate(line.values))
        body.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5"{}/>'
                '<text x="{}" y="{}" font-size="12" font-weight="700" fill="{}">{} {}</text>',
                coords,
                colour,
                mark_safe(f' stroke-dasharray="{dash}"') if dash else "",
                _f(x(count) + 3),
                _f(label_y[number]),
                colour,
                line.label,
                line.values[-1],
            )
        )
    summary = "; ".join(f"{line.label}: {', '.join(str(v) for v in line.values[1:])}" for line in series)
    return format_html(
        '<figure class="chart"><svg viewBox="0 0 {} {}" width="100%" role="img" aria-label="{}">'
        "<title>{}</title>{}</svg><figcaption>{}</figcaption></figure>",
        WIDTH,
        HEIGHT,
        f"{title}. {summary}",
        title,
        mark_safe("".join(body)),
        title,
    )


def _f(value: float) -> str:
    return f"{value:.1f}"
