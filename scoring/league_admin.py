"""Admin for club organisers: clubs (with seasons and roster), seasons, players (with roster)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring import league_services
from scoring.access_services import grant_founding_organiser
from scoring.league_models import Club, Membership, Player, Season


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["player"]


class PlayerMembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["club"]
    verbose_name = _("club")
    verbose_name_plural = _("clubs")


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    show_change_link = True


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [SeasonInline, MembershipInline]

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:  # whoever creates a club in the admin becomes its first organiser
            grant_founding_organiser(user=request.user, club_id=obj.pk)  # type: ignore[arg-type]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "starts_on"


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club_names", "created_at"]
    list_filter = ["memberships__club"]
    search_fields = ["name", "memberships__club__name"]
    inlines = [PlayerMembershipInline]
    actions = ["merge_selected"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).prefetch_related("clubs")

    @admin.display(description=_("clubs"))
    def club_names(self, player: Player) -> str:
        return ", ".join(club.name for club in player.clubs.all())

    @admin.action(description=_("Merge the two selected players (the older entry stays)"))
    def merge_selected(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        players = list(queryset.order_by("created_at", "pk"))
        if len(players) != 2:
            count = len(players)
            self.message_user(
                request,
                ngettext(
                    "Select exactly two players; %(n)d was selected.",
                    "Select exactly two players; %(n)d were selected.",
                    count,
                )
                % {"n": count},
                messages.ERROR,
            )
            return
        keep, duplicate = players
        try:
            league_services.merge_players(keep=keep, duplicate=duplicate)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
        else:
            self.message_user(request, _("Merged into %(name)s.") % {"name": keep.name}, messages.SUCCESS)
