"""What the import commands (``import_results``, ``import_players``) share: reading
the file, printing the problems one a line, and the exit status."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.errors import ServiceError
from league.import_files.problems import problems_text
from league.services.imports import ImportRefused, PlayersCheck, ResultsCheck


class ImportCommand(BaseCommand):
    """An import command: ``FILE`` and ``--dry-run``; problems printed to standard
    output, one a line, then a ``CommandError`` (exit status 1)."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the file to import; - for standard input")
        parser.add_argument(
            "--dry-run", action="store_true", help="check the file and print what it would store"
        )

    def read(self, path: str) -> bytes:
        if path == "-":
            return sys.stdin.buffer.read()
        try:
            return Path(path).read_bytes()
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror}") from None

    def run(self, work: Callable[[], ResultsCheck | PlayersCheck]) -> ResultsCheck | PlayersCheck:
        """Run the import, answering its refusal as the check's problems."""
        try:
            return work()
        except ImportRefused as refused:
            return refused.check
        except ServiceError as error:
            raise CommandError(f"{error.message}; nothing was imported") from None

    def report(self, check: ResultsCheck | PlayersCheck, *, summary: str) -> None:
        """Print the check's problems and fail, or print ``summary``."""
        seats_from = check.seats_from if isinstance(check, ResultsCheck) else 0
        for line in problems_text(check.problems, seats_from=seats_from):
            self.stdout.write(line)
        if check.problems:
            count = len(check.problems)
            raise CommandError(
                f"the file has {count} problem{'s' if count != 1 else ''}; nothing was imported"
            )
        self.stdout.write(summary)
