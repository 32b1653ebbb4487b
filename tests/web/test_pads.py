"""The score pads page: one printable pad per table of a round, the players in
seat order, the first dealer, the rows as the rules engine deals them (Bluke's
schedule for the league's options, Buck Euchre's row of 25s), the QR code of
the table's entry page, who may see it, and a constant number of queries."""

from __future__ import annotations

import html as html_module
import re
from typing import Any

import pytest
import segno
from django.test import Client
from django.urls import reverse

from league.models import Game, Round, Table
from league.selectors import tables as tables_selectors
from league.web import qr
from league.web.pads import BUCK_EUCHRE_ROWS
from tests.support.factories import PlayerFactory, make_table
from tests.support.markup import tables_of, text
from tests.support.setups import ClubSetup, club_setup, member
from tests.support.state import db_state
from tests.support.web import enter_url, signed_in

pytestmark = pytest.mark.django_db


def pads_url(round_: Round) -> str:
    return reverse("round-pads", kwargs={"round_id": round_.pk})


def absolute(path: str) -> str:
    """The address Django's test client sees for ``path``."""
    return f"http://testserver{path}"


def five_player_table(setup: ClubSetup, *, first_dealer: int) -> Table:
    """Table 2 of the setup's round: its four unseated players and a new one."""
    players = [*setup.players[4:], PlayerFactory(club=setup.club, name="Zora")]
    return make_table(round=setup.round, players=players, first_dealer=first_dealer, number=2)


def pads_of(html: str) -> list[str]:
    """Each pad's HTML, in page order."""
    return html.split('<section class="pad"')[1:]


def seats_of(pad: str) -> list[str]:
    """The pad's seat list, each line as text."""
    listed = re.search(r'<ol class="pad-seats"[^>]*>(.*?)</ol>', pad, re.S)
    assert listed, "no seat list"
    items = re.findall(r"<li>(.*?)</li>", listed[1], re.S)
    return [" ".join(html_module.unescape(re.sub(r"<[^>]+>", "", item)).split()) for item in items]


def grid_of(pad: str) -> list[list[str]]:
    """The body rows of the pad's grid (the two header rows left out)."""
    (rows,) = tables_of(pad, "pad-grid")
    return rows[2:]


def dark_modules(svg: str) -> set[tuple[int, int]]:
    """The dark modules (column, row) an SVG drawn by segno paints: its path
    is horizontal runs (``h``) between moves (``M`` absolute, ``m`` relative),
    each run half a module below the row's top edge."""
    path = re.search(r' d="([^"]+)"', svg)
    assert path, "no path in the SVG"
    x = y = 0.0
    dark: set[tuple[int, int]] = set()
    for command, arguments in re.findall(r"([Mmh])([^Mmh]*)", path[1]):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", arguments)]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            dark.update((int(x) + step, int(y)) for step in range(int(numbers[0])))
            x += numbers[0]
    return dark


def modules_of(url: str) -> set[tuple[int, int]]:
    """The dark modules of segno's own QR code of ``url``, inside the quiet zone."""
    code = segno.make(url, error="m", micro=False)
    border = qr.QUIET_ZONE
    return {
        (column + border, row + border)
        for row, line in enumerate(code.matrix)
        for column, module in enumerate(line)
        if module
    }


# -- what a pad shows ---------------------------------------------------------------


def test_a_bluke_pad_of_four_lists_the_seats_the_first_dealer_and_the_schedule() -> None:
    setup = club_setup()
    names = [player.name for player in setup.players[:4]]

    response = signed_in(setup.scorekeeper).get(pads_url(setup.round))

    assert response.status_code == 200
    page = text(response)
    assert "<h1>Score pads, round 1</h1>" in page
    assert setup.event.name in page and setup.event.date.strftime("%-d %B %Y") in page
    (pad,) = pads_of(response.content.decode())
    assert seats_of(pad) == [
        f"Seat 1: {names[0]} (deals first)",
        f"Seat 2: {names[1]}",
        f"Seat 3: {names[2]}",
        f"Seat 4: {names[3]}",
    ]
    assert f"First dealer: {names[0]}." in " ".join(pad.split())
    rows = grid_of(pad)
    schedule = tables_selectors.table_rules(setup.table).schedule
    assert schedule == (*range(13, 0, -1), *range(2, 14))  # the engine's, for 4 players
    assert [row[0] for row in rows] == [str(n) for n in range(1, 26)]
    assert [row[1] for row in rows] == [str(cards) for cards in schedule]
    assert [row[2] for row in rows] == [names[n % 4] for n in range(25)]
    # Trump, then a bid, a tricks and a score box for each player: all blank.
    assert all(row[3:] == [""] * (1 + 3 * 4) for row in rows)
    (header, boxes) = tables_of(pad, "pad-grid")[0][:2]
    assert header == ["Hand", "Cards", "Dealer", "Trump", *names]
    assert boxes == ["Bid", "Tricks", "Score"] * 4


