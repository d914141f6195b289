"""/ledger/: a night's settlement, a season's balances, a player's statement per month."""

from django.urls import path, register_converter

import clubs.ids  # noqa: F401 (registers the <id:...> path converter used below)
from ledger.views import nights, removal, seasons, statements


class MonthConverter:
    """A month as YYYY-MM (the statement's month)."""

    regex = r"[0-9]{4}-[0-9]{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(MonthConverter, "yyyy_mm")

app_name = "ledger"

urlpatterns = [
    path("nights/<id:night_id>/", nights.night, name="night"),
    path("nights/<id:night_id>/pay", nights.night_pay, name="night_pay"),
    path("nights/<id:night_id>/record", nights.night_record, name="night_record"),
    path("nights/<id:night_id>/payments/<id:payment_id>/remove", nights.night_unpay, name="night_unpay"),
    path("nights/<id:night_id>/remove", removal.night_remove, name="night_remove"),
    path("nights/<id:night_id>/lock", nights.night_lock, name="night_lock"),
    path("nights/<id:night_id>/unlock", nights.night_unlock, name="night_unlock"),
    path("seasons/<id:season_id>/", seasons.season, name="season"),
    path("seasons/<id:season_id>/pay", seasons.season_pay, name="season_pay"),
    path("seasons/<id:season_id>/record", seasons.season_record, name="season_record"),
    path("seasons/<id:season_id>/payments/<id:payment_id>/remove", seasons.season_unpay, name="season_unpay"),
    path(
        "seasons/<id:season_id>/players/<id:player_id>/<yyyy_mm:month>/",
        statements.statement,
        name="statement",
    ),
    path(
        "seasons/<id:season_id>/players/<id:player_id>/<yyyy_mm:month>.csv",
        statements.statement_csv,
        name="statement_csv",
    ),
]
