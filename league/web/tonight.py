"""The night itself: the organiser's tonight page, the room screen and today's tables.

- **Tonight** (organisers): check players in and out with one tap each, add
  a guest, draw the next round (a preview first, stored only when
  published, with the seed and method that made it), swap or move players
  before a round's first hand, draw a round again. Every write goes through
  :mod:`league.services.attendance` or :mod:`league.services.seating`; a
  refusal is shown by the form that caused it and stores nothing; a success
  is a message and a redirect (POST/redirect/GET). A preview is never
  stored: its seed and method travel in hidden fields, so publishing stores
  exactly the draw that was shown.
- **The room screen** (anyone): the current round's tables for a TV, and the
  night's live standings with running totals labelled; it reloads itself.
- **Today** (anyone): today's events and their current tables, one tap
  from each table's score sheet.

Reads are in :mod:`league.selectors.tonight`, each page a fixed number of queries;
what the pages make of them without a query is :mod:`league.web.tonight_shaping`'s.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.http import parse_etags, urlencode
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from league import access
from league.errors import Conflict, ServiceError
from league.models import Event, Game
from league.selectors import draws as draws_selectors
from league.selectors import events as events_selectors
from league.selectors import tonight as tonight_selectors
from league.selectors.tonight import RoundView
from league.services import attendance, clubs, links, replies
from league.services import seating as seating_service
from league.users import login_of
from league.web import tonight_shaping
from league.web.access import club_page_refusal, members_only_refusal
from league.web.search import search_of
from league.web.tonight_forms import DrawForm, GuestForm, MoveForm, PlayerForm, SwapForm
from league.web.tonight_shaping import Preview

logger = logging.getLogger(__name__)

ROOM_REFRESH_SECONDS = 30

ROOM_PARTS_SECONDS: Final = 60
"""How long the room screen's live part, drawn for a tag, is kept in the cache:
every screen of the night asks for it at once when a hand comes in, and one
drawing serves them all (a process's, or with ``CACHE_URL`` the whole site's).
The tag moves with every change it shows; the minute bounds what it does not
follow (a player renamed)."""
"""How often the room screen reloads itself."""


@dataclass
class RoundPanel:
    """A round on the tonight page with its forms: bound ones (with the
    refusal, if any) for the form just posted, fresh ones otherwise."""

    view: RoundView
    drawable: bool
    """The next round to draw, or a drawn round without hands (drawn again)."""
    draw_form: DrawForm
    swap_form: SwapForm
    move_form: MoveForm
    errors: dict[str, str] = field(default_factory=dict)
    """The refusal shown by the form it concerns: ``draw``, ``swap`` or ``move``."""
    preview: Preview | None = None


class _Tonight:
    """The organiser's page of one event: its reads, its forms, its render."""

    def __init__(self, request: HttpRequest, event: Event) -> None:
        self.request = request
        self.event = event
        self.url = reverse("event-tonight", kwargs={"event_id": event.pk})
        self.rounds = tonight_selectors.event_rounds(event=event, with_links=True)
        # the rule of league.selectors.draws.event_draw_state, on the rounds read above
        self.next_round = draws_selectors.draw_state_of(
            (view.round.number, view.drawn) for view in self.rounds
        ).next_round
        self.errors: dict[str, str] = {}
        self.guest_form = GuestForm()
        self.panels = {
            view.round.number: RoundPanel(
                view=view,
                drawable=view.round.number == self.next_round or (view.drawn and not view.started),
                draw_form=DrawForm(initial={"round": view.round.number}),
                swap_form=SwapForm(initial={"round": view.round.number}),
                move_form=MoveForm(initial={"round": view.round.number}),
            )
            for view in self.rounds
        }

    def render(self, *, status: int = 200) -> HttpResponse:
        search = search_of(self.request)
        if search.error:  # the page, everyone listed, with the refusal by the box
            self.errors["search"] = search.error
            status = max(status, search.status)
        lines, present = tonight_selectors.attendance_lines(event=self.event, search=search.text)
        league = self.event.league
        standings = tonight_shaping.live_standings(
            self.rounds, game=league.game, season=league.season
        )
        return render(
            self.request,
            "league/tonight/event.html",
            {
                "event": self.event,
                "league": league,
                "bluke": league.game == Game.BLUKE,
                "search": search.text,
                "lines": lines,
                "present": present,
                "next_round": self.next_round,
                # the next round to draw comes first, before who is here (not yet drawn)
                "first_draw": self.next_round
                if self.next_round is not None and not self.panels[self.next_round].view.drawn
                else None,
                # the club's whole list behind a search: tonight's people shown first
                "collapsed": not search.text and self.request.GET.get("all") != "1",
                "absent": any(not line.present and not line.left for line in lines),
                "panels": list(self.panels.values()),
                "errors": self.errors,
                "guest_form": self.guest_form,
                "methods": tonight_shaping.METHOD_MEANINGS.items(),
                "refused": status >= 400,
                "room_tv_url": self.room_tv_url(),
                "live_url": reverse("event-live", kwargs={"event_id": self.event.pk})
                + "?view=tonight",
                "live_tag": tonight_selectors.live_tag(event=self.event, view="tonight"),
                "standings": standings,
                "unfinished": any(line.unfinished for line in standings),
                "replies": tonight_shaping.replies_panel(
                    event=self.event,
                    drawn=any(view.drawn for view in self.rounds),
                    now=timezone.now(),
                ),
            },
            status=status,
        )

    def room_tv_url(self) -> str:
        """A members-only club's room screen for the venue's TV: its private
        address (made when first asked for); empty for a public club's."""
        if not self.event.league.club.members_only:
            return ""
        key = clubs.event_room_key(event=self.event)
        room = reverse("event-room", kwargs={"event_id": self.event.pk})
        return self.request.build_absolute_uri(f"{room}?key={key}")

    def refused(
        self, where: str, error: ServiceError | str, *, panel: RoundPanel | None = None
    ) -> HttpResponse:
        """The page again with ``error`` by the form ``where`` (``attendance``,
        ``guest``, or a round's ``draw``, ``swap``, ``move`` when ``panel`` is
        given): 409 for a clash with the night's state, 400 otherwise."""
        text = error if isinstance(error, str) else _sentence(error.message)
        if panel is not None:
            panel.errors[where] = text
        else:
            self.errors[where] = text
        return self.render(status=409 if isinstance(error, Conflict) else 400)

    def done(self, text: str, anchor: str) -> HttpResponse:
        messages.success(self.request, text)
        return redirect(f"{self.url}#{anchor}")

    def panel_of(self, form: forms.Form) -> RoundPanel | None:
        """The round a round form names (``None`` for a round not of this event)."""
        number = form.data.get("round", "")
        return self.panels.get(int(number)) if str(number).isdigit() else None


