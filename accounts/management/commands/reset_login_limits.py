"""`python manage.py reset_login_limits`: forget the failed logins counted against a username
(`--username`), a client address (`--address`), or every one (`--all`), so a player refused by the
login limits (accounts/lockout.py) can log in again at once instead of waiting out the window."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.lockout import normalised_username
from throttles import counter
from throttles.address import as_counted


class Command(BaseCommand):
    help = "Forget the failed logins of a username, of a client address, or all of them."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", help="the account's username (any case)")
        parser.add_argument("--address", help="the client address (an IPv6 address clears its /64)")
        parser.add_argument("--all", action="store_true", help="every username and address")

    def handle(self, *args: Any, username: str | None, address: str | None, **options: Any) -> None:
        values = {}
        if username:
            values["username"] = normalised_username(username)
        if address:
            values["address"] = as_counted(address.strip())
        if bool(values) == bool(options["all"]):
            raise CommandError("name a --username, an --address, or --all")
        cleared = counter.forget(kind="login", values=values) if values else counter.forget_all(kind="login")
        self.stdout.write(f"cleared {cleared} login counts")
