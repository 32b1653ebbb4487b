"""The pages' URLs: what members read, where scorekeepers enter results, and the
organisers' pages (each area's module lists its own)."""

from __future__ import annotations

from django.urls import URLPattern, path

from league.web import (
    accounts,
    calendar,
    entry,
    exports,
    languages,
    lists,
    organise,
    organise_imports,
    organise_tidy,
    organise_webhooks,
    pad_entry,
    pads,
    pages,
    personal_link,
    personal_links,
    privacy,
    reading,
    season,
    table_link,
    take_off,
    tonight,
)

urlpatterns: list[URLPattern] = [
    path("", pages.home, name="home"),
    *languages.urlpatterns,
    *lists.urlpatterns,
    path("leagues/<int:league_id>/calendar.ics", calendar.league_calendar, name="league-calendar"),
    path("clubs/<int:club_id>/calendar.ics", calendar.club_calendar, name="club-calendar"),
    path(
        "leagues/<int:league_id>/standings.csv",
        exports.league_standings_csv,
        name="league-standings-csv",
    ),
    path(
        "leagues/<int:league_id>/ratings.csv", exports.league_ratings_csv, name="league-ratings-csv"
    ),
    path("leagues/<int:league_id>/games.csv", exports.league_games_csv, name="league-games-csv"),
    path(
        "leagues/<int:league_id>/games.jsonl", exports.league_games_jsonl, name="league-games-jsonl"
    ),
    path(
        "events/<int:event_id>/standings.csv",
        exports.event_standings_csv,
        name="event-standings-csv",
    ),
    path("events/<int:event_id>/games.csv", exports.event_games_csv, name="event-games-csv"),
    path("events/<int:event_id>/games.jsonl", exports.event_games_jsonl, name="event-games-jsonl"),
    *exports.urlpatterns,
    path("events/<int:event_id>/", pages.event_page, name="event"),
    path("players/<int:player_id>/", pages.player_page, name="player"),
    path("tables/<int:table_id>/", entry.table_sheet, name="score-sheet"),
    path("service-worker.js", entry.service_worker, name="service-worker"),
    path("tables/<int:table_id>/hands/new/", entry.hand_enter, name="hand-enter"),
    path("tables/<int:table_id>/hands/<int:number>/edit/", entry.hand_correct, name="hand-correct"),
    path("tables/<int:table_id>/confirmation/", entry.table_confirm, name="table-confirm"),
    *table_link.urlpatterns,
    *personal_link.urlpatterns,
    *personal_links.urlpatterns,
    *pad_entry.urlpatterns,
    *organise.urlpatterns,
    *season.urlpatterns,
    *organise_imports.urlpatterns,
    *organise_tidy.urlpatterns,
    *organise_webhooks.urlpatterns,
    *tonight.urlpatterns,
    *take_off.urlpatterns,
    *pads.urlpatterns,
    *accounts.urlpatterns,
    *privacy.urlpatterns,
    *reading.urlpatterns,
]
