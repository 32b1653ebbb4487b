"""A pad in one screen (issue 29 item 2): a table's hands typed row by row, as
on the paper pad, and sent at once.

The grid has a row a hand: the hands stored, as the sheet shows them, then a
row of inputs for each hand still to play (Bluke: the rest of its schedule;
Buck Euchre, whose length is not known, :data:`BUCK_EUCHRE_ROWS` more). With
JavaScript the running totals show under each seat as the row is typed
(``league/static/league/pad.js``, from ``rules.js``: the engine's rules,
restated); without it the grid is a plain form.

Sent, the rows are taken in order from the next hand, up to the first row
left empty, and each is stored as :func:`league.services.results.hand_submit`
stores any hand: checked by the engine, in a transaction of its own. The
first row the form or the engine refuses stops the rest: the hands before it
are stored, that row shows the refusal by its field, and it and the rows
after it stay as typed, stored nothing. A row filled after one left empty is
refused too (hands come in order). The pad is a scorekeeper's (by the
table's id) or the table link's (as the seat the browser said it is).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from django.contrib import messages
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import games
from league import outputs
from league.errors import ServiceError
from league.models import Game, Table
from league.selectors import tables as tables_selectors
from league.services import results
from league.web import sheet
from league.web.access import results_access
from league.web.entry import Route, next_hand_form
from league.web.hand_forms import HandForm
from league.web.table_link import SAY_WHO, link_page

BUCK_EUCHRE_ROWS: Final = 12
"""Rows of a Buck Euchre pad past the hands stored: games last 5 to 30 hands;
sent, the pad offers as many again."""


@dataclass
class PadRow:
    """A hand still to enter: its number (from 0), dealer, cards, and form."""

    number: int
    dealer: str
    cards: int
    form: HandForm

    @property
    def shown_number(self) -> int:
        return self.number + 1

    @property
    def prefix(self) -> str:
        return f"h{self.number}"


def pad_rows(
    table: Table, names: list[str], *, data: Mapping[str, object] | None = None
) -> list[PadRow]:
    """The rows of the hands still to play at ``table`` (no query), each form
    bound to ``data`` when given, prefixed ``h<number>``."""
    league = table.round.event.league
    rules = tables_selectors.table_rules(table)
    if table.complete:
        return []
    count = (
        len(rules.schedule) - table.hands_played
        if isinstance(rules, games.Bluke)
        else BUCK_EUCHRE_ROWS
    )
    rows = []
    for offset in range(count):
        number = table.hands_played + offset
        hand = outputs.next_hand_of(
            games.GameTally(rules, first_dealer=table.first_dealer, hands_played=number)
        )
        assert hand is not None
        form = next_hand_form(league, names, hand, data=data, prefix=f"h{number}")
        rows.append(
            PadRow(number=number, dealer=names[hand["dealer"]], cards=hand["cards"], form=form)
        )
    return rows


def pad_page(request: HttpRequest, route: Route) -> HttpResponse:
    """The pad of ``route``'s table: shown, or sent and shown again (see the
    module's docstring)."""
    table = route.table
    if request.method != "POST":
        return _render(request, route)
    names = [seating.player.name for seating in tables_selectors.sheet_seatings(table=table)]
    stored: list[int] = []
    refused: PadRow | None = None
    note = ""
    rows = pad_rows(table, names, data=request.POST)
    empty_at: PadRow | None = None
    for row in rows:
        if row.form.is_empty():
            empty_at = empty_at or row
            continue
        if empty_at is not None:
            refused, note = (
                empty_at,
                _(
                    "Hand %(empty)s is empty, but hand %(filled)s is filled in: "
                    "enter the hands in order."
                )
                % {"empty": empty_at.shown_number, "filled": row.shown_number},
            )
            break
        if not row.form.is_valid():
            refused = row
            break
        try:
            change = results.hand_submit(
                table=table, record=row.form.record(), number=row.number, by_seat=route.seat
            )
        except games.RecordError as error:
            row.form.add_engine_error(error)
            refused = row
            break
        except (ServiceError, IntegrityError):
            refused, note = row, _("Another phone entered this hand first: the sheet has moved on.")
            break
        table = change.table
        stored.append(row.number)
    route = Route(table=tables_selectors.sheet_table(table.pk), token=route.token, seat=route.seat)
    if stored:
        first, last = stored[0] + 1, stored[-1] + 1
        messages.success(
            request,
            _("Hand %(number)s is on the sheet.") % {"number": first}
            if first == last
            else _("Hands %(first)s to %(last)s are on the sheet.")
            % {"first": first, "last": last},
        )
    kept = {r.number: r for r in rows if refused is not None and r.number >= refused.number}
    return _render(
        request,
        route,
        refused=refused,
        note=note,
        kept=kept,
        status=400 if refused is not None else 200,
    )


def _render(
    request: HttpRequest,
    route: Route,
    *,
    refused: PadRow | None = None,
    note: str = "",
    kept: dict[int, PadRow] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The pad: the hands stored (the sheet's rows) and a row for each hand
    to come, fresh, or as typed (``kept``) from the refused one on."""
    table = route.table
    page = sheet.sheet_page(table=table)
    names = [player.name for player in page["players"]]
    rows = [(kept or {}).get(row.number, row) for row in pad_rows(table, names)]
    page.update(
        route=route,
        rows=rows,
        refused=refused,
        note=note,
        totals=list(table.totals),
        link_seat=names[route.seat] if route.seat is not None else None,
        players_count=len(names),
        bluke=table.game == Game.BLUKE,
    )
    return render(request, "league/pad_entry.html", page, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@results_access
def table_pad(request: HttpRequest, table: Table) -> HttpResponse:
    """The whole pad of a table in one screen, for a scorekeeper or organiser."""
    return pad_page(request, Route(table=table))


@require_http_methods(["GET", "HEAD", "POST"])
@link_page
def link_pad(request: HttpRequest, route: Route) -> HttpResponse:
    """The whole pad through the table's link, as the seat this browser is."""
    if route.seat is None:
        messages.info(request, SAY_WHO)
        return redirect(route.sheet)
    return pad_page(request, route)


urlpatterns: list[URLPattern] = [
    path("tables/<int:table_id>/pad/", table_pad, name="table-pad"),
    path("t/<slug:token>/pad/", link_pad, name="table-link-pad"),
]
