"""The score sheet page: a game laid out as clubs keep it on paper, a row a
hand, a column a player with the bid and tricks (Bluke) or tricks (Buck
Euchre) above the running score, short names with a key for a phone, the
winner marked, hands entered card by card collapsed under the sheet and
opened trick by trick, in a fixed number of queries whatever the number of
hands."""

from __future__ import annotations

import doctest
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import games
from league.models import Game, Membership, Table
from league.services.fixtures import table_create
from league.services.results import hand_submit
from league.web import sheet
from tests.support.factories import UserFactory
from tests.support.markup import hand_row, tables_of
from tests.support.records import BUCK_PENALTY_HANDS, bluke_results, bot_logs, buck_takes_all
from tests.support.setups import club_setup, member, names
from tests.support.state import db_state
from tests.support.web import correct_url, sheet_url

pytestmark = pytest.mark.django_db


# -- Bluke ----------------------------------------------------------------------------

BLUKE_HANDS = [  # the first three hands of 13, 12 and 11 cards, dealt by seats 0, 1, 2
    {"trump": "S", "bids": [3, 2, 4, 2], "tricks": [3, 2, 5, 3]},
    {"trump": None, "bids": [1, 6, 2, 2], "tricks": [1, 5, 4, 2]},
    {"trump": "H", "bids": [2, 2, 2, 2], "tricks": [0, 3, 4, 4]},
]


def test_the_bluke_sheet_has_each_players_bids_and_running_totals(client: Client) -> None:
    setup = club_setup()
    for record in BLUKE_HANDS:
        hand_submit(table=setup.table, record=record)
    html = client.get(sheet_url(setup.table)).content.decode()
    sheet = tables_of(html)[0]
    header = sheet[0]
    assert header[0] == "Hand"
    assert header[1:] == names(setup)
    for player in setup.players[:4]:
        assert f'href="{reverse("player", args=[player.pk])}"' in html
    # Hand 1: bid 3 took 3 (30), bid 2 took 2 (20), bid 4 took 5 (41), bid 2 took 3 (21).
    assert hand_row(html, 0) == [
        f"1 13 cards spades trump {names(setup)[0]} deals",
        "bid 3, took 3, made; score 30",
        "bid 2, took 2, made; score 20",
        "bid 4, took 5, made; score 41",
        "bid 2, took 3, made; score 21",
    ]  # fmt: skip
    # Hand 2, no trump: 11, then missed 6 (-60), 22, 20; totals run on.
    assert hand_row(html, 1) == [
        f"2 12 cards no trump {names(setup)[1]} deals",
        "bid 1, took 1, made; score 40",
        "bid 6, took 5, missed; score -40",
        "bid 2, took 4, made; score 63",
        "bid 2, took 2, made; score 41",
    ]  # fmt: skip
    assert hand_row(html, 2)[1:] == [
        "bid 2, took 0, missed; score 20",
        "bid 2, took 3, made; score -19",
        "bid 2, took 4, made; score 85",
        "bid 2, took 4, made; score 63",
    ]  # fmt: skip
    # what the eye sees in each cell: bid/tricks and the mark above the score
    row = re.search(r'<tr id="hand-1">.*?</tr>', html, re.S)
    assert row is not None
    assert re.findall(r'<span class="bid" aria-hidden="true">([^<]*)</span>', row[0]) == [
        "1/1&thinsp;✓", "6/5&thinsp;✗", "2/4&thinsp;✓", "2/2&thinsp;✓"
    ]  # fmt: skip
    assert sheet[-1] == ["Now", "20", "-19", "85", "63"]
    assert "Next, hand 4: 10 cards" in html
    assert "3 hands played of 25" in " ".join(html.split())


def test_the_header_links_the_league_and_event_and_tells_round_table_and_status(
    client: Client,
) -> None:
    setup = club_setup()
    html = client.get(sheet_url(setup.table)).content.decode()
    assert f'href="{reverse("league", kwargs={"league_id": setup.league.pk})}"' in html
    assert f'href="{reverse("event", kwargs={"event_id": setup.event.pk})}"' in html
    assert "<dt>Round</dt><dd>1</dd>" in html
    assert "<dt>Table</dt><dd>1</dd>" in html
    assert "Not started. Next, hand 1: 13 cards" in " ".join(html.split())
    assert "No hands yet." in html


