"""The spreadsheet guard of the CSV downloads (league.csv_format.cell_guarded): no
place where a spreadsheet could start a cell starts a formula, whatever it splits a
line on, and the import (cell_unguarded) gets every text back exactly."""

from __future__ import annotations

import csv
import io
import re

from hypothesis import given
from hypothesis import strategies as st

from league.csv_format import CELL_BREAKS, FORMULA_STARTS, cell_guarded, cell_unguarded
from league.exports import csv_lines

FORMULAS = ("=", "+", "-", "@")
# text made mostly of what the guard looks at, so that its cases meet often
tricky = st.text(alphabet=st.sampled_from([*FORMULA_STARTS, *CELL_BREAKS, "a", " ", ",", '"']))
anything = st.text()


@given(text=st.one_of(tricky, anything))
def test_the_import_gets_every_text_back(text: str) -> None:
    assert cell_unguarded(cell_guarded(text)) == text


@given(text=st.one_of(tricky, anything))
def test_no_cell_a_spreadsheet_could_start_starts_a_formula(text: str) -> None:
    first, *after = re.split("[" + re.escape("".join(CELL_BREAKS)) + "]", cell_guarded(text))
    assert not first.startswith(FORMULAS)
    # nor a quoted cell, after a break: the csv module's quotes open only the first
    assert not any(piece.startswith((*FORMULAS, '"')) for piece in after)


def test_the_guard_leaves_ordinary_names_as_they_are() -> None:
    for name in ("Ann", "Ann Lee", "O'Brien", "Ann-Marie", "a=b", "Night 1; round 2", "Cy|D"):
        assert cell_guarded(name) == name
    assert cell_guarded("Ann;=1+1 night") == "Ann;'=1+1 night"
    assert cell_guarded("x\n@cmd") == "x\n'@cmd"
    assert cell_guarded('x;"=1"') == 'x;\'"=1"' and cell_guarded('"=1"') == '"=1"'


@given(
    rows=st.lists(
        st.lists(st.one_of(tricky, anything, st.integers(-500, 500)), min_size=1, max_size=5),
        min_size=1,
        max_size=5,
    )
)
def test_the_csv_lines_read_back_whole(rows: list[list[object]]) -> None:
    text = "".join(csv_lines([f"c{n}" for n in range(5)], rows))
    read = list(csv.reader(io.StringIO(text, newline="")))[1:]
    assert [[cell_unguarded(cell) for cell in row] for row in read] == [
        [str(value) for value in row] for row in rows
    ]
