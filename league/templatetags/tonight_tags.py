"""Template tags of the night's pages: the "Tonight" link, who organises, and
a seating method's name in the page's language.

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
from league.web.tonight_shaping import METHOD_NAMES

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


@register.filter
def method_name(method: str) -> str:
    """A seating method (``balanced``) by its name in the page's language; a
    method the pages do not know yet is shown as stored."""
    name = METHOD_NAMES.get(method)
    return str(name) if name is not None else method
