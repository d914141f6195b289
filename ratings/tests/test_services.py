"""The stored ratings follow the games: incremental saves, recomputes, merges, deletions."""

import datetime

import pytest
from django.db import transaction
from django.db.models import ProtectedError
from django.db.models.signals import post_delete

from clubs.models import Membership, Player
from clubs.services import merge_players
from ratings import services
from ratings.compute import compute_ratings, display_rating
from ratings.models import PairRating, PlayerRating, RatingPoint
from scoring import filing
from scoring.models import Game
from scoring.services.games import delete_game
from scoring.services.hands import delete_last_hand, edit_hand, record_hand
from tests.league_data import G2, G3, H1, play, small_season

pytestmark = pytest.mark.django_db


def _stored(scope):
    players = {
        row.player_id: (row.mu, row.sigma, row.games) for row in PlayerRating.objects.filter(scope=scope)
    }
    points = sorted(
        (p.player_id, p.seq, p.game_id, p.side, p.rank, p.day, p.chips, p.mu, p.sigma)
        for p in RatingPoint.objects.filter(scope=scope)
    )
    pairs = {
        (row.player_a_id, row.player_b_id): (row.mu, row.sigma, row.games)
        for row in PairRating.objects.filter(scope=scope)
    }
    return players, points, pairs


def _fresh(scope):
    before = _stored(scope)
    services.recompute(scope)
    return before, _stored(scope)


def test_a_finished_game_rates_its_four_players_in_the_club_and_all_time():
    data = small_season()
    club_scope = services.club_scope(data["club"].pk)
    for scope in (services.ALL, club_scope):
        ratings = {
            row.player.name: row for row in PlayerRating.objects.filter(scope=scope).select_related("player")
        }
        assert {name: row.games for name, row in ratings.items()} == {
            "Åsa": 3,
            "Örjan": 3,
            "Čeněk": 3,
            "Řehoř": 3,
        }
    expected = compute_ratings(game.game for game in services.counted_games(services.ALL))
    for player_id, skill in expected.players.items():
        row = PlayerRating.objects.get(scope=services.ALL, player_id=player_id)
        assert (row.mu, row.sigma, row.display) == (
            skill.mu,
            skill.sigma,
            display_rating(skill.mu, skill.sigma),
        )


def test_saving_the_latest_game_updates_the_ratings_to_the_numbers_of_a_full_recompute():
    data = small_season()
    a, o, c, r = (data["people"][n] for n in ("Åsa", "Örjan", "Čeněk", "Řehoř"))
    play(
        variant="standard",
        seating={"N": c, "E": a, "S": o, "W": r},
        hands=[H1],
        season=data["season"],
        day=20,
    )
    for scope in (services.ALL, services.club_scope(data["club"].pk)):
        incremental, fresh = _fresh(scope)
        assert incremental == fresh
        assert len(incremental[1]) == 16


def test_the_latest_game_is_rated_alone_without_a_recompute(monkeypatch):
    data = small_season()
    a, o, c, r = (data["people"][n] for n in ("Åsa", "Örjan", "Čeněk", "Řehoř"))
    calls = []
    monkeypatch.setattr(services, "recompute", lambda scope: calls.append(scope))
    play(
        variant="standard",
        seating={"N": c, "E": a, "S": o, "W": r},
        hands=[H1],
        season=data["season"],
        day=20,
    )
    assert calls == []
    assert PlayerRating.objects.get(scope=services.ALL, player=c).games == 4


def test_correcting_a_hand_in_an_older_game_recomputes_the_ratings():
    data = small_season()
    before = _stored(services.ALL)
    g1 = data["games"][0]
    turned = {**H1, "tricks": {"NS": 2, "EW": 23}}  # NS now set: EW win the first game
    edit_hand(game=g1, number=1, data=turned)
    after, fresh = _fresh(services.ALL)
    assert after == fresh
    assert after != before
    ranks = {p.player.name: p.rank for p in RatingPoint.objects.filter(scope=services.ALL, game=g1)}
    assert ranks == {"Åsa": 1, "Čeněk": 1, "Örjan": 0, "Řehoř": 0}


def test_deleting_the_last_hand_of_an_older_game_takes_it_out_of_the_ratings():
    data = small_season()
    g3 = data["games"][2]
    g1 = data["games"][0]
    delete_last_hand(game=g1)
    assert not RatingPoint.objects.filter(game=g1).exists()
    after, fresh = _fresh(services.ALL)
    assert after == fresh
    assert PlayerRating.objects.get(scope=services.ALL, player=data["people"]["Åsa"]).games == 2
    assert RatingPoint.objects.filter(game=g3).count() == 8


