from django.urls import include, path

from scoring import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("league/", include("scoring.league_urls")),
]