def _sentence(message: str) -> str:
    """A service's refusal as a sentence on the page."""
    text = message[:1].upper() + message[1:]
    return text if text.endswith((".", "!", "?")) else f"{text}."


def _first_error(form: forms.Form) -> str:
    return next(str(error) for errors in form.errors.values() for error in errors)


# -- the posts ------------------------------------------------------------------------------


def _check_in(page: _Tonight) -> HttpResponse:
    form = PlayerForm(page.request.POST)
    if not form.is_valid():
        return page.refused("attendance", _first_error(form))
    player = form.cleaned_data["player"]
    try:
        row = attendance.attendance_check_in(
            event=page.event, player=player, by=login_of(page.request.user)
        )
    except ServiceError as error:
        return page.refused("attendance", error)
    return page.done(
        _("%(name)s is checked in: plays from round %(number)s.")
        % {"name": player.name, "number": row.from_round},
        "attendance",
    )


def _leave(page: _Tonight) -> HttpResponse:
    form = PlayerForm(page.request.POST)
    if not form.is_valid():
        return page.refused("attendance", _first_error(form))
    player = form.cleaned_data["player"]
    try:
        row = attendance.attendance_leave(
            event=page.event, player=player, by=login_of(page.request.user)
        )
    except ServiceError as error:
        return page.refused("attendance", error)
    if row is None:
        return page.done(
            _("%(name)s is off the list: they had not played yet.") % {"name": player.name},
            "attendance",
        )
    return page.done(
        _("%(name)s leaves: their last round is %(number)s.")
        % {"name": player.name, "number": row.until_round},
        "attendance",
    )


def _guest(page: _Tonight) -> HttpResponse:
    page.guest_form = form = GuestForm(page.request.POST)
    if not form.is_valid():
        return page.refused("guest", _first_error(form))
    try:
        row = attendance.guest_add(
            event=page.event, name=form.cleaned_data["name"], by=login_of(page.request.user)
        )
    except ServiceError as error:
        return page.refused("guest", error)
    return page.done(
        _("Guest %(name)s is added and checked in: plays from round %(number)s.")
        % {"name": row.player.name, "number": row.from_round},
        "attendance",
    )


