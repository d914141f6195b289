"""`score_record_text` (what `manage.py score_game` prints) writes the result object's text itself,
hand by hand; it must be exactly the text `json.dumps` makes of `score_record`'s result."""

import json

from hypothesis import given

from scoring.rules.engine import score_record, score_record_text
from scoring.tests.test_rules_properties import PROPERTY_SETTINGS, games


@PROPERTY_SETTINGS
@given(games())
def test_the_result_text_is_the_json_of_the_result_object_to_the_byte(generated):
    record, _ = generated
    assert score_record_text(record) == json.dumps(score_record(record), ensure_ascii=False)


def test_a_game_without_hands_gives_an_empty_list_of_hands():
    record = {"seats": 4, "variant": "check", "deck": "single", "hands": []}
    text = score_record_text(record)
    assert text == json.dumps(score_record(record), ensure_ascii=False)
    assert json.loads(text)["hands"] == []