def test_a_casual_game_with_an_unlinked_seat_is_not_rated():
    data = small_season()
    game = play(
        variant="standard",
        seating={"N": data["people"]["Åsa"], "E": data["people"]["Örjan"], "S": data["people"]["Čeněk"],
                 "W": data["people"]["Řehoř"]},
        hands=[],
        season=data["season"],
        day=21,
    )  # fmt: skip
    filing.link_seat(seat=game.seat_rows.get(seat="W"), player=None)
    record_hand(game=game, number=1, data=H1)
    game.refresh_from_db()
    assert game.finished
    assert not RatingPoint.objects.filter(game=game).exists()


def test_recompute_after_a_merge_equals_a_fresh_build():
    data = small_season()
    club, season = data["club"], data["season"]
    a, o, c = (data["people"][n] for n in ("Åsa", "Örjan", "Čeněk"))
    twin = Player.objects.create(name="Rehor")
    Membership.objects.create(club=club, player=twin)
    play(variant="standard", seating={"N": a, "E": o, "S": c, "W": twin}, hands=G2, season=season, day=23)
    assert PlayerRating.objects.get(scope=services.ALL, player=twin).games == 1
    merge_players(keep=data["people"]["Řehoř"], duplicate=twin)
    for scope in (services.ALL, services.club_scope(club.pk)):
        merged, fresh = _fresh(scope)
        assert merged == fresh
    assert PlayerRating.objects.get(scope=services.ALL, player=data["people"]["Řehoř"]).games == 4


def test_moving_a_game_to_another_day_rates_it_in_its_new_place_in_the_order():
    data = small_season()
    g3 = data["games"][2]
    filing.set_game_details(
        game=g3, club=data["club"], season=data["season"], played_on=datetime.date(2026, 3, 1)
    )
    after, fresh = _fresh(services.ALL)
    assert after == fresh
    assert RatingPoint.objects.get(scope=services.ALL, game=g3, player=data["people"]["Åsa"]).seq == 1


def test_the_refresh_command_gives_the_same_numbers_again(capsys):
    from django.core.management import call_command

    small_season()
    before = _stored(services.ALL)
    call_command("refresh_ratings")
    assert _stored(services.ALL) == before
    assert "all: 3 games rated" in capsys.readouterr().out


def test_a_check_pinochle_game_places_the_sides_by_chips():
    data = small_season()
    points = {
        p.player.name: (p.rank, p.chips)
        for p in RatingPoint.objects.filter(scope=services.ALL, game=data["games"][2])
    }
    assert points == {"Åsa": (1, -16), "Örjan": (1, -16), "Čeněk": (0, 16), "Řehoř": (0, 16)}
    assert G3


class _DeleteFailed(Exception):
    pass


def _fail_after_delete(sender, instance, **kwargs):
    raise _DeleteFailed


def test_a_deleted_game_is_rerated_away_in_every_scope_it_was_in():
    data = small_season()
    club_scope = services.club_scope(data["club"].pk)
    delete_game(game=data["games"][0])
    for scope in (services.ALL, club_scope):
        kept, fresh = _fresh(scope)
        assert kept == fresh
        assert data["games"][0].pk not in {point[2] for point in kept[1]}


def test_a_delete_that_fails_keeps_the_game_and_its_ratings_and_nothing_else():
    data = small_season()
    game = data["games"][0]
    scopes = (services.ALL, services.club_scope(data["club"].pk))
    before = {scope: _stored(scope) for scope in scopes}
    post_delete.connect(_fail_after_delete, sender=Game, dispatch_uid="test.fail_after_delete")
    try:
        with pytest.raises(_DeleteFailed), transaction.atomic():
            Game.objects.get(pk=game.pk).delete()  # rerated without it, then the delete fails
    finally:
        post_delete.disconnect(sender=Game, dispatch_uid="test.fail_after_delete")
    assert Game.objects.filter(pk=game.pk).exists()
    assert {scope: _stored(scope) for scope in scopes} == before
    delete_game(game=Game.objects.get(pk=game.pk))  # the next delete starts from nothing kept
    for scope in scopes:
        kept, fresh = _fresh(scope)
        assert kept == fresh
        assert kept != before[scope]


def test_a_seated_player_is_not_deleted_and_the_ratings_stay():
    data = small_season()
    scopes = (services.ALL, services.club_scope(data["club"].pk))
    before = {scope: _stored(scope) for scope in scopes}
    with pytest.raises(ProtectedError), transaction.atomic():
        data["people"]["Åsa"].delete()
    assert {scope: _stored(scope) for scope in scopes} == before
    for scope in scopes:
        kept, fresh = _fresh(scope)
        assert kept == fresh
