"""A table's score sheet, and where scorekeepers enter and correct its hands.

Views stay thin: reads come from :mod:`league.selectors` (each page a fixed
number of queries, whatever the number of hands), every write goes through
:mod:`league.services.results`, whose rules engine judges the hand; the form
(:mod:`league.web.hand_forms`) only shapes what was typed into a results-only
record and shows the engine's refusal by the field it concerns. A refused
hand stores nothing. After a hand is stored the browser is sent to the score
sheet (POST/redirect/GET), anchored at that hand.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_http_methods

import games
from league import access
from league.errors import Conflict, PreconditionFailed, ServiceError
from league.models import Confirmation, Game, Hand, HandSeat, League, Table
from league.selectors import clubs as clubs_selectors
from league.selectors import tables as tables_selectors
from league.services import confirmations, results
from league.web import sheet
from league.web.access import club_page_refusal, members_only_refusal, results_access
from league.web.form_summary import SummaryItem
from league.web.hand_forms import NO_TRUMP, HandForm, Stage

STALE_SHEET = gettext_lazy("The sheet changed while you were editing; here it is again.")
RACED = gettext_lazy(
    "Another change to this table got there first; here is the sheet as it is now."
)
CONFIRMED = gettext_lazy("This game is confirmed: ask the organiser to correct it.")


@dataclass(frozen=True)
class Route:
    """Where a table's result pages live, and who enters through them: a
    signed-in scorekeeper or organiser (by the table's id), or whoever holds
    the table's link (by its secret, ``token``), for ``seat``."""

    table: Table
    token: str | None = None
    seat: int | None = None

    @property
    def by_link(self) -> bool:
        return self.token is not None

    @property
    def sheet(self) -> str:
        if self.token is not None:
            return reverse("table-link", kwargs={"token": self.token})
        return reverse("score-sheet", kwargs={"table_id": self.table.pk})

    @property
    def enter(self) -> str:
        if self.token is not None:
            return reverse("table-link-enter", kwargs={"token": self.token})
        return reverse("hand-enter", kwargs={"table_id": self.table.pk})

    @property
    def pad(self) -> str:
        """The whole pad in one screen (league.web.pad_entry)."""
        if self.token is not None:
            return reverse("table-link-pad", kwargs={"token": self.token})
        return reverse("table-pad", kwargs={"table_id": self.table.pk})

    def correct(self, number: int) -> str:
        if self.token is not None:
            return reverse("table-link-correct", kwargs={"token": self.token, "number": number})
        return reverse("hand-correct", kwargs={"table_id": self.table.pk, "number": number})

    def sheet_at(self, number: int) -> str:
        return f"{self.sheet}#hand-{number}"


@require_http_methods(["GET", "HEAD", "POST"])
def table_sheet(request: HttpRequest, table_id: int) -> HttpResponse:
    """The score sheet, as the club keeps it on paper: a row per hand, a bid
    (or tricks) and a running score per player. Anyone may read it; its
    scorekeepers and organisers enter the next hand on it (posted here: one
    hand, one request, answered with the sheet updated) and correct from it,
    and its organisers confirm a game entered at the table."""
    if request.method == "POST":
        return _enter_as_scorekeeper(request, table_id)
    try:
        table = tables_selectors.sheet_table(table_id)
    except Table.DoesNotExist:
        raise Http404("no such table") from None
    if refusal := members_only_refusal(request, table.round.event.league.club):
        return refusal
    return sheet_response(request, Route(table=table))


@results_access
def _enter_as_scorekeeper(request: HttpRequest, table: Table) -> HttpResponse:
    return enter_on_sheet(request, Route(table=table))


def enter_on_sheet(request: HttpRequest, route: Route) -> HttpResponse:
    """Store the hand posted by the sheet's own form (trump, and every seat's
    bid and tricks, or maker, drops and tricks, in one request) and answer
    with the sheet as it is now, its form ready for the hand after; a refused
    hand is the sheet again, the form as typed with the refusal by its field
    (400; 409 when the sheet had moved on). Nothing is stored but a hand the
    engine took."""
    entry = _Entry(request, route)
    if entry.next_hand is None:
        return sheet_response(request, route, status=409, entry_note=GAME_OVER)
    if request.POST.get("number") != str(entry.next_hand["number"]):
        return sheet_response(request, route, status=409, entry_note=MOVED_ON)
    form = entry.form(Stage.WHOLE, data=request.POST)
    if not form.is_valid():
        return sheet_response(request, route, status=400, entry_form=form)
    number = entry.next_hand["number"]
    try:
        results.hand_submit(
            table=route.table, record=form.record(), number=number, by_seat=route.seat
        )
    except games.RecordError as error:
        if error.code == "game_over":
            return _sheet_again(request, route, status=409, entry_note=GAME_OVER)
        form.add_engine_error(error)
        return sheet_response(request, route, status=400, entry_form=form)
    except (ServiceError, IntegrityError):
        return _sheet_again(request, route, status=409, entry_note=MOVED_ON)
    messages.success(request, _("Hand %(number)s is on the sheet.") % {"number": number + 1})
    return _sheet_again(request, route, status=200, stored=number)


GAME_OVER = gettext_lazy(
    "Nothing was stored: the game is complete, and a complete game takes no more hands."
)
MOVED_ON = gettext_lazy(
    "This form was for another hand: the sheet has moved on. Here it is as it is now."
)


def sheet_response(
    request: HttpRequest,
    route: Route,
    *,
    status: int = 200,
    entry_form: HandForm | None = None,
    **extra: object,
) -> HttpResponse:
    """The score sheet page of ``route``'s table, as its viewer may use it:
    through the table's link (correct until the game is confirmed; confirm or
    dispute as a seat), or as a signed-in user (their role decides); with the
    next hand's form (``entry_form``, bound, to show one refused) for a viewer
    who may enter it. ``extra`` is added to the page (a refusal to show, say)."""
    table = route.table
    club_id = table.round.event.league.club_id
    if route.by_link:
        may_enter = table.confirmation != Confirmation.CONFIRMED
        may_confirm = route.seat is not None and route.seat != table.entered_seat
        confirm_url = reverse("table-link-confirm", kwargs={"token": route.token})
    else:
        role = clubs_selectors.club_role(request.user, club_id)
        may_enter = role in access.RESULTS
        may_confirm = role in access.ORGANISER
        confirm_url = reverse("table-confirm", kwargs={"table_id": table.pk})
    page = sheet.sheet_page(table=table, correct_url=route.correct if may_enter else None)
    page["route"] = route
    page["may_enter"] = may_enter
    if (
        may_enter
        and page["next_hand"] is not None
        and (not route.by_link or route.seat is not None)
    ):
        page["entry"] = _next_hand_entry(request, route, page, entry_form)
    page["columns"] = 1 + len(page["players"])  # a column a player, after the hand's
    waiting = table.confirmation in (Confirmation.AWAITING, Confirmation.DISPUTED)
    if route.by_link:
        waiting = table.confirmation == Confirmation.AWAITING
        names = [player.name for player in page["players"]]
        page["seat_choices"] = [{"seat": seat, "name": name} for seat, name in enumerate(names)]
        page["seat_url"] = reverse("table-link-seat", kwargs={"token": route.token})
        page["link_seat"] = names[route.seat] if route.seat is not None else None
        page["own_entry"] = waiting and route.seat is not None and not may_confirm
    page["may_confirm"] = waiting and may_confirm
    page["confirm_as_organiser"] = not route.by_link
    page["confirm_url"] = confirm_url
    # The history names the club's users: for its members, as the API's (league.access).
    if not route.by_link and club_id in clubs_selectors.member_club_ids(request.user):
        names = [player.name for player in page["players"]]
        page["history"] = sheet.sheet_history(table=table, names=names)
    page.update(extra)
    return render(request, "league/sheet.html", page, status=status)


@require_http_methods(["POST"])
def table_confirm(request: HttpRequest, table_id: int) -> HttpResponse:
    """An organiser confirms a game entered at its table (from its score
    sheet): it counts from now on, disputed or not."""
    try:
        table = tables_selectors.sheet_table(table_id)
    except Table.DoesNotExist:
        raise Http404("no such table") from None
    if refusal := club_page_refusal(request, table.round.event.league.club, roles=access.ORGANISER):
        return refusal
    return confirm_game(request, Route(table=table), agree=True, note="")


def confirm_game(request: HttpRequest, route: Route, *, agree: bool, note: str) -> HttpResponse:
    """Confirm or dispute ``route``'s game as its viewer (a seat through the
    link, or an organiser), with the version of the sheet they looked at; a
    refusal is the sheet again, saying why by the form (nothing stored)."""
    version = request.POST.get("version", "")
    try:
        sheet_version = int(version)
    except ValueError:
        sheet_version = -1  # a tampered form: refused as a stale sheet
    try:
        confirmations.game_confirm(
            table=route.table, agree=agree, seat=route.seat, note=note, version=sheet_version
        )
    except PreconditionFailed:
        return _sheet_again(request, route, status=409, confirm_refusal=CONFIRM_STALE)
    except ServiceError as error:
        status = 409 if isinstance(error, Conflict) else 400
        shown: dict[str, object] = {"note_value": note}
        shown["note_error" if error.field == "note" else "confirm_refusal"] = _sentence(
            error.message
        )
        return _sheet_again(request, route, status=status, **shown)
    messages.success(
        request,
        _("The results are confirmed: the game counts.")
        if agree
        else _("The dispute is sent to the organiser, who settles it."),
    )
    return redirect(f"{route.sheet}#confirmation")


CONFIRM_STALE = gettext_lazy(
    "The sheet changed since you looked at it: check it again before you confirm."
)


def _next_hand_entry(
    request: HttpRequest, route: Route, page: sheet.SheetPage, form: HandForm | None
) -> dict[str, object]:
    """What the sheet's form of the next hand shows (no query: the sheet's
    page has the players and the next hand): the form (a fresh one, unless a
    refused one is given), its rows and error summary, and the hand."""
    next_hand = page["next_hand"]
    names = [player.name for player in page["players"]]
    if form is None:
        form = next_hand_form(route.table.round.event.league, names, next_hand)
    return {
        "form": form,
        "rows": form.seat_rows(),
        "summary": [*form.summary()] if form.is_bound else [],
        "hand_shown": next_hand["number"] + 1,
        "dealer": names[next_hand["dealer"]],
        "cards": next_hand["cards"],
        "action": f"{route.sheet}#next-hand",
        "offline": _offline_config(request, route, page, names),
    }


def _offline_config(
    request: HttpRequest, route: Route, page: sheet.SheetPage, names: list[str]
) -> dict[str, object]:
    """What ``offline.js`` needs to keep the table's hands on the phone and
    send them to the API: the table as the page shows it (players, totals,
    dealing), where to send, and how (the table's link, or the session's
    CSRF token)."""
    table = route.table
    return {
        "table": table.pk,
        "game": table.game,
        "players": table.players,
        "names": names,
        "first_dealer": table.first_dealer,
        "hands_played": table.hands_played,
        "totals": list(table.totals),
        "schedule": page["schedule_list"],
        "seat": route.seat,
        "api": reverse("table-hands", kwargs={"pk": table.pk}),
        "sheet_api": reverse("table-sheet", kwargs={"pk": table.pk}),
        "auth": f"Table {route.token}" if route.token is not None else None,
        "csrf": None if route.token is not None else get_token(request),
        "words": _offline_words(table, page),
    }


OFFLINE_WAITING_MOST: Final = 60
"""Buck Euchre has no schedule: how many waiting hands the phone is given
words for (a game of 60 hands is far longer than any played)."""


def _offline_words(table: Table, page: sheet.SheetPage) -> dict[str, object]:
    """The words ``offline.js`` writes on the sheet, in the page's language:
    the script builds no sentence of its own. ``%(name)s`` placeholders are
    filled by the script; counted words come counted already, a text for each
    number the game can reach (the hands that may wait, the cards a hand deals),
    so that the script needs no plural rules of its own."""
    schedule = page["schedule_list"]
    most = len(schedule) - table.hands_played if schedule else OFFLINE_WAITING_MOST
    cards = sorted(set(schedule)) if schedule else [5]
    return {
        "forbidden": _(
            "this page may not enter hands any more: ask the organiser. "
            "The hands stay on this phone."
        ),
        "taken_first": _("another phone entered hand %(number)s first."),
        "confirmed": _("the game is confirmed: the organiser corrects it now."),
        "waiting": {
            str(n): ngettext("%(count)s hand waiting to send", "%(count)s hands waiting to send", n)
            % {"count": n}
            for n in range(1, max(most, 1) + 1)
        },
        "dropped": pgettext("Buck Euchre: dropped out of the hand", "dropped"),
        "maker": pgettext("maker, short", "M"),
        "euchred": pgettext("Buck Euchre penalty", "euchred"),
        "bucked": pgettext("Buck Euchre penalty", "bucked"),
        "penalty": pgettext("Buck Euchre penalty", "%(reason)s +%(points)s"),
        "not_taken": pgettext("a hand on the phone", "not taken"),
        "waiting_mark": pgettext("a hand on the phone", "waiting"),
        "bid_took": _("%(name)s bid %(bid)s, took %(tricks)s"),
        "name_dropped": _("%(name)s dropped"),
        "name_took": _("%(name)s took %(tricks)s"),
        "suits": {suit.value: sheet.suit_label(suit).word for suit in games.Suit},
        "trump": _("%(suit)s trump"),
        "no_trump": _("no trump"),
        "hand_words": _("%(trump)s: %(seats)s"),
        "not_taken_title": _("Hand %(number)s was not taken: %(detail)s"),
        "yours": _("Yours, kept on this phone: %(hand)s."),
        "theirs_reading": _("Stored (entered by another phone): reading the sheet…"),
        "theirs": _("Stored (entered by another phone): %(hand)s."),
        "keep_stored": _("Keep the stored one, drop mine"),
        "drop_mine": _("Drop mine"),
        "put_mine": _("Put mine in its place"),
        "not_found": _("not found"),
        "unknown_offline": _("unknown while the connection is down"),
        "hand": _("Hand %(number)s"),
        "cards_each": {
            str(n): ngettext(
                "%(counter)s card each, %(dealer)s deals",
                "%(counter)s cards each, %(dealer)s deals",
                n,
            )
            % {"counter": n, "dealer": "%(dealer)s"}
            for n in cards
        },
        "save_hand": _("Save hand %(hand_shown)s"),
        "enter_hand": _("Enter hand %(number)s"),
        "dealer": pgettext("a seat's note on the form", "dealer"),
        "leads": pgettext("a seat's note on the form", "leads"),
    }


def _sheet_again(
    request: HttpRequest, route: Route, *, status: int, **extra: object
) -> HttpResponse:
    """The sheet as it is now (the table read again), with ``extra`` shown."""
    fresh = replace(route, table=tables_selectors.sheet_table(route.table.pk))
    return sheet_response(request, fresh, status=status, entry_form=None, **extra)


def _sentence(message: str) -> str:
    """A service's message as the page writes it: a capital, a full stop."""
    return message[:1].upper() + message[1:].rstrip(".") + "."


@require_http_methods(["GET", "HEAD", "POST"])
@results_access
def hand_enter(request: HttpRequest, table: Table) -> HttpResponse:
    """The next hand, for a scorekeeper or organiser (:func:`enter_hand`)."""
    return enter_hand(request, Route(table=table))


@require_http_methods(["GET", "HEAD", "POST"])
@results_access
def hand_correct(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    """Correct a stored hand, for a scorekeeper or organiser (:func:`correct_hand`)."""
    return correct_hand(request, Route(table=table), number)


def enter_hand(request: HttpRequest, route: Route) -> HttpResponse:
    """The next hand: Bluke in two steps (the bids, checked by the engine,
    then the tricks), Buck Euchre in one."""
    entry = _Entry(request, route)
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


def correct_hand(request: HttpRequest, route: Route, number: int) -> HttpResponse:
    """Correct a stored hand: prefilled from it, stored as results only, every
    later hand replayed after it; the table's version travels with the form
    so that a correction made on a sheet that has changed since is refused.
    Through a table link, a confirmed game is the organiser's to correct."""
    table = route.table
    found = tables_selectors.sheet_hand(table=table, number=number)
    if found is None:
        raise Http404("no such hand")
    fix = _Correction(request, route, *found)
    if route.by_link and table.confirmation == Confirmation.CONFIRMED:
        return fix.refused(str(CONFIRMED))
    if request.method != "POST":
        return fix.render(fix.form())
    if request.POST.get("version") != str(table.version):
        return fix.again(str(STALE_SHEET))
    form = fix.form(data=request.POST)
    if not form.is_valid():
        return fix.render(form)
    try:
        results.hand_correct(
            table=table,
            number=number,
            record=form.record(),
            version=form.cleaned_data["version"],
            by_seat=route.seat,
        )
    except PreconditionFailed:
        return fix.again(str(STALE_SHEET))
    except ServiceError as error:
        if error.code == "confirmed":
            return fix.refused(str(CONFIRMED))
        return fix.again(str(RACED))
    except IntegrityError:
        return fix.again(str(RACED))
    except games.RecordError as error:
        # A later hand may no longer fit: the form says which, at its top.
        form.add_engine_error(error, number=number)
        return fix.render(form)
    messages.success(request, _("Hand %(number)s is corrected.") % {"number": number + 1})
    return redirect(route.sheet_at(number))


def next_hand_form(
    league: League,
    names: Sequence[str],
    next_hand: dict[str, int],
    *,
    stage: Stage = Stage.WHOLE,
    data: Mapping[str, object] | None = None,
    initial: dict[str, object] | None = None,
    prefix: str | None = None,
) -> HandForm:
    """The form of a table's next hand (``next_hand``: its number, dealer and
    cards), the players by seat ``names``, tied to the hand's number; its fields
    named ``<prefix>-<field>`` when a page holds several (the whole pad)."""
    return HandForm(
        data,
        game=league.game,
        seats=names,
        dealer=next_hand["dealer"],
        cards=next_hand["cards"],
        options=league.options,
        stage=stage,
        key="number",
        initial={"number": next_hand["number"], **(initial or {})},
        prefix=prefix,
    )


class _Page:
    """What the hand pages share: the table, its players by seat, the render."""

    template = "league/hand_form.html"
    mode = ""
    """The page's kind, for the template: ``enter`` or ``correct``."""

    def __init__(self, request: HttpRequest, route: Route) -> None:
        self.request = request
        self.route = route
        self.table = table = route.table
        self.league = table.round.event.league
        self.bluke = self.league.game == Game.BLUKE
        self.names = [
            seating.player.name for seating in tables_selectors.sheet_seatings(table=table)
        ]

    def context(self, **extra: object) -> dict[str, object]:
        return {
            "table": self.table,
            "league": self.league,
            "event": self.table.round.event,
            "bluke": self.bluke,
            "route": self.route,
            "link_seat": self.names[self.route.seat] if self.route.seat is not None else None,
            **extra,
        }

    def page(self, status: int = 200, **extra: object) -> HttpResponse:
        return render(self.request, self.template, self.context(**extra), status=status)

    def shown(self) -> dict[str, object]:
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

    def __init__(self, request: HttpRequest, route: Route) -> None:
        super().__init__(request, route)
        self.next_hand = tables_selectors.sheet_next_hand(table=route.table)
        self.first_stage = Stage.BIDS if self.bluke else Stage.WHOLE

    def form(
        self,
        stage: Stage,
        *,
        data: Mapping[str, object] | None = None,
        initial: dict[str, object] | None = None,
    ) -> HandForm:
        assert self.next_hand is not None
        return next_hand_form(
            self.league, self.names, self.next_hand, stage=stage, data=data, initial=initial
        )

    def shown(self) -> dict[str, object]:
        assert self.next_hand is not None
        return {
            "crumb": _("Hand %(number)s") % {"number": self.next_hand["number"] + 1},
            "hand_shown": self.next_hand["number"] + 1,
            "dealer": self.names[self.next_hand["dealer"]],
            "cards": self.next_hand["cards"],
            "action": self.route.enter,
        }

    def complete(self, *, posted: bool) -> HttpResponse:
        """The game is over: no form. A hand posted to it is refused (409)."""
        return self.page(
            409 if posted else 200, mode="complete", crumb=_("Game complete"), posted=posted
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
                _("This form was for another hand: the sheet has moved on. Here is the next hand.")
            ],
            status=409,
        )

    def bids_again(self) -> HttpResponse:
        """Step two carried bids the rules refuse (changed on the way): step
        one again, with the engine's refusal by the bid it concerns."""
        form = self.form(Stage.BIDS, data=self.request.POST)
        form.is_valid()
        return self.render(
            form, notes=[_("The bids were changed after step one: check them again.")]
        )

    def submit(self, form: HandForm) -> HttpResponse:
        assert self.next_hand is not None
        number = self.next_hand["number"]
        try:
            results.hand_submit(
                table=self.table, record=form.record(), number=number, by_seat=self.route.seat
            )
        except games.RecordError as error:
            if error.code == "game_over":
                return self.complete(posted=True)
            if form.add_engine_error(error) in form.carried_fields():
                return self.bids_again()
            return self.render(form)
        except (ServiceError, IntegrityError):
            fresh = replace(self.route, table=tables_selectors.sheet_table(self.table.pk))
            return _Entry(self.request, fresh).moved_on()
        messages.success(
            self.request, _("Hand %(number)s is on the sheet.") % {"number": number + 1}
        )
        return redirect(self.route.sheet_at(number))


class _Correction(_Page):
    """The page that corrects one stored hand."""

    mode = "correct"

    def __init__(
        self, request: HttpRequest, route: Route, hand: Hand, lines: list[HandSeat]
    ) -> None:
        super().__init__(request, route)
        self.hand = hand
        self.lines = lines

    def stored(self) -> dict[str, object]:
        """The stored hand as the form's initial values."""
        hand = self.hand
        initial: dict[str, object] = {
            "version": self.table.version,
            "trump": hand.trump or NO_TRUMP,
        }
        if not self.bluke:
            initial["maker"] = "" if hand.maker is None else str(hand.maker)
        for line in self.lines:
            initial[f"tricks_{line.seat}"] = line.tricks
            if self.bluke:
                initial[f"bid_{line.seat}"] = line.bid
            else:
                initial[f"drop_{line.seat}"] = line.dropped
        return initial

    def form(self, *, data: Mapping[str, object] | None = None) -> HandForm:
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

    def shown(self) -> dict[str, object]:
        return {
            "crumb": _("Correct hand %(number)s") % {"number": self.hand.number + 1},
            "hand": self.hand,
            "hand_shown": self.hand.number + 1,
            "dealer": self.names[self.hand.dealer],
            "cards": self.hand.cards,
            "action": self.route.correct(self.hand.number),
        }

    def again(self, note: str) -> HttpResponse:
        """The hand as it is stored now, on the table's current version, with
        ``note`` saying why (409); a hand gone meanwhile is a 404."""
        table = tables_selectors.sheet_table(self.table.pk)
        found = tables_selectors.sheet_hand(table=table, number=self.hand.number)
        if found is None:
            raise Http404("no such hand")
        fresh = _Correction(self.request, replace(self.route, table=table), *found)
        return fresh.render(fresh.form(), notes=[note], status=409)

    def refused(self, note: str) -> HttpResponse:
        """No form: the correction is not this page's to make (409 when posted)."""
        status = 409 if self.request.method == "POST" else 200
        shown = self.hand.number + 1
        return self.page(
            status,
            mode="refused",
            crumb=_("Hand %(number)s") % {"number": shown},
            note=note,
            hand_shown=shown,
        )


SERVICE_WORKER_FILES: Final = (
    "league/site.css",
    "league/sheet.css",
    "league/print.css",
    "league/rules.js",
    "league/offline.js",
)
"""The files a table's sheet needs, kept by the service worker for offline use."""


@require_http_methods(["GET", "HEAD"])
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker that keeps a table's sheet for offline use
    (``templates/league/service-worker.js``), from the site's root so that its
    scope covers the sheets (``Service-Worker-Allowed``). Its cache is named
    after the files' addresses, which change with their content in
    production: a new version replaces the old copies."""
    files = [static(name) for name in SERVICE_WORKER_FILES]
    version = hashlib.sha256("\n".join(files).encode()).hexdigest()[:12]
    response = render(
        request,
        "league/service-worker.js",
        {"files": json.dumps(files), "version": version, "static_prefix": static("")},
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
