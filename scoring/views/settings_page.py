"""The game's settings after Start: names and first dealer, target, minimum bid and the house
rule, previewed with a full rescore before they are saved."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring import game_settings
from scoring.forms.settings import GameSettingsForm
from scoring.models import Game
from scoring.permissions import (
    actor_for,
    game_of,
    night_plan_locked,
    require_game_edit,
)
from scoring.rules.errors import RecordError
from scoring.selectors.board import settings_of
from scoring.selectors.settings_change import settings_preview
from scoring.services.results import players_of


@require_http_methods(["GET", "HEAD", "POST"])
@require_game_edit
def game_settings_page(request: HttpRequest, code: str) -> HttpResponse:
    """Names and first dealer, target, minimum bid and the house rule, with a full rescore.
    "Preview" shows what the change does; "Save" saves it, except when it changes how the game
    ends and the page has not shown that yet: it is shown first and saved with a second Save (the
    end the preview showed comes back as `confirm`). Refusals name the setting and the hand;
    nothing is written then."""
    game = game_of(request, code)
    settings = settings_of(game)
    if request.method in ("GET", "HEAD"):
        players = players_of(game)
        initial = GameSettingsForm.initial_for(settings, players, game_settings.version(game))
        form = GameSettingsForm(
            initial=initial, game=game, settings=settings, rules_locked=night_plan_locked(request, game)
        )
        return render(request, "scoring/game_settings.html", {"game": game, "form": form})
    form = GameSettingsForm(
        request.POST, game=game, settings=settings, rules_locked=night_plan_locked(request, game)
    )
    preview = _settings_preview(form, game)
    if preview is not None and "save" in request.POST:
        if preview["ending_changes"] and form.cleaned_data["confirm"] != preview["token"]:
            preview["confirm"] = True  # say how the game's end changes before saving it
        else:
            try:
                outcome = game_settings.change_settings(
                    game=game,
                    new=form.new_settings(),
                    expected=form.cleaned_data["version"],
                    actor=actor_for(request),
                )
            except RecordError as error:
                form.add_record_error(error)
                preview = None
            except game_settings.SettingsMovedOn as moved:
                preview = _settings_moved_on(form, game, moved.version)
            else:
                # A second tap of Save finds the first one's change stored: saved, as shown.
                repeated = form.cleaned_data["version"] != game_settings.version(game)
                if outcome.saved or repeated:
                    messages.success(request, _("The game's settings were saved."))
                else:
                    messages.info(request, _("Nothing to change: the settings are already as shown."))
                return redirect("scoring:game", code=game.code)
    context = {"game": game, "form": form, "preview": preview}
    return render(request, "scoring/game_settings.html", context, status=400 if form.errors else 200)


def _settings_preview(form: GameSettingsForm, game: Game) -> dict[str, Any] | None:
    """What the change the form asks for does to the game as it stands (None when the form or
    the engine refuses it; the form then holds the message next to the setting)."""
    if not form.is_valid():
        return None
    new = form.new_settings()
    try:
        outcome = game_settings.preview_settings(game=game, new=new)
    except RecordError as error:
        form.add_record_error(error)
        return None
    return settings_preview(outcome, new.players)


def _settings_moved_on(form: GameSettingsForm, game: Game, version: str) -> dict[str, Any] | None:
    """Another phone wrote meanwhile: nothing was saved. The entry stays, with the game's new
    version and a preview against the game as it is now, to be saved again."""
    assert isinstance(form.data, QueryDict)  # the form holds request.POST
    data = form.data.copy()
    data["version"] = version
    form.data = data
    preview = _settings_preview(form, game)
    form.add_error(
        None,
        _(
            "Nothing changed: another phone changed this game a moment ago. Check the preview against "
            "the game as it is now, then save again."
        ),
    )
    return preview
