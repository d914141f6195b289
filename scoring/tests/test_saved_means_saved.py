"""A hand is called "saved" only as it is shown. A form whose submission id already
saved a hand, posted again with other values (a lost reply and a fixed entry, or Back and a new
hand), is never answered "saved": the stored hand is shown and the new values are offered as a
correction. The preview names the same hand as the heading, and says when the game moved on."""

import re
import uuid

import pytest

from scoring.models import Hand, HandChange
from scoring.services.hands import GameMovedOn, SubmissionReused, delete_last_hand, record_hand
from tests.helpers import WORKED_EXAMPLE, check_game, hand_post, save_url, text

pytestmark = pytest.mark.django_db


def preview_url(game):
    return f"/g/{game.code}/preview"


def test_the_service_refuses_a_known_submission_with_other_values_and_writes_nothing():
    game = check_game()
    submission = uuid.uuid4()
    first = record_hand(game=game, number=1, data={"passed": True}, submission_id=submission)
    with pytest.raises(SubmissionReused) as caught:
        record_hand(
            game=game,
            number=1,
            data={"bidder": "N", "bid": 25, "tricks": {"NS": 25, "EW": 0}},
            submission_id=submission,
        )
    assert caught.value.hand.pk == first.hand.pk
    assert [hand.data for hand in Hand.objects.filter(game=game)] == [{"passed": True}]


def test_a_fixed_entry_after_a_lost_reply_is_not_called_saved_and_is_offered_as_a_correction(table_client):
    game = check_game()
    post = hand_post(1, tricks_NS="12")
    assert table_client.post(save_url(game), post).status_code == 302  # saved; the phone never heard
    fixed = {**post, "tricks_NS": "22"}
    response = table_client.post(save_url(game), fixed)
    page = text(response)
    assert "Hand 1 saved." not in page
    assert "Not saved: this form already saved hand 1, with other values." in page
    assert "Hand 1 as stored" in page
    assert Hand.objects.get(game=game, number=1).data["tricks"] == {"NS": 12, "EW": 13}
    # One tap applies the fixed values to hand 1.
    html = response.content.decode()
    assert f'action="/g/{game.code}/hands/1/"' in html
    offered = {"number": "1", **{key: value for key, value in fixed.items() if key != "submission_id"}}
    done = table_client.post(f"/g/{game.code}/hands/1/", offered, follow=True)
    assert "Hand 1 corrected." in text(done)
    assert Hand.objects.get(game=game, number=1).data["tricks"] == {"NS": 22, "EW": 3}
    assert HandChange.objects.filter(game=game, action="edit").count() == 1


def test_the_same_form_with_the_same_values_is_still_simply_saved(table_client):
    game = check_game()
    post = hand_post(1)
    table_client.post(save_url(game), post)
    assert "Hand 1 saved." in text(table_client.post(save_url(game), post, follow=True))
    assert Hand.objects.filter(game=game).count() == 1


def test_a_form_resubmitted_after_back_with_a_new_hand_keeps_the_entry_to_save_as_the_next_hand(table_client):
    game = check_game()
    post = hand_post(1)
    table_client.post(save_url(game), post)
    new_hand = {**post, "bid": "30", "tricks_NS": "20"}  # Back, then the next hand typed over it
    page = text(table_client.post(save_url(game), new_hand))
    assert "Hand 1 saved." not in page
    assert "if yours is a new hand, tap “Save my values as hand 2”" in page
    assert "Save my values as hand 2" in page
    assert Hand.objects.filter(game=game).count() == 1


def test_the_preview_of_a_form_that_already_saved_its_hand_names_that_hand(table_client):
    game = check_game()
    post = hand_post(1, tricks_NS="12")
    table_client.post(save_url(game), post)
    page = text(table_client.post(preview_url(game), {**post, "tricks_NS": "22"}, HTTP_HX_REQUEST="true"))
    assert "This form already saved hand 1 with other values." in page
    assert "hand 2" not in page.lower()
    same = text(table_client.post(preview_url(game), post, HTTP_HX_REQUEST="true"))
    assert "Hand 1 is saved with these values." in same


