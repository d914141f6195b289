"""A game's settings after Start (/g/<code>/settings/): names, first dealer, target, minimum bid
and the house rule, rescored over every recorded hand, refused when the hands do not allow it,
kept in the corrections trail."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring import game_settings
from scoring.audit import Actor
from scoring.models import Game, GameSeat, Hand, HandChange, HandStat
from scoring.rules.engine import check_record
from scoring.rules.worked_example import hand as example_hand
from scoring.services.hands import record_hand
from scoring.services.results import game_record, score
from tests.helpers import PLAYERS, check_game, quick_hand, standard_game, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(table_client):
    """The scoring phone: signed in as the account that created the game."""
    return table_client


def url(game):
    return f"/g/{game.code}/settings/"


def post(game, **changes):
    """The settings form as the page draws it for the game now, with `changes` typed over it."""
    game.refresh_from_db()
    settings = score(game, []).settings
    fields = {
        "version": game_settings.version(game),
        "first_dealer": settings.first_dealer,
        "target": str(settings.target),
        "min_bid": str(settings.min_bid),
        **{f"name_{row.seat}": row.name for row in game.seat_rows.all()},
    }
    if settings.meld_needs_trick:
        fields["meld_needs_trick"] = "on"
    fields.update(changes)
    return {key: value for key, value in fields.items() if value is not None}


def rows(game):
    """Everything a settings change could write."""
    game = Game.objects.get(pk=game.pk)
    return (
        [game.target, game.min_bid, game.first_dealer, game.meld_needs_trick, game.scores, game.finished],
        list(GameSeat.objects.filter(game=game).values_list("seat", "name")),
        list(Hand.objects.filter(game=game).values_list("number", "data")),
        HandChange.objects.filter(game=game).count(),
        list(HandStat.objects.filter(game=game).values_list("number", "seat", "points")),
    )


def engine_totals(game):
    """The engine's own result for the stored record: the figures the page must agree with."""
    game.refresh_from_db()
    return check_record(game_record(game))


def played(game, *hands):
    for number, data in enumerate(hands, start=game.hand_count + 1):
        record_hand(game=game, number=number, data=data)
    game.refresh_from_db()
    return game


def test_it_shows_the_settings_as_the_table_sees_them(client):
    game = standard_game()
    response = client.get(url(game))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Game settings" in text(response)
    assert 'name="name_E" value="Bo"' in html
    assert 'name="target" value="150"' in html and 'name="min_bid" value="20"' in html
    assert 'name="first_dealer" value="N" id="id_first_dealer_0" required checked' in html


def test_the_game_page_links_to_it_for_the_scoring_phone_only(client):
    game = standard_game()
    assert f'href="/g/{game.code}/settings/"' in client.get(f"/g/{game.code}/").content.decode()
    shared = Client().get(f"/s/{game.share_code}/").content.decode()
    assert "/settings/" not in shared


def test_a_new_name_is_saved_and_kept_in_the_corrections(client):
    game = played(standard_game(), quick_hand())
    response = client.post(url(game), post(game, name_E="Bosse", save="1"))
    assert response.status_code == 302 and response["Location"] == f"/g/{game.code}/"
    assert GameSeat.objects.get(game=game, seat="E").name == "Bosse"
    page = text(client.get(f"/g/{game.code}/"))
    assert "settings were saved." in page and "E–W (Bosse & David)" in page
    change = HandChange.objects.get(game=game)
    assert change.action == "settings" and change.hand_number == 0
    assert change.old_data == {"players": {"E": "Bo"}} and change.new_data == {"players": {"E": "Bosse"}}
    history = text(client.get(f"/g/{game.code}/history/"))
    assert "Settings changed by table" in history
    assert "Name East Bo Bosse" in history


