"""A CSV file's rows as an import reads them: decoded as UTF-8 (a byte order mark
allowed) while read, the header checked against the columns expected, each row's
cells by column, stripped, with the formula guard of the export taken off."""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Iterator, Sequence

from league.csv_format import cell_unguarded
from league.import_files.problems import Problem, Words, gettext_noop


def csv_rows(
    data: bytes,
    columns: Sequence[str],
    problems: list[Problem],
    *,
    older: Sequence[Sequence[str]] = (),
) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of a CSV file (header row 1) as cells by column, stripped and with
    the export's formula apostrophe taken off; blank rows are skipped. The header
    names ``columns``, or one of the ``older`` layouts a file may still come in (the
    cells are then by that layout's names). A file that is not UTF-8, not CSV or has
    another header is one problem of the file."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        words = Words(
            gettext_noop(
                "the file is not UTF-8 text but UTF-16: save it from the spreadsheet as CSV UTF-8"
            )
        )
        problems.append(Problem.said(None, "encoding", words))
        return
    if b"\0" in data:  # text has no NUL; a spreadsheet's own format (.xlsx, .ods) has
        words = Words(
            gettext_noop(
                "the file is not a CSV file (it holds binary data): save it from the "
                "spreadsheet as CSV UTF-8"
            )
        )
        problems.append(Problem.said(None, "not_csv", words))
        return
    # The file is decoded as it is read, not into one string first: a large file's
    # text is never held whole, besides its bytes.
    stream = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")
    reader = csv.reader(stream, strict=True)
    row = 0
    try:
        header = next(reader, None)
        row = 1
        if header is None:
            problems.append(Problem.said(None, "empty", Words(gettext_noop("the file is empty"))))
            return
        names = [cell.strip() for cell in header]
        if not _header_fits(names, [columns, *older], problems):
            return
        for cells in reader:
            row += 1
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) != len(names):
                words = Words(
                    gettext_noop(
                        "the row has %(cells)d cells; the header names %(columns)d columns"
                    ),
                    {"cells": len(cells), "columns": len(names)},
                )
                problems.append(Problem.said(row, "cells", words))
                continue
            yield row, {name: unescape(cell) for name, cell in zip(names, cells, strict=True)}
    except UnicodeDecodeError:
        # decoded a chunk ahead of the rows read: which row holds the fault is not known
        words = Words(
            gettext_noop("the file is not UTF-8 text: save it from the spreadsheet as CSV UTF-8")
        )
        problems.append(Problem.said(None, "encoding", words))
    except csv.Error as error:
        # Translators: error is Python's own reason, in English (a quote not closed, say)
        words = Words(
            gettext_noop("the file cannot be read as CSV from here on (%(error)s)"),
            {"error": str(error)},
        )
        problems.append(Problem.said(row + 1, "not_csv", words))


def _header_fits(
    names: list[str], layouts: Sequence[Sequence[str]], problems: list[Problem]
) -> bool:
    """Whether the header names the columns of one of ``layouts`` (the first is the
    current one), each once, in any order; if not, a problem saying what is missing,
    unknown or twice, against the layout the header comes closest to."""

    def mismatch(columns: Sequence[str]) -> tuple[list[str], list[str]]:
        missing = [column for column in columns if column not in names]
        return missing, [name for name in names if name not in columns]

    repeated = sorted({name for name in names if names.count(name) > 1})
    closest = min(layouts, key=lambda columns: sum(map(len, mismatch(columns))))
    missing, unknown = mismatch(closest)
    if not (missing or unknown or repeated):
        return True
    parts: list[Words] = []
    if missing:
        parts.append(Words(gettext_noop("missing %(columns)s"), {"columns": ", ".join(missing)}))
    if unknown:
        unknown_names = ", ".join(repr(name) for name in unknown)
        parts.append(Words(gettext_noop("unknown %(columns)s"), {"columns": unknown_names}))
    if repeated:
        parts.append(
            Words(gettext_noop("named twice %(columns)s"), {"columns": ", ".join(repeated)})
        )
    # each part worded on its own, joined as a list ("; ") in every language
    params: dict[str, object] = {"columns": ", ".join(closest)}
    params.update({f"part{index}": part for index, part in enumerate(parts)})
    joined = "; ".join(f"%(part{index})s" for index in range(len(parts)))
    problems.append(
        Problem.said(
            1,
            "header",
            Words(
                gettext_noop("the header row must name the columns %(columns)s (%(faults)s)"),
                {**params, "faults": Words(joined, params)},
            ),
        )
    )
    return False


def unescape(cell: str) -> str:
    """A cell as the export meant it: stripped, and without the apostrophes it puts
    before text a spreadsheet would run as a formula (:func:`league.csv_format.cell_guarded`).

    >>> unescape(" '=HYPERLINK(1) "), unescape("''Tis"), unescape("'Tis"), unescape(" Ann ")
    ('=HYPERLINK(1)', "'Tis", "'Tis", 'Ann')
    >>> unescape("Ann;'=1+1 night")
    'Ann;=1+1 night'
    """
    return cell_unguarded(cell.strip())
