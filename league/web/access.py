"""The pages' side of :mod:`league.access`: who may enter and correct results.

The rule is the API's, asked through the same helpers: a signed-in user with
nothing to do with the club is answered 404, as for a table that does not
exist, so the pages reveal nothing to strangers; a member without the role
(a user linked to one of the club's players) gets a page saying who may;
anonymous users are sent to log in first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Concatenate, ParamSpec

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league import access
from league.errors import Forbidden, NotFound
from league.models import Club, Table
from league.selectors import tables as tables_selectors

P = ParamSpec("P")


def results_access(
    view: Callable[Concatenate[HttpRequest, Table, P], HttpResponse],
) -> Callable[..., HttpResponse]:
    """Wrap a view of one table's results: ``view(request, table, ...)`` is
    called with the table (round, event, league and club fetched with it)
    only for a scorekeeper or organiser of its club."""

    @functools.wraps(view)
    def wrapped(
        request: HttpRequest, table_id: int, *args: P.args, **kwargs: P.kwargs
    ) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            table = access.access_table_for_results(request.user, table_id)
        except NotFound:
            raise Http404("no such table") from None
        except Forbidden:
            shown = {"table": tables_selectors.sheet_table(table_id)}
            return render(request, "league/_sheet_forbidden.html", shown, status=403)
        return view(request, table, *args, **kwargs)

    return wrapped


def club_page_refusal(
    request: HttpRequest, club: Club, *, roles: tuple[str, ...] = access.ORGANISER
) -> HttpResponse | None:
    """``None`` when the signed-in user holds one of ``roles`` in ``club``; otherwise
    the answer to send instead: the login page (returning here) for an anonymous
    user, 404 for a stranger to the club (as for a page that does not exist), a 403
    page naming the roles for a member without them.

    A view of the organisers' pages fetches its object (404 if missing), then::

        if refusal := club_page_refusal(request, league.club):
            return refusal
    """
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        access.check_club_role(request.user, club.pk, roles=roles)
    except NotFound:
        raise Http404("no such page") from None
    except Forbidden:
        shown = {"club": club, "organisers_only": roles == access.ORGANISER}
        return render(request, "league/forbidden.html", shown, status=403)
    return None


def members_only_refusal(request: HttpRequest, club: Club) -> HttpResponse | None:
    """``None`` when the request may read ``club``'s players, results and
    ratings (a public club, or one of its members: :func:`league.access.club_visible`);
    otherwise the answer: the login page (returning here) for an anonymous
    user, 404 for anyone else, as for a page that does not exist. A view of a
    club's reads fetches its object (404 if missing), then::

        if refusal := members_only_refusal(request, league.club):
            return refusal
    """
    if access.club_visible(request.user, club):
        return None
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise Http404("no such page")
