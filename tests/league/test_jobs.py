"""The work owed to the background jobs (league.outbox):
written with the change that owes it, sent after the commit without failing
the request, cleared by the job unless owed again meanwhile, and swept.

The broker here is a loopback port that nothing listens on (it refuses at
once); a real Redis stopped, frozen and a worker killed are in
``tests/faults/test_broker_and_workers.py``.
"""

from __future__ import annotations

import datetime
import importlib
import io
import logging
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone

from config.celery import app as celery_app
from league import outbox, ratings, standings, tasks
from league.management.commands.jobs_sweep import Command as JobsSweep
from league.models import Game, JobOwed, RatingScope, RatingsOwed, Standing, StandingsOwed
from league.outbox import job_owe, jobs_owe, jobs_sweep, standings_owe
from league.services.attendance import attendance_set
from league.services.results import hand_submit
from league.services.seating import round_seating_commit
from tests.support.api import client_for
from tests.support.brokers import celery_on, free_port
from tests.support.records import buck_takes_all
from tests.support.setups import ClubSetup, club_setup

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup(game=Game.BUCK_EUCHRE)


def owed() -> dict[tuple[str, int], JobOwed]:
    return {(row.kind, row.target_id): row for row in JobOwed.objects.all()}


def scope_ids(setup: ClubSetup) -> set[int]:
    return set(RatingScope.objects.filter(club=setup.club).values_list("pk", flat=True))


def complete_the_game(setup: ClubSetup) -> None:
    """Seat 1 makes spades and takes all five tricks: the game is won at once."""
    hand_submit(table=setup.table, record=buck_takes_all(1))


def age(**fields: datetime.timedelta) -> None:
    """Move every row's times back by the given amounts."""
    for row in JobOwed.objects.all():
        for name, delta in fields.items():
            setattr(row, name, (getattr(row, name) or timezone.now()) - delta)
        row.save()


# -- written with the change ------------------------------------------------------------


def test_a_complete_game_owes_its_jobs_in_its_transaction_and_sends_them_after(
    setup: ClubSetup, django_capture_on_commit_callbacks: Capture
) -> None:
    with django_capture_on_commit_callbacks() as callbacks:
        complete_the_game(setup)
        # written before the commit, sent after it: nothing has run yet
        assert set(owed()) == {("standings", setup.league.pk)} | {
            ("ratings", pk) for pk in scope_ids(setup)
        }
        # each scope owes a re-rating from the game, in a row of its own
        key = ratings.order_key(setup.table)
        assert set(RatingsOwed.objects.values_list("scope_id", "rerate_from")) == {
            (pk, key) for pk in scope_ids(setup)
        }
        assert not Standing.objects.exists()
    assert len(callbacks) == 1  # one send for all the work the transaction owes

    callbacks[0]()  # the commit: without a broker, the jobs run here
    assert owed() == {}
    assert Standing.objects.filter(league=setup.league, event=None).count() == 4
    assert not RatingsOwed.objects.exists()
    assert not RatingScope.objects.filter(club=setup.club, rerate_from__isnull=False).exists()


class Rollback(Exception):
    pass


def test_a_change_rolled_back_owes_nothing(
    setup: ClubSetup, django_capture_on_commit_callbacks: Capture
) -> None:
    with (
        django_capture_on_commit_callbacks() as callbacks,
        pytest.raises(Rollback),
        transaction.atomic(),
    ):
        complete_the_game(setup)
        assert owed()
        raise Rollback
    assert owed() == {}
    assert callbacks == []


def test_owing_twice_is_one_row_with_a_new_token_and_not_sent_since(setup: ClubSetup) -> None:
    target = setup.league.pk
    with transaction.atomic():  # not committed in this test: nothing is sent
        job_owe(kind=JobOwed.Kind.STANDINGS, target_id=target)
        first = JobOwed.objects.get()
        JobOwed.objects.update(
            sent_at=timezone.now(), attempts=2, last_error="earlier", failed_at=timezone.now()
        )
        jobs_owe(jobs=[(JobOwed.Kind.STANDINGS, target), (JobOwed.Kind.STANDINGS, target)])
    again = JobOwed.objects.get()
    assert again.pk == first.pk
    assert again.token != first.token
    assert again.owed_since == first.owed_since
    assert again.owed_at >= first.owed_at
    assert again.sent_at is None and again.failed_at is None  # new work: due at once
    # the failures so far are kept, for whoever looks at a job that keeps failing
    assert (again.attempts, again.last_error) == (2, "earlier")


