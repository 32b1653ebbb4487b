"""The API's token authentication: ``Authorization: Token <key>`` for users,
``Authorization: Table <secret>`` for a table's link.

The header is DRF's (the keyword ``Token``, answered with
``WWW-Authenticate: Token`` when a request lacks it), the keys are
:class:`league.models.ApiToken`: the key's SHA-256 digest is looked up, so a
key is never stored, and a revoked key (its row deleted) no longer matches.
A key past its ``expires_at`` (``API_TOKEN_MAX_AGE`` after it was made) is
refused like a wrong one, saying so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NoReturn

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    TokenAuthentication,
    get_authorization_header,
)
from rest_framework.request import Request

from league import access, ratelimits
from league.errors import NotFound
from league.models import ApiToken, TableLink
from league.services.accounts import api_token_mark_used, token_digest
from league.statements import JoinedRead

if TYPE_CHECKING:
    # DRF loads this module from its settings, as its views are made: nothing that
    # imports them may be imported here
    from drf_spectacular.openapi import AutoSchema

TOKEN_AND_USER: Final = JoinedRead(model=ApiToken, related=("user",), where="base.digest = %s")
"""A token by its key's digest, with its user: read on every API request with
a token, in one statement made once."""


class ApiTokenAuthentication(TokenAuthentication):
    """Authenticate by an :class:`ApiToken`'s key: one query to find it (with
    its user), and at most one write a minute to note when it was last used."""

    keyword = "Token"
    model = ApiToken

    def authenticate_credentials(self, key: str) -> tuple[AbstractBaseUser, ApiToken]:
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


class TableLinkAuthentication(BaseAuthentication):
    """Authenticate by a table link's secret: ``Authorization: Table <secret>``.

    The request stays anonymous (``request.user``), with the link as
    ``request.auth``: what the link may do is the table view set's to allow
    (:class:`league.api.permissions.TableLinkOrAuthenticatedOrReadOnly`); to
    every other endpoint it is a stranger's request. A made-up, revoked,
    replaced or expired secret is answered 401 alike. Rate-limited
    (:mod:`league.ratelimits`): 429 past a link's requests a minute, or past
    an address's refused links a minute."""

    keyword = "Table"

    def authenticate(self, request: Request) -> tuple[AnonymousUser, TableLink] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != self.keyword.lower().encode():
            return None
        if ratelimits.refused_over_limit(request, count=False):
            raise exceptions.Throttled(detail=_("Too many table links that do not work from here."))
        if len(words) != 2:
            self._refused(request)
        try:
            link = access.access_table_link(words[1].decode("ascii"))
        except (UnicodeDecodeError, NotFound):
            self._refused(request)
        if ratelimits.link_over_limit(request, link.pk):
            raise exceptions.Throttled(detail=_("This table link has made too many requests."))
        return (AnonymousUser(), link)

    def _refused(self, request: Request) -> NoReturn:
        ratelimits.refused_over_limit(request, count=True)
        raise exceptions.AuthenticationFailed(
            "This table link no longer works: ask the organiser for a new one."
        )

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


class TableLinkScheme(OpenApiAuthenticationExtension):
    """The schema's word on ``Authorization: Table <secret>``."""

    target_class = TableLinkAuthentication
    name = "tableLink"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Table <secret>: a table's link, for its score sheet, its hands, "
            "their corrections and the game's confirmation (docs/api.md)",
        }
