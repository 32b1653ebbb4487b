"""The pages' URLs: what members read, where scorekeepers enter results, and the
organisers' pages (each area's module lists its own)."""

from __future__ import annotations

from django.urls import URLPattern, path

from league.web import accounts, entry, organise, pads, pages, reading, tonight

urlpatterns: list[URLPattern] = [
    path("", pages.home, name="home"),
    path("leagues/<int:league_id>/", pages.league_page, name="league"),
    path("events/<int:event_id>/", pages.event_page, name="event"),
    path("players/<int:player_id>/", pages.player_page, name="player"),
    path("tables/<int:table_id>/", entry.table_sheet, name="score-sheet"),
    path("tables/<int:table_id>/hands/new/", entry.hand_enter, name="hand-enter"),
    path("tables/<int:table_id>/hands/<int:number>/edit/", entry.hand_correct, name="hand-correct"),
    *organise.urlpatterns,
    *tonight.urlpatterns,
    *pads.urlpatterns,
    *accounts.urlpatterns,
    *reading.urlpatterns,
]
