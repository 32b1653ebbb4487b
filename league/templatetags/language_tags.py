"""The language switch's names: each language in its own name, whatever the page's."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def languages_in_own_names() -> list[tuple[str, str]]:
    """``settings.LANGUAGES`` as written there ("English", "Українська", "Čeština"):
    Django's ``get_available_languages`` translates the names into the page's
    language, and a reader who cannot read the page must still find their own."""
    return [(code, str(name)) for code, name in settings.LANGUAGES]
