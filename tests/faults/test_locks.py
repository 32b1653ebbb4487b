"""Locks held by another connection, and real deadlocks (PostgreSQL only:
SQLite locks the whole database and has neither row locks nor deadlocks).

- A submission locks its table's row and nothing above it: the league, event
  and round rows stay free for every other table's submissions. (A hand
  stored as read, in one statement, updates the table's row alone.)
- A table locked elsewhere (an organiser's psql, a stuck process) makes a
  submission wait no longer than the request's ``lock_timeout``; it is
  answered 503 problem+json with ``Retry-After`` and stores nothing.
- Requests queued on a table locked elsewhere are each answered within the
  lock timeout, however many queue (PostgreSQL counts a row's second waiter's
  two waits apart).
- A game completes, and a complete game is corrected, while a re-rating of
  their scopes runs: neither waits for the job, and the ratings come out as a
  rating from scratch would give them.
- Two transactions that deadlock: PostgreSQL aborts one, which is run again
  and succeeds, whether it is a transaction of its own or a savepoint in
  another (an ``Idempotency-Key``'s).

Timed assertions are generous upper bounds, only to show a wait was bounded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.test import override_settings

from league import db, outbox, ratings
from league.models import (
    Club,
    Event,
    Game,
    Hand,
    JobOwed,
    League,
    Rating,
    RatingHistory,
    RatingScope,
    Round,
    Table,
)
from league.services import results
from tests.support.api import assert_problem, client_for, etag
from tests.support.factories import EventFactory, LeagueFactory, make_table
from tests.support.records import bluke_results, buck_takes_all
from tests.support.setups import club_setup

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]

WAIT = 30
"""Seconds any thread of these tests may wait for another before the test fails."""


@contextmanager
def in_thread(work: Callable[[], Any]) -> Iterator[list[Any]]:
    """Run ``work`` in a thread of its own (a connection of its own) for the
    ``with`` block; the list holds its answer or its error once it ends."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # reported in the test's thread
            outcome.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield outcome
    finally:
        thread.join(WAIT)
        assert not thread.is_alive(), "a thread of the test never finished"


def lock_is_free(model: type[Any], pk: int) -> bool:
    """Whether this connection can lock the row at once (``NOWAIT``)."""
    try:
        with transaction.atomic():
            model.objects.select_for_update(nowait=True).get(pk=pk)
    except OperationalError as error:
        assert db.failure_kind(error) is db.Failure.BUSY, error
        return False
    return True


