"""Taking a player off a table while someone else changes it, for real at
once (PostgreSQL only: SQLite serialises writers with a database lock,
which hides the races looked for here)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from league.models import Attendance, AuditEntry, Hand, Table
from tests.support.api import client_for
from tests.support.records import bluke_results
from tests.support.seat_changes import seated_night

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="concurrent writes need PostgreSQL"
    ),
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 30


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

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a request never finished"
    assert not errors, errors
    return answers


def test_the_same_player_taken_off_twice_at_once_is_taken_off_once() -> None:
    night = seated_night()
    table, player = night.tables[0], night.players[0]
    url = f"/api/tables/{table.pk}/remove-player/"

    def take_off() -> Any:
        return client_for(night.setup.organiser).post(
            url, {"player": player.pk, "commit": True}, format="json"
        )

    answers = at_once(take_off, take_off)

    assert sorted(answer.status_code for answer in answers) == [200, 400]
    table.refresh_from_db()
    assert (table.players, table.version) == (3, 1)
    assert not Attendance.objects.filter(event=night.event, player=player).exists()
    assert AuditEntry.objects.filter(action="table.player_removed").count() == 1


def test_a_hand_and_a_take_off_at_once_never_both_change_the_table() -> None:
    night = seated_night()
    table = night.tables[0]

    def hand() -> Any:
        return client_for(night.setup.scorekeeper).post(
            f"/api/tables/{table.pk}/hands/",
            {"number": 0, "record": bluke_results(13)},
            format="json",
        )

    def take_off() -> Any:
        return client_for(night.setup.organiser).post(
            f"/api/tables/{table.pk}/remove-player/",
            {"player": night.players[0].pk, "commit": True},
            format="json",
        )

    submitted, removed = at_once(hand, take_off)

    stored = Table.objects.get(pk=table.pk)
    if removed.status_code == 200:  # the seats changed first: the four-seat hand is refused
        assert submitted.status_code >= 400
        assert not Hand.objects.filter(table=table).exists()
        assert stored.players == 3
    else:  # the hand came first: the seats stay fixed
        assert submitted.status_code == 201
        assert (removed.status_code, removed.json()["code"]) == (409, "table_started")
        assert stored.players == 4 and stored.hands_played == 1
