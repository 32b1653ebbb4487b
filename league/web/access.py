"""Who may enter and correct results on the web pages.

The same rule as the API's (:mod:`league.api.access`), asked through the
same role lookup (:func:`league.selectors.club_role`): scorekeepers and
organisers of the table's club enter results. A signed-in user with nothing
to do with the club is answered 404, as for a table that does not exist, so
the pages reveal nothing to strangers; a member without the role (a user
linked to one of the club's players) gets 403; anonymous users are sent to
log in first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from league import selectors
from league.api.access import RESULTS
from league.models import Table

P = ParamSpec("P")


def _table_role(user: Any, table: Table) -> tuple[int, str | None]:
    """The table's club and ``user``'s role in it (one query for a signed-in
    user, none for an anonymous one): the sheet's links and the entry pages
    must answer a user alike."""
    club_id = table.round.event.league.club_id
    return club_id, selectors.club_role(user, club_id)


def may_enter_results(user: Any, table: Table) -> bool:
    """Whether ``user`` may enter and correct the results of ``table``."""
    _, role = _table_role(user, table)
    return role in RESULTS


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
            table = selectors.sheet_table(table_id)
        except Table.DoesNotExist:
            raise Http404("no such table") from None
        club_id, role = _table_role(request.user, table)
        if role is None and not selectors.club_player(request.user, club_id):
            raise Http404("no such table")
        if role not in RESULTS:
            return render(request, "league/_sheet_forbidden.html", {"table": table}, status=403)
        return view(request, table, *args, **kwargs)

    return wrapped
