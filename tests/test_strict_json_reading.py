"""`core.strict_input.loads` and `iter_loads` read most texts the quick way (no run of more than 30
digits anywhere: each object built in one call, integers read by the C reader) and fall back to
the careful way otherwise. Both ways must refuse what the careful way always refused."""

import json

import pytest

from core import strict_input

DUPLICATE = '{"hands": [{"bid": 25, "bid": 26}]}'
HUGE = '{"bid": ' + "9" * 31 + "}"
LONG_DIGITS_IN_A_NAME = '{"name": "' + "1" * 40 + '", "bid": 25, "bid": 26}'


def refusal(reader, text):
    with pytest.raises(strict_input.JsonRefused) as refused:
        list(reader(text)) if reader is strict_input.iter_loads else reader(text)
    return refused.value.message


@pytest.mark.parametrize("reader", [strict_input.loads, strict_input.iter_loads])
def test_a_key_twice_in_one_object_is_refused_by_name_when_the_numbers_are_short(reader):
    assert refusal(reader, DUPLICATE) == 'the key "bid" appears twice in one object'


@pytest.mark.parametrize("reader", [strict_input.loads, strict_input.iter_loads])
def test_a_key_twice_is_still_refused_when_a_long_run_of_digits_sends_the_text_the_careful_way(reader):
    assert refusal(reader, LONG_DIGITS_IN_A_NAME) == 'the key "bid" appears twice in one object'


@pytest.mark.parametrize("reader", [strict_input.loads, strict_input.iter_loads])
def test_an_integer_of_31_digits_is_refused_and_one_of_30_is_read(reader):
    assert refusal(reader, HUGE) == "a number in the JSON has more than 30 digits (999999999999…)"
    assert refusal(reader, "[-" + "1" * 31 + "]").startswith("a number in the JSON has more than 30 digits")
    assert strict_input.loads('{"bid": ' + "9" * 30 + "}") == {"bid": int("9" * 30)}


def test_an_integer_of_thousands_of_digits_is_refused_with_the_same_message():
    assert refusal(strict_input.loads, "[" + "7" * 5000 + "]").startswith(
        "a number in the JSON has more than 30"
    )


def test_the_first_key_seen_twice_is_the_one_named():
    text = '{"a": 1, "b": 2, "b": 3, "a": 4}'
    assert refusal(strict_input.loads, text) == 'the key "b" appears twice in one object'


def test_long_digit_runs_inside_text_or_a_fraction_are_read_as_they_are():
    text = json.dumps({"name": "1" * 40, "ratio": float("0." + "3" * 35)})
    assert strict_input.loads(text) == json.loads(text)


def test_the_quick_way_reads_the_same_data_as_pythons_reader():
    text = json.dumps({"hands": [{"bid": 25, "tricks": {"NS": 10, "EW": 15}, "melds": {"N": ["run"]}}]})
    assert strict_input.loads(text) == json.loads(text)
    assert list(strict_input.iter_loads("[" + text + ", 1]")) == [json.loads(text), 1]


def test_a_lone_surrogate_in_a_text_with_other_letters_is_still_refused():
    assert (
        refusal(strict_input.loads, '{"name": "Åsa\ud800"}')
        == "name: it contains a lone surrogate (not a character)"
    )
