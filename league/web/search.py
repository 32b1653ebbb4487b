"""A page's search box (``?q=``): what the search asks for, or why it is refused.

Every page that finds players by name reads its ``q`` here: the full standings and
leaderboard (:mod:`league.web.lists`), a club's players (:mod:`league.web.organise`)
and the Tonight page's attendance (:mod:`league.web.tonight`). A search is text
matched against names in the database (``icontains``); PostgreSQL refuses a NUL
character in text, and no name holds one, so a search that has one is refused with
a message by the box and the page lists everyone, answered 400, instead of failing
in the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from django.http import HttpRequest
from django.utils.translation import gettext_lazy

NUL_REFUSED: Final = gettext_lazy(
    # Translators: %00 is how the character is written in an address: keep it as it is
    "A search cannot hold a null character (%00): no name has one."
)
"""What the page says by the search box for a search with a NUL."""


@dataclass(frozen=True)
class Search:
    """A page's search: ``text`` to find in names (empty: everyone) and, when
    the search given is refused, ``error`` saying why (``text`` is then empty)."""

    text: str
    error: str = ""

    @property
    def status(self) -> int:
        """The page's status: 400 when the search is refused, 200 otherwise."""
        return 400 if self.error else 200


def search_of(request: HttpRequest, *, clean: Callable[[str], str] = str.strip) -> Search:
    """The request's ``q``, made ready by ``clean`` (by default, spaces
    around it dropped); refused when it holds a NUL character::

        >>> from django.test import RequestFactory
        >>> search_of(RequestFactory().get("/", {"q": " Cora "}))
        Search(text='Cora', error='')
        >>> search_of(RequestFactory().get("/?q=Co%00ra")).status
        400
    """
    given = request.GET.get("q", "")
    if "\x00" in given:
        return Search(text="", error=str(NUL_REFUSED))  # in the request's language
    return Search(text=clean(given))
