"""Template tags of the import page: an import's state in lower case, as a
sentence names it, in the page's language."""

from __future__ import annotations

from django import template

from league.web import organise_imports

register = template.Library()


@register.filter
def import_state_words(state: str) -> str:
    """A background import's state, in lower case, in the page's language."""
    return organise_imports.state_words(state)
