"""QR codes for links a phone should open (the handover link), as inline SVG.

segno is a pure-Python, dependency-free QR encoder; its SVG uses no style attributes, so it passes
the Content-Security-Policy.
"""

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def qr_svg(text: str, *, title: str, scale: int = 4) -> SafeString:
    """An <svg> element drawing `text` as a QR code; `title` is its accessible name."""
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=scale, border=4, omitsize=True, svgclass="qr", lineclass=None, title=None)
    # segno writes the title unescaped; put our own, escaped, in its place.
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(title)}" ', 1)
    return mark_safe(svg)  # segno's own markup plus our escaped label