def test_a_complete_game_marks_its_winner_and_places_at_the_foot(client: Client) -> None:
    setup = club_setup(options={"max_cards": 2})  # hands of 2, 1 and 2 cards
    for record in (
        {"trump": "S", "bids": [2, 1, 1, 1], "tricks": [2, 0, 0, 0]},
        {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [0, 1, 0, 0]},
        {"trump": "S", "bids": [1, 1, 2, 1], "tricks": [1, 1, 0, 0]},
    ):
        hand_submit(table=setup.table, record=record)
    html = client.get(sheet_url(setup.table)).content.decode()
    sheet = tables_of(html)[0]
    winner = names(setup)[0]  # 20 - 10 + 10 = 20
    assert sheet[0][1] == f"{winner} ★ Winner"
    assert sheet[-2] == ["Final", "20", "10", "-40", "-30"]
    assert sheet[-1] == ["Place", "1st ★ Winner", "2nd", "4th", "3rd"]
    assert f"★ Winner: {winner}." in html
    assert "Enter the next hand" not in html


def test_equal_first_totals_share_the_win(client: Client) -> None:
    setup = club_setup(options={"max_cards": 2})  # hands of 2, 1 and 2 cards
    for tricks in ([1, 1, 0, 0], [0, 0, 1, 0], [1, 0, 1, 0]):
        hand_submit(
            table=setup.table, record={"trump": "S", "bids": [1, 1, 1, 1], "tricks": tricks}
        )
    html = client.get(sheet_url(setup.table)).content.decode()
    first, _, third, _ = names(setup)
    assert f"★ Winners, sharing first place: {first}, {third}." in html
    sheet = tables_of(html)[0]
    assert sheet[-2] == ["Final", "10", "-10", "10", "-30"]
    assert sheet[-1] == ["Place", "1st ★ Winner", "3rd", "1st ★ Winner", "4th"]


# -- Buck Euchre --------------------------------------------------------------------------

BUCK_HANDS = [  # dealt by seats 0, 1 and 2
    {"trump": "S", "maker": 1, "drops": [3], "tricks": [1, 3, 1, 0]},
    {"trump": "C", "maker": None, "drops": [], "tricks": [2, 1, 0, 2]},
    {"trump": None, "maker": None, "drops": [0, 1, 2, 3], "tricks": [0, 0, 0, 0]},
    {"trump": "H", "maker": 0, "drops": [2], "tricks": [2, 2, 0, 1]},
]


def test_the_buck_euchre_sheet_counts_down_with_trump_maker_and_drops(client: Client) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    for record in BUCK_HANDS:
        hand_submit(table=setup.table, record=record)
    html = client.get(sheet_url(setup.table)).content.decode()
    sheet = tables_of(html)[0]
    ann, bob, cleo, dan = names(setup)
    assert sheet[1] == ["Start", "25", "25", "25", "25"]
    assert hand_row(html, 0) == [
        f"1 5 cards spades trump {ann} deals made by {bob} dropped: {dan}",
        "1 trick; score 24", "3 tricks as maker; score 22", "1 trick; score 24",
        "dropped; score 25",
    ]  # fmt: skip
    assert hand_row(html, 1) == [  # a turned-up club: nobody made it, nobody dropped
        f"2 5 cards clubs trump {bob} deals club turned up",
        "2 tricks; score 22", "1 trick; score 21", "0 tricks, bucked +5; score 29",
        "2 tricks; score 23",
    ]  # fmt: skip
    assert hand_row(html, 2)[0] == (
        f"3 5 cards no trump {cleo} deals nobody made it dropped: {ann}, {bob}, {cleo}, {dan}"
    )
    # The maker with 2 tricks moves +3 (25 - 2 ... ): 22 + 3 = 25.
    assert hand_row(html, 3)[1] == "2 tricks as maker, euchred +5; score 25"
    row = re.search(r'<tr id="hand-0">.*?</tr>', html, re.S)
    assert row is not None
    assert re.findall(r'<span class="bid" aria-hidden="true">([^<]*)</span>', row[0]) == [
        "1", "3&thinsp;M", "1", "dropped"
    ]  # fmt: skip
    assert "Next, hand 5: 5 cards" in html


