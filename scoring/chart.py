"""The score-progression chart of a game: both sides' totals after each hand (and the chip
balance in Check Pinochle), drawn on the server as inline SVG, no JavaScript.

The SVG scales to the page's width (viewBox, width 100%); its labels are drawn at 16 px or more
on a 360 px phone (21 units with the Large text setting), in every language: the margins are as
wide as the labels they hold. Colours are attributes, not style (the site's CSP allows no inline style).
"""

from __future__ import annotations

import math
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
#: The drawing's width in its own units: about the chart's width in CSS pixels on a 360 px phone (the
#: game-over box inside the page's margins), so a label's size in the SVG is about its size there.
WIDTH = 300
#: The labels' size in those units: as the page's small print (16 px), and larger with the site's
#: Large text setting (the page's text grows by a third; the chart is then a little narrower).
TEXT, TEXT_LARGE = 16, 21
#: A character's width as a share of the font size (digits, capitals and the en dash of a side's
#: name; bold is wider), generous so that no label is cut at the edge in any language.
CHAR, CHAR_BOLD = 0.66, 0.72


@dataclass(frozen=True)
class Series:
    label: str
    values: Sequence[int]


def progression_svg(result: GameResult, *, large: bool = False) -> SafeString:
    """Totals by hand (a line per side, the target dashed), then chips by hand in Check. `large`:
    drawn for the Large text setting, its labels a third larger."""
    if not result.hands:
        return mark_safe("")
    size = TEXT_LARGE if large else TEXT
    sides, scale = result.settings.sides, result.settings.scale
    points = [
        Series(side_short(side), [0] + [shown(hand.totals[side], scale) for hand in result.hands])
        for side in sides
    ]
    parts = [
        _chart(points, _("Points after each hand"), size=size, target=shown(result.settings.target, scale))
    ]
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
            _chart(
                chips,
                _("Chips after each hand"),
                size=size,
                target=None,
                last_tick=_("final") if final else None,
            )
        )
    return mark_safe("".join(parts))


def _width(text: object, size: int, *, bold: bool = False) -> float:
    return len(str(text)) * size * (CHAR_BOLD if bold else CHAR)


def _chart(
    series: list[Series], title: str, *, size: int, target: int | None, last_tick: str | None = None
) -> str:
    count = len(series[0].values) - 1
    values = [value for line in series for value in line.values] + ([target] if target else [])
    low, high = min(0, *values), max(1, *values)
    span = high - low or 1
    ends = [f"{line.label} {line.values[-1]}" for line in series]
    # The margins fit the labels they hold: the axis's numbers on the left; on the right each
    # side's end and the target (and half the last hand's number or word under the plot's end).
    gap = size * 0.3
    left = gap + max(_width(high, size), _width(low, size))
    right = gap + max(
        [_width(end, size, bold=True) for end in ends]
        + ([_width(target, size)] if target else [])
        + [_width(last_tick or count, size) / 2]
    )
    height = 10 * size + 10
    top, bottom = size * 0.8, size * 2
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    baseline = size * 0.35  # from a label's middle to its baseline

    def x(index: int) -> float:
        return left + plot_w * index / max(count, 1)

    def y(value: int) -> float:
        return top + plot_h * (high - value) / span

    def text(at_x: float, at_y: float, words: object, more: str = "") -> SafeString:
        return format_html(
            '<text x="{}" y="{}" font-size="{}"{}>{}</text>', _f(at_x), _f(at_y), size, mark_safe(more), words
        )

    end = ' text-anchor="end"'
    body = [
        format_html(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#767676"/>',
            _f(left),
            _f(y(0)),
            _f(left + plot_w),
            _f(y(0)),
        ),
        text(left - gap, y(high) + baseline, high, end),
        text(left - gap, y(low) + baseline, low, end),
    ]
    # The end labels and the target's share the right margin: moved apart so they never overlap (a
    # line and a little between baselines), and kept above the hands' numbers; key -1 is the target's.
    marks = [(y(line.values[-1]) + baseline, n) for n, line in enumerate(series)]
    if target:
        marks.append((y(target) + baseline, -1))
    apart, lowest = size * 1.25, top + plot_h + baseline
    label_y: dict[int, float] = {}
    last = -1e9
    for base, n in sorted(marks):
        label_y[n] = last = max(base, last + apart)
    above = lowest + apart
    for _base, n in sorted(marks, reverse=True):
        label_y[n] = above = min(label_y[n], above - apart)
    if target:
        body.append(
            format_html(
                '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#444" stroke-dasharray="2 3"/>{}',
                _f(left),
                _f(y(target)),
                _f(left + plot_w),
                _f(y(target)),
                text(left + plot_w + gap, label_y[-1], target, ' fill="#444"'),
            )
        )
    # The hands' numbers under the plot, as many as fit side by side (every second, fifth… hand in
    # a long game, counted back from the last one, which is always numbered); the chips chart's
    # last is the word for the final chips.
    room = _width(count, size) + size
    step = max(1, math.ceil(count * room / max(plot_w, 1)))
    ticks: dict[int, object] = {index: index for index in sorted(range(count, 0, -step))}
    if last_tick:
        clear = (_width(last_tick, size) + _width(count, size)) / 2 + size * 0.5
        ticks = {index: tick for index, tick in ticks.items() if x(count) - x(index) >= clear}
        ticks[count] = last_tick
    for index, tick in ticks.items():
        body.append(text(x(index), height - size * 0.3, tick, ' text-anchor="middle"'))
    for number, line in enumerate(series):
        colour, dash = COLOURS[number % 3], DASHES[number % 3]
        coords = " ".join(f"{_f(x(index))},{_f(y(value))}" for index, value in enumerate(line.values))
        body.append(
            format_html(
                '<polyline points="{}" fill="none" stroke="{}" stroke-width="2.5"{}/>{}',
                coords,
                colour,
                mark_safe(f' stroke-dasharray="{dash}"') if dash else "",
                text(x(count) + gap, label_y[number], ends[number], f' font-weight="700" fill="{colour}"'),
            )
        )
    summary = "; ".join(f"{line.label}: {', '.join(str(v) for v in line.values[1:])}" for line in series)
    return format_html(
        '<figure class="chart"><svg viewBox="0 0 {} {}" width="100%" role="img" aria-label="{}">'
        "<title>{}</title>{}</svg><figcaption>{}</figcaption></figure>",
        WIDTH,
        height,
        f"{title}. {summary}",
        title,
        mark_safe("".join(body)),
        title,
    )


def _f(value: float) -> str:
    return f"{value:.1f}"
