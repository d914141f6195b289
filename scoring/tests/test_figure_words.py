"""The points to go and the chips keep a number with its word: a line breaks only where no word is
left on its own."""

from scoring.templatetags.scoring_tags import with_its_number

NBSP = "\u00a0"


def test_it_lets_two_words_take_their_own_line_but_never_one():
    assert with_its_number("64 to go") == f'<span class="figure-words" data-chars="5">64 to{NBSP}go</span>'
    assert with_its_number("64 kvar") == f'<span class="figure-words" data-chars="7">64{NBSP}kvar</span>'


def test_it_keeps_a_word_before_the_number_and_a_minus_with_it():
    assert with_its_number("chybí 64") == f'<span class="figure-words" data-chars="8">chybí{NBSP}64</span>'
    assert with_its_number("-4 žetony") == f'<span class="figure-words" data-chars="9">-4{NBSP}žetony</span>'


def test_it_escapes_what_it_is_given():
    assert "&lt;b&gt;" in with_its_number("<b> 4")
