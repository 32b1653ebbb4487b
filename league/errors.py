"""The errors the league's services and access helpers raise.

They carry data, not sentences to parse: ``message`` is for people,
``field`` names the input at fault. The API answers them as problem+json
(:mod:`league.api.problems`), the pages as a message by the field. The
engine's own refusals are :class:`games.RecordError`, raised through
unchanged.

This module is pure, so its default messages are English: the services and
access helpers pass ``message`` worded in the request's language
(``gettext``, looked up when the error is raised), and the pure modules raise
errors carrying a code and facts for the layer above to word
(:class:`league.season.SeasonRefused`, :func:`league.names.name_fault`).

=============================  ======  ===================================
error                          status  meaning
=============================  ======  ===================================
:class:`ServiceError`          400     the input is wrong in itself
:class:`Conflict`              409     the input clashes with what exists
:class:`PreconditionFailed`    412     the client's table version is stale
:class:`NotFound`              404     missing, or not the caller's to see
:class:`Forbidden`             403     a member without the role needed
=============================  ======  ===================================
"""

from __future__ import annotations


class ServiceError(Exception):
    """A request the league refuses; ``field`` names the input at fault and
    ``code``, where given, which rule refused it (for clients and pages to
    tell refusals apart without reading ``message``)."""

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class Conflict(ServiceError):
    """The request clashes with the current state: a name or number taken,
    a hand already stored, seats changed after play (answered 409)."""


class PreconditionFailed(ServiceError):
    """The client's version of the table is stale (answered 412)."""


class NotFound(ServiceError):
    """No such object, or one the caller may not write: both are answered
    alike (404), so that writes reveal nothing to strangers."""

    def __init__(self, message: str = "not found") -> None:
        super().__init__(message)


class Forbidden(ServiceError):
    """The caller belongs to the club but lacks the role (answered 403);
    ``roles`` are the roles that would do."""

    def __init__(self, *, roles: tuple[str, ...], message: str | None = None) -> None:
        super().__init__(message or f"this needs the {' or '.join(roles)} role in the club")
        self.roles = roles
