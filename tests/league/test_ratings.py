"""Ratings: rated in play order, re-rated from a changed game forward, the
same as from scratch, idempotent, ties equal."""

from __future__ import annotations

import datetime
import gc
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import rating_model, ratings
from league.models import Game, Rating, RatingHistory, RatingScope, RatingsOwed, Table
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import hand_correct, hand_delete_last, hand_submit
from tests.support.factories import ClubFactory, PlayerFactory
from tests.support.records import bluke_results, buck_takes_all

pytestmark = pytest.mark.django_db

_on_commit: Any = None


@pytest.fixture(autouse=True)
def run_jobs_on_commit(django_capture_on_commit_callbacks: Any) -> None:
    """The tests run inside a transaction that never commits: run the jobs
    the results service schedules on commit as each change returns."""
    global _on_commit
    _on_commit = django_capture_on_commit_callbacks


def change(service: Any, **kwargs: Any) -> Any:
    with _on_commit(execute=True):
        return service(**kwargs)


def snapshot(scope: RatingScope) -> dict[str, Any]:
    return {
        "ratings": sorted(
            Rating.objects.filter(scope=scope).values_list("player_id", "mu", "sigma", "games")
        ),
        "history": sorted(
            RatingHistory.objects.filter(scope=scope).values_list(
                "player_id", "table_id", "order_key", "mu", "sigma", "games"
            )
        ),
    }


class Night:
    """A Buck Euchre league with players and one table per event night."""

    def __init__(self, players: int = 6) -> None:
        self.club = ClubFactory()
        self.players = [PlayerFactory(club=self.club) for _ in range(players)]
        self.league = league_create(club=self.club, name="Cup", game=Game.BUCK_EUCHRE)

    def table(self, day: int, seats: list[int], *, number: int = 1) -> Table:
        event = event_create(
            league=self.league, name=f"Night {day}", date=datetime.date(2026, 10, day)
        )
        return table_create(
            round=event.rounds.get(), number=number, players=[self.players[s] for s in seats]
        )

    def three_games(self) -> list[Table]:
        """Players 0 to 3 on three nights, seat 0, then 1, then 2 taking all."""
        tables = [self.table(day, [0, 1, 2, 3]) for day in (1, 2, 3)]
        for seat, table in enumerate(tables):
            change(hand_submit, table=table, record=buck_takes_all(seat))
        return tables

    def scope(self) -> RatingScope:
        return RatingScope.objects.get(league=self.league)


def test_a_complete_game_rates_its_players_in_both_scopes() -> None:
    night = Night()
    table = night.table(1, [0, 1, 2, 3])
    change(hand_submit, table=table, record=buck_takes_all(2))
    scope = night.scope()
    assert scope.rerate_from is None and scope.rated_at is not None
    board = ratings.leaderboard(scope=scope)
    assert board[0].player == night.players[2]
    assert {r.games for r in board} == {1}
    # the board's figure: mu less 3 x the part of sigma above the provisional threshold
    # (mu - 3 sigma before issue 32)
    settled = rating_model.model_for(Game.BUCK_EUCHRE).provisional_sigma
    assert all(r.ordinal == pytest.approx(r.mu - 3 * (r.sigma - settled)) for r in board)
    assert all(r.sigma > settled for r in board)  # one game each: all provisional
    club_wide = RatingScope.objects.get(club=night.club, game=Game.BUCK_EUCHRE, league=None)
    assert snapshot(club_wide)["ratings"] == snapshot(scope)["ratings"]
    history = ratings.history_of(scope=scope, player=night.players[2])
    assert [(h.table_id, h.games) for h in history] == [(table.pk, 1)]


def test_games_are_rated_in_the_order_played_whatever_the_order_submitted() -> None:
    night = Night()
    late = night.table(20, [0, 1, 2, 3])
    early = night.table(5, [0, 1, 4, 5])
    change(hand_submit, table=late, record=buck_takes_all(0))
    change(hand_submit, table=early, record=buck_takes_all(3))
    scope = night.scope()
    submitted = snapshot(scope)
    history = ratings.history_of(scope=scope, player=night.players[0])
    assert [h.table_id for h in history] == [early.pk, late.pk]
    ratings.ratings_rebuild(scope=scope)
    assert snapshot(scope) == submitted


def test_a_correction_re_rates_from_that_game_and_equals_a_rating_from_scratch() -> None:
    night = Night()
    tables = night.three_games()
    scope = night.scope()
    before = snapshot(scope)
    first = tables[0]
    first.refresh_from_db()
    change(
        hand_correct,
        table=first,
        number=0,
        record=buck_takes_all(3),
        version=first.version,
    )
    corrected = snapshot(scope)
    assert corrected != before
    ratings.ratings_rebuild(scope=scope)
    assert snapshot(scope) == corrected


