"""Undoing what was made by mistake: a night, a round, a table with no hands and a
player with no games deleted; two players who are one person merged. Services and
the API (204, or problem+json 409), each change in the audit trail."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone

from league import ratings, standings
from league.errors import Conflict, ServiceError
from league.models import (
    Attendance,
    AuditEntry,
    Event,
    Game,
    HandSeat,
    Invitation,
    PersonalLink,
    Player,
    Rating,
    RatingHistory,
    RatingScope,
    Reply,
    Round,
    Seating,
    SitOut,
    Standing,
    StandingsOwed,
    Table,
)
from league.services import accounts, attendance, clubs, fixtures, replies
from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for
from tests.support.attendance import draw, new_night, stretches
from tests.support.factories import ClubFactory, PlayerFactory, UserFactory, make_table
from tests.support.records import buck_takes_all
from tests.support.setups import club_setup
from tests.support.state import db_state

pytestmark = pytest.mark.django_db

_on_commit: Any = None


@pytest.fixture(autouse=True)
def run_jobs_on_commit(django_capture_on_commit_callbacks: Any) -> None:
    global _on_commit
    _on_commit = django_capture_on_commit_callbacks


def change(service: Any, **kwargs: Any) -> Any:
    """Run a service and the jobs it owes once it "commits"."""
    with _on_commit(execute=True):
        return service(**kwargs)


def entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


def with_a_hand(table: Table) -> Table:
    hand_submit(table=table, record={"trump": "S", "bids": [1, 1, 1, 1], "tricks": [13, 0, 0, 0]})
    table.refresh_from_db()
    return table


# -- a game night ----------------------------------------------------------------------


def test_a_night_with_no_hands_goes_with_its_rounds_tables_and_attendance() -> None:
    setup = club_setup()
    night = new_night(setup, rounds=2)
    for player in setup.players[:5]:
        attendance.attendance_check_in(event=night, player=player, by=setup.organiser)
    table = draw(setup, night, 1)
    SitOut.objects.create(round=table.round, player=setup.players[4])
    fixtures.event_delete(event=night)
    assert not Event.objects.filter(pk=night.pk).exists()
    assert not Round.objects.filter(event_id=night.pk).exists()
    assert not Table.objects.filter(pk=table.pk).exists()
    assert not Attendance.objects.filter(event_id=night.pk).exists()
    assert not SitOut.objects.filter(round__event_id=night.pk).exists()
    [entry] = entries("event.deleted")
    assert entry.event_id == night.pk and entry.after is None
    assert entry.before["name"] == night.name and entry.before["attendance"] == 5
    assert [r and len(r["tables"]) for r in entry.before["rounds"]] == [1, None]
    # a sit-out counted in the standings: the league's are rebuilt
    assert StandingsOwed.objects.filter(league=setup.league, event=None).exists()
    assert AuditEntry.objects.filter(table_id=table.pk).exists()  # the trail keeps its entries


def test_a_night_with_a_hand_stays_and_says_which_table_holds_it() -> None:
    setup = club_setup()
    with_a_hand(setup.table)
    before = db_state()
    with pytest.raises(Conflict) as refused:
        fixtures.event_delete(event=setup.event)
    assert refused.value.code == fixtures.HAS_HANDS
    assert "table 1 of round 1 has 1 hand" in refused.value.message
    assert db_state() == before and not entries("event.deleted")


def test_a_night_with_nothing_counted_owes_no_standings() -> None:
    setup = club_setup()
    night = new_night(setup)
    fixtures.event_delete(event=night)
    assert not StandingsOwed.objects.exists()


# -- a round -----------------------------------------------------------------------------


def test_a_drawn_round_with_no_hands_goes_and_the_later_rounds_move_down() -> None:
    setup = club_setup()
    night = new_night(setup, rounds=4)
    ids = dict(night.rounds.values_list("number", "pk"))
    p = setup.players
    for player in p[:6]:
        attendance.attendance_check_in(event=night, player=player, by=None)
    draw(setup, night, 1)
    attendance.attendance_leave(event=night, player=p[4], by=None)  # plays round 1 alone
    table = draw(setup, night, 2)
    attendance.attendance_leave(event=night, player=p[5], by=None)  # rounds 1 and 2
    attendance.attendance_check_in(event=night, player=p[6], by=None)  # from round 3
    SitOut.objects.create(round_id=ids[2], player=p[7])
    assert stretches(night)[p[5].name] == (1, 2)

    change(fixtures.round_delete, round=Round.objects.get(pk=ids[2]))

    assert dict(night.rounds.values_list("pk", "number")) == {ids[1]: 1, ids[3]: 2, ids[4]: 3}
    assert not Table.objects.filter(pk=table.pk).exists()
    assert stretches(night) == {
        p[0].name: (1, None),
        p[1].name: (1, None),
        p[2].name: (1, None),
        p[3].name: (1, None),
        p[4].name: (1, 1),
        p[5].name: (1, 1),  # the round they left after is gone
        p[6].name: (2, None),  # round 3 is now round 2
    }
    [entry] = entries("round.deleted")
    assert entry.round_id == ids[2] and entry.before["round"] == 2
    assert entry.after["renumbered"] == [[3, 2], [4, 3]]
    assert {row["player"] for row in entry.before["attendance"]} == {p[5].pk, p[6].pk}
    assert not StandingsOwed.objects.exists()  # the sit-out's lines were recomputed


def test_a_stretch_of_the_deleted_round_alone_is_taken_off_the_list() -> None:
    setup = club_setup()
    night = new_night(setup, rounds=2)
    for player in setup.players[:4]:
        attendance.attendance_check_in(event=night, player=player, by=None)
    draw(setup, night, 1)
    attendance.attendance_leave(event=night, player=setup.players[3], by=None)
    fixtures.round_delete(round=night.rounds.get(number=1))
    assert setup.players[3].name not in stretches(night)
    assert stretches(night)[setup.players[0].name] == (1, None)


def test_a_round_is_refused_with_hands_alone_in_its_night_or_with_a_later_round_drawn() -> None:
    setup = club_setup()  # round 1 has the setup's table, round 2 none
    with_a_hand(setup.table)
    before = db_state()
    with pytest.raises(Conflict) as refused:
        fixtures.round_delete(round=setup.round)
    assert refused.value.code == fixtures.HAS_HANDS
    assert "round 1 cannot be deleted once hands are entered" in refused.value.message

    one = new_night(setup, rounds=1)
    with pytest.raises(Conflict) as refused:
        fixtures.round_delete(round=one.rounds.get())
    assert refused.value.code == fixtures.LAST_ROUND

    night = new_night(setup, rounds=3)
    draw(setup, night, 3)
    with pytest.raises(Conflict) as refused:
        fixtures.round_delete(round=night.rounds.get(number=2))
    assert refused.value.code == fixtures.LATER_ROUNDS_DRAWN
    assert "round 3 is drawn" in refused.value.message
    assert night.rounds.count() == 3 and one.rounds.count() == 1
    assert db_state()["Hand"] == before["Hand"] and not entries("round.deleted")


# -- a table -----------------------------------------------------------------------------


def test_a_table_with_no_hands_goes_and_the_others_keep_their_numbers() -> None:
    setup = club_setup()
    second = make_table(round=setup.round, players=setup.players[4:8], number=2)
    fixtures.table_delete(table=setup.table)
    assert list(setup.round.tables.values_list("number", flat=True)) == [2]
    assert not Seating.objects.filter(table_id=setup.table.pk).exists()
    [entry] = entries("table.deleted")
    assert entry.table_id == setup.table.pk and entry.round_id == setup.round.pk
    assert [seat["player"] for seat in entry.before["players"]] == [p.pk for p in setup.players[:4]]
    assert second.pk in Table.objects.values_list("pk", flat=True)


def test_a_table_with_hands_stays() -> None:
    setup = club_setup()
    with_a_hand(setup.table)
    with pytest.raises(Conflict, match="table 1 of round 1 has 1 hand"):
        fixtures.table_delete(table=setup.table)
    assert Table.objects.filter(pk=setup.table.pk).exists()


# -- a player -----------------------------------------------------------------------------


def test_a_player_with_no_games_goes_with_their_attendance_and_sit_outs() -> None:
    setup = club_setup()
    night = new_night(setup)
    extra = PlayerFactory(club=setup.club, name="Typo")
    attendance.attendance_check_in(event=night, player=extra, by=None)
    round_ = night.rounds.get(number=1)
    SitOut.objects.create(round=round_, player=extra)
    Standing.objects.create(
        league=setup.league,
        player=extra,
        games=0,
        wins=0,
        average_place=0,
        total_points=0,
        average_points=0,
        hands=0,
        sat_out=1,
        rank=1,
        computed_at=timezone.now(),
    )
    clubs.player_delete(player=extra)
    assert not Player.objects.filter(pk=extra.pk).exists()
    assert not Attendance.objects.filter(player_id=extra.pk).exists()
    [entry] = entries("player.deleted")
    assert entry.before == {
        "player": extra.pk,
        "player_name": "Typo",
        "is_guest": False,
        "had_login": False,
        "attendance": 1,
        "sit_outs": 1,
    }
    assert StandingsOwed.objects.filter(league=setup.league, event=None).exists()


def test_a_player_with_games_stays() -> None:
    setup = club_setup()
    before = db_state()
    with pytest.raises(Conflict) as refused:
        clubs.player_delete(player=setup.players[0])
    assert refused.value.code == clubs.HAS_GAMES
    assert "has 1 game" in refused.value.message and "merge" in refused.value.message
    assert db_state() == before


# -- merging two players -----------------------------------------------------------------


class BuckNight:
    """A Buck Euchre league with six players; ``table(day, seats)`` plays a game."""

    def __init__(self) -> None:
        self.club = ClubFactory()
        self.players = [PlayerFactory(club=self.club, name=f"P{n}") for n in range(6)]
        self.league = fixtures.league_create(club=self.club, name="Cup", game=Game.BUCK_EUCHRE)

    def table(self, day: int, seats: list[int], *, taker: int = 0) -> Table:
        event = fixtures.event_create(
            league=self.league, name=f"Night {day}", date=datetime.date(2026, 10, day)
        )
        table = fixtures.table_create(
            round=event.rounds.get(), number=1, players=[self.players[s] for s in seats]
        )
        change(hand_submit, table=table, record=buck_takes_all(taker))
        table.refresh_from_db()
        return table


def ratings_of(scope: RatingScope) -> dict[str, Any]:
    return {
        "ratings": sorted(
            Rating.objects.filter(scope=scope).values_list("player_id", "mu", "sigma", "games")
        ),
        "history": sorted(
            RatingHistory.objects.filter(scope=scope).values_list(
                "player_id", "table_id", "mu", "sigma", "games"
            )
        ),
    }


def standings_of(league: Any) -> list[tuple[Any, ...]]:
    return sorted(
        Standing.objects.filter(league=league).values_list(
            "event_id", "player_id", "games", "wins", "average_place", "total_points", "rank"
        ),
        key=repr,
    )


def test_a_merge_moves_the_games_and_recomputes_standings_and_ratings_as_from_scratch() -> None:
    night = BuckNight()
    p = night.players
    night.table(1, [0, 1, 2, 3], taker=0)
    twice = night.table(2, [4, 1, 2, 3], taker=0)  # player 4 is player 0 entered twice
    night.table(3, [0, 1, 2, 5], taker=1)
    scopes = list(RatingScope.objects.filter(club=night.club))
    assert len(scopes) == 2

    kept = change(clubs.player_merge, player=p[4], into=p[0])

    assert kept == p[0] and not Player.objects.filter(pk=p[4].pk).exists()
    twice.refresh_from_db()
    assert twice.seat_players[0] == p[0].pk and twice.version > 0
    assert Seating.objects.filter(player=p[0]).count() == 3
    assert HandSeat.objects.filter(player=p[0]).count() == 3
    assert not RatingHistory.objects.filter(player_id=p[4].pk).exists()
    assert not StandingsOwed.objects.exists()  # the jobs ran
    merged_ratings = [ratings_of(scope) for scope in scopes]
    merged_standings = standings_of(night.league)
    league_line = next(row for row in merged_standings if row[0] is None and row[1] == p[0].pk)
    assert league_line[2] == 3
    for scope in scopes:
        ratings.ratings_rebuild(scope=scope)
    standings.standings_refresh(league=night.league)
    assert [ratings_of(scope) for scope in scopes] == merged_ratings
    assert standings_of(night.league) == merged_standings
    [entry] = entries("player.merged")
    assert entry.before == {"player": p[4].pk, "player_name": "P4", "into": p[0].pk}
    assert entry.after["merged"] == p[4].pk and entry.after["player"] == p[0].pk
    assert entry.after["moved"]["games"] == 1


def test_a_merge_moves_attendance_sit_outs_invitations_and_the_login() -> None:
    setup = club_setup()
    kept, gone = setup.players[6], setup.players[7]
    night = new_night(setup, rounds=3)
    other = new_night(setup, rounds=1)
    attendance.attendance_check_in(event=night, player=kept, by=None)
    attendance.attendance_check_in(event=night, player=gone, by=None)
    attendance.attendance_check_in(event=other, player=gone, by=None)
    Attendance.objects.filter(event=night, player=kept).update(from_round=2, until_round=2)
    Attendance.objects.filter(event=night, player=gone).update(from_round=1, until_round=3)
    SitOut.objects.create(round=night.rounds.get(number=1), player=gone)
    invited = accounts.user_invite(
        club=setup.club,
        username="newcomer",
        email="n@example.org",
        role="scorekeeper",
        by=setup.organiser,
        player=gone,
    )
    login = UserFactory()
    clubs.membership_set(club=setup.club, user=login, role="scorekeeper")
    clubs.player_update(player=gone, user=login)

    clubs.player_merge(player=gone, into=kept)

    kept.refresh_from_db()
    assert kept.user == login
    assert stretches(night)[kept.name] == (1, 3)
    assert stretches(other)[kept.name] == (1, None)
    assert SitOut.objects.filter(player=kept).count() == 1
    assert Invitation.objects.get(pk=invited.invitation.pk).player == kept
    [entry] = entries("player.merged")
    assert entry.after["moved"] == {
        "games": 0,
        "attendance": 2,
        "sit_outs": 1,
        "invitations": 1,
        "login": True,
    }


def test_a_merge_moves_replies_the_later_answer_standing_and_the_link_only_to_one_without() -> None:
    setup = club_setup()
    kept, gone = setup.players[6], setup.players[7]
    both, theirs_alone = new_night(setup, rounds=1), new_night(setup, rounds=1)
    for night in (both, theirs_alone):
        fixtures.event_update(event=night, date=timezone.localdate() + datetime.timedelta(days=7))
    replies.reply_set(player=kept, event=both, answer="coming")
    replies.reply_set(player=gone, event=both, answer="not_coming")  # the later answer
    replies.reply_set(player=gone, event=theirs_alone, answer="coming")
    [gone_link] = replies.personal_links_create(players=[gone], by=setup.organiser)

    clubs.player_merge(player=gone, into=kept)

    answers = {reply.event_id: reply.answer for reply in Reply.objects.filter(player=kept)}
    assert answers == {both.pk: "not_coming", theirs_alone.pk: "coming"}
    assert PersonalLink.objects.get(player=kept).digest == gone_link.link.digest

    # a player kept who holds a link keeps theirs; the merged one's goes with them
    other = PlayerFactory(club=setup.club)
    [other_link] = replies.personal_links_create(players=[other], by=setup.organiser)
    clubs.player_merge(player=kept, into=other)
    assert list(PersonalLink.objects.values_list("player_id", "digest")) == [
        (other.pk, other_link.link.digest)
    ]


def test_two_players_of_one_round_or_one_table_are_two_people() -> None:
    setup = club_setup()
    p = setup.players
    with pytest.raises(Conflict) as refused:
        clubs.player_merge(player=p[1], into=p[0])
    assert refused.value.code == clubs.SAME_ROUND
    assert f"both sat at table 1 of round 1 of {setup.event.name}" in refused.value.message
    make_table(round=setup.round, players=p[4:8], number=2)
    with pytest.raises(Conflict, match="both were in round 1"):
        clubs.player_merge(player=p[4], into=p[0])
    round_two = setup.event.rounds.get(number=2)
    late = PlayerFactory(club=setup.club)
    SitOut.objects.create(round=round_two, player=p[0])
    SitOut.objects.create(round=round_two, player=late)
    with pytest.raises(Conflict, match="both were in round 2"):
        clubs.player_merge(player=late, into=p[0])
    assert Seating.objects.filter(player=p[0]).count() == 1
    assert not entries("player.merged")


def test_two_players_with_logins_or_of_two_clubs_or_one_and_the_same_are_not_merged() -> None:
    setup = club_setup()
    a, b = PlayerFactory(club=setup.club), PlayerFactory(club=setup.club)
    for player in (a, b):
        login = UserFactory()
        clubs.membership_set(club=setup.club, user=login, role="scorekeeper")
        clubs.player_update(player=player, user=login)
    with pytest.raises(Conflict) as refused:
        clubs.player_merge(player=a, into=b)
    assert refused.value.code == clubs.TWO_LOGINS
    with pytest.raises(ServiceError, match="same club"):
        clubs.player_merge(player=a, into=PlayerFactory())
    with pytest.raises(ServiceError, match="themselves"):
        clubs.player_merge(player=a, into=a)
    assert Player.objects.filter(pk__in=[a.pk, b.pk]).count() == 2


# -- the API -------------------------------------------------------------------------------


def test_delete_on_the_api_answers_204_or_a_409_problem_saying_what_holds_it() -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    night = new_night(setup, rounds=3)
    spare = make_table(round=setup.event.rounds.get(number=2), players=setup.players[4:8])
    typo = PlayerFactory(club=setup.club)
    with_a_hand(setup.table)

    held = assert_problem(client.delete(f"/api/tables/{setup.table.pk}/"), 409)
    assert held["code"] == "has-hands" and "has 1 hand" in held["detail"]
    assert assert_problem(client.delete(f"/api/events/{setup.event.pk}/"), 409)["code"] == (
        "has-hands"
    )
    assert assert_problem(client.delete(f"/api/rounds/{setup.round.pk}/"), 409)
    games = assert_problem(client.delete(f"/api/players/{setup.players[0].pk}/"), 409)
    assert games["code"] == "has-games"

    assert client.delete(f"/api/tables/{spare.pk}/").status_code == 204
    assert client.delete(f"/api/rounds/{night.rounds.get(number=3).pk}/").status_code == 204
    assert client.delete(f"/api/events/{night.pk}/").status_code == 204
    assert client.delete(f"/api/players/{typo.pk}/").status_code == 204
    assert not Table.objects.filter(pk=spare.pk).exists()
    assert not Event.objects.filter(pk=night.pk).exists()
    assert not Player.objects.filter(pk=typo.pk).exists()
    assert {e.via for e in AuditEntry.objects.filter(action__endswith=".deleted")} == {"api"}


def test_only_organisers_delete_and_strangers_are_not_told_it_exists() -> None:
    setup = club_setup()
    typo = PlayerFactory(club=setup.club)
    assert_problem(client_for(setup.scorekeeper).delete(f"/api/players/{typo.pk}/"), 403)
    assert_problem(client_for(UserFactory()).delete(f"/api/players/{typo.pk}/"), 404)
    assert_problem(client_for().delete(f"/api/players/{typo.pk}/"), 401)
    assert_problem(client_for(setup.scorekeeper).delete(f"/api/tables/{setup.table.pk}/"), 403)
    assert Player.objects.filter(pk=typo.pk).exists()
    assert Table.objects.filter(pk=setup.table.pk).exists()


def test_merging_on_the_api() -> None:
    setup = club_setup()
    client = client_for(setup.organiser)
    kept, gone = setup.players[0], setup.players[7]
    response = client.post(f"/api/players/{gone.pk}/merge/", {"into": kept.pk})
    assert response.status_code == 200, response.content
    assert response.json()["id"] == kept.pk
    assert not Player.objects.filter(pk=gone.pk).exists()

    stranger = PlayerFactory()
    unknown = assert_problem(
        client.post(f"/api/players/{setup.players[6].pk}/merge/", {"into": stranger.pk}), 400
    )
    assert "into" in unknown["errors"]
    same = assert_problem(
        client.post(f"/api/players/{setup.players[1].pk}/merge/", {"into": kept.pk}), 409
    )
    assert same["code"] == "same-round" and same["field"] == "into"
    assert_problem(client.post(f"/api/players/{setup.players[6].pk}/merge/", {}), 400)
    assert_problem(
        client_for(setup.scorekeeper).post(
            f"/api/players/{setup.players[6].pk}/merge/", {"into": kept.pk}
        ),
        403,
    )