def test_a_draw_owes_the_standings_of_those_it_sits_out(setup: ClubSetup) -> None:
    attendance_set(event=setup.event, players=setup.players[:7], by=setup.organiser)
    draw = round_seating_commit(round=setup.event.rounds.get(number=2), seed=1)
    assert set(owed()) == {("standings", setup.league.pk)}
    assert len(draw.seating.sit_out) == 3  # Buck Euchre seats four: three of seven sit out
    lines = StandingsOwed.objects.values_list("event_id", "player_id")
    assert set(lines) == {(setup.event.pk, pk) for pk in draw.seating.sit_out}


def test_a_draw_that_sits_nobody_out_owes_no_standings(setup: ClubSetup) -> None:
    attendance_set(event=setup.event, players=setup.players, by=setup.organiser)
    round_seating_commit(round=setup.event.rounds.get(number=2), seed=1)
    assert owed() == {} and not StandingsOwed.objects.exists()


# -- sent after the commit, never failing the request ------------------------------------


def test_a_broker_that_refuses_leaves_the_work_owed_and_the_result_stored(
    setup: ClubSetup,
    django_capture_on_commit_callbacks: Capture,
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/"
    with (
        celery_on(f"redis://127.0.0.1:{free_port()}/0"),
        caplog.at_level(logging.INFO, logger="league.outbox"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(url, {"number": 0, "record": buck_takes_all(1)})
    assert response.status_code == 201, response.content
    setup.table.refresh_from_db()
    assert setup.table.complete

    rows = owed()
    assert len(rows) == 3 and not Standing.objects.exists()
    assert all(row.sent_at is None for row in rows.values())
    failed = [row for row in rows.values() if row.attempts]
    # the first publish failed; the others were not tried, the broker having just failed
    assert len(failed) == 1 and "OperationalError" in failed[0].last_error
    said = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "league.outbox"]
    assert [level for level, _ in said] == [logging.WARNING, logging.INFO, logging.INFO]
    assert "stays owed for the sweep" in said[0][1]
    assert all("left to the sweep" in message for _, message in said[1:])


def test_a_job_that_fails_without_a_broker_is_logged_and_stays_owed(
    setup: ClubSetup,
    django_capture_on_commit_callbacks: Capture,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*, league: Any) -> int:
        raise RuntimeError("the standings are broken")

    monkeypatch.setattr(standings, "standings_catch_up", broken)
    client = client_for(setup.scorekeeper)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/tables/{setup.table.pk}/hands/", {"number": 0, "record": buck_takes_all(1)}
        )
    assert response.status_code == 201, response.content

    # the ratings ran; the standings stay owed, with what went wrong
    row = JobOwed.objects.get()
    assert (row.kind, row.target_id, row.attempts) == ("standings", setup.league.pk, 1)
    assert row.last_error == "RuntimeError: the standings are broken"
    errors = [r for r in caplog.records if r.levelno == logging.ERROR and r.name == "league.outbox"]
    assert len(errors) == 1 and "the standings are broken" in errors[0].getMessage()


# -- cleared by the job, unless owed again -------------------------------------------------


def test_a_second_run_finds_the_work_done(setup: ClubSetup) -> None:
    complete_the_game(setup)  # owed, not sent: this test does not commit
    assert tasks.league_standings_refresh(setup.league.pk) == 4
    assert tasks.league_standings_refresh(setup.league.pk) == 0
    for scope in scope_ids(setup):
        assert tasks.ratings_refresh(scope) == 1
        assert tasks.ratings_refresh(scope) == 0
    assert owed() == {}


def test_work_owed_again_while_the_job_ran_stays_owed(
    setup: ClubSetup, monkeypatch: pytest.MonkeyPatch
) -> None:
    complete_the_game(setup)
    catch_up = standings.standings_catch_up

    def catch_up_then_owed_again(*, league: Any) -> int:
        count = catch_up(league=league)
        # a game is corrected while the job is writing: its work is owed anew
        players = [player.pk for player in setup.players[:2]]
        standings_owe(league_id=league.pk, event_id=setup.event.pk, player_ids=players)
        return count

    monkeypatch.setattr(standings, "standings_catch_up", catch_up_then_owed_again)
    before = owed()[("standings", setup.league.pk)].token
    assert tasks.league_standings_refresh(setup.league.pk) == 4

    after = owed()[("standings", setup.league.pk)]
    assert after.token != before
    assert StandingsOwed.objects.count() == 2  # the lines owed again, not those done
    monkeypatch.setattr(standings, "standings_catch_up", catch_up)
    assert tasks.league_standings_refresh(setup.league.pk) == 2
    assert ("standings", setup.league.pk) not in owed()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs concurrent writers")
def test_work_owed_by_another_transaction_while_the_job_ran_stays_owed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    complete_the_game(setup)  # committed: without a broker its jobs ran at once
    assert owed() == {}
    with transaction.atomic():  # owed, not yet sent: the job below is run by hand
        StandingsOwed.objects.bulk_create(
            StandingsOwed(
                league=setup.league, event=setup.event, player=player, owed_at=timezone.now()
            )
            for player in setup.players[:4]
        )
        JobOwed.objects.create(
            kind="standings",
            target_id=setup.league.pk,
            owed_since=timezone.now(),
            owed_at=timezone.now(),
            token=outbox.token(),
        )
    writing, owed_again = threading.Event(), threading.Event()
    catch_up = standings.standings_catch_up

    def catch_up_and_wait(*, league: Any) -> int:
        count = catch_up(league=league)
        writing.set()
        assert owed_again.wait(30)
        return count

    monkeypatch.setattr(standings, "standings_catch_up", catch_up_and_wait)
    answers: list[Any] = []

    def job() -> None:
        try:
            answers.append(tasks.league_standings_refresh(setup.league.pk))
        except Exception as error:  # shown by the assertion below
            answers.append(error)
        finally:
            connection.close()

    worker = threading.Thread(target=job)
    worker.start()
    try:
        assert writing.wait(30)
        with transaction.atomic():  # another game completes, committed while the job runs
            token = outbox.token()
            JobOwed.objects.filter(kind="standings").update(token=token, owed_at=timezone.now())
    finally:
        owed_again.set()
        worker.join(30)
    assert answers == [4]
    assert JobOwed.objects.get().token == token


# -- the sweep --------------------------------------------------------------------------


def test_the_sweep_sends_what_is_owed_and_due(setup: ClubSetup) -> None:
    complete_the_game(setup)  # owed; this test never commits, so nothing was sent
    assert jobs_sweep() == 0  # just owed: the send after its commit is due to do it

    age(owed_since=outbox.SWEEP_GRACE + datetime.timedelta(seconds=1))
    assert jobs_sweep() == 3
    assert owed() == {}
    assert Standing.objects.filter(league=setup.league, event=None).count() == 4


def sends_recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Make the outbox's sends succeed without running anything; the list
    records them."""
    sent: list[tuple[str, int]] = []

    def send(task: Any, *, kind: str, target_id: int, in_request: bool) -> bool:
        sent.append((kind, target_id))
        return True

    monkeypatch.setattr(outbox, "send", send)
    return sent


def test_the_sweep_sends_again_what_was_sent_a_while_ago_and_is_still_owed(
    setup: ClubSetup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A message lost (a Redis restarted empty) or a worker dead: the work is
    still owed RESEND_AFTER after it was sent, and no job of it runs."""
    complete_the_game(setup)
    age(owed_since=datetime.timedelta(hours=2))
    JobOwed.objects.update(sent_at=timezone.now())  # sent; a worker may have it
    sent = sends_recorded(monkeypatch)
    assert jobs_sweep() == 0

    late = outbox.RESEND_AFTER + datetime.timedelta(seconds=1)
    JobOwed.objects.filter(kind="standings").update(sent_at=timezone.now() - late)
    assert jobs_sweep() == 1
    assert sent == [("standings", setup.league.pk)]


def test_a_job_that_raised_is_sent_again_after_the_visibility_timeout(
    setup: ClubSetup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not every sweep: a job that keeps failing (a bug) is tried every few
    minutes, as the broker would give its message to another worker."""
    complete_the_game(setup)
    age(owed_since=datetime.timedelta(hours=2), sent_at=datetime.timedelta(minutes=1))
    monkeypatch.setattr(standings, "standings_catch_up", lambda **kwargs: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        tasks.league_standings_refresh(setup.league.pk)
    failed = owed()[("standings", setup.league.pk)]
    assert failed.failed_at is not None and failed.attempts == 1
    assert failed.last_error == "ZeroDivisionError: division by zero"

    sent = sends_recorded(monkeypatch)
    assert jobs_sweep() == 2  # the ratings, sent a minute ago and still owed
    assert ("standings", setup.league.pk) not in sent
    # without a broker nothing is "sent": the failure is what counts there too
    JobOwed.objects.filter(kind="standings").update(sent_at=None)
    sent.clear()
    assert jobs_sweep() == 2
    assert ("standings", setup.league.pk) not in sent

    due = datetime.timedelta(seconds=outbox.visibility_timeout() + 1)
    JobOwed.objects.filter(kind="standings").update(failed_at=timezone.now() - due)
    sent.clear()
    assert jobs_sweep() == 3
    assert ("standings", setup.league.pk) in sent


def test_the_sweep_stops_at_the_first_publish_the_broker_refuses(setup: ClubSetup) -> None:
    complete_the_game(setup)
    age(owed_since=datetime.timedelta(minutes=1))
    with celery_on(f"redis://127.0.0.1:{free_port()}/0"):
        assert jobs_sweep() == 0
    assert sorted(row.attempts for row in owed().values()) == [0, 0, 1]


def test_the_sweep_sends_at_most_a_batch(setup: ClubSetup) -> None:
    complete_the_game(setup)
    age(owed_since=datetime.timedelta(minutes=1))
    assert jobs_sweep(batch=2) == 2
    assert len(owed()) == 1
    assert jobs_sweep(batch=2) == 1


def test_the_command_sweeps_once(setup: ClubSetup) -> None:
    complete_the_game(setup)
    age(owed_since=datetime.timedelta(minutes=1))
    out = io.StringIO()
    call_command("jobs_sweep", stdout=out)
    assert out.getvalue() == "jobs_sweep: sent 3 jobs\n"
    assert owed() == {}
    call_command("jobs_sweep", stdout=out)  # nothing owed: nothing said
    assert out.getvalue() == "jobs_sweep: sent 3 jobs\n"


def test_the_command_loops_until_stopped(setup: ClubSetup) -> None:
    complete_the_game(setup)
    age(owed_since=datetime.timedelta(minutes=1))
    command = JobsSweep(stdout=io.StringIO(), stderr=io.StringIO())
    passes: list[int] = []
    sweep = command.sweep

    def counted() -> None:
        sweep()
        passes.append(1)
        if len(passes) == 3:
            command.stopped.set()

    command.sweep = counted  # type: ignore[method-assign]
    call_command(command, loop=0.01)  # returns once stopped
    assert len(passes) == 3
    assert command.stdout.getvalue() == "jobs_sweep: sent 3 jobs\n"
    assert owed() == {}


def test_the_command_refuses_a_loop_of_no_time() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="above 0"):
        call_command("jobs_sweep", loop=0)


def test_celery_beat_sweeps_as_often_as_the_loop() -> None:
    entry: dict[str, Any] = settings.CELERY_BEAT_SCHEDULE["jobs-sweep"]
    assert entry["task"] == tasks.jobs_sweep.name
    assert entry["task"] in celery_app.tasks
    assert entry["schedule"] == outbox.SWEEP_EVERY
    # a sweep that waited longer than its period is dropped: the next one does its work
    assert entry["options"]["expires"] <= outbox.SWEEP_EVERY


def test_the_beat_task_sweeps(setup: ClubSetup) -> None:
    complete_the_game(setup)
    age(owed_since=datetime.timedelta(minutes=1))
    assert tasks.jobs_sweep() == 3
    assert owed() == {}


# -- settings ----------------------------------------------------------------------------


def test_publishing_is_bounded_and_a_dead_workers_jobs_come_back_within_minutes() -> None:
    options = celery_app.conf.broker_transport_options
    assert options["socket_timeout"] <= 1 and options["socket_connect_timeout"] <= 1
    assert options["max_retries"] == 0
    assert celery_app.conf.broker_connection_timeout <= 1
    # longer than the longest job (benchmarks/job_durations.py), far under kombu's hour
    assert 60 <= outbox.visibility_timeout() <= 600
    # retries are held unacknowledged by the worker: they must end well within it
    assert outbox.JOB_OPTIONS["retry_backoff_max"] < outbox.visibility_timeout() / 2


# -- the migration -----------------------------------------------------------------------


def test_the_migration_owes_what_the_old_dispatch_may_have_lost(setup: ClubSetup) -> None:
    complete_the_game(setup)
    # as before the outbox: the scopes marked on their rows (as the results
    # service marked them then), but nothing owed
    JobOwed.objects.all().delete()
    RatingsOwed.objects.all().delete()
    RatingScope.objects.filter(club=setup.club).update(rerate_from=ratings.order_key(setup.table))
    migration = importlib.import_module("league.migrations.0004_job_owed")
    migration.owe_what_may_be_lost(apps, None)
    assert set(owed()) == {("standings", setup.league.pk)} | {
        ("ratings", pk) for pk in scope_ids(setup)
    }
