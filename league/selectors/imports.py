"""The reads of the import pages (:mod:`league.web.organise_imports`): a results
import run by a background job, as its page follows it, and a club's latest
imports. Each reads a fixed number of queries, and never the file a waiting
import keeps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from league.models import Club, JobOwed, ResultsImport

RECENT_IMPORTS: Final = 5
"""How many of a club's latest background imports the import page lists."""


@dataclass(frozen=True)
class ImportProgress:
    """A background import as its page shows it."""

    item: ResultsImport
    """The import, its league read with it; its file is not read."""
    failures: int
    """How many times its job failed (the database busy or down) and is to run
    again; 0 once it has finished."""


def results_import_progress(*, club: Club, import_id: int) -> ImportProgress | None:
    """The import ``import_id`` of a league of ``club``, or ``None`` (another club's,
    or none); two queries."""
    item = (
        ResultsImport.objects.defer("data")
        .select_related("league")
        .filter(pk=import_id, league__club=club)
        .first()
    )
    if item is None:
        return None
    failures = 0
    if not item.finished:
        failures = (
            JobOwed.objects.filter(kind=JobOwed.Kind.IMPORT, target_id=item.pk)
            .values_list("attempts", flat=True)
            .first()
        ) or 0
    return ImportProgress(item=item, failures=failures)


def recent_results_imports(*, club: Club) -> list[ResultsImport]:
    """The club's latest :data:`RECENT_IMPORTS` background imports, newest first,
    with their leagues; one query."""
    return list(
        ResultsImport.objects.defer("data")
        .select_related("league")
        .filter(league__club=club)
        .order_by("-created_at", "-id")[:RECENT_IMPORTS]
    )
