"""The organisers' webhooks page: a club's endpoints, their recent deliveries,
and a form to add one.

Adding an endpoint answers the POST with the page itself, its secret shown
once at the top (it is never shown again, so there is no page to send the
browser on to). Turning an endpoint off or on, sending it a test ping and
deleting it are small POST forms by each endpoint, sent on (POST/redirect/GET)
with a short confirmation. An endpoint the league disabled says why.

Only the club's organisers may open the page (:func:`league.web.access.club_page_refusal`);
the writes go through :mod:`league.services.webhook_endpoints`, the reads run a fixed
number of queries, whatever the number of endpoints and deliveries.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from django import forms
from django.contrib import messages
from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from league import webhook_delivery
from league.errors import ServiceError
from league.models import Club, WebhookDelivery, WebhookEndpoint
from league.services import webhook_endpoints
from league.web.access import club_page_refusal
from league.web.form_summary import summary_of
from league.web.organise_forms import SetupForm
from league.webhook_events import SUBSCRIBABLE

DELIVERIES_SHOWN: Final = 5
"""How many of each endpoint's latest deliveries the page lists."""


class WebhookForm(SetupForm):
    """A new endpoint: its URL and the events it is sent."""

    url = forms.CharField(
        max_length=500,
        strip=False,  # a line break around the URL is refused by the service, not dropped
        label=gettext_lazy("URL"),
        help_text=gettext_lazy(
            "Where the league sends the events, for instance "
            "https://example.org/league-hook. It must be reachable from the internet."
        ),
        error_messages={"required": gettext_lazy("Enter the URL to send the events to.")},
        widget=forms.URLInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    events = forms.MultipleChoiceField(
        choices=[(event.value, event.label) for event in SUBSCRIBABLE],
        label=pgettext_lazy("what a webhook is sent", "Events"),
        initial=[event.value for event in SUBSCRIBABLE],
        widget=forms.CheckboxSelectMultiple,
        error_messages={
            "required": gettext_lazy("Choose at least one event."),
            "invalid_choice": gettext_lazy("Choose events from the list."),
        },
    )


@dataclass(frozen=True)
class EndpointRow:
    """An endpoint on the page, with its latest deliveries, newest first."""

    endpoint: WebhookEndpoint
    deliveries: list[WebhookDelivery]
    event_labels: list[str]


def club_endpoints(*, club: Club) -> list[EndpointRow]:
    """The club's endpoints, oldest first, each with up to
    :data:`DELIVERIES_SHOWN` deliveries (two queries)."""
    endpoints = list(WebhookEndpoint.objects.filter(club=club).order_by("id"))
    latest = (
        WebhookDelivery.objects.filter(endpoint__club=club)
        .annotate(
            position=Window(RowNumber(), partition_by=[F("endpoint_id")], order_by=F("id").desc())
        )
        .filter(position__lte=DELIVERIES_SHOWN)
        .order_by("endpoint_id", "-id")
        .defer("payload")
    )
    shown: dict[int, list[WebhookDelivery]] = {}
    for item in latest:
        shown.setdefault(item.endpoint_id, []).append(item)
    labels = dict(WebhookForm.base_fields["events"].choices)  # type: ignore[attr-defined]
    return [
        EndpointRow(
            endpoint=endpoint,
            deliveries=shown.get(endpoint.pk, []),
            event_labels=[str(labels.get(event, event)) for event in endpoint.events],
        )
        for endpoint in endpoints
    ]


@require_http_methods(["GET", "HEAD", "POST"])
def club_webhooks(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's endpoints and their recent deliveries; the form adds one
    (answered with this page and the new secret, once)."""
    club = get_object_or_404(Club, pk=club_id)
    if refusal := club_page_refusal(request, club):
        return refusal
    form = WebhookForm(request.POST if request.method == "POST" else None)
    new = None
    if form.is_bound and form.is_valid():
        try:
            new = webhook_endpoints.webhook_endpoint_create(
                club=club,
                url=form.cleaned_data["url"],
                events=form.cleaned_data["events"],
                by=request.user,
            )
        except ServiceError as error:
            form.add_service_error(error)
        else:
            form = WebhookForm()
    summary = summary_of(form)
    shown: dict[str, object] = {
        "club": club,
        "form": form,
        "summary": summary,
        "new": new,
        "endpoints": club_endpoints(club=club),
        "deliveries_shown": DELIVERIES_SHOWN,
        "disable_after": webhook_delivery.DISABLE_AFTER,
        "max_attempts": webhook_delivery.MAX_ATTEMPTS,
    }
    if new is None:
        return render(request, "league/organise/webhooks.html", shown)
    response = render(request, "league/organise/webhooks.html", shown, status=201)
    response["Cache-Control"] = "no-store"  # the secret stays out of caches
    return response


def endpoint_action(
    act: Callable[[HttpRequest, WebhookEndpoint], None],
) -> Callable[[HttpRequest, int], HttpResponse]:
    """A small POST form by an endpoint, as a view: the endpoint fetched for
    one of its club's organisers (anyone else gets the page's refusal), then
    ``act`` (which says what it did as a message), then the browser sent back
    to the club's webhooks page."""

    @require_POST
    @functools.wraps(act)
    def view(request: HttpRequest, endpoint_id: int) -> HttpResponse:
        endpoint = get_object_or_404(WebhookEndpoint.objects.select_related("club"), pk=endpoint_id)
        if refusal := club_page_refusal(request, endpoint.club):
            return refusal
        act(request, endpoint)
        return redirect("club-webhooks", club_id=endpoint.club_id)

    return view


@endpoint_action
def webhook_switch(request: HttpRequest, endpoint: WebhookEndpoint) -> None:
    """Turn an endpoint off, or on again (clearing why it was disabled)."""
    turn_on = request.POST.get("active") == "on"
    webhook_endpoints.webhook_endpoint_update(endpoint=endpoint, active=turn_on)
    done = (
        _("The endpoint %(url)s is on: events are sent to it again.")
        if turn_on
        else _("The endpoint %(url)s is off: nothing is sent to it.")
    )
    messages.success(request, done % {"url": endpoint.url})


@endpoint_action
def webhook_ping(request: HttpRequest, endpoint: WebhookEndpoint) -> None:
    """Send an endpoint a test ping; its delivery shows in the list."""
    try:
        webhook_endpoints.webhook_ping(endpoint=endpoint)
    except ServiceError as error:
        messages.error(request, _("No ping was sent: %(why)s.") % {"why": error.message})
    else:
        messages.success(
            request, _("A test ping is on its way to %(url)s.") % {"url": endpoint.url}
        )


@endpoint_action
def webhook_delete(request: HttpRequest, endpoint: WebhookEndpoint) -> None:
    """Delete an endpoint and its deliveries."""
    webhook_endpoints.webhook_endpoint_delete(endpoint=endpoint)
    messages.success(request, _("The endpoint %(url)s is deleted.") % {"url": endpoint.url})


urlpatterns: list[URLPattern] = [
    path("clubs/<int:club_id>/webhooks/", club_webhooks, name="club-webhooks"),
    path("webhooks/<int:endpoint_id>/switch/", webhook_switch, name="webhook-switch"),
    path("webhooks/<int:endpoint_id>/ping/", webhook_ping, name="webhook-ping"),
    path("webhooks/<int:endpoint_id>/delete/", webhook_delete, name="webhook-delete"),
]
