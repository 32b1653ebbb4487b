"""The forms of the import pages: what a file holds (players, or a league's results),
the file, and the confirmation that names the file checked by its SHA-256.

A form checks the upload's shape: a file is there, it is not too large, its name says
CSV (or, for results, JSON Lines). What is inside is the import service's to check
(:mod:`league.services.imports`).
"""

from __future__ import annotations

import re
from typing import Any, Final

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet

from league.models import Club, League
from league.services.imports import ImportFormat
from league.web.organise_forms import SetupForm

MAX_UPLOAD_BYTES: Final = 1024 * 1024
"""The largest file the pages take: 1 MiB, some 17,000 rows of games (about 170
four-seat Bluke games), which a page imports in under 10 s (``benchmarks/imports.py``:
180 such games took 4.6 s and their jobs 1.7 s more on PostgreSQL), well inside a
request's time, and under the 3 MB nginx lets through. Larger files are for the
``import_results`` command.
"""

PLAYERS, RESULTS = "players", "results"
WHAT_CHOICES = [
    (PLAYERS, "Players: a CSV file with a column “name”"),
    (RESULTS, "Results of a league: its games CSV, or JSON Lines of game records"),
]

FORMATS: Final = {".csv": ImportFormat.CSV, ".jsonl": ImportFormat.JSON_LINES}
"""The file names the pages take, by their ending."""

_DIGEST = re.compile(r"[0-9a-f]{64}")


def file_format(upload: UploadedFile) -> ImportFormat | None:
    """The format a file's name says (``None``: neither CSV nor JSON Lines)."""
    name = (upload.name or "").lower()
    return next((found for ending, found in FORMATS.items() if name.endswith(ending)), None)


class ImportForm(SetupForm):
    """What the file holds, the league (for results) and the file."""

    what = forms.ChoiceField(
        choices=WHAT_CHOICES,
        label="The file holds",
        widget=forms.RadioSelect,
        initial=RESULTS,
        error_messages={
            "required": "Choose what the file holds.",
            "invalid_choice": "Choose players or results.",
        },
    )
    league = forms.ModelChoiceField(
        queryset=League.objects.none(),
        required=False,
        label="League",
        empty_label="Choose the league",
        help_text="Results only: the league whose games the file holds.",
        error_messages={"invalid_choice": "Choose one of the club's leagues."},
    )
    file = forms.FileField(
        label="File",
        help_text=(
            "A CSV file (.csv), UTF-8, with a header row, as the “Every hand of every game” "
            "download (CSV) writes it; or for results JSON Lines (.jsonl). At most 1 MB."
        ),
        error_messages={
            "required": "Choose the file to import.",
            "empty": "The file is empty.",
            "invalid": "Choose a file.",
        },
    )

    def __init__(self, data: Any = None, files: Any = None, *, club: Club, **kwargs: Any) -> None:
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
                "The file is larger than 1 MB, the most this page takes: ask whoever runs "
                "the site to import it with the import_results command."
            )
        if file_format(upload) is None:
            raise forms.ValidationError(
                "Choose a CSV file (its name ends .csv) or, for results, JSON Lines (.jsonl)."
            )
        return upload

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        what, upload = data.get("what"), data.get("file")
        if what == RESULTS and data.get("league") is None and "league" not in self.errors:
            self.add_error("league", "Choose the league the results are for.")
        if what == PLAYERS and upload is not None and file_format(upload) != ImportFormat.CSV:
            self.add_error("file", "A players file is a CSV file (its name ends .csv).")
        return data

    @property
    def format(self) -> ImportFormat:
        """The valid form's file format."""
        found = file_format(self.cleaned_data["file"])
        assert found is not None
        return found

    def read(self) -> bytes:
        """The valid form's file, read whole (it is at most :data:`MAX_UPLOAD_BYTES`)."""
        upload: UploadedFile = self.cleaned_data["file"]
        upload.seek(0)
        return upload.read()


class ConfirmForm(ImportForm):
    """The import itself: what was checked (hidden), the SHA-256 of the file checked,
    and the same file chosen again (a browser keeps no file from page to page)."""

    digest = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, data: Any = None, files: Any = None, *, club: Club, **kwargs: Any) -> None:
        super().__init__(data, files, club=club, **kwargs)
        self.fields["what"].widget = forms.HiddenInput()
        self.fields["league"].widget = forms.HiddenInput()
        self.fields["file"].label = "The same file again"
        self.fields["file"].help_text = (
            "Your browser does not keep the file from the last page: choose it again. "
            "The site imports it only if it is exactly the file checked here."
        )

    def clean_digest(self) -> str:
        digest: str = self.cleaned_data["digest"]
        if not _DIGEST.fullmatch(digest):
            raise forms.ValidationError("The page was changed: check the file again.")
        return digest
