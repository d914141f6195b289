"""A write endpoint wired the way the game views will be (phase 2), to test the wiring itself."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import include, path
from django.views.decorators.http import require_POST

from scoring import services
from scoring.models import Game
from scoring.permissions import actor_for, require_game_edit, require_game_view


@require_POST
@require_game_edit
def delete_last_hand(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, code=code)
    services.delete_last_hand(game=game, actor=actor_for(request))
    return HttpResponse("deleted")


@require_game_view
def scoreboard(request: HttpRequest, code: str) -> HttpResponse:
    return HttpResponse("scores")


urlpatterns = [
    path("games/<str:code>/delete-last/", delete_last_hand, name="test_delete_last"),
    path("games/<str:code>/board/", scoreboard, name="test_board"),
    path("", include("pinochle_site.urls")),
]
