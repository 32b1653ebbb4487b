"""Lists are paginated by cursor: in id order, and ranked lists in rank order.

A cursor is the client's to send back as it was given, but nothing stops a
client from crafting one: DRF decodes it and filters by the position inside
it as it stands, so ``p=abc`` reached the database as ``id > 'abc'`` (a
500). A cursor that is not one of ours is refused here (400) before any
query is made.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from django.db.models import Model, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.utils.urls import replace_query_param

from league.api.problems import InvalidField

ID_LIMIT = 2**63 - 1
"""Ids fit a 64-bit column on every database."""

# marked for the catalogue; worded in the request's language where raised
INVALID_CURSOR = gettext_noop(
    "not a cursor of this list: follow the next and previous links as they are"
)


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
            # DRF's position is the text the cursor held, whatever its stub says
            cursor = super().decode_cursor(request)
        except NotFound:
            raise InvalidField(self.cursor_query_param, _(INVALID_CURSOR)) from None
        if cursor is None or cursor.position is None:
            return cursor
        try:
            position = int(cursor.position)
        except ValueError:
            raise InvalidField(self.cursor_query_param, _(INVALID_CURSOR)) from None
        if not -ID_LIMIT <= position <= ID_LIMIT:
            raise InvalidField(self.cursor_query_param, _(INVALID_CURSOR))
        return Cursor(offset=cursor.offset, reverse=cursor.reverse, position=position)


PLAYER_LOOKUP_LIMIT = 200
"""Players one ``player=`` lookup may name (a page's most rows)."""


@dataclass(frozen=True)
class RankCursor:
    """A position in a ranked list: the rows after (or, ``before``, ahead of)
    the row of ``rank`` and ``player``."""

    rank: int
    player: int
    before: bool = False

    def encode(self) -> str:
        text = f"{'b' if self.before else 'a'}:{self.rank}:{self.player}"
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, token: str) -> RankCursor:
        """The cursor ``token`` encodes; :class:`InvalidField` (``cursor``)
        for one :meth:`encode` cannot have given."""
        try:
            text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("ascii")
        except (ValueError, UnicodeDecodeError):
            raise InvalidField("cursor", _(INVALID_CURSOR)) from None
        found = _CURSOR_TEXT.fullmatch(text)
        if found is None or not all(1 <= int(part) <= ID_LIMIT for part in found.group(2, 3)):
            raise InvalidField("cursor", _(INVALID_CURSOR))
        return cls(rank=int(found[2]), player=int(found[3]), before=found[1] == "b")


_CURSOR_TEXT = re.compile(r"([ab]):([0-9]{1,19}):([0-9]{1,19})")


RankedRow = Model | Mapping[str, Any]
"""A row of a ranked list: a model instance with ``rank`` and ``player_id``
(stored, or annotated), or a mapping with those keys among the row's values."""

Row = TypeVar("Row", covariant=True)
RowModel = TypeVar("RowModel", bound=Model)
RowMapping = TypeVar("RowMapping", bound=Mapping[str, Any])

RankedRows = QuerySet[Model] | Sequence[Mapping[str, Any]]
"""A ranked list: a query set of rows, or the rows as mappings."""


@dataclass(frozen=True)
class RankedPage(Generic[Row]):
    """A page of a ranked list, best first, and the links to its neighbours
    (``None`` where there is none; a lookup of players is one page)."""

    rows: Sequence[Row]
    next: str | None
    previous: str | None