def test_a_new_first_dealer_moves_the_dealer_of_every_hand(client):
    game = played(standard_game(), quick_hand(), quick_hand(bidder="E"))
    client.post(url(game), post(game, first_dealer="W", save="1"))
    game.refresh_from_db()
    assert game.first_dealer == "W"
    result = engine_totals(game)
    assert [hand.dealer for hand in result.hands] == ["W", "N"]
    client.post(url(game), post(game, name_E="Bosse", save="1"))
    assert "Hand 3: East (Bosse) deals" in text(client.get(f"/g/{game.code}/"))
    change = HandChange.objects.filter(game=game).last()  # the older of the two: newest first
    assert change is not None
    assert change.old_data == {"first_dealer": "N"} and change.new_data == {"first_dealer": "W"}


def test_a_lower_target_ends_the_game_only_after_the_preview_said_so(client):
    # N–S 30 and 30 (20 bid made with 10 meld + 20 tricks): 60 after two hands, short of 150.
    game = played(standard_game(), quick_hand(ns_meld=10, ns_tricks=20), quick_hand(ns_meld=10, ns_tricks=20))
    before = rows(game)
    first = client.post(url(game), post(game, target="60", save="1"))
    assert first.status_code == 200
    page = text(first)
    assert "Check how the game ends with this change, then tap Save again to save it." in page
    assert "Play to: 150 → 60" in page
    assert "This change ends the game after hand 2. Winner: N–S (Anna & Cecilia)." in page
    assert rows(game) == before, "a change of the game's end is not saved before it was shown"
    confirm = first.content.decode().split('name="confirm" value="')[1].split('"')[0]
    second = client.post(url(game), post(game, target="60", save="1", confirm=confirm))
    assert second.status_code == 302
    game.refresh_from_db()
    assert game.target == 60 and game.finished and game.winner == "NS"
    result = engine_totals(game)
    assert result.finished and result.ended_after == 2 and dict(result.scores) == game.scores


def test_a_higher_target_reopens_a_finished_game(client):
    game = played(
        standard_game(target=50), quick_hand(ns_meld=10, ns_tricks=20), quick_hand(ns_meld=10, ns_tricks=20)
    )
    assert game.finished
    preview = text(client.post(url(game), post(game, target="100", preview="1")))
    assert "The game is no longer over: play goes on with hand 3, South (Cecilia) deals." in preview
    assert "Totals unchanged: N–S 60, E–W 10" in preview
    assert Game.objects.get(pk=game.pk).target != 100, "a preview writes nothing"
    confirm_page = client.post(url(game), post(game, target="100", preview="1")).content.decode()
    confirm = confirm_page.split('name="confirm" value="')[1].split('"')[0]
    client.post(url(game), post(game, target="100", save="1", confirm=confirm))
    game.refresh_from_db()
    assert game.target == 100 and not game.finished and game.winner == ""
    assert "Enter hand 3" in text(client.get(f"/g/{game.code}/"))


def test_a_target_that_would_end_the_game_before_recorded_hands_is_refused(client):
    game = played(standard_game(), *[quick_hand(ns_meld=10, ns_tricks=20)] * 3)
    before = rows(game)
    response = client.post(url(game), post(game, target="50", save="1"))
    assert response.status_code == 400
    page = text(response)
    assert "Play to: With these settings the game ends after hand 2, but hands up to 3 are recorded." in page
    assert rows(game) == before


def test_a_minimum_bid_above_a_recorded_bid_is_refused_naming_the_hand(client):
    game = played(standard_game(), quick_hand(bid=25), quick_hand(bid=21), quick_hand(bid=30))
    before = rows(game)
    response = client.post(url(game), post(game, min_bid="22", name_E="Bosse", save="1"))
    assert response.status_code == 400
    assert "Minimum bid: Hand 2: Bid 21 is below the minimum bid of 22" in text(response)
    assert rows(game) == before, "nothing is written, not even the new name"


