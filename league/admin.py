"""The Django admin at ``/admin/``: for superusers (site staff) and their
occasional fixes, not for organisers (who get their own pages).

The admin bypasses nothing: every write it allows goes through
:mod:`league.services`, which checks it as it checks the API's writes, and a
refusal (:class:`~league.errors.ServiceError`) is shown as an error message
with nothing saved (the whole request is rolled back).

What it lets a superuser do:

- clubs: add one, rename it; give users a role in it or take it away (a club
  keeps at least one organiser);
- memberships: the same, listed across clubs (the bulk delete included);
- users: Django's own user admin, except that deleting a user first takes
  their roles away through the services (so not a club's last organiser);
- players: add one, rename them, link or unlink their user;
- leagues and events: rename them, move an event's date.

Read-only, because only the services and jobs may write them:

- a league's game and rule options (checked by the engine and fixed once
  hands are played), its club and slug; an event's league;
- tables and their seatings: who sits where is fixed once hands are played,
  and ``totals``, ``seat_players``, ``hands_played``, ``version`` and
  ``complete`` are derived from the hands (the seats and their running
  totals are shown as text);
- hands and their seat lines: they change only through the results services,
  which replay the game in the engine;
- standings and ratings: recomputed by the background jobs;
- the work owed to those jobs: written by the services, cleared by the jobs;
- the audit trail: written by the services, never edited (league/audit.py).

Deleting clubs, players, leagues, events or tables is not offered (the
services offer no such delete); nor is adding leagues, events or tables,
which the API and the pages do with the engine's checks.
``RatingHistory`` (composite key) and ``IdempotencyKey`` are not in the admin.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import models as db_models
from django.db import router, transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from league import models
from league.errors import ServiceError
from league.names import name_key
from league.season import season_in_words
from league.services import clubs, fixtures

Role = models.Membership.Role


def _adopt(obj: db_models.Model, stored: db_models.Model) -> None:
    """Make the admin's unsaved ``obj`` the row a service stored, since the
    admin goes on with ``obj`` (inlines, the log, the redirect)."""
    obj.pk = stored.pk
    obj.refresh_from_db()
    obj._state.adding = False


class ReadOnlyMixin:
    """No add, change or delete: the admin only shows these rows."""

    def has_add_permission(self, request: HttpRequest, obj: db_models.Model | None = None) -> bool:
        return False

    def has_change_permission(
        self, request: HttpRequest, obj: db_models.Model | None = None
    ) -> bool:
        return False

    def has_delete_permission(
        self, request: HttpRequest, obj: db_models.Model | None = None
    ) -> bool:
        return False


class ServiceAdmin(admin.ModelAdmin):
    """A model admin whose writes go through the services (``save_model``
    and friends, overridden by each subclass): a :class:`ServiceError` from
    them rolls the whole request back and becomes an error message. Nothing
    is deleted unless a subclass says so."""

    def has_delete_permission(
        self, request: HttpRequest, obj: db_models.Model | None = None
    ) -> bool:
        return False

    def _refusal_as_message(
        self, request: HttpRequest, back: str, view: Callable[..., HttpResponse], *args: object
    ) -> HttpResponse:
        try:
            with transaction.atomic(using=router.db_for_write(self.model)):
                return view(request, *args)
        except ServiceError as error:
            self.message_user(request, f"Nothing was saved: {error.message}", messages.ERROR)
            return HttpResponseRedirect(back)

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        return self._refusal_as_message(
            request,
            request.get_full_path(),
            super().changeform_view,
            object_id,
            form_url,
            extra_context,
        )

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        opts = self.opts
        back = reverse(
            f"admin:{opts.app_label}_{opts.model_name}_change",
            args=[object_id],
            current_app=self.admin_site.name,
        )
        return self._refusal_as_message(
            request, back, super().delete_view, object_id, extra_context
        )

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # The bulk "delete selected" action ends in delete_queryset.
        return self._refusal_as_message(
            request, request.get_full_path(), super().changelist_view, extra_context
        )


# -- clubs and memberships ------------------------------------------------------------


class MembershipInlineForm(forms.ModelForm):
    """A role's user is fixed once given: to move it, add the new user's role
    and delete the old one."""

    class Meta:
        model = models.Membership
        fields = ["user", "role"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["user"].disabled = True


class MembershipInline(admin.TabularInline):
    """Saved by :meth:`ClubAdmin.save_formset`, through the services."""

    model = models.Membership
    form = MembershipInlineForm
    extra = 0


def _memberships_save(club: models.Club, memberships: list[models.Membership]) -> None:
    """Give the roles, organisers first, so that handing the organiser role
    over never leaves the club without one on the way."""
    for membership in sorted(memberships, key=lambda m: m.role != Role.ORGANISER):
        clubs.membership_set(club=club, user=membership.user, role=membership.role)


def _membership_remove(membership: models.Membership) -> None:
    # As stored: the form may have changed the role of a row it deletes.
    clubs.membership_remove(membership=models.Membership.objects.get(pk=membership.pk))


@admin.register(models.Club)
class ClubAdmin(ServiceAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]

    def get_readonly_fields(
        self, request: HttpRequest, obj: models.Club | None = None
    ) -> list[str]:
        return ["slug"] if obj is not None else []

    def get_prepopulated_fields(
        self, request: HttpRequest, obj: models.Club | None = None
    ) -> dict[str, Sequence[str]]:
        return {"slug": ["name"]} if obj is None else {}

    def save_model(
        self,
        request: HttpRequest,
        obj: models.Club,
        form: forms.ModelForm[models.Club],
        change: bool,
    ) -> None:
        if not change:
            _adopt(obj, clubs.club_create(name=obj.name, slug=obj.slug, language=obj.language))
        elif {"name", "language"} & set(form.changed_data):
            club = models.Club.objects.get(pk=obj.pk)
            clubs.club_update(
                club=club,
                name=obj.name if "name" in form.changed_data else None,
                language=obj.language if "language" in form.changed_data else None,
            )

    def save_formset(
        self,
        request: HttpRequest,
        form: forms.ModelForm[models.Club],
        formset: forms.BaseModelFormSet[models.Membership, MembershipInlineForm],
        change: bool,
    ) -> None:
        memberships = formset.save(commit=False)
        _memberships_save(form.instance, memberships)
        for membership in formset.deleted_objects:
            _membership_remove(membership)


@admin.register(models.Membership)
class MembershipAdmin(ServiceAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    list_select_related = ["user", "club"]

    def get_readonly_fields(
        self, request: HttpRequest, obj: models.Membership | None = None
    ) -> list[str]:
        return ["club", "user"] if obj is not None else []

    def has_delete_permission(
        self, request: HttpRequest, obj: db_models.Model | None = None
    ) -> bool:
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def save_model(
        self,
        request: HttpRequest,
        obj: models.Membership,
        form: forms.ModelForm[models.Membership],
        change: bool,
    ) -> None:
        stored = clubs.membership_set(club=obj.club, user=obj.user, role=obj.role)
        if not change:
            _adopt(obj, stored)

    def delete_model(self, request: HttpRequest, obj: models.Membership) -> None:
        _membership_remove(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[models.Membership]) -> None:
        # One at a time, so that the last organiser of a club is refused (and
        # with it the whole action, as the view rolls back).
        for membership in queryset.order_by("pk"):
            _membership_remove(membership)


def _roles_remove(user: User) -> None:
    """Take away every role ``user`` holds, through the services (refused
    for a club's last organiser), before the user is deleted."""
    for membership in models.Membership.objects.filter(user=user).order_by("pk"):
        clubs.membership_remove(membership=membership)


class UserAdmin(ServiceAdmin, auth_admin.UserAdmin):
    """Django's own user admin, except that deleting a user first takes
    their roles away through the services: deleting a club's last organiser
    is refused, as removing their role is."""

    def has_delete_permission(
        self, request: HttpRequest, obj: db_models.Model | None = None
    ) -> bool:
        return admin.ModelAdmin.has_delete_permission(self, request, obj)

    def delete_model(self, request: HttpRequest, obj: User) -> None:
        _roles_remove(obj)
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> None:
        for user in queryset.order_by("pk"):
            _roles_remove(user)
        super().delete_queryset(request, queryset)


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), UserAdmin)


