"""Webhooks: which changes make which deliveries, how they are signed, sent,
retried and given up, who may manage endpoints, and where the league will not send.

Deliveries go to a real HTTP server on 127.0.0.1 (a port of its own, in a
thread): one that answers 204, one that answers 500, one that redirects, and
one that answers after the client's timeout.
"""

from __future__ import annotations

import datetime
import doctest
import hashlib
import hmac
import http.server
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import yaml
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.utils import timezone

from league import webhook_delivery as webhooks
from league import webhook_events
from league.errors import Conflict, ServiceError
from league.models import JobOwed, Standing, WebhookDelivery, WebhookEndpoint
from league.outbox import jobs_sweep
from league.services.attendance import attendance_set
from league.services.fixtures import event_create
from league.services.results import hand_correct, hand_delete_last, hand_submit
from league.services.seating import event_schedule_commit, round_seating_commit
from league.services.webhook_endpoints import (
    webhook_endpoint_create,
    webhook_endpoint_delete,
    webhook_endpoint_update,
    webhook_ping,
)
from league.standings import standings_refresh
from league.webhook_events import webhooks_emit, webhooks_standings_updated
from tests.support.api import assert_problem, client_for
from tests.support.factories import UserFactory
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup, member

pytestmark = pytest.mark.django_db

ALL_EVENTS = ["game.completed", "result.corrected", "standings.updated", "round.seated"]


# -- a receiver on the loopback interface ---------------------------------------------------


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """What the local server answers (``status``; ``delay`` seconds first), and what it got."""

    status: int = 204
    delay: float = 0.0
    location: str = ""
    got: list[Received] = field(default_factory=list)
    port: int = 0

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    state = Receiver()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            state.got.append(Received(self.path, dict(self.headers.items()), body))
            if state.delay:
                time.sleep(state.delay)
            try:
                self.send_response(state.status)
                if state.location:
                    self.send_header("Location", state.location)
                self.send_header("Content-Length", "0")
                self.end_headers()
            except OSError:  # the client gave up waiting
                pass

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def private_ok(settings: Any) -> None:
    """Deliveries to 127.0.0.1 allowed, as the tests' receiver needs (off in production)."""
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Any:
    """Run what a change sends on commit (the delivery's job, eagerly), as a commit would."""
    return django_capture_on_commit_callbacks


def verify(secret: str, headers: dict[str, str], body: bytes, *, tolerance: int = 300) -> bool:
    """A receiver's check, as docs/webhooks.md gives it."""
    timestamp = headers["Webhook-Timestamp"]
    if abs(time.time() - int(timestamp)) > tolerance:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    sent = headers["Webhook-Signature"].removeprefix("v1=")
    return hmac.compare_digest(expected.hexdigest(), sent)


def endpoint_for(
    setup: ClubSetup, url: str, events: list[str] | None = None
) -> tuple[WebhookEndpoint, str]:
    new = webhook_endpoint_create(
        club=setup.club, url=url, events=events or ALL_EVENTS, by=setup.organiser
    )
    return new.endpoint, new.secret


def one_hand_game() -> ClubSetup:
    """A club whose table's Bluke game is one hand long (max_cards 1)."""
    return club_setup(options={"max_cards": 1})


def make_due(delivery: WebhookDelivery) -> None:
    """Move a pending delivery's next attempt, and its job, to the past, as time passing would."""
    past = timezone.now() - datetime.timedelta(seconds=30)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=past)
    JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK, target_id=delivery.pk).update(owed_since=past)


def job_of(delivery: WebhookDelivery) -> JobOwed | None:
    return JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK, target_id=delivery.pk).first()


# -- signing --------------------------------------------------------------------------------


def test_a_delivery_is_signed_over_its_timestamp_and_body(
    private_ok: None, receiver: Receiver, on_commit: Any
) -> None:
    setup = one_hand_game()
    endpoint, secret = endpoint_for(setup, receiver.url(), ["game.completed"])
    with on_commit(execute=True):
        hand_submit(table=setup.table, record=bluke_results(1, winner=2))

    [got] = receiver.got
    assert verify(secret, got.headers, got.body)
    assert not verify("whsec_another", got.headers, got.body)
    assert not verify(secret, got.headers, got.body.replace(b"game", b"gamE"))
    stale = {**got.headers, "Webhook-Timestamp": str(int(got.headers["Webhook-Timestamp"]) - 1)}
    assert not verify(secret, stale, got.body)  # the timestamp is signed too
    body = json.loads(got.body)
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    assert got.headers["Webhook-Id"] == body["id"] == str(delivery.event_id)
    assert got.headers["Content-Type"] == "application/json"
    assert body["type"] == "game.completed"
    assert body["club"] == setup.club.pk
    assert body["data"] == delivery.payload
    assert secret.startswith("whsec_") and len(secret) > 40


