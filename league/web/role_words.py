"""A club role in the page's language, as a sentence names it ("organiser",
"scorekeeper"): the model's labels are English, capitalised for the API."""

from __future__ import annotations

from django.utils.translation import pgettext

from league.models import Membership


def role_words(role: str) -> str:
    """``role`` (a :class:`~league.models.Membership.Role` value) in lower case, as
    "invites you to be its organiser" names it."""
    if role == Membership.Role.ORGANISER:
        return pgettext("club role, in a sentence", "organiser")
    if role == Membership.Role.SCOREKEEPER:
        return pgettext("club role, in a sentence", "scorekeeper")
    return role
