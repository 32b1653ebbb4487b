"""Players say they are coming, on the pages (issue 30, item 6): the player's
own page through their personal link (no login: coming nights, answers, "I'm
here" on the night), its refusals and rate limits; the organisers' pages of
links (cards printed, links mailed and revoked, one player's link); the
Tonight page's replies and its check-in of those coming; the league form's
cut-off."""

from __future__ import annotations

import datetime
import re
import smtplib
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import Attendance, AuditEntry, Event, League, PersonalLink, Reply, Visibility
from league.services.attendance import attendance_check_in
from league.services.fixtures import event_create
from league.services.replies import personal_link_create, personal_links_create, reply_set
from tests.support.factories import PlayerFactory, UserFactory, make_table
from tests.support.markup import text
from tests.support.organise import event_edit_url, league_edit_url, league_post
from tests.support.setups import ClubSetup, club_setup, member, player_linked
from tests.support.state import db_state
from tests.support.tonight import tonight_url
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


def night(
    setup: ClubSetup,
    *,
    days: int = 0,
    name: str = "Thursday",
    start: datetime.time | None = None,
    rounds: int = 2,
) -> Event:
    return event_create(
        league=setup.league,
        name=name,
        date=timezone.localdate() + datetime.timedelta(days=days),
        start_time=start,
        rounds=rounds,
    )


def link_of(setup: ClubSetup, number: int = 0) -> str:
    return personal_link_create(player=setup.players[number], by=setup.organiser).token


def page_url(token: str) -> str:
    return reverse("personal-link", kwargs={"token": token})


def answer(client: Client, token: str, event: Event, action: str) -> Any:
    return client.post(page_url(token), {"event": str(event.pk), "action": action})


def night_error(response: Any, event: Event) -> str:
    match = re.search(
        rf'<p class="refusal" id="night-{event.pk}-error" role="alert">(.*?)</p>', text(response)
    )
    assert match, "no refusal by the night"
    return match[1]


# -- the player's page ---------------------------------------------------------------------


def test_the_page_lists_the_players_coming_nights_and_nothing_of_others(
    setup: ClubSetup,
) -> None:
    token = link_of(setup)
    Event.objects.filter(pk=setup.event.pk).update(
        date=timezone.localdate() - datetime.timedelta(1)
    )
    tonight = night(setup, name="Tonight night")
    later = night(setup, days=7, name="Next week")
    night(setup, days=-1, name="Last night")
    event_create(league=club_setup().league, name="Another club", date=timezone.localdate())
    reply_set(player=setup.players[1], event=later, answer="coming")  # someone else's
    response = Client().get(page_url(token))
    assert response.status_code == 200
    shown = text(response)
    assert f"Hello, {setup.players[0].name}" in shown
    assert "Tonight night" in shown and "Next week" in shown
    assert "Last night" not in shown and "Another club" not in shown
    assert setup.players[1].name not in shown  # no other player's name
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert shown.count('value="coming"') == 2
    assert shown.count('value="here"') == 1  # tonight alone
    assert f'id="night-{tonight.pk}"' in shown


@pytest.mark.parametrize("case", ["made-up", "revoked", "replaced"])
def test_a_link_that_does_not_work_is_a_plain_404(setup: ClubSetup, case: str) -> None:
    token = link_of(setup)
    if case == "made-up":
        token = "x" * 43
    elif case == "revoked":
        PersonalLink.objects.all().delete()
    else:
        link_of(setup)
    response = Client().get(page_url(token))
    assert response.status_code == 404
    assert "This link no longer works" in text(response)
    assert setup.players[0].name not in text(response)


