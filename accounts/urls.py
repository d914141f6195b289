"""Accounts, mounted at accounts/ (pinochle_site/urls.py)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts.views import passwords, session, signup

urlpatterns = [
    path("signup/", signup.signup, name="signup"),
    path("login/", session.login_view, name="login"),
    path("logout/", session.ForgetfulLogoutView.as_view(), name="logout"),
    path("password/change/", passwords.LimitedPasswordChangeView.as_view(), name="password_change"),
    path("password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password/reset/", passwords.password_reset, name="password_reset"),
    path("password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "password/reset/<slug:uidb64>/<slug:token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