def test_a_bluke_pad_of_five_follows_the_shorter_schedule_from_its_first_dealer() -> None:
    setup = club_setup()
    table = five_player_table(setup, first_dealer=2)
    names = [seating.player.name for seating in tables_selectors.sheet_seatings(table=table)]

    response = signed_in(setup.organiser).get(pads_url(setup.round))

    assert response.status_code == 200
    first, second = pads_of(response.content.decode())
    assert "Table 1, round 1" in first and "Table 2, round 1" in second
    assert seats_of(second) == [
        f"Seat {seat + 1}: {name}" + (" (deals first)" if seat == 2 else "")
        for seat, name in enumerate(names)
    ]
    rows = grid_of(second)
    schedule = tables_selectors.table_rules(table).schedule
    assert schedule == (*range(10, 0, -1), *range(2, 11))  # 52 // 5 = 10 cards at most
    assert [row[1] for row in rows] == [str(cards) for cards in schedule]
    assert [row[2] for row in rows] == [names[(2 + n) % 5] for n in range(len(schedule))]
    assert all(len(row) == 4 + 3 * 5 for row in rows)


def test_a_bluke_pad_follows_the_leagues_options() -> None:
    setup = club_setup(options={"max_cards": 3})

    response = signed_in(setup.organiser).get(pads_url(setup.round))

    rows = grid_of(pads_of(response.content.decode())[0])
    assert [row[1] for row in rows] == ["3", "2", "1", "2", "3"]
    assert tuple(int(row[1]) for row in rows) == tables_selectors.table_rules(setup.table).schedule


def test_a_buck_euchre_pad_starts_everyone_at_25_and_leaves_rows_for_more() -> None:
    setup = club_setup(game=Game.BUCK_EUCHRE)
    table = make_table(round=setup.round, players=setup.players[4:], first_dealer=3, number=2)
    names = [player.name for player in setup.players[4:]]

    response = signed_in(setup.scorekeeper).get(pads_url(setup.round))

    assert response.status_code == 200
    _, pad = pads_of(response.content.decode())
    assert seats_of(pad)[3] == f"Seat 4: {names[3]} (deals first)"
    assert sum("(deals first)" in line for line in seats_of(pad)) == 1
    header, boxes, start, *rows = tables_of(pad, "pad-grid")[0]
    assert header == ["Hand", "Dealer", "Trump", "Maker", *names]
    assert boxes == ["Tricks", "Score"] * 4
    assert start == ["Start", "", "", "25", "", "25", "", "25", "", "25"]
    assert tables_selectors.sheet_next_hand(table=table) == {"number": 0, "dealer": 3, "cards": 5}
    assert len(rows) == BUCK_EUCHRE_ROWS
    assert [row[1] for row in rows] == [names[(3 + n) % 4] for n in range(BUCK_EUCHRE_ROWS)]
    assert all(row[2:] == [""] * (2 + 2 * 4) for row in rows)
    assert "Continue on the back." in " ".join(pad.split())
    # the penalties in the words the score sheet writes them with
    assert "with fewer than 3 tricks (“euchred”) or anyone else with none (“bucked”)" in pad


def test_a_round_without_tables_says_so() -> None:
    setup = club_setup()
    round_two = setup.event.rounds.get(number=2)

    response = signed_in(setup.organiser).get(pads_url(round_two))

    assert response.status_code == 200
    assert "Round 2 has no tables yet." in text(response)
    assert 'class="pad"' not in text(response)


