from django.urls import path

from scoring import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
]
