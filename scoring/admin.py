from django.contrib import admin

from scoring.models import ClubRole, Game, GameSeat, Hand, HandChange


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["code", "variant", "deck", "seats", "hand_count", "finished", "winner", "updated_at"]
    list_filter = ["variant", "deck", "seats", "finished"]
    search_fields = ["code", "seat_rows__name"]
    readonly_fields = ["code", "hand_count", "finished", "winner", "scores", "chip_totals"]
    inlines = [GameSeatInline]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "updated_at"]
    readonly_fields = ["submission_id"]


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role", "updated_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username"]


@admin.register(HandChange)
class HandChangeAdmin(admin.ModelAdmin):
    """The audit trail is read-only, here too."""

    list_display = ["game", "hand_number", "action", "actor_label", "at"]
    list_filter = ["action"]
    readonly_fields = [field.name for field in HandChange._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


from scoring import league_admin  # noqa: E402, F401  (league records admin)
