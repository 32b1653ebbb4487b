"""A player's personal page, through their personal link, without an account.

The link (``/p/<secret>/``, made by an organiser: :mod:`league.services.replies`)
lists the player's coming game nights in their club (at most
:data:`~league.selectors.replies.UPCOMING_NIGHTS`, every league of the club),
each with their answer and the buttons
"Coming" and "Not coming" while its replies are open; on the night's date, "I'm
here" checks them in. Nothing else: no other player's name, no results, no
link out but the site's own pages. A members-only club's link works all the
same: the club gave it to its player.

A made-up, revoked or replaced link is a plain page saying that the link no
longer works (404), which tells nothing of which players exist; every answer is
``no-store``, not indexed, and counted against the link's rate (and a link
that does not work against the address: :mod:`league.ratelimits`, 429 past
either). The buttons are forms posted here (CSRF-protected, as every form of
the site); a refusal is shown by the night it concerns and stores nothing; a
change is a message and a redirect back (POST/redirect/GET).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Final

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from league import access, ratelimits
from league.errors import Conflict, NotFound, ServiceError
from league.models import Attendance, Event, PersonalLink, Player, Reply
from league.selectors import replies as replies_selectors
from league.services import replies
from league.services.replies import ReplyWindow, reply_window

ACTIONS: Final = ("coming", "not_coming", "here")
"""What a button of the page posts, in its ``action`` field."""

CLOSED_WORDS: Final = {
    "drawn": gettext_lazy("Replies are closed: the first round is drawn. Tell the organiser."),
    "time": gettext_lazy("Replies are closed: tell the organiser."),
    "past": gettext_lazy("This night is over."),
}


@dataclass(frozen=True)
class Night:
    """A coming game night on a player's page: their reply and attendance
    (``None`` for none), whether its replies are open, and whether it is
    today (the day they check in with the link)."""

    event: Event
    reply: Reply | None
    attendance: Attendance | None
    window: ReplyWindow
    tonight: bool
    drawn: bool
    """A round of it has tables: a player checking in now joins a later round."""

    @property
    def checked_in(self) -> bool:
        return self.attendance is not None and self.attendance.present


def upcoming_nights(*, player: Player, today: datetime.date, now: datetime.datetime) -> list[Night]:
    """The player's coming game nights (:func:`league.selectors.replies.coming_nights`:
    three queries), each with whether its replies are open ``now`` and whether
    it is ``today``."""
    return [
        Night(
            event=night.event,
            reply=night.reply,
            attendance=night.attendance,
            window=reply_window(
                event=night.event, league=night.event.league, drawn=night.drawn, now=now
            ),
            tonight=night.event.date == today,
            drawn=night.drawn,
        )
        for night in replies_selectors.coming_nights(player=player, today=today)
    ]


@require_http_methods(["GET", "HEAD", "POST"])
def personal_page(request: HttpRequest, token: str) -> HttpResponse:
    """The player's coming nights, to answer and (on the night) check in."""
    found = _working_link(request, token)
    if isinstance(found, HttpResponse):
        response = found
    elif request.method == "POST":
        response = _post(request, found, token)
    else:
        response = _render(request, found)
    add_never_cache_headers(response)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _working_link(request: HttpRequest, token: str) -> PersonalLink | HttpResponse:
    if ratelimits.refused_over_limit(request, count=False):
        return _refused(request, too_many=True)
    try:
        link = access.access_personal_link(token)
    except NotFound:
        ratelimits.refused_over_limit(request, count=True)
        return _refused(request, too_many=False)
    if ratelimits.personal_link_over_limit(request, link.pk):
        return _refused(request, too_many=True)
    return link


def _refused(request: HttpRequest, *, too_many: bool) -> HttpResponse:
    return render(
        request,
        "league/personal/refused.html",
        {"too_many": too_many},
        status=429 if too_many else 404,
    )


def _render(
    request: HttpRequest,
    link: PersonalLink,
    *,
    errors: dict[int, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    now = timezone.now()
    nights = upcoming_nights(player=link.player, today=timezone.localdate(now), now=now)
    shown: dict[str, object] = {
        "player": link.player,
        "club": link.player.club,
        "nights": nights,
        "errors": errors or {},
        "closed_words": CLOSED_WORDS,
        "limit": replies_selectors.UPCOMING_NIGHTS,
        "refused": status >= 400,
    }
    return render(request, "league/personal/page.html", shown, status=status)


def _post(request: HttpRequest, link: PersonalLink, token: str) -> HttpResponse:
    action = request.POST.get("action", "")
    raw_event = request.POST.get("event", "")
    event_id = int(raw_event) if raw_event.isdigit() and len(raw_event) <= 18 else 0
    try:
        event = access.access_event_by_personal_link(link, event_id)
    except NotFound:
        messages.error(request, _("That game night is not one of your coming nights."))
        return _render(request, link, status=400)
    if action not in ACTIONS:
        return _render(
            request,
            link,
            errors={event.pk: _("The page sent an unknown request; nothing was changed.")},
            status=400,
        )
    player = link.player
    try:
        if action == "here":
            row = replies.personal_check_in(player=player, event=event)
            done = _("You are checked in for %(name)s: you play from round %(number)s.") % {
                "name": event.name,
                "number": row.from_round,
            }
        else:
            replies.reply_set(player=player, event=event, answer=action)
            if action == Reply.Answer.COMING:
                done = _("Thank you: you are “coming” to %(name)s.") % {"name": event.name}
            else:
                done = _("Thank you: you are “not coming” to %(name)s.") % {"name": event.name}
    except ServiceError as error:
        text = error.message[:1].upper() + error.message[1:]
        text = text if text.endswith(".") else f"{text}."
        status = 409 if isinstance(error, Conflict) else 400
        return _render(request, link, errors={event.pk: text}, status=status)
    messages.success(request, done)
    return redirect(reverse("personal-link", kwargs={"token": token}) + f"#night-{event.pk}")


urlpatterns: list[URLPattern] = [
    path("p/<slug:token>/", personal_page, name="personal-link"),
]
