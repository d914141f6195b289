"""The score at a glance: who leads, each side's distance to the target, what the bidders need,
the chart, what a correction changes, the log's changed fields and the printed sheet."""

import itertools
import re

import pytest

from scoring.services.hands import record_hand
from tests.access_helpers import client_with_token
from tests.helpers import check_game, hand_post, quick_hand, save_url, standard_game, text

pytestmark = pytest.mark.django_db


def test_the_leader_stands_out_and_each_side_sees_its_distance_to_the_target():
    game = standard_game(target=100)
    record_hand(game=game, number=1, data=quick_hand(ns_meld=10, ns_tricks=15))  # N–S 25, E–W 10
    html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
    leader = re.search(r'<div class="total[^"]*leading[^"]*">\s*<div class="total-label">([^<]+)<', html)
    assert leader and leader.group(1).startswith("N–S")
    page = text(client_with_token(game).get(f"/g/{game.code}/"))
    assert "25 leads · 75 to go" in page and "10 90 to go" in page


def test_nobody_leads_before_the_first_hand_or_on_a_tie():
    game = standard_game()
    html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
    assert " leading" not in html and "leads ·" not in text(client_with_token(game).get(f"/g/{game.code}/"))


def test_the_preview_says_what_the_bidders_needed_in_trick_points():
    game = check_game()
    client = client_with_token(game)
    response = client.post(f"/g/{game.code}/preview", hand_post(1), headers={"HX-Request": "true"})
    # The worked example: N bids 27, N–S meld 21, so they need 6 and take 15.
    assert "N–S needed 6 trick points (bid 27 − meld 21); they took 15." in text(response)


def test_the_game_page_draws_the_score_chart_with_both_sides_and_the_chips():
    game = check_game()
    client = client_with_token(game)
    client.post(save_url(game), hand_post(1))
    html = client.get(f"/g/{game.code}/").content.decode()
    assert html.count('<figure class="chart"><svg') == 2  # points and chips
    assert 'aria-label="Points after each hand. N–S: 36; E–W: 20"' in html
    assert "Chips after each hand" in html and "<script" not in html.split('<figure class="chart">')[1][:2000]


def test_there_is_no_chart_before_the_first_hand():
    game = standard_game()
    assert '<figure class="chart">' not in client_with_token(game).get(f"/g/{game.code}/").content.decode()


def test_a_correction_preview_shows_the_change_to_todays_totals_and_chips():
    game = check_game()
    client = client_with_token(game)
    client.post(save_url(game), hand_post(1))  # N–S 36, E–W 20; chips N–S 4, E–W -4
    response = client.post(
        f"/g/{game.code}/hands/1/preview", hand_post(1, tricks_NS="10"), headers={"HX-Request": "true"}
    )
    page = text(response).replace("&#x27;", "'")
    assert "Today's totals: N–S 36 → 31 · E–W 20 → 25" in page
    assert "Today's chips: N–S 4 → 4 · E–W -4 → -4" in page


def test_the_corrections_log_marks_only_the_changed_fields():
    game = check_game()
    client = client_with_token(game)
    client.post(save_url(game), hand_post(1))
    client.post(f"/g/{game.code}/hands/1/", hand_post(1, tricks_NS="10"))
    html = client.get(f"/g/{game.code}/history/").content.decode()
    table = html[html.index('<table class="change-table">') : html.index("</table>")]
    assert "<ins>10</ins>" in table and "Bidder" not in table
    assert "Unchanged fields" in html and "Bidder" in html.split("Unchanged fields")[1]


def test_the_page_prints_as_a_score_sheet_with_a_blank_backup_pad():
    game = standard_game()
    html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
    pad = html[html.index('<section class="blank-pad print-only"') :]
    assert "Backup score pad" in pad and pad.count("<tr><td>") == 20


def test_at_the_end_the_chips_chart_ends_on_the_final_chips_with_the_game_chips():
    game = check_game(target=25)
    client = client_with_token(game)
    client.post(save_url(game), hand_post(1))  # N–S 36: the game ends; chips 4, then 16 with game chips
    html = client.get(f"/g/{game.code}/").content.decode()
    chips = html[html.index("Chips after each hand. ") :]
    assert chips.startswith("Chips after each hand. N–S: 4, 16; E–W: -4, -16")
    assert ">final</text>" in chips
    assert re.search(r"Final chips</th><td>16</td><td>-16</td>", html)  # as the chip table says


def test_the_bidders_need_shows_as_soon_as_bid_and_meld_are_known():
    game = check_game()
    client = client_with_token(game)
    no_tricks = {k: v for k, v in hand_post(1).items() if k != "tricks_NS"}
    response = client.post(f"/g/{game.code}/preview", no_tricks, headers={"HX-Request": "true"})
    page = text(response)
    # N bids 27, N–S meld 21 (run 15 + marriage 2 + pinochle 4): the tricks are all that is missing.
    assert "N–S need 6 trick points (bid 27 − meld 21)." in page and "Not ready to save" in page


def test_no_need_is_guessed_while_the_bid_is_missing():
    game = check_game()
    post = {k: v for k, v in hand_post(1).items() if k not in ("tricks_NS", "bid")}
    page = text(client_with_token(game).post(f"/g/{game.code}/preview", post, headers={"HX-Request": "true"}))
    assert "trick points (bid" not in page and "Not ready to save" in page


def test_the_chart_keeps_the_target_apart_from_a_side_ending_just_below_it():
    game = standard_game(target=100)
    record_hand(game=game, number=1, data=quick_hand(ns_meld=20, ns_tricks=25))  # N–S 45, E–W 0
    record_hand(game=game, number=2, data=quick_hand(ns_meld=25, ns_tricks=25))  # N–S 95
    html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
    svg = html.split('<figure class="chart">')[1].split("</svg>")[0]
    # The right margin's labels (x past the plot's end, where the zero line ends): the target's
    # "100" and each side's end, a line of their size apart.
    plot_end = float(re.findall(r'<line x1="[\d.]+" y1="[\d.]+" x2="([\d.]+)"', svg)[0])
    found = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" font-size="(\d+)"', svg)
    margin = sorted(float(y) for x, y, size in found if float(x) > plot_end)
    size = int(found[0][2])
    assert len(margin) == 3
    assert all(b - a >= size for a, b in itertools.pairwise(margin)), margin


def test_the_backup_pad_of_a_check_pinochle_game_has_a_chips_column_per_side():
    game = check_game()
    html = client_with_token(game).get(f"/g/{game.code}/").content.decode()
    pad = html[html.index('<section class="blank-pad print-only"') :]
    head = pad[: pad.index("</thead>")]
    assert "N–S Chips" in head and "E–W Chips" in head
    first_row = pad[pad.index("<tr><td>1</td>") :].split("</tr>")[0]
    assert first_row.count("<td>") == 3 + 3 * 2  # #, dealer, bid; meld, total and chips per side
    standard = standard_game()
    plain = client_with_token(standard).get(f"/g/{standard.code}/").content.decode()
    assert "Chips</th>" not in plain[plain.index('<section class="blank-pad print-only"') :]