def test_buck_euchre_penalties_are_written_with_their_reason_and_a_key(client: Client) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    for record in BUCK_PENALTY_HANDS:
        hand_submit(table=setup.table, record=record)
    html = client.get(sheet_url(setup.table)).content.decode()
    # what a screen reader hears: the tricks, the penalty and its reason, the score
    assert hand_row(html, 0)[1:] == [
        "2 tricks; score 23", "2 tricks as maker, euchred +5; score 28",
        "1 trick; score 24", "dropped; score 25",
    ]  # fmt: skip
    assert hand_row(html, 1)[1:] == [
        "3 tricks; score 20", "0 tricks, bucked +5; score 33",
        "1 trick; score 23", "1 trick; score 24",
    ]  # fmt: skip
    assert hand_row(html, 2)[1:] == [
        "0 tricks as maker, euchred +5; score 25", "dropped; score 33",
        "3 tricks; score 20", "2 tricks; score 22",
    ]  # fmt: skip
    assert hand_row(html, 3)[1:] == [
        "1 trick; score 24", "1 trick; score 32",
        "3 tricks as maker; score 17", "0 tricks, bucked +5; score 27",
    ]  # fmt: skip
    # what the eye sees: the penalty's words under (or beside) the tricks
    shown = {
        number: re.findall(
            r'<td class="line([^"]*)"><span class="bid" aria-hidden="true">(.*?)</span><span',
            re.search(rf'<tr id="hand-{number}">.*?</tr>', html, re.S)[0],  # type: ignore[index]
        )
        for number in range(4)
    }
    assert shown[0] == [
        ("", "2"),
        (" penalised", '2&thinsp;M<span class="penalty">euchred +5</span>'),
        ("", "1"),
        (" dropped", "dropped"),
    ]
    assert shown[1][1] == (" penalised", '0<span class="penalty">bucked +5</span>')
    assert shown[2][0] == (" penalised", '0&thinsp;M<span class="penalty">euchred +5</span>')
    assert shown[3][2:] == [
        ("", "3&thinsp;M"),
        (" penalised", '0<span class="penalty">bucked +5</span>'),
    ]
    assert tables_of(html)[0][-1] == ["Now", "24", "32", "17", "27"]
    # the key under the sheet says each word and its rule
    assert html.index('id="sheet-legend"') > html.index("</table>")
    legend = " ".join(re.sub(r"<[^>]+>", " ", html[html.index('id="sheet-legend"') :]).split())
    for words in (
        "Everyone starts at 25 and counts down",
        "euchred +5 the maker took fewer than 3 tricks: +5 (so 2 tricks move the score up 3)",
        "bucked +5 a player who stayed in took no trick",
        "dropped dropped out of the hand: the score stays",
        "took all five a player who takes every trick of a hand wins the game at once",
    ):
        assert words in legend, words
    assert 'href="#sheet-legend"' in html  # the key above the sheet points to it


def test_a_bluke_sheet_has_no_penalty_key(client: Client) -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=BLUKE_HANDS[0])
    html = client.get(sheet_url(setup.table)).content.decode()
    assert "sheet-legend" not in html and "penalty" not in html


def test_a_buck_euchre_sweep_ends_the_game_and_is_marked(client: Client) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    hand_submit(table=setup.table, record=buck_takes_all(2))
    html = client.get(sheet_url(setup.table)).content.decode()
    cleo = names(setup)[2]
    assert f"{cleo} took all five" in html
    sheet = tables_of(html)[0]
    assert sheet[0][3] == f"{cleo} ★ Winner"
    assert sheet[-1] == ["Place", "2nd", "2nd", "1st ★ Winner", "2nd"]
    assert 'class="player winner"' in html


