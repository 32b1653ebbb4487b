"""A table's score sheet, and where scorekeepers enter and correct its hands.

Views stay thin: reads come from :mod:`league.selectors` (each page a fixed
number of queries, whatever the number of hands), every write goes through
:mod:`league.services.results`, whose rules engine judges the hand; the form
(:mod:`league.web.forms`) only shapes what was typed into a results-only
record and shows the engine's refusal by the field it concerns. A refused
hand stores nothing. After a hand is stored the browser is sent to the score
sheet (POST/redirect/GET), anchored at that hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

import games
from league import selectors
from league.errors import PreconditionFailed, ServiceError
from league.models import Game, Hand, HandSeat, Table
from league.services import results
from league.web import sheet
from league.web.access import may_enter_results, results_access
from league.web.forms import NO_TRUMP, HandForm, Stage, SummaryItem

STALE_SHEET = "The sheet changed while you were editing; here it is again."
RACED = "Another change to this table got there first; here is the sheet as it is now."


@require_http_methods(["GET", "HEAD"])
def table_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The score sheet, as the club keeps it on paper: a row per hand, a bid
    (or tricks) and a running score per player. Anyone may read it."""
    try:
        table = selectors.sheet_table(table_id)
    except Table.DoesNotExist:
        raise Http404("no such table") from None
    page = sheet.sheet_page(table=table)
    page["may_enter"] = may_enter_results(request.user, table)
    page["columns"] = 1 + len(page["players"])  # a column a player, after the hand's
    # The history names the club's users: for its members, as the API's (league.access).
    if table.round.event.league.club_id in selectors.member_club_ids(request.user):
        names = [player.name for player in page["players"]]
        page["history"] = sheet.sheet_history(table=table, names=names)
    return render(request, "league/sheet.html", page)


@require_http_methods(["GET", "HEAD", "POST"])
@results_access
def hand_enter(request: HttpRequest, table: Table) -> HttpResponse:
    """The next hand: Bluke in two steps (the bids, checked by the engine,
    then the tricks), Buck Euchre in one."""
    entry = _Entry(request, table)
    if entry.next_hand is None:
        return entry.complete(posted=request.method == "POST")
    if request.method != "POST":
        return entry.render(entry.form(entry.first_stage))
    if request.POST.get("number") != str(entry.next_hand["number"]):
        return entry.moved_on()
    if not entry.bluke:
        form = entry.form(Stage.WHOLE, data=request.POST)
        return entry.submit(form) if form.is_valid() else entry.render(form)
    step = request.POST.get("step")
    if step == "back":  # step two's "change the bids": step one again, as it was
        shown = entry.form(Stage.TRICKS, data=request.POST)
        return entry.render(entry.form(Stage.BIDS, initial=shown.raw()))
    if step == "tricks":
        form = entry.form(Stage.TRICKS, data=request.POST)
        if not form.is_valid() and form.carried_errors():
            return entry.bids_again()
        return entry.submit(form) if form.is_valid() else entry.render(form)
    form = entry.form(Stage.BIDS, data=request.POST)
    if not form.is_valid():
        return entry.render(form)
    return entry.render(entry.form(Stage.TRICKS, initial=form.carried()))


