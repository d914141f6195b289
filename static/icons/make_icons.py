"""Draw the app's home-screen icons as PNG files with the standard library only (zlib + struct).

A white card with a red diamond on felt green, the content inside the maskable safe zone (the
middle 80 %). Run `python static/icons/make_icons.py` after changing it; the PNGs are committed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

FELT = (11, 90, 42)
CARD = (255, 255, 255)
RED = (164, 0, 26)
HERE = Path(__file__).resolve().parent


def pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) in a unit square."""
    left, right, top, bottom, radius = 0.3, 0.7, 0.2, 0.8, 0.05
    dx = max(left + radius - x, 0.0, x - (right - radius))
    dy = max(top + radius - y, 0.0, y - (bottom - radius))
    if not (left <= x <= right and top <= y <= bottom) or dx * dx + dy * dy > radius * radius:
        return FELT
    if abs(x - 0.5) / 0.13 + abs(y - 0.5) / 0.2 <= 1.0:
        return RED
    return CARD


def png(size: int) -> bytes:
    rows = bytearray()
    for row in range(size):
        rows.append(0)  # no filter
        for column in range(size):
            rows.extend(pixel((column + 0.5) / size, (row + 0.5) / size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for size in (192, 512):
        (HERE / f"icon-{size}.png").write_bytes(png(size))
