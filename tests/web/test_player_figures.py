"""The player page's figures of each game, from a small league worked out by hand and
entered through the services (standings and ratings by their jobs): what the
selector reads (league/selectors/player_stats.py) reaches the page, in a fixed number
of queries. Each figure's rule is tested on rows alone in
tests/league/test_player_stats.py.

Pat plays with Ada, Bo, Cy and Di in a Bluke league of hands of 2, 1 and 2 cards
(bids, tricks by seat; each seat as listed):

- Night 1, 1 Sep, round 1: Pat, Ada, Bo, Cy. Hand 1: bids 1 1 1 1, tricks 1 1 0 0
  (Pat +10); hand 2: bids 1 1 1 1, tricks 0 1 0 0 (Pat -10); hand 3: bids 2 1 1 1,
  tricks 2 0 0 0 (Pat +20). Totals 20, 10, -30, -30: Pat first.
- Night 1, round 2: Pat, Ada, Bo, Di. Bids 1 2 1 1, tricks 0 2 0 0 (Pat -10); bids
  1 1 1 1, tricks 0 0 1 0 (-10); bids 1 1 1 1, tricks 1 0 0 1 (+10). Totals -10, 0,
  -10, -10: Ada first, the other three second.
- Night 2, 8 Sep: Pat, Ada, Cy, Di. Bids 1 1 1 1, tricks 2 0 0 0 (Pat +11: one
  overtrick); bids 1 1 1 1, tricks 1 0 0 0 (+10); bids 2 1 1 1, tricks 0 1 1 0 (-20).
  Totals 1, -10, -10, -30: Pat first, Ada and Cy second.

Pat: wins 1 0 1 (longest 1, now 1); top half 3 in a row. Head to head, Pat's total less
theirs: Ada, 3 games, ahead 2, behind 1, 10 - 10 + 11 = 11 (+3.7 a game): the rival; no
nemesis (Ada is ahead in 1 of 3). Cy, 2 games, ahead 2, 50 + 11 = 61 (+30.5). Di, ahead
1, level 1, 0 + 31 (+15.5). Bo, ahead 1, level 1, 50 + 0 (+25.0). Order: Ada (3 games),
then Cy and Di (last met on night 2; by name), then Bo. Form: night 1 places 1 2 (10
points), night 2 place 1 (1). Highest total 20. Bids made (M made, x missed): M x M,
x x M, M M x: 5 of 9; one card 1 of 3, two cards 4 of 6; one overtrick; most in a row
3 (night 1's last to night 2's second), now 0.

And a Buck Euchre league (Pat, Ada, Bo, Cy; the move logs of tests/support/records.py):
night 1 (2 Sep), round 1, seats Ada, Bo, Cy, Pat: BUCK_DROP_RIGHT (Bo orders hearts and
takes all five; Pat drops: Bo 20 first, Pat 25 second, Ada and Cy 30 third); round 2,
the same seats, BUCK_DROP_WRONG, the same places. Night 2 (9 Sep),
seats Pat, Ada, Bo, Cy, hands as results: spades made by Pat, tricks 3 1 1 0 (Pat -3;
Cy bucked +5); hearts made by Ada, tricks 0 2 2 1 (Pat bucked as a player +5, Ada
bucked as maker +3); diamonds made by Pat, tricks 2 1 1 1 (Pat bucked as maker +3);
spades made by Pat, tricks 5 0 0 0 (the others bucked; Pat takes all and wins).
Totals 25, 31, 26, 33: Pat first, Bo, Ada, Cy.

Pat: made trump 3 of 6 hands, took 3 or more in 2 (67 %); bucked as maker 1, as a
player 1; dropped 2 of 6 (33 %), judged 2, right 1 (50 %). Head to head: Ada 3 games,
ahead 3, 25 - 30, 25 - 30, 25 - 31: 16 fewer, 5.3 fewer a game; Bo 3 games, behind 2
(the nemesis: ahead of Pat in 2 of 3), 5 + 5 - 1 = 9, 3.0 more; Cy ahead 3, -5 - 5 - 8,
6.0 fewer. Lowest final score 25 (the first game). Wins 0 0 1; top half 3 in a row.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league.models import Event, Game, League, Player, RatingHistory, Table
from league.rating_model import Skill, model_for
from league.services.fixtures import event_create, league_create, table_create
from league.services.results import game_submit
from tests.support.factories import ClubFactory, PlayerFactory
from tests.support.records import BUCK_DROP_RIGHT, BUCK_DROP_WRONG
from tests.support.tree import Element, page, rows_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    def run(service: Callable[..., Any], **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return run


def bluke_hand(bids: Sequence[int], tricks: Sequence[int]) -> dict[str, Any]:
    return {"trump": "S", "bids": list(bids), "tricks": list(tricks)}


def buck_hand(trump: str, maker: int, tricks: Sequence[int]) -> dict[str, Any]:
    return {"trump": trump, "maker": maker, "tricks": list(tricks)}


BLUKE_GAMES = [  # (night, round, seats by name, hands)
    (1, 1, "Pat Ada Bo Cy", [((1, 1, 1, 1), (1, 1, 0, 0)), ((1, 1, 1, 1), (0, 1, 0, 0)),
                             ((2, 1, 1, 1), (2, 0, 0, 0))]),
    (1, 2, "Pat Ada Bo Di", [((1, 2, 1, 1), (0, 2, 0, 0)), ((1, 1, 1, 1), (0, 0, 1, 0)),
                             ((1, 1, 1, 1), (1, 0, 0, 1))]),
    (2, 1, "Pat Ada Cy Di", [((1, 1, 1, 1), (2, 0, 0, 0)), ((1, 1, 1, 1), (1, 0, 0, 0)),
                             ((2, 1, 1, 1), (0, 1, 1, 0))]),
]  # fmt: skip
BUCK_GAMES = [
    (1, 1, "Ada Bo Cy Pat", [dict(BUCK_DROP_RIGHT)]),
    (1, 2, "Ada Bo Cy Pat", [dict(BUCK_DROP_WRONG)]),
    (2, 1, "Pat Ada Bo Cy", [buck_hand("S", 0, (3, 1, 1, 0)), buck_hand("H", 1, (0, 2, 2, 1)),
                             buck_hand("D", 0, (2, 1, 1, 1)), buck_hand("S", 0, (5, 0, 0, 0))]),
]  # fmt: skip


def play_league(
    run: Callable[..., Any], league: League, people: dict[str, Player], games: list[Any]
) -> list[Table]:
    nights: dict[int, Event] = {}
    tables = []
    for night, round_number, seats, hands in games:
        if night not in nights:
            nights[night] = event_create(
                league=league,
                name=f"{league.name} night {night}",
                date=datetime.date(2026, 9, night * 7 - 6 + (league.game == Game.BUCK_EUCHRE)),
                rounds=2,
            )
        table = table_create(
            round=nights[night].rounds.get(number=round_number),
            number=1,
            players=[people[name] for name in seats.split()],
        )
        records = [bluke_hand(*hand) if isinstance(hand, tuple) else hand for hand in hands]
        tables.append(run(game_submit, table=table, record={"hands": records}))
    return tables


@pytest.fixture
def club_of_pat(on_commit: Callable[..., Any]) -> dict[str, Any]:
    club = ClubFactory(name="Riverside")
    people = {
        name: PlayerFactory(club=club, name=name) for name in ["Pat", "Ada", "Bo", "Cy", "Di"]
    }
    bluke = league_create(club=club, name="Thursday", game=Game.BLUKE, options={"max_cards": 2})
    buck = league_create(club=club, name="Cup", game=Game.BUCK_EUCHRE)
    return {
        "people": people,
        "bluke": play_league(on_commit, bluke, people, BLUKE_GAMES),
        "buck": play_league(on_commit, buck, people, BUCK_GAMES),
    }


def section(tree: Element, slug: str) -> str:
    found = next(s for s in tree.iter("section") if s.attrs.get("aria-labelledby") == slug)
    return " ".join(found.text().split())


def rating_before(table: Table, player: Player) -> float:
    """The player's club-wide rating before ``table``'s game: their previous row,
    as the leaderboard shows it (the model's board figure)."""
    rows = list(
        RatingHistory.objects.filter(
            scope__club_id=player.club_id, scope__league=None, scope__game=table.game, player=player
        ).order_by("order_key")
    )
    index = next(i for i, row in enumerate(rows) if row.table_id == table.pk)
    before = rows[index - 1] if index else None
    model = model_for(table.game)
    skill = Skill(before.mu, before.sigma) if before else model.new()
    return model.board_value(skill)


def test_the_bluke_figures_of_a_hand_worked_league(
    client: Client, club_of_pat: dict[str, Any]
) -> None:
    pat = club_of_pat["people"]["Pat"]
    html, tree = page(client, reverse("player", args=[pat.pk]))
    text = section(tree, "figures-bluke")

    assert (
        "From Pat's 3 complete games of Bluke in all of Riverside's Bluke leagues: 2 wins" in text
    )
    form = rows_of(tree, "Pat's last 2 Bluke nights")
    # each mark: the place for the eye, then its words for a screen reader
    assert [row[1:] for row in form] == [
        ["Thursday night 1 Thursday", "11st of 4, 22nd of 4", "10"],
        ["Thursday night 2 Thursday", "11st of 4", "1"],
    ]
    assert form[0][0] == "1 Sep"
    assert "Wins in a row: longest 1, now 1" in text
    assert "Games in the top half of the table in a row: longest 3, now 3" in text
    assert "Rival (met most): Ada: 3 games together; Pat finished ahead in 2, behind in 1" in text
    assert "Nemesis: none: nobody has finished ahead of Pat in more than half of at least 3" in text
    assert "Highest total: 20 (1 Sep 2026, Thursday night 1)" in text
    assert "Most bids made in a row: 3 (now 0;" in text
    assert "Bids made: 5 of 9 hands (56 %)" in text
    assert "Overtricks: 1 in 5 bids made (0.20 a bid made)" in text
    assert rows_of(tree, "Pat's bids made by hand size") == [
        ["1", "3", "1", "33 %"],
        ["2", "6", "4", "67 %"],
    ]
    assert rows_of(tree, "Pat against each Bluke opponent") == [
        ["Ada", "3", "2", "1", "0", "+3.7"],
        ["Cy", "2", "2", "0", "0", "+30.5"],
        ["Di", "2", "1", "0", "1", "+15.5"],
        ["Bo", "2", "1", "0", "1", "+25.0"],
    ]
    # the best win: of Pat's two wins, the one whose opponents were rated higher before it
    first, _, last = club_of_pat["bluke"]
    people = club_of_pat["people"]
    strength = {
        table.pk: [round(rating_before(table, people[name])) for name in names]
        for table, names in ((first, ["Ada", "Bo", "Cy"]), (last, ["Ada", "Cy", "Di"]))
    }
    means = {
        table.pk: sum(rating_before(table, people[n]) for n in names) / 3
        for table, names in ((first, ["Ada", "Bo", "Cy"]), (last, ["Ada", "Cy", "Di"]))
    }
    best = max(means, key=lambda pk: (means[pk], -pk))
    assert best == last.pk  # the first game's opponents were all new: a newcomer's figure
    ada, cy, di = strength[last.pk]
    assert (
        f"8 Sep 2026, Thursday night 2, round 1, table 1 (Thursday), against Ada ({ada}), "
        f"Cy ({cy}), Di ({di}): rated {round(means[best])} on average." in text
    )
    assert f'href="{reverse("score-sheet", kwargs={"table_id": last.pk})}"' in html


def test_the_buck_euchre_figures_of_a_hand_worked_league(
    client: Client, club_of_pat: dict[str, Any]
) -> None:
    pat = club_of_pat["people"]["Pat"]
    _, tree = page(client, reverse("player", args=[pat.pk]))
    text = section(tree, "figures-buck-euchre")

    assert "From Pat's 3 complete games of Buck Euchre" in text and ": 1 win (" in text
    assert [row[1:] for row in rows_of(tree, "Pat's last 2 Buck Euchre nights")] == [
        ["Cup night 1 Cup", "22nd of 4, 22nd of 4", "50"],
        ["Cup night 2 Cup", "11st of 4", "25"],
    ]
    assert "Wins in a row: longest 1, now 1" in text
    assert "Games in the top half of the table in a row: longest 3, now 3" in text
    assert "Rival (met most): Ada: 3 games together; Pat finished ahead in 3, behind in 0" in text
    assert "Nemesis: Bo: finished ahead of Pat in 2 of 3 games together" in text
    assert "Lowest final score: 25 (2 Sep 2026, Cup night 1)" in text
    assert "Made trump: 3 of 6 hands; took 3 tricks or more in 2 (67 %)" in text
    assert "Bucked as maker: 1 (" in text
    assert "Bucked as another player: 1 (" in text
    assert "Dropped out: 2 of 6 hands (33 %)" in text
    assert "Drops that were right: 1 of 2 judged (50 %)" in text
    assert rows_of(tree, "Pat against each Buck Euchre opponent") == [
        ["Ada", "3", "3", "0", "0", "5.3 fewer"],
        ["Bo", "3", "1", "2", "0", "3.0 more"],
        ["Cy", "3", "3", "0", "0", "6.0 fewer"],
    ]
    assert "Best win" in text and "Cup night 2, round 1, table 1 (Cup)" in text
    # a player's page without Buck Euchre games has no such section
    _, di = page(client, reverse("player", args=[club_of_pat["people"]["Di"].pk]))
    assert not any(
        s.attrs.get("aria-labelledby") == "figures-buck-euchre" for s in di.iter("section")
    )


def test_show_all_opponents_beyond_the_first_ten(
    client: Client, on_commit: Callable[..., Any]
) -> None:
    club = ClubFactory()
    people = {f"P{n:02d}": PlayerFactory(club=club, name=f"P{n:02d}") for n in range(13)}
    league = league_create(club=club, name="Thursday", game=Game.BLUKE, options={"max_cards": 1})
    games = [
        (1, number, f"P00 P{3 * number - 2:02d} P{3 * number - 1:02d} P{3 * number:02d}",
         [((1, 1, 1, 1), (1, 0, 0, 0))])
        for number in (1, 2)
    ] + [(2, number, f"P00 P{3 * number + 4:02d} P{3 * number + 5:02d} P{3 * number + 6:02d}",
          [((1, 1, 1, 1), (1, 0, 0, 0))]) for number in (1, 2)]  # fmt: skip
    play_league(on_commit, league, people, games)
    url = reverse("player", args=[people["P00"].pk])

    _, tree = page(client, url)
    assert len(rows_of(tree, "P00 against each Bluke opponent")) == 10
    show = next(a for a in tree.iter("a") if a.text() == "Show all 12 opponents")
    assert show.attrs["href"] == "?opponents=all#head-to-head-bluke"

    _, every = page(client, f"{url}?opponents=all")
    assert len(rows_of(every, "P00 against each Bluke opponent")) == 12
    back = next(a for a in every.iter("a") if a.text() == "Show the first 10")
    assert back.attrs["href"] == f"{url}#head-to-head-bluke"


def test_the_figures_cost_four_queries_whatever_the_games(
    client: Client, club_of_pat: dict[str, Any], django_assert_num_queries: Any
) -> None:
    newcomer = PlayerFactory(club=club_of_pat["people"]["Pat"].club, name="Newcomer")
    # without games: the page's four (no rating, so no history), and the figures' one
    with django_assert_num_queries(5):
        assert client.get(reverse("player", args=[newcomer.pk])).status_code == 200
    # with games: the page's seven (one for the tables of the rating's latest games),
    # and the figures' four, for one game or two
    for name in ("Pat", "Di"):
        with django_assert_num_queries(11):
            client.get(reverse("player", args=[club_of_pat["people"][name].pk]))