def _draw(page: _Tonight, *, fresh_seed: bool) -> HttpResponse:
    """A preview of the round's draw, stored nowhere; ``fresh_seed`` ignores
    the seed posted ("draw again")."""
    form = DrawForm(page.request.POST)
    panel = page.panel_of(form)
    if panel is None:
        return page.refused("page", _("That round is not one of this event."))
    panel.draw_form = form
    if not form.is_valid():
        return page.refused("draw", _first_error(form), panel=panel)
    seed = None if fresh_seed else form.cleaned_data["seed"]
    try:
        draw = seating_service.round_seating_draw(
            round=panel.view.round, method=form.cleaned_data["method"], seed=seed
        )
    except ServiceError as error:
        return page.refused("draw", error, panel=panel)
    panel.preview = tonight_shaping.preview(
        draw, rounds=page.rounds, replace=form.cleaned_data["replace"]
    )
    return page.render()


def _publish(page: _Tonight) -> HttpResponse:
    form = DrawForm(page.request.POST)
    panel = page.panel_of(form)
    if panel is None:
        return page.refused("page", _("That round is not one of this event."))
    panel.draw_form = form
    if not form.is_valid():
        return page.refused("draw", _first_error(form), panel=panel)
    if form.cleaned_data["seed"] is None:
        return page.refused("draw", _("Draw a preview first, then publish it."), panel=panel)
    number = panel.view.round.number
    try:
        draw = seating_service.round_seating_commit(
            round=panel.view.round,
            method=form.cleaned_data["method"],
            seed=form.cleaned_data["seed"],
            replace=form.cleaned_data["replace"],
        )
    except Conflict as error:
        if error.field == "replace":  # published meanwhile, from another phone
            return page.refused(
                "draw",
                Conflict(
                    _(
                        "Round %(number)s has been published meanwhile: these are its tables. "
                        "Draw it again to replace them."
                    )
                    % {"number": number}
                ),
                panel=panel,
            )
        return page.refused("draw", error, panel=panel)
    except ServiceError as error:
        return page.refused("draw", error, panel=panel)
    tables = len(draw.tables)
    out = len(draw.seating.sit_out)
    if out:
        # Translators: the tables are counted in the sentence after this one.
        text = ngettext(
            "Round %(number)s is published: %(tables)s, %(out)s sitting out.",
            "Round %(number)s is published: %(tables)s, %(out)s sitting out.",
            out,
        )
    else:
        text = _("Round %(number)s is published: %(tables)s.")
    counted = ngettext("%(count)s table", "%(count)s tables", tables) % {"count": tables}
    return page.done(
        text % {"number": number, "tables": counted, "out": out},
        f"round-{number}",
    )


def _adjust(page: _Tonight, kind: str) -> HttpResponse:
    """Swap two players, or move one to another table, before the round's first hand."""
    form: SwapForm | MoveForm = (
        SwapForm(page.request.POST) if kind == "swap" else MoveForm(page.request.POST)
    )
    panel = page.panel_of(form)
    if panel is None:
        return page.refused("page", _("That round is not one of this event."))
    number = panel.view.round.number
    if isinstance(form, SwapForm):
        panel.swap_form = form
    else:
        panel.move_form = form
    if not form.is_valid():
        return page.refused(kind, _first_error(form), panel=panel)
    names = {player.pk: player.name for player, _where in panel.view.players}
    data = form.cleaned_data
    try:
        if isinstance(form, SwapForm):
            seating_service.round_seating_adjust(
                round=panel.view.round, swap=(data["first"], data["second"])
            )
            text = _("%(first)s and %(second)s swapped places in round %(number)s.") % {
                "first": names.get(data["first"]),
                "second": names.get(data["second"]),
                "number": number,
            }
        else:
            seating_service.round_seating_adjust(
                round=panel.view.round, move=(data["player"], data["table"])
            )
            text = _("%(name)s moved to table %(table)s in round %(number)s.") % {
                "name": names.get(data["player"]),
                "table": data["table"],
                "number": number,
            }
    except ServiceError as error:
        return page.refused(kind, error, panel=panel)
    return page.done(text, f"round-{number}")


