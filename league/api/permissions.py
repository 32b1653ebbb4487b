"""What a request may do before its view's own access check: the API's
default (reads for anyone, writes for a signed-in user), and a table link's
few writes on its table's view set."""

from __future__ import annotations

from typing import Final

from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly
from rest_framework.request import Request
from rest_framework.views import APIView

from league.models import TableLink

LINK_WRITES: Final = frozenset({("hands", "POST"), ("hand", "PUT"), ("confirmation", "POST")})
"""A table link's writes: enter the next hand, correct one, confirm or dispute
the game (each on the link's own table: the view checks which)."""


class TableLinkOrAuthenticatedOrReadOnly(IsAuthenticatedOrReadOnly):
    """Reads for anyone; a table link's request (``Authorization: Table``) the
    writes of :data:`LINK_WRITES`; any other write a signed-in user's. A link's
    request for any other write is refused (403), as a stranger's is."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if isinstance(request.auth, TableLink):
            # a view set's action: the table view set is the one view a link's request passes
            action = view.action  # type: ignore[attr-defined]
            return request.method in SAFE_METHODS or (action, request.method) in LINK_WRITES
        return bool(super().has_permission(request, view))
