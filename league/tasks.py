"""Celery tasks: thin wrappers around the derived-data jobs of
:mod:`league.standings` and :mod:`league.ratings`, a password reset's mail
(:mod:`league.mails`), the downloads prepared as files (:mod:`league.archives`),
the sweep of the work owed to them and to the other jobs (:mod:`league.outbox`),
and the pruning of old ``Idempotency-Key`` answers.

No module of the league imports this one but the app's start
(:meth:`league.apps.LeagueConfig.ready`), which loads it in every process (web,
commands, Celery's worker): the work owed is sent by its task's registered name
(:data:`league.outbox.JOB_TASKS`, from which each task here takes its name), and
this module imports no service. The other jobs' tasks live with their code: a
webhook's delivery in :mod:`league.webhook_delivery`, a results file's import in
:mod:`league.services.imports`.

Every job is safe to run twice, at the same time too: a league's standings
jobs take the league's standings lock (:func:`league.standings.standings_lock`)
and a scope's ratings jobs the scope's ratings lock
(:func:`league.ratings.ratings_lock`), advisory locks that
:func:`league.outbox.running` takes first, so they run one after the other,
and the second finds the work done (no :class:`~league.models.StandingsOwed`
rows for the standings, no :class:`~league.models.RatingsOwed` rows nor
``rerate_from`` for the ratings) and returns at once; a password reset's mail
locks its row while it goes out, and the second run finds the row gone. That
makes the broker's redelivery after its visibility timeout, and the sweep's
sending again, harmless.
"""

from __future__ import annotations

from celery import shared_task

from league import archives, idempotency, mails, outbox, ratings, standings
from league.models import JobOwed, League, RatingScope
from league.outbox import JOB_OPTIONS, JOB_TASKS


@shared_task(name=JOB_TASKS[JobOwed.Kind.STANDINGS], **JOB_OPTIONS)
def league_standings_refresh(league_id: int) -> int:
    """Recompute the standings a league owes (see
    :func:`league.standings.standings_catch_up`); returns how many lines owed
    it recomputed (0 when nothing was owed).

    The league's :class:`~league.models.StandingsOwed` rows say what is owed,
    so this runs whether or not a :class:`~league.models.JobOwed` row is there:
    a second run finds nothing owed. The league's standings lock is taken
    first (:func:`league.outbox.running`)."""
    with outbox.running(JobOwed.Kind.STANDINGS, league_id):
        league = League.objects.filter(pk=league_id).first()
        if league is None:  # deleted since it was owed: its row goes, nothing else
            return 0
        return standings.standings_catch_up(league=league)


@shared_task(name=JOB_TASKS[JobOwed.Kind.RATINGS], **JOB_OPTIONS)
def ratings_refresh(scope_id: int) -> int:
    """Re-rate a scope from its earliest changed game (see :mod:`league.ratings`).

    The scope's :class:`~league.models.RatingsOwed` rows (and its
    ``rerate_from``) say what is owed, so this runs whether or not a
    :class:`~league.models.JobOwed` row is there: a second run finds nothing
    to re-rate. The scope's ratings lock, taken first
    (:func:`league.outbox.running`), keeps one job per scope running at a time."""
    with outbox.running(JobOwed.Kind.RATINGS, scope_id):
        if not RatingScope.objects.filter(pk=scope_id).exists():
            return 0
        return ratings.ratings_refresh(scope_id=scope_id)


@shared_task(name=JOB_TASKS[JobOwed.Kind.PASSWORD_RESET], **JOB_OPTIONS)
def password_reset_mail(asked_id: int) -> int:
    """Mail a password reset's link to the logins with the address asked for
    (:func:`league.mails.password_reset_send`); the row locked while it goes
    out, so a second run finds it sent."""
    return mails.password_reset_send(asked_id)


@shared_task(name=JOB_TASKS[JobOwed.Kind.ARCHIVE], **JOB_OPTIONS)
def archive_prepare(archive_id: int) -> int:
    """Write a download prepared as a file (see :mod:`league.archives`); returns
    the lines written (0 when there was nothing to do).

    The archive's ``state`` and ``started_at`` say what is owed and who is at it,
    so a second run finds the file made, or being made, and returns at once."""
    return archives.archive_prepare(archive_id=archive_id)


@shared_task(ignore_result=True)
def jobs_sweep() -> int:
    """Send the work owed that is due (Celery beat runs this every
    :data:`league.outbox.SWEEP_EVERY` seconds; see :func:`league.outbox.sweep`).
    Returns how many jobs were sent."""
    return outbox.jobs_sweep()


@shared_task(ignore_result=True)
def idempotency_keys_prune() -> int:
    """Delete the expired ``Idempotency-Key`` answers (Celery beat runs this
    hourly; see :mod:`league.idempotency`). Returns how many."""
    return idempotency.idempotency_keys_prune()
