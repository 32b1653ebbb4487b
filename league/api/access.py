"""Who may write what, as ``access_*`` helpers (in the manner of Zulip's).

Anyone may read. Organisers manage their club's players, leagues, events,
rounds, tables and members; scorekeepers and organisers submit and correct
results. A user with no role in a club is answered 404 for writes to its
objects, the same as for an object that does not exist, so writes reveal
nothing; a member without the role needed gets 403.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound, PermissionDenied

from league.models import Club, Membership
from league.selectors import club_role

ORGANISER = Membership.Role.ORGANISER
RESULTS = (Membership.Role.ORGANISER, Membership.Role.SCOREKEEPER)
"""The roles that enter and correct results, through the API and the web pages alike."""


def access_club_for_write(user: Any, club: Club | int, *, roles: tuple[str, ...]) -> None:
    """Raise unless ``user`` holds one of ``roles`` in ``club``."""
    role = club_role(user, club.pk if isinstance(club, Club) else club)
    if role is None:
        raise NotFound()
    if role not in roles:
        raise PermissionDenied(f"this needs the {' or '.join(roles)} role in the club")
