"""A players file: CSV with one column, ``name``; a name once (by its key: "ada" is
"Ada")."""

from __future__ import annotations

from typing import Final

from league.import_files.csv_rows import csv_rows
from league.import_files.problems import Problem, Words, gettext_noop
from league.import_files.values import read_name
from league.names import name_key

PLAYER_COLUMNS: Final = ("name",)
"""The columns of a players file."""


def read_players(data: bytes, problems: list[Problem]) -> list[str]:
    """The names of a players CSV, in the file's order, each once; what is wrong
    with the file is added to ``problems`` (a file with no name is a problem)."""
    names: list[str] = []
    first_row: dict[str, int] = {}
    table = csv_rows(data, PLAYER_COLUMNS, problems)
    for row, cells in table:
        name = read_name(cells["name"], row, problems, column="name", person=True)
        if name is None:
            continue
        key = name_key(name)
        if key in first_row:
            words = Words(
                gettext_noop("%(name)s is named on row %(row)d already"),
                {"name": name, "row": first_row[key]},
            )
            problems.append(Problem.said(row, "duplicate", words))
            continue
        first_row[key] = row
        names.append(name)
    if not problems and not names:
        words = Words(gettext_noop("the file has no players after the header"))
        problems.append(Problem.said(None, "empty", words))
    return names
