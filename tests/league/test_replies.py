"""Players say they are coming (issue 30, item 6): personal links made,
replaced and revoked; replies until the cut-off; checking in at the venue
with the same link; the organiser's check-in of those coming; the league's
cut-off setting; through the services and the API. Every refusal stores
nothing."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from league import access
from league.errors import Conflict, NotFound, ServiceError
from league.models import (
    Attendance,
    AuditEntry,
    Event,
    League,
    PersonalLink,
    Player,
    Reply,
)
from league.selectors import draws as draws_selectors
from league.selectors import replies as replies_selectors
from league.services.attendance import attendance_check_in, attendance_leave
from league.services.clubs import player_anonymise
from league.services.fixtures import event_create, league_update
from league.services.replies import (
    personal_check_in,
    personal_link_create,
    personal_link_revoke,
    personal_links_create,
    replies_check_in_coming,
    reply_set,
    reply_window,
)
from tests.support.api import assert_problem, client_for
from tests.support.factories import ClubFactory, PlayerFactory, make_table
from tests.support.setups import ClubSetup, club_setup, member
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


def night(
    setup: ClubSetup,
    *,
    date: datetime.date | None = None,
    start: datetime.time | None = None,
    rounds: int = 2,
) -> Event:
    """A night of the setup's league, today unless ``date`` says otherwise."""
    return event_create(
        league=setup.league,
        name="Thursday",
        date=date or timezone.localdate(),
        start_time=start,
        rounds=rounds,
    )


def starting_in(setup: ClubSetup, delta: datetime.timedelta) -> Event:
    """A night whose start time is ``delta`` from now (its date follows)."""
    starts = timezone.localtime() + delta
    return night(setup, date=starts.date(), start=starts.time().replace(microsecond=0))


def entries(action: str) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=action).order_by("id"))


# -- the links ----------------------------------------------------------------------------


def test_a_link_is_a_secret_kept_as_its_digest_and_audited(setup: ClubSetup) -> None:
    ada = setup.players[0]
    made = personal_link_create(player=ada, by=setup.organiser)
    assert len(made.token) >= 43  # 32 random bytes, base64: 256 bits
    stored = PersonalLink.objects.get(player=ada)
    assert stored.digest == PersonalLink.digest_of(made.token)
    assert made.token not in str(list(PersonalLink.objects.values()))
    assert stored.created_by == setup.organiser
    assert access.access_personal_link(made.token).player == ada
    [entry] = entries("personal_link.made")
    assert (entry.club_id, entry.before, entry.after) == (setup.club.pk, None, {"player": ada.pk})


def test_a_new_link_replaces_the_old_which_stops_working(setup: ClubSetup) -> None:
    ada = setup.players[0]
    first = personal_link_create(player=ada, by=setup.organiser)
    second = personal_link_create(player=ada, by=setup.organiser)
    with pytest.raises(NotFound):
        access.access_personal_link(first.token)
    assert access.access_personal_link(second.token).player == ada
    assert PersonalLink.objects.filter(player=ada).count() == 1
    assert entries("personal_link.made")[-1].before == {"player": ada.pk}


def test_revoking_stops_the_link_once_and_is_audited_once(setup: ClubSetup) -> None:
    ada = setup.players[0]
    made = personal_link_create(player=ada, by=setup.organiser)
    assert personal_link_revoke(player=ada) is True
    with pytest.raises(NotFound):
        access.access_personal_link(made.token)
    assert personal_link_revoke(player=ada) is False
    assert len(entries("personal_link.revoked")) == 1


@pytest.mark.parametrize("token", ["", "x" * 101, "not-a-link-at-all"])
def test_a_made_up_link_is_not_found(setup: ClubSetup, token: str) -> None:
    personal_link_create(player=setup.players[0], by=setup.organiser)
    with pytest.raises(NotFound):
        access.access_personal_link(token)


