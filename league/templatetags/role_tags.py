"""Template tags of the account pages: a club role in the page's language."""

from __future__ import annotations

from django import template

from league.web.role_words import role_words

register = template.Library()


@register.filter(name="role_words")
def role_words_filter(role: str) -> str:
    """A role's value in words, lower case ("organiser"), as
    :func:`league.web.role_words.role_words` says it."""
    return role_words(role)
