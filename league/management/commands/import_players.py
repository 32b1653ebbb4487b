"""``manage.py import_players --club ID FILE [--dry-run]``: add a club's players from
a CSV file with a column ``name`` (:mod:`league.services.imports`); names the club
has are left as they are.

Every problem is printed, one a line, and nothing is stored when there is any (exit
status 1); ``--dry-run`` checks without storing. ``-`` reads standard input.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError, CommandParser

from league.management.imports import ImportCommand
from league.models import Club
from league.services import imports
from league.services.imports import PlayersCheck


class Command(ImportCommand):
    help = "Add a club's players from a CSV file with a column 'name'."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--club", type=int, required=True, help="the club's id")
        super().add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(pk=options["club"]).first()
        if club is None:
            raise CommandError(f"there is no club {options['club']}")
        data = self.read(options["file"])
        dry_run: bool = options["dry_run"]
        if dry_run:
            check = imports.check_players_import(club=club, data=data)
        else:
            done = self.run(lambda: imports.players_import(club=club, data=data))
            assert isinstance(done, PlayersCheck)
            check = done
        self.report(check, summary=summary(check, stored=not dry_run))


def summary(check: PlayersCheck, *, stored: bool) -> str:
    """The players added (or to add), in a line."""
    verb = "added" if stored else "to add"
    names = f": {', '.join(check.new_players)}" if check.new_players else ""
    return (
        f"{check.club.name}: {len(check.new_players)} players {verb}{names}; "
        f"{check.existing} the club has already"
    )
