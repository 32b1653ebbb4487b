"""Calendar feeds (iCalendar, RFC 5545) of a club's or a league's game nights, for
members to subscribe to in their phone's calendar.

Each game night is one ``VEVENT`` whose UID never changes (``game-night-<id>@<site>``,
the site being the ``SITE_DOMAIN`` setting, never the request's ``Host``), so a
calendar that polls the feed updates a night that moved instead of showing it twice,
whichever of the site's names it was read at; a night that was deleted drops out of
the feed and out of the calendar.

Times: a night's start is stored as the club's wall-clock time, with no time zone
(the service knows none per club), so it is written as a *floating* time (RFC 5545
§3.3.5): 19:30 shows as 19:30 in the member's calendar, as a club expects. A night
without a start time is an all-day event. The length is not stored either: a night
is given :data:`HOURS_PER_ROUND` hours a round.

The feed holds the nights from :data:`PAST_DAYS` days ago on (a calendar keeps what it
has already shown), so it stays small for a league of a thousand nights. Feeds are
public, like the pages they mirror, and read-only: any method but ``GET`` and ``HEAD``
is answered 405 (not CSRF's 403, meant for forms: a feed has none).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from typing import Final

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import ngettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe
from icalendar import Calendar
from icalendar import Event as CalendarEvent
from icalendar.prop import vDuration

from league import access
from league.models import Club, Event, League
from league.selectors import events as events_selectors

PAST_DAYS: Final = 90
"""How far back a feed reaches."""
HOURS_PER_ROUND: Final = 1
"""A night's length in the feed, per round: a Bluke game of 25 hands or a Buck Euchre
game takes about an hour at a club table."""
REFRESH: Final = datetime.timedelta(hours=6)
"""How often calendars are asked to poll (``REFRESH-INTERVAL``, RFC 7986)."""
CONTENT_TYPE: Final = "text/calendar; charset=utf-8"


# CSRF exempt so that a POST is told 405 by require_safe rather than 403 by the CSRF
# check: nothing but GET and HEAD reaches the view, and those change nothing.
@csrf_exempt
@require_safe
def club_calendar(request: HttpRequest, club_id: int) -> HttpResponse:
    """The game nights of every league of a club."""
    club = get_object_or_404(Club, pk=club_id)
    _check_visible(request, club)
    events = events_selectors.calendar_events(club=club, since=_since())
    return _feed(request, club, name=club.name, events=events, slug=club.slug)


@csrf_exempt
@require_safe
def league_calendar(request: HttpRequest, league_id: int) -> HttpResponse:
    """The game nights of one league."""
    league = get_object_or_404(League.objects.select_related("club"), pk=league_id)
    _check_visible(request, league.club)
    events = events_selectors.calendar_events(club=league.club, league=league, since=_since())
    return _feed(
        request,
        league.club,
        name=f"{league.club.name}: {league.name}",
        events=events,
        slug=f"{league.club.slug}-{league.slug or league.pk}",
    )


def _check_visible(request: HttpRequest, club: Club) -> None:
    """404 unless the request may read the club's nights: a public club's
    feeds are anyone's; a members-only club's need a member's login, or its
    private address (``?key=``, the club's ``feed_key``: calendar apps
    cannot log in), which its members see beside the feed's link."""
    if access.club_visible(request.user, club):
        return
    key = request.GET.get("key", "")
    if not (club.feed_key and key and constant_time_compare(key, club.feed_key)):
        raise Http404("no such calendar")


def _since() -> datetime.date:
    return timezone.localdate() - datetime.timedelta(days=PAST_DAYS)


def _feed(
    request: HttpRequest, club: Club, *, name: str, events: Iterable[Event], slug: str
) -> HttpResponse:
    calendar = calendar_of(
        name=name, events=events, host=settings.SITE_DOMAIN, url_of=request.build_absolute_uri
    )
    response = HttpResponse(calendar.to_ical(), content_type=CONTENT_TYPE)
    # inline: a browser shows or hands it to the calendar app; a subscription polls it
    response["Content-Disposition"] = f'inline; filename="{slug}.ics"'
    # a members-only club's nights are kept by no shared cache
    response["Cache-Control"] = f"{'private' if club.members_only else 'public'}, max-age=900"
    return response


def calendar_of(
    *,
    name: str,
    events: Iterable[Event],
    host: str,
    url_of: Callable[[str], str] | None = None,
    stamp: datetime.datetime | None = None,
) -> Calendar:
    """An iCalendar of ``events`` (each with its league and rounds prefetched),
    named ``name``; UIDs end with ``host`` (the site's ``SITE_DOMAIN``).
    ``url_of`` turns a path into an absolute URL (the request's
    ``build_absolute_uri``); ``stamp`` is the ``DTSTAMP`` (now by default)."""
    stamp = stamp or timezone.now()
    calendar = Calendar()
    calendar.add("prodid", "-//Card league//Game nights//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    calendar.add("name", name)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))  # the same, for Outlook
    for event in events:
        calendar.add_component(_night(event, host=host, url_of=url_of, stamp=stamp))
    return calendar


def _night(
    event: Event,
    *,
    host: str,
    url_of: Callable[[str], str] | None,
    stamp: datetime.datetime,
) -> CalendarEvent:
    night = CalendarEvent()
    night.add("uid", f"game-night-{event.pk}@{host}")
    night.add("dtstamp", stamp)
    night.add("summary", f"{event.league.name}: {event.name}")
    rounds = len(event.rounds.all())
    if event.start_time is None:
        night.add("dtstart", event.date)  # a DATE: all day
    else:
        # naive: a floating time, the club's wall clock
        start = datetime.datetime.combine(event.date, event.start_time)
        night.add("dtstart", start)
        night.add("duration", datetime.timedelta(hours=HOURS_PER_ROUND * max(rounds, 1)))
    if event.venue:
        night.add("location", event.venue)
    page = reverse("event", args=[event.pk])
    link = url_of(page) if url_of is not None else page
    night.add("url", link)
    game = event.league.get_game_display()
    # in the request's language (LocaleMiddleware: the calendar app's Accept-Language)
    description = ngettext(
        # Translators: a game night in a calendar app; game is "Bluke" or "Buck Euchre"
        "%(game)s, %(rounds)d round. Tables and results: %(link)s",
        "%(game)s, %(rounds)d rounds. Tables and results: %(link)s",
        rounds,
    ) % {"game": game, "rounds": rounds, "link": link}
    night.add("description", description)
    return night
