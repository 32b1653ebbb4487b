"""Statements written by hand, with the values and model instances of Django's ORM.

A hand submission is the API's busiest write, and in a profile most of its
time was Django building its queries afresh on every request (issue 17).
This module gives its hottest statements a text made once from the models,
while the values written and the instances read stay Django's own.

**Reads** (:class:`JoinedRead`): one row and the rows its foreign keys point
to, as ``select_related`` reads them, with Django's converters applied and
Django's instances made (``Model.from_db``).

**Writes.** Where one statement of data-modifying CTEs replaces several ORM
calls (a hand submission's hand, seat lines, table and audit entry: see
:mod:`league.services.results`), the SQL is written by hand but the
values are still Django's: each field's ``pre_save`` and ``get_db_prep_save``,
as Django's INSERT and UPDATE compilers call them, so a row is stored as the
ORM would store it (JSON adapted as JSON, ``auto_now_add`` filled in). The
text depends only on the models and the number of rows, never on the values,
so one prepared statement serves every write of the same shape
(:mod:`league.db`).

Many rows can come as one array a column, unnested (``unnest(%s::smallint[],
...)``): the statement's text and its number of parameters then stay the same
whatever the number of rows, so that PostgreSQL prepares it once, and psycopg
keeps its translation of the text (it keeps none for a statement of more than
50 parameters).

>>> from league.models import HandSeat
>>> [field.column for field in insert_fields(HandSeat, exclude=("hand",))]
['seat', 'player_id', 'dropped', 'bid', 'tricks', 'points', 'total']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, ForeignKey, Model
from django.db.models.expressions import Col

if TYPE_CHECKING:
    # a value a statement's parameter takes (psycopg and sqlite3 adapt it), as
    # django-stubs names it
    from django.db.backends.utils import _SQLType as SqlValue

M = TypeVar("M", bound=Model)

_Converter: TypeAlias = Callable[[object, Col, BaseDatabaseWrapper], object]
"""A converter of a column's value as read (the database's or the field's)."""
_ModelRead: TypeAlias = tuple[type[Model], list[str], int, list[tuple[int, Col, list[_Converter]]]]
"""A model read: its columns' attribute names, its primary key's index and the
converters of the columns that have any, by index."""


@dataclass(frozen=True)
class JoinedRead(Generic[M]):
    """The row of ``model`` that ``where`` finds, read in one statement with the
    rows its foreign keys ``related`` point to and the values of the SQL
    expressions ``extra``: what ``model.objects.select_related(*related)
    .annotate(...).filter(...).first()`` gives, the related instances cached on
    it and each ``extra`` value set as an attribute, without Django building the
    query on every call. ``for_update`` locks ``model``'s row alone (``FOR
    UPDATE OF``), where the database can.

    ``related`` names paths as ``select_related`` does (``"round__event"``
    reads the round and its event). In ``where`` and ``extra`` the row is
    ``base`` and each related row is its path
    (``round__event.league_id``; quoted where it is a keyword: ``"user".id``);
    their parameters go to :meth:`get` in the text's order: ``extra``'s, then
    ``where``'s. The text is made from the models at the first call, and holds
    no input.
    """

    model: type[M]
    where: str
    related: tuple[str, ...] = ()
    extra: tuple[tuple[str, str], ...] = ()
    for_update: bool = False

    def get(self, *params: SqlValue) -> M | None:
        """The row found, or ``None``."""
        text, models, links = self._plan
        with connection.cursor() as cursor:
            try:
                cursor.execute(text, params)
            except OverflowError:  # SQLite binds no integer beyond 64 bits: no row holds it
                return None
            row = cursor.fetchone()
        if row is None:
            return None
        instances: list[Model | None] = []
        at = 0
        for model, names, pk, converters in models:
            values = list(row[at : at + len(names)])
            at += len(names)
            for index, column, converter_list in converters:
                for converter in converter_list:
                    values[index] = converter(values[index], column, connection)
            found = values[pk] is not None  # null for a missing outer join
            instances.append(model.from_db(connection.alias, names, values) if found else None)
        for (parent, field), instance in zip(links, instances[1:], strict=True):
            parent_instance = instances[parent]
            if parent_instance is not None:
                field.set_cached_value(parent_instance, instance)
        first = instances[0]
        for (name, _), value in zip(self.extra, row[at:], strict=True):
            setattr(first, name, value)
        return first  # type: ignore[return-value]

    @functools.cached_property
    def _plan(self) -> tuple[str, list[_ModelRead], list[tuple[int, ForeignKey[Any, Any]]]]:
        """The text; each model read with its columns' attribute names (its
        concrete fields', in order, as ``Model.from_db`` takes them), its primary
        key's index and the converters of the columns that have any (by index;
        the database's, then the field's, as Django's compiler applies them);
        each related instance's
        parent (by its index) and the foreign key that points to it."""
        quote = connection.ops.quote_name
        aliases: list[str] = ["base"]
        models: list[type[Model]] = [self.model]
        joins, links = [], []
        steps = dict.fromkeys(  # every step of each path, parents first
            "__".join(parts[:end])
            for parts in (path.split("__") for path in self.related)
            for end in range(1, len(parts) + 1)
        )
        for path in steps:
            parent_path, _, name = path.rpartition("__")
            parent = aliases.index(parent_path or "base")
            field = models[parent]._meta.get_field(name)
            assert isinstance(field, ForeignKey), f"{path} is not a foreign key"
            target = field.related_model
            assert isinstance(target, type)
            join = "LEFT OUTER JOIN" if field.null else "INNER JOIN"
            joins.append(
                f"{join} {quote(target._meta.db_table)} {quote(path)} ON "
                f"{quote(path)}.{quote(field.target_field.column)} = "
                f"{quote(aliases[parent])}.{quote(field.column)}"
            )
            aliases.append(path)
            models.append(target)
            links.append((parent, field))
        columns: list[str] = []
        read: list[_ModelRead] = []
        for alias, model in zip(aliases, models, strict=True):
            fields = model._meta.concrete_fields
            columns += [f"{quote(alias)}.{quote(field.column)}" for field in fields]
            converters: list[
                tuple[int, Col, list[_Converter]]
            ] = []  # only the columns that have any: the loop runs on every read
            for index, field in enumerate(fields):
                column = field.get_col(alias)
                found = connection.ops.get_db_converters(column) + column.get_db_converters(
                    connection
                )
                if found:
                    converters.append((index, column, found))
            pk = next(index for index, field in enumerate(fields) if field.primary_key)
            read.append((model, [field.attname for field in fields], pk, converters))
        columns += [f"({sql}) AS {quote(name)}" for name, sql in self.extra]
        text = (
            f"SELECT {', '.join(columns)} FROM {quote(self.model._meta.db_table)} base "
            f"{' '.join(joins)} WHERE {self.where}"
        )
        if self.for_update and connection.features.has_select_for_update:
            text += " FOR UPDATE OF base"
        return text, read, links