def test_the_signature_is_hmac_sha256_of_timestamp_dot_body() -> None:
    body = b'{"id":"1"}'
    header = webhooks.signature(secret="k", timestamp=12, body=body)
    assert header == "v1=" + hmac.new(b"k", b"12." + body, hashlib.sha256).hexdigest()


# -- which events go where ------------------------------------------------------------------


def test_a_completed_game_goes_to_its_subscribers_only(private_ok: None, on_commit: Any) -> None:
    setup = one_hand_game()
    completed, _ = endpoint_for(setup, "http://127.0.0.1:9/a", ["game.completed"])
    corrected, _ = endpoint_for(setup, "http://127.0.0.1:9/b", ["result.corrected"])
    both, _ = endpoint_for(setup, "http://127.0.0.1:9/c", ["game.completed", "round.seated"])
    paused, _ = endpoint_for(setup, "http://127.0.0.1:9/d", ["game.completed"])
    webhook_endpoint_update(endpoint=paused, active=False)
    elsewhere = club_setup(options={"max_cards": 1})
    endpoint_for(elsewhere, "http://127.0.0.1:9/e", ALL_EVENTS)

    with on_commit(execute=False):  # owed, not sent: the jobs are not run here
        hand_submit(table=setup.table, record=bluke_results(1, winner=2))

    made = WebhookDelivery.objects.all()
    assert {d.endpoint_id for d in made} == {completed.pk, both.pk}
    assert {d.event for d in made} == {"game.completed"}
    assert len({d.event_id for d in made}) == 1  # one event, one id everywhere
    assert corrected.deliveries.count() == 0
    data = made[0].payload
    assert data["table"]["id"] == setup.table.pk
    assert data["table"]["complete"] is True
    assert data["league"]["id"] == setup.league.pk
    assert data["event"]["date"] == setup.event.date.isoformat()
    assert [p["place"] for p in data["players"]] == [2, 2, 1, 2]
    assert [p["player"]["id"] for p in data["players"]] == [p.pk for p in setup.players[:4]]
    assert set(
        JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK).values_list("target_id", flat=True)
    ) == {d.pk for d in made}


def test_a_correction_of_a_complete_game_is_result_corrected(private_ok: None) -> None:
    setup = one_hand_game()
    endpoint, _ = endpoint_for(setup, "http://127.0.0.1:9/", ["result.corrected"])
    hand_submit(table=setup.table, record=bluke_results(1, winner=2))
    assert endpoint.deliveries.count() == 0

    hand_correct(table=setup.table, number=0, record=bluke_results(1, winner=0), version=None)
    [corrected] = endpoint.deliveries.all()
    assert corrected.event == "result.corrected"
    assert [p["place"] for p in corrected.payload["players"]] == [1, 2, 2, 2]

    hand_delete_last(table=setup.table, number=0, version=None)
    deleted = endpoint.deliveries.order_by("-id").first()
    assert deleted is not None and deleted.event == "result.corrected"
    assert deleted.payload["table"]["complete"] is False
    assert [p["place"] for p in deleted.payload["players"]] == [None] * 4


def test_a_hand_of_an_unfinished_game_sends_nothing(private_ok: None) -> None:
    setup = club_setup(options={"max_cards": 2})
    endpoint_for(setup, "http://127.0.0.1:9/", ALL_EVENTS)
    hand_submit(table=setup.table, record=bluke_results(2))
    assert not WebhookDelivery.objects.exists()


def test_seating_a_round_and_a_night_is_round_seated(private_ok: None) -> None:
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, "http://127.0.0.1:9/", ["round.seated"])
    attendance_set(event=setup.event, players=setup.players, by=setup.organiser)
    round_two = setup.event.rounds.get(number=2)

    round_seating_commit(round=round_two, seed=1)
    [seated] = endpoint.deliveries.all()
    assert seated.event == "round.seated"
    assert seated.payload["round"] == {"id": round_two.pk, "number": 2}
    seats = [p["player"]["id"] for t in seated.payload["tables"] for p in t["players"]]
    assert sorted(seats + [p["id"] for p in seated.payload["sit_out"]]) == sorted(
        p.pk for p in setup.players
    )

    night_out = event_create(league=setup.league, name="Next", date=setup.event.date, rounds=2)
    attendance_set(event=night_out, players=setup.players, by=setup.organiser)
    event_schedule_commit(event=night_out, seed=2)  # a night drawn whole
    night = endpoint.deliveries.filter(pk__gt=seated.pk)
    assert sorted(d.payload["round"]["number"] for d in night) == [1, 2]
    assert len({d.event_id for d in night}) == 2  # an event each