def test_the_preview_says_when_another_phone_saved_the_hand_of_the_heading(table_client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    page = text(table_client.post(preview_url(game), hand_post(1), HTTP_HX_REQUEST="true"))
    assert "The game has moved on: hand 1 was saved on another phone." in page
    assert "Totals after" not in page  # no description of another hand under this heading


def test_the_preview_and_save_say_when_a_hand_was_deleted_meanwhile(table_client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    delete_last_hand(game=game)
    preview = text(table_client.post(preview_url(game), hand_post(2), HTTP_HX_REQUEST="true"))
    assert "a hand was deleted, so the next hand is 1, not 2" in preview
    saved = text(table_client.post(save_url(game), hand_post(2, WORKED_EXAMPLE)))
    assert "a hand was deleted, so the next hand is 1, not 2" in saved
    assert "saved." not in saved
    assert Hand.objects.filter(game=game).count() == 0


def test_a_correction_of_a_hand_deleted_meanwhile_is_a_clear_message_not_an_error(table_client):
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    delete_last_hand(game=game)
    response = table_client.post(f"/g/{game.code}/hands/1/", {**hand_post(1), "bid": "27"}, follow=True)
    assert response.status_code == 200
    page = text(response)
    assert "Nothing corrected: hand 1 no longer exists (another phone deleted it)." in page
    # The values are not lost: on the entry form, as the next hand's, to save if they are a new hand.
    assert "Your values are on the form below: save them as a new hand if they are right." in page
    assert re.search(r'name="bid"[^>]*value="27"', response.content.decode())
    assert Hand.objects.filter(game=game).count() == 0


def test_the_service_refuses_to_delete_a_hand_other_than_the_one_expected():
    game = check_game()
    record_hand(game=game, number=1, data={"passed": True})
    record_hand(game=game, number=2, data={"passed": True})
    with pytest.raises(GameMovedOn) as caught:
        delete_last_hand(game=game, expected=1)
    assert caught.value.current == 2
    assert Hand.objects.filter(game=game).count() == 2


def test_while_the_question_is_open_the_entry_form_cannot_save_and_the_question_saves_the_next_hand_once(
    table_client,
):
    game = check_game()
    post = hand_post(1)
    table_client.post(save_url(game), post)
    new_hand = {**post, "bid": "30", "tricks_NS": "20"}
    html = table_client.post(save_url(game), new_hand).content.decode()
    # The entry form's Save (and Enter, its default button) is off while the question is open.
    assert re.search(r'<button type="submit" class="save" disabled>\s*Save hand 2', html)
    assert 'class="default-submit" tabindex="-1" aria-hidden="true" disabled' in html
    offer = html[html.index('class="correction-offer"') : html.index("</section>")]
    assert "Save my values as hand 2" in offer
    next_form = offer[offer.index(f'action="/g/{game.code}/hands"') :]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', next_form))
    for _tap in range(2):  # a second tap (or Back and the same tap) saves nothing more
        table_client.post(save_url(game), fields)
    assert [hand.data["bid"] for hand in Hand.objects.filter(game=game).order_by("number")] == [
        int(post["bid"]),
        30,
    ]


def test_a_question_asked_again_about_a_deleted_hand_saves_nothing_and_puts_the_values_on_the_form(
    table_client,
):
    """The phone asks an open question again (its values, marked `asked_again`) after the hand the
    question is about was deleted: the player answered nothing, so nothing is saved; the page says
    so, and the values are on the entry form to save if they are right."""
    game = check_game()
    post = hand_post(1, tricks_NS="12")
    table_client.post(save_url(game), post)  # saved; the phone never heard
    fixed = {**post, "tricks_NS": "22"}
    assert "Hand 1 as stored" in text(table_client.post(save_url(game), fixed))  # the question
    delete_last_hand(game=game)
    response = table_client.post(save_url(game), {**fixed, "asked_again": "1"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = text(response)
    assert (
        "Not saved: hand 1, which the question was about, is no longer stored. Your values are on the "
        "form below: save them if they are right." in page
    )
    assert "Hand 1 saved." not in page
    assert "Hand 1 as stored" not in page  # no question: it is settled
    html = response.content.decode()
    assert re.search(r'name="tricks_NS"[^>]*value="22"', html)
    assert f'value="{post["submission_id"]}"' not in html  # saved from here, it is a submission of its own
    assert "asked_again" not in html
    assert not Hand.objects.filter(game=game).exists()
    assert HandChange.objects.filter(game=game).exclude(action=HandChange.Action.DELETE).count() == 0


def test_a_question_asked_again_about_a_stored_hand_asks_again(table_client):
    game = check_game()
    post = hand_post(1, tricks_NS="12")
    table_client.post(save_url(game), post)
    fixed = {**post, "tricks_NS": "22", "asked_again": "1"}
    response = table_client.post(save_url(game), fixed, HTTP_HX_REQUEST="true")
    page = text(response)
    assert "Not saved: this form already saved hand 1, with other values." in page
    assert "Hand 1 as stored" in page
    assert "asked_again" not in response.content.decode()  # the answers send the values, not the marker
    assert Hand.objects.get(game=game, number=1).data["tricks"] == {"NS": 12, "EW": 13}
    # The same values asked again (the question was answered meanwhile with a correction) are saved ones.
    same = table_client.post(save_url(game), {**post, "asked_again": "1"}, follow=True)
    assert "Hand 1 saved." in text(same)
    assert Hand.objects.filter(game=game).count() == 1


def test_a_question_asked_again_after_undo_leaves_only_its_own_message_and_values(table_client):
    """Undo took back the hand the open question is about; then the phone asks the question again.
    The page says the one thing that happened (nothing saved, the values on the form): not also
    "Hand 1 undone" with the older values, and the next page does not put the undone values back
    over the ones just shown."""
    game = check_game()
    post = hand_post(1, tricks_NS="12")
    table_client.post(save_url(game), post)  # saved; the phone never heard
    fixed = {**post, "tricks_NS": "22"}
    assert "Hand 1 as stored" in text(table_client.post(save_url(game), fixed))  # the question
    table_client.post(f"/g/{game.code}/hands/last/delete", {"number": "1", "undo": "1"})
    response = table_client.post(save_url(game), {**fixed, "asked_again": "1"}, HTTP_HX_REQUEST="true")
    page = text(response)
    assert "is no longer stored. Your values are on the form below" in page
    assert "undone" not in page
    assert re.search(r'name="tricks_NS"[^>]*value="22"', response.content.decode())
    later = table_client.get(f"/g/{game.code}/").content.decode()
    assert not re.search(r'name="tricks_NS"[^>]*value="12"', later)
    assert not Hand.objects.filter(game=game).exists()
