"""Template tags of the webhooks and import pages: a delivery's event and
status, an import's state, in the page's language (the model's labels are
English, for the API)."""

from __future__ import annotations

from django import template

from league.web import organise_imports, organise_webhooks

register = template.Library()


@register.filter
def event_words(event: str) -> str:
    return organise_webhooks.event_words(event)


@register.filter
def status_words(status: str) -> str:
    return organise_webhooks.status_words(status)


@register.filter
def import_state_words(state: str) -> str:
    """A background import's state, in lower case, in the page's language."""
    return organise_imports.state_words(state)