def test_standings_updated_carries_the_top_and_the_lines_that_changed(
    private_ok: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhook_events, "STANDINGS_SENT", 2)  # of a league's four lines
    setup = one_hand_game()
    hand_submit(table=setup.table, record=bluke_results(1, winner=2))
    standings_refresh(league=setup.league)
    endpoint, _ = endpoint_for(setup, "http://127.0.0.1:9/", ["standings.updated"])
    lines = list(Standing.objects.filter(league=setup.league, event=None).order_by("rank"))
    last = lines[-1].player_id
    with transaction.atomic():
        [delivery] = webhooks_standings_updated(
            league=setup.league, event_ids=[setup.event.pk], player_ids=[last]
        )
        [rebuilt] = webhooks_standings_updated(league=setup.league)
    assert delivery.endpoint_id == endpoint.pk
    data = delivery.payload
    assert data["league"]["id"] == setup.league.pk
    assert data["events"] == [setup.event.pk]
    assert data["players"] == 4
    assert [line["player"]["id"] for line in data["standings"]] == [
        line.player_id for line in lines[:2]
    ]
    assert [line["rank"] for line in data["standings"]] == [1, 2]
    assert [(line["player"]["id"], line["rank"]) for line in data["changed"]] == [(last, 4)]
    assert data["standings_url"] == f"/api/leagues/{setup.league.pk}/standings/"
    assert rebuilt.payload["changed"] is None  # every line rebuilt: none singled out


def test_emit_refuses_an_event_nobody_subscribes_to() -> None:
    setup = club_setup()
    with pytest.raises(ValueError, match="not an event"):
        webhooks_emit(club=setup.club, event="ping", payload={})


def test_a_club_without_endpoints_makes_no_payload(django_assert_num_queries: Any) -> None:
    setup = club_setup()

    def payload() -> dict[str, Any]:
        raise AssertionError("built for nobody")

    with django_assert_num_queries(1):
        assert webhooks_emit(club=setup.club, event="game.completed", payload=payload) == []


def test_a_change_rolled_back_sends_nothing(
    private_ok: None, receiver: Receiver, on_commit: Any
) -> None:
    setup = one_hand_game()
    endpoint_for(setup, receiver.url(), ALL_EVENTS)

    with (
        on_commit(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        hand_submit(table=setup.table, record=bluke_results(1, winner=2))
        assert WebhookDelivery.objects.count() == 1  # owed inside the change
        raise RuntimeError("the change fails after the game completed")

    assert callbacks == []
    assert not WebhookDelivery.objects.exists()
    assert not JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK).exists()
    assert receiver.got == []


# -- sending, retrying, giving up ---------------------------------------------------------


def test_a_receiver_that_answers_2xx_gets_the_delivery_once(
    private_ok: None, receiver: Receiver, on_commit: Any
) -> None:
    setup = one_hand_game()
    endpoint_for(setup, receiver.url("/in?x=1"), ["game.completed"])
    with on_commit(execute=True):
        hand_submit(table=setup.table, record=bluke_results(1, winner=2))

    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("delivered", 1, 204)
    assert delivery.delivered_at is not None and delivery.next_attempt_at is None
    assert job_of(delivery) is None
    assert [got.path for got in receiver.got] == ["/in?x=1"]
    # the job again (the broker's redelivery, the sweep): nothing more is sent
    assert webhooks.deliver(delivery.pk) == "done"
    assert jobs_sweep() == 0
    assert len(receiver.got) == 1


def test_a_receiver_that_answers_500_is_retried_with_backoff_until_failed(
    private_ok: None, receiver: Receiver, on_commit: Any
) -> None:
    receiver.status = 500
    setup = one_hand_game()
    endpoint, _ = endpoint_for(setup, receiver.url(), ["game.completed"])
    with on_commit(execute=True):
        hand_submit(table=setup.table, record=bluke_results(1, winner=2))
    delivery = WebhookDelivery.objects.get()

    waits = []
    for attempt in range(1, webhooks.MAX_ATTEMPTS + 1):
        delivery.refresh_from_db()
        assert delivery.attempts == attempt
        assert delivery.last_status_code == 500
        assert "HTTP 500" in delivery.last_error
        if attempt == webhooks.MAX_ATTEMPTS:
            break
        assert delivery.status == "pending"
        job = job_of(delivery)
        assert job is not None and job.sent_at is None
        assert job.owed_since == delivery.next_attempt_at  # the sweep sends it when due
        assert delivery.next_attempt_at is not None
        waits.append(delivery.next_attempt_at - timezone.now())
        assert jobs_sweep() == 0  # not due yet: nothing sent
        make_due(delivery)
        assert jobs_sweep() == 1
    assert delivery.status == "failed" and delivery.next_attempt_at is None
    assert job_of(delivery) is None
    assert len(receiver.got) == webhooks.MAX_ATTEMPTS
    assert len({got.headers["Webhook-Id"] for got in receiver.got}) == 1
    for wait, planned in zip(waits, webhooks.RETRY_DELAYS, strict=True):
        assert planned - datetime.timedelta(seconds=5) < wait <= planned
    endpoint.refresh_from_db()
    assert endpoint.consecutive_failures == webhooks.MAX_ATTEMPTS
    assert endpoint.active


def test_an_endpoint_failing_repeatedly_is_disabled_with_the_reason(
    private_ok: None, receiver: Receiver
) -> None:
    receiver.status = 500
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, receiver.url(), ["game.completed"])
    sent = 0
    while True:
        endpoint.refresh_from_db()
        if not endpoint.active:
            break
        with transaction.atomic():
            [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={"n": 1})
        assert webhooks.deliver(delivery.pk) in ("retry", "failed")
        sent += 1
    assert sent == webhooks.DISABLE_AFTER
    assert endpoint.disabled_at is not None
    assert f"{webhooks.DISABLE_AFTER} delivery attempts in a row failed" in endpoint.disabled_reason
    assert "HTTP 500" in endpoint.disabled_reason
    # what was still to retry fails, its jobs cleared; nothing new is made for it
    assert not WebhookDelivery.objects.filter(status="pending").exists()
    assert not JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK).exists()
    with transaction.atomic():
        assert webhooks_emit(club=setup.club, event="game.completed", payload={}) == []

    webhook_endpoint_update(endpoint=endpoint, active=True)
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0
    assert (endpoint.disabled_at, endpoint.disabled_reason) == (None, "")