def _revoke_link(page: _Tonight) -> HttpResponse:
    """Revoke a table's link: it stops working at once."""
    number = page.request.POST.get("table", "")
    found = next(
        (
            (view.round, lines.table)
            for view in page.rounds
            for lines in view.tables
            if str(lines.table.pk) == number
        ),
        None,
    )
    if found is None:
        return page.refused("page", _("That table is not one of this event."))
    round_, table = found
    table.round = round_
    links.table_link_revoke(table=table)
    return page.done(
        _("The link of round %(round)s, table %(table)s no longer works.")
        % {"round": round_.number, "table": table.number},
        f"round-{round_.number}",
    )


def _check_in_coming(page: _Tonight) -> HttpResponse:
    """Check in everyone who replied they are coming and is not on the list yet."""
    try:
        rows = replies.replies_check_in_coming(event=page.event, by=login_of(page.request.user))
    except ServiceError as error:
        return page.refused("replies", error)
    if not rows:
        return page.done(_("Everyone who said they are coming is on the list already."), "replies")
    names = ", ".join(row.player.name for row in rows)
    return page.done(
        ngettext(
            "Checked in %(count)s who said they are coming: %(names)s.",
            "Checked in %(count)s who said they are coming: %(names)s.",
            len(rows),
        )
        % {"count": len(rows), "names": names},
        "replies",
    )


def _new_room_key(page: _Tonight) -> HttpResponse:
    """A new private address for the room screen: the old one stops working."""
    clubs.event_room_key(event=page.event, renew=True)
    return page.done(_("The room screen has a new address for the TV."), "room-tv")


POSTS: dict[str, Callable[[_Tonight], HttpResponse]] = {
    "check_in": _check_in,
    "leave": _leave,
    "guest": _guest,
    "draw": lambda page: _draw(page, fresh_seed=False),
    "redraw": lambda page: _draw(page, fresh_seed=True),
    "publish": _publish,
    "swap": lambda page: _adjust(page, "swap"),
    "move": lambda page: _adjust(page, "move"),
    "revoke_link": _revoke_link,
    "new_room_key": _new_room_key,
    "check_in_coming": _check_in_coming,
}
"""What each ``action`` posted to the tonight page does."""


# -- the pages ---------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def event_tonight(request: HttpRequest, event_id: int) -> HttpResponse:
    """The organiser's page of a game night: who is present, and the rounds."""
    event = get_object_or_404(events_selectors.event_for_page(), pk=event_id)
    if refusal := club_page_refusal(request, event.league.club):
        return refusal
    page = _Tonight(request, event)
    if request.method != "POST":
        return page.render()
    post = POSTS.get(request.POST.get("action", ""))
    if post is None:
        return page.refused("page", _("The page sent an unknown request; nothing was changed."))
    return post(page)


@require_safe
def event_room(request: HttpRequest, event_id: int) -> HttpResponse:
    """The room screen: the current round's tables and the live standings,
    for a TV; anyone may read it (a members-only club's: its members, or the
    venue's TV by the night's private address, ``?key=``). It updates itself
    as hands come in (``live.js`` asks :func:`event_live` every 1.5 seconds;
    without JavaScript, it reloads every 30)."""
    event = get_object_or_404(events_selectors.event_for_page(), pk=event_id)
    key = request.GET.get("key", "")
    if refusal := _room_refusal(request, event, key):
        return refusal
    live = reverse("event-live", kwargs={"event_id": event.pk})
    query = urlencode({"view": "room", **({"key": key} if key else {})})
    return render(
        request,
        "league/tonight/room.html",
        {
            **_room_context(event),
            "live_url": f"{live}?{query}",
            "live_tag": tonight_selectors.live_tag(event=event, view="room"),
            "refresh": ROOM_REFRESH_SECONDS,
        },
    )


def _room_refusal(request: HttpRequest, event: Event, key: str) -> HttpResponse | None:
    """The room screen is anyone's, but a members-only club's: its members',
    or the venue's TV by the night's private address (``key``)."""
    if event.room_key and key and constant_time_compare(key, event.room_key):
        return None
    return members_only_refusal(request, event.league.club)


