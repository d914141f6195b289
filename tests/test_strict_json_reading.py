"""`core.strict_input.loads` and `iter_loads` read most texts the quick way (no run of more than 30
digits anywhere: each object built in one call, integers read by the C reader) and fall back to
the careful way otherwise. Both ways must refuse what the careful way always refused."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# Property: the quick way and the careful way read any JSON text alike. A text is generated as
# pieces of JSON so an object may repeat a key and an integer may be longer than 30 digits.
_CAREFUL_WAY = ', "' + "1" * (strict_input.MAX_DIGITS + 1) + '"]'  # a long run of digits anywhere
_KEYS = st.sampled_from(["bid", "NS", "EW", "melds", "å", "1" * 35])
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=8),
).map(lambda value: json.dumps(value, ensure_ascii=False))


def _object(pairs: list[tuple[str, str]]) -> str:
    return "{" + ", ".join(f"{json.dumps(key, ensure_ascii=False)}: {value}" for key, value in pairs) + "}"


JSON_TEXTS = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4).map(lambda items: "[" + ", ".join(items) + "]")
        | st.lists(st.tuples(_KEYS, inner), max_size=4).map(_object)
    ),
    max_leaves=12,
)


def _outcome(read, text):
    try:
        return "read", read(text)
    except strict_input.JsonRefused as refused:
        return "refused", refused.message


def _first_item(text):
    return next(strict_input.iter_loads(text))


def _repeats_a_key_or_has_a_long_integer(text):
    try:
        json.loads(text, object_pairs_hook=_refuse_repeated_keys, parse_int=_refuse_long_integers)
    except ValueError:
        return True
    return False


def _refuse_repeated_keys(pairs):
    if len({key for key, _ in pairs}) != len(pairs):
        raise ValueError("a key twice")
    return dict(pairs)


def _refuse_long_integers(text):
    if len(text.lstrip("-")) > strict_input.MAX_DIGITS:
        raise ValueError("too long")
    return int(text)


@settings(deadline=None)
@given(JSON_TEXTS)
def test_the_quick_way_and_the_careful_way_read_any_text_alike(text):
    quick = _outcome(strict_input.loads, text)
    careful = _outcome(lambda text: strict_input.loads("[" + text + _CAREFUL_WAY)[0], text)
    assert quick == careful
    assert _outcome(_first_item, "[" + text + "]") == careful
    assert _outcome(_first_item, "[" + text + _CAREFUL_WAY) == careful
    if _repeats_a_key_or_has_a_long_integer(text):
        assert quick[0] == "refused"
    else:
        assert quick == ("read", json.loads(text))
