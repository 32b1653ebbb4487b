"""Who may read and write what, for the API and the pages alike.

Anyone may read a public club's players, results and ratings; a members-only
club's, its members alone (:func:`club_visible`, :func:`visible_clubs`).
Organisers manage their club's players, leagues, events,
rounds, tables and roles; scorekeepers and organisers enter and correct
results. Any signed-in user may start a club, unless the site keeps that to
its staff (:func:`may_create_club`). The helpers here fetch and authorise in
one call, in the manner of Zulip's ``access_stream_by_id``:

- a caller with nothing to do with the club gets :class:`~league.errors.NotFound`,
  the same as for an object that does not exist, so writes reveal nothing;
- a member of the club without the role needed (a user linked to one of the
  club's players, or a scorekeeper doing an organiser's work) gets
  :class:`~league.errors.Forbidden`.

Whether a caller is signed in at all is the caller's to settle first: the
API answers 401, the pages send to the login page.
"""

from __future__ import annotations

from typing import Final

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from league.errors import Forbidden, NotFound
from league.models import (
    Club,
    Event,
    Membership,
    PersonalLink,
    Player,
    Table,
    TableLink,
    Visibility,
)
from league.selectors import clubs as clubs_selectors
from league.selectors import tables as tables_selectors
from league.statements import JoinedRead
from league.users import SiteUser


def club_visible(user: SiteUser, club: Club) -> bool:
    """Whether ``user`` may read ``club``'s players, results and ratings:
    anyone for a public club; for a members-only one its members (a role in
    it, or a login linked to one of its players). No query for a public club,
    one otherwise."""
    if not club.members_only:
        return True
    return club.pk in clubs_selectors.member_club_ids(user)


def visible_clubs(user: SiteUser, path: str = "") -> Q:
    """The condition on a query's rows that keeps those of the clubs ``user``
    may read, the club reached by ``path`` (``"round__event__league__club"``;
    empty for clubs themselves). No query of its own: the user's clubs are
    subqueries of the query it filters."""
    prefix = f"{path}__" if path else ""
    public = Q(**{f"{prefix}visibility": Visibility.PUBLIC})
    if not user.is_authenticated:
        return public
    roles = Membership.objects.filter(user=user).values("club_id")
    players = Player.objects.filter(user=user).values("club_id")
    return public | Q(**{f"{prefix}pk__in": roles}) | Q(**{f"{prefix}pk__in": players})


ORGANISER: tuple[str, ...] = (Membership.Role.ORGANISER,)
"""The roles that manage a club's players, leagues, events, tables and roles."""

RESULTS: tuple[str, ...] = (Membership.Role.ORGANISER, Membership.Role.SCOREKEEPER)
"""The roles that enter and correct results."""


def check_club_role(user: SiteUser, club_id: int, *, roles: tuple[str, ...]) -> None:
    """Raise unless ``user`` holds one of ``roles`` in the club.

    One query when ``user`` has a role, two when not (to tell a member from a
    stranger), none for an anonymous user.
    """
    check_role(user, club_id, role=clubs_selectors.club_role(user, club_id), roles=roles)


def check_role(user: SiteUser, club_id: int, *, role: str | None, roles: tuple[str, ...]) -> None:
    """Raise unless ``role``, ``user``'s role in the club as read already, is
    one of ``roles`` (a query, to tell a member from a stranger, when not)."""
    if role in roles:
        return
    if role is None and not clubs_selectors.is_club_player(user, club_id):
        raise NotFound()
    raise Forbidden(roles=roles)


def may_write(user: SiteUser, club_id: int, *, roles: tuple[str, ...]) -> bool:
    """Whether ``user`` holds one of ``roles`` in the club (for showing links)."""
    return clubs_selectors.club_role(user, club_id) in roles


STAFF: Final = "staff"
"""The "role" of the site's staff (``is_staff``), who alone may start a club when
``CLUB_CREATION`` is ``staff``."""


def may_create_club(user: SiteUser) -> bool:
    """Whether ``user`` may start a club (and become its organiser): any
    signed-in user, or only the site's staff when the ``CLUB_CREATION``
    setting says ``staff``. No query."""
    if not user.is_authenticated:
        return False
    return settings.CLUB_CREATION != STAFF or bool(user.is_staff)


def club_creation_offered(user: SiteUser) -> bool:
    """Whether a page offers ``user`` a way to start a club: to whoever may,
    and to the anonymous when any signed-in user may (they log in first)."""
    if not user.is_authenticated:
        return settings.CLUB_CREATION != STAFF
    return may_create_club(user)


