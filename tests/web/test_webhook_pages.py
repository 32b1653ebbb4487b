"""The organisers' webhooks page: adding an endpoint (its secret shown once), the
endpoints with their state and latest deliveries, a disabled endpoint's reason,
turning one off and on, a test ping, deleting; who may open it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league import webhook_delivery as delivery
from league.models import WebhookDelivery, WebhookEndpoint
from league.services.webhook_endpoints import webhook_endpoint_create
from league.web.organise_webhooks import DELIVERIES_SHOWN
from league.webhook_events import webhooks_emit
from tests.support.markup import assert_tied, error_of, text
from tests.support.organise import VISITORS, assert_refused, manage_url
from tests.support.setups import ClubSetup, club_setup
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db

EVENTS = ["game.completed", "result.corrected", "standings.updated", "round.seated"]


@pytest.fixture
def private_ok(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True


def page_url(setup: ClubSetup) -> str:
    return reverse("club-webhooks", kwargs={"club_id": setup.club.pk})


def endpoint_of(setup: ClubSetup, url: str = "http://127.0.0.1:9/in") -> WebhookEndpoint:
    return webhook_endpoint_create(club=setup.club, url=url, events=EVENTS).endpoint


def test_the_hub_links_to_the_page() -> None:
    setup = club_setup()
    hub = signed_in(setup.organiser).get(manage_url(setup.club))
    assert f'href="{page_url(setup)}"' in text(hub)


def test_adding_an_endpoint_shows_its_secret_once(private_ok: None) -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    answer = client.post(
        page_url(setup), {"url": "http://127.0.0.1:9/in", "events": ["game.completed"]}
    )
    assert answer.status_code == 201
    assert answer["Cache-Control"] == "no-store"
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.events == ["game.completed"]
    assert f'<code class="secret" id="new-secret">{endpoint.secret}</code>' in text(answer)
    assert "it will not be shown again" in text(answer)

    again = client.get(page_url(setup))
    assert again.status_code == 200
    assert endpoint.secret not in text(again)
    assert "http://127.0.0.1:9/in" in text(again)


def test_a_refused_url_is_shown_by_its_field(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = False
    setup = club_setup()
    client = signed_in(setup.organiser)
    answer = client.post(page_url(setup), {"url": "http://10.0.0.1/", "events": EVENTS})
    assert answer.status_code == 200
    assert "loopback or private address" in error_of(answer, "id_url")
    assert_tied(answer, "url", "id_url_error")
    assert not WebhookEndpoint.objects.exists()
    broken = client.post(
        page_url(setup), {"url": "https://hooks.example.org/in\r\n", "events": EVENTS}
    )
    assert "no line breaks" in error_of(broken, "id_url")  # refused, not stored stripped
    assert not WebhookEndpoint.objects.exists()
    empty = client.post(page_url(setup), {"url": "", "events": []})
    assert "Enter the URL" in error_of(empty, "id_url")
    assert "Choose at least one event" in text(empty)


def test_the_page_lists_the_latest_deliveries_and_a_disabled_endpoints_reason(
    private_ok: None,
) -> None:
    setup = club_setup()
    endpoint = endpoint_of(setup)
    for n in range(DELIVERIES_SHOWN + 2):
        with transaction.atomic():
            webhooks_emit(club=setup.club, event="game.completed", payload={"n": n})
    WebhookDelivery.objects.filter(pk=WebhookDelivery.objects.latest("id").pk).update(
        status="failed", next_attempt_at=None, attempts=6, last_status_code=500,
        last_error="HTTP 500 Internal Server Error",
    )  # fmt: skip
    reason = "15 delivery attempts in a row failed; the last: HTTP 500 Internal Server Error"
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        active=False, disabled_at=timezone.now(), disabled_reason=reason
    )
    page = text(signed_in(setup.organiser).get(page_url(setup)))
    assert page.count('<span class="badge pending">') == DELIVERIES_SHOWN - 1
    assert page.count('<span class="badge failed">') == 1
    assert "HTTP 500 Internal Server Error" in page
    assert '<span class="badge disabled">Disabled</span>' in page
    assert reason in page
    assert "Turn on" in page and "Send a test ping" not in page


def test_turning_an_endpoint_off_and_on(private_ok: None) -> None:
    setup = club_setup()
    endpoint = endpoint_of(setup)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(consecutive_failures=4)
    client = signed_in(setup.organiser)
    switch = reverse("webhook-switch", kwargs={"endpoint_id": endpoint.pk})
    off = client.post(switch)
    assert off.status_code == 302 and off["Location"] == page_url(setup)
    endpoint.refresh_from_db()
    assert not endpoint.active and endpoint.disabled_at is None
    assert "is off" in text(client.get(page_url(setup)))
    client.post(switch, {"active": "on"})
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0


def test_a_test_ping_and_deleting(
    private_ok: None, django_capture_on_commit_callbacks: Any
) -> None:
    setup = club_setup()
    endpoint = endpoint_of(setup)
    client = signed_in(setup.organiser)
    with django_capture_on_commit_callbacks(execute=False):
        ping = client.post(reverse("webhook-ping", kwargs={"endpoint_id": endpoint.pk}))
    assert ping.status_code == 302
    assert WebhookDelivery.objects.get().event == "ping"
    assert "A test ping is on its way" in text(client.get(page_url(setup)))
    deleted = client.post(reverse("webhook-delete", kwargs={"endpoint_id": endpoint.pk}))
    assert deleted.status_code == 302
    assert not WebhookEndpoint.objects.exists() and not WebhookDelivery.objects.exists()


@pytest.mark.parametrize("visitor", list(VISITORS))
def test_only_organisers_open_the_page_or_change_an_endpoint(
    private_ok: None, visitor: str
) -> None:
    setup = club_setup()
    endpoint = endpoint_of(setup)
    client: Client = VISITORS[visitor](setup)
    url = page_url(setup)
    assert_refused(client.get(url), visitor, url)
    assert_refused(
        client.post(url, {"url": "http://127.0.0.1:9/x", "events": EVENTS}), visitor, url
    )
    for name in ("webhook-switch", "webhook-ping", "webhook-delete"):
        action = reverse(name, kwargs={"endpoint_id": endpoint.pk})
        assert_refused(client.post(action), visitor, action)
    assert list(WebhookEndpoint.objects.values_list("pk", "active")) == [(endpoint.pk, True)]
    assert not WebhookDelivery.objects.exists()


def test_the_page_takes_the_same_queries_for_more_endpoints(private_ok: None) -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    counts = []
    for n in range(3):
        endpoint_of(setup, f"http://127.0.0.1:9/{n}")
        with transaction.atomic():
            webhooks_emit(club=setup.club, event="round.seated", payload={})
        with CaptureQueriesContext(connection) as captured:
            assert client.get(page_url(setup)).status_code == 200
        counts.append(len(captured.captured_queries))
    assert len(set(counts)) == 1, counts


def test_the_page_says_when_an_endpoint_is_disabled() -> None:
    """The number of failures that disables an endpoint is the page's, and the docs'."""
    setup = club_setup()
    WebhookEndpoint.objects.create(
        club=setup.club, url="https://a.example/", secret="s", consecutive_failures=2
    )
    page = text(signed_in(setup.organiser).get(page_url(setup)))
    assert re.search(rf"after {delivery.DISABLE_AFTER} the league disables", page)
