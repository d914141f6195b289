"""The admin of clubs, seasons, players and roles: the operator's tool, for site superusers only
(`accounts.lockout.LimitedAdminSite.has_permission`). Club organisers use the club pages.

Writes that keep another record in step go through the same service as on the web: merging players
(`merge_players`: the seats, nights and ledger follow), changing roles (`set_club_role`: never the
club's last organiser, and a scorer's phones lose their rights). A club created here gets its
creator as its first organiser.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.models import Club, ClubRole, Membership, Player, Season
from clubs.services import check_role_change, grant_founding_organiser, merge_players_as, set_club_role


class MembershipInline(admin.TabularInline[Membership, Club]):
    model = Membership
    extra = 1
    autocomplete_fields = ["player"]


class PlayerMembershipInline(admin.TabularInline[Membership, Player]):
    model = Membership
    extra = 1
    autocomplete_fields = ["club"]
    verbose_name = _("club")
    verbose_name_plural = _("clubs")


def _deletion(result: tuple[list[Any], dict[Any, Any], set[Any], list[Any]]) -> tuple[Any, ...]:
    """What the delete page of a club or season shows: the games filed under it when there are
    any (`Game.club`/`Game.season` PROTECT: nothing is deleted), else what goes with it. Its roles
    go with a deleted club: the last organiser's role, kept when deleted alone, is no reason to
    refuse."""
    deleted, counts, perms_needed, protected = result
    if protected:
        return deleted, counts, set(), protected
    return deleted, counts, perms_needed - {ClubRole._meta.verbose_name}, protected


class SeasonInline(admin.TabularInline[Season, Club]):
    model = Season
    extra = 0
    show_change_link = True


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [SeasonInline, MembershipInline]

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:  # whoever creates a club in the admin becomes its first organiser
            assert isinstance(request.user, User)  # a superuser, signed in
            grant_founding_organiser(user=request.user, club_id=obj.pk)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        return _deletion(super().get_deleted_objects(objs, request))


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin[Season]):
    list_display = ["name", "club", "starts_on", "ends_on", "closed_at"]
    list_filter = ["club"]
    search_fields = ["name", "club__name"]
    date_hierarchy = "starts_on"

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> list[str]:
        return ["club"] if obj is not None else []  # its games stay in their club

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        return _deletion(super().get_deleted_objects(objs, request))


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "club_names", "user", "created_at"]
    list_filter = ["memberships__club"]
    search_fields = ["name", "memberships__club__name", "user__username"]
    inlines = [PlayerMembershipInline]
    actions = ["merge_selected"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).prefetch_related("clubs")

    @admin.display(description=_("clubs"))
    def club_names(self, player: Player) -> str:
        return ", ".join(club.name for club in player.clubs.all())

    @admin.action(description=_("Merge the two selected players (the older entry stays)"))
    def merge_selected(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        """The web merge's service: every seat, night and payment of the duplicate follows."""
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
            merge_players_as(actor=request.user, keep=keep, duplicate=duplicate)
        except PermissionDenied as error:
            self.message_user(request, str(error), messages.ERROR)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
        else:
            self.message_user(request, _("Merged into %(name)s.") % {"name": keep.name}, messages.SUCCESS)


class ClubRoleForm(forms.ModelForm[ClubRole]):
    """Checks a role change as the web roles page does (`check_role_change`), naming the field."""

    request: HttpRequest

    class Meta:
        model = ClubRole
        fields = ["user", "club", "role"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        user = data.get("user") or (self.instance.user if self.instance.pk else None)
        club = data.get("club") or (self.instance.club if self.instance.pk else None)
        if user is None or club is None or not data.get("role"):
            return data
        try:
            check_role_change(actor=self.request.user, user=user, club_id=club.pk, role=data["role"])
        except (PermissionDenied, ValidationError) as error:
            self.add_error("role", error.messages if isinstance(error, ValidationError) else [str(error)])
        return data


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin[ClubRole]):
    """Roles change through `set_club_role`, as on the web roles page. Account and club of a role
    are fixed once it exists; a role is removed one at a time, never the last organiser's."""

    form = ClubRoleForm
    list_display = ["user", "club", "role", "updated_at"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        assert issubclass(form, ClubRoleForm)
        form.request = request
        return form

    def get_readonly_fields(self, request: HttpRequest, obj: ClubRole | None = None) -> list[str]:
        return ["user", "club"] if obj is not None else []

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # one at a time, through the service
        return actions

    def has_delete_permission(self, request: HttpRequest, obj: ClubRole | None = None) -> bool:
        if not super().has_delete_permission(request, obj) or obj is None:
            return False
        try:
            check_role_change(actor=request.user, user=obj.user, club_id=obj.club_id, role=None)
        except (PermissionDenied, ValidationError):
            return False
        return True

    def save_model(self, request: HttpRequest, obj: ClubRole, form: Any, change: bool) -> None:
        saved = set_club_role(actor=request.user, user=obj.user, club_id=obj.club_id, role=obj.role)
        if saved is not None:
            obj.pk = saved.pk

    def delete_model(self, request: HttpRequest, obj: ClubRole) -> None:
        set_club_role(actor=request.user, user=obj.user, club_id=obj.club_id, role=None)