# -- hands card by card -------------------------------------------------------------------


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
def test_a_move_logged_hand_opens_to_show_its_tricks(client: Client, game: str) -> None:
    setup = club_setup(game=game)
    logs = bot_logs(game, first_dealer=0, seed=7)[:3]
    for record in logs:
        hand_submit(table=setup.table, record=record)
    html = client.get(sheet_url(setup.table)).content.decode()
    seat_names = names(setup)
    # one closed section under the sheet holds every hand entered card by card
    assert html.count('<details class="card-by-card">') == 1
    assert html.index('<details class="card-by-card">') > html.index("</table>")
    assert "Hands entered card by card (3)" in html
    assert len(re.findall(r'<details id="cards-\d+">', html)) == 3
    assert 'class="card-play"' not in html  # no extra rows in the sheet itself
    tricks_tables = tables_of(html, "tricks")
    rules = games.rules_for(game, 4)
    for number, record in enumerate(logs):
        assert f"<summary>Hand {number + 1} card by card</summary>" in html
        answer = games.check_record({"game": game, "dealer": number % 4, **record})
        if not record["plays"]:
            continue  # nobody or one player stayed in: nothing to show trick by trick
        rows = tricks_tables.pop(0)
        assert rows[0] == ["Trick", "Led by", "Cards, in the order played", "Won by"]
        assert [row[3] for row in rows[1:]] == [seat_names[w] for w in answer["winners"]]
        shown_cards = re.findall(r"(\S+ of \S+|Hi Bluke|Lo Bluke)", " ".join(r[2] for r in rows))
        assert len(shown_cards) == len(record["plays"])
        tricks = games.replay_tricks(rules, record, dealer=number % 4)
        for row, trick in zip(rows[1:], tricks, strict=True):
            assert row[1] == seat_names[trick.leader]
            assert row[2].startswith(seat_names[trick.leader])
    assert tricks_tables == []


def test_the_drill_down_lists_each_trick_in_order_of_play(client: Client) -> None:
    """The worked three-card hand of docs/records.md, at a three-seat table."""
    setup = club_setup(options={"max_cards": 3})
    table = table_create(round=setup.event.rounds.get(number=2), number=2,
                                  players=setup.players[4:7])  # fmt: skip
    record = {
        "deal": [["AS", "7D", "BL"], ["KH", "2C", "9S"], ["QD", "TS", "4H"]],
        "turn_up": "5S",
        "bids": [1, 1, 2],
        "plays": ["9S", "TS", "AS", "7D", "KH", "QD", "4H", "BL", "2C"],
    }
    hand_submit(table=table, record=record)
    html = client.get(sheet_url(table)).content.decode()
    a, b, c = (p.name for p in setup.players[4:7])
    assert "Turned up: 5♠" in re.sub(r"<[^>]+>", "", html).replace("five of spades", "")
    assert tables_of(html, "tricks")[0][1:] == [
        ["1", b, f"{b} 9 of spades {c} 10 of spades {a} ace of spades", a],
        ["2", a, f"{a} 7 of diamonds {b} king of hearts {c} queen of diamonds", c],
        ["3", c, f"{c} 4 of hearts {a} Lo Bluke {b} 2 of clubs", a],
    ]


def test_a_results_only_hand_has_nothing_to_open(client: Client) -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=BLUKE_HANDS[0])
    html = client.get(sheet_url(setup.table)).content.decode()
    assert "<details>" not in html