def test_the_house_rule_rescores_every_hand_as_the_engine_does(client):
    # E–W take no trick point in hand 1 but show 10 meld: with "meld needs a trick" it is lost.
    hand = {"bidder": "N", "bid": 20, "meld_points": {"NS": 10, "EW": 10}, "tricks": {"NS": 25, "EW": 0}}
    game = played(standard_game(), hand, quick_hand())
    assert game.scores == {"NS": 35 + 25, "EW": 10 + 10}
    preview = text(client.post(url(game), post(game, meld_needs_trick="on", preview="1")))
    assert "House rule: meld needs a trick: no → yes" in preview
    assert "Totals: N–S 60 → 60, E–W 20 → 10" in preview
    client.post(url(game), post(game, meld_needs_trick="on", save="1"))
    game.refresh_from_db()
    assert game.meld_needs_trick
    result = engine_totals(game)
    assert game.scores == dict(result.scores) == {"NS": 60, "EW": 10}
    assert sorted(HandStat.objects.filter(game=game, number=1).values_list("seat", "points")) == [
        ("E", 0),
        ("N", 35),
        ("S", 35),
        ("W", 0),
    ]


def test_check_pinochle_chips_follow_a_new_target(client):
    worked = [example_hand(number) for number in (1, 2, 3)]
    game = played(check_game(), *worked)
    old = engine_totals(game)
    target = old.scores["EW"]  # E–W reach it with the last hand: the game ends there
    assert not old.finished
    first = client.post(url(game), post(game, target=str(target), preview="1"))
    confirm = first.content.decode().split('name="confirm" value="')[1].split('"')[0]
    client.post(url(game), post(game, target=str(target), save="1", confirm=confirm))
    game.refresh_from_db()
    new = engine_totals(game)
    assert new.finished and game.finished and new.ended_after == 3
    assert game.chip_totals == dict(new.chips) != dict(old.chips)
    assert new.game_chips["EW"] > 0 and new.winner in ("EW", "NS", "draw")


def test_nothing_to_change_writes_nothing(client):
    game = played(standard_game(), quick_hand())
    before = rows(game)
    response = client.post(url(game), post(game, save="1"), follow=True)
    assert "Nothing to change: the settings are already as shown." in text(response)
    assert rows(game) == before


def test_a_double_tap_of_save_writes_once(client):
    game = played(standard_game(), quick_hand())
    form = post(game, target="200", name_N="Annie", save="1")
    assert client.post(url(game), form).status_code == 302
    again = client.post(url(game), form, follow=True)  # the answer the phone shows: saved
    assert "settings were saved." in text(again)
    assert HandChange.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.target == 200


def test_a_save_after_another_phone_wrote_is_refused_and_shown_against_the_game_now(client):
    game = played(standard_game(), quick_hand())
    form = post(game, target="200", save="1")
    record_hand(game=game, number=2, data=quick_hand(bidder="E"))  # the other phone
    before = rows(game)
    response = client.post(url(game), form)
    assert response.status_code == 400
    assert "Nothing changed: another phone changed this game a moment ago." in text(response)
    assert rows(game) == before
    # The page now carries the game's new version: saving again is saving what it shows.
    html = response.content.decode()
    version = html.split('name="version" value="')[1].split('"')[0]
    assert client.post(url(game), {**form, "version": version}).status_code == 302
    assert Game.objects.get(pk=game.pk).target == 200


def test_bad_input_names_the_field_and_writes_nothing(client):
    game = played(standard_game(), quick_hand())
    before = rows(game)
    response = client.post(
        url(game), post(game, target="0", min_bid="x", first_dealer="Q", name_N="A" * 101, save="1")
    )
    assert response.status_code == 400
    page = text(response)
    assert "Play to: Ensure this value is greater than or equal to 1." in page
    assert "Minimum bid: Enter a whole number." in page
    assert "First dealer: Select a valid choice." in page
    assert "North: Ensure this value has at most 100 characters" in page
    assert rows(game) == before


def test_a_three_seat_game_offers_its_three_seats_only(client):
    game = standard_game(seats=3)
    html = client.get(url(game)).content.decode()
    assert 'name="name_S"' in html and 'name="name_W"' not in html
    response = client.post(url(game), post(game, first_dealer="W", save="1"))
    assert response.status_code == 400
    assert Game.objects.get(pk=game.pk).first_dealer == "N"


def test_a_phone_without_the_right_cannot_change_settings():
    game = played(standard_game(), quick_hand())
    before = rows(game)
    stranger = Client()
    assert stranger.get(url(game)).status_code == 403
    response = stranger.post(url(game), post(game, target="60", save="1"))
    assert response.status_code in (302, 403)
    assert rows(game) == before


