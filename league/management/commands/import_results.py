"""``manage.py import_results --league ID FILE [--dry-run]``: import a league's past
results from a file too large for the import page (:mod:`league.services.imports`).

FILE is the games CSV the export writes (or an older download, seats from 0), or
JSON Lines of games (a name ending ``.jsonl``, or ``--format jsonl``); ``-`` reads
standard input. Every problem is printed, one a line (``row 12, hand 3, seat 1: ...
(code)``, the seat as the file counts it), and nothing is stored when there is any
(exit status 1). ``--dry-run`` checks and prints the summary
without storing. The standings and ratings jobs the import owes are sent when it
commits, as after any change of results.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from league.import_files.results import ImportFormat
from league.management.imports import ImportCommand
from league.models import League
from league.services import imports
from league.services.imports import ResultsCheck


class Command(ImportCommand):
    help = "Import a league's past results from its games CSV (or JSON Lines of games)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--league", type=int, required=True, help="the league's id")
        parser.add_argument(
            "--format",
            choices=[found.value for found in ImportFormat],
            help="the file's format (default: jsonl for a name ending .jsonl, else csv)",
        )
        super().add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        league = League.objects.select_related("club").filter(pk=options["league"]).first()
        if league is None:
            raise CommandError(f"there is no league {options['league']}")
        path: str = options["file"]
        found = options["format"] or ("jsonl" if path.lower().endswith(".jsonl") else "csv")
        file_format = ImportFormat(found)
        data = self.read(path)
        dry_run: bool = options["dry_run"]
        if dry_run:
            check = imports.check_results_import(league=league, data=data, format=file_format)
        else:
            done = self.run(
                lambda: imports.results_import(league=league, data=data, format=file_format)
            )
            assert isinstance(done, ResultsCheck)
            check = done
        self.report(check, summary=summary(check, stored=not dry_run))


def summary(check: ResultsCheck, *, stored: bool) -> str:
    """What the import stored (or would store), in a line."""
    summary = check.summary
    verb = "imported" if stored else "to import"
    return (
        f"{check.league.name}: {summary.hands} hands at {summary.new_tables} tables {verb}; "
        f"{summary.skipped_tables} tables stored already; {summary.events} game nights "
        f"({summary.new_events} new); {len(summary.new_players)} new players"
        + (f": {', '.join(summary.new_players)}" if summary.new_players else "")
    )
