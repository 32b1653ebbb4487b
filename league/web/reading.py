"""Pages that explain: how ratings work."""

from __future__ import annotations

from django.urls import URLPattern, path

from league.web import pages

urlpatterns: list[URLPattern] = [
    path("ratings/", pages.ratings_explained, name="ratings-explained"),
]
