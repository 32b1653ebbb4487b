"""Organisers' set-up pages: a new club, and the leagues, players and game
nights of a club.

Only the club's organisers may open them (:func:`league.web.access.club_page_refusal`);
a new club, any signed-in user (or the site's staff alone: ``CLUB_CREATION``).
Views stay thin: the reads are in :mod:`league.selectors` (each page
a fixed number of queries, whatever the size of the club), every write goes
through :mod:`league.services`, and a form
(:mod:`league.web.organise_forms`) shows a service's refusal by the field it
concerns. A refused form stores nothing: each save is one transaction. After
a save the browser is sent on (POST/redirect/GET) with a short confirmation.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from league import access
from league.errors import Conflict, ServiceError
from league.models import Club, Event
from league.names import name_key
from league.selectors import clubs as clubs_selectors
from league.selectors import events as events_selectors
from league.selectors import leagues as leagues_selectors
from league.selectors import players as players_selectors
from league.services import clubs, fixtures
from league.users import login_of
from league.web import tonight_shaping
from league.web.access import club_page_refusal
from league.web.form_summary import summary_of
from league.web.organise_forms import (
    GUEST,
    ClubForm,
    EventForm,
    LeagueForm,
    PastedName,
    PlayerAddForm,
    PlayerEditForm,
    PlayersPasteForm,
    SetupForm,
)
from league.web.search import search_of

RACED = gettext_lazy(
    "Another change got there first; nothing was saved. Check the form and save again."
)

T = TypeVar("T")


def _form_page(
    request: HttpRequest, template: str, form: SetupForm, *, status: int = 200, **context: object
) -> HttpResponse:
    return render(
        request, template, {"form": form, "summary": summary_of(form), **context}, status=status
    )


def _saved_or_refused(
    request: HttpRequest,
    form: SetupForm,
    save: Callable[[], T],
    *,
    said: Callable[[T], str],
    then: Callable[[T], HttpResponse],
    raced: tuple[type[Exception], ...] = (IntegrityError,),
) -> HttpResponse | None:
    """Run a form's save (one service): on success, its message and the
    redirect (``said`` and ``then``, of what was saved); on a refusal,
    ``None``, the refusal shown by the form (a race lost, ``raced``, by the
    form as a whole)."""
    try:
        saved = save()
    except ServiceError as error:
        form.add_service_error(error)
        return None
    except raced:
        form.add_error(None, RACED)
        return None
    messages.success(request, said(saved))
    return then(saved)


# -- a new club -----------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    """Start a club: whoever makes it becomes its organiser and lands on its
    hub, with its first league as the next step. Any signed-in user may,
    unless the site keeps it to its staff (``CLUB_CREATION``: a 403 page
    saying so to anyone else); the anonymous are sent to log in first."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not access.may_create_club(request.user):
        return render(request, "league/organise/club_form.html", {"closed": True}, status=403)
    form = ClubForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        done = _saved_or_refused(
            request,
            form,
            lambda: clubs.club_create(
                name=data["name"],
                slug=data["slug"],
                visibility=data["visibility"],
                language=data["language"],
                organiser=login_of(request.user),
            ),
            said=lambda club: (
                _(
                    "The club “%(name)s” is started and you are its organiser. "
                    "Next, make its first league."
                )
                % {"name": club.name}
            ),
            then=lambda club: redirect("club-manage", club_id=club.pk),
        )
        if done is not None:
            return done
    return _form_page(request, "league/organise/club_form.html", form, closed=False)


# -- the hub --------------------------------------------------------------------------------


@require_safe
def club_manage(request: HttpRequest, club_id: int) -> HttpResponse:
    """The organiser's hub of a club: its leagues with their coming and
    latest game nights, the players, and where the logins are managed."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    today = timezone.localdate()
    return render(
        request,
        "league/organise/manage.html",
        {
            "club": club,
            "today": today,
            "leagues": leagues_selectors.club_leagues_with_nights(club=club, today=today),
            "player_count": clubs_selectors.club_player_count(club=club),
            "events_shown": leagues_selectors.EVENTS_SHOWN,
        },
    )


# -- leagues --------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def league_create(request: HttpRequest, club_id: int) -> HttpResponse:
    """A new league of the club: name, game, rule options, table size and spill."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    form = LeagueForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid() and form.fits_the_rules():
        data = form.cleaned_data
        done = _saved_or_refused(
            request,
            form,
            lambda: fixtures.league_create(
                club=club,
                name=data["name"],
                game=data["game"],
                options=form.options(),
                table_size=data["table_size"],
                table_spill=data["table_spill"],
                results_confirmation=data["results_confirmation"],
                replies_close_minutes=data["replies_close_minutes"],
            ),
            said=lambda league: _("The league “%(name)s” is set up.") % {"name": league.name},
            then=lambda _: redirect("club-manage", club_id=club.pk),
        )
        if done is not None:
            return done
    return _form_page(request, "league/organise/league_form.html", form, club=club, league=None)


