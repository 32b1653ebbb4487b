"""Real concurrent requests (PostgreSQL only: SQLite serialises writers with
a database lock, which hides the races these tests look for)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from league.models import Hand, IdempotencyKey, Membership, Seating, Table
from league.services import fixtures, results
from league.services import seating as seating_service
from league.services.attendance import attendance_set
from tests.support.api import PROBLEM, client_for
from tests.support.attendance import new_night
from tests.support.factories import UserFactory
from tests.support.records import bluke_results
from tests.support.setups import club_setup

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="concurrent writes need PostgreSQL"
    ),
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 30
MEETING_TIMEOUT = 3


@pytest.fixture(autouse=True)
def locks_outwait_the_meeting(settings: Any) -> None:
    """A request here may wait for a lock held through a whole meeting
    (:func:`meet_before`), longer than a request's lock timeout in production
    (3 s, after which it would be answered 503): wait longer."""
    settings.DATABASE_TIMEOUTS = {
        **settings.DATABASE_TIMEOUTS,
        "web": {"statement": 4 * TIMEOUT, "lock": 3 * MEETING_TIMEOUT},
    }


def meet_before(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, parties: int = 2) -> None:
    """Make ``parties`` threads meet before any of them calls ``owner.name``.

    This forces the interleaving in which every request has made its checks
    before any of them writes. A service that serialises the requests with a
    lock keeps the later ones from reaching this point; the meeting then
    times out and the first request goes on alone, so a correct service
    passes (after the timeout).
    """
    original = getattr(owner, name)
    meeting = threading.Barrier(parties)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with contextlib.suppress(threading.BrokenBarrierError):
            meeting.wait(timeout=MEETING_TIMEOUT)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)


def at_once(*requests: Callable[[], Any]) -> list[Any]:
    """Run each request in its own thread, all released together; their answers."""
    barrier = threading.Barrier(len(requests))
    answers: list[Any] = [None] * len(requests)
    errors: list[BaseException] = []

    def run(index: int, request: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            answers[index] = request()
        except BaseException as error:  # reported in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(index, request))
        for index, request in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a request never finished"
    assert not errors, errors
    return answers


def test_the_same_hand_submitted_twice_at_once_is_stored_once() -> None:
    setup = club_setup()
    url = f"/api/tables/{setup.table.pk}/hands/"
    data = {"number": 0, "record": bluke_results(13)}

    def submit() -> Any:
        return client_for(setup.scorekeeper).post(url, data)

    answers = at_once(submit, submit)

    assert sorted(a.status_code for a in answers) == [201, 409]
    conflict = next(a for a in answers if a.status_code == 409)
    assert conflict["Content-Type"] == PROBLEM
    assert conflict.json()["field"] == "number"
    assert Hand.objects.filter(table=setup.table).count() == 1
    setup.table.refresh_from_db()
    assert setup.table.version == 1


def test_two_phones_entering_the_same_hand_through_one_link_at_once_store_it_once() -> None:
    """Issue 27: a table's link on two phones; both enter hand 1 at the same moment."""
    setup = club_setup()
    token = (
        client_for(setup.scorekeeper).post(f"/api/tables/{setup.table.pk}/link/").json()["token"]
    )
    url = f"/api/tables/{setup.table.pk}/hands/"

    def phone(seat: int) -> Callable[[], Any]:
        def submit() -> Any:
            client = client_for()
            client.credentials(HTTP_AUTHORIZATION=f"Table {token}")
            return client.post(url, {"number": 0, "record": bluke_results(13), "seat": seat})

        return submit

    answers = at_once(phone(0), phone(2))

    assert sorted(a.status_code for a in answers) == [201, 409]
    assert Hand.objects.filter(table=setup.table).count() == 1
    stored = Table.objects.get(pk=setup.table.pk)
    assert stored.version == 1
    winner = next(a for a in answers if a.status_code == 201)
    assert stored.entered_seat == (0 if winner is answers[0] else 2)


