"""Lists are paginated by cursor, in id order.

A cursor is the client's to send back as it was given, but nothing stops a
client from crafting one: DRF decodes it and filters by the position inside
it as it stands, so ``p=abc`` reached the database as ``id > 'abc'`` (a
500). A cursor that is not one of ours is refused here (400) before any
query is made.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request

from league.api.problems import InvalidField

ID_LIMIT = 2**63 - 1
"""Ids fit a 64-bit column on every database."""

INVALID_CURSOR = "not a cursor of this list: follow the next and previous links as they are"


class IdOrder(CursorPagination):
    """Pages of up to ``page_size`` (50, at most 200) by id."""

    ordering = "id"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def decode_cursor(self, request: Request) -> Cursor | None:
        """The cursor sent, or ``None``; 400 (``cursor``) for one this API
        cannot have given: not base64 of its fields, or a position that is
        not an id."""
        try:
            cursor: Any = super().decode_cursor(request)
        except NotFound:
            raise InvalidField(self.cursor_query_param, INVALID_CURSOR) from None
        if cursor is None or cursor.position is None:
            return cursor
        try:
            position = int(cursor.position)
        except ValueError:
            raise InvalidField(self.cursor_query_param, INVALID_CURSOR) from None
        if not -ID_LIMIT <= position <= ID_LIMIT:
            raise InvalidField(self.cursor_query_param, INVALID_CURSOR)
        return Cursor(offset=cursor.offset, reverse=cursor.reverse, position=position)