# -- players ----------------------------------------------------------------------


@admin.register(models.Player)
class PlayerAdmin(ServiceAdmin):
    list_display = ["name", "club", "user", "is_guest"]
    list_filter = ["club"]
    search_fields = ["name"]
    list_select_related = ["club", "user"]

    def get_readonly_fields(
        self, request: HttpRequest, obj: models.Player | None = None
    ) -> list[str]:
        # Guests are added at game nights; here they can only be kept.
        return ["club"] if obj is not None else ["is_guest"]

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[models.Player], search_term: str
    ) -> tuple[QuerySet[models.Player], bool]:
        """Names found as the club compares them too: "ada" or "A\u200bda" finds "Ada"."""
        found, duplicates = super().get_search_results(request, queryset, search_term)
        key = name_key(search_term)
        if key:
            found |= queryset.filter(name_key__contains=key)
        return found, duplicates

    def save_model(
        self,
        request: HttpRequest,
        obj: models.Player,
        form: forms.ModelForm[models.Player],
        change: bool,
    ) -> None:
        if not change:
            _adopt(obj, clubs.player_create(club=obj.club, name=obj.name, user=obj.user))
            return
        # the fields changed, by name, as the service's keyword arguments
        changes: dict[str, Any] = {}
        for field in ("name", "user", "is_guest"):
            if field in form.changed_data:
                changes[field] = getattr(obj, field)
        if changes:
            clubs.player_update(player=models.Player.objects.get(pk=obj.pk), **changes)


