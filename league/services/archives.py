"""Downloads prepared as files: asking for one (the job that writes it is
:func:`league.archives.archive_prepare`)."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from league.errors import ServiceError
from league.models import Archive, Event, JobOwed, League
from league.outbox import job_owe


def archive_again_after() -> datetime.timedelta:
    """How long after one was made the same file may be asked for again
    (``settings.ARCHIVE_AGAIN_AFTER_MINUTES``)."""
    return datetime.timedelta(minutes=settings.ARCHIVE_AGAIN_AFTER_MINUTES)


@transaction.atomic
def archive_request(*, league: League, event: Event | None = None, kind: str) -> Archive:
    """Ask for every game of ``league`` (or of its ``event``) as a file of ``kind``
    (``games.csv`` or ``games.jsonl``), written by a job.

    Returns the archive that answers: the one asked for already and not ready yet,
    if there is one; else the newest ready one when it was made less than
    :func:`archive_again_after` ago (a new one would hold about the same, so asking
    again is not a way to keep a worker busy); else a new one, whose job is owed in
    this transaction. An unknown kind, or an event of another league, is a
    :class:`ServiceError`."""
    if kind not in Archive.Kind.values:
        raise ServiceError(gettext("there is no such file"), field="kind", code="unknown_kind")
    if event is not None and event.league_id != league.pk:
        raise ServiceError(
            gettext("the event is not the league's"), field="event", code="not_in_league"
        )
    same = Archive.objects.filter(league=league, event=event, kind=kind)
    owed = same.filter(state=Archive.State.OWED).first()
    if owed is not None:
        return owed
    now = timezone.now()
    recent = (
        same.filter(state=Archive.State.READY, finished_at__gt=now - archive_again_after())
        .order_by("-finished_at")
        .first()
    )
    if recent is not None:
        return recent
    try:
        with transaction.atomic():
            archive = Archive.objects.create(
                league=league, event=event, kind=kind, requested_at=now
            )
    except IntegrityError:
        # asked for at the same moment by another request (one being prepared at a
        # time: the partial unique constraints), whose archive answers this too
        return same.get(state=Archive.State.OWED)
    job_owe(kind=JobOwed.Kind.ARCHIVE, target_id=archive.pk)
    return archive