def test_a_success_resets_the_count_of_failures(private_ok: None, receiver: Receiver) -> None:
    receiver.status = 500
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, receiver.url(), ["game.completed"])
    for _ in range(3):
        with transaction.atomic():
            [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
        webhooks.deliver(delivery.pk)
    endpoint.refresh_from_db()
    assert endpoint.consecutive_failures == 3
    receiver.status = 200
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    assert webhooks.deliver(delivery.pk) == "delivered"
    endpoint.refresh_from_db()
    assert endpoint.consecutive_failures == 0


def test_a_receiver_that_answers_too_late_is_a_failed_attempt(
    private_ok: None, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webhooks, "TIMEOUT", httpx.Timeout(0.3))
    receiver.delay = 1.5
    setup = club_setup()
    endpoint_for(setup, receiver.url(), ["game.completed"])
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    started = time.monotonic()
    assert webhooks.deliver(delivery.pk) == "retry"
    assert time.monotonic() - started < 1.4  # it did not wait for the answer
    delivery.refresh_from_db()
    assert delivery.last_status_code is None
    assert delivery.last_error.startswith("no answer in time")
    assert len(receiver.got) == 1


def test_a_redirect_is_not_followed(private_ok: None, receiver: Receiver) -> None:
    receiver.status = 302
    receiver.location = receiver.url("/elsewhere")
    setup = club_setup()
    endpoint_for(setup, receiver.url(), ["game.completed"])
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    assert webhooks.deliver(delivery.pk) == "retry"
    delivery.refresh_from_db()
    assert delivery.last_status_code == 302
    assert "redirects are not followed" in delivery.last_error
    assert [got.path for got in receiver.got] == ["/hook"]


def test_a_refused_connection_is_a_failed_attempt(private_ok: None) -> None:
    setup = club_setup()
    endpoint_for(setup, "http://127.0.0.1:9/", ["game.completed"])  # the discard port: closed
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    assert webhooks.deliver(delivery.pk) == "retry"
    delivery.refresh_from_db()
    assert delivery.last_error.startswith("could not deliver")


def test_a_claimed_attempt_is_not_made_twice(private_ok: None, receiver: Receiver) -> None:
    """A second run while the first holds the claim (or after a crash, before the claim ends)
    finds the delivery not due; once the claim has run out, the sweep sends it again."""
    setup = club_setup()
    endpoint_for(setup, receiver.url(), ["game.completed"])
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    claimed = webhooks._claim(delivery.pk)  # a worker that dies after claiming
    assert isinstance(claimed, webhooks.Attempt)
    assert webhooks.deliver(delivery.pk) == "not-due"
    job = job_of(delivery)
    assert job is not None and job.owed_since > timezone.now()  # the claim's end
    make_due(delivery)
    assert jobs_sweep() == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("delivered", 2)
    assert len(receiver.got) == 1


def test_a_last_attempt_whose_run_died_is_given_up(private_ok: None, receiver: Receiver) -> None:
    """A worker that died during the last attempt recorded nothing: once its claim has run
    out, the delivery fails rather than being tried a seventh time."""
    setup = club_setup()
    endpoint_for(setup, receiver.url(), ["game.completed"])
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    WebhookDelivery.objects.filter(pk=delivery.pk).update(attempts=webhooks.MAX_ATTEMPTS)
    assert webhooks.deliver(delivery.pk) == "failed"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.last_error) == ("failed", "no answer recorded")
    assert job_of(delivery) is None
    assert receiver.got == []


