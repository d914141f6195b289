"""The admin shows the models under their Swedish and Czech names."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("sv", ["Pinochle-poäng", "Partier", "Givar"]),
        ("cs", ["Počítání bodů Pinochle", "Hry", "Rozdání"]),
    ],
)
def test_it_names_the_models_in_the_language(admin_client, lang, names):
    html = admin_client.get("/admin/", headers={"Accept-Language": lang}).content.decode()
    for name in names:
        assert name in html, name


def test_it_labels_the_game_fields_in_czech(admin_client):
    from scoring.services.games import create_game

    game = create_game(
        seats=4, variant="check", deck="double", target=None, min_bid=None,
        first_dealer="N", meld_needs_trick=False, players={},
    )  # fmt: skip
    url = f"/admin/scoring/game/{game.pk}/change/"
    html = admin_client.get(url, headers={"Accept-Language": "cs"}).content.decode()
    for label in ("Místa", "Varianta", "Balíček", "Cíl", "Nejnižší nabídka", "První rozdávající"):
        assert label in html, label
    assert "Pinochle se žetony" in html and "Dvojitý balíček (80 karet)" in html
