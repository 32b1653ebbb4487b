"""Table links: results entered at the table itself, without an account.

An organiser or scorekeeper makes a link for a table (or for every table of a
round at once); whoever holds it may read that table's score sheet, enter and
correct its hands until the game is confirmed, and confirm or dispute it
(:mod:`league.services.confirmations`), and nothing else. The person entering
says which seat they are: the honour system clubs use, recorded in the audit
trail as "via table link, seat n".

The link holds a random secret of 256 bits; only its SHA-256 digest is stored
(:class:`~league.models.TableLink`), so the secret is known once, when the link
is made (:class:`NewTableLink`). A table has one link: a new one replaces the
old, which stops working at once; revoking deletes it. A link expires
:data:`LINK_LIFETIME_AFTER_NIGHT` after the end of its game night's day (in
the site's time zone), and never sooner than that long after it is made (a
link made for a past night's table, to enter it late).

Lock order: the table's row (``FOR UPDATE``), then its link.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from league import audit
from league.models import Event, Round, Table, TableLink
from league.users import SiteUser

LINK_LIFETIME_AFTER_NIGHT: Final = datetime.timedelta(
    hours=getattr(settings, "TABLE_LINK_HOURS_AFTER_NIGHT", 12)
)
"""How long a link works after its game night's day has ended."""
SECRET_BYTES: Final = 32
"""256 bits of randomness: the issue asks for at least 128."""


@dataclass(frozen=True)
class NewTableLink:
    """A link just made, with its secret: the only time the secret is known."""

    link: TableLink
    token: str


def link_expiry(*, event: Event, now: datetime.datetime) -> datetime.datetime:
    """When a link made ``now`` for a table of ``event`` stops working: the
    end of the night's day plus :data:`LINK_LIFETIME_AFTER_NIGHT`, or that long
    after ``now`` if later.

    >>> from types import SimpleNamespace
    >>> night = SimpleNamespace(date=datetime.date(2026, 12, 2))
    >>> made = datetime.datetime(2026, 12, 2, 19, 0, tzinfo=datetime.UTC)
    >>> str(link_expiry(event=night, now=made))
    '2026-12-03 12:00:00+00:00'
    >>> str(link_expiry(event=night, now=made + datetime.timedelta(days=5)))
    '2026-12-08 07:00:00+00:00'
    """
    day_ends = datetime.datetime.combine(
        event.date + datetime.timedelta(days=1),
        datetime.time(),
        tzinfo=timezone.get_default_timezone(),
    )
    return max(day_ends, now) + LINK_LIFETIME_AFTER_NIGHT


@transaction.atomic
def table_link_create(*, table: Table, by: SiteUser | None) -> NewTableLink:
    """A new link for ``table`` (its round and event fetched), replacing the
    table's link if it had one, made by ``by`` (the caller has checked that
    they are an organiser or scorekeeper of its club)."""
    [made] = table_links_create(tables=[table], by=by)
    return made


@transaction.atomic
def table_links_create(*, tables: Sequence[Table], by: SiteUser | None) -> list[NewTableLink]:
    """A new link for each of ``tables`` (of one event, with their round and
    event fetched), replacing their links, in one transaction: one audit entry
    a table. Lock order: the tables in the order of their ids."""
    ordered = sorted(tables, key=lambda table: table.pk)
    list(Table.objects.select_for_update(of=("self",)).filter(pk__in=[t.pk for t in ordered]))
    TableLink.objects.filter(table__in=ordered).delete()
    now = timezone.now()
    made: list[NewTableLink] = []
    for table in ordered:
        token = secrets.token_urlsafe(SECRET_BYTES)
        link = TableLink.objects.create(
            table=table,
            digest=TableLink.digest_of(token),
            created_by=by if by is not None and by.is_authenticated else None,
            created_at=now,
            expires_at=link_expiry(event=table.round.event, now=now),
        )
        audit.table_entry_write(
            table,
            action=audit.Action.LINK_MADE,
            before=None,
            after={"expires_at": link.expires_at.isoformat()},
        )
        made.append(NewTableLink(link=link, token=token))
    by_table = {new.link.table_id: new for new in made}
    return [by_table[table.pk] for table in tables]


@transaction.atomic
def round_links_create(*, round: Round, by: SiteUser | None) -> list[NewTableLink]:
    """A new link for every table of ``round``, by table number."""
    tables = list(
        Table.objects.filter(round=round).select_related("round__event__league").order_by("number")
    )
    return table_links_create(tables=tables, by=by)


@transaction.atomic
def table_link_revoke(*, table: Table) -> bool:
    """Revoke the table's link (it stops working at once); whether it had one."""
    deleted, _kinds = TableLink.objects.filter(table=table).delete()
    if deleted:
        audit.table_entry_write(table, action=audit.Action.LINK_REVOKED, before=None, after=None)
    return bool(deleted)