def check_club_creation(user: SiteUser) -> None:
    """Raise :class:`Forbidden` unless ``user``, signed in, may start a club
    (:func:`may_create_club`); whether they are signed in is the caller's to
    settle first (the API answers 401, the pages send to log in)."""
    if not may_create_club(user):
        raise Forbidden(
            roles=(STAFF,),
            message=gettext("only the site's staff may start a club here: ask them to start yours"),
        )


def access_table_for_results(user: SiteUser, table_id: int) -> Table:
    """The table (with its round, event, league and club) whose results
    ``user`` may enter and correct; :class:`NotFound` for a missing table
    and for a stranger alike, :class:`Forbidden` for a member without the
    role. One query when the user may (the table and the user's role in its
    club read together)."""
    return _access_table(user, table_id, roles=RESULTS)


def _access_table(user: SiteUser, table_id: int, *, roles: tuple[str, ...]) -> Table:
    """The table, if ``user`` holds one of ``roles`` in its club (see above)."""
    try:
        table, role = tables_selectors.sheet_table_and_role(table_id, user)
    except Table.DoesNotExist:
        raise NotFound(gettext("no such table")) from None
    check_role(user, table.round.event.league.club_id, role=role, roles=roles)
    return table


def access_table_for_confirmation(user: SiteUser, table_id: int) -> Table:
    """The table (with its round, event, league and club) whose players'
    results ``user`` may confirm as an organiser of its club; :class:`NotFound`
    for a missing table and a stranger alike, :class:`Forbidden` for a member
    without the role (a scorekeeper: their own results count at once)."""
    return _access_table(user, table_id, roles=ORGANISER)


def access_table_history(user: SiteUser, table_id: int) -> Table:
    """The table (with its round, event, league and club) whose audit trail
    ``user`` may read: a member of its club (a role in it, or linked to one
    of its players), as for the club's memberships, since the trail names
    the club's users. :class:`NotFound` for a missing table and for anyone
    else alike, the anonymous included."""
    try:
        table = tables_selectors.sheet_table(table_id)
    except Table.DoesNotExist:
        raise NotFound(gettext("no such table")) from None
    if table.round.event.league.club_id not in clubs_selectors.member_club_ids(user):
        raise NotFound(gettext("no such table"))
    return table


LINK_AND_TABLE: Final = JoinedRead(
    model=TableLink,
    related=(f"table__{tables_selectors.SHEET_TABLE}",),
    where="base.digest = %s",
)
"""A link by its secret's digest, with its table read as the score sheet reads
it: every request through a link, in one statement made once."""


def access_table_link(token: str) -> TableLink:
    """The working link whose secret is ``token``, with its table (round,
    event, league and club); :class:`NotFound` for a made-up, revoked,
    replaced or expired one alike, which tells nobody which tables exist."""
    if not token or len(token) > 100:
        raise NotFound(gettext("this table link does not work"))
    link = LINK_AND_TABLE.get(TableLink.digest_of(token))
    if link is None or link.expires_at <= timezone.now():
        raise NotFound(gettext("this table link does not work"))
    return link


def access_table_by_link(link: TableLink, table_id: int) -> Table:
    """The link's table, if it is ``table_id``; :class:`NotFound` for any other
    table, as for a stranger: a link opens its own table and nothing else."""
    if link.table_id != table_id:
        raise NotFound(gettext("no such table"))
    return link.table


def access_personal_link(token: str) -> PersonalLink:
    """The personal link whose secret is ``token``, with its player and the
    player's club (one query); :class:`NotFound` for a made-up, revoked or
    replaced one alike, which tells nobody which players exist. The link is
    its holder's authority: a members-only club's player opens it without
    logging in, as the club's own card or mail gave it to them."""
    if not token or len(token) > 100:
        raise NotFound(gettext("this personal link does not work"))
    link = (
        PersonalLink.objects.select_related("player__club")
        .filter(digest=PersonalLink.digest_of(token))
        .first()
    )
    if link is None:
        raise NotFound(gettext("this personal link does not work"))
    return link


def access_event_by_personal_link(link: PersonalLink, event_id: int) -> Event:
    """A game night of the link's player's club (with its league), from the
    site's today on; :class:`NotFound` for any other, as for one that does not
    exist: a personal link opens its player's coming nights and nothing else."""
    event = (
        Event.objects.select_related("league")
        .filter(
            pk=event_id,
            league__club_id=link.player.club_id,
            date__gte=timezone.localdate(),
        )
        .first()
    )
    if event is None:
        raise NotFound(gettext("no such game night"))
    return event
