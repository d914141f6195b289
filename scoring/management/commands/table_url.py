"""Print the address phones at the table open, with a QR code in the terminal (`make run`)."""

from __future__ import annotations

import io
from typing import Any

import segno
from django.core.management.base import BaseCommand, CommandParser

from scoring.management.lan import private_addresses


class Command(BaseCommand):
    help = "Print the URL (and a QR code) that phones on the same Wi-Fi open."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    def handle(self, *args: Any, **options: Any) -> None:
        host, port = options["host"], options["port"]
        if host not in ("0.0.0.0", "::"):
            self.stdout.write(f"Open http://{host}:{port}/ (this machine only; HOST=0.0.0.0 for phones)")
            return
        addresses = private_addresses()
        if not addresses:
            self.stdout.write("No private network address found: is this machine on the Wi-Fi?")
            return
        url = f"http://{addresses[0]}:{port}/"
        self.stdout.write(f"Phones on the same Wi-Fi open {url}")
        for other in addresses[1:]:
            self.stdout.write(f"  (or http://{other}:{port}/)")
        self.stdout.flush()
        drawn = io.StringIO()  # whole, then written once: the wrapper would end every piece with a newline
        segno.make(url).terminal(out=drawn, compact=True)
        self.stdout.write(drawn.getvalue(), ending="")