# -- who sees the entry links -----------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "sees"),
    [("anonymous", False), ("stranger", False), ("member", False), ("scorekeeper", True),
     ("organiser", True)],
)  # fmt: skip
def test_entry_links_show_only_to_those_who_may_use_them(who: str, sees: bool) -> None:
    setup = club_setup()
    hand_submit(table=setup.table, record=BLUKE_HANDS[0])
    client = Client()
    user = {
        "anonymous": None,
        "stranger": UserFactory(),
        "member": member(setup),
        "scorekeeper": setup.scorekeeper,
        "organiser": setup.organiser,
    }[who]
    if user is not None:
        client.force_login(user)
    html = client.get(sheet_url(setup.table)).content.decode()
    correct = correct_url(setup.table, 0)
    assert ('href="#next-hand"' in html) is sees  # the next hand's form, on the sheet itself
    assert ('id="next-hand"' in html) is sees
    assert (f'href="{correct}"' in html) is sees
    assert ("Enter hand 2" in html) is sees


def test_a_table_that_does_not_exist_is_404(client: Client) -> None:
    assert client.get(reverse("score-sheet", kwargs={"table_id": 999_999})).status_code == 404


def test_a_hand_posted_to_the_sheet_by_a_visitor_asks_to_log_in(client: Client) -> None:
    setup = club_setup()
    before = db_state()
    answer = client.post(sheet_url(setup.table), {"number": "0"})
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert db_state() == before


def test_the_sheet_is_accessible_markup(client: Client) -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    hand_submit(table=setup.table, record=BUCK_HANDS[0])
    html = client.get(sheet_url(setup.table)).content.decode()
    assert '<caption id="sheet-caption">' in html
    assert 'role="region" aria-labelledby="sheet-caption" tabindex="0"' in html
    assert html.count('<th scope="col" class="player') == 4
    assert '<th scope="row" class="hand">' in html
    assert 'href="/static/league/sheet.css"' in html
    assert "https://" not in html and "http://" not in html  # nothing from elsewhere
    # a reader enters nothing: the page's only script is the site's, deferred
    assert re.findall(r"<script[^>]*>", html) == ['<script src="/static/league/site.js" defer>']


# -- queries -------------------------------------------------------------------------------


def _played(game: str, hands: int, *, move_logs: bool) -> Table:
    setup = club_setup(game=game)
    records = bot_logs(game, first_dealer=0, seed=3) if move_logs else None
    for number in range(hands):
        if records is not None:
            record = records[number]
        elif game == Game.BLUKE:
            record = {"trump": "S", "bids": [1, 1, 1, 1], "tricks": [13 - number, 0, 0, 0]}
            record["bids"][0] = 13 - number
        else:
            record = {"trump": "S", "maker": 0, "drops": [2, 3], "tricks": [3, 2, 0, 0]}
        hand_submit(table=setup.table, record=record)
    return setup.table


@pytest.mark.parametrize("game", [Game.BLUKE, Game.BUCK_EUCHRE])
@pytest.mark.parametrize("move_logs", [False, True])
@pytest.mark.parametrize(("signed_in", "queries"), [(False, 4), (True, 9)])
def test_the_sheet_takes_the_same_queries_for_one_hand_or_many(
    django_assert_num_queries: Any, game: str, move_logs: bool, signed_in: bool, queries: int
) -> None:
    """Anonymous: the table (with round, event, league and club), its seatings
    with players, its hands, their seat lines. Signed in: the session, the
    user and the role in the club besides, and for a member of the club (as
    here) the clubs they are a member of and the sheet's history."""
    many = 10 if game == Game.BLUKE else 4  # a Buck Euchre bot game may end early
    for hands in (1, many):
        table = _played(game, hands, move_logs=move_logs)
        assert table.hands.count() == hands
        client = Client()
        if signed_in:
            client.force_login(
                Membership.objects.filter(club=table.round.event.league.club).first().user
            )
        with django_assert_num_queries(queries):
            response = client.get(sheet_url(table))
        assert response.status_code == 200
        assert response.content.decode().count('<tr id="hand-') == hands


