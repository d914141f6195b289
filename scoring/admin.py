from django.contrib import admin

from clubs.admin import OrganisedClubsOnly
from clubs.admin_safety import SafeAdminInputs
from scoring.models import Game, GameSeat, Hand, HandChange


class GameSeatInline(SafeAdminInputs, admin.TabularInline):
    model = GameSeat
    extra = 0


@admin.register(Game)
class GameAdmin(OrganisedClubsOnly, admin.ModelAdmin):
    list_display = ["code", "variant", "deck", "seats", "hand_count", "finished", "winner", "updated_at"]
    list_filter = ["variant", "deck", "seats", "finished"]
    search_fields = ["code", "seat_rows__name"]
    # The rules of a game and its hands change only through the game page (services rescore the
    # game and keep the audit trail); the admin files games and fixes names and links.
    readonly_fields = [
        "code", "seats", "variant", "deck", "target", "min_bid", "first_dealer", "meld_needs_trick",
        "hand_count", "finished", "winner", "scores", "chip_totals",
    ]  # fmt: skip
    inlines = [GameSeatInline]

    def has_add_permission(self, request):
        return False  # a game starts on the setup page or by import, which check it with the engine


@admin.register(Hand)
class HandAdmin(OrganisedClubsOnly, admin.ModelAdmin):
    """Read-only: a hand is corrected on the game page, which rescores and audits the change."""

    club_path = "game__club"
    list_display = ["game", "number", "updated_at"]
    readonly_fields = ["game", "number", "data", "submission_id"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(HandChange)
class HandChangeAdmin(OrganisedClubsOnly, admin.ModelAdmin):
    """The audit trail is read-only, here too."""

    club_path = "club_id"
    list_display = ["game", "hand_number", "action", "actor_label", "at"]
    list_filter = ["action"]
    readonly_fields = [field.name for field in HandChange._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
