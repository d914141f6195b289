"""Admin for club organisers: clubs (with seasons and roster), seasons, players (with roster), roles."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.admin_safety import SafeAdminInputs, make_safe
from clubs.models import Club, ClubRole, Membership, Player, Season
from clubs.permissions import organised_club_ids
from clubs.services import grant_founding_organiser, merge_players


class OrganisedClubsOnly(SafeAdminInputs):
    """Admin pages show and change only the records of clubs the staff user organises.

    `club_path` is the lookup from the admin's model to its club; a superuser sees every club.
    Other clubs' records are not listed, and opening one by its address answers "not found".
    """

    club_path = "club"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)  # type: ignore[misc]
        clubs = organised_club_ids(request.user)
        if clubs is None:
            return queryset
        return queryset.filter(**{f"{self.club_path}__in": clubs}).distinct()

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        clubs = organised_club_ids(request.user)
        if db_field.name == "club" and clubs is not None:
            kwargs["queryset"] = Club.objects.filter(pk__in=clubs)
        return make_safe(super().formfield_for_foreignkey(db_field, request, **kwargs))  # type: ignore[misc]


class MembershipInline(OrganisedClubsOnly, admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["player"]


class PlayerMembershipInline(OrganisedClubsOnly, admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["club"]
    verbose_name = _("club")
    verbose_name_plural = _("clubs")


class SeasonInline(OrganisedClubsOnly, admin.TabularInline):
    model = Season
    extra = 0
    show_change_link = True


@admin.register(Club)
class ClubAdmin(OrganisedClubsOnly, admin.ModelAdmin):
    club_path = "pk"
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [SeasonInline, MembershipInline]

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:  # whoever creates a club in the admin becomes its first organiser
            grant_founding_organiser(user=request.user, club_id=obj.pk)  # type: ignore[arg-type]


@admin.register(Season)
class SeasonAdmin(OrganisedClubsOnly, admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "starts_on"


@admin.register(Player)
class PlayerAdmin(OrganisedClubsOnly, admin.ModelAdmin):
    club_path = "memberships__club"
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
            merge_players(keep=keep, duplicate=duplicate)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
        else:
            self.message_user(request, _("Merged into %(name)s.") % {"name": keep.name}, messages.SUCCESS)


@admin.register(ClubRole)
class ClubRoleAdmin(OrganisedClubsOnly, admin.ModelAdmin):
    list_display = ["user", "club", "role", "updated_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username"]
