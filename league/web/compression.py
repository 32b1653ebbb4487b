"""Compressed answers, except those that may carry a secret.

Pages and API answers are gzip-compressed for clients that accept it
(Django's :class:`~django.middleware.gzip.GZipMiddleware`): a league page of
a big club is a tenth of its size on the wire.

Compression and secrets (BREACH): an answer that holds a secret and also
echoes what the request sent lets someone who can make a victim's browser
send requests, and can see the sizes of the encrypted answers, guess the
secret a character at a time from how well each answer compresses. Django
masks the CSRF token afresh in every answer, so the token in forms gives
nothing away. The site's other secrets are shown once: an API key in the
answer to the POST that makes it, an invitation's one-time set-password link
in the answer to the POST that invites; the pages that show them, and
Django's own password pages, are ``never_cache``, which sends
``Cache-Control: no-store``. Answers that say ``no-store`` are therefore
sent uncompressed: a page that starts showing a secret must say so too
(``never_cache``), which it should anyway.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.middleware.gzip import GZipMiddleware


def may_hold_a_secret(response: HttpResponseBase) -> bool:
    """Whether the answer says ``Cache-Control: no-store`` (in any case,
    among other directives)."""
    directives = response.get("Cache-Control", "").split(",")
    return any(directive.split("=", 1)[0].strip().lower() == "no-store" for directive in directives)


class GZipUnlessNoStoreMiddleware(GZipMiddleware):
    """Django's gzip middleware, which leaves alone the answers that may hold a
    secret (:func:`may_hold_a_secret`)."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if may_hold_a_secret(response):
            return response
        return super().process_response(request, response)
