"""Admin for site staff and club organisers: clubs (with seasons and roster), seasons, players (with
roster), roles.

Safe by construction for a staff organiser (docs/security.md, "The admin"): every list, every
foreign-key and many-to-many choice, every list filter and every autocomplete offers only the records
of the clubs they organise (`clubs.permissions.club_scoped`); a model whose way to its club is not
known offers nothing. Writes that the web makes through a service go through the same service and
check here: merging players, changing roles. A superuser (site staff) sees and may do everything.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.filters import RelatedFieldListFilter
from django.contrib.admin.options import BaseModelAdmin
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import ForeignKey, ManyToManyField, Model, QuerySet
from django.db.models.fields.related import RelatedField
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django_stubs_ext import StrOrPromise

from clubs.admin_safety import SafeModelAdmin, SafeTabularInline, make_safe, related_model
from clubs.ids import IdChoiceField, IdMultipleChoiceField
from clubs.models import Club, ClubRole, Membership, Player, Season
from clubs.permissions import club_scoped, is_site_admin, may_change_player, organised_club_ids
from clubs.services import check_role_change, grant_founding_organiser, merge_players_as, set_club_role
from clubs.signals import rows_filed_under


def _has_rows_filed_under(obj: Club | Season) -> bool:
    """Whether another app (the table's games) files rows under the club or season (clubs/signals.py)."""
    return any(answer for _receiver, answer in rows_filed_under.send(sender=type(obj), instance=obj))


class ScopedRelatedFilter(RelatedFieldListFilter):
    """A list filter on a relation that offers only the staff user's clubs' records."""

    def field_choices(
        self, field: RelatedField[Any, Any], request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        clubs = organised_club_ids(request.user)
        if clubs is None:
            return super().field_choices(field, request, model_admin)
        allowed = club_scoped(related_model(field)._default_manager.all(), clubs).values("pk")
        ordering = self.field_admin_ordering(field, request, model_admin)
        choices = field.get_choices(
            include_blank=False, limit_choices_to={"pk__in": allowed}, ordering=ordering
        )
        return [(str(value), str(label)) for value, label in choices]


_M = TypeVar("_M", bound=Model)


class OrganisedClubsOnly(BaseModelAdmin[_M]):
    """Admin pages show and change only the records of clubs the staff user organises.

    `club_path` is the lookup from the admin's model to its club; a superuser sees every club.
    Other clubs' records are not listed, and opening one by its address answers "not found".
    Every related choice in the forms is scoped the same way.
    """

    club_path = "club"

    def get_queryset(self, request: HttpRequest) -> QuerySet[_M]:
        queryset = super().get_queryset(request)
        clubs = organised_club_ids(request.user)
        if clubs is None:
            return queryset
        return queryset.filter(**{f"{self.club_path}__in": clubs}).distinct()

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField[Any] | None:
        clubs = organised_club_ids(request.user)
        if clubs is not None:
            queryset = kwargs.get("queryset") or related_model(db_field)._default_manager.all()
            kwargs["queryset"] = club_scoped(queryset, clubs)
        kwargs.setdefault("form_class", IdChoiceField)
        return make_safe(super().formfield_for_foreignkey(db_field, request, **kwargs))

    def formfield_for_manytomany(
        self, db_field: ManyToManyField[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelMultipleChoiceField[Any] | None:
        clubs = organised_club_ids(request.user)
        if clubs is not None:
            queryset = kwargs.get("queryset") or related_model(db_field)._default_manager.all()
            kwargs["queryset"] = club_scoped(queryset, clubs)
        kwargs.setdefault("form_class", IdMultipleChoiceField)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class MembershipInline(OrganisedClubsOnly[Membership], SafeTabularInline[Membership, Club]):
    model = Membership
    extra = 1
    autocomplete_fields = ["player"]


class PlayerMembershipInline(OrganisedClubsOnly[Membership], SafeTabularInline[Membership, Player]):
    model = Membership
    extra = 1
    autocomplete_fields = ["club"]
    verbose_name = _("club")
    verbose_name_plural = _("clubs")


class SeasonInline(OrganisedClubsOnly[Season], SafeTabularInline[Season, Club]):
    model = Season
    extra = 0
    show_change_link = True

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a season with games is a league record; see SeasonAdmin


@admin.register(Club)
class ClubAdmin(OrganisedClubsOnly[Club], SafeModelAdmin[Club]):
    club_path = "pk"
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [SeasonInline, MembershipInline]

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if not change:  # whoever creates a club in the admin becomes its first organiser
            assert isinstance(request.user, User)  # staff, signed in
            grant_founding_organiser(user=request.user, club_id=obj.pk)

    def has_delete_permission(self, request: HttpRequest, obj: Club | None = None) -> bool:
        """Site staff only, and only a club without games: deleting one would turn its games
        into club-less games and drop its seasons from the standings."""
        if not is_site_admin(request.user):
            return False
        return obj is not None and not _has_rows_filed_under(obj)


@admin.register(Season)
class SeasonAdmin(OrganisedClubsOnly[Season], SafeModelAdmin[Season]):
    list_display = ["name", "club", "starts_on", "ends_on"]
    list_filter = [("club", ScopedRelatedFilter)]
    search_fields = ["name", "club__name"]
    date_hierarchy = "starts_on"

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> list[str]:
        return ["club"] if obj is not None else []  # its games stay in their club

    def has_delete_permission(self, request: HttpRequest, obj: Season | None = None) -> bool:
        """Only a season without games: deleting one would take its games out of the standings."""
        allowed = super().has_delete_permission(request, obj)
        return allowed and obj is not None and not _has_rows_filed_under(obj)


@admin.register(Player)
class PlayerAdmin(OrganisedClubsOnly[Player], SafeModelAdmin[Player]):
    club_path = "memberships__club"
    list_display = ["name", "club_names", "created_at"]
    list_filter = [("memberships__club", ScopedRelatedFilter)]
    search_fields = ["name", "memberships__club__name"]
    inlines = [PlayerMembershipInline]
    actions = ["merge_selected"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).prefetch_related("clubs")

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> list[str]:
        """An account is tied to a player by the person accepting the club's invite link (the
        player page's "invite link"), never picked here by an organiser: only site staff may
        set or clear it in the admin."""
        return [] if is_site_admin(request.user) else ["user"]

    def has_change_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        """A player on another club's roster too is changed only by someone organising both."""
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or may_change_player(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or may_change_player(request.user, obj))

    @admin.display(description=_("clubs"))
    def club_names(self, player: Player) -> str:
        return ", ".join(club.name for club in player.clubs.all())

    @admin.action(description=_("Merge the two selected players (the older entry stays)"))
    def merge_selected(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        """The web merge's service and check (`merge_players_as`): the actor must organise every
        club of both players."""
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
        user, club = data.get("user") or self.instance_user(), data.get("club") or self.instance_club()
        if user is None or club is None or not data.get("role"):
            return data
        try:
            check_role_change(actor=self.request.user, user=user, club_id=club.pk, role=data["role"])
        except (PermissionDenied, ValidationError) as error:
            messages_ = error.messages if isinstance(error, ValidationError) else [str(error)]
            self.add_error("role", messages_)
        return data

    def instance_user(self) -> Any:
        return self.instance.user if self.instance.pk else None

    def instance_club(self) -> Club | None:
        return self.instance.club if self.instance.pk else None


@admin.register(ClubRole)
class ClubRoleAdmin(OrganisedClubsOnly[ClubRole], SafeModelAdmin[ClubRole]):
    """Roles change through `set_club_role`, as on the web roles page: only an organiser of the
    club, and never leaving the club without an organiser. Account and club of a role are fixed
    once it exists; removing a role is refused when it is the last organiser's."""

    form = ClubRoleForm
    list_display = ["user", "club", "role", "updated_at"]
    list_filter = ["role", ("club", ScopedRelatedFilter)]
    search_fields = ["user__username"]

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