def test_answering_is_stored_shown_and_changed_until_the_cut_off(setup: ClubSetup) -> None:
    token = link_of(setup)
    event = night(setup, days=3)
    client = Client()
    response = answer(client, token, event, "coming")
    assert response.status_code == 302
    assert response["Location"].endswith(f"/p/{token}/#night-{event.pk}")
    assert Reply.objects.get(event=event).answer == "coming"
    shown = text(client.get(page_url(token)))
    assert "Your answer: <strong>Coming</strong>" in shown
    assert "Thank you" in shown
    assert answer(client, token, event, "not_coming").status_code == 302
    assert Reply.objects.get(event=event).answer == "not_coming"
    entry = AuditEntry.objects.filter(action="reply.changed").order_by("id").last()
    assert entry is not None and entry.via == "personal" and entry.actor_id is None


def test_after_the_first_draw_replies_are_closed_by_the_night(setup: ClubSetup) -> None:
    token = link_of(setup)
    event = night(setup)
    make_table(round=event.rounds.get(number=1), players=setup.players[4:8])
    assert "Replies are closed" in text(Client().get(page_url(token)))
    before = db_state()
    response = answer(Client(), token, event, "coming")
    assert response.status_code == 409
    assert "closed" in night_error(response, event)
    assert db_state() == before


def test_im_here_checks_the_player_in_on_the_night(setup: ClubSetup) -> None:
    token = link_of(setup)
    event = night(setup)
    reply_set(player=setup.players[0], event=event, answer="not_coming")
    client = Client()
    assert answer(client, token, event, "here").status_code == 302
    row = Attendance.objects.get(event=event, player=setup.players[0])
    assert row.from_round == 1 and row.present
    shown = text(client.get(page_url(token)))
    assert "You are checked in: you play from round 1." in shown
    assert 'value="here"' not in shown


def test_im_here_is_refused_on_another_day_and_stores_nothing(setup: ClubSetup) -> None:
    token = link_of(setup)
    event = night(setup, days=2)
    before = db_state()
    response = answer(Client(), token, event, "here")
    assert response.status_code == 409
    assert "night itself" in night_error(response, event)
    assert db_state() == before


@pytest.mark.parametrize("posted", [{"event": "0"}, {"event": "abc"}, {"event": "other"}, {}])
def test_a_night_not_the_players_is_refused_and_stores_nothing(
    setup: ClubSetup, posted: dict[str, str]
) -> None:
    token = link_of(setup)
    if posted.get("event") == "other":
        elsewhere = event_create(
            league=club_setup().league, name="Elsewhere", date=timezone.localdate()
        )
        posted = {"event": str(elsewhere.pk)}
    before = db_state()
    response = Client().post(page_url(token), {**posted, "action": "coming"})
    assert response.status_code == 400
    assert "not one of your coming nights" in text(response)
    assert db_state() == before


def test_an_unknown_action_is_refused_by_the_night(setup: ClubSetup) -> None:
    token = link_of(setup)
    event = night(setup)
    before = db_state()
    response = answer(Client(), token, event, "maybe")
    assert response.status_code == 400
    assert "unknown request" in night_error(response, event)
    assert db_state() == before


def test_the_buttons_are_csrf_protected(setup: ClubSetup) -> None:
    token = link_of(setup)
    event = night(setup)
    client = Client(enforce_csrf_checks=True)
    assert answer(client, token, event, "coming").status_code == 403
    assert not Reply.objects.exists()


def test_a_members_only_clubs_player_uses_the_link_without_logging_in(setup: ClubSetup) -> None:
    setup.club.visibility = Visibility.MEMBERS
    setup.club.save()
    token = link_of(setup)
    event = night(setup)
    assert Client().get(page_url(token)).status_code == 200
    assert answer(Client(), token, event, "coming").status_code == 302


def test_a_link_is_rate_limited_and_so_is_an_address_guessing(
    setup: ClubSetup, settings: Any
) -> None:
    settings.PERSONAL_LINK_RATE = "2/m"
    token = link_of(setup)
    client = Client()
    assert [client.get(page_url(token)).status_code for _ in range(3)] == [200, 200, 429]
    other = link_of(setup, 1)
    settings.TABLE_LINK_REFUSED_RATE = "2/m"
    assert [Client().get(page_url("y" * 43)).status_code for _ in range(2)] == [404, 404]
    assert Client().get(page_url(other)).status_code == 429  # this address guessed enough


