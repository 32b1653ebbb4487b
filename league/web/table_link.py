"""A table's pages for whoever holds its link, without an account.

The link (``/t/<secret>/``, made by an organiser or scorekeeper:
:mod:`league.services.links`) opens that table's score sheet, its entry and
correction forms until the game is confirmed, and the confirmation of its
game, and nothing else: no other table, no other page's writes, no club data
beyond the sheet (the pages have no link out). The person says which seat
they are, once for this browser (kept in its session), and every change they
make is recorded as that seat's ("via table link, seat 2").

A made-up, revoked, replaced or expired link is a plain page saying that the
link no longer works (404), which tells nothing of which tables exist; every
answer is ``no-store``, not indexed, and counted against the link's rate
(:mod:`league.ratelimits`: 429 past it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, Final, ParamSpec

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from league import access, ratelimits
from league.errors import NotFound
from league.models import TableLink
from league.web import entry
from league.web.entry import Route

P = ParamSpec("P")

SEAT_KEY: Final = "table-link-seat:{}"
"""The session key of the seat a browser said it is, for one link (a new
link, even for the same table, asks again)."""
SAY_WHO: Final = gettext_lazy(
    "Say which seat you are first: what you enter is recorded as that seat's."
)


def link_page(
    view: Callable[Concatenate[HttpRequest, Route, P], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Wrap a view of a table's link pages: ``view(request, route, ...)`` is
    called with the route of the link's table (its secret, and the seat this
    browser said it is) only for a working link, within its rate."""

    @functools.wraps(view)
    def wrapped(
        request: HttpRequest, token: str, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        found = _working_link(request, token)
        if isinstance(found, HttpResponse):
            response = found
        else:
            seat = request.session.get(_seat_key(token))
            if not isinstance(seat, int) or not 0 <= seat < found.table.players:
                seat = None
            route = Route(table=found.table, token=token, seat=seat)
            response = view(request, route, *args, **kwargs)
        add_never_cache_headers(response)
        response["X-Robots-Tag"] = "noindex, nofollow"
        return response

    return wrapped


def _working_link(request: HttpRequest, token: str) -> TableLink | HttpResponse:
    if ratelimits.refused_over_limit(request, count=False):
        return render(request, "league/table_link_refused.html", {"too_many": True}, status=429)
    try:
        link = access.access_table_link(token)
    except NotFound:
        ratelimits.refused_over_limit(request, count=True)
        return render(request, "league/table_link_refused.html", status=404)
    if ratelimits.link_over_limit(request, link.pk):
        return render(request, "league/table_link_refused.html", {"too_many": True}, status=429)
    return link


@require_http_methods(["GET", "HEAD", "POST"])
@link_page
def link_sheet(request: HttpRequest, route: Route) -> HttpResponse:
    """The table's score sheet, with who this browser is, the next hand's
    form (posted here: :func:`league.web.entry.enter_on_sheet`), and the
    confirmation once the game is complete."""
    if request.method == "POST":
        if route.seat is None:
            return _say_who(request, route)
        return entry.enter_on_sheet(request, route)
    return entry.sheet_response(request, route)


@require_POST
@link_page
def link_seat(request: HttpRequest, route: Route) -> HttpResponse:
    """This browser says which seat it is (kept in its session)."""
    try:
        seat = int(request.POST.get("seat", ""))
    except ValueError:
        seat = -1
    if not 0 <= seat < route.table.players:
        return entry.sheet_response(
            request, route, status=400, seat_error=_("Choose the seat you are sitting in.")
        )
    assert route.token is not None
    request.session[_seat_key(route.token)] = seat
    return redirect(route.sheet)


def _seat_key(token: str) -> str:
    """The session key of the seat this browser said it is, for one link (a
    new link, even for the same table, asks again): named by the secret's
    digest, so that the session store holds no secret."""
    return SEAT_KEY.format(TableLink.digest_of(token)[:24])


@require_http_methods(["GET", "HEAD", "POST"])
@link_page
def link_enter(request: HttpRequest, route: Route) -> HttpResponse:
    """The next hand, entered as this browser's seat."""
    if route.seat is None:
        return _say_who(request, route)
    return entry.enter_hand(request, route)


@require_http_methods(["GET", "HEAD", "POST"])
@link_page
def link_correct(request: HttpRequest, route: Route, number: int) -> HttpResponse:
    """Correct a hand, as this browser's seat, until the game is confirmed."""
    if route.seat is None:
        return _say_who(request, route)
    return entry.correct_hand(request, route, number)


@require_POST
@link_page
def link_confirm(request: HttpRequest, route: Route) -> HttpResponse:
    """Confirm (``agree=yes``) or dispute (``agree=no``, with a ``note``) the
    game, as this browser's seat."""
    if route.seat is None:
        return entry.sheet_response(request, route, status=400, confirm_refusal=SAY_WHO)
    agree = request.POST.get("agree") == "yes"
    return entry.confirm_game(request, route, agree=agree, note=request.POST.get("note", ""))


def _say_who(request: HttpRequest, route: Route) -> HttpResponse:
    """Back to the sheet, where the seat is chosen (nothing was stored)."""
    messages.info(request, SAY_WHO)
    return redirect(route.sheet)


urlpatterns: list[URLPattern] = [
    path("t/<slug:token>/", link_sheet, name="table-link"),
    path("t/<slug:token>/seat/", link_seat, name="table-link-seat"),
    path("t/<slug:token>/hands/new/", link_enter, name="table-link-enter"),
    path("t/<slug:token>/hands/<int:number>/edit/", link_correct, name="table-link-correct"),
    path("t/<slug:token>/confirmation/", link_confirm, name="table-link-confirm"),
]