# -- leagues, events, tables ------------------------------------------------------


@admin.register(models.League)
class LeagueAdmin(ServiceAdmin):
    list_display = ["name", "club", "game"]
    list_filter = ["club", "game"]
    list_select_related = ["club"]
    fields = ["club", "name", "slug", "game", "rule_options", "season_format"]
    readonly_fields = ["club", "slug", "game", "rule_options", "season_format"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="options")
    def rule_options(self, league: models.League) -> str:
        """The options as ``name: value`` lines; read-only (the engine checks
        them, and they are fixed once hands are played)."""
        if not league.options:
            return "the game's defaults"
        return format_html_join(mark_safe("<br>"), "{}: {}", sorted(league.options.items()))

    @admin.display(description="season format")
    def season_format(self, league: models.League) -> str:
        """The season format in words; read-only (the organisers' season page
        changes it, and the standings are ranked again then)."""
        return season_in_words(league.season, first=league.table_size)

    def save_model(
        self,
        request: HttpRequest,
        obj: models.League,
        form: forms.ModelForm[models.League],
        change: bool,
    ) -> None:
        if "name" in form.changed_data:
            league = models.League.objects.get(pk=obj.pk)
            fixtures.league_update(league=league, name=obj.name)


class AttendanceInline(ReadOnlyMixin, admin.TabularInline):
    """Who is present (changed through the API: ``league.services.attendance``)."""

    model = models.Attendance
    fields = ["player", "from_round", "until_round", "changed_by", "changed_at"]
    extra = 0


