"""``Idempotency-Key`` on POSTs: a retry answers the first response and
changes nothing; the same key with another request is a 422; keys are per user."""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from league import idempotency, tasks
from league.models import (
    AuditEntry,
    Club,
    Event,
    Hand,
    IdempotencyKey,
    League,
    Membership,
    Player,
    Round,
    Table,
)
from tests.support.api import assert_problem, client_for
from tests.support.factories import UserFactory
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup
from tests.support.state import db_state

pytestmark = pytest.mark.django_db

KEY = "3f1c9a2e-retry-me"


def post(client: Any, url: str, data: dict[str, Any], key: str = KEY) -> Any:
    return client.post(url, data, HTTP_IDEMPOTENCY_KEY=key)


POSTS: dict[str, Callable[[ClubSetup], tuple[str, dict[str, Any], type[Any]]]] = {
    "club": lambda s: ("/api/clubs/", {"name": "Retry Club"}, Club),
    # a role changes (a new one is given by an invitation accepted): one audit entry
    "membership": lambda s: (
        "/api/memberships/",
        {"club": s.club.pk, "user": s.scorekeeper.pk, "role": "organiser"},
        AuditEntry,
    ),
    "player": lambda s: ("/api/players/", {"club": s.club.pk, "name": "Retry"}, Player),
    "league": lambda s: (
        "/api/leagues/",
        {"club": s.club.pk, "name": "Retry", "game": "buck_euchre"},
        League,
    ),
    "event": lambda s: (
        "/api/events/",
        {"league": s.league.pk, "name": "Retry", "date": "2026-12-24", "rounds": 2},
        Event,
    ),
    "round": lambda s: ("/api/rounds/", {"event": s.event.pk, "number": 3}, Round),
    "table": lambda s: (
        "/api/tables/",
        {"round": s.round.pk, "number": 2, "players": [p.pk for p in s.players[4:]]},
        Table,
    ),
    "hand": lambda s: (
        f"/api/tables/{s.table.pk}/hands/",
        {"number": 0, "record": bluke_results(13)},
        Hand,
    ),
    "game": lambda s: (
        f"/api/tables/{s.table.pk}/game/",
        {"record": {"hands": [bluke_results(13), bluke_results(12, winner=1)]}},
        Hand,
    ),
}


@pytest.mark.parametrize("resource", list(POSTS))
def test_a_retry_answers_the_first_response_and_counts_once(resource: str) -> None:
    setup = club_setup()
    url, data, model = POSTS[resource](setup)
    client = client_for(setup.organiser)
    rows = model.objects.count()

    first = post(client, url, data)
    assert first.status_code == 201, first.content
    assert "Idempotent-Replayed" not in first
    after_first = db_state()

    retry = post(client, url, data)

    assert retry.status_code == first.status_code
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    assert db_state() == after_first
    assert model.objects.count() == rows + (2 if resource == "game" else 1)


def test_a_retried_hand_is_stored_once_and_the_table_version_moves_once() -> None:
    setup = club_setup()
    client = client_for(setup.scorekeeper)
    data = {"number": 0, "record": bluke_results(13)}
    url = f"/api/tables/{setup.table.pk}/hands/"

    answers = [post(client, url, data) for _ in range(3)]

    assert [a.status_code for a in answers] == [201, 201, 201]
    assert answers[1].json() == answers[2].json() == answers[0].json()
    assert setup.table.hands.count() == 1
    setup.table.refresh_from_db()
    assert setup.table.version == 1
    # without a key, the same submission is a conflict: the hand is stored already
    assert_problem(client.post(url, data), 409)


def test_a_key_used_with_another_request_is_a_422() -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    assert post(client, "/api/players/", {"club": setup.club.pk, "name": "One"}).status_code == 201
    before = db_state()

    other_body = post(client, "/api/players/", {"club": setup.club.pk, "name": "Two"})
    other_path = post(client, "/api/clubs/", {"name": "One"})

    for response in (other_body, other_path):
        body = assert_problem(response, 422)
        assert body["type"] == "/api/problems/idempotency-key-reused"
    assert db_state() == before