# -- the organisers' pages ---------------------------------------------------------------


def links_url(setup: ClubSetup) -> str:
    return reverse("club-personal-links", kwargs={"club_id": setup.club.pk})


def player_link_url(setup: ClubSetup, number: int = 0) -> str:
    return reverse("player-personal-link", kwargs={"player_id": setup.players[number].pk})


def test_the_links_pages_are_the_organisers(setup: ClubSetup) -> None:
    for url in (links_url(setup), player_link_url(setup)):
        assert signed_in(setup.organiser).get(url).status_code == 200
        assert signed_in(setup.scorekeeper).get(url).status_code == 403
        assert signed_in(member(setup)).get(url).status_code == 403
        assert signed_in(UserFactory()).get(url).status_code == 404
        assert Client().get(url)["Location"].startswith(reverse("login"))
        assert signed_in(setup.scorekeeper).post(url, {"action": "make"}).status_code == 403
    assert not PersonalLink.objects.exists()


def test_printing_cards_makes_a_link_each_shown_once(setup: ClubSetup) -> None:
    old = link_of(setup)
    chosen = setup.players[:3]
    response = signed_in(setup.organiser).post(
        links_url(setup), {"action": "cards", "players": [str(p.pk) for p in chosen]}
    )
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    shown = text(response)
    assert shown.count('<svg role="img"') == 3
    tokens = re.findall(r"http://testserver/p/([\w-]+)/", shown)
    assert len(set(tokens)) == 3
    for token in set(tokens):
        assert Client().get(page_url(token)).status_code == 200
    assert Client().get(page_url(old)).status_code == 404  # the card replaces the old link
    for player in chosen:
        assert player.name in shown
    assert setup.players[3].name not in shown


@pytest.mark.parametrize(
    ("posted", "error"),
    [
        ({"action": "cards"}, "Choose at least one player"),
        ({"action": "cards", "players": ["999999"]}, "not one of the club"),
        ({"action": "cards", "players": ["abc"]}, "not one of the club"),
        ({"action": "burn", "players": ["PLAYER"]}, "unknown request"),
    ],
)
def test_a_bad_choice_on_the_links_page_is_shown_and_makes_nothing(
    setup: ClubSetup, posted: dict[str, Any], error: str
) -> None:
    if posted.get("players") == ["PLAYER"]:
        posted = {**posted, "players": [str(setup.players[0].pk)]}
    before = db_state()
    response = signed_in(setup.organiser).post(links_url(setup), posted)
    assert response.status_code == 400
    assert error in text(response)
    assert db_state() == before


def test_mailing_links_goes_to_the_players_logins_addresses(setup: ClubSetup) -> None:
    with_login = player_linked(setup.players[0], UserFactory(email="ada@example.org"))
    without = setup.players[1]
    client = signed_in(setup.organiser)
    response = client.post(
        links_url(setup), {"action": "mail", "players": [str(with_login.pk), str(without.pk)]}
    )
    assert response.status_code == 302
    [sent] = mail.outbox
    assert sent.to == ["ada@example.org"]
    token = re.search(r"/p/([\w-]+)/", sent.body)
    assert token and Client().get(page_url(token[1])).status_code == 200
    assert not PersonalLink.objects.filter(player=without).exists()
    shown = text(client.get(links_url(setup)))
    assert f"Mailed a new link to {with_login.name}" in shown
    assert f"{without.name}: no login with an address" in shown


def test_mailing_players_without_an_address_is_refused(setup: ClubSetup) -> None:
    before = db_state()
    response = signed_in(setup.organiser).post(
        links_url(setup), {"action": "mail", "players": [str(setup.players[1].pk)]}
    )
    assert response.status_code == 400
    assert "has a login with an email address" in text(response)
    assert db_state() == before
    assert mail.outbox == []