@admin.register(models.Event)
class EventAdmin(ServiceAdmin):
    list_display = ["name", "league", "date", "start_time", "venue"]
    list_filter = ["league"]
    list_select_related = ["league"]
    date_hierarchy = "date"
    # a final is made by its service, from the standings (league.services.finals)
    readonly_fields = ["league", "is_final"]
    inlines = [AttendanceInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def save_model(
        self,
        request: HttpRequest,
        obj: models.Event,
        form: forms.ModelForm[models.Event],
        change: bool,
    ) -> None:
        fields = ("name", "date", "start_time", "venue")
        changes = {field: getattr(obj, field) for field in fields}
        changes = {k: v for k, v in changes.items() if k in form.changed_data}
        if changes:
            fixtures.event_update(event=models.Event.objects.get(pk=obj.pk), **changes)


class SeatingInline(ReadOnlyMixin, admin.TabularInline):
    model = models.Seating
    fields = ["seat", "player", "total", "place"]
    extra = 0


@admin.register(models.Table)
class TableAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: seats change through the API or pages (``table_reseat``,
    refused once hands are played), results through the results services."""

    list_display = ["__str__", "game", "players", "hands_played", "complete"]
    list_filter = ["game", "complete"]
    list_select_related = ["round__event"]
    readonly_fields = (
        "round",
        "number",
        "game",
        "players",
        "first_dealer",
        "seats",
        "hands_played",
        "complete",
        "version",
    )
    fields = readonly_fields  # without totals and seat_players: see seats
    inlines = [SeatingInline]

    @admin.display(description="seats and running totals")
    def seats(self, table: models.Table) -> str:
        """Each seat's player and running total, as text (``totals`` and
        ``seat_players`` are the table's stored copies)."""
        seatings = table.seatings.select_related("player").order_by("seat")
        totals = list(table.totals or [])
        return format_html_join(
            mark_safe("<br>"),
            "seat {}: {} ({})",
            (
                (
                    s.seat,
                    s.player.name,
                    totals[s.seat] if s.seat < len(totals) else "no total",
                )
                for s in seatings
            ),
        )


# -- results, standings and ratings (read-only) ---------------------------------------


class HandSeatInline(ReadOnlyMixin, admin.TabularInline):
    model = models.HandSeat
    fields = ["seat", "player", "dropped", "bid", "tricks", "points", "total"]
    extra = 0


@admin.register(models.Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: hands change only through the results services."""

    list_display = ["__str__", "dealer", "cards", "trump", "submitted_at"]
    list_select_related = ["table__round__event"]
    inlines = [HandSeatInline]


@admin.register(models.Standing)
class StandingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: recomputed by the standings job."""

    list_display = ["player", "league", "event", "rank", "games", "total_points", "computed_at"]
    list_filter = ["league"]
    list_select_related = ["player", "league", "event"]


@admin.register(models.JobOwed)
class JobOwedAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: the work owed to the background jobs, written by the services
    and cleared by the jobs; a row that stays, with its attempts and last
    error, is a job that keeps failing (docs/operations.md)."""

    list_display = [
        "kind",
        "target_id",
        "owed_since",
        "sent_at",
        "attempts",
        "failed_at",
        "last_error",
    ]
    list_filter = ["kind"]


@admin.register(models.AuditEntry)
class AuditEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only, as everywhere: the trail is append-only (:mod:`league.audit`).
    The table, round and event are shown as ids: they may have been drawn
    again, and so be gone, since."""

    list_display = ["at", "action", "via", "actor_name", "club", "table_id", "hand_number"]
    list_filter = ["action", "via"]
    list_select_related = ["club"]
    readonly_fields = (
        "at",
        "action",
        "via",
        "actor_name",
        "club",
        "event_id",
        "round_id",
        "table_id",
        "hand_number",
        "before",
        "after",
    )
    fields = readonly_fields


@admin.register(models.RatingScope)
class RatingScopeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: kept by the ratings job."""

    list_display = ["__str__", "club", "game", "rerate_from", "rated_at"]
    list_select_related = ["club", "league"]


@admin.register(models.Rating)
class RatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: kept by the ratings job."""

    list_display = ["player", "scope", "ordinal", "games"]
    list_select_related = ["player", "scope__club", "scope__league"]


@admin.register(models.ApiToken)
class ApiTokenAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """Read-only: users make and revoke their own tokens on their tokens page; the
    admin shows which exist (never a key: only its digest is stored)."""

    list_display = ["name", "user", "last_four", "created_at", "last_used_at"]
    list_select_related = ["user"]
    exclude = ["digest"]
