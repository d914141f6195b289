"""Shared helpers for the translation tests: the visible text of a page, as separate segments."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_INVISIBLE = {"script", "style", "template"}


class _TextSegments(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.segments: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _INVISIBLE:
            self._skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _INVISIBLE and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip:
            self.segments.append(text)


def text_segments(html: str) -> list[str]:
    """Each run of text between tags, whitespace collapsed: what a reader sees, piece by piece."""
    parser = _TextSegments()
    parser.feed(html)
    return parser.segments


def wordy(segments: list[str]) -> set[str]:
    """The segments that hold words (numbers, dashes and punctuation need no translation)."""
    return {s for s in segments if re.search(r"[^\W\d_]{2,}", s)}
