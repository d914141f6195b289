"""The taps bench's lines: each says its aims and whether the worst hand meets them."""

from bench.taps import Count, line


def test_it_says_each_aim_is_met_when_the_worst_hand_is_within_it():
    counts = [Count(taps=9, typed=1, scrolled=1.0), Count(taps=10, typed=2, scrolled=1.2)]
    assert line("check", "390x844", counts) == (
        "check 390x844: taps median 9.5 worst 10 (aim ≤ 10: met), screens median 1.1 worst 1.2"
        " (aim ≤ 1.2: met) (n=2; typed fields median 1.5 worst 2; screens to see a save median 0.0"
        " worst 0.0 (aim ≤ 0: met))"
    )


def test_it_says_not_met_when_the_worst_hand_is_over_an_aim():
    counts = [Count(taps=9, scrolled=1.2), Count(taps=10, scrolled=1.6, result_screens=0.2)]
    text = line("standard", "360x740", counts)
    assert "taps median 9.5 worst 10 (aim ≤ 9: NOT MET)" in text
    assert "screens median 1.4 worst 1.6 (aim ≤ 1.5: NOT MET)" in text
    assert "screens to see a save median 0.1 worst 0.2 (aim ≤ 0: NOT MET)" in text


def test_a_worst_case_within_the_aim_to_the_digit_shown_is_met():
    assert "(aim ≤ 1.2: met)" in line("double", "390x844", [Count(taps=12, scrolled=1.24)])


def test_a_correction_has_no_taps_or_screens_aim_of_its_own():
    text = line("correction", "390x844", [Count(taps=4, scrolled=2.2)])
    assert text.startswith("correction 390x844: taps median 4 worst 4, screens median 2.2 worst 2.2 (n=1;")
