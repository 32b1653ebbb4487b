"""The scale benchmark (benchmarks/scale.py) on a tiny league, so that it cannot rot: its
loader stores what the results service stores, and every measurement runs and fills its
table. On whichever database the suite runs on (``COPY`` on PostgreSQL, ``bulk_create``
elsewhere); figures are printed by the benchmark, never asserted here."""

from __future__ import annotations

from typing import Any

import pytest

import games
from benchmarks import scale
from league.models import (
    SEATING_COUNTS,
    Hand,
    HandSeat,
    JobOwed,
    Rating,
    Seating,
    Standing,
    Table,
)
from league.services.clubs import club_create
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import game_submit

SMALL = scale.Size(games=8, players=12, nights=2)
"""Two tables a round, one night of games, and a night of tables to finish."""
HAND_FIELDS = ("number", "dealer", "cards", "trump", "maker", "drops", "takes_all", "is_move_log")
LINE_FIELDS = ("seat", "player_id", "dropped", "bid", "tricks", "points", "total")


def _templates(count: int) -> list[scale.Template]:
    league = league_create(club=club_create(name="Templates"), name="Bluke", game="bluke")
    return scale.make_templates(league, count, seed=7)


def _stored(table: Table) -> tuple[list[Any], list[Any], list[Any]]:
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    lines = list(
        HandSeat.objects.filter(hand__table=table)
        .order_by("hand__number", "seat")
        .values_list(*LINE_FIELDS)
    )
    seats = list(
        Seating.objects.filter(table=table)
        .order_by("seat")
        .values_list("total", "place", *SEATING_COUNTS)  # the loader counts in Python
    )
    return (
        [tuple(getattr(hand, f) for f in (*HAND_FIELDS, "record")) for hand in hands],
        lines,
        seats,
    )


@pytest.mark.django_db
def test_the_loader_stores_what_the_results_service_stores() -> None:
    templates = _templates(2)  # one kept card by card, one results only
    assert [t.card_by_card for t in templates] == [True, False]
    loaded = scale.load(SMALL, templates=templates, repeat=1, seed=3)
    league = loaded.league
    complete = Table.objects.filter(round__event__league=league, complete=True).select_related(
        "round__event"
    )
    assert complete.count() == SMALL.games
    # each game again, through the service, in a round of its own (a player sits once a round)
    event = event_create(league=league, name="Again", date=scale.LAST_NIGHT, rounds=SMALL.games)
    for number, table in enumerate(complete, start=1):
        (template,) = [t for t in templates if t.first_dealer == table.first_dealer]
        players = [p.player_id for p in table.seatings.order_by("seat")]
        assert table.seat_players == players
        assert (table.hands_played, table.version) == (scale.HANDS, scale.HANDS)
        again = table_create(
            round=event.rounds.get(number=number),
            number=1,
            players=[league.club.players.get(pk=p) for p in players],
            first_dealer=table.first_dealer,
        )
        again = game_submit(table=again, record={"hands": template.records})
        assert again.complete and again.totals == table.totals
        loaded_hands, loaded_lines, loaded_seats = _stored(table)
        hands, lines, seats = _stored(again)
        assert loaded_hands == hands
        assert loaded_lines == lines
        assert loaded_seats == seats
        # and the engine, reading the stored records as one game, agrees
        answer = games.check_record(
            {
                "game": "bluke",
                "players": scale.SEATS,
                "first_dealer": table.first_dealer,
                "hands": [hand[-1] for hand in loaded_hands],
            }
        )
        assert answer["ok"] and answer["totals"] == table.totals
    # the tables the measurements finish, as far as they have played
    for drawn in [*loaded.middle, *loaded.last_by_post, *loaded.last_in_process]:
        table = Table.objects.get(pk=drawn.table_id)
        assert not table.complete and table.hands_played == drawn.hands
        assert table.totals == drawn.template.totals_after(drawn.hands)
        assert Hand.objects.filter(table=table).count() == drawn.hands
    played = Seating.objects.filter(table__in=complete).values("player_id").distinct().count()
    assert Standing.objects.filter(league=league, event=None).count() == played
    assert Rating.objects.filter(scope_id__in=loaded.scope_ids).count() == 2 * played


