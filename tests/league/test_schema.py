"""The schema holds no index that another index already serves.

An index whose columns are the first columns of another index on the same
table (a foreign key's own index beside a unique constraint that starts with
the key, say) serves no lookup the longer one does not, and costs every
write. Django indexes each foreign key unless told otherwise
(``db_index=False``), so a new unique constraint that starts with a key
brings one: this test names it.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.db import connection

pytestmark = pytest.mark.django_db


PARTIAL = {
    item.name
    for model in apps.get_models()
    for item in [*model._meta.constraints, *model._meta.indexes]
    if getattr(item, "condition", None) is not None
}
"""Indexes of some rows only (a condition): they serve no lookup of every row."""


def indexes_of(table: str) -> dict[str, dict[str, Any]]:
    """``table``'s indexes, those behind unique constraints and primary keys
    included, but PostgreSQL's ``_like`` twins that Django adds to text columns
    (another operator class: they serve ``LIKE 'a%'``, which the plain one
    cannot), and partial ones."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, table)
    return {
        name: info
        for name, info in constraints.items()
        if (info["index"] or info["unique"])
        and info["columns"]
        and not name.endswith("_like")
        and name not in PARTIAL
    }


def covered_indexes(table: str) -> list[str]:
    """``table``'s plain indexes (not unique, every column ascending) whose
    columns begin another index's, each as ``name (columns) by other``."""
    indexes = indexes_of(table)
    found = []
    for name, info in indexes.items():
        if info["unique"] or "DESC" in (info.get("orders") or []):
            continue
        columns = info["columns"]
        for other, other_info in indexes.items():
            if other != name and other_info["columns"][: len(columns)] == columns:
                found.append(f"{name} ({', '.join(columns)}) by {other}")
    return found


def test_no_league_index_is_the_start_of_another() -> None:
    tables = sorted({model._meta.db_table for model in apps.get_app_config("league").get_models()})
    found = [entry for table in tables for entry in covered_indexes(table)]
    assert found == []


def test_a_foreign_keys_own_index_is_found_where_a_unique_constraint_covers_it() -> None:
    # the control: Django's own auth app keeps both (permission's content type)
    assert covered_indexes("auth_permission") != []