@require_http_methods(["GET", "HEAD", "POST"])
@results_access
def hand_correct(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    """Correct a stored hand: prefilled from it, stored as results only, every
    later hand replayed after it; the table's version travels with the form
    so that a correction made on a sheet that has changed since is refused."""
    found = selectors.sheet_hand(table=table, number=number)
    if found is None:
        raise Http404("no such hand")
    fix = _Correction(request, table, *found)
    if request.method != "POST":
        return fix.render(fix.form())
    if request.POST.get("version") != str(table.version):
        return fix.again(STALE_SHEET)
    form = fix.form(data=request.POST)
    if not form.is_valid():
        return fix.render(form)
    try:
        results.hand_correct(
            table=table, number=number, record=form.record(), version=form.cleaned_data["version"]
        )
    except PreconditionFailed:
        return fix.again(STALE_SHEET)
    except (ServiceError, IntegrityError):
        return fix.again(RACED)
    except games.RecordError as error:
        # A later hand may no longer fit: the form says which, at its top.
        form.add_engine_error(error, number=number)
        return fix.render(form)
    messages.success(request, f"Hand {number + 1} is corrected.")
    return redirect(_sheet_at(table, number))


def _sheet_at(table: Table, number: int) -> str:
    return f"{reverse('score-sheet', kwargs={'table_id': table.pk})}#hand-{number}"


class _Page:
    """What the hand pages share: the table, its players by seat, the render."""

    template = "league/hand_form.html"
    mode = ""
    """The page's kind, for the template: ``enter`` or ``correct``."""

    def __init__(self, request: HttpRequest, table: Table) -> None:
        self.request = request
        self.table = table
        self.league = table.round.event.league
        self.bluke = self.league.game == Game.BLUKE
        self.names = [seating.player.name for seating in selectors.sheet_seatings(table=table)]

    def context(self, **extra: Any) -> dict[str, Any]:
        return {
            "table": self.table,
            "league": self.league,
            "event": self.table.round.event,
            "bluke": self.bluke,
            **extra,
        }

    def page(self, status: int = 200, **extra: Any) -> HttpResponse:
        return render(self.request, self.template, self.context(**extra), status=status)

    def shown(self) -> dict[str, Any]:
        """What the form page says of the hand: its crumb, number, dealer and
        cards, and where the form posts to."""
        raise NotImplementedError

    def render(
        self, form: HandForm, *, notes: Sequence[str] = (), status: int = 200
    ) -> HttpResponse:
        """The form page; ``notes`` head the error summary, before the form's own."""
        summary = [SummaryItem(target=None, text=note) for note in notes]
        if form.is_bound:
            summary.extend(form.summary())
        return self.page(status, mode=self.mode, form=form, summary=summary, **self.shown())


class _Entry(_Page):
    """The page of the next hand at a table."""

    mode = "enter"

    def __init__(self, request: HttpRequest, table: Table) -> None:
        super().__init__(request, table)
        self.next_hand = selectors.sheet_next_hand(table=table)
        self.first_stage = Stage.BIDS if self.bluke else Stage.WHOLE

    def form(
        self, stage: Stage, *, data: Any = None, initial: dict[str, Any] | None = None
    ) -> HandForm:
        assert self.next_hand is not None
        return HandForm(
            data,
            game=self.league.game,
            seats=self.names,
            dealer=self.next_hand["dealer"],
            cards=self.next_hand["cards"],
            options=self.league.options,
            stage=stage,
            key="number",
            initial={"number": self.next_hand["number"], **(initial or {})},
        )

    def shown(self) -> dict[str, Any]:
        assert self.next_hand is not None
        return {
            "crumb": f"Hand {self.next_hand['number'] + 1}",
            "hand_shown": self.next_hand["number"] + 1,
            "dealer": self.names[self.next_hand["dealer"]],
            "cards": self.next_hand["cards"],
            "action": reverse("hand-enter", kwargs={"table_id": self.table.pk}),
        }

    def complete(self, *, posted: bool) -> HttpResponse:
        """The game is over: no form. A hand posted to it is refused (409)."""
        return self.page(
            409 if posted else 200, mode="complete", crumb="Game complete", posted=posted
        )

    def moved_on(self) -> HttpResponse:
        """The form was for a hand that is no longer next (entered meanwhile,
        or a tampered field): the next hand, afresh, with a word why; or the
        complete game, when the hand entered meanwhile was its last."""
        if self.next_hand is None:
            return self.complete(posted=True)
        return self.render(
            self.form(self.first_stage),
            notes=[
                "This form was for another hand: the sheet has moved on. Here is the next hand."
            ],
            status=409,
        )

    def bids_again(self) -> HttpResponse:
        """Step two carried bids the rules refuse (changed on the way): step
        one again, with the engine's refusal by the bid it concerns."""
        form = self.form(Stage.BIDS, data=self.request.POST)
        form.is_valid()
        return self.render(form, notes=["The bids were changed after step one: check them again."])

    def submit(self, form: HandForm) -> HttpResponse:
        assert self.next_hand is not None
        number = self.next_hand["number"]
        try:
            results.hand_submit(table=self.table, record=form.record(), number=number)
        except games.RecordError as error:
            if error.code == "game_over":
                return self.complete(posted=True)
            if form.add_engine_error(error) in form.carried_fields():
                return self.bids_again()
            return self.render(form)
        except (ServiceError, IntegrityError):
            return _Entry(self.request, selectors.sheet_table(self.table.pk)).moved_on()
        messages.success(self.request, f"Hand {number + 1} is on the sheet.")
        return redirect(_sheet_at(self.table, number))


class _Correction(_Page):
    """The page that corrects one stored hand."""

    mode = "correct"

    def __init__(
        self, request: HttpRequest, table: Table, hand: Hand, lines: list[HandSeat]
    ) -> None:
        super().__init__(request, table)
        self.hand = hand
        self.lines = lines

    def stored(self) -> dict[str, Any]:
        """The stored hand as the form's initial values."""
        hand = self.hand
        initial: dict[str, Any] = {"version": self.table.version, "trump": hand.trump or NO_TRUMP}
        if not self.bluke:
            initial["maker"] = "" if hand.maker is None else str(hand.maker)
        for line in self.lines:
            initial[f"tricks_{line.seat}"] = line.tricks
            if self.bluke:
                initial[f"bid_{line.seat}"] = line.bid
            else:
                initial[f"drop_{line.seat}"] = line.dropped
        return initial

    def form(self, *, data: Any = None) -> HandForm:
        return HandForm(
            data,
            game=self.league.game,
            seats=self.names,
            dealer=self.hand.dealer,
            cards=self.hand.cards,
            options=self.league.options,
            stage=Stage.WHOLE,
            key="version",
            initial=self.stored(),
        )

    def shown(self) -> dict[str, Any]:
        return {
            "crumb": f"Correct hand {self.hand.number + 1}",
            "hand": self.hand,
            "hand_shown": self.hand.number + 1,
            "dealer": self.names[self.hand.dealer],
            "cards": self.hand.cards,
            "action": reverse(
                "hand-correct", kwargs={"table_id": self.table.pk, "number": self.hand.number}
            ),
        }

    def again(self, note: str) -> HttpResponse:
        """The hand as it is stored now, on the table's current version, with
        ``note`` saying why (409); a hand gone meanwhile is a 404."""
        table = selectors.sheet_table(self.table.pk)
        found = selectors.sheet_hand(table=table, number=self.hand.number)
        if found is None:
            raise Http404("no such hand")
        fresh = _Correction(self.request, table, *found)
        return fresh.render(fresh.form(), notes=[note], status=409)
