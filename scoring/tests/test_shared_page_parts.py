"""The game page's shared parts ({% shared %}, scoring/fragments.py) and the reads compiled once
(scoring/prepared.py): what one viewer is shown never leaks to another, and a change of the game
or of the language is drawn afresh."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import signing
from django.db import IntegrityError, transaction
from django.template import Context, Template
from django.test import Client

from scoring import devices, fragments, services, stats
from scoring.handover import token_hash
from scoring.models import Device, DeviceGame, Game, GameStat, Hand, HandStat
from scoring.prepared import Prepared, insert_row, insert_values
from scoring.rules import worked_example
from tests.access_helpers import CLUB, client_with_token, make_game, make_personas, request_as
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, save_url, text

pytestmark = pytest.mark.django_db


def _csrf(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_two_phones_share_the_drawn_parts_but_each_gets_its_own_csrf_token_and_form_id():
    game = check_game()
    scoring, second = client_with_token(game), client_with_token(game)
    for phone in (scoring, second):
        phone.handler.enforce_csrf_checks = True
    first_page = scoring.get(f"/g/{game.code}/").content.decode()
    second_page = second.get(f"/g/{game.code}/").content.decode()
    assert _csrf(first_page) != _csrf(second_page)
    ids = [
        re.search(r'name="submission_id" value="([^"]+)"', page).group(1)
        for page in (first_page, second_page)
    ]
    assert ids[0] != ids[1]
    # Each page's token is the one its own browser's cookie accepts: the save goes through.
    post = {
        **hand_post(1, WORKED_EXAMPLE),
        "csrfmiddlewaretoken": _csrf(second_page),
        "submission_id": ids[1],
    }
    assert second.post(save_url(game), post).status_code == 302
    # The other phone's token is refused with this browser's cookie.
    post = {**hand_post(2, WORKED_EXAMPLE), "csrfmiddlewaretoken": _csrf(second_page)}
    assert scoring.post(save_url(game), post).status_code == 403


def test_a_viewer_in_another_language_gets_the_parts_drawn_in_that_language():
    game = check_game()
    phone = client_with_token(game)
    assert "Enter hand 1" in text(phone.get(f"/g/{game.code}/"))
    phone.cookies["django_language"] = "sv"
    swedish = text(phone.get(f"/g/{game.code}/"))
    assert "För in giv 1" in swedish and "Ingen giv än." in swedish and "Enter hand 1" not in swedish
    phone.cookies["django_language"] = "en"
    assert "Enter hand 1" in text(phone.get(f"/g/{game.code}/"))


def test_the_read_only_viewer_never_gets_the_scoring_phones_parts():
    game = check_game()
    services.record_hand(game=game, number=1, data=worked_example.hand(1))
    scoring = client_with_token(game)
    assert 'id="hand-form"' in scoring.get(f"/g/{game.code}/").content.decode()
    shared = Client().get(f"/s/{game.share_code}/").content.decode()
    assert 'id="hand-form"' not in shared and "Edit hand 1" not in shared and "recovery-code" not in shared


def test_a_shared_part_is_drawn_once_per_key_and_afresh_without_one():
    drawn = []

    class Counter:
        def __str__(self) -> str:
            drawn.append(1)
            return f"drawn {len(drawn)}"

    template = Template('{% load scoring_tags %}{% shared "test-part" key %}{{ counter }}{% endshared %}')
    assert template.render(Context({"key": "k1", "counter": Counter()})) == "drawn 1"
    assert template.render(Context({"key": "k1", "counter": Counter()})) == "drawn 1"
    assert template.render(Context({"key": "k2", "counter": Counter()})) == "drawn 2"
    assert template.render(Context({"key": None, "counter": Counter()})) == "drawn 3"
    assert template.render(Context({"key": None, "counter": Counter()})) == "drawn 4"


def test_the_store_keeps_at_most_its_size_dropping_the_least_recently_used():
    store = fragments.FragmentStore(max_chars=10)
    store.put("a", "aaaa")
    store.put("b", "bbbb")
    assert store.get("a") == "aaaa"  # now the most recently used
    store.put("c", "cccc")
    assert store.get("b") is None and store.get("a") == "aaaa" and store.get("c") == "cccc"
    store.put("huge", "x" * 11)  # larger than the whole store: not kept
    assert store.get("huge") is None and len(store) == 2


def test_a_prepared_read_gives_what_the_orm_gives():
    game = check_game()
    services.record_hand(game=game, number=1, data=worked_example.hand(1))
    phone = client_with_token(game)
    phone.get(f"/g/{game.code}/")
    device = DeviceGame.objects.get(game=game).device
    found = devices._GAME_AND_RIGHT.rows(code=game.code, device=device.id_hash)
    assert len(found) == 1
    fresh = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(found[0], field.attname) == getattr(fresh, field.attname), field.name
    assert found[0].device_right == 3  # active, and no holder to lose a club role
    assert devices._GAME_AND_RIGHT.rows(code=game.code, device="not a device")[0].device_right is None
    DeviceGame.objects.filter(game=game).update(active=False)
    assert devices._GAME_AND_RIGHT.rows(code=game.code, device=device.id_hash)[0].device_right == 1
    assert devices._GAME.rows(code="nosuchgame") == []


def test_a_prepared_values_list_gives_the_orms_tuples_and_values_is_refused():
    game = check_game()
    for number in (1, 2):
        services.record_hand(game=game, number=number, data=worked_example.hand(number))
    columns = ("number", "data", "submission_id")
    query = Prepared(lambda game: Hand.objects.filter(game_id=game).values_list(*columns), game=int)
    assert query.rows(game=game.pk) == list(Hand.objects.filter(game=game).values_list(*columns))
    assert query.rows(game=game.pk)[1][1] == worked_example.hand(2)  # JSON read back as the hand object
    with pytest.raises(ValueError, match="values_list"):
        Prepared(lambda game: Hand.objects.filter(game_id=game).values("data"), game=int).rows(game=1)


@pytest.mark.parametrize("role", [None, "organiser", "scorer", "member", "superuser", "quick game"])
@pytest.mark.parametrize("active", [True, False])
def test_the_prepared_read_of_a_right_applies_the_holder_rule_as_the_orm_read_does(role, active):
    """The right read with the game (one query) counts exactly when `_rights_row` counts it: a club
    game's right only while its holder may score for the club; a right with no holder, or in a
    quick game, always."""
    people = make_personas()
    game = make_game(club_id=None if role == "quick game" else CLUB)
    holder = {"organiser": people["alice"], "scorer": people["bob"], "member": people["charlie"]}.get(role)
    if role in ("superuser", "quick game"):
        holder = (
            User.objects.create_superuser("root", "root@example.org", None)
            if role == "superuser"
            else people["charlie"]
        )
    device = Device.objects.create(id_hash=token_hash("a phone"))
    DeviceGame.objects.create(device=device, game=game, active=active, holder=holder)
    cookies = {
        devices.DEVICE_COOKIE: signing.get_cookie_signer(salt=devices.DEVICE_COOKIE + devices._SALT).sign(
            "a phone"
        )
    }
    by_orm = devices._rights_row(request_as(cookies=cookies), game)
    request = request_as(cookies=cookies)
    assert devices.game_with_right(request, game.code).pk == game.pk
    assert request._device_rights[game.pk] == by_orm
    counts = role not in ("member",)
    assert by_orm == (active, counts)
    assert devices.holds_game(request, game) is (active and counts)
    assert devices.right_lapsed(request, game) is (active and not counts)


def test_a_prepared_read_refuses_a_placeholder_it_cannot_find_in_the_sql():
    unused = Prepared(lambda code: Game.objects.all(), code=str)
    with pytest.raises(ValueError, match="placeholder"):
        unused.rows(code="x")
    with pytest.raises(TypeError):
        Prepared(lambda when: Game.objects.filter(created_at=when), when=float).rows(when=1.0)


def test_statistics_rows_inserted_as_plain_values_are_what_the_orm_reads_back():
    game = check_game()
    services.record_hand(game=game, number=1, data=worked_example.hand(1))

    def hand_rows() -> dict[tuple[str, int], dict[str, object]]:
        return {
            (row.seat, row.number): {
                f.attname: getattr(row, f.attname) for f in HandStat._meta.concrete_fields[1:]
            }
            for row in HandStat.objects.filter(game=game)
        }

    by_save = hand_rows()
    assert len(by_save) == 4 and by_save[("N", 1)]["is_bidder"] is True and by_save[("E", 1)]["bid"] == 27
    values = list(HandStat.objects.filter(game=game).values_list(*stats.HAND_STAT_COLUMNS))
    HandStat.objects.filter(game=game).delete()
    insert_values(HandStat, stats.HAND_STAT_COLUMNS, values)
    assert hand_rows() == by_save
    # An upsert writes over the row with the same unique field, and adds none.
    rows = [
        (*row[:8], 99, *row[9:])
        for row in GameStat.objects.filter(game=game).values_list(*stats.GAME_STAT_COLUMNS)
    ]
    insert_values(GameStat, stats.GAME_STAT_COLUMNS, rows, update_on="seat_row_id")
    assert list(GameStat.objects.filter(game=game).values_list("chips", flat=True)) == [99] * 4


def test_the_statistics_columns_are_every_field_of_their_models():
    for model, columns in ((HandStat, stats.HAND_STAT_COLUMNS), (GameStat, stats.GAME_STAT_COLUMNS)):
        fields = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
        assert sorted(columns) == sorted(fields), model.__name__


def test_a_hand_inserted_by_insert_row_is_what_create_would_write_and_counts_as_saved():
    game = check_game()
    data = worked_example.hand(1)
    by_create = Hand.objects.create(game=game, number=1, data=data)
    hand = Hand(game=game, number=2, data=data)
    insert_row(hand)
    assert hand.pk is not None and hand.pk != by_create.pk and not hand._state.adding
    read = Hand.objects.get(pk=hand.pk)
    assert (read.game_id, read.number, read.data, read.submission_id) == (game.pk, 2, data, None)
    assert read.created_at == hand.created_at and read.updated_at == hand.updated_at
    assert read.created_at >= by_create.created_at
    # A number already taken is refused by the database, as create() is.
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_row(Hand(game=game, number=2, data=data))
