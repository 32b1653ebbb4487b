"""A login's own choice of language (docs/translating.md): set from its account
page or the language switch, cleared by choosing none."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext

from league.errors import ServiceError
from league.models import LoginLanguage
from league.users import Login


def login_language_set(user: Login, language: str) -> None:
    """``user``'s pages and mails in ``language`` (a code of ``LANGUAGES``), or, for
    ``""``, in whatever the switch, the browser or the club says."""
    if not language:
        LoginLanguage.objects.filter(user=user).delete()
        return
    if language not in {code for code, _name in settings.LANGUAGES}:
        raise ServiceError(
            gettext("no such language: %(language)s") % {"language": language},
            field="language",
            code="language",
        )
    LoginLanguage.objects.update_or_create(user=user, defaults={"language": language})


def login_language(user: Login) -> str:
    """``user``'s own choice of language, or ``""`` for none (one query)."""
    found = LoginLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    return found or ""
