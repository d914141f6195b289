"""Before round 1 starts, a name tapped in or out after the tables were drawn keeps the
organiser's swaps: the newcomer sits with those who sit out, a leaver's seat goes to someone who
sits out, or nothing is written and the name's row asks first (the plan it asked on goes with the
answer; its own button, the one Enter taps, only asks again)."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Club, Membership, Player
from nights import services
from nights.models import Night
from nights.tests.test_movement_nights import NAMES, seats
from tests.access_helpers import CLUB
from tests.helpers import text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def club(people) -> Club:
    club = Club.objects.get(pk=CLUB)
    for name in [*NAMES, "Jan", "Kai", "Lou"]:
        Membership.objects.create(club=club, player=Player.objects.create(name=name))
    return club


def drawn_night(
    alice: Client, names: list[str], variant: str = "standard", movement: str = "rotating"
) -> Night:
    """A night of three rounds, `names` checked in and the tables drawn; no round started."""
    data = {"played_on": "2026-03-05", "variant": variant, "deck": "single", "rounds": "3",
            "round_ends": "hands", "hands_per_round": "1", "movement": movement}  # fmt: skip
    assert alice.post(f"/nights/clubs/{CLUB}/new", data).status_code == 302
    night = Night.objects.latest("pk")
    for name in names:
        assert tap(alice, night, name, "yes").status_code == 302
    assert alice.post(f"/nights/{night.pk}/draw").status_code == 302
    return night


def tap(alice: Client, night: Night, name: str, present: str, **data: str):
    player = Player.objects.get(name=name)
    return alice.post(f"/nights/{night.pk}/check-in/{player.pk}", {"present": present, **data})


def swap(night: Night, round_no: int) -> None:
    """The organiser swaps the first player of table 1 with the second of table 2."""
    first, second = seats(night, round_no)[:2]
    a, b = Player.objects.get(name=first[0]), Player.objects.get(name=second[1])
    services.swap_players(night=night, round_no=round_no, first=a, second=b)


def checked_in(night: Night) -> set[str]:
    return set(night.players.values_list("player__name", flat=True))


def test_a_name_checked_in_after_a_swap_asks_first_and_can_sit_out_that_round(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    planned, version = seats(night, 2), services.plan_version(night)
    response = tap(alice, night, "Ida", "yes")
    assert response.status_code == 400
    shown = text(response)
    assert (
        "Round 2 was changed by hand (a swap). Seating Ida in it means drawing the rounds not started "
        "again, which undoes that swap: nothing was changed. Choose below." in shown
    )
    assert "Draw the rounds not started again with Ida (undoes the swap in round 2)" in shown
    assert "Ida sits out round 2 (the swap stays)" in shown
    assert seats(night, 2) == planned and services.plan_version(night) == version
    assert "Ida" not in checked_in(night)
    # Her row's own button comes first: Enter taps it, and it only asks again.
    body = response.content.decode()
    ida = Player.objects.get(name="Ida")
    row = body[body.index(f'<li id="check-in-{ida.pk}">') :]
    assert row.index(f'id="check-in-button-{ida.pk}"') < row.index('value="replan"')
    assert f'name="plan" value="{version}"' in row
    response = tap(alice, night, "Ida", "yes", choice="sit_out", plan=version)
    assert response.status_code == 302
    assert "Ida" in checked_in(night)
    assert seats(night, 2) == planned
    assert list(night.byes.filter(round_no=2).values_list("player__name", flat=True)) == ["Ida"]
    assert any("Ida" in row for row in seats(night, 1)) and any("Ida" in row for row in seats(night, 3))


def test_a_name_checked_in_after_a_swap_draws_again_only_when_told(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    response = tap(alice, night, "Ida", "yes", choice="replan", plan=services.plan_version(night))
    assert response.status_code == 302
    assert "Ida" in checked_in(night)
    assert all(any("Ida" in row for row in seats(night, n)) or night.byes.filter(round_no=n).exists()
               for n in (1, 2, 3))  # fmt: skip


def test_a_name_checked_in_sits_with_those_who_sit_out_and_the_swap_stays(club, alice):
    # A Check Pinochle night of 11 at tables of four: 3 sit out each round; the 12th makes a table.
    night = drawn_night(alice, [*NAMES, "Jan", "Kai"], variant="check")
    swap(night, 2)
    planned = seats(night, 2)
    sitting_out = list(night.byes.filter(round_no=2).order_by("id").values_list("player__name", flat=True))
    assert tap(alice, night, "Lou", "yes").status_code == 302
    assert seats(night, 2) == [*planned, [*sitting_out, "Lou"]]
    assert "Lou" in checked_in(night)


def test_a_name_checked_out_gives_its_seat_to_someone_who_sits_out_and_the_swap_stays(club, alice):
    night = drawn_night(alice, [*NAMES, "Jan", "Kai"], variant="check")
    swap(night, 2)
    planned = seats(night, 2)
    first_out = night.byes.filter(round_no=2).order_by("id").values_list("player__name", flat=True)[0]
    leaver = planned[1][2]
    assert tap(alice, night, leaver, "no").status_code == 302
    planned[1][2] = first_out
    assert seats(night, 2) == planned
    assert leaver not in checked_in(night)
    assert not any(leaver in row for n in (1, 3) for row in seats(night, n))


def test_a_name_checked_out_asks_before_undoing_a_swap(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    planned = seats(night, 2)
    leaver = planned[0][1]
    response = tap(alice, night, leaver, "no")
    assert response.status_code == 400
    shown = text(response)
    assert (
        f"Round 2 was changed by hand (a swap), and nobody sits it out to take the seat of {leaver}. "
        f"Drawing the rounds not started again without {leaver} undoes that swap: nothing was changed."
        in shown
    )
    assert f"Draw the rounds not started again without {leaver} (undoes the swap in round 2)" in shown
    assert "sits out" not in shown.split("Choose below.")[1][:300]
    assert seats(night, 2) == planned and leaver in checked_in(night)
    response = tap(alice, night, leaver, "no", choice="replan", plan=services.plan_version(night))
    assert response.status_code == 302
    assert leaver not in checked_in(night)
    assert not any(leaver in row for n in (1, 2, 3) for row in seats(night, n))


def test_a_tap_from_htmx_asks_in_the_names_row_and_redraws_nothing(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    planned, version = seats(night, 2), services.plan_version(night)
    ida = Player.objects.get(name="Ida")
    response = alice.post(f"/nights/{night.pk}/check-in/{ida.pk}", {"present": "yes"}, **HTMX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.startswith(f'<li id="check-in-{ida.pk}">')
    assert 'id="plan"' not in body  # the plan is not drawn again
    assert "Round 2 was changed by hand (a swap). Seating Ida in it" in text(response)
    assert 'value="sit_out"' in body and f'name="plan" value="{version}"' in body
    assert seats(night, 2) == planned and "Ida" not in checked_in(night)


def test_an_answer_from_a_stale_page_changes_nothing(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    stale = services.plan_version(night)
    swap(night, 3)  # another swap meanwhile, from another phone
    planned = [seats(night, n) for n in (1, 2, 3)]
    response = tap(alice, night, "Ida", "yes", choice="replan", plan=stale)
    assert response.status_code == 302
    shown = text(alice.get(f"/nights/{night.pk}/"))
    assert "The plan changed since this page was drawn: nothing was changed." in shown
    assert [seats(night, n) for n in (1, 2, 3)] == planned and "Ida" not in checked_in(night)


def test_a_second_tap_on_a_name_already_checked_in_keeps_the_swap(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    planned = [seats(night, n) for n in (1, 2, 3)]
    assert tap(alice, night, "Anna", "yes").status_code == 302
    assert tap(alice, night, "Ida", "no").status_code == 302
    assert [seats(night, n) for n in (1, 2, 3)] == planned


def test_a_newcomer_before_the_start_asks_before_undoing_a_swap(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    planned, version = seats(night, 2), services.plan_version(night)
    response = alice.post(f"/nights/{night.pk}/newcomer", {"name": "Zoe"})
    assert response.status_code == 400
    shown = text(response)
    assert "Round 2 was changed by hand (a swap). Seating Zoe in it" in shown
    assert "Zoe sits out round 2 (the swap stays)" in shown
    assert not Player.objects.filter(name="Zoe").exists() and seats(night, 2) == planned
    response = alice.post(
        f"/nights/{night.pk}/newcomer", {"name": "Zoe", "choice": "sit_out", "plan": version}
    )
    assert response.status_code == 302
    assert seats(night, 2) == planned
    assert list(night.byes.filter(round_no=2).values_list("player__name", flat=True)) == ["Zoe"]


def test_a_swap_in_round_one_of_a_night_with_a_movement_is_kept_or_asked_about(club, alice):
    night = drawn_night(alice, NAMES[:8], movement="progressive")
    swap(night, 1)
    planned = seats(night, 1)
    response = tap(alice, night, "Ida", "yes")
    assert response.status_code == 400
    shown = text(response)
    assert "Round 1 was changed by hand (a swap). Seating Ida in it means drawing" in shown
    assert "Draw the rounds not started again with Ida (undoes the swap in round 1)" in shown
    assert seats(night, 1) == planned


def test_a_double_tap_on_the_answer_says_nothing_went_wrong(club, alice):
    night = drawn_night(alice, NAMES[:8])
    swap(night, 2)
    version = services.plan_version(night)
    assert tap(alice, night, "Ida", "yes", choice="replan", plan=version).status_code == 302
    planned = [seats(night, n) for n in (1, 2, 3)]
    ida = Player.objects.get(name="Ida")
    again = alice.post(
        f"/nights/{night.pk}/check-in/{ida.pk}",
        {"present": "yes", "choice": "replan", "plan": version},
        **HTMX,
    )
    assert again.status_code == 200
    assert "The plan changed" not in text(again) and "nothing was changed" not in text(again)
    assert [seats(night, n) for n in (1, 2, 3)] == planned and "Ida" in checked_in(night)