def test_links_for_many_players_at_once_are_refused_whole(setup: ClubSetup) -> None:
    stranger = PlayerFactory(club=ClubFactory())
    before = db_state()
    for players, text in [
        ([], "at least one"),
        ([setup.players[0], stranger], "different clubs"),
        ([setup.players[0], setup.players[0]], "twice"),
    ]:
        with pytest.raises(ServiceError, match=text) as refused:
            personal_links_create(players=players, by=setup.organiser)
        assert refused.value.field == "players"
    assert db_state() == before
    made = personal_links_create(players=setup.players[:3], by=setup.organiser)
    assert [new.link.player for new in made] == setup.players[:3]
    assert len({new.token for new in made}) == 3


def test_anonymising_a_player_stops_their_link(setup: ClubSetup) -> None:
    made = personal_link_create(player=setup.players[0], by=setup.organiser)
    player_anonymise(player=setup.players[0])
    with pytest.raises(NotFound):
        access.access_personal_link(made.token)


def test_a_link_opens_its_clubs_coming_nights_only(setup: ClubSetup) -> None:
    link = personal_link_create(player=setup.players[0], by=setup.organiser).link
    tonight = night(setup)
    past = night(setup, date=timezone.localdate() - datetime.timedelta(days=1))
    elsewhere = event_create(
        league=club_setup().league, name="Elsewhere", date=timezone.localdate(), rounds=1
    )
    assert access.access_event_by_personal_link(link, tonight.pk) == tonight
    for other in (past.pk, elsewhere.pk, 0):
        with pytest.raises(NotFound):
            access.access_event_by_personal_link(link, other)


# -- replies and the cut-off ---------------------------------------------------------------


def test_a_reply_is_stored_changed_and_audited_through_the_personal_link(
    setup: ClubSetup,
) -> None:
    ada = setup.players[0]
    event = night(setup)
    reply = reply_set(player=ada, event=event, answer="coming")
    assert (reply.answer, reply.player, reply.event) == ("coming", ada, event)
    [entry] = entries("reply.changed")
    assert (entry.via, entry.actor_id, entry.seat) == ("personal", None, None)
    assert (entry.event_id, entry.before) == (event.pk, None)
    assert entry.after == {"player": ada.pk, "answer": "coming"}

    reply_set(player=ada, event=event, answer="coming")  # the same again: nothing new
    assert len(entries("reply.changed")) == 1

    changed = reply_set(player=ada, event=event, answer="not_coming")
    assert Reply.objects.get(pk=reply.pk).answer == "not_coming" == changed.answer
    last = entries("reply.changed")[-1]
    assert last.before == {"player": ada.pk, "answer": "coming"}
    assert last.after == {"player": ada.pk, "answer": "not_coming"}


def test_replies_close_the_leagues_minutes_before_the_start(setup: ClubSetup) -> None:
    """A night starting in 50 minutes, replies closing 60 before: closed; the
    league's cut-off made 30 minutes: open again; one starting in 2 hours is
    open with 60."""
    ada = setup.players[0]
    soon = starting_in(setup, datetime.timedelta(minutes=50))
    before = db_state()
    with pytest.raises(Conflict) as refused:
        reply_set(player=ada, event=soon, answer="coming")
    assert (refused.value.code, refused.value.field) == ("replies-closed", "answer")
    assert db_state() == before
    league_update(league=setup.league, replies_close_minutes=30)
    assert reply_set(player=ada, event=soon, answer="coming").answer == "coming"
    league_update(league=setup.league, replies_close_minutes=60)
    later = starting_in(setup, datetime.timedelta(hours=2))
    assert reply_set(player=ada, event=later, answer="not_coming").answer == "not_coming"


def test_the_cut_off_by_hand() -> None:
    """Hand-worked: a night on 2 December at 19:30, replies 60 minutes before:
    open at 18:29:59, closed at 18:30; closed at the first draw whatever the
    clock; closed the day after; without a start time, open all day until drawn."""
    start = datetime.time(19, 30)
    event = Event(date=datetime.date(2026, 12, 2), start_time=start)
    league = League(replies_close_minutes=60)

    def at(hour: int, minute: int, second: int = 0, day: int = 2) -> datetime.datetime:
        return datetime.datetime(2026, 12, day, hour, minute, second, tzinfo=datetime.UTC)

    window = reply_window(event=event, league=league, drawn=False, now=at(18, 29, 59))
    assert window.open
    assert window.closes_at == at(18, 30)
    assert reply_window(event=event, league=league, drawn=False, now=at(18, 30)).closed == "time"
    assert reply_window(event=event, league=league, drawn=True, now=at(9, 0)).closed == "drawn"
    assert reply_window(event=event, league=league, drawn=False, now=at(0, 1, day=3)).closed == (
        "past"
    )
    no_start = Event(date=event.date, start_time=None)
    late = reply_window(event=no_start, league=league, drawn=False, now=at(23, 59))
    assert late.open and late.closes_at is None


