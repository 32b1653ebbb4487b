"""How long a full re-rating takes next to the model's bare loop, and what one new game costs.

Why: :mod:`league.ratings` rates every complete game of a scope in play order with the model of
:mod:`league.rating_model`. After a change of model a whole scope is re-rated
(:func:`league.ratings.ratings_rebuild`); the model's own loop (``ScoreModel.rate_games``) is
the unavoidable work, everything else (reading the games, writing the history and the ratings)
is the service's overhead. The target: the full re-rating
in at most 1.5 times the bare loop's time. And a new game at the end of the play order must
cost the ratings job a constant amount of work, however long the league.

What runs:

1. A fresh PostgreSQL database (``--database``, default ``league_bench_ratings``; the script
   stops if it exists already), migrated, with Django set up in this process as in
   ``api_throughput.py`` (production settings, no Celery broker). Loaded fast, with
   ``bulk_create`` for the few rows and PostgreSQL ``COPY`` for the tables and seatings (not
   through :mod:`league.services`, which would replay every hand): one club of ``--players``
   players (2,000) with a hidden skill each (standard normal), and two Buck Euchre leagues:
   the big one of ``--games`` complete four-player games (100,000) and a small one of
   ``--small-games`` (1,000). A league's game nights are on consecutive dates, 100 players
   drawn at random each night, 4 rounds of 25 tables. A game's finishing order: each player's
   performance is skill plus Gumbel noise; the best wins with a total of 0, the others' totals
   are their gaps to the winner on a coarse grid, so that some share a place (Buck Euchre's
   places: 1 for the winner, then by total, equal totals sharing). Every table is complete,
   with its hands played, totals and version filled. Loading is timed but not measured.
2. The full re-rating of the big league's scope (made by :func:`league.ratings.scopes_of`):

   a. ``ratings.ratings_rebuild(scope=...)``, wall clock. The first run rates a scope with no
      history yet (printed, for information); then ``--repeat`` runs re-rate it with its
      history in place (deleted and rewritten), the case of a change of model: the best of
      these is the figure. Printed with it: the time blocked on PostgreSQL (in psycopg's
      ``wait``), and the time of each statement Django executed (an ``execute_wrapper``);
   b. the model's bare loop: the same games, read beforehand into memory by the service's own
      reader (player ids, totals, each table's luck and day) in the same play order,
      ``model_for("buck_euchre").rate_games`` on a dict of current ratings, no database; best of
      ``--repeat``. Its final ratings must equal the service's.

   The repeats of (a) and (b) alternate, so that both meet the same spells of a busy
   machine. Prints both, the ratio (a)/(b) of the bests against the target of 1.5, and each
   repeat's own ratio (a run over the loop right after it) with their median.
3. One new game at the end of each league: a complete table on a new night after all others,
   marked with ``ratings.ratings_mark_changed(table=...)``, then
   ``ratings.ratings_refresh(scope_id=...)`` under ``CaptureQueriesContext``: the rating
   history rows created and deleted, the rating rows changed, created and deleted, the SQL
   queries (with their kinds) and the time, for the big and the small league side by side.
   The counts must be the same: 4 history rows, 4 ratings changed.
4. ``cProfile`` of one more full re-rating of the big league (with its history in place): the
   top 15 functions by cumulative time, the top 10 by own time, and the share spent in
   the model's loop (``rate_games``).

The database is dropped at the end, whatever happens.

Usage: ``python benchmarks/ratings_rebuild.py [--games N] [--small-games N] [--players N]
[--repeat R] [--seed S] [--no-profile] [--database NAME] [--server postgres://user@host:port]``.
``make bench-ratings`` runs it with the defaults: about 5 minutes on 2 cores, a third of it
under the profiler.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import math
import os
import pstats
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from api_throughput import django_environment, fresh_database

REPO = Path(__file__).resolve().parent.parent
TARGET = 1.5
"""The full re-rating's time over the model's bare loop's, at most."""
ROUNDS_PER_NIGHT = 4
TABLES_PER_ROUND = 25
SEATS = 4
TIE_GRID = 1.0 / 6
"""Performance gaps to the winner are counted in points of this size (the totals)."""
FIRST_NIGHT = datetime.date(2020, 1, 6)


