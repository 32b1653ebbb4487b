"""The organisers' pages of a league's season: its season format, and its final.

- ``/leagues/<id>/season/``: how the season is ranked, today's order (wins,
  then average place) or points for places, a row of points for each table
  size the league seats, the best nights that count and the games to qualify,
  in a form a club fills without writing JSON. Saving a new format owes the
  standings a full rebuild (:func:`league.services.fixtures.league_update`).
- ``/leagues/<id>/final/``: the final, previewed (who qualifies, their seeds
  and the tables, nothing stored), then made from the preview's draw
  (:mod:`league.services.finals`); once made, the final and its result.

Only the club's organisers may open them
(:func:`league.web.access.club_page_refusal`); a refused form stores nothing.
"""

from __future__ import annotations

import copy

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from league.errors import ServiceError
from league.selectors import leagues as leagues_selectors
from league.selectors import seasons as seasons_selectors
from league.services import finals, fixtures
from league.users import login_of
from league.web.access import club_page_refusal
from league.web.form_summary import summary_of
from league.web.organise import RACED
from league.web.season_forms import FinalForm, SeasonForm

PREVIEW, MAKE = "preview", "make"


@require_http_methods(["GET", "HEAD", "POST"])
def league_season(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's season format: how its season is ranked."""
    league = get_object_or_404(leagues_selectors.league_for_manage(), pk=league_id)
    if refusal := club_page_refusal(request, league.club):
        return refusal
    form = SeasonForm(request.POST if request.method == "POST" else None, league=league)
    if form.is_bound and form.is_valid():
        try:
            # a copy, so that a refused change leaves the page's league as stored
            fixtures.league_update(league=copy.copy(league), season=form.season())
        except ServiceError as error:
            form.add_service_error(error)
        else:
            messages.success(
                request,
                _("The season format of “%(name)s” is saved; its standings are being recomputed.")
                % {"name": league.name},
            )
            return redirect("league", league_id=league.pk)
    return render(
        request,
        "league/organise/season_form.html",
        {
            "form": form,
            "summary": summary_of(form),
            "club": league.club,
            "league": league,
            "season_words": seasons_selectors.season_shown(league, count_nights=True).words,
            "rows": form.size_rows(),
        },
        status=400 if form.is_bound else 200,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def league_final(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's final: a form that previews it, then makes it from the
    preview (the same seed, so the same tables); once made, the final."""
    league = get_object_or_404(leagues_selectors.league_for_manage(), pk=league_id)
    if refusal := club_page_refusal(request, league.club):
        return refusal
    made = seasons_selectors.final_shown(league)
    context = {"club": league.club, "league": league, "final": made}
    if made is not None:
        return render(request, "league/organise/final.html", context)
    form = FinalForm(request.POST if request.method == "POST" else None)
    preview = None
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        arguments = {
            "league": league,
            "players": data["players"],
            "name": data["name"],
            "date": data["date"],
            "seed": data["seed"],
        }
        try:
            # made only from a preview of as many players (its seed, its tables)
            previewed = request.POST.get("previewed") == str(data["players"])
            if request.POST.get("action") == MAKE and data["seed"] is not None and previewed:
                final = finals.final_create(**arguments, by=login_of(request.user))
                messages.success(
                    request,
                    _("The final “%(name)s” is made: its tables are drawn.") % {"name": final.name},
                )
                return redirect("league-final", league_id=league.pk)
            preview = finals.final_preview(**arguments)
        except ServiceError as error:
            form.add_service_error(error)
        except IntegrityError:
            form.add_error(None, str(RACED))
    bound_and_wrong = form.is_bound and bool(form.errors)
    return render(
        request,
        "league/organise/final.html",
        {
            **context,
            "form": form,
            "summary": summary_of(form),
            "preview": preview,
            "season_words": seasons_selectors.season_shown(league, count_nights=False).words,
            "qualified": seasons_selectors.qualified_count(league),
        },
        status=400 if bound_and_wrong else 200,
    )


urlpatterns: list[URLPattern] = [
    path("leagues/<int:league_id>/season/", league_season, name="league-season"),
    path("leagues/<int:league_id>/final/", league_final, name="league-final"),
]
