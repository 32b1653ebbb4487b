"""``manage.py standings_rebuild [LEAGUE_ID ...]``: owe a full rebuild of the
standings of the leagues named (every league when none is), for repair: after
rows were edited by hand, or restored from a backup of another time.

The rebuild is the standings job's (:func:`league.standings.standings_catch_up`),
sent once this commits: to a worker with a broker, in this process without
one. Prints the leagues owed.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from league.models import League
from league.outbox import standings_owe


class Command(BaseCommand):
    help = "Owe a full rebuild of the standings of some leagues (all when none is named)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("league_ids", nargs="*", type=int, metavar="LEAGUE_ID")

    def handle(self, *args: Any, league_ids: list[int], **options: Any) -> None:
        leagues = League.objects.order_by("pk")
        if league_ids:
            leagues = leagues.filter(pk__in=league_ids)
            missing = sorted(set(league_ids) - set(leagues.values_list("pk", flat=True)))
            if missing:
                raise CommandError(f"no league {', '.join(map(str, missing))}: nothing owed")
        with transaction.atomic():
            owed = list(leagues.values_list("pk", "name"))
            for league_id, _ in owed:
                standings_owe(league_id=league_id)
        for league_id, name in owed:
            self.stdout.write(f"standings rebuild owed: league {league_id} ({name})")