def test_replies_close_at_the_first_draw(setup: ClubSetup) -> None:
    ada = setup.players[0]
    event = night(setup)
    reply_set(player=ada, event=event, answer="coming")
    make_table(round=event.rounds.get(number=1), players=setup.players[4:8])
    before = db_state()
    with pytest.raises(Conflict, match="closed"):
        reply_set(player=ada, event=event, answer="not_coming")
    assert db_state() == before


def test_a_reply_is_refused_for_an_unknown_answer_or_another_clubs_night(
    setup: ClubSetup,
) -> None:
    event = night(setup)
    elsewhere = event_create(
        league=club_setup().league, name="Elsewhere", date=timezone.localdate(), rounds=1
    )
    before = db_state()
    with pytest.raises(ServiceError) as refused:
        reply_set(player=setup.players[0], event=event, answer="maybe")
    assert refused.value.field == "answer"
    with pytest.raises(ServiceError) as refused:
        reply_set(player=setup.players[0], event=elsewhere, answer="coming")
    assert refused.value.field == "event"
    assert db_state() == before


def test_the_database_keeps_one_reply_a_night_and_known_answers(setup: ClubSetup) -> None:
    event = night(setup)
    now = timezone.now()
    Reply.objects.create(event=event, player=setup.players[0], answer="coming", answered_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Reply.objects.create(
            event=event, player=setup.players[0], answer="not_coming", answered_at=now
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Reply.objects.create(event=event, player=setup.players[1], answer="maybe", answered_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        League.objects.filter(pk=setup.league.pk).update(replies_close_minutes=24 * 60 + 1)


def test_the_leagues_cut_off_is_checked_by_the_service(setup: ClubSetup) -> None:
    with pytest.raises(ServiceError) as refused:
        league_update(league=setup.league, replies_close_minutes=1441)
    assert refused.value.field == "replies_close_minutes"
    assert League.objects.get(pk=setup.league.pk).replies_close_minutes == 60


# -- checking in with the link ------------------------------------------------------------


def test_the_link_checks_the_player_in_on_the_night_even_after_not_coming(
    setup: ClubSetup,
) -> None:
    ada = setup.players[0]
    event = night(setup)
    reply_set(player=ada, event=event, answer="not_coming")
    row = personal_check_in(player=ada, event=event)
    assert (row.from_round, row.until_round, row.changed_by) == (1, None, None)
    entry = entries("attendance.changed")[-1]
    assert (entry.via, entry.actor_id) == ("personal", None)
    assert entry.after == {"player": ada.pk, "from_round": 1, "until_round": None}
    # the draws see them
    assert ada in draws_selectors.players_present(event=event, round_number=1)
    personal_check_in(player=ada, event=event)  # present already: nothing changes
    assert len(entries("attendance.changed")) == 1


def test_a_late_arrival_checks_in_for_the_next_round_to_draw(setup: ClubSetup) -> None:
    event = night(setup, rounds=3)
    make_table(round=event.rounds.get(number=1), players=setup.players[4:8])
    assert personal_check_in(player=setup.players[0], event=event).from_round == 2


def test_checking_in_is_refused_on_another_day_or_with_no_round_to_join(
    setup: ClubSetup,
) -> None:
    tomorrow = night(setup, date=timezone.localdate() + datetime.timedelta(days=1))
    tonight = night(setup, rounds=1)
    make_table(round=tonight.rounds.get(), players=setup.players[4:8])
    before = db_state()
    with pytest.raises(Conflict) as refused:
        personal_check_in(player=setup.players[0], event=tomorrow)
    assert refused.value.code == "not-the-night"
    with pytest.raises(Conflict) as refused:
        personal_check_in(player=setup.players[0], event=tonight)
    assert refused.value.code == "no-round-to-join"
    assert "tell the organiser" in refused.value.message
    assert db_state() == before


def test_the_organiser_checks_in_everyone_coming_who_is_not_on_the_list(
    setup: ClubSetup,
) -> None:
    ada, bram, cleo, dev, eve = setup.players[:5]
    event = night(setup)
    for player, answer in [
        (ada, "coming"),
        (bram, "coming"),
        (cleo, "not_coming"),
        (dev, "coming"),
        (eve, "coming"),
    ]:
        reply_set(player=player, event=event, answer=answer)
    attendance_check_in(event=event, player=bram, by=setup.organiser)
    attendance_check_in(event=event, player=dev, by=setup.organiser)
    make_table(round=event.rounds.get(number=1), players=[dev, *setup.players[5:8]])
    attendance_leave(event=event, player=dev, by=setup.organiser)  # played, then went: stays gone
    rows = replies_check_in_coming(event=event, by=setup.organiser)
    assert {row.player_id for row in rows} == {ada.pk, eve.pk}
    assert {row.from_round for row in rows} == {2}  # round 1 is drawn
    present = {row.player_id for row in Attendance.objects.filter(event=event) if row.present}
    assert present == {ada.pk, bram.pk, eve.pk}
    last = entries("attendance.changed")[-2:]
    assert {entry.after["player"] for entry in last} == {ada.pk, eve.pk}
    assert replies_check_in_coming(event=event, by=setup.organiser) == []


def test_the_nights_replies_list_link_holders_and_repliers(setup: ClubSetup) -> None:
    ada, bram, cleo = setup.players[:3]
    event = night(setup)
    personal_links_create(players=[ada, bram], by=setup.organiser)
    reply_set(player=ada, event=event, answer="coming")
    reply_set(player=cleo, event=event, answer="not_coming")  # her link was revoked since
    attendance_check_in(event=event, player=ada, by=setup.organiser)
    lines = {line.player.name: line for line in replies_selectors.event_replies(event=event)}
    assert set(lines) == {ada.name, bram.name, cleo.name}
    assert (lines[ada.name].answer, lines[ada.name].checked_in) == ("coming", True)
    assert (lines[bram.name].answer, lines[bram.name].has_link) == (None, True)
    assert (lines[cleo.name].answer, lines[cleo.name].has_link) == ("not_coming", False)


# -- the API ------------------------------------------------------------------------------


def link_url(player: Player) -> str:
    return f"/api/players/{player.pk}/link/"


def test_an_organiser_makes_a_link_through_the_api_shown_once(setup: ClubSetup) -> None:
    ada = setup.players[0]
    answer = client_for(setup.organiser).post(link_url(ada))
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert set(body) == {"url", "token", "created_at", "emailed"}
    assert body["url"] == f"http://testserver/p/{body['token']}/"
    assert body["emailed"] is None
    assert PersonalLink.objects.get(player=ada).digest == PersonalLink.digest_of(body["token"])
    assert mail.outbox == []


def test_the_api_mails_the_new_link_to_the_address_given(setup: ClubSetup) -> None:
    ada = setup.players[0]
    answer = client_for(setup.organiser).post(link_url(ada), {"email": "ada@example.org"})
    assert answer.status_code == 201, answer.content
    assert answer.json()["emailed"] is True
    [sent] = mail.outbox
    assert sent.to == ["ada@example.org"]
    assert answer.json()["url"] in sent.body
    assert setup.club.name in sent.subject


@pytest.mark.parametrize(
    "body", [{"email": "not an address"}, {"email": "ada\x00@example.org"}, {"mail": True}]
)
def test_a_bad_link_request_is_a_400_and_makes_nothing(
    setup: ClubSetup, body: dict[str, Any]
) -> None:
    problem = assert_problem(
        client_for(setup.organiser).post(link_url(setup.players[0]), body), 400
    )
    assert set(problem["errors"]) == set(body)
    assert not PersonalLink.objects.exists()
    assert mail.outbox == []


def test_only_organisers_make_or_revoke_links(setup: ClubSetup) -> None:
    ada = setup.players[0]
    assert_problem(client_for(setup.scorekeeper).post(link_url(ada)), 403)
    assert_problem(client_for(member(setup)).post(link_url(ada)), 403)
    assert_problem(client_for(club_setup().organiser).post(link_url(ada)), 404)
    assert_problem(client_for().post(link_url(ada)), 401)
    assert not PersonalLink.objects.exists()
    personal_link_create(player=ada, by=setup.organiser)
    assert_problem(client_for(setup.scorekeeper).delete(link_url(ada)), 403)
    assert client_for(setup.organiser).delete(link_url(ada)).status_code == 204
    assert not PersonalLink.objects.exists()
    # DELETE on the player is the player's own deletion, refused while they have games
    deleted = client_for(setup.organiser).delete(f"/api/players/{ada.pk}/")
    assert assert_problem(deleted, 409)["code"] == "has-games"
    assert client_for(setup.organiser).delete(link_url(ada)).status_code == 204


def test_the_mails_of_an_organiser_are_rate_limited(setup: ClubSetup, settings: Any) -> None:
    settings.PERSONAL_LINK_MAIL_RATE = "2/h"
    client = client_for(setup.organiser)
    for player in setup.players[:2]:
        assert client.post(link_url(player), {"email": "x@example.org"}).status_code == 201
    assert_problem(client.post(link_url(setup.players[2]), {"email": "x@example.org"}), 429)
    assert not PersonalLink.objects.filter(player=setup.players[2]).exists()
    assert client.post(link_url(setup.players[2])).status_code == 201  # no mail: no limit


def test_the_replies_of_a_night_through_the_api(setup: ClubSetup) -> None:
    ada, bram = setup.players[:2]
    event = night(setup, start=datetime.time(23, 59))
    personal_links_create(players=[ada, bram], by=setup.organiser)
    reply_set(player=ada, event=event, answer="coming")
    url = f"/api/events/{event.pk}/replies/"
    answer = client_for(setup.organiser).get(url)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert set(body) == {"open", "closed", "closes_at", "replies"}
    assert body["closes_at"] is not None
    rows = {row["player_name"]: row for row in body["replies"]}
    assert rows[ada.name]["answer"] == "coming"
    assert rows[ada.name]["player"] == ada.pk
    assert rows[bram.name]["answer"] is None
    assert rows[bram.name]["checked_in"] is False
    assert_problem(client_for(setup.scorekeeper).get(url), 403)
    assert_problem(client_for(club_setup().organiser).get(url), 404)

    checked = client_for(setup.organiser).post(f"/api/events/{event.pk}/replies/check-in/")
    assert checked.status_code == 200, checked.content
    rows = {row["player_name"]: row for row in checked.json()["replies"]}
    assert rows[ada.name]["checked_in"] is True
    assert rows[bram.name]["checked_in"] is False
    assert_problem(
        client_for(setup.scorekeeper).post(f"/api/events/{event.pk}/replies/check-in/"), 403
    )


def test_the_league_resource_shows_and_takes_the_cut_off(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    url = f"/api/leagues/{setup.league.pk}/"
    assert client.get(url).json()["replies_close_minutes"] == 60
    assert client.patch(url, {"replies_close_minutes": 15}).json()["replies_close_minutes"] == 15
    problem = assert_problem(client.patch(url, {"replies_close_minutes": 1441}), 400)
    assert "replies_close_minutes" in problem["errors"]
    assert League.objects.get(pk=setup.league.pk).replies_close_minutes == 15


def test_a_players_own_data_holds_their_replies_and_link(setup: ClubSetup) -> None:
    ada = setup.players[0]
    event = night(setup)
    personal_link_create(player=ada, by=setup.organiser)
    reply_set(player=ada, event=event, answer="coming")
    data = client_for(setup.organiser).get(f"/api/players/{ada.pk}/data/").json()
    assert [(row["event"], row["answer"]) for row in data["replies"]] == [(event.name, "coming")]
    assert data["personal_link"]["created_at"]
