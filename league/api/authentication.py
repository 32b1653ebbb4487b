"""The API's token authentication: ``Authorization: Token <key>``.

The header is DRF's (the keyword ``Token``, answered with
``WWW-Authenticate: Token`` when a request lacks it), the keys are
:class:`league.models.ApiToken`: the key's SHA-256 digest is looked up, so a
key is never stored, and a revoked key (its row deleted) no longer matches.
A key past its ``expires_at`` (``API_TOKEN_MAX_AGE`` after it was made) is
refused like a wrong one, saying so.
"""

from __future__ import annotations

from typing import Any, Final

from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from league.models import ApiToken
from league.services.accounts import api_token_mark_used, token_digest
from league.statements import JoinedRead

TOKEN_AND_USER: Final = JoinedRead(model=ApiToken, related=("user",), where="base.digest = %s")
"""A token by its key's digest, with its user: read on every API request with
a token, in one statement made once."""


class ApiTokenAuthentication(TokenAuthentication):
    """Authenticate by an :class:`ApiToken`'s key: one query to find it (with
    its user), and at most one write a minute to note when it was last used."""

    keyword = "Token"
    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = TOKEN_AND_USER.get(token_digest(key))
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        if token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed(
                "This token has expired: make a new one on your account's API tokens page."
            )
        api_token_mark_used(token=token)
        return (token.user, token)