def test_a_delivery_of_a_deleted_endpoint_clears_its_job(private_ok: None) -> None:
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, "http://127.0.0.1:9/", ["game.completed"])
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    webhook_endpoint_delete(endpoint=endpoint)
    assert not WebhookDelivery.objects.exists()
    assert job_of(delivery) is None
    assert webhooks.deliver(delivery.pk) == "gone"


def test_a_ping_is_sent_to_one_endpoint(private_ok: None, receiver: Receiver) -> None:
    setup = club_setup()
    endpoint, secret = endpoint_for(setup, receiver.url(), ["standings.updated"])
    endpoint_for(setup, receiver.url("/other"), ["standings.updated"])
    delivery = webhook_ping(endpoint=endpoint)
    assert webhooks.deliver(delivery.pk) == "delivered"
    [got] = receiver.got
    assert json.loads(got.body)["type"] == "ping"
    assert verify(secret, got.headers, got.body)
    webhook_endpoint_update(endpoint=endpoint, active=False)
    with pytest.raises(Conflict):
        webhook_ping(endpoint=endpoint)


# -- the database's rules ----------------------------------------------------------------


def test_the_database_keeps_deliveries_and_endpoints_consistent() -> None:
    setup = club_setup()
    endpoint = WebhookEndpoint.objects.create(club=setup.club, url="https://a.example/", secret="s")
    broken: list[Callable[[], Any]] = [
        lambda: WebhookEndpoint.objects.create(club=setup.club, url="https://b.example/"),
        lambda: WebhookEndpoint.objects.create(
            club=setup.club, url="https://a.example/", secret="t"
        ),
        lambda: WebhookEndpoint.objects.create(
            club=setup.club, url="https://c.example/", secret="s", disabled_at=timezone.now()
        ),
        lambda: WebhookDelivery.objects.create(
            endpoint=endpoint, event_id=uuid.uuid4(), event="nope", payload={},
            next_attempt_at=timezone.now(),
        ),
        lambda: WebhookDelivery.objects.create(
            endpoint=endpoint, event_id=uuid.uuid4(), event="ping", payload={}
        ),
        lambda: WebhookDelivery.objects.create(
            endpoint=endpoint, event_id=uuid.uuid4(), event="ping", payload={},
            status="delivered",
        ),
    ]  # fmt: skip
    for make in broken:
        with pytest.raises(IntegrityError), transaction.atomic():
            make()
    same = uuid.uuid4()
    WebhookDelivery.objects.create(
        endpoint=endpoint, event_id=same, event="ping", payload={}, next_attempt_at=timezone.now()
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        WebhookDelivery.objects.create(
            endpoint=endpoint,
            event_id=same,
            event="ping",
            payload={},
            next_attempt_at=timezone.now(),
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        JobOwed.objects.create(
            kind="nope", target_id=1, owed_since=timezone.now(), owed_at=timezone.now(), token=1
        )


# -- where the league will not send (SSRF) -------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://localhost:8000/",
        "https://10.0.0.5/",
        "https://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "http://0.0.0.0/",
    ],
)
def test_a_private_address_is_refused_when_registered(url: str) -> None:
    setup = club_setup()
    with pytest.raises(ServiceError) as refused:
        webhook_endpoint_create(club=setup.club, url=url, events=ALL_EVENTS)
    assert refused.value.field == "url"
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("ftp://hooks.example.org/", "http or https"),
        ("https://user:pw@hooks.example.org/", "no user name"),
        ("https:///nohost", "http or https"),
        ("https://hooks.example.org:99999/", "not a URL"),
        ("https://" + "a" * 500 + ".org/", "500 characters"),
    ],
)
def test_a_malformed_url_is_refused(private_ok: None, url: str, says: str) -> None:
    setup = club_setup()
    with pytest.raises(ServiceError, match=says):
        webhook_endpoint_create(club=setup.club, url=url, events=ALL_EVENTS)


def test_a_private_address_is_refused_when_delivering(
    private_ok: None, receiver: Receiver, settings: Any
) -> None:
    """Registered while allowed (or by a name that resolved elsewhere then): checked again
    when sent."""
    setup = club_setup()
    endpoint_for(setup, receiver.url(), ["game.completed"])
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    assert webhooks.deliver(delivery.pk) == "retry"
    delivery.refresh_from_db()
    assert delivery.last_error.startswith("not sent: the host 127.0.0.1 is a loopback")
    assert receiver.got == []