@require_http_methods(["GET", "HEAD", "POST"])
def league_edit(request: HttpRequest, league_id: int) -> HttpResponse:
    """Rename a league, change its rule options (until a hand is played), its
    table size or spill. Its game cannot change."""
    league = get_object_or_404(leagues_selectors.league_for_manage(), pk=league_id)
    if refusal := club_page_refusal(request, league.club):
        return refusal
    options_fixed = leagues_selectors.league_has_hands(league=league)
    form = LeagueForm(
        request.POST if request.method == "POST" else None,
        league=league,
        options_fixed=options_fixed,
    )
    if form.is_bound and form.is_valid() and form.fits_the_rules():
        data = form.cleaned_data
        done = _saved_or_refused(
            request,
            form,
            # A copy, so that a refused change leaves the page's league as stored.
            lambda: fixtures.league_update(
                league=copy.copy(league),
                name=data["name"],
                options=None if options_fixed else form.options(),
                table_size=data["table_size"],
                table_spill=data["table_spill"],
                results_confirmation=data["results_confirmation"],
                replies_close_minutes=data["replies_close_minutes"],
            ),
            said=lambda updated: _("The league “%(name)s” is saved.") % {"name": updated.name},
            then=lambda _: redirect("club-manage", club_id=league.club_id),
            raced=(),  # an IntegrityError here was never taken for a race lost
        )
        if done is not None:
            return done
    return _form_page(
        request,
        "league/organise/league_form.html",
        form,
        club=league.club,
        league=league,
        options_fixed=options_fixed,
    )


# -- players --------------------------------------------------------------------------------


PASTE = "paste"
"""The prefix of the players page's list form's fields (the one name's have none)."""


