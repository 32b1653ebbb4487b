"""The Django admin, for organisers' occasional fixes."""

from django.contrib import admin

from league import models


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user"]
    list_filter = ["club"]
    search_fields = ["name"]


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "game"]
    list_filter = ["club", "game"]


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "date"]
    list_filter = ["league"]
    date_hierarchy = "date"


class SeatingInline(admin.TabularInline):
    model = models.Seating
    extra = 0
    readonly_fields = ["total", "place"]


@admin.register(models.Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "game", "players", "complete"]
    list_filter = ["game", "complete"]
    inlines = [SeatingInline]
    readonly_fields = ["complete", "version"]