def test_a_public_host_is_reached_at_the_address_checked(
    monkeypatch: pytest.MonkeyPatch, receiver: Receiver
) -> None:
    """The request goes to the address that was checked, the name kept in ``Host``: a name
    cannot resolve to a public address for the check and a private one for the connection."""
    checked: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        checked.append(host)
        return ["127.0.0.1"]  # stands for the public address checked

    monkeypatch.setattr(webhooks, "public_addresses", resolve)
    attempt = webhooks.Attempt(
        delivery_id=1,
        number=1,
        url=f"http://hooks.example.org:{receiver.port}/in",
        secret="s",
        event_id="e",
        body=b"{}",
    )
    assert webhooks.post(attempt).delivered
    assert checked == ["hooks.example.org"]
    assert receiver.got[0].headers["Host"] == f"hooks.example.org:{receiver.port}"


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("100.64.0.1", False),
        ("224.0.0.1", False),
        ("fe80::1%eth0", False),
        ("2001:4860:4860::8888", True),
        # special and deprecated IPv4 ranges Python 3.11 calls global
        ("192.0.0.8", False),
        ("192.88.99.1", False),
        # IPv6 outside global unicast, or special inside it
        ("fec0::1", False),  # site-local, deprecated
        ("fc00::1", False),
        ("ff02::1", False),
        ("100::1", False),  # discard
        ("5f00::1", False),  # SRv6
        ("64:ff9b:1::a9fe:a9fe", False),  # local-use NAT64 (RFC 8215)
        ("2001::1", False),  # Teredo
        ("2001:db8::1", False),
        ("3fff::1", False),  # documentation (RFC 9637)
        ("3ffe::1", False),  # the 6bone
        # an IPv4 address in IPv6 form: judged by the IPv4 address
        ("64:ff9b::808:808", True),
        ("2002:808:808::1", True),
        ("::ffff:808:808", True),
        ("::808:808", True),
        ("::ffff:0:808:808", True),
        ("64:ff9b::10.0.0.1", False),
        ("2002:c058:6301::", False),  # 6to4 of a 6to4 relay
        ("::", False),
    ],
)
def test_which_addresses_are_public(address: str, public: bool) -> None:
    assert webhooks.is_public(address) is public


PRIVATE_IN_IPV6 = [
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254, the cloud metadata address
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "64:ff9b:1::a9fe:a9fe",  # local-use NAT64
    "64:ff9b:1::7f00:1",
    "::7f00:1",  # IPv4-compatible 127.0.0.1
    "::127.0.0.1",
    "::a9fe:a9fe",
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a9fe:a9fe::1",  # 6to4 of 169.254.169.254
    "::ffff:0:7f00:1",  # IPv4-translated 127.0.0.1
    "::ffff:0:a00:1",  # IPv4-translated 10.0.0.1
    "fec0::1",  # site-local
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
]
"""Private addresses in IPv6 clothing that Python 3.11's ``is_global`` calls public
(and Teredo, which it does not): issue 28, item 2."""


@pytest.mark.parametrize("address", PRIVATE_IN_IPV6)
def test_a_private_address_in_ipv6_form_is_refused_when_registered(address: str) -> None:
    setup = club_setup()
    with pytest.raises(ServiceError, match="loopback or private address") as refused:
        webhook_endpoint_create(club=setup.club, url=f"http://[{address}]/hook", events=ALL_EVENTS)
    assert refused.value.field == "url"
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize("address", PRIVATE_IN_IPV6)
def test_a_private_address_in_ipv6_form_is_refused_when_delivering(
    private_ok: None, settings: Any, address: str
) -> None:
    setup = club_setup()
    endpoint_for(setup, f"http://[{address}]:9/hook", ["game.completed"])
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    with transaction.atomic():
        [delivery] = webhooks_emit(club=setup.club, event="game.completed", payload={})
    assert webhooks.deliver(delivery.pk) == "retry"
    delivery.refresh_from_db()
    assert delivery.last_error.startswith(f"not sent: the host {address} is a loopback")


@pytest.mark.parametrize(
    "url",
    [
        "https://hooks.example.org/in\r\n",
        "https://hooks.example.org/in\n",
        "\r\nhttps://hooks.example.org/in",
        "https://hooks.exa\r\nmple.org/in",
        "https://hooks.example.org/i\tn",
        "https://hooks.example.org/in\u2028",
    ],
)
def test_a_url_with_a_line_break_or_control_character_is_refused(
    private_ok: None, url: str
) -> None:
    """Not stored stripped: URL parsers drop CR, LF and tab silently (issue 28, item 9)."""
    setup = club_setup()
    with pytest.raises(ServiceError, match="no line breaks") as refused:
        webhook_endpoint_create(club=setup.club, url=url, events=ALL_EVENTS)
    assert refused.value.field == "url"
    endpoint, _ = endpoint_for(setup, "https://hooks.example.org/in", ALL_EVENTS)
    with pytest.raises(ServiceError, match="no line breaks"):
        webhook_endpoint_update(endpoint=endpoint, url=url)
    endpoint.refresh_from_db()
    assert endpoint.url == "https://hooks.example.org/in"


def test_spaces_around_a_url_are_dropped(private_ok: None) -> None:
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, "  https://hooks.example.org/in ", ALL_EVENTS)
    assert endpoint.url == "https://hooks.example.org/in"


# -- the API ---------------------------------------------------------------------------------


