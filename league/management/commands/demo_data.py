"""``manage.py demo_data``: a club with players, two leagues and played games.

Every game is played by the engine's simple bot through the state API and
submitted as move logs through the results service, so every stored game is
legal and scored by the server. The same ``--seed`` gives the same data.

The demo logins have a published password (``demo-password``), so the
command refuses to run where ``DEMO_DATA_ALLOWED`` is off: the production
settings.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

import games
from games.bots import bot_game
from league.models import Club, Game, League, Membership, Player
from league.season import SeasonJson
from league.services.attendance import attendance_set
from league.services.clubs import club_create, membership_set, player_create
from league.services.fixtures import event_create, league_create
from league.services.results import hand_submit
from league.services.seating import round_seating_commit

PLAYER_NAMES = [
    "Ada", "Bram", "Cleo", "Dev", "Edda", "Finn",
    "Gus", "Hana", "Ivo", "Juno", "Kit", "Lior",
]  # fmt: skip
DEMO_USERS = {"organiser": Membership.Role.ORGANISER, "scorekeeper": Membership.Role.SCOREKEEPER}
DEMO_PASSWORD = "demo-password"
FIRST_EVENT = datetime.date(2026, 9, 3)


class Command(BaseCommand):
    help = "Create a demo club, players, a Bluke and a Buck Euchre league with played games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seed", type=int, default=1, help="the same seed, the same games")
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing if any club exists already"
        )

    def handle(self, *args: Any, seed: int, if_empty: bool, **options: Any) -> None:
        if not getattr(settings, "DEMO_DATA_ALLOWED", True):
            raise CommandError(
                "demo_data makes logins whose password is published; these settings "
                f"({settings.SETTINGS_MODULE}) set DEMO_DATA_ALLOWED = False, as production's do"
            )
        if if_empty and Club.objects.exists():
            self.stdout.write("demo data: the database already has clubs; nothing done")
            return
        with transaction.atomic():
            summary = create_demo_data(seed=seed)
        self.stdout.write(self.style.SUCCESS(f"demo data: {summary}"))


DEMO_CUP_SEASON: SeasonJson = {
    "points_by_place": {"4": [4, 2, 1, 0]},
    "best_nights": 2,
    "min_games": 4,
}
"""The Buck Euchre league's season format: 4-2-1-0, the best 2 nights, 4 games to qualify."""


def create_demo_data(*, seed: int) -> str:
    rng = random.Random(seed)
    club = club_create(name="Riverside Card Club")
    players = [player_create(club=club, name=name) for name in PLAYER_NAMES]
    user_model = get_user_model()
    for username, role in DEMO_USERS.items():
        user = user_model.objects.filter(username=username).first()
        if user is None:
            user = user_model.objects.create_user(username=username, password=DEMO_PASSWORD)
        membership_set(club=club, user=user, role=role)
    bluke = league_create(club=club, name="Thursday Bluke", game=Game.BLUKE)
    # scored as many clubs score a cup: points for places, the best nights counting
    buck = league_create(
        club=club, name="Dirty Clubs Cup", game=Game.BUCK_EUCHRE, season=DEMO_CUP_SEASON
    )
    organiser = user_model.objects.get(username="organiser")
    hands = 0
    hands += _play_events(bluke, players, organiser, rng, events=2, rounds=1)
    hands += _play_events(buck, players, organiser, rng, events=3, rounds=2)
    return f"1 club, {len(players)} players, 2 leagues, {hands} hands"


def _play_events(
    league: League,
    players: list[Player],
    organiser: User,
    rng: random.Random,
    *,
    events: int,
    rounds: int,
) -> int:
    """Events of ``rounds`` rounds: every player checked in, each round drawn
    by the seating generator (fewest repeat meetings), every game played by
    the engine's bot."""
    hands = 0
    rules = games.rules_for(league.game, 4, league.options)
    for number in range(events):
        event = event_create(
            league=league,
            name=f"Night {number + 1}",
            date=FIRST_EVENT + datetime.timedelta(weeks=number),
            rounds=rounds,
        )
        attendance_set(event=event, players=players, by=organiser)
        for round_ in event.rounds.order_by("number"):
            draw = round_seating_commit(round=round_, seed=rng.randrange(2**31))
            for table in draw.tables:
                for record in bot_game(
                    rules, first_dealer=table.first_dealer, seed=rng.randrange(2**32)
                ):
                    # the table as the submission left it: the next is stored as read
                    table = hand_submit(table=table, record=record).table
                    hands += 1
    return hands
