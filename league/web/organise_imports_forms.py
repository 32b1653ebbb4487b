"""The forms of the import pages: what a file holds (players, or a league's results),
the file, and the confirmation that names the file checked by its SHA-256.

A form checks the upload's shape: a file is there, it is within the page's limits of
size and rows, its name says CSV (or, for results, JSON Lines). What is inside is the
import service's to check (:mod:`league.services.imports`).

The limits keep every request of the pages well inside its time (gunicorn stops a
worker at 30 s): the page checks a file in about half a second at the most it takes,
and a results file that stores more than a few tables is imported by a background
job (:mod:`league.web.organise_imports`). They are said, and refused, before any
work is done: the size is the upload's, the rows are its line ends counted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from django.utils.datastructures import MultiValueDict
from django.utils.formats import number_format
from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.import_files.results import ImportFormat
from league.models import Club, League
from league.web.organise_forms import SetupForm, worded

MAX_UPLOAD_BYTES: Final = 1024 * 1024
"""The largest file the pages take: 1 MiB, some 18,000 rows of games (about 180
four-seat Bluke games of 25 hands), which the page checks in about half a second
(``benchmarks/imports.py``), and under the 3 MB nginx lets through. Larger files are
for the ``import_results`` command.
"""
MAX_PLAYER_ROWS: Final = 5_000
"""The most rows a players file on the page has (a club's players are tens or
hundreds; adding 5,000 takes a few statements, well under a second)."""
MAX_RESULT_ROWS: Final = 20_000
"""The most rows (after the header) a results CSV on the page has: 1 MiB of the
export's rows, with room."""
MAX_RESULT_LINES: Final = 500
"""The most lines a JSON Lines file on the page has: a game a line, so no more
games than :data:`MAX_GAMES`."""
MAX_GAMES: Final = 500
"""The most tables (games) a results file on the page stores: its background job
then takes 5 to 15 s (``benchmarks/imports.py``: 10 ms a table of one hand, about
30 ms one of 25), in one transaction."""


PLAYERS, RESULTS = "players", "results"
WHAT_CHOICES = [
    (PLAYERS, gettext_lazy("Players: a CSV file with a column “name”")),
    (RESULTS, gettext_lazy("Results of a league: its games CSV, or JSON Lines of game records")),
]

FORMATS: Final = {".csv": ImportFormat.CSV, ".jsonl": ImportFormat.JSON_LINES}
"""The file names the pages take, by their ending."""

_DIGEST = re.compile(r"[0-9a-f]{64}")


def file_format(upload: UploadedFile) -> ImportFormat | None:
    """The format a file's name says (``None``: neither CSV nor JSON Lines)."""
    name = (upload.name or "").lower()
    return next((found for ending, found in FORMATS.items() if name.endswith(ending)), None)


_grouped = lazy(lambda number: number_format(number, force_grouping=True), str)
"""A number as the page's language groups its digits (1,000; 1 000), when shown."""


