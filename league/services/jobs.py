"""Background work owed by a change: a transactional outbox.

A service whose change a background job derives from (a game's result: the
league's standings and its scopes' ratings; a draw's sit-outs: the standings)
calls :func:`jobs_owe` (or :func:`job_owe`) inside its transaction. The work
is written as :class:`~league.models.JobOwed` rows in that transaction, so it
is owed if and only if the change commits, and the jobs are sent once it
commits. Sending never fails the caller: a broker that is down or silent
costs at most its short timeout, and the work stays owed until
:func:`jobs_sweep` (Celery beat, or ``manage.py jobs_sweep``) sends it. How
jobs are sent, cleared and swept is :mod:`league.outbox`.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from league import outbox
from league.models import JobOwed, StandingsOwed
from league.tasks import JOBS


def jobs_owe(*, jobs: Iterable[tuple[JobOwed.Kind, int]]) -> None:
    """Record that each ``(kind, target id)`` of ``jobs`` is owed (a league's
    standings, a rating scope's ratings), and send them, in that order, once
    the current transaction commits.

    Call inside the transaction of the change that owes the work: the rows
    are written in it, so a rollback owes nothing. One query, an upsert: work
    owed already is owed again (a new token, not sent nor failed since), and
    stays one row. It waits for no job that runs but one ending with this
    very row (its delete, then its commit: see :mod:`league.outbox`)."""
    owed = sorted(set(jobs))  # one order for every caller: rows are locked in it
    if not owed:
        return
    now = timezone.now()
    JobOwed.objects.bulk_create(
        [
            JobOwed(
                kind=kind, target_id=target_id, owed_since=now, owed_at=now, token=outbox.token()
            )
            for kind, target_id in owed
        ],
        update_conflicts=True,
        unique_fields=["kind", "target_id"],
        # owed again: a new token (so a job running now leaves the row), not sent
        # nor failed since (the failures counted so far are kept, for whoever looks)
        update_fields=["owed_at", "token", "sent_at", "failed_at"],
    )

    def send() -> None:
        for kind, target_id in owed:
            outbox.send(JOBS[kind], kind=kind, target_id=target_id, in_request=True)

    # robust: whatever sending does, the change is committed and the caller answers
    transaction.on_commit(send, robust=True)


def standings_owe(
    *,
    league_id: int,
    event_id: int | None = None,
    player_ids: Iterable[int] = (),
    more_jobs: Iterable[tuple[JobOwed.Kind, int]] = (),
) -> None:
    """Owe the standings ``player_ids`` have in the event ``event_id`` and in
    the league (or, with no event, every line of the league: a full rebuild),
    and the league's standings job that recomputes them
    (:func:`league.standings.standings_catch_up`), with ``more_jobs`` (sent
    together). Call inside the change's transaction, as :func:`jobs_owe`: one
    insert, then its upsert."""
    now = timezone.now()
    if event_id is None:
        lines = [StandingsOwed(league_id=league_id, owed_at=now)]
    else:
        lines = [
            StandingsOwed(league_id=league_id, event_id=event_id, player_id=player_id, owed_at=now)
            for player_id in sorted(set(player_ids))
        ]
    jobs = list(more_jobs)
    if lines:
        StandingsOwed.objects.bulk_create(lines)
        jobs.append((JobOwed.Kind.STANDINGS, league_id))
    jobs_owe(jobs=jobs)


def job_owe(*, kind: JobOwed.Kind, target_id: int) -> None:
    """Owe one job: :func:`jobs_owe` of one."""
    jobs_owe(jobs=[(kind, target_id)])


def jobs_sweep(*, batch: int = outbox.SWEEP_BATCH) -> int:
    """Send the work owed that is due, at most ``batch`` jobs (see
    :func:`league.outbox.sweep`); returns how many were sent."""
    return outbox.sweep(jobs=JOBS, batch=batch)