@pytest.mark.parametrize(
    ("code", "text", "words", "red"),
    [("TH", "10♥", "10 of hearts", True), ("AS", "A♠", "ace of spades", False),
     ("2C", "2♣", "2 of clubs", False), ("QD", "Q♦", "queen of diamonds", True),
     ("BH", "Hi Bluke", "Hi Bluke", False), ("BL", "Lo Bluke", "Lo Bluke", False)],
)  # fmt: skip
def test_cards_are_labelled_from_the_engines_rank_and_suit(
    code: str, text: str, words: str, red: bool
) -> None:
    assert sheet.card_label(games.card(code)) == sheet.CardLabel(text=text, words=words, red=red)


def test_the_trump_choices_are_the_engines_suits() -> None:
    assert sheet.SUIT_CHOICES == [
        ("C", "♣ Clubs"), ("D", "♦ Diamonds"), ("H", "♥ Hearts"), ("S", "♠ Spades")
    ]  # fmt: skip


# -- on a phone: a column a player, short names with a key -------------------------------


def _table_of(setup: Any, players: int, names_: list[str]) -> Table:
    """A Bluke table of ``players`` seats in round 2, its players renamed, with
    two hands played (the first player takes every trick)."""
    people = setup.players[:players]
    for person, name in zip(people, names_, strict=True):
        person.name = name
        person.save(update_fields=["name"])
    table = table_create(round=setup.event.rounds.get(number=2), number=1, players=people)
    schedule = games.rules_for(Game.BLUKE, players, {}).schedule
    for cards in schedule[:2]:
        hand_submit(table=table, record=bluke_results(cards, players=players))
    return table


LONG_NAMES = ["Margaret Okonkwo", "Maria Delgado", "Bartholomew Jones", "Li Wei", "Ann Lee"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_each_player_has_one_column_headed_by_a_short_name_in_the_key(players: int) -> None:
    setup = club_setup()
    table = _table_of(setup, players, LONG_NAMES[:players])
    client = Client()
    client.force_login(setup.scorekeeper)
    html = client.get(sheet_url(table)).content.decode()
    shorts = sheet.short_names(LONG_NAMES[:players])
    key = re.search(r'<p class="players-key" aria-hidden="true">(.*?)</p>', html, re.S)
    assert key is not None
    for short, name in zip(shorts, LONG_NAMES, strict=False):
        assert f"<strong>{short}</strong> {name}" in key[1]
        assert f'<span class="short" aria-hidden="true">{short}</span>' in html
    rows = tables_of(html)[0]
    assert rows[0] == ["Hand", *LONG_NAMES[:players]]  # screen readers hear the full names
    for number in (0, 1):
        cells = hand_row(html, number)
        assert len(cells) == 1 + players  # the hand, then a cell a player: no column more
        assert all("; score " in cell for cell in cells[1:])
        assert cells[1].startswith(f"bid {table.hands.get(number=number).cards}, took ")
        # the hand's number is the link to correct it
        assert cells[0].startswith(f"Correct hand {number + 1} ")
        assert f'<a class="number" href="{correct_url(table, number)}">' in html
    table.refresh_from_db()
    assert rows[-1] == ["Now", *map(str, table.totals)]
    assert f'class="sheet players-{players}"' in html


def test_short_names_are_first_names_when_they_tell_players_apart(client: Client) -> None:
    setup = club_setup()
    table = _table_of(setup, 4, ["Ada Lovelace", "Kit Marlowe", "Ivo Andrić", "Lior Ben"])
    html = client.get(sheet_url(table)).content.decode()
    assert [p.short for p in sheet.sheet_page(table=table)["players"]] == [
        "Ada", "Kit", "Ivo", "Lior"
    ]  # fmt: skip
    assert 'class="players-key"' in html  # the full names differ from the headings
    assert '<span class="short" aria-hidden="true">Ada</span>' in html


def test_a_key_is_left_out_when_the_names_are_short_already(client: Client) -> None:
    setup = club_setup()
    table = _table_of(setup, 4, ["Ada", "Kit", "Ivo", "Lior"])
    html = client.get(sheet_url(table)).content.decode()
    assert 'class="players-key"' not in html
    assert "bid 3, took 2: bid missed" in html  # the marks are still explained


def test_the_short_names_examples_hold() -> None:
    assert doctest.testmod(sheet).failed == 0