def api_create(client: Any, setup: ClubSetup, **fields: Any) -> Any:
    body = {"club": setup.club.pk, "url": "http://127.0.0.1:9/in", "events": ALL_EVENTS}
    return client.post("/api/webhooks/", {**body, **fields}, format="json")


def test_an_organiser_registers_an_endpoint_and_sees_the_secret_once(private_ok: None) -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    created = api_create(client, setup, events=["round.seated", "game.completed"])
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["secret"].startswith("whsec_")
    assert body["events"] == ["game.completed", "round.seated"]
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.secret == body["secret"] and endpoint.created_by == setup.organiser

    detail = client.get(f"/api/webhooks/{endpoint.pk}/").json()
    listed = client.get("/api/webhooks/").json()["results"]
    assert "secret" not in detail and [e["id"] for e in listed] == [endpoint.pk]
    assert "secret" not in listed[0]
    assert body["secret"] not in json.dumps([detail, listed])


def test_the_api_changes_turns_off_and_on_and_deletes_an_endpoint(private_ok: None) -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    endpoint_id = api_create(client, setup).json()["id"]
    url = f"/api/webhooks/{endpoint_id}/"
    changed = client.patch(url, {"events": ["standings.updated"], "url": "http://127.0.0.1:9/x"})
    assert changed.status_code == 200
    assert changed.json()["events"] == ["standings.updated"]
    assert changed.json()["url"] == "http://127.0.0.1:9/x"
    WebhookEndpoint.objects.filter(pk=endpoint_id).update(
        active=False,
        disabled_at=timezone.now(),
        disabled_reason="HTTP 500",
        consecutive_failures=15,
    )
    shown = client.get(url).json()
    assert (shown["active"], shown["disabled_reason"]) == (False, "HTTP 500")
    on = client.patch(url, {"active": True}).json()
    assert (on["active"], on["disabled_at"], on["disabled_reason"], on["consecutive_failures"]) == (
        True,
        None,
        "",
        0,
    )
    assert client.delete(url).status_code == 204
    assert not WebhookEndpoint.objects.exists()


def test_the_api_refuses_bad_input_as_problems(private_ok: None, settings: Any) -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    unknown = assert_problem(api_create(client, setup, events=["game.started"]), 400)
    assert "events" in unknown["errors"]
    none = assert_problem(api_create(client, setup, events=[]), 400)
    assert "events" in none["errors"]
    extra = assert_problem(api_create(client, setup, secret="mine"), 400)
    assert "secret" in extra["errors"]
    for url in ("http://127.0.0.1:9/in\r\n", "\nhttp://127.0.0.1:9/in"):
        broken = assert_problem(api_create(client, setup, url=url), 400)
        assert "no line breaks" in json.dumps(broken["errors"]["url"]), broken
    assert not WebhookEndpoint.objects.exists()
    created = api_create(client, setup)
    assert created.status_code == 201
    changed = client.patch(
        f"/api/webhooks/{created.json()['id']}/", {"url": "http://127.0.0.1:9/x\r\n"}
    )
    assert "no line breaks" in json.dumps(assert_problem(changed, 400)["errors"]["url"])
    assert WebhookEndpoint.objects.get().url == "http://127.0.0.1:9/in"
    assert_problem(api_create(client, setup), 409)  # the same URL twice
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    ssrf = assert_problem(api_create(client, setup, url="http://10.1.1.1/"), 400)
    assert "loopback or private" in json.dumps(ssrf["errors"]["url"])


def test_only_the_clubs_organisers_manage_its_endpoints(private_ok: None) -> None:
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, "http://127.0.0.1:9/")
    other = club_setup()
    paths = [
        ("get", f"/api/webhooks/{endpoint.pk}/", None),
        ("patch", f"/api/webhooks/{endpoint.pk}/", {"active": False}),
        ("delete", f"/api/webhooks/{endpoint.pk}/", None),
        ("get", f"/api/webhooks/{endpoint.pk}/deliveries/", None),
        ("post", f"/api/webhooks/{endpoint.pk}/ping/", None),
        ("post", "/api/webhooks/", {"club": setup.club.pk, "url": "http://127.0.0.1:9/y"}),
    ]
    for user, status in (
        (setup.scorekeeper, 403),  # a member of the club without the role
        (member(setup), 403),  # a login linked to one of its players
        (other.organiser, 404),  # another club's organiser: as if it did not exist
        (UserFactory(), 404),
        (None, 401),
    ):
        client = client_for(user)
        for method, path, body in paths:
            answer = getattr(client, method)(path, body, format="json")
            problem = assert_problem(answer, status)
            assert "secret" not in json.dumps(problem)
        listed = client.get("/api/webhooks/")
        if user is None:
            assert_problem(listed, 401)
        else:
            assert listed.json()["results"] == []
    assert WebhookEndpoint.objects.filter(pk=endpoint.pk, active=True).exists()