def test_a_re_rating_owed_while_the_job_runs_stays_owed_for_the_next_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game completed while the job runs owes its row then; the job, which
    read what was owed before, deletes only the rows it read."""
    night = Night()
    tables = [night.table(day, [0, 1, 2, 3]) for day in (1, 2, 3)]
    for seat, table in enumerate(tables[:2]):
        change(hand_submit, table=table, record=buck_takes_all(seat))
    scope = night.scope()
    scope_games = ratings.scope_games

    def games_then_a_game_completes(*args: Any, **kwargs: Any) -> Any:
        games = scope_games(*args, **kwargs)  # read: the game below is not among them
        with _on_commit(execute=False):
            hand_submit(table=tables[2], record=buck_takes_all(2))
        return games

    RatingsOwed.objects.create(scope=scope, rerate_from=ratings.EARLIEST, owed_at=timezone.now())
    monkeypatch.setattr(ratings, "scope_games", games_then_a_game_completes)
    assert ratings.ratings_refresh(scope_id=scope.pk) == 2  # the two games it read
    monkeypatch.undo()
    left = list(RatingsOwed.objects.filter(scope=scope).values_list("rerate_from", flat=True))
    assert left == [ratings.order_key(tables[2])]  # the game completed meanwhile
    assert ratings.ratings_refresh(scope_id=scope.pk) == 1
    assert not RatingsOwed.objects.filter(scope=scope).exists()
    caught_up = snapshot(scope)
    ratings.ratings_rebuild(scope=scope)
    assert snapshot(scope) == caught_up


def test_the_job_deletes_every_row_it_read_however_many(monkeypatch: pytest.MonkeyPatch) -> None:
    """An import owes a row a game; the rows go in statements of a bounded
    number of parameters."""
    night = Night()
    table = night.table(1, [0, 1, 2, 3])
    change(hand_submit, table=table, record=buck_takes_all(0))
    scope = night.scope()
    key = ratings.order_key(table)
    RatingsOwed.objects.bulk_create(
        RatingsOwed(scope=scope, rerate_from=key, owed_at=timezone.now()) for _ in range(5)
    )
    monkeypatch.setattr(ratings, "OWED_DELETE_BATCH", 2)
    with CaptureQueriesContext(connection) as done:
        assert ratings.ratings_refresh(scope_id=scope.pk) == 1
    sql = [query["sql"] for query in done.captured_queries]
    deletes = [text for text in sql if "DELETE" in text and "ratingsowed" in text]
    assert len(deletes) == 3  # 2, 2 and 1 of the 5 rows
    assert not RatingsOwed.objects.exists()


def test_rating_twice_gives_identical_results_and_a_second_job_does_nothing() -> None:
    night = Night()
    for day in (1, 2):
        change(hand_submit, table=night.table(day, [0, 1, 2, 3]), record=buck_takes_all(day))
    scope = night.scope()
    first = snapshot(scope)
    assert ratings.ratings_refresh(scope_id=scope.pk) == 0
    ratings.ratings_rebuild(scope=scope)
    assert snapshot(scope) == first
    assert gc.get_freeze_count() == 0 and gc.isenabled()


def test_tied_players_get_equal_updates() -> None:
    night = Night()
    table = night.table(1, [0, 1, 2, 3])
    # seat 2 takes all: seats 0, 1 and 3 finish on equal scores and share a place
    change(hand_submit, table=table, record=buck_takes_all(2))
    rows = {r.player_id: r for r in Rating.objects.filter(scope=night.scope())}
    tied = [rows[night.players[s].pk] for s in (0, 1, 3)]
    assert len({(r.mu, r.sigma) for r in tied}) == 1


def test_a_game_that_stops_being_complete_leaves_the_ratings() -> None:
    night = Night()
    kept = night.table(1, [0, 1, 2, 3])
    reopened = night.table(2, [0, 1, 4, 5])
    change(hand_submit, table=kept, record=buck_takes_all(0))
    only_kept = snapshot(night.scope())
    change(hand_submit, table=reopened, record=buck_takes_all(1))
    reopened.refresh_from_db()
    change(hand_delete_last, table=reopened, number=0, version=reopened.version)
    assert snapshot(night.scope()) == only_kept
    assert not Rating.objects.filter(scope=night.scope(), player=night.players[4]).exists()


def test_club_wide_ratings_span_the_leagues_of_a_game() -> None:
    night = Night()
    other = league_create(club=night.club, name="Cup 2", game=Game.BUCK_EUCHRE)
    change(hand_submit, table=night.table(1, [0, 1, 2, 3]), record=buck_takes_all(0))
    event = event_create(league=other, name="Away", date=datetime.date(2026, 10, 2))
    away = table_create(
        round=event.rounds.get(), number=1, players=[night.players[s] for s in (0, 1, 4, 5)]
    )
    change(hand_submit, table=away, record=buck_takes_all(0))
    club_wide = RatingScope.objects.get(club=night.club, game=Game.BUCK_EUCHRE, league=None)
    games = {r.player_id: r.games for r in Rating.objects.filter(scope=club_wide)}
    assert games[night.players[0].pk] == 2
    assert games[night.players[4].pk] == 1
    assert Rating.objects.get(scope__league=night.league, player=night.players[0]).games == 1


def test_one_new_game_at_the_end_writes_only_its_own_rows(
    django_assert_max_num_queries: Any,
) -> None:
    night = Night(players=12)
    for day in range(1, 9):
        seats = [(day + k) % 12 for k in range(4)]
        change(hand_submit, table=night.table(day, seats), record=buck_takes_all(day % 4))
    scope = night.scope()
    rows = RatingHistory.objects.filter(scope=scope).values_list(
        "order_key", "player_id", "table_id", "mu", "sigma", "games"
    )
    before = set(rows)
    late = night.table(28, [0, 3, 6, 9])
    change(hand_submit, table=late, record=buck_takes_all(1))
    after = set(rows.all())
    assert before < after
    assert sorted(table for _, _, table, *_ in after - before) == [late.pk] * 4


def test_a_bluke_game_at_the_end_reads_the_kept_means_not_the_whole_league() -> None:
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(4)]
    league = league_create(club=club, name="Bluke", game=Game.BLUKE, options={"max_cards": 1})
    tables = []
    for day in (1, 2, 3, 4):
        event = event_create(league=league, name=f"N{day}", date=datetime.date(2026, 10, day))
        tables.append(table_create(round=event.rounds.get(), number=1, players=players))
    for day, table in enumerate(tables[:3]):
        change(hand_submit, table=table, record=bluke_results(1, winner=day))
    scope = RatingScope.objects.get(league=league)
    assert scope.means == {"4/1": [sum(table_totals(t) for t in tables[:3]), 12]}
    assert scope.means_through == ratings.order_key(tables[2])

    with _on_commit(execute=False):  # stored, its job not run yet
        hand_submit(table=tables[3], record=bluke_results(1, winner=3))
    with CaptureQueriesContext(connection) as at_the_end:
        assert ratings.ratings_refresh(scope_id=scope.pk) == 1
    assert not any("SUM(" in q["sql"].upper() for q in at_the_end.captured_queries)
    scope.refresh_from_db()
    assert scope.means["4/1"][1] == 16 and scope.means_through == ratings.order_key(tables[3])
    kept = snapshot(scope)
    ratings.ratings_rebuild(scope=scope)  # from the start: the means added up again
    assert snapshot(scope) == kept

    # a re-rating from the middle adds up the games before it instead
    RatingScope.objects.filter(pk=scope.pk).update(rerate_from=ratings.order_key(tables[1]))
    with CaptureQueriesContext(connection) as in_the_middle:
        ratings.ratings_refresh(scope_id=scope.pk)
    assert any("SUM(" in q["sql"].upper() for q in in_the_middle.captured_queries)
    assert snapshot(scope) == kept


def table_totals(table: Table) -> int:
    table.refresh_from_db()
    return sum(table.totals)


def test_each_rating_remembers_the_key_of_its_players_latest_game() -> None:
    night = Night()
    tables = [night.table(day, [0, 1, 2, 3] if day < 3 else [0, 1, 4, 5]) for day in (1, 2, 3)]
    for table in tables:
        change(hand_submit, table=table, record=buck_takes_all(0))
    latest = {r.player_id: r.last_order_key for r in Rating.objects.filter(scope=night.scope())}
    keys = [ratings.order_key(t) for t in tables]
    assert latest[night.players[0].pk] == keys[2]
    assert latest[night.players[2].pk] == keys[1]
    assert latest[night.players[4].pk] == keys[2]


def test_order_keys_sort_as_date_round_table_whatever_the_widths() -> None:
    made = [
        ratings._key("2026-10-01", 9_999, 32_767, 10**12),
        ratings._key("2026-10-01", 10_000, 1, 1),
        ratings._key("2026-10-01", 32_767, 1, 2**63 - 1),
        ratings._key("2026-10-02", 1, 1, 1),
    ]
    assert sorted(made) == made
    assert {len(key) for key in made} == {ratings.KEY_LENGTH}


def test_a_job_that_fails_midway_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    night = Night()
    night.three_games()
    scope = night.scope()
    before = snapshot(scope)

    class StoppedOnTheThirdGame:
        """The rating model, until the worker stops in the middle of the job."""

        def __init__(self) -> None:
            self.games = 0

        def __getattr__(self, name: str) -> Any:
            return getattr(model, name)

        def rate_games(self, *args: Any, **kwargs: Any) -> Any:
            for rated in model.rate_games(*args, **kwargs):
                self.games += 1
                if self.games > 2:
                    raise RuntimeError("the worker was stopped")
                yield rated

    model = rating_model.MODELS["buck_euchre"]
    monkeypatch.setitem(rating_model.MODELS, "buck_euchre", StoppedOnTheThirdGame())
    monkeypatch.setattr(ratings._HistoryWriter, "BATCH", 4)  # a batch is written before the failure
    with pytest.raises(RuntimeError, match="stopped"):
        ratings.ratings_rebuild(scope=scope)
    assert snapshot(scope) == before
    assert gc.get_freeze_count() == 0 and gc.isenabled()  # the collector is back


# -- the API --------------------------------------------------------------------------------


def test_the_leaderboard_and_history_through_the_api() -> None:
    from rest_framework.test import APIClient

    night = Night()
    first = night.table(1, [0, 1, 2, 3])
    change(hand_submit, table=first, record=buck_takes_all(1))
    client = APIClient()

    board = client.get(f"/api/leagues/{night.league.pk}/ratings/").json()
    assert board["status"] == "up_to_date"
    assert board["provisional_above_sigma"] == rating_model.MODELS["buck_euchre"].provisional_sigma
    assert board["results"][0]["player"] == night.players[1].pk
    assert all(row["provisional"] for row in board["results"])
    ordinals = [row["ordinal"] for row in board["results"]]
    assert ordinals == sorted(ordinals, reverse=True)

    club_wide = client.get(f"/api/clubs/{night.club.pk}/ratings/", {"game": "buck_euchre"})
    assert [r["player"] for r in club_wide.json()["results"]] == [
        r["player"] for r in board["results"]
    ]
    assert client.get(f"/api/clubs/{night.club.pk}/ratings/").status_code == 400

    second = night.table(2, [1, 2, 4, 5])
    change(hand_submit, table=second, record=buck_takes_all(0))
    history = client.get(
        f"/api/players/{night.players[1].pk}/rating-history/", {"league": night.league.pk}
    ).json()["history"]
    assert [(p["table"], p["date"], p["games"]) for p in history] == [
        (first.pk, "2026-10-01", 1),
        (second.pk, "2026-10-02", 2),
    ]
    by_game = client.get(
        f"/api/players/{night.players[1].pk}/rating-history/", {"game": "buck_euchre"}
    ).json()["history"]
    assert [p["mu"] for p in by_game] == [p["mu"] for p in history]
    both = client.get(
        f"/api/players/{night.players[1].pk}/rating-history/",
        {"game": "buck_euchre", "league": night.league.pk},
    )
    assert both.status_code == 400


def test_the_leaderboard_says_pending_until_the_job_has_run() -> None:
    from rest_framework.test import APIClient

    night = Night()
    table = night.table(1, [0, 1, 2, 3])
    hand_submit(table=table, record=buck_takes_all(1))  # its jobs wait for a commit
    board = APIClient().get(f"/api/leagues/{night.league.pk}/ratings/").json()
    assert (board["status"], board["results"]) == ("pending", [])
    ratings.ratings_refresh(scope_id=night.scope().pk)
    board = APIClient().get(f"/api/leagues/{night.league.pk}/ratings/").json()
    assert board["status"] == "up_to_date"
    assert len(board["results"]) == 4
    # the club-wide scope's job has not run: its board says so
    club_board = f"/api/clubs/{night.club.pk}/ratings/"
    assert APIClient().get(club_board, {"game": "buck_euchre"}).json()["status"] == "pending"
    club_wide = RatingScope.objects.get(club=night.club, league=None)
    ratings.ratings_refresh(scope_id=club_wide.pk)
    assert APIClient().get(club_board, {"game": "buck_euchre"}).json()["status"] == "up_to_date"
