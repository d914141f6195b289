"""Game access pages, mounted at the site root next to scoring/urls.py."""

from django.urls import path

from scoring import access_views

urlpatterns = [
    path("games/<str:code>/history/", access_views.game_history, name="game_history"),
    path("games/<str:code>/hand-over/", access_views.hand_over, name="game_hand_over"),
    path("games/<str:code>/take-over/<str:token>/", access_views.take_over, name="game_take_over"),
    # The league's club pages will link here (or move it under their own club URL).
    path("clubs/<int:club_id>/corrections/", access_views.club_corrections_page, name="club_corrections"),
]
