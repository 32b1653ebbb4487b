"""Template tags of the night's pages: the "Tonight" link and who organises.

``{% tonight_link %}`` shows a link to today's tables while a game night is
on today (in the site's time zone): of the page's ``league`` when the page
has one, of any league otherwise. One query.
"""

from __future__ import annotations

from django import template
from django.utils import timezone

from league import access
from league.models import League
from league.selectors import tonight as tonight_selectors

register = template.Library()


@register.inclusion_tag("league/tonight/_link.html", takes_context=True)
def tonight_link(context: template.Context) -> dict[str, object]:
    """Today's events of the page's league (or of any league) for the link (one query)."""
    league = context.get("league")
    events = tonight_selectors.events_on(
        timezone.localdate(), league=league if isinstance(league, League) else None
    )
    return {"events": list(events)}


@register.simple_tag(takes_context=True)
def organises(context: template.Context, club_id: int) -> bool:
    """Whether the signed-in user organises the club (one query; none when
    anonymous), for the organisers' links."""
    user = context.get("user")
    return user is not None and access.may_write(user, club_id, roles=access.ORGANISER)