def test_the_page_brings_its_print_stylesheet() -> None:
    setup = club_setup()

    page = text(signed_in(setup.organiser).get(pads_url(setup.round)))

    assert 'href="/static/league/print.css"' in page
    assert "Print this page" in page


# -- the QR code --------------------------------------------------------------------


def test_the_qr_svg_is_segnos_code_of_exactly_the_url() -> None:
    url = "https://cards.example.org/tables/41/hands/new/"

    svg = qr.qr_svg(url, label="QR code of table 4")

    assert svg.startswith('<svg role="img" aria-label="QR code of table 4" viewBox="0 0 ')
    assert "<title>QR code of table 4</title>" in svg
    assert dark_modules(svg) == modules_of(url)
    assert dark_modules(svg) != modules_of(url.replace("41", "42"))
    assert not qr.qr_code(url).is_micro


def test_the_qr_label_is_escaped() -> None:
    svg = qr.qr_svg("https://example.org/", label='Table "1" <b>')

    assert 'aria-label="Table &quot;1&quot; &lt;b&gt;"' in svg
    assert "<b>" not in svg


def test_each_pad_holds_the_qr_code_of_its_tables_absolute_entry_address() -> None:
    setup = club_setup()
    second = five_player_table(setup, first_dealer=0)

    html = signed_in(setup.scorekeeper).get(pads_url(setup.round)).content.decode()

    for pad, table in zip(pads_of(html), (setup.table, second), strict=True):
        address = absolute(enter_url(table))
        svgs = re.findall(r"<svg .*?</svg>", pad, re.S)
        assert len(svgs) == 1
        assert svgs[0].startswith('<svg role="img" aria-label="QR code of the page to enter')
        assert dark_modules(svgs[0]) == modules_of(address)
        assert f'<span class="pad-url">{address}</span>' in pad


# -- who may see it ------------------------------------------------------------------


@pytest.mark.parametrize("who", ["organiser", "scorekeeper"])
def test_organisers_and_scorekeepers_see_the_pads(who: str) -> None:
    setup = club_setup()

    response = signed_in(getattr(setup, who)).get(pads_url(setup.round))

    assert response.status_code == 200
    assert len(pads_of(response.content.decode())) == 1


def test_a_member_without_a_role_is_told_who_may() -> None:
    setup = club_setup()

    response = signed_in(member(setup)).get(pads_url(setup.round))

    assert response.status_code == 403
    assert "Only scorekeepers and organisers can do this" in text(response)
    assert "pad-grid" not in text(response)


def test_a_stranger_to_the_club_gets_not_found() -> None:
    setup, other = club_setup(), club_setup()

    response = signed_in(other.organiser).get(pads_url(setup.round))

    assert response.status_code == 404


def test_anonymous_users_are_sent_to_log_in(client: Client) -> None:
    setup = club_setup()
    url = pads_url(setup.round)

    response = client.get(url)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_an_unknown_round_is_not_found() -> None:
    setup = club_setup()
    missing = Round.objects.order_by("-pk").first()
    assert missing is not None

    response = signed_in(setup.organiser).get(
        reverse("round-pads", kwargs={"round_id": missing.pk + 1})
    )

    assert response.status_code == 404


def test_a_post_other_than_making_links_changes_nothing() -> None:
    setup = club_setup()
    before = db_state()

    response = signed_in(setup.organiser).post(pads_url(setup.round), {"action": "draw"})

    assert response.status_code == 400
    assert db_state() == before


# -- queries -------------------------------------------------------------------------


def test_the_page_runs_a_fixed_number_of_queries(django_assert_num_queries: Any) -> None:
    small = club_setup()
    large = club_setup(name="Large club")
    five_player_table(large, first_dealer=1)
    for number in range(3, 7):
        players = [PlayerFactory(club=large.club) for _ in range(3 + number % 3)]
        make_table(round=large.round, players=players, number=number)
    # Session, user, round, role, tables, seatings with their players.
    for setup, pads in ((small, 1), (large, 6)):
        client = signed_in(setup.scorekeeper)
        with django_assert_num_queries(6):
            response = client.get(pads_url(setup.round))
        assert len(pads_of(response.content.decode())) == pads
