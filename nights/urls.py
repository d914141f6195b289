"""The night pages, mounted at /nights/."""

from django.urls import path

from nights.views import arrivals, board, night, opening, results, tables

app_name = "nights"
urlpatterns = [
    path("clubs/<id:club_id>/", opening.club_nights, name="club_nights"),
    path("clubs/<id:club_id>/new", opening.night_new, name="new"),
    path("<id:night_id>/", night.night_page, name="night"),
    path("<id:night_id>/check-in/<id:player_id>", arrivals.check_in, name="check_in"),
    path("<id:night_id>/newcomer", arrivals.newcomer, name="newcomer"),
    path("<id:night_id>/draw", night.draw, name="draw"),
    path("<id:night_id>/swap", night.swap, name="swap"),
    path("<id:night_id>/late", arrivals.late_arrival, name="late"),
    path("<id:night_id>/leave", arrivals.leave, name="leave"),
    path("<id:night_id>/changed-results", night.changed_results, name="changed_results"),
    path("<id:night_id>/rounds/<id:round_no>/start", night.round_start, name="round_start"),
    path("<id:night_id>/tables/live", night.live_tables, name="live_tables"),
    path("<id:night_id>/last-hand", night.last_hand, name="last_hand"),
    path("<id:night_id>/rounds/<id:round_no>/cards", tables.table_cards, name="cards"),
    path("<id:night_id>/plan", tables.wall_plan, name="wall"),
    path("<id:night_id>/standings/", results.standings, name="standings"),
    path("<id:night_id>/standings/live", results.standings_live, name="standings_live"),
    path("<id:night_id>/board/", board.board, name="board"),
    path("<id:night_id>/board/live", board.board_live, name="board_live"),
    path("<id:night_id>/finish", night.finish, name="finish"),
    path("<id:night_id>/prizes", night.prizes, name="prizes"),
    path("<id:night_id>/groups", night.groups, name="groups"),
    path("<id:night_id>/results/", results.results, name="results"),
    path("<id:night_id>/players/<id:player_id>/", results.card, name="card"),
    # A table's link (its QR code): whoever holds it scores that table's game.
    path("t/<slug:token>/", tables.table, name="table"),
    # A published season's nights, for anyone with the season's results link.
    path("results/<slug:publish_code>/<id:night_id>/", results.published_standings, name="published"),
    path("results/<slug:publish_code>/<id:night_id>/live", results.published_live, name="published_live"),
    path("results/<slug:publish_code>/<id:night_id>/board/", board.published_board, name="published_board"),
    path(
        "results/<slug:publish_code>/<id:night_id>/board/live",
        board.published_board_live,
        name="published_board_live",
    ),
    path(
        "results/<slug:publish_code>/<id:night_id>/final/",
        results.published_results,
        name="published_results",
    ),
    path(
        "results/<slug:publish_code>/<id:night_id>/players/<id:player_id>/",
        results.published_card,
        name="published_card",
    ),
]