def either(names: list[str]) -> str:
    """Names as a question lists them: "Ada", "Ada or Adam", "Ada, Adam or Adaa"."""
    if len(names) == 1:
        return names[0]
    # Translators: the end of a list of names in a question, "Ada, Adam or Adaa".
    return _("%(names)s or %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def linked_names(close: list[tuple[int, str]]) -> str:
    """The club's players close to a name, each linked to its edit page, as a
    sentence lists them: "Ada", "Ada and Adam", "Ada, Adam and Adaa" (safe HTML)."""
    links = [
        format_html('<a href="{}">{}</a>', reverse("player-edit", kwargs={"player_id": pk}), name)
        for pk, name in close
    ]
    if len(links) == 1:
        return links[0]
    # Translators: the end of a list of names in a sentence, "Ada, Adam and Adaa".
    joined = escape(_("%(names)s and %(last)s")) % {
        "names": ", ".join(links[:-1]),
        "last": links[-1],
    }
    # safe: the words are escaped, and each link is made by format_html
    return mark_safe(joined)


@require_http_methods(["GET", "HEAD", "POST"])
def club_players(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's players (``?q=`` keeps the names containing it; a search
    with a NUL is refused by the box, 400), each with a link to edit, a form to
    add one and a form to add several by pasting a list, one a line.

    A name close to one the club has (:func:`league.names.is_close`) is asked
    about first: the form comes back with "Do you mean Ada?" and a "No, add Ade"
    button, which sends the form again saying so. A list is added all or
    nothing (:func:`~league.services.clubs.players_create`), its faults shown by
    line number, its close names asked about together."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    posted = request.POST if request.method == "POST" else None
    # the club's names are read for a form sent, not to show the page
    names = clubs_selectors.club_names(club=club) if posted is not None else []
    taken = {key: name for _pk, name, key in names}
    pasting = posted is not None and f"{PASTE}-names" in posted
    form = PlayerAddForm(None if pasting else posted)
    paste = PlayersPasteForm(posted if pasting else None, prefix=PASTE, taken=taken)
    close: list[tuple[int, str]] = []
    close_lines: list[tuple[PastedName, list[tuple[int, str]]]] = []
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        if name_key(data["name"]) not in taken:  # a name taken is the service's refusal
            close = clubs_selectors.close_players(names=names, name=data["name"])
        if not close or form.close_confirmed():
            try:
                player = clubs.player_create(
                    club=club, name=data["name"], is_guest=data["kind"] == GUEST
                )
            except ServiceError as error:
                form.add_service_error(error)
                close = []
            except IntegrityError:
                form.add_error(None, RACED)
                close = []
            else:
                added_as = (
                    _("%(name)s is added as a guest.")
                    if player.is_guest
                    else _("%(name)s is added as a member.")
                )
                messages.success(request, added_as % {"name": player.name})
                return redirect("club-players", club_id=club.pk)
    if paste.is_bound and paste.is_valid():
        close_lines = [
            (pasted, found)
            for pasted in paste.pasted
            if (found := clubs_selectors.close_players(names=names, name=pasted.name))
        ]
        if not close_lines or paste.close_confirmed():
            try:
                added = clubs.players_create(
                    club=club,
                    names=[pasted.name for pasted in paste.pasted],
                    is_guest=paste.cleaned_data["kind"] == GUEST,
                )
            except ServiceError as error:
                paste.add_service_error(error, field="names")
                close_lines = []
            except IntegrityError:
                paste.add_error(None, RACED)
                close_lines = []
            else:
                shown = ", ".join(player.name for player in added)
                messages.success(
                    request,
                    ngettext(
                        "%(count)d player added: %(names)s.",
                        "%(count)d players added: %(names)s.",
                        len(added),
                    )
                    % {"count": len(added), "names": shown},
                )
                return redirect("club-players", club_id=club.pk)
    search = search_of(request)
    return render(
        request,
        "league/organise/players.html",
        {
            "form": form,
            "paste": paste,
            "summary": summary_of(form) + summary_of(paste),
            "close": close,
            "close_names": either([name for _pk, name in close]) if close else "",
            "close_links": linked_names(close) if close else "",
            "close_lines": [
                (pasted, either([n for _pk, n in found])) for pasted, found in close_lines
            ],
            "club": club,
            "query": search.text,
            "search_error": search.error,
            "players": clubs_selectors.club_players(club=club, query=search.text),
        },
        status=search.status,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, player_id: int) -> HttpResponse:
    """Rename a player, keep a guest as a member, link a login or unlink it."""
    player = get_object_or_404(players_selectors.player_for_manage(), pk=player_id)
    if refusal := club_page_refusal(request, player.club):
        return refusal
    logins = clubs_selectors.club_logins(club=player.club, also=player.user)
    form = PlayerEditForm(
        request.POST if request.method == "POST" else None, player=player, logins=logins
    )
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        done = _saved_or_refused(
            request,
            form,
            lambda: clubs.player_update(
                player=copy.copy(player),
                name=data["name"],
                user=data["login"],
                is_guest=False if data.get("keep") else None,
            ),
            said=lambda updated: _("%(name)s is saved.") % {"name": updated.name},
            then=lambda _: redirect("club-players", club_id=player.club_id),
        )
        if done is not None:
            return done
    return _form_page(
        request, "league/organise/player_form.html", form, club=player.club, player=player
    )


# -- game nights ----------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def event_create(request: HttpRequest, league_id: int) -> HttpResponse:
    """A new game night of the league, with its rounds numbered from 1 (made
    in the same transaction as the night)."""
    league = get_object_or_404(leagues_selectors.league_for_manage(), pk=league_id)
    if refusal := club_page_refusal(request, league.club):
        return refusal
    form = EventForm(request.POST if request.method == "POST" else None)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        done = _saved_or_refused(
            request,
            form,
            lambda: fixtures.event_create(
                league=league,
                name=data["name"],
                date=data["date"],
                start_time=data["start_time"],
                venue=data["venue"],
                rounds=data["rounds"],
            ),
            said=lambda event: _("The game night “%(name)s” is set up.") % {"name": event.name},
            then=lambda _: redirect("club-manage", club_id=league.club_id),
            raced=(),  # an IntegrityError here was never taken for a race lost
        )
        if done is not None:
            return done
    return _form_page(
        request,
        "league/organise/event_form.html",
        form,
        club=league.club,
        league=league,
        event=None,
        drawn=[],
    )


@require_http_methods(["GET", "HEAD", "POST"])
def event_edit(request: HttpRequest, event_id: int) -> HttpResponse:
    """Change a game night's name, date, start time, venue or number of
    rounds: more rounds are added after the last; fewer remove the last
    ones, unless tables are drawn in them (then nothing changes)."""
    event = get_object_or_404(events_selectors.event_for_manage(), pk=event_id)
    league = event.league
    if refusal := club_page_refusal(request, league.club):
        return refusal
    rounds = events_selectors.event_round_states(event=event)
    last = max((state.number for state in rounds), default=0)
    drawn = [state.number for state in rounds if state.has_tables]
    form = EventForm(request.POST if request.method == "POST" else None, event=event, rounds=last)
    if form.is_bound and form.is_valid():
        data = form.cleaned_data
        wanted: int = data["rounds"]
        if blocked := [number for number in drawn if number > wanted]:
            form.add_error("rounds", _rounds_kept_message(blocked))
        else:
            try:
                with transaction.atomic():
                    updated = fixtures.event_update(
                        event=copy.copy(event),
                        name=data["name"],
                        date=data["date"],
                        start_time=data["start_time"],
                        venue=data["venue"],
                    )
                    existing = {state.number for state in rounds}
                    for number in range(1, wanted + 1):
                        if number not in existing:
                            fixtures.round_create(event=updated, number=number)
                    if last > wanted:
                        _remove_rounds_after(updated, wanted)
            except Conflict as error:
                if error.field in ("number", "rounds"):
                    form.add_error(None, RACED)
                else:
                    form.add_service_error(error)
            except ServiceError as error:
                form.add_service_error(error)
            except IntegrityError:
                form.add_error(None, RACED)
            else:
                messages.success(
                    request, _("The game night “%(name)s” is saved.") % {"name": updated.name}
                )
                return redirect("club-manage", club_id=league.club_id)
    return _form_page(
        request,
        "league/organise/event_form.html",
        form,
        club=league.club,
        league=league,
        event=event,
        drawn=drawn,
        replies=tonight_shaping.replies_panel(event=event, drawn=bool(drawn), now=timezone.now()),
        rounds=rounds,
    )


def _rounds_kept_message(blocked: list[int]) -> str:
    """Why the rounds asked for are too few: the rounds above it that have tables."""
    if len(blocked) == 1:
        return ngettext(
            "Round %(round)d has tables, so this game night keeps at least %(count)d round.",
            "Round %(round)d has tables, so this game night keeps at least %(count)d rounds.",
            max(blocked),
        ) % {"round": blocked[0], "count": max(blocked)}
    return ngettext(
        "Rounds %(rounds)s and %(last)d have tables, "
        "so this game night keeps at least %(count)d round.",
        "Rounds %(rounds)s and %(last)d have tables, "
        "so this game night keeps at least %(count)d rounds.",
        max(blocked),
    ) % {
        "rounds": ", ".join(map(str, blocked[:-1])),
        "last": blocked[-1],
        "count": max(blocked),
    }


def _remove_rounds_after(event: Event, number: int) -> None:
    """Remove the event's rounds after ``number`` (inside the save's transaction),
    refusing by the rounds field, in words, if any of them has tables."""
    try:
        fixtures.event_rounds_trim(event=event, keep=number)
    except fixtures.RoundsDrawn as error:
        raise ServiceError(_rounds_kept_message(list(error.rounds)), field="rounds") from None


urlpatterns: list[URLPattern] = [
    path("clubs/new/", club_create, name="club-create"),
    path("clubs/<int:club_id>/manage/", club_manage, name="club-manage"),
    path("clubs/<int:club_id>/leagues/new/", league_create, name="league-create"),
    path("leagues/<int:league_id>/edit/", league_edit, name="league-edit"),
    path("clubs/<int:club_id>/players/", club_players, name="club-players"),
    path("players/<int:player_id>/edit/", player_edit, name="player-edit"),
    path("leagues/<int:league_id>/events/new/", event_create, name="event-create"),
    path("events/<int:event_id>/edit/", event_edit, name="event-edit"),
]
