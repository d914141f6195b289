"""What the access tests share: the clubs and password of the personas (made by the root conftest's
`people` fixture: alice organises CLUB, bob scores for it, charlie is a member, dave organises
OTHER_CLUB; root, the site's superuser, when a test asks for it), games, and clients and requests
as a persona or a phone."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from clubs.models import Club, ClubRole
from scoring.devices import DEVICE_COOKIE, attach_device, remember_device
from scoring.models import Game
from scoring.permissions import grant_edit_token
from scoring.services.games import create_game
from scoring.services.hands import record_hand

CLUB = 7
OTHER_CLUB = 8
PASSWORD = "correct horse battery staple"
#: The personas' names: the root conftest's `people` fixture makes their accounts and roles.
PERSONAS = ("alice", "bob", "charlie", "dave")
#: The superuser persona's name: `people.superuser()` makes the account when a test first asks.
ROOT = "root"

HAND_1: dict[str, Any] = {
    "bidder": "N",
    "bid": 25,
    "trump": "hearts",
    "meld_points": {"NS": 20, "EW": 10},
    "tricks": {"NS": 15, "EW": 10},
}
HAND_2: dict[str, Any] = {
    "bidder": "E",
    "bid": 25,
    "trump": "spades",
    "meld_points": {"NS": 20, "EW": 10},
    "tricks": {"NS": 15, "EW": 10},
}


def signed_in(person: str | User, address: str = "127.0.0.1") -> Client:
    """A test client signed in as `person`: a User, a persona's name (the test asks for `people`,
    which makes them), or another name, made here as a plain account with no role."""
    if isinstance(person, User):
        user = person
    elif person in PERSONAS:
        made = User.objects.filter(username=person).first()
        assert made is not None, f"{person} is a persona: the test asks for the `people` fixture"
        user = made
    else:
        user = User.objects.get_or_create(username=person)[0]
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


class People(Mapping[str, User]):
    """The personas' accounts by name (`people["alice"]`) and clients signed in as them, as the root
    conftest's `people` fixture gives them. A test that makes a club of its own and needs a role in
    it says so: `people.organiser_of(club)` makes alice its organiser and returns her client
    (`scorer_of` bob, `member_of` charlie). Nothing grants a role the test did not ask for.

    root, the site's superuser (`people.superuser()`, `people[ROOT]`, `people.client(ROOT)`), exists
    only in the tests that ask for it: a superuser reads and organises every club, and a test that
    did not ask must not meet one."""

    def __init__(self, users: dict[str, User]) -> None:
        self.users = users

    def __getitem__(self, name: str) -> User:
        if name == ROOT:
            return self.superuser()
        return self.users[name]

    def superuser(self) -> User:
        """root, the site's superuser (made on the first call), whose password is PASSWORD."""
        root = User.objects.filter(username=ROOT).first()
        if root is None:
            root = User.objects.create_superuser(ROOT, f"{ROOT}@example.org", PASSWORD)
        return root

    def __iter__(self) -> Iterator[str]:
        return iter(self.users)

    def __len__(self) -> int:
        return len(self.users)

    def client(self, name: str, address: str = "127.0.0.1") -> Client:
        """A test client signed in as the persona `name`."""
        return signed_in(self[name], address)

    def grant(self, name: str, role: str, *clubs: Club | int) -> Client:
        """Give persona `name` the club role `role` in each of `clubs` (Club or pk); their client."""
        for club in clubs:
            club_id = club if isinstance(club, int) else club.pk
            ClubRole.objects.update_or_create(user=self[name], club_id=club_id, defaults={"role": role})
        return self.client(name)

    def organiser_of(self, *clubs: Club | int) -> Client:
        """alice's client, alice made an organiser of each of `clubs` (she organises CLUB already)."""
        return self.grant("alice", ClubRole.Role.ORGANISER, *clubs)

    def scorer_of(self, *clubs: Club | int) -> Client:
        """bob's client, bob made a scorer of each of `clubs` (he scores for CLUB already)."""
        return self.grant("bob", ClubRole.Role.SCORER, *clubs)

    def member_of(self, *clubs: Club | int) -> Client:
        """charlie's client, charlie made a member of each of `clubs` (a member of CLUB already)."""
        return self.grant("charlie", ClubRole.Role.MEMBER, *clubs)


def make_game(*, hands: int = 0, club_id: int | None = None) -> Game:
    game = create_game(
        seats=4,
        variant="standard",
        deck="single",
        target=None,
        min_bid=None,
        first_dealer="N",
        meld_needs_trick=False,
        players={"N": "Anna", "E": "Bo", "S": "Cecilia", "W": "David"},
    )
    for number, data in enumerate([HAND_1, HAND_2][:hands], start=1):
        record_hand(game=game, number=number, data=data)
    return in_club(game, club_id)


def in_club(game: Game, club_id: int | None) -> Game:
    """File the game in club `club_id` (made if it does not exist yet)."""
    if club_id is not None:
        Club.objects.get_or_create(pk=club_id, defaults={"name": f"Club {club_id}"})
        game.club_id = club_id
        game.save(update_fields=["club"])
    return game


def edit_token_cookie(game: Game) -> tuple[str, str]:
    """(name, value) of the device cookie of a new browser holding the game's edit right, as the
    game's creating browser would get it."""
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    attach_device(request)
    grant_edit_token(request, game)
    response = HttpResponse()
    remember_device(request, response)
    return DEVICE_COOKIE, response.cookies[DEVICE_COOKIE].value


def request_as(user: User | None = None, cookies: dict[str, str] | None = None) -> HttpRequest:
    request = RequestFactory().get("/")
    request.user = user if user is not None else AnonymousUser()
    request.COOKIES.update(cookies or {})
    attach_device(request)  # as DeviceMiddleware does
    return request


def client_with_token(game: Game) -> Client:
    client = Client()
    name, value = edit_token_cookie(game)
    client.cookies[name] = value
    return client