class ImportForm(SetupForm):
    """What the file holds, the league (for results) and the file."""

    _content = b""
    """The file, read once by :meth:`clean` to count its rows."""

    what = forms.ChoiceField(
        choices=WHAT_CHOICES,
        label=gettext_lazy("The file holds"),
        widget=forms.RadioSelect,
        initial=RESULTS,
        error_messages={
            "required": gettext_lazy("Choose what the file holds."),
            "invalid_choice": gettext_lazy("Choose players or results."),
        },
    )
    league = forms.ModelChoiceField(
        queryset=League.objects.none(),
        required=False,
        label=gettext_lazy("League"),
        empty_label=gettext_lazy("Choose the league"),
        help_text=gettext_lazy("Results only: the league whose games the file holds."),
        error_messages={"invalid_choice": gettext_lazy("Choose one of the club's leagues.")},
    )
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=worded(
            gettext_lazy(
                "A CSV file (.csv), UTF-8, with a header row, as the “Every hand of every game” "
                "download (CSV) writes it; or for results JSON Lines (.jsonl). At most 1 MB, "
                "and %(rows)s rows of results (%(games)s games; JSON Lines: "
                "%(lines)s lines) or %(players)s players."
            ),
            rows=_grouped(MAX_RESULT_ROWS),
            games=_grouped(MAX_GAMES),
            lines=_grouped(MAX_RESULT_LINES),
            players=_grouped(MAX_PLAYER_ROWS),
        ),
        error_messages={
            "required": gettext_lazy("Choose the file to import."),
            "empty": gettext_lazy("The file is empty."),
            "invalid": gettext_lazy("Choose a file."),
        },
    )

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        files: MultiValueDict[str, UploadedFile] | None = None,
        *,
        club: Club,
        **kwargs: Any,
    ) -> None:
        super().__init__(data, files, **kwargs)
        leagues: QuerySet[League] = League.objects.filter(club=club).order_by("name", "id")
        league_field = self.fields["league"]
        assert isinstance(league_field, forms.ModelChoiceField)
        league_field.queryset = leagues
        self.fields["file"].widget.attrs["accept"] = ".csv,.jsonl,text/csv,application/jsonl"

    def clean_file(self) -> UploadedFile:
        upload: UploadedFile = self.cleaned_data["file"]
        if (upload.size or 0) > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _(
                    "The file is larger than 1 MB, the most this page takes: ask whoever runs "
                    "the site to import it with the import_results command."
                )
            )
        if file_format(upload) is None:
            raise forms.ValidationError(
                _("Choose a CSV file (its name ends .csv) or, for results, JSON Lines (.jsonl).")
            )
        return upload

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        what, upload = data.get("what"), data.get("file")
        if what == RESULTS and data.get("league") is None and "league" not in self.errors:
            self.add_error("league", _("Choose the league the results are for."))
        if what == PLAYERS and upload is not None and file_format(upload) != ImportFormat.CSV:
            self.add_error("file", _("A players file is a CSV file (its name ends .csv)."))
        elif what in (PLAYERS, RESULTS) and upload is not None:
            upload.seek(0)
            self._content = upload.read()
            if (refusal := rows_refusal(self._content, what, file_format(upload))) is not None:
                self.add_error("file", refusal)
        return data

    @property
    def format(self) -> ImportFormat:
        """The valid form's file format."""
        found = file_format(self.cleaned_data["file"])
        assert found is not None
        return found

    def read(self) -> bytes:
        """The valid form's file, read whole (it is at most :data:`MAX_UPLOAD_BYTES`)."""
        return self._content


def rows_refusal(data: bytes, what: str, found: ImportFormat | None) -> str | None:
    """Why the page does not take a file of this many rows (``None``: it does), in
    the page's words: the limit, and where a larger file goes. Counts line ends, so
    a cell holding one counts twice: the limits have room for that.

    >>> rows_refusal(b"name\\nAnn\\nBob", PLAYERS, ImportFormat.CSV) is None
    True
    >>> print(rows_refusal(b"{}\\n" * 501, RESULTS, ImportFormat.JSON_LINES)[:59])
    The file has 501 lines; this page imports at most 500 games
    """
    lines = data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    command = "import_players" if what == PLAYERS else "import_results"
    if what == PLAYERS and lines - 1 > MAX_PLAYER_ROWS:
        message = _(
            "The file has %(count)s rows of players; this page adds at most %(most)s players "
            "(a row each) at a time: split the file, or ask whoever runs the site to import it "
            "with the %(command)s command."
        )
        count, most = lines - 1, MAX_PLAYER_ROWS
    elif found == ImportFormat.CSV and what == RESULTS and lines - 1 > MAX_RESULT_ROWS:
        message = _(
            "The file has %(count)s rows after the header; this page imports at most %(most)s "
            "rows (about 200 games) at a time: split the file, or ask whoever runs the site to "
            "import it with the %(command)s command."
        )
        count, most = lines - 1, MAX_RESULT_ROWS
    elif found == ImportFormat.JSON_LINES and lines > MAX_RESULT_LINES:
        message = _(
            "The file has %(count)s lines; this page imports at most %(most)s games "
            "(a line each) at a time: split the file, or ask whoever runs the site to import it "
            "with the %(command)s command."
        )
        count, most = lines, MAX_RESULT_LINES
    else:
        return None
    return message % {
        "count": number_format(count, force_grouping=True),
        "most": number_format(most, force_grouping=True),
        "command": command,
    }


class ConfirmForm(ImportForm):
    """The import itself: what was checked (hidden), the SHA-256 of the file checked,
    and the same file chosen again (a browser keeps no file from page to page)."""

    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        files: MultiValueDict[str, UploadedFile] | None = None,
        *,
        club: Club,
        **kwargs: Any,
    ) -> None:
        super().__init__(data, files, club=club, **kwargs)
        self.fields["what"].widget = forms.HiddenInput()
        self.fields["league"].widget = forms.HiddenInput()
        self.fields["file"].label = _("The same file again")
        self.fields["file"].help_text = _(
            "Your browser does not keep the file from the last page: choose it again. "
            "The site imports it only if it is exactly the file checked here."
        )

    def clean_digest(self) -> str:
        digest: str = self.cleaned_data["digest"]
        if not _DIGEST.fullmatch(digest):
            raise forms.ValidationError(_("The page was changed: check the file again."))
        return digest
