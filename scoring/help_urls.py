from django.urls import path

from scoring import help_views

urlpatterns = [
    path("rules/", help_views.rules_help, name="rules_help"),
]