def test_a_submission_locks_its_table_and_nothing_above_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The locked way, which every change but a hand stored as read goes (the
    one statement of a hand stored as read updates the table's row alone)."""
    setup = club_setup()
    locked, release = threading.Event(), threading.Event()
    check = results.check_results_change
    monkeypatch.setattr(results, "_hand_append_as_read", lambda **kwargs: None)

    def check_while_the_test_looks(**kwargs: Any) -> int:
        locked.set()  # the service holds its locks now
        assert release.wait(WAIT)
        return check(**kwargs)

    monkeypatch.setattr(results, "check_results_change", check_while_the_test_looks)

    def submit() -> Any:
        return results.hand_submit(table=setup.table, record=bluke_results(13), number=0)

    with in_thread(submit) as outcome:
        assert locked.wait(WAIT)
        try:
            free = {
                "league": lock_is_free(League, setup.league.pk),
                "event": lock_is_free(Event, setup.event.pk),
                "round": lock_is_free(Round, setup.round.pk),
                "club": lock_is_free(Club, setup.club.pk),
                "table": lock_is_free(Table, setup.table.pk),
            }
        finally:
            release.set()

    assert free == {"league": True, "event": True, "round": True, "club": True, "table": False}
    assert isinstance(outcome[0], results.ResultsChange), outcome
    assert Hand.objects.filter(table=setup.table).count() == 1


@contextmanager
def table_locked_elsewhere(table: Table) -> Iterator[None]:
    """The table's row locked by another connection until the block ends."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        with transaction.atomic():
            Table.objects.select_for_update().get(pk=table.pk)
            locked.set()
            assert release.wait(WAIT)

    with in_thread(hold):
        assert locked.wait(WAIT)
        try:
            yield
        finally:
            release.set()


LOCK_TIMEOUT = 1.0
"""The request's lock timeout in these tests, in seconds (3 s in production)."""


@pytest.mark.parametrize("key", [None, "locked-key"], ids=["plain", "idempotency-key"])
def test_a_table_locked_elsewhere_answers_503_within_the_lock_timeout(key: str | None) -> None:
    setup = club_setup()
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/"
    body = {"number": 0, "record": bluke_results(13)}
    extra = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    limits = {**settings.DATABASE_TIMEOUTS, "web": {"statement": 5.0, "lock": LOCK_TIMEOUT}}

    with override_settings(DATABASE_TIMEOUTS=limits), table_locked_elsewhere(setup.table):
        started = time.monotonic()
        refused = client.post(url, body, **extra)
        waited = time.monotonic() - started

    problem = assert_problem(refused, 503)
    assert problem["type"] == "/api/problems/database-busy"
    assert refused["Retry-After"] == str(db.RETRY_AFTER[db.Failure.BUSY])
    # waited for the lock (PostgreSQL's lock_timeout: a share of the limit), no more
    assert LOCK_TIMEOUT / db.LOCK_WAITS * 0.9 <= waited < LOCK_TIMEOUT + 4, waited
    assert not Hand.objects.filter(table=setup.table).exists()
    # once the lock is gone the same request goes through (the key was not kept)
    accepted = client.post(url, body, **extra)
    assert accepted.status_code == 201, accepted.content
    assert Hand.objects.filter(table=setup.table).count() == 1


# -- real deadlocks ---------------------------------------------------------------------------


@pytest.mark.parametrize("nested", [False, True], ids=["own-transaction", "savepoint"])
def test_a_deadlock_victim_is_run_again_and_both_transactions_succeed(nested: bool) -> None:
    """Two transactions lock two tables' rows in opposite orders, each
    having taken its first lock before either asks for its second: PostgreSQL
    aborts one (after its ``deadlock_timeout``, 1 s), which runs again once
    the other has committed."""
    setup = club_setup()
    second = make_table(round=setup.round, players=setup.players[4:], number=2)
    first_locks = threading.Barrier(2)
    attempts: list[str] = []

    @db.retry_on_conflict
    @transaction.atomic
    def lock_both(name: str, first: Table, then: Table) -> str:
        attempts.append(name)
        Table.objects.select_for_update().get(pk=first.pk)
        if attempts.count(name) == 1:  # only the first attempts meet: one deadlock
            first_locks.wait(WAIT)
        Table.objects.select_for_update().get(pk=then.pk)
        Table.objects.filter(pk__in=[first.pk, then.pk]).update(version=F("version") + 1)
        return name

    def run(name: str, first: Table, then: Table) -> Callable[[], str]:
        def work() -> str:
            if not nested:
                return lock_both(name, first, then)
            with transaction.atomic():  # an outer transaction, as an Idempotency-Key's
                Club.objects.filter(pk=setup.club.pk).exists()
                return lock_both(name, first, then)

        return work

    with (
        in_thread(run("a", setup.table, second)) as a,
        in_thread(run("b", second, setup.table)) as b,
    ):
        pass

    assert (a, b) == (["a"], ["b"]), (a, b)
    assert sorted(attempts) == ["a", "a", "b"] or sorted(attempts) == ["a", "b", "b"], attempts
    assert set(Table.objects.filter(round=setup.round).values_list("version", flat=True)) == {2}


QUEUE_LOCK_TIMEOUT = 2.0
"""The request's lock timeout in the queue test, in seconds: long enough that
a second wait in a row stands clear of the first."""


@pytest.mark.parametrize("way", ["as-read", "locked"])
def test_every_request_queued_on_a_locked_table_is_answered_within_the_lock_timeout(
    way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three submissions queue on a table locked elsewhere, a moment apart.
    PostgreSQL's ``lock_timeout`` counts each wait for a lock apart, and the
    second in a row's queue waits twice: for its place (the first waiter holds
    it until it gives up), then for the holder. Each is answered 503 within the
    request's lock timeout all the same, not at the statement timeout."""
    setup = club_setup()
    if way == "locked":  # the way of a hand that ends a game, and of every correction
        monkeypatch.setattr(results, "_hand_append_as_read", lambda **kwargs: None)
    limits = {
        **settings.DATABASE_TIMEOUTS,
        "web": {"statement": 4 * QUEUE_LOCK_TIMEOUT, "lock": QUEUE_LOCK_TIMEOUT},
    }
    url = f"/api/tables/{setup.table.pk}/hands/"
    body = {"number": 0, "record": bluke_results(13)}

    def submit() -> tuple[int, str, float]:
        started = time.monotonic()
        response = client_for(setup.scorekeeper).post(url, body)
        waited = time.monotonic() - started
        return response.status_code, response.json().get("type", ""), waited

    with override_settings(DATABASE_TIMEOUTS=limits), table_locked_elsewhere(setup.table):
        queued = []
        with ExitStack() as stack:
            for _ in range(3):
                queued.append(stack.enter_context(in_thread(submit)))
                time.sleep(0.3)  # each finds the one before it waiting
    answers = [outcome[0] for outcome in queued]

    assert [status for status, _, _ in answers] == [503] * 3, answers
    assert {kind for _, kind, _ in answers} == {"/api/problems/database-busy"}
    waits = [waited for _, _, waited in answers]
    assert max(waits) < QUEUE_LOCK_TIMEOUT + 1, waits  # one lock timeout, not two
    assert not Hand.objects.filter(table=setup.table).exists()


# -- a re-rating running ----------------------------------------------------------------------


def rated(scope: RatingScope) -> dict[str, Any]:
    """A scope's ratings and history, to compare with a rating from scratch."""
    return {
        "ratings": sorted(
            Rating.objects.filter(scope=scope).values_list("player_id", "mu", "sigma", "games")
        ),
        "history": sorted(
            RatingHistory.objects.filter(scope=scope).values_list(
                "player_id", "table_id", "order_key", "mu", "sigma", "games"
            )
        ),
    }


def test_games_complete_and_are_corrected_while_a_re_rating_of_their_scope_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A full re-rating of the club-wide Buck Euchre scope is held just before
    it commits, its history and ratings written. Meanwhile a game completes in
    the league, one in another Buck Euchre league of the club (both owe the
    club-wide scope a re-rating), and the league's first game is corrected:
    each is answered at once (it waited for the scope's row lock, and was
    answered 503, before), stored, its ratings owed. Once the job is done and
    the work owed has run, every scope is rated as from scratch."""
    setup = club_setup(game=Game.BUCK_EUCHRE)
    first = setup.table
    assert results.hand_submit(table=first, record=buck_takes_all(1)).places  # rated at once
    second = make_table(round=setup.round, players=setup.players[4:], number=2)
    other_league = LeagueFactory(club=setup.club, game=Game.BUCK_EUCHRE)
    other_round = EventFactory(league=other_league).rounds.get()
    other = make_table(round=other_round, players=setup.players[2:6], number=1)
    club_wide = RatingScope.objects.get(club=setup.club, game=Game.BUCK_EUCHRE, league=None)

    writing, release = threading.Event(), threading.Event()
    store = ratings._store

    def store_and_wait(*args: Any, **kwargs: Any) -> None:
        store(*args, **kwargs)
        writing.set()  # the job holds whatever it holds until it commits
        assert release.wait(WAIT)

    monkeypatch.setattr(ratings, "_store", store_and_wait)
    # the work these changes owe is left owed here, and run below, once the job is done
    monkeypatch.setattr(outbox, "send", lambda *args, **kwargs: False)
    limits = {**settings.DATABASE_TIMEOUTS, "web": {"statement": 5.0, "lock": LOCK_TIMEOUT}}
    client = client_for(setup.scorekeeper)

    def rebuild() -> int:
        return ratings.ratings_rebuild(scope=club_wide)

    with override_settings(DATABASE_TIMEOUTS=limits), in_thread(rebuild) as rebuilt:
        assert writing.wait(WAIT)
        try:
            answers = {
                "completed": client.post(
                    f"/api/tables/{second.pk}/hands/", {"number": 0, "record": buck_takes_all(2)}
                ),
                "completed elsewhere": client.post(
                    f"/api/tables/{other.pk}/hands/", {"number": 0, "record": buck_takes_all(3)}
                ),
                "corrected": client.put(
                    f"/api/tables/{first.pk}/hands/0/",
                    {"record": buck_takes_all(0)},
                    HTTP_IF_MATCH=etag(first),
                ),
            }
        finally:
            release.set()
    monkeypatch.undo()

    statuses = {change: answer.status_code for change, answer in answers.items()}
    assert statuses == {"completed": 201, "completed elsewhere": 201, "corrected": 200}, {
        change: answer.content[:300] for change, answer in answers.items()
    }
    assert rebuilt == [1]  # the job rated the one game it read
    for table in (first, second, other):
        table.refresh_from_db()
        assert table.complete
    scopes = RatingScope.objects.filter(club=setup.club)
    assert {(kind, pk) for kind, pk in JobOwed.objects.values_list("kind", "target_id")} >= {
        ("ratings", scope.pk) for scope in scopes
    }

    for kind, target_id in JobOwed.objects.values_list("kind", "target_id"):
        outbox.JOBS[kind](target_id)  # the work owed, done
    assert not JobOwed.objects.exists()
    assert scopes.count() == 3
    for scope in scopes:
        caught_up = rated(scope)
        ratings.ratings_rebuild(scope=scope)
        assert rated(scope) == caught_up, scope
    assert RatingHistory.objects.filter(scope=club_wide).count() == 12  # three games of four