def test_keys_are_per_user() -> None:
    setup = club_setup()
    second_organiser = UserFactory()
    Membership.objects.create(club=setup.club, user=second_organiser, role="organiser")

    mine = post(client_for(setup.organiser), "/api/players/", {"club": setup.club.pk, "name": "A"})
    theirs = post(
        client_for(second_organiser), "/api/players/", {"club": setup.club.pk, "name": "B"}
    )

    assert (mine.status_code, theirs.status_code) == (201, 201)
    assert "Idempotent-Replayed" not in theirs
    assert theirs.json()["name"] == "B"
    assert set(setup.club.players.filter(name__in=["A", "B"]).values_list("name", flat=True)) == {
        "A",
        "B",
    }


def test_a_failed_request_is_not_remembered() -> None:
    setup = club_setup()
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/"
    bad = {"number": 0, "record": {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [0, 0, 0, 0]}}

    assert_problem(post(client, url, bad), 422)
    assert_problem(post(client, url, bad), 422)
    good = post(client, url, {"number": 0, "record": bluke_results(13)})

    assert good.status_code == 201
    assert "Idempotent-Replayed" not in good
    assert Hand.objects.count() == 1


def test_a_replayed_hand_carries_the_first_etag() -> None:
    """The score sheet's ETag is what a client needs for its next correction;
    a client whose first answer was lost has only the replay."""
    setup = club_setup()
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/"
    data = {"number": 0, "record": bluke_results(13)}

    first = post(client, url, data)
    retry = post(client, url, data)

    assert first["ETag"] == f'"table-{setup.table.pk}-v1"'
    assert retry.get("ETag") == first["ETag"]


def test_a_key_longer_than_200_characters_is_a_400() -> None:
    setup = club_setup()
    response = post(
        client_for(setup.organiser),
        "/api/players/",
        {"club": setup.club.pk, "name": "Long"},
        key="k" * 201,
    )
    assert "Idempotency-Key" in assert_problem(response, 400)["errors"]
    assert not Player.objects.filter(name="Long").exists()


# -- how long a key is kept ---------------------------------------------------------------------


def made_ago(hours: float) -> None:
    """Every stored key made ``hours`` ago, as time passing would."""
    IdempotencyKey.objects.update(created_at=timezone.now() - datetime.timedelta(hours=hours))


def test_a_key_older_than_a_day_starts_a_new_request() -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    first = post(client, "/api/players/", {"club": setup.club.pk, "name": "Once"})
    made_ago(23)
    assert post(client, "/api/players/", {"club": setup.club.pk, "name": "Once"}).json() == (
        first.json()
    )
    made_ago(25)
    again = post(client, "/api/players/", {"club": setup.club.pk, "name": "Twice"})
    assert again.status_code == 201 and "Idempotent-Replayed" not in again
    assert again.json()["name"] == "Twice"  # not the day-old answer, nor a 422 for the new body
    assert IdempotencyKey.objects.get().body["name"] == "Twice"


def test_pruning_deletes_only_the_expired_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    for n in range(5):
        post(client, "/api/players/", {"club": setup.club.pk, "name": f"P{n}"}, key=f"k{n}")
    made_ago(30)
    post(client, "/api/players/", {"club": setup.club.pk, "name": "Fresh"}, key="fresh")
    monkeypatch.setattr(idempotency, "PRUNE_BATCH", 2)  # three statements for five keys
    assert idempotency.idempotency_keys_prune() == 5
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["fresh"]
    assert tasks.idempotency_keys_prune() == 0  # Celery beat's hourly run: nothing left


def test_the_prune_command_keeps_a_day_at_least() -> None:
    setup = club_setup()
    post(client_for(setup.organiser), "/api/players/", {"club": setup.club.pk, "name": "Old"})
    made_ago(50)
    out = io.StringIO()
    call_command("idempotency_keys_prune", "--hours", "72", stdout=out)
    assert out.getvalue() == "idempotency keys deleted: 0\n"
    call_command("idempotency_keys_prune", stdout=out)
    assert out.getvalue().endswith("idempotency keys deleted: 1\n")
    with pytest.raises(CommandError, match="at least 24"):
        call_command("idempotency_keys_prune", "--hours", "2")