@pytest.mark.django_db(transaction=True)
def test_the_tiny_benchmark_measures_everything_it_reports(archives_dir: Any) -> None:
    said: list[str] = []
    size = scale.SIZES[scale.TINY]
    figures, beside = scale.measure(
        [size],
        web=scale.InProcessWeb,
        repeat=1,
        requests=1,
        template_count=10,
        seed=11,
        say=said.append,
        clubs=2,
        club_size=SMALL,
    )
    league = figures.loaded.league
    assert said[0].startswith("10 games played by the bot")
    assert said[-1].startswith("2 clubs of 8 games loaded")
    assert beside.loaded.label == "8 games, beside 2 clubs" and beside.pages == {
        label: beside.pages[label] for label in figures.pages
    }
    finished = 1 + 1  # a POST and a service call
    assert Table.objects.filter(round__event__league=league, complete=True).count() == (
        size.games + finished
    )
    assert HandSeat.objects.filter(hand__table__round__event__league=league).count() == (
        scale.SEATS * Hand.objects.filter(table__round__event__league=league).count()
    )
    assert not JobOwed.objects.exists()
    assert len(figures.middle_post) == len(figures.last_post) == len(figures.owed_done) == 1
    standings_job = figures.jobs["league_standings_refresh"]
    ratings_jobs = figures.jobs["ratings_refresh"]
    assert len(standings_job.seconds) == 1 and standings_job.queries[0] > 0
    assert len(ratings_jobs.seconds) == 2  # the league's scope and the club-wide one
    assert set(figures.pages) == set(scale.pages(figures.loaded))
    kinds = set()
    for label, page in figures.pages.items():
        assert page is not None, label
        assert page.raw > 0 and page.queries > 0 and page.status == 200, label
        if page.raw > 1024:  # a few hundred bytes (one player's row) may not shrink: sent as is
            assert page.compressed and page.sent_gzip < page.raw, label
        kinds.add(page.kind)
    assert kinds == {"page", "api", "feed", "download", "night download"}
    for made in (*figures.archives.values(), *beside.archives.values()):
        assert made.complete and made.lines > 1 and made.packed < made.raw
    assert set(figures.archives) == set(scale.ARCHIVE_KINDS)

    table = scale.report([figures, beside], web_name=scale.InProcessWeb.name)
    lines = table.splitlines()
    assert [cell.strip() for cell in lines[0].split("|")[2:4]] == [
        "200 games",
        "8 games, beside 2 clubs",
    ]
    # the head and rule, four figures of the results, two jobs, the pages, the two files,
    # the worst three
    assert len(lines) == 2 + 4 + 2 + len(figures.pages) + 2 + 3
    shown = {label: page for label, page in figures.pages.items() if page.kind in ("page", "api")}  # type: ignore[union-attr]
    largest = max(shown, key=lambda label: shown[label].raw)  # type: ignore[union-attr]
    assert lines[-3].split("|")[2].strip().endswith(f": {largest}")
    assert lines[-2].split("|")[1].strip().startswith("slowest page or API answer")
    assert (
        lines[-1]
        .split("|")[2]
        .strip()
        .endswith(("night standings (CSV)", "night games (CSV)", "night games (JSON Lines)"))
    )
    for line in lines[2:]:
        for cell in line.split("|")[2:4]:
            assert cell.strip() and cell.strip() != "-", line


def test_the_sizes_are_the_issues() -> None:
    assert [(s.games, s.players, s.nights) for s in scale.SIZES.values()] == [
        (200, 40, 6),
        (1_000, 50, 22),
        (10_000, 500, 101),
        (100_000, 2_000, 1_001),
    ]
    # four rounds a night, every night but the last full: the size's games fit
    for size in scale.SIZES.values():
        assert (size.nights - 1) * scale.ROUNDS * size.tables_per_round >= size.games
        size.check(repeat=5)
    with pytest.raises(SystemExit, match="too few players"):
        scale.Size(games=1_000, players=20, nights=3).check(repeat=1)
