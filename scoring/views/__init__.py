"""Pages of the scorekeeper: small function views over forms, selectors and services, one module
per job (the game page and its live poll, hands, league details, handing over, settings, the
rules page). Every form works as a plain POST (redirect after a write); an htmx request gets the
page's fragment instead ("page.html#fragment", the fragment's id is its hx-target)."""

from scoring.views.details import club_corrections_page, game_details, game_history
from scoring.views.game import game_list, game_live, game_new, game_page, shared_game, shared_live
from scoring.views.hands import hand_delete_last, hand_edit, hand_preview, hand_save
from scoring.views.rules import rules_help
from scoring.views.settings_page import game_settings_page
from scoring.views.sharing import hand_over, recover, take_over
from scoring.views.table_view import game_table, shared_table

__all__ = [
    "club_corrections_page",
    "game_details",
    "game_history",
    "game_list",
    "game_live",
    "game_new",
    "game_page",
    "game_settings_page",
    "game_table",
    "hand_delete_last",
    "hand_edit",
    "hand_over",
    "hand_preview",
    "hand_save",
    "recover",
    "rules_help",
    "shared_game",
    "shared_live",
    "shared_table",
    "take_over",
]