def test_a_change_made_by_the_service_names_who_made_it():
    game = played(standard_game(), quick_hand())
    game_settings.change_settings(
        game=game,
        new=game_settings.NewSettings(
            players=PLAYERS, first_dealer="S", target=None, min_bid=None, meld_needs_trick=False
        ),
        expected=game_settings.version(game),
        actor=Actor.device(),
    )
    change = HandChange.objects.get(game=game)
    assert change.actor_name() == "the scoring phone"
    assert game.first_dealer == "S", "the caller's game holds the stored settings"


def test_a_change_reads_the_game_once_under_its_lock_and_after_another_phones_save():
    game = played(standard_game(), quick_hand())
    stale = Game.objects.get(pk=game.pk)
    record_hand(game=game, number=2, data=quick_hand(bidder="E"))  # another phone, meanwhile
    new = game_settings.NewSettings(
        players=PLAYERS, first_dealer="S", target=None, min_bid=None, meld_needs_trick=False
    )
    with CaptureQueriesContext(connection) as queries:
        game_settings.change_settings(game=stale, new=new, expected=None, actor=None)
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT") and 'FROM "scoring_game"' in q["sql"]]
    assert len(reads) == 1, reads  # the lock's read of the row: what the change starts from
    assert stale.hand_count == 2 and stale.first_dealer == "S"
    assert Game.objects.get(pk=game.pk).hand_count == 2


def test_a_hand_saved_with_a_stale_game_is_scored_with_the_new_settings():
    game = played(standard_game(), quick_hand(ns_meld=10, ns_tricks=20))
    stale = Game.objects.get(pk=game.pk)  # the save's view read the game before the change
    game_settings.change_settings(
        game=game,
        new=game_settings.NewSettings(
            players=PLAYERS, first_dealer="N", target=60, min_bid=None, meld_needs_trick=False
        ),
        expected=None,
        actor=None,
    )
    record_hand(game=stale, number=2, data=quick_hand(ns_meld=10, ns_tricks=20))
    game.refresh_from_db()
    assert game.finished and game.target == 60


def test_the_default_typed_over_an_empty_field_stays_the_rule_books(client):
    game = played(standard_game(), quick_hand())
    client.post(url(game), post(game, target="150", min_bid="20", name_N="Annie", save="1"))
    game.refresh_from_db()
    assert (game.target, game.min_bid) == (None, None), "still the rule book's defaults"
    assert HandChange.objects.get(game=game).new_data == {"players": {"N": "Annie"}}


def test_a_house_rule_that_would_end_the_game_before_recorded_hands_is_refused_next_to_it(client):
    # With "meld needs a trick", E–W's 60 meld without a trick count for nothing; without it they
    # would reach 100 after hand 2, before hand 3 (where N–S reach 105) was played.
    hand = {"bidder": "N", "bid": 20, "meld_points": {"NS": 10, "EW": 60}, "tricks": {"NS": 25, "EW": 0}}
    game = played(standard_game(target=100, meld_needs_trick=True), hand, hand, hand)
    assert game.finished and game.scores == {"NS": 105, "EW": 0}
    before = rows(game)
    fields = post(game, save="1")
    del fields["meld_needs_trick"]  # the box unticked
    response = client.post(url(game), fields)
    assert response.status_code == 400
    assert (
        "House rule: meld needs a trick: With these settings the game ends after hand 2, but hands up to 3 "
        "are recorded." in text(response)
    )
    assert rows(game) == before


def test_the_preview_calls_the_chips_final_only_when_the_game_is_over_after_the_change(client):
    worked = [example_hand(number) for number in (1, 2, 3)]
    game = played(check_game(), *worked)
    still_open = text(client.post(url(game), post(game, first_dealer="E", preview="1")))
    assert "Chips: N–S" in still_open and "Final chips:" not in still_open
    target = engine_totals(game).scores["EW"]  # E–W reach it with the last hand: the game ends there
    ending = text(client.post(url(game), post(game, target=str(target), preview="1")))
    assert "Final chips: N–S" in ending