def test_revoking_from_the_links_page(setup: ClubSetup) -> None:
    token = link_of(setup)
    client = signed_in(setup.organiser)
    response = client.post(
        links_url(setup), {"action": "revoke", "players": [str(setup.players[0].pk)]}
    )
    assert response.status_code == 302
    assert Client().get(page_url(token)).status_code == 404
    assert "no longer works" in text(client.get(links_url(setup)))


def test_one_players_link_is_made_mailed_and_revoked(setup: ClubSetup) -> None:
    client = signed_in(setup.organiser)
    url = player_link_url(setup)
    made = client.post(url, {"action": "make"})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    token = re.search(r"http://testserver/p/([\w-]+)/", text(made))
    assert token and Client().get(page_url(token[1])).status_code == 200

    mailed = client.post(url, {"action": "mail", "email": "ada@example.org"})
    assert mailed.status_code == 302
    [sent] = mail.outbox
    assert sent.to == ["ada@example.org"]
    assert Client().get(page_url(token[1])).status_code == 404  # the mail's link replaced it

    assert client.post(url, {"action": "revoke"}).status_code == 302
    assert not PersonalLink.objects.exists()


@pytest.mark.parametrize("email", ["", "not an address", "ada\x00@example.org"])
def test_a_bad_address_is_shown_by_the_field_and_makes_nothing(
    setup: ClubSetup, email: str
) -> None:
    before = db_state()
    response = signed_in(setup.organiser).post(
        player_link_url(setup), {"action": "mail", "email": email}
    )
    assert response.status_code == 400
    assert 'id="id_email_error"' in text(response) or "errorlist" in text(response)
    assert db_state() == before
    assert mail.outbox == []


def test_a_mail_that_cannot_be_sent_shows_the_link_instead(
    setup: ClubSetup, monkeypatch: Any
) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise smtplib.SMTPServerDisconnected("the server went away")

    monkeypatch.setattr("django.core.mail.message.EmailMessage.send", refuse)
    response = signed_in(setup.organiser).post(
        player_link_url(setup), {"action": "mail", "email": "ada@example.org"}
    )
    assert response.status_code == 200
    assert "could not be sent" in text(response)
    token = re.search(r"http://testserver/p/([\w-]+)/", text(response))
    assert token and Client().get(page_url(token[1])).status_code == 200


def test_the_mails_are_rate_limited(setup: ClubSetup, settings: Any) -> None:
    settings.PERSONAL_LINK_MAIL_RATE = "1/h"
    client = signed_in(setup.organiser)
    assert client.post(player_link_url(setup), {"action": "mail", "email": "a@example.org"})
    response = client.post(player_link_url(setup, 1), {"action": "mail", "email": "b@example.org"})
    assert response.status_code == 429
    assert not PersonalLink.objects.filter(player=setup.players[1]).exists()


def test_the_manage_page_leads_to_the_links(setup: ClubSetup) -> None:
    shown = text(signed_in(setup.organiser).get(reverse("club-manage", args=[setup.club.pk])))
    assert links_url(setup) in shown


# -- the Tonight page and the night's manage page ------------------------------------------


def test_the_tonight_page_shows_the_replies_and_checks_in_those_coming(
    setup: ClubSetup,
) -> None:
    ada, bram, cleo, dev = setup.players[:4]
    event = night(setup)
    personal_links_create(players=[ada, bram, cleo, dev], by=setup.organiser)
    reply_set(player=ada, event=event, answer="coming")
    reply_set(player=bram, event=event, answer="coming")
    reply_set(player=cleo, event=event, answer="not_coming")
    attendance_check_in(event=event, player=bram, by=setup.organiser)
    client = signed_in(setup.organiser)
    shown = text(client.get(tonight_url(event)))
    section = shown.split('id="replies"', 1)[1].split("</section>", 1)[0]
    assert "<strong>2 coming</strong>, 1 not coming, 1 no answer; 1 of them checked in." in section
    assert "Check in everyone who said they are coming (1)" in section
    for player in (ada, bram, cleo, dev):
        assert player.name in section

    response = client.post(tonight_url(event), {"action": "check_in_coming"})
    assert response.status_code == 302
    assert Attendance.objects.get(event=event, player=ada).present
    assert not Attendance.objects.filter(event=event, player=cleo).exists()
    after = text(client.get(tonight_url(event)))
    assert f"Checked in 1 who said they are coming: {ada.name}." in after
    assert "Check in everyone who said they are coming" not in after


