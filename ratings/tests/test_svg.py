"""The rating history chart: one point per game, escaped text, an accessible name. No database."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from ratings.compute import FinishedGame, compute_ratings
from ratings.svg import rating_chart

SVG = "{http://www.w3.org/2000/svg}"


def chart(values: list[float], **overrides: str) -> str:
    texts = {"title": "Ann's rating", "description": "From 1000 to 1069", "x_label": "Games"}
    texts.update(overrides)
    return rating_chart(values, y_label="Rating", **texts)


def only(root: ET.Element, tag: str) -> ET.Element:
    element = root.find(f"{SVG}{tag}")
    assert element is not None, f"the chart has no <{tag}>"
    return element


def test_it_draws_one_point_per_history_entry() -> None:
    games = [FinishedGame(id=n, order=(n,), sides=((1,), (2,)), ranks=(n % 2, 1 - n % 2)) for n in range(7)]
    history = compute_ratings(games).history[1]
    root = ET.fromstring(
        rating_chart([p.display for p in history], title="t", description="d", x_label="x", y_label="y")
    )
    assert len(root.findall(f"{SVG}circle")) == len(history) == 7
    assert len(only(root, "polyline").get("points", "").split()) == 7


def test_it_escapes_every_piece_of_text_it_is_given() -> None:
    hostile = '<script>alert("x")</script> & </svg>'
    svg = rating_chart(
        [1000, 1010],
        title=hostile,
        description=hostile,
        x_label=hostile,
        y_label=hostile,
        point_labels=[hostile, hostile],
    )
    assert "<script>" not in svg
    assert svg.count("</svg>") == 1
    root = ET.fromstring(svg)  # still well-formed XML
    assert only(root, "title").text == hostile
    assert [t.text for t in root.iter(f"{SVG}text")].count(hostile) == 2


def test_it_names_and_describes_the_chart_for_screen_readers() -> None:
    root = ET.fromstring(chart([1000, 1069]))
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "rating-chart-title rating-chart-desc"
    assert only(root, "title").get("id") == "rating-chart-title"
    assert only(root, "desc").text == "From 1000 to 1069"


def test_it_fills_the_width_it_is_given_and_keeps_its_proportions() -> None:
    root = ET.fromstring(chart([1000, 1069]))
    assert (root.get("width"), root.get("viewBox")) == ("100%", "0 0 640 320")
    assert "height" not in root.attrib


def test_it_shows_the_translated_axis_labels_it_is_given() -> None:
    texts = [t.text for t in ET.fromstring(chart([1000, 1069], x_label="Partier")).iter(f"{SVG}text")]
    assert "Partier" in texts
    assert "Rating" in texts


def test_the_value_axis_spans_every_point() -> None:
    svg = chart([1000, 1069, 1140])
    ticks = [int(t) for t in re.findall(r'text-anchor="end">(\d+)<', svg)]
    assert min(ticks) <= 1000 and max(ticks) >= 1140


def test_a_player_without_games_gets_an_empty_chart_that_still_has_its_name() -> None:
    root = ET.fromstring(chart([]))
    assert root.findall(f"{SVG}circle") == []
    assert only(root, "title").text == "Ann's rating"


def test_a_single_game_is_one_point_in_the_middle() -> None:
    root = ET.fromstring(chart([1069]))
    [point] = root.findall(f"{SVG}circle")
    assert point.get("cx") == "350.0"


def test_it_refuses_an_id_that_could_break_out_of_its_attribute() -> None:
    with pytest.raises(ValueError, match="chart_id"):
        rating_chart([1000], title="t", description="d", x_label="x", y_label="y", chart_id='a" onload="x')


def test_it_refuses_point_labels_that_do_not_match_the_points() -> None:
    with pytest.raises(ValueError, match="1 point labels for 2 values"):
        rating_chart([1000, 1001], title="t", description="d", x_label="x", y_label="y", point_labels=["a"])
