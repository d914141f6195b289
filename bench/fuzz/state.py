"""What the seeded database holds, what one request is, and the seeding."""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.fuzz.payloads import PASSWORD


@dataclass
class State:
    """What the seeded database holds, for building requests that reach deep into the views."""

    codes: list[str]
    club_id: int
    season_id: int
    player_ids: list[int]
    share_codes: list[str] = field(default_factory=list)
    publish_code: str = ""
    game_ids: list[int] = field(default_factory=list)
    web_codes: list[str] = field(default_factory=list)
    night_id: int = 0  # a club night, drawn, its first round started
    table_tokens: list[str] = field(default_factory=list)


@dataclass
class Request:
    target: str
    method: str
    path: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    files: list[tuple[str, str, bytes]] = field(default_factory=list)
    csrf: str = "ok"  # ok, missing, wrong
    who: str = "anon"  # anon, alice (an organiser), sam (a staff organiser, refused by the admin)
    charset: str = ""  # declared in the Content-Type (the body is encoded in it when Python can)
    # A known hole: the answer must be a refusal, or exactly this status; a redirect
    # to the log-in page (the browser was signed out) cannot tell and passes.
    must_refuse: bool = False
    must_status: int = 0


def seed() -> State:
    from django.contrib.auth.models import User

    from clubs.models import Club, ClubRole, Season
    from clubs.services import add_player
    from scoring import filing
    from scoring.services.games import create_game
    from scoring.services.hands import record_hand

    club = Club.objects.create(name="Fuzz club")
    season = Season.objects.create(club=club, name="Autumn", starts_on="2026-01-01", ends_on="2026-12-31")
    players = [add_player(club=club, name=name) for name in ("Anna", "Bo", "Cecilia", "David")]
    alice = User.objects.create_user("alice", "alice@example.org", PASSWORD)
    ClubRole.objects.create(user=alice, club_id=club.pk, role=ClubRole.Role.ORGANISER)
    # sam organises the club and is staff with the admin rights of the club and game models: the
    # admin (superusers only) must still send him to its log-in page, whatever he posts.
    from django.contrib.auth.models import Permission

    sam = User.objects.create_user("sam", "sam@example.org", PASSWORD, is_staff=True)
    sam.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["clubs", "scoring"]))
    ClubRole.objects.create(user=sam, club_id=club.pk, role=ClubRole.Role.ORGANISER)
    User.objects.create_user("bob", "bob@example.org", PASSWORD)  # a name look-alike sign-ups aim at
    from clubs.services import create_invite

    create_invite(club=club, player=players[0], by=alice)  # a pending invite for the backup
    Season.objects.filter(pk=season.pk).update(publish_code="fuzzpublished")
    share_codes, game_ids = [], []
    codes = []
    hand = {
        "bidder": "N",
        "bid": 27,
        "trump": "hearts",
        "melds": {"N": ["run", "marriage"]},
        "tricks": {"NS": 15, "EW": 10},
    }
    for seats, variant in ((4, "check"), (4, "standard"), (3, "standard"), (2, "standard")):
        names = dict(zip("NESW"[:seats], ("Anna", "Bo", "Cecilia", "David"), strict=False))
        game = create_game(
            seats=seats,
            variant=variant,
            deck="single",
            target=None,
            min_bid=None,
            first_dealer="N",
            meld_needs_trick=False,
            players=names,
        )
        if seats == 4:
            for number in (1, 2, 3):
                record_hand(game=game, number=number, data=hand)
            filing.file_game(
                game=game,
                club=club,
                season=season,
                played_on=None,
                place="",
                note="",
                players=dict(zip("NESW", players, strict=True)),
            )
        codes.append(game.code)
        share_codes.append(game.share_code)
        game_ids.append(game.pk)
    import datetime

    from nights import arrivals
    from nights import rounds as night_rounds
    from nights import services as nights

    night = nights.open_night(
        club=club, season=Season.objects.get(pk=season.pk), played_on=datetime.date(2026, 3, 14),
        variant="check", deck="single",
        target=None,
        min_bid=None, meld_needs_trick=False, rounds=3, round_ends="game", hands_per_round=None,
        stake_per_chip=None, stake_per_win=None, created_by=alice,
    )  # fmt: skip
    for player in players:
        arrivals.set_checked_in(night=night, player=player, present=True)
    nights.draw_plan(night=night)
    night_rounds.start_round(night=night, round_no=1)
    return State(
        codes,
        club.pk,
        season.pk,
        [p.pk for p in players],
        share_codes=share_codes,
        publish_code="fuzzpublished",
        game_ids=game_ids,
        night_id=night.pk,
        table_tokens=list(night.tables.values_list("token", flat=True)),
    )