def insert_fields(model: type[Model], *, exclude: Iterable[str] = ()) -> list[Field[Any, Any]]:
    """The fields an INSERT of ``model`` writes, as Django's does (its concrete
    fields but the generated primary key), without those named in ``exclude``."""
    skip = set(exclude)
    return [
        field
        for field in model._meta.concrete_fields
        if not field.primary_key and field.name not in skip
    ]


def fields_named(model: type[Model], *names: str) -> list[Field[Any, Any]]:
    """``model``'s concrete fields named ``names``, in that order."""
    fields = {field.name: field for field in model._meta.concrete_fields}
    return [fields[name] for name in names]


def column_list(fields: Sequence[Field[Any, Any]], *, prefix: str = "") -> str:
    """``"a", "b"``: the fields' quoted column names (each after ``prefix``, if given)."""
    return ", ".join(prefix + connection.ops.quote_name(field.column) for field in fields)


def typed_row(fields: Sequence[Field[Any, Any]]) -> str:
    """``(%s::smallint, %s::jsonb)``: one row's placeholders, each typed as its
    column, for rows given as ``VALUES`` that are not inserted straight into a
    table (they have no column to take their types from)."""
    return "(" + ", ".join(f"%s::{field.db_type(connection)}" for field in fields) + ")"


def unnest_columns(fields: Sequence[Field[Any, Any]]) -> str:
    """``unnest(%s::smallint[], %s::jsonb[])``: rows given as one array a column
    (:func:`column_values`), each typed as its column, so that the text is the
    same whatever the number of rows."""
    return "unnest(" + ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields) + ")"


def row_values(obj: Model, fields: Sequence[Field[Any, Any]], *, add: bool) -> list[SqlValue]:
    """``obj``'s values for ``fields`` as Django's compilers prepare them to
    write: ``pre_save`` (which fills ``auto_now_add`` when ``add``) then
    ``get_db_prep_save``."""
    return [field.get_db_prep_save(field.pre_save(obj, add), connection) for field in fields]


def column_values(
    objs: Sequence[Model], fields: Sequence[Field[Any, Any]], *, add: bool
) -> list[list[SqlValue]]:
    """For each of ``fields``, the list of the ``objs``' values (:func:`row_values`):
    the arrays :func:`unnest_columns` takes."""
    rows = [row_values(obj, fields, add=add) for obj in objs]
    return [[row[index] for row in rows] for index in range(len(fields))]


def mark_saved(obj: Model, pk: int) -> None:
    """Give ``obj`` the primary key its row was stored with, and mark it saved,
    as Django does after an INSERT of its own."""
    obj.pk = pk
    obj._state.adding = False
    obj._state.db = connection.alias