def test_a_correction_and_the_next_hand_at_once_keep_both(monkeypatch: pytest.MonkeyPatch) -> None:
    """The correction replays the hands stored after it as they are once it
    holds the table's lock: a hand appended just before is replayed too, not
    deleted. (A correction with no version, as a service caller may make; the
    API and the pages send one, and are answered 412 when the sheet moved.)"""
    setup = club_setup()
    for cards in (13, 12, 11):
        results.hand_submit(table=setup.table, record=bluke_results(cards))
    change = results._results_change
    meeting = threading.Barrier(2)

    def the_next_hand_locks_first(**kwargs: Any) -> Any:
        meeting.wait(timeout=MEETING_TIMEOUT)
        if kwargs["mode"] is results.ResultsMode.REPLACE:
            time.sleep(0.3)  # the append takes the table's lock meanwhile
        return change(**kwargs)

    monkeypatch.setattr(results, "_results_change", the_next_hand_locks_first)
    # the append goes the locked way too, where both meet (not as read, in one statement)
    monkeypatch.setattr(results, "_hand_append_as_read", lambda **kwargs: None)
    at_once(
        lambda: results.hand_correct(
            table=setup.table, number=1, record=bluke_results(12, winner=2), version=None
        ),
        lambda: results.hand_submit(table=setup.table, record=bluke_results(10)),
    )

    setup.table.refresh_from_db()
    assert setup.table.hands_played == 4
    stored = Hand.objects.filter(table=setup.table).order_by("number")
    assert [hand.record for hand in stored] == [
        bluke_results(13),
        bluke_results(12, winner=2),
        bluke_results(11),
        bluke_results(10),
    ]


def test_two_requests_with_one_idempotency_key_at_once_store_one_hand() -> None:
    setup = club_setup()
    url = f"/api/tables/{setup.table.pk}/hands/"
    data = {"number": 0, "record": bluke_results(13)}

    def submit() -> Any:
        return client_for(setup.scorekeeper).post(url, data, HTTP_IDEMPOTENCY_KEY="same-key")

    answers = at_once(submit, submit)

    assert [a.status_code for a in answers] == [201, 201], [a.content for a in answers]
    assert answers[0].json() == answers[1].json()
    assert Hand.objects.filter(table=setup.table).count() == 1
    assert IdempotencyKey.objects.filter(user=setup.scorekeeper).count() == 1


# -- other checks made before a write ---------------------------------------------------------


def test_two_organisers_removing_each_other_at_once_leave_one_organiser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup = club_setup()
    second = UserFactory()
    theirs = Membership.objects.create(club=setup.club, user=second, role="organiser")
    mine = Membership.objects.get(club=setup.club, user=setup.organiser)
    meet_before(monkeypatch, Membership, "delete")

    answers = at_once(
        lambda: client_for(setup.organiser).delete(f"/api/memberships/{theirs.pk}/"),
        lambda: client_for(second).delete(f"/api/memberships/{mine.pk}/"),
    )

    statuses = sorted(a.status_code for a in answers)
    assert statuses[0] == 204
    assert statuses[1] in (404, 409), statuses
    assert Membership.objects.filter(club=setup.club, role="organiser").count() == 1


def test_two_tables_seating_one_player_at_once_are_a_conflict_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    setup = club_setup()
    round2 = setup.event.rounds.get(number=2)
    meet_before(monkeypatch, fixtures, "_seat")

    def create(number: int, start: int) -> Any:
        players = [p.pk for p in setup.players[start : start + 4]]
        client = client_for(setup.organiser, crash_as_500=True)
        return lambda: client.post(
            "/api/tables/", {"round": round2.pk, "number": number, "players": players}
        )

    answers = at_once(create(1, 0), create(2, 3))  # players[3] at both tables

    assert sorted(a.status_code for a in answers) == [201, 409]
    assert Table.objects.filter(round=round2).count() == 1
    assert Seating.objects.filter(round=round2).count() == 4


def test_two_organisers_committing_one_round_at_once_store_one_draw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both requests draw before either stores: the event lock lets one
    store its tables; the other then finds the round drawn (409)."""
    setup = club_setup()
    event = new_night(setup, rounds=2)
    attendance_set(event=event, players=setup.players, by=setup.organiser)
    round_ = event.rounds.get(number=1)
    meet_before(monkeypatch, seating_service, "round_seating_draw")
    url = f"/api/rounds/{round_.pk}/seating/"

    answers = at_once(
        lambda: client_for(setup.organiser).post(url, {"commit": True, "seed": 1}),
        lambda: client_for(setup.organiser).post(url, {"commit": True, "seed": 2}),
    )

    assert sorted(answer.status_code for answer in answers) == [201, 409]
    stored = next(answer for answer in answers if answer.status_code == 201).json()
    assert sorted(Table.objects.filter(round=round_).values_list("pk", flat=True)) == sorted(
        table["id"] for table in stored["tables"]
    )