def test_the_check_in_of_those_coming_is_refused_when_every_round_has_tables(
    setup: ClubSetup,
) -> None:
    event = night(setup, rounds=1)
    reply_set(player=setup.players[0], event=event, answer="coming")
    make_table(round=event.rounds.get(), players=setup.players[4:8])
    before = db_state()
    response = signed_in(setup.organiser).post(tonight_url(event), {"action": "check_in_coming"})
    assert response.status_code == 409
    assert 'id="replies-error"' in text(response)
    assert db_state() == before


def test_the_nights_manage_page_counts_the_replies(setup: ClubSetup) -> None:
    event = night(setup)
    reply_set(player=setup.players[0], event=event, answer="coming")
    shown = text(signed_in(setup.organiser).get(event_edit_url(event)))
    assert "Replies: <strong>1 coming</strong>, 0 not coming, 0 no answer" in shown
    assert f"{tonight_url(event)}#replies" in shown


def test_the_league_form_sets_the_cut_off(setup: ClubSetup) -> None:
    client = signed_in(setup.organiser)
    url = league_edit_url(setup.league)
    assert client.post(url, league_post(replies_close_minutes="30")).status_code == 302
    assert League.objects.get(pk=setup.league.pk).replies_close_minutes == 30
    assert client.post(url, league_post(replies_close_minutes="")).status_code == 302
    assert League.objects.get(pk=setup.league.pk).replies_close_minutes == 60
    response = client.post(url, league_post(replies_close_minutes="2000"))
    assert response.status_code == 200
    assert "at most 1440 minutes" in text(response)
    assert League.objects.get(pk=setup.league.pk).replies_close_minutes == 60


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup()


def test_a_guest_added_tonight_has_no_link_and_is_not_asked(setup: ClubSetup) -> None:
    """No answer is counted only for players who hold a link: a club's whole
    list is not "no answer"."""
    event = night(setup)
    PlayerFactory(club=setup.club)
    shown = text(signed_in(setup.organiser).get(tonight_url(event)))
    assert "No player has answered yet" in shown


@pytest.mark.parametrize("nights", [1, 10])
def test_the_personal_page_runs_a_fixed_number_of_queries_and_lists_at_most_eight(
    setup: ClubSetup, django_assert_num_queries: Any, nights: int
) -> None:
    """The link (with its player and club), the nights, the player's replies,
    their attendance; a player's page lists the next eight nights at most."""
    Event.objects.filter(pk=setup.event.pk).update(
        date=timezone.localdate() - datetime.timedelta(1)
    )
    token = link_of(setup)
    events = [night(setup, days=day, name=f"Night {day}") for day in range(nights)]
    reply_set(player=setup.players[0], event=events[0], answer="coming")
    with django_assert_num_queries(4):
        response = Client().get(page_url(token))
    assert text(response).count('<section class="night') == min(nights, 8)


@pytest.mark.parametrize("players", [0, 20])
def test_the_links_page_runs_a_fixed_number_of_queries(
    setup: ClubSetup, django_assert_num_queries: Any, players: int
) -> None:
    """The session and the user, the club, the organiser's role, the players
    with their links and logins."""
    for _ in range(players):
        PlayerFactory(club=setup.club)
    personal_links_create(players=setup.players, by=setup.organiser)
    client = signed_in(setup.organiser)
    with django_assert_num_queries(5):
        assert client.get(links_url(setup)).status_code == 200
