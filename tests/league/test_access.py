"""Who may write, asked once for the API and the pages (``league.access``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from league import access
from league.errors import Forbidden, NotFound
from league.models import Membership
from tests.support.api import assert_problem, client_for
from tests.support.factories import UserFactory
from tests.support.setups import club_setup, member
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


def test_an_organiser_may_do_organisers_and_scorekeepers_work() -> None:
    setup = club_setup()
    for roles in (access.ORGANISER, access.RESULTS):
        access.check_club_role(setup.organiser, setup.club.pk, roles=roles)


def test_a_scorekeeper_enters_results_but_may_not_organise() -> None:
    setup = club_setup()
    access.check_club_role(setup.scorekeeper, setup.club.pk, roles=access.RESULTS)
    with pytest.raises(Forbidden) as refused:
        access.check_club_role(setup.scorekeeper, setup.club.pk, roles=access.ORGANISER)
    assert refused.value.roles == (Membership.Role.ORGANISER,)


def test_a_player_without_a_role_is_a_member_told_no() -> None:
    setup = club_setup()
    with pytest.raises(Forbidden):
        access.check_club_role(member(setup), setup.club.pk, roles=access.RESULTS)


@pytest.mark.parametrize("who", ["stranger", "anonymous", "organiser of another club"])
def test_anyone_else_is_told_the_club_is_not_there(who: str) -> None:
    setup = club_setup()
    user = {
        "stranger": UserFactory(),
        "anonymous": AnonymousUser(),
        "organiser of another club": club_setup().organiser,
    }[who]
    with pytest.raises(NotFound):
        access.check_club_role(user, setup.club.pk, roles=access.RESULTS)


def test_the_table_for_results_comes_with_its_club_in_one_call() -> None:
    setup = club_setup()
    table = access.access_table_for_results(setup.scorekeeper, setup.table.pk)
    assert table == setup.table
    assert table.round.event.league.club == setup.club  # fetched with it


def test_a_missing_table_and_a_strangers_table_are_refused_alike() -> None:
    setup = club_setup()
    with pytest.raises(NotFound) as missing:
        access.access_table_for_results(setup.scorekeeper, setup.table.pk + 1000)
    with pytest.raises(NotFound) as hidden:
        access.access_table_for_results(UserFactory(), setup.table.pk)
    assert type(missing.value) is type(hidden.value)


def test_the_api_answers_a_member_without_a_role_403_as_the_pages_do() -> None:
    setup = club_setup()
    linked = member(setup)
    before = db_state()
    response = client_for(linked).patch(f"/api/players/{setup.players[0].pk}/", {"name": "Renamed"})
    body = assert_problem(response, 403)
    assert body["type"] == "/api/problems/permission-denied"
    assert db_state() == before
