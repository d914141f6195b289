"""A rating history as an inline SVG line chart, drawn on the server: no JavaScript, no library.

The chart is 640 × 320 units in its viewBox and 100% wide on the page, so on a 360 px phone a
unit is about 0.56 px and the 20-unit labels read at about 11 px. Lines and text use
`currentColor`, so the chart follows the page's text colour (and a dark theme). Every piece of
text (title, description, axis labels, point labels) is escaped here; the caller passes
translated strings and marks the result safe. The chart is an image to assistive technology
(`role="img"`), named by its <title> and described by its <desc>.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from html import escape

WIDTH = 640
HEIGHT = 320
LEFT, RIGHT, TOP, BOTTOM = 76, 16, 16, 64
LABEL_SIZE = 20
TICK_SIZE = 18
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def nice_step(span: float, ticks: int = 4) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about `ticks` steps over `span`.

    >>> [nice_step(span) for span in (0.0, 7.0, 100.0, 900.0)]
    [1.0, 2.0, 25.0, 250.0]
    """
    if span <= 0:
        return 1.0
    raw = span / ticks
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1.0, 2.0, 2.5, 5.0, 10.0):
        if raw <= factor * power:
            return factor * power
    return 10.0 * power


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rating_chart(
    values: Sequence[float],
    *,
    title: str,
    description: str,
    x_label: str,
    y_label: str,
    point_labels: Sequence[str] | None = None,
    chart_id: str = "rating-chart",
) -> str:
    """An SVG line chart of `values` (oldest first), one marked point per value.

    `point_labels`, if given, are one per value and become each point's tooltip (e.g. "12 Mar:
    1234"). `chart_id` prefixes the ids of <title>/<desc> so two charts can share a page.
    """
    if point_labels is not None and len(point_labels) != len(values):
        raise ValueError(f"{len(point_labels)} point labels for {len(values)} values")
    if not _ID.match(chart_id):
        raise ValueError(f"chart_id {chart_id!r} is not a plain id (a letter, then letters, digits, - or _)")
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'role="img" aria-labelledby="{chart_id}-title {chart_id}-desc" class="rating-chart" '
        f'font-family="inherit" fill="currentColor">',
        f'<title id="{chart_id}-title">{escape(title)}</title>',
        f'<desc id="{chart_id}-desc">{escape(description)}</desc>',
        f'<text x="{LEFT + plot_w / 2:g}" y="{HEIGHT - 8}" font-size="{LABEL_SIZE}" '
        f'text-anchor="middle">{escape(x_label)}</text>',
        f'<text x="{LABEL_SIZE}" y="{TOP + plot_h / 2:g}" font-size="{LABEL_SIZE}" text-anchor="middle" '
        f'transform="rotate(-90 {LABEL_SIZE} {TOP + plot_h / 2:g})">{escape(y_label)}</text>',
        f'<path d="M{LEFT} {TOP}V{TOP + plot_h}H{LEFT + plot_w}" fill="none" stroke="currentColor" '
        f'stroke-opacity="0.5"/>',
    ]
    if values:
        low, high = min(values), max(values)
        step = nice_step(high - low)
        bottom = math.floor(low / step) * step
        top = math.ceil(high / step) * step
        if top == bottom:
            bottom, top = bottom - step, top + step

        def y_of(value: float) -> float:
            return TOP + plot_h * (top - value) / (top - bottom)

        def x_of(index: int) -> float:
            return LEFT + plot_w / 2 if len(values) == 1 else LEFT + plot_w * index / (len(values) - 1)

        tick = bottom
        while tick <= top + step / 1000:
            y = y_of(tick)
            parts.append(
                f'<path d="M{LEFT} {y:.1f}H{LEFT + plot_w}" stroke="currentColor" stroke-opacity="0.15"/>'
                f'<text x="{LEFT - 6}" y="{y + TICK_SIZE / 3:.1f}" font-size="{TICK_SIZE}" '
                f'text-anchor="end">{_number(tick)}</text>'
            )
            tick += step
        # Game numbers under the axis: all of a few, else the first, the last and three between.
        last = len(values) - 1
        shown = range(len(values)) if len(values) <= 8 else sorted({round(i * last / 4) for i in range(5)})
        for index in shown:
            parts.append(
                f'<text x="{x_of(index):.1f}" y="{TOP + plot_h + TICK_SIZE + 6}" font-size="{TICK_SIZE}" '
                f'text-anchor="middle">{index + 1}</text>'
            )
        points = [(x_of(index), y_of(value)) for index, value in enumerate(values)]
        parts.append(
            '<polyline fill="none" stroke="currentColor" stroke-width="3" stroke-linejoin="round" points="'
            + " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            + '"/>'
        )
        radius = 5 if len(values) <= 60 else 3
        for index, (x, y) in enumerate(points):
            tooltip = f"<title>{escape(point_labels[index])}</title>" if point_labels is not None else ""
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:g}">{tooltip}</circle>')
    parts.append("</svg>")
    return "".join(parts)