def test_an_invalid_create_for_a_strangers_club_is_404_first() -> None:
    setup = club_setup()
    answer = client_for(UserFactory()).post(
        "/api/webhooks/", {"club": setup.club.pk, "url": "", "events": []}, format="json"
    )
    assert_problem(answer, 404)


def test_the_deliveries_are_listed_newest_first_by_cursor(private_ok: None) -> None:
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, "http://127.0.0.1:9/", ["game.completed"])
    for n in range(5):
        with transaction.atomic():
            webhooks_emit(club=setup.club, event="game.completed", payload={"n": n})
    client = client_for(setup.organiser)
    first = client.get(f"/api/webhooks/{endpoint.pk}/deliveries/?page_size=3").json()
    assert [d["payload"]["n"] for d in first["results"]] == [4, 3, 2]
    assert first["results"][0]["status"] == "pending"
    second = client.get(first["next"]).json()
    assert [d["payload"]["n"] for d in second["results"]] == [1, 0]
    assert_problem(client.get(f"/api/webhooks/{endpoint.pk}/deliveries/?cursor=abc"), 400)


def test_a_ping_through_the_api(private_ok: None, receiver: Receiver, on_commit: Any) -> None:
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, receiver.url(), ["game.completed"])
    with on_commit(execute=True):
        answer = client_for(setup.organiser).post(f"/api/webhooks/{endpoint.pk}/ping/")
    assert answer.status_code == 202
    assert answer.json()["event"] == "ping"
    assert WebhookDelivery.objects.get().status == "delivered"
    assert len(receiver.got) == 1


def test_the_schema_documents_the_webhooks(client: Client) -> None:
    schema = yaml.safe_load(client.get("/api/schema/").content)
    paths = schema["paths"]
    assert set(paths["/api/webhooks/"]) >= {"get", "post"}
    assert set(paths["/api/webhooks/{id}/"]) >= {"get", "patch", "delete"}
    assert "/api/webhooks/{id}/deliveries/" in paths
    assert "/api/webhooks/{id}/ping/" in paths
    created = paths["/api/webhooks/"]["post"]["responses"]["201"]["content"]["application/json"]
    assert created["schema"]["$ref"].endswith("/WebhookEndpointCreatedOutput")
    shown = schema["components"]["schemas"]["WebhookEndpointOutput"]["properties"]
    assert "secret" not in shown


def test_the_delivery_modules_examples_hold() -> None:
    """The doctests of league/webhook_delivery.py (the signature, the addresses refused)."""
    failed, tried = doctest.testmod(webhooks, raise_on_error=False)
    assert (failed, tried > 0) == (0, True)


# -- at once (PostgreSQL) --------------------------------------------------------------------

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="concurrent transactions need PostgreSQL"
)


def in_threads(*work: Callable[[], Any]) -> list[Any]:
    """Run each in its own thread and connection; their results (errors re-raised here)."""
    results: list[Any] = [None] * len(work)
    errors: list[BaseException] = []

    def run(index: int, job: Callable[[], Any]) -> None:
        try:
            results[index] = job()
        except BaseException as error:  # reported in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(work)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors
    return results


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_an_endpoint_deleted_while_a_change_emits_waits_for_it(private_ok: None) -> None:
    """Without the emit's lock the delete would miss the new delivery, and one of the two
    transactions would fail on the delivery's foreign key when it commits."""
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, "http://127.0.0.1:9/", ["game.completed"])
    emitted = threading.Event()

    def change() -> None:
        with transaction.atomic():
            webhooks_emit(club=setup.club.pk, event="game.completed", payload={})
            emitted.set()
            time.sleep(0.5)  # the rest of the change

    def delete() -> float:
        assert emitted.wait(10)
        started = time.monotonic()
        webhook_endpoint_delete(endpoint=endpoint)
        return time.monotonic() - started

    _, waited = in_threads(change, delete)
    assert waited > 0.3
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()
    assert not JobOwed.objects.filter(kind=JobOwed.Kind.WEBHOOK).exists()


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_a_delivery_run_twice_at_once_is_sent_once(private_ok: None, receiver: Receiver) -> None:
    receiver.delay = 0.3  # the first run is still waiting for its answer when the second claims
    setup = club_setup()
    endpoint, _ = endpoint_for(setup, receiver.url(), ["game.completed"])
    # made directly: an emit's commit would send it at once, here (no broker)
    delivery = WebhookDelivery.objects.create(
        endpoint=endpoint,
        event_id=uuid.uuid4(),
        event="game.completed",
        payload={},
        next_attempt_at=timezone.now(),
    )

    outcomes = in_threads(
        lambda: webhooks.deliver(delivery.pk), lambda: webhooks.deliver(delivery.pk)
    )

    assert sorted(outcomes) in (["delivered", "not-due"], ["delivered", "done"])
    assert len(receiver.got) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("delivered", 1)
