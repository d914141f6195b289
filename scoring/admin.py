"""The admin of the table's records: the operator's tool, for site superusers only (docs/security.md).

What must go through the services is not editable here: hands, seats, the signatures and the
corrections trail are read-only (the services rescore the game, keep its statistics and write the
trail); a game is filed (club, season, date, place, note) through `filing.set_game_details`, which
writes taking a game out of its club to the trail; a game with hands or corrections cannot be
deleted here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from scoring import filing
from scoring.models import Game, GameSeat, GameSignature, Hand, HandChange
from scoring.permissions import actor_for


class ReadOnlyRows:
    """An inline whose rows are shown, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class GameSeatInline(ReadOnlyRows, admin.TabularInline[GameSeat, Game]):
    """Read-only: seats are linked to players on the game's "file in a club" page."""

    model = GameSeat
    extra = 0
    fields = ["seat", "name", "player"]
    readonly_fields = ["seat", "name", "player"]


class GameSignatureInline(ReadOnlyRows, admin.TabularInline[GameSignature, Game]):
    """Read-only: a side signs on the game's page (scoring/services/confirm.py)."""

    model = GameSignature
    extra = 0
    fields = ["side", "signed_at", "signer", "signer_label"]
    readonly_fields = ["side", "signed_at", "signer", "signer_label"]


class GameAdminForm(forms.ModelForm[Game]):
    """Checks the filing as the game's details page does, naming the field."""

    class Meta:
        model = Game
        fields = ["club", "season", "played_on", "place", "note"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        season = data.get("season")
        refusal = season.refuses(club=data.get("club"), on=data.get("played_on")) if season else None
        if refusal is not None:
            self.add_error(*refusal)
        return data


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    form = GameAdminForm
    list_display = ["code", "variant", "deck", "seats", "hand_count", "finished", "winner", "updated_at"]
    list_filter = ["variant", "deck", "seats", "finished", "club"]
    search_fields = ["code", "seat_rows__name", "club__name"]
    # The rules of a game and its hands change only through the game page (services rescore the
    # game and keep the audit trail); the admin files games through the filing service.
    readonly_fields = [
        "code", "seats", "variant", "deck", "target", "min_bid", "first_dealer", "meld_needs_trick", "deals",
        "bid_steps", "meld_counts_from", "spread",
        "hand_count", "finished", "winner", "scores", "chip_totals", "signed_at",
    ]  # fmt: skip
    inlines = [GameSeatInline, GameSignatureInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a game starts on the setup page or by import, which check it with the engine

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        """Only a game without hands or corrections (one started by mistake): deleting any other
        would drop its corrections history and its standings without a trace."""
        if not super().has_delete_permission(request, obj) or obj is None:
            return False
        return obj.hand_count == 0 and not obj.hands.exists() and not obj.hand_changes.exists()

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        data = form.cleaned_data
        stored = Game.objects.get(pk=obj.pk)
        filing.set_game_details(
            game=stored,
            club=data.get("club"),
            season=data.get("season"),
            played_on=data.get("played_on"),
            place=data.get("place", ""),
            note=data.get("note", ""),
            actor=actor_for(request),
        )


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin[Hand]):
    """Read-only: a hand is corrected on the game page, which rescores and audits the change."""

    list_display = ["game", "number", "updated_at"]
    readonly_fields = ["game", "number", "data", "submission_id"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # "delete the last hand" on the game page rescores and keeps the trail


@admin.register(HandChange)
class HandChangeAdmin(admin.ModelAdmin[HandChange]):
    """The audit trail is read-only, here too."""

    list_display = ["game", "hand_number", "action", "actor_label", "at"]
    list_filter = ["action"]
    readonly_fields = [field.name for field in HandChange._meta.get_fields() if field.concrete]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
