from django.contrib import admin

from scoring.models import Game, GameSeat, Hand


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


from scoring import league_admin  # noqa: E402, F401  (league records admin)
