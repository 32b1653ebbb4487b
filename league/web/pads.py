"""Printable score pads: one per table of a round, with a QR code of its entry page.

A pad is the paper score sheet a table keeps during the game: the players in
seat order, who deals first, a row per hand with empty boxes to write in, and
a QR code that opens the table's entry page on a scorekeeper's phone, to type
the hands in from the paper. What a row says (the cards dealt, the dealer)
is the rules engine's (:class:`games.GameTally`, through
:func:`league.outputs.next_hand_of`, as for the score sheet's next hand),
for the league's options. The page is for the club's scorekeepers and
organisers; printed, each pad fills one portrait page (A4 or US Letter,
``league/print.css``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

import games
from league import access, outputs
from league.models import Game, Round, Table
from league.selectors import tables as tables_selectors
from league.services import links
from league.services.links import NewTableLink
from league.web.access import club_page_refusal
from league.web.qr import qr_svg

BUCK_EUCHRE_ROWS: Final = 24
"""Hand rows on a Buck Euchre pad. A game has no fixed length (real games
last 5 to 30 hands, says :mod:`games.limits`); 24 rows and the row of 25s
fill the page as Bluke's 25 hands do, and the pad says to go on overleaf."""


@dataclass(frozen=True)
class PadSeat:
    """A player at the table, by seat."""

    seat: int
    """From 1, as the table counts seats aloud."""
    name: str
    deals_first: bool


@dataclass(frozen=True)
class PadRow:
    """A hand's row: what is known before the game, the rest left blank."""

    number: int
    """From 1, as a paper score sheet counts hands."""
    cards: int
    """Cards dealt to each player (always five in Buck Euchre)."""
    dealer: str


@dataclass(frozen=True)
class Pad:
    """One table's score pad."""

    table: Table
    seats: list[PadSeat]
    first_dealer: str
    rows: list[PadRow]
    start: list[int]
    """Each seat's score before the first hand (25 in Buck Euchre)."""
    more_hands: bool
    """Whether the game may outlast the rows (Buck Euchre): go on overleaf."""
    entry_url: str
    qr: SafeString
    by_link: bool
    """Whether ``entry_url`` is the table's link (no login) or its entry page."""


def pad_of(table: Table, *, entry_url: str, by_link: bool = False) -> Pad:
    """The pad of ``table`` (from :func:`league.selectors.tables.pads_tables`,
    seatings fetched): no query. ``entry_url`` is the absolute address of the
    table's entry page, or of its link (``by_link``), which the QR code holds."""
    rules = tables_selectors.table_rules(table)
    names = [seating.player.name for seating in table.seatings.all()]
    bluke = isinstance(rules, games.Bluke)
    count = len(rules.schedule) if isinstance(rules, games.Bluke) else BUCK_EUCHRE_ROWS
    rows = [
        _row(rules, first_dealer=table.first_dealer, played=n, names=names) for n in range(count)
    ]
    label = _("QR code of the page to enter the hands of table %(number)s") % {
        "number": table.number
    }
    if by_link:
        label = _("QR code of the link of table %(number)s: its page, without a login") % {
            "number": table.number
        }
    return Pad(
        table=table,
        seats=[
            PadSeat(seat=seat + 1, name=name, deals_first=seat == table.first_dealer)
            for seat, name in enumerate(names)
        ],
        first_dealer=names[table.first_dealer],
        rows=rows,
        start=games.GameTally(rules, first_dealer=table.first_dealer).totals,
        more_hands=not bluke,
        entry_url=entry_url,
        qr=qr_svg(entry_url, label=label),
        by_link=by_link,
    )


def _row(rules: games.Rules, *, first_dealer: int, played: int, names: list[str]) -> PadRow:
    """The row of the hand after ``played`` hands, as the engine deals it."""
    hand = outputs.next_hand_of(
        games.GameTally(rules, first_dealer=first_dealer, hands_played=played)
    )
    assert hand is not None, "the pad has no row past the Bluke schedule"
    return PadRow(number=hand["number"] + 1, cards=hand["cards"], dealer=names[hand["dealer"]])


@require_http_methods(["GET", "HEAD", "POST"])
def round_pads(request: HttpRequest, round_id: int) -> HttpResponse:
    """A score pad for every table of the round, for the club's scorekeepers
    and organisers; a round without tables says so (200).

    Posted (``action=links``), it first makes a new link for every table of
    the round (:func:`league.services.links.round_links_create`, replacing
    their links) and prints the pads with them: each pad's QR code then opens
    its table's page without a login. The links' secrets are shown this once,
    so the answer is never stored (``no-store``); reloading it makes no new
    links (the browser asks before posting again)."""
    try:
        round_ = tables_selectors.pads_round(round_id)
    except Round.DoesNotExist:
        raise Http404("no such round") from None
    event = round_.event
    league = event.league
    if refusal := club_page_refusal(request, league.club, roles=access.RESULTS):
        return refusal
    tables = tables_selectors.pads_tables(round=round_)
    made: dict[int, NewTableLink] = {}
    if request.method == "POST":
        if request.POST.get("action") != "links":
            return HttpResponseBadRequest("unknown action")
        for table in tables:
            table.round = round_
        made = {
            new.link.table_id: new
            for new in links.table_links_create(tables=tables, by=request.user)
        }
    pads = [
        pad_of(
            table,
            entry_url=request.build_absolute_uri(
                reverse("table-link", kwargs={"token": made[table.pk].token})
                if table.pk in made
                else _entry_path(table)
            ),
            by_link=table.pk in made,
        )
        for table in tables
    ]
    response = render(
        request,
        "league/pads/round.html",
        {
            "round": round_,
            "event": event,
            "league": league,
            "bluke": league.game == Game.BLUKE,
            "pads": pads,
            "links_until": min((new.link.expires_at for new in made.values()), default=None),
        },
    )
    if made:
        add_never_cache_headers(response)
    return response


def _entry_path(table: Table) -> str:
    return reverse("hand-enter", kwargs={"table_id": table.pk})


urlpatterns: list[URLPattern] = [
    path("rounds/<int:round_id>/pads/", round_pads, name="round-pads"),
]