class RankOrder:
    """Pages of a ranked list (standings, a rating leaderboard) in rank order:
    up to ``page_size`` rows (50, at most 200), by a cursor over the last row's
    rank and player id, so a page costs what it shows whatever its depth (no
    offset). ``player=`` (repeated, or ids joined by commas) asks for those
    players' rows alone, with their ranks in the whole list.

    The rows come as a query set whose rows have ``rank`` and ``player_id``
    (stored, or annotated), or as a list of mappings with those keys, best
    first. Where ranks may tie, the player id orders the tied rows; a list
    whose ranks are unique by construction (a window's row numbers, which a
    query cannot compare together with a column in one disjunction) says so
    with ``ranks_unique``; and where a filter on ``player_id`` would not keep
    the ranks of the whole list (a window's), ``player_field`` names the field
    that does."""

    page_size = 50
    max_page_size = 200
    cursor_query_param = "cursor"
    page_size_query_param = "page_size"
    player_query_param = "player"

    @overload
    def paginate(
        self,
        rows: QuerySet[RowModel],
        request: Request,
        *,
        ranks_unique: bool = False,
        player_field: str = "player_id",
    ) -> RankedPage[RowModel]: ...

    @overload
    def paginate(
        self,
        rows: Sequence[RowMapping],
        request: Request,
        *,
        ranks_unique: bool = False,
        player_field: str = "player_id",
    ) -> RankedPage[RowMapping]: ...

    def paginate(
        self,
        rows: RankedRows,
        request: Request,
        *,
        ranks_unique: bool = False,
        player_field: str = "player_id",
    ) -> RankedPage[RankedRow]:
        """The page of ``rows`` the request asks for (400 problems for a bad
        ``cursor``, ``player`` or the two together)."""
        params = request.query_params
        players = self.players_wanted(request)
        token = params.get(self.cursor_query_param)
        if players is not None:
            if token is not None:
                raise InvalidField(self.player_query_param, _("a lookup of players has no pages"))
            found = self._of_players(rows, players, player_field)
            return RankedPage(found, next=None, previous=None)
        size = self.page_size_of(request)
        cursor = RankCursor.decode(token) if token is not None else None
        if isinstance(rows, QuerySet):
            rows = rows.order_by("rank") if ranks_unique else rows.order_by("rank", "player_id")
        if cursor is None or not cursor.before:
            got = self._after(rows, cursor, size + 1, ranks_unique)
            more, got = len(got) > size, got[:size]
            behind = cursor is not None and bool(got)
            ahead = more
        else:
            got = self._ahead(rows, cursor, size + 1, ranks_unique)
            behind, got = len(got) > size, got[:size][::-1]
            ahead = bool(got)
        return RankedPage(
            got,
            next=self._link(request, got[-1], before=False) if ahead else None,
            previous=self._link(request, got[0], before=True) if behind else None,
        )

    def players_wanted(self, request: Request) -> list[int] | None:
        """The ids of ``player=``, ``None`` without it; 400 when one is not an id."""
        values = request.query_params.getlist(self.player_query_param)
        if not values:
            return None
        ids = [part.strip() for value in values for part in value.split(",")]
        if not all(part.isascii() and part.isdigit() and len(part) <= 19 for part in ids):
            raise InvalidField(self.player_query_param, _("player ids are whole numbers"))
        wanted = sorted({int(part) for part in ids})
        if not all(1 <= pk <= ID_LIMIT for pk in wanted):
            raise InvalidField(self.player_query_param, _("not a player id"))
        if len(wanted) > PLAYER_LOOKUP_LIMIT:
            raise InvalidField(
                self.player_query_param,
                ngettext(
                    "at most %(count)d player a lookup",
                    "at most %(count)d players a lookup",
                    PLAYER_LOOKUP_LIMIT,
                )
                % {"count": PLAYER_LOOKUP_LIMIT},
            )
        return wanted

    def page_size_of(self, request: Request) -> int:
        """``page_size`` as DRF's paginations read it: the default when it is
        not a positive number, at most :attr:`max_page_size`."""
        value = request.query_params.get(self.page_size_query_param, "")
        if not (value.isascii() and value.isdigit()) or int(value) == 0:
            return self.page_size
        return min(int(value), self.max_page_size)

    def _link(self, request: Request, row: RankedRow, *, before: bool) -> str:
        rank, player = _key(row)
        token = RankCursor(rank=rank, player=player, before=before).encode()
        return replace_query_param(request.build_absolute_uri(), self.cursor_query_param, token)

    @staticmethod
    def _of_players(rows: RankedRows, players: list[int], field: str) -> Sequence[RankedRow]:
        if isinstance(rows, QuerySet):
            return list(rows.filter(**{f"{field}__in": players}))
        wanted = set(players)
        return [row for row in rows if _key(row)[1] in wanted]

    @staticmethod
    def _after(
        rows: RankedRows,
        cursor: RankCursor | None,
        limit: int,
        ranks_unique: bool,
    ) -> Sequence[RankedRow]:
        """Up to ``limit`` rows past ``cursor`` (from the top without one), best first."""
        if cursor is None:
            return list(rows[:limit])
        if isinstance(rows, QuerySet):
            past = Q(rank__gt=cursor.rank)
            if not ranks_unique:
                past |= Q(rank=cursor.rank, player_id__gt=cursor.player)
            return list(rows.filter(past)[:limit])
        mark = (cursor.rank, cursor.player)
        return [row for row in rows if _key(row) > mark][:limit]

    @staticmethod
    def _ahead(
        rows: RankedRows,
        cursor: RankCursor,
        limit: int,
        ranks_unique: bool,
    ) -> Sequence[RankedRow]:
        """Up to ``limit`` rows ahead of ``cursor``, nearest first."""
        if isinstance(rows, QuerySet):
            ahead = Q(rank__lt=cursor.rank)
            if not ranks_unique:
                ahead |= Q(rank=cursor.rank, player_id__lt=cursor.player)
            order = ["-rank"] if ranks_unique else ["-rank", "-player_id"]
            return list(rows.filter(ahead).order_by(*order)[:limit])
        mark = (cursor.rank, cursor.player)
        return [row for row in reversed(rows) if _key(row) < mark][:limit]


def _key(row: RankedRow) -> tuple[int, int]:
    """A row's place in its ranked list: its rank, then its player's id."""
    if isinstance(row, Mapping):
        return int(row["rank"]), int(row["player_id"])
    # a stored rank, or one annotated by the query: no model declares both
    return int(row.rank), int(row.player_id)  # type: ignore[attr-defined]


class NewestFirst(IdOrder):
    """Pages as :class:`IdOrder`'s, newest (highest id) first: a history."""

    ordering = "-id"


ORDER_KEY = re.compile(r"\d{4}-\d{2}-\d{2}/\d{5}/\d{5}/\d{19}")
"""An order key as :mod:`league.ratings` writes them (date/round/table/table id)."""


class NewestGameFirst(CursorPagination):
    """A player's rating history, newest game first, in pages of up to 50 (at
    most 200): a cursor over the games' order keys, one per player in a scope."""

    ordering = "-order_key"
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def decode_cursor(self, request: Request) -> Cursor | None:
        """The cursor sent, or ``None``; 400 (``cursor``) for one this API
        cannot have given: not base64 of its fields, or a position that is not
        an order key."""
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise InvalidField(self.cursor_query_param, INVALID_CURSOR) from None
        if cursor is None or cursor.position is None:
            return cursor
        if not ORDER_KEY.fullmatch(str(cursor.position)):
            raise InvalidField(self.cursor_query_param, INVALID_CURSOR)
        return cursor