# -- Django in this process ---------------------------------------------------------------------


def setup_django(database_url: str) -> None:
    """Point Django at the scratch database (production settings, as ``api_throughput.py``
    runs the server) and migrate it."""
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.update(django_environment(database_url))
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--no-input", verbosity=0)


# -- the synthetic league -----------------------------------------------------------------------


@dataclass
class League:
    """A loaded league: its model instance, scope and size."""

    league: Any
    scope: Any
    games: int
    last_night: datetime.date
    ties: int


def outcome(rng: random.Random, skills: Sequence[float]) -> tuple[list[int], list[int]]:
    """Totals and places of one game of Buck Euchre drawn from the players' hidden skills."""
    performance = [skill - math.log(-math.log(rng.random())) for skill in skills]
    best = max(performance)
    winner = performance.index(best)
    totals = [
        0 if seat == winner else 1 + int((best - value) / TIE_GRID)
        for seat, value in enumerate(performance)
    ]
    others = [total for seat, total in enumerate(totals) if seat != winner]
    places = [
        1 if seat == winner else 2 + sum(1 for other in others if other < total)
        for seat, total in enumerate(totals)
    ]
    return totals, places


def copy_models(model: Any, objects: Iterable[Any]) -> None:
    """``COPY`` unsaved instances into their table, every concrete field but the primary key
    (on Django's connection, in its transaction): much faster than ``bulk_create``."""
    from django.db import connection

    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    statement = f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN"
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for instance in objects:
            copy.write_row(
                [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
            )


def counts_without_lines(hands: int) -> dict[str, int]:
    """A complete seating's counts of its hand lines (``Seating.hands`` and the rest): this
    benchmark stores no hand lines, only the ``hands`` its tables played."""
    return {"hands": hands, "bids_made": 0, "overtricks": 0} | dict.fromkeys(
        ("bucked_as_maker", "bucked_as_player", "drops"), 0
    )


def complete_table(
    round_id: int, number: int, seated: Sequence[int], totals: list[int], hands: int
) -> Any:
    """An unsaved complete table of Buck Euchre (its seatings apart)."""
    from league.models import Game as GameKind
    from league.models import Table

    table = Table(
        round_id=round_id,
        number=number,
        game=GameKind.BUCK_EUCHRE,
        players=SEATS,
        first_dealer=(number - 1) % SEATS,
        complete=True,
        hands_played=hands,
        totals=totals,
        version=hands,
    )
    if hasattr(table, "seat_players"):  # the seatings' player ids, where the table keeps them
        table.seat_players = list(seated)
    return table


def load_league(
    *,
    club: Any,
    players: Sequence[int],
    skill: dict[int, float],
    games: int,
    name: str,
    seed: int,
) -> League:
    """A Buck Euchre league of ``games`` complete four-player games, in bulk."""
    from django.db import transaction

    from league import ratings
    from league.models import Event, Round, Seating, Table
    from league.models import Game as GameKind
    from league.models import League as LeagueModel

    rng = random.Random(seed)
    per_night = ROUNDS_PER_NIGHT * TABLES_PER_ROUND
    nights = math.ceil(games / per_night)
    with transaction.atomic():
        league = LeagueModel.objects.create(
            club=club, name=name, slug=name.lower().replace(" ", "-"), game=GameKind.BUCK_EUCHRE
        )
        events = Event.objects.bulk_create(
            Event(league=league, name=f"Night {n + 1}", date=FIRST_NIGHT + datetime.timedelta(n))
            for n in range(nights)
        )
        rounds = Round.objects.bulk_create(
            (
                Round(event=event, number=number)
                for event in events
                for number in range(1, ROUNDS_PER_NIGHT + 1)
            ),
            batch_size=10_000,
        )
        # (round id, table number, players in seat order, totals, places, hands played)
        drawn: list[tuple[int, int, list[int], list[int], list[int], int]] = []
        ties = 0
        for night in range(nights):
            present = rng.sample(players, SEATS * TABLES_PER_ROUND)
            for round_ in rounds[night * ROUNDS_PER_NIGHT : (night + 1) * ROUNDS_PER_NIGHT]:
                rng.shuffle(present)
                for number in range(1, TABLES_PER_ROUND + 1):
                    if len(drawn) == games:
                        break
                    seated = present[(number - 1) * SEATS : number * SEATS]
                    totals, places = outcome(rng, [skill[p] for p in seated])
                    ties += len(set(places)) < SEATS
                    drawn.append((round_.pk, number, seated, totals, places, rng.randint(6, 20)))
        copy_models(
            Table,
            (
                complete_table(round_id, number, seated, totals, hands)
                for round_id, number, seated, totals, _, hands in drawn
            ),
        )
        ids = {
            (round_id, number): pk
            for pk, round_id, number in Table.objects.filter(round__event__league=league)
            .values_list("pk", "round_id", "number")
            .iterator(chunk_size=20_000)
        }
        copy_models(
            Seating,
            (
                Seating(
                    table_id=ids[round_id, number],
                    round_id=round_id,
                    seat=seat,
                    player_id=player,
                    total=totals[seat],
                    place=places[seat],
                    **counts_without_lines(hands),
                )
                for round_id, number, seated, totals, places, hands in drawn
                for seat, player in enumerate(seated)
            ),
        )
        scope = ratings.scopes_of(league)[0]
    return League(league, scope, len(drawn), events[-1].date, ties)


def load(args: argparse.Namespace) -> tuple[League, League]:
    from django.db import connection

    from league.models import Club, Player

    began = time.perf_counter()
    rng = random.Random(args.seed)
    club = Club.objects.create(name="Benchmark Club", slug="benchmark-club")
    players = [
        p.pk
        for p in Player.objects.bulk_create(
            Player(club=club, name=f"Player {n + 1:05d}") for n in range(args.players)
        )
    ]
    skill = {p: rng.gauss(0.0, 1.0) for p in players}
    big = load_league(
        club=club,
        players=players,
        skill=skill,
        games=args.games,
        name="Big Buck Euchre",
        seed=args.seed + 1,
    )
    small = load_league(
        club=club,
        players=players,
        skill=skill,
        games=args.small_games,
        name="Small Buck Euchre",
        seed=args.seed + 2,
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(
        f"loaded 1 club, {len(players):,} players; leagues of {big.games:,} and "
        f"{small.games:,} complete 4-player games ({100 * big.ties / big.games:.1f} % and "
        f"{100 * small.ties / max(small.games, 1):.1f} % with a shared place) in "
        f"{time.perf_counter() - began:.1f} s (not measured)"
    )
    return big, small


def games_in_memory(scope: Any) -> list[Any]:
    """The scope's complete games in play order, read as the service reads them."""
    from league import ratings

    return ratings.scope_games(scope)


# -- measurements -------------------------------------------------------------------------------


@dataclass
class SqlTimer:
    """An ``execute_wrapper``: the time spent in each SQL statement, without the SQL."""

    statements: list[tuple[str, float]] = field(default_factory=list)

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        began = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.statements.append((describe(sql), time.perf_counter() - began))


def describe(sql: str) -> str:
    """``SELECT league_rating``, ``UPDATE league_ratingscope``...: a query's kind."""
    verb = sql.split(None, 1)[0].upper()
    match = re.search(r'(?:FROM|INTO|UPDATE)\s+"?(\w+)"?', sql, re.IGNORECASE)
    lock = " FOR UPDATE" if sql.rstrip().upper().endswith("FOR UPDATE") else ""
    return f"{verb} {match.group(1)}{lock}" if match else verb


@contextmanager
def blocked_on_database() -> Iterator[list[float]]:
    """The seconds this process spends blocked on PostgreSQL (in psycopg's ``wait``, which
    every statement, fetch, COPY buffer and commit goes through), in ``[0]`` at the end."""
    from django.db import connection

    connection.ensure_connection()
    raw = connection.connection
    original, blocked = raw.wait, [0.0]

    def wait(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            blocked[0] += time.perf_counter() - began

    raw.wait = wait
    try:
        yield blocked
    finally:
        del raw.wait


def timed_rebuild(scope: Any) -> tuple[float, int, SqlTimer, float]:
    """One ``ratings_rebuild``: seconds, games rated, the statements Django executed, and the
    seconds blocked on the database."""
    from django.db import connection, transaction

    from league import ratings

    timer = SqlTimer()
    with connection.execute_wrapper(timer), blocked_on_database() as blocked:
        began = time.perf_counter()
        # ratings_rebuild's own transaction, opened here so that its commit (where PostgreSQL
        # checks the deferred foreign keys of the rows written) can be timed apart
        with transaction.atomic():
            rated = ratings.ratings_rebuild(scope=scope)
            committing = time.perf_counter()
        elapsed = time.perf_counter() - began
    timer.statements.append(("COMMIT (deferred foreign key checks)", began + elapsed - committing))
    return elapsed, rated, timer, blocked[0]


def bare_loop(games: Sequence[Any]) -> tuple[float, dict[int, Any]]:
    """The model's loop alone: ``rate_games`` over the games, into a dict."""
    from league.rating_model import model_for

    model = model_for("buck_euchre")
    began = time.perf_counter()
    state: dict[int, Any] = {}
    for _ in model.rate_games(games, state):
        pass
    return time.perf_counter() - began, {player: rated[0] for player, rated in state.items()}


def full_rerating(big: League, args: argparse.Namespace) -> None:
    from league.models import Rating, RatingHistory
    from league.rating_model import model_for

    print(
        f"\n== full re-rating of {big.games:,} games ({big.games * SEATS:,} seatings), "
        f"model: {model_for('buck_euchre')} =="
    )
    elapsed, rated, _, _ = timed_rebuild(big.scope)
    print(f"first rating, no history yet:  {elapsed:7.2f} s ({rated:,} games rated)")
    games = games_in_memory(big.scope)
    assert len(games) == rated, (len(games), rated)
    # alternate the two, so that both see the same spells of a busy machine
    runs, loops = [], []
    for _ in range(args.repeat):
        runs.append(timed_rebuild(big.scope))
        loops.append(bare_loop(games))
    service, rated, timer, blocked = min(runs, key=lambda run: run[0])
    listed = ", ".join(f"{run[0]:.2f}" for run in runs)
    print(f"(a) ratings_rebuild, history in place: {service:7.2f} s (best of {listed})")
    print(
        f"    blocked on PostgreSQL {blocked:.2f} s ({100 * blocked / service:.0f} %), "
        f"running Python {service - blocked:.2f} s\n    the statements Django executed, and the "
        "commit (the COPY of the history, which streams as the games are rated, is not "
        "among them):"
    )
    for kind, seconds in timer.statements:
        print(f"      {seconds:7.3f} s  {kind}")

    bare, final = min(loops, key=lambda loop: loop[0])
    listed = ", ".join(f"{loop[0]:.2f}" for loop in loops)
    print(
        f"(b) the model's bare loop:  {bare:7.2f} s (best of {listed}; "
        f"{1e6 * bare / len(games):.0f} us a game)"
    )

    stored = {r.player_id: r for r in Rating.objects.filter(scope=big.scope)}
    worst = max(
        max(abs(stored[p].mu - r.mu), abs(stored[p].sigma - r.sigma)) for p, r in final.items()
    )
    assert stored.keys() == final.keys() and worst < 1e-9, worst
    histories = RatingHistory.objects.filter(scope=big.scope).count()
    print(
        f"    same ratings as the service's for all {len(final):,} players "
        f"(largest difference {worst:.1e}); {histories:,} history rows stored"
    )
    ratio = service / bare
    verdict = "meets" if ratio <= TARGET else "misses"
    print(f"ratio (a)/(b): {ratio:.2f} ({verdict} the target of at most {TARGET}x)")
    paired = sorted(run[0] / loop[0] for run, loop in zip(runs, loops, strict=True))
    print(
        "    each repeat's own ratio (a run and the loop right after it): "
        + ", ".join(f"{r:.2f}" for r in paired)
        + f"; median {statistics.median(paired):.2f}"
    )


@dataclass
class Refresh:
    games: int
    mark_queries: int
    rated: int
    history_created: int
    history_deleted: int
    ratings_changed: int
    ratings_created: int
    ratings_deleted: int
    queries: list[str]
    seconds: float


def one_new_game(league: League, seed: int) -> Refresh:
    """A complete table after all others, marked and refreshed; what the job wrote."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from league import ratings
    from league.models import Event, Rating, RatingHistory, Round, Seating

    rng = random.Random(seed)

    def snapshot() -> dict[int, tuple[Any, ...]]:
        return {
            r.player_id: (r.pk, r.mu, r.sigma, r.ordinal, r.games)
            for r in Rating.objects.filter(scope=league.scope)
        }

    before = snapshot()
    seated = rng.sample(sorted(before), SEATS)
    totals, places = outcome(rng, [0.0] * SEATS)
    with transaction.atomic():
        event = Event.objects.create(
            league=league.league,
            name="One more night",
            date=league.last_night + datetime.timedelta(1),
        )
        round_ = Round.objects.create(event=event, number=1)
        table = complete_table(round_.pk, 1, seated, totals, hands=9)
        table.save()
        Seating.objects.bulk_create(
            Seating(
                table=table,
                round=round_,
                seat=seat,
                player_id=player,
                total=totals[seat],
                place=places[seat],
                **counts_without_lines(9),
            )
            for seat, player in enumerate(seated)
        )
    with transaction.atomic(), CaptureQueriesContext(connection) as marking:
        ratings.ratings_mark_changed(table=table)

    history = RatingHistory.objects.filter(scope=league.scope)
    count, newest = history.count(), history.order_by("-pk").values_list("pk", flat=True)[0]
    with CaptureQueriesContext(connection) as refreshing:
        began = time.perf_counter()
        rated = ratings.ratings_refresh(scope_id=league.scope.pk)
        seconds = time.perf_counter() - began
    created = history.filter(pk__gt=newest).count()
    after = snapshot()
    return Refresh(
        games=league.games,
        mark_queries=len(marking.captured_queries),
        rated=rated,
        history_created=created,
        history_deleted=count + created - history.count(),
        ratings_changed=sum(1 for p in before.keys() & after.keys() if before[p] != after[p]),
        ratings_created=len(after.keys() - before.keys()),
        ratings_deleted=len(before.keys() - after.keys()),
        queries=[describe(q["sql"]) for q in refreshing.captured_queries],
        seconds=seconds,
    )


def new_game_costs(big: League, small: League, seed: int) -> None:
    from league import ratings

    began = time.perf_counter()
    ratings.ratings_rebuild(scope=small.scope)
    print(
        f"\n== one new game at the end (the small league first rated in "
        f"{time.perf_counter() - began:.2f} s) =="
    )
    results = [one_new_game(league, seed + n) for n, league in enumerate((big, small))]
    rows = [
        ("games in the league before", lambda r: f"{r.games:,}"),
        ("queries of ratings_mark_changed", lambda r: r.mark_queries),
        ("games re-rated by ratings_refresh", lambda r: r.rated),
        ("rating history rows created", lambda r: r.history_created),
        ("rating history rows deleted", lambda r: r.history_deleted),
        ("rating rows changed", lambda r: r.ratings_changed),
        ("rating rows created / deleted", lambda r: f"{r.ratings_created} / {r.ratings_deleted}"),
        ("SQL queries of ratings_refresh", lambda r: len(r.queries)),
        ("time of ratings_refresh", lambda r: f"{1000 * r.seconds:.1f} ms"),
    ]
    print(f"  {'':36} {'big league':>14} {'small league':>14}")
    for label, value in rows:
        print(f"  {label:36} {value(results[0])!s:>14} {value(results[1])!s:>14}")
    same = results[0].queries == results[1].queries
    print(f"  the queries, {'the same' if same else 'NOT the same'} for both:")
    for kind in results[0].queries:
        print(f"    {kind}")
    if not same:
        for kind in results[1].queries:
            print(f"    (small) {kind}")
    counts = {
        (
            r.history_created,
            r.history_deleted,
            r.ratings_changed,
            r.ratings_created,
            r.ratings_deleted,
            len(r.queries),
        )
        for r in results
    }
    expected = {(SEATS, 0, SEATS, 0, 0, len(results[0].queries))}
    verdict = "constant" if counts == expected else "NOT constant"
    print(f"  rows written and queries: {verdict} ({SEATS} history rows, {SEATS} ratings)")


def profile(big: League, top: int = 15) -> None:
    from league import ratings

    profiler = cProfile.Profile()
    profiler.enable()
    began = time.perf_counter()
    ratings.ratings_rebuild(scope=big.scope)
    elapsed = time.perf_counter() - began
    profiler.disable()
    stats = pstats.Stats(profiler)
    rate = sum(
        entry[3]
        for (path, _, name), entry in stats.stats.items()  # type: ignore[attr-defined]
        if path.endswith("rating_model.py") and name == "rate_games"
    )
    print(
        f"\n== cProfile of one more full re-rating: {elapsed:.2f} s under the profiler, "
        f"{rate:.2f} s ({100 * rate / elapsed:.0f} %) in the model's rate_games() =="
    )
    for order, count in (("cumulative", top), ("tottime", 10)):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(count)
        text = out.getvalue()
        text = text[text.index("   ncalls") :]
        print(f"-- top {count} by {order} time --")
        print(shorten_paths(text).rstrip())


def shorten_paths(text: str) -> str:
    """The profile's file names from the repository or the installed packages, relative."""
    for prefix in sorted(
        {str(REPO) + os.sep, *(p + os.sep for p in sys.path if p)}, key=len, reverse=True
    ):
        text = text.replace(prefix, "")
    return text


def run(args: argparse.Namespace) -> int:
    print(
        f"{os.cpu_count()} CPUs; Python {sys.version.split()[0]}; --games {args.games:,} "
        f"--small-games {args.small_games:,} --players {args.players:,} --repeat {args.repeat}"
    )
    began = time.perf_counter()
    with fresh_database(args.server, args.database) as url:
        setup_django(url)
        try:
            big, small = load(args)
            full_rerating(big, args)
            new_game_costs(big, small, args.seed + 10)
            if args.profile:
                profile(big)
        finally:
            from django.db import connections

            connections.close_all()
    print(f"whole run: {time.perf_counter() - began:.0f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="of the big league (100000)")
    parser.add_argument("--small-games", type=int, default=1_000, help="of the small league (1000)")
    parser.add_argument("--players", type=int, default=2_000, help="of the club (2000)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each measurement (5)")
    parser.add_argument("--seed", type=int, default=2026, help="of the synthetic data (2026)")
    parser.add_argument(
        "--no-profile", dest="profile", action="store_false", help="skip the cProfile run"
    )
    parser.add_argument("--database", default="league_bench_ratings", help="created and dropped")
    parser.add_argument(
        "--server",
        default="postgres://postgres@127.0.0.1:5432",
        help="PostgreSQL server URL, without a database (postgres://postgres@127.0.0.1:5432)",
    )
    args = parser.parse_args(argv)
    needed = SEATS * TABLES_PER_ROUND
    if args.players < needed or args.games < 1 or args.small_games < 1 or args.repeat < 1:
        parser.error(
            f"--players must be {needed} or more, --games, --small-games and --repeat 1 or more"
        )
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