def _room_context(event: Event) -> dict[str, object]:
    """What the room screen shows of ``event`` (its reads: five queries)."""
    rounds = tonight_selectors.event_rounds(event=event)
    current = tonight_shaping.current_round(rounds)
    league = event.league
    standings = tonight_shaping.live_standings(rounds, game=league.game, season=league.season)
    return {
        "event": event,
        "league": league,
        "bluke": league.game == Game.BLUKE,
        "current": current,
        "still_playing": tonight_shaping.still_playing(rounds, besides=current),
        "standings": standings,
        "unfinished": any(line.unfinished for line in standings),
    }


@require_safe
def event_live(request: HttpRequest, event_id: int) -> HttpResponse:
    """What changes on the room screen (``?view=room``) or the Tonight page
    (``?view=tonight``, for the club's organisers) as hands come in, as
    fragments of the page by element id: ``{"parts": {id: html}}``. Asked
    every 1.5 seconds by ``live.js`` with the ``ETag`` it holds: while nothing
    has changed the answer is ``304 Not Modified``, from one query."""
    event = get_object_or_404(events_selectors.event_for_page(), pk=event_id)
    view = request.GET.get("view", "room")
    if view == "tonight":
        if refusal := club_page_refusal(request, event.league.club):
            return refusal
    elif view == "room":
        if refusal := _room_refusal(request, event, request.GET.get("key", "")):
            return refusal
    else:
        return HttpResponseBadRequest("view is room or tonight")
    tag = tonight_selectors.live_tag(event=event, view=view)
    if tag in parse_etags(request.headers.get("If-None-Match", "")):
        answer: HttpResponse = HttpResponseNotModified()
    else:
        parts = _tonight_parts(request, event) if view == "tonight" else _room_parts(event, tag)
        answer = JsonResponse({"parts": parts})
    answer["ETag"] = tag
    answer["Cache-Control"] = "private, no-cache" if view == "tonight" else "no-cache"
    return answer


def _room_parts(event: Event, tag: str) -> dict[str, str]:
    """The room screen's live part for ``tag``: drawn once, kept in the cache
    (:data:`ROOM_PARTS_SECONDS`); a cache that fails only costs the drawing."""
    # one drawing a language: the same tables read in each of the site's languages
    key = f"live-room:{get_language()}:{tag}"
    try:
        parts: dict[str, str] | None = cache.get(key)
    except Exception as error:
        logger.warning("the room screen's part is drawn afresh: the cache failed (%s)", error)
        parts = None
    if parts is None:
        parts = {
            "room-live": render_to_string("league/tonight/_room_live.html", _room_context(event))
        }
        try:
            cache.set(key, parts, ROOM_PARTS_SECONDS)
        except Exception as error:
            logger.warning("the room screen's part is not kept: the cache failed (%s)", error)
    return parts


def _tonight_parts(request: HttpRequest, event: Event) -> dict[str, str]:
    """Each round's status and table cards, and the night's standings, as the
    Tonight page shows them (its forms' tokens for this session)."""
    rounds = tonight_selectors.event_rounds(event=event, with_links=True)
    league = event.league
    standings = tonight_shaping.live_standings(rounds, game=league.game, season=league.season)
    here = reverse("event-tonight", kwargs={"event_id": event.pk})
    parts: dict[str, str] = {}
    for view in rounds:
        number = view.round.number
        shown = {"view": view, "r": view.round, "here": here}
        parts[f"round-{number}-status"] = render_to_string(
            "league/tonight/_round_status.html", shown
        )
        parts[f"round-{number}-tables"] = render_to_string(
            "league/tonight/_round_tables.html", shown, request=request
        )
    parts["tonight-standings"] = render_to_string(
        "league/tonight/_live_standings.html",
        {
            "event": event,
            "league": league,
            "bluke": league.game == Game.BLUKE,
            "standings": standings,
            "unfinished": any(line.unfinished for line in standings),
        },
    )
    return parts


@require_safe
def tonight(request: HttpRequest) -> HttpResponse:
    """Today's game nights, each with its current round's tables, every
    table one tap from its score sheet."""
    day = timezone.localdate()
    return render(
        request,
        "league/tonight/today.html",
        {
            "day": day,
            "events": tonight_selectors.today(
                day=day,
                user=request.user,
                visible=access.visible_clubs(request.user, "league__club"),
            ),
        },
    )


urlpatterns: list[URLPattern] = [
    path("events/<int:event_id>/tonight/", event_tonight, name="event-tonight"),
    path("events/<int:event_id>/room/", event_room, name="event-room"),
    path("events/<int:event_id>/live/", event_live, name="event-live"),
    path("tonight/", tonight, name="tonight"),
]
