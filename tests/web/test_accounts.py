"""The accounts pages: a club's people and invitations with their one-time link
(a new login and an existing one answered alike, no role until accepted),
Django's password reset (mailed by a job after the response, rate-limited) and
change, one's account and API tokens, logging in back to the page asked for;
every permission case, every refusal storing nothing, and a constant number of
queries."""

from __future__ import annotations

import datetime
import re
import smtplib
import threading
from typing import Any
from unittest.mock import patch

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from league import mails, outbox
from league.errors import Conflict
from league.models import ApiToken, Invitation, JobOwed, Membership, PasswordResetAsked, Player
from league.services.accounts import api_token_create, user_invite
from league.services.clubs import membership_set
from tests.support.factories import PASSWORD, PlayerFactory, UserFactory
from tests.support.markup import error_of, field, inputs_of, text
from tests.support.setups import ClubSetup, club_setup, member
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db

User = get_user_model()
NEW_PASSWORD = "a-fresh-Passw0rd-9"


def people_url(setup: ClubSetup) -> str:
    return reverse("club-people", kwargs={"club_id": setup.club.pk})


def invite(client: Client, setup: ClubSetup, **data: Any) -> Any:
    """POST the invitation form (a scorekeeper named ``newbie`` unless told)."""
    posted = {"invite-username": "newbie", "invite-email": "", "invite-role": "scorekeeper"}
    posted.update({f"invite-{key}": value for key, value in data.items()})
    return client.post(people_url(setup), {**posted, "action": "invite"})


def link_in(response: Any) -> str:
    """The one-time link the page shows, as a path."""
    match = re.search(r'<a class="secret" href="http://testserver([^"]+)"', text(response))
    assert match, "no one-time link on the page"
    return match[1]


def set_password(link: str, password: str = NEW_PASSWORD) -> Any:
    """Follow a one-time link and choose ``password``; the last answer."""
    client = Client()
    opened = client.get(link, follow=True)
    assert opened.status_code == 200
    form_url = opened.redirect_chain[-1][0] if opened.redirect_chain else link
    return client.post(form_url, {"new_password1": password, "new_password2": password})


def state() -> tuple[Any, ...]:
    """What an invitation or a role change could change."""
    return (
        sorted(User.objects.values_list("username", flat=True)),
        sorted(Membership.objects.values_list("user__username", "club_id", "role")),
        sorted(Player.objects.values_list("pk", "user_id")),
        sorted(Invitation.objects.values_list("username", "club_id", "role", "digest")),
    )


# -- who may open the people page ---------------------------------------------------------


def test_only_organisers_may_open_the_people_page() -> None:
    setup = club_setup()
    other = club_setup()
    url = people_url(setup)
    assert signed_in(setup.organiser).get(url).status_code == 200
    refused = signed_in(setup.scorekeeper).get(url)
    assert refused.status_code == 403
    assert "Only organisers can do this" in text(refused)
    assert signed_in(member(setup)).get(url).status_code == 403
    assert signed_in(other.organiser).get(url).status_code == 404
    anonymous = Client().get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"] == f"{reverse('login')}?next={url}"
    missing = reverse("club-people", kwargs={"club_id": setup.club.pk + other.club.pk + 100})
    assert signed_in(setup.organiser).get(missing).status_code == 404


@pytest.mark.parametrize("who", ["scorekeeper", "member", "outsider"])
def test_a_post_by_anyone_but_an_organiser_changes_nothing(who: str) -> None:
    setup = club_setup()
    user = {
        "scorekeeper": setup.scorekeeper,
        "member": member(setup),
        "outsider": club_setup().organiser,
    }[who]
    before = state()
    response = invite(signed_in(user), setup)
    assert response.status_code == {"outsider": 404}.get(who, 403)
    assert state() == before


def test_the_people_page_lists_the_logins_and_their_roles() -> None:
    setup = club_setup()
    player = setup.players[0]
    Player.objects.filter(pk=player.pk).update(user=setup.scorekeeper)
    page = text(signed_in(setup.organiser).get(people_url(setup)))
    assert page.index(setup.organiser.username) < page.index(setup.scorekeeper.username)
    assert f"plays as {player.name}" in page
    # A player with a login is not offered for a new one.
    options = re.search(r'<select name="invite-player"[^>]*>(.*?)</select>', page)
    assert options
    assert player.name not in options[1]
    assert setup.players[1].name in options[1]
    for name in ("invite-username", "invite-email", "invite-player"):
        assert field(signed_in(setup.organiser).get(people_url(setup)), name)["id"]


# -- inviting ------------------------------------------------------------------------------


def test_an_invitation_makes_a_login_whose_link_sets_the_password_once() -> None:
    setup = club_setup()
    organiser = signed_in(setup.organiser)
    response = invite(organiser, setup, username="newbie", role="scorekeeper")
    assert response.status_code == 201
    assert "pass this on in person; it works once" in text(response)
    assert response["Cache-Control"].startswith("max-age=0")
    assert "no-store" in response["Cache-Control"]
    user = User.objects.get(username="newbie")
    assert not user.has_usable_password()
    # No role until they accept: choosing their password through the link does.
    assert not Membership.objects.filter(user=user).exists()
    assert Invitation.objects.get(club=setup.club, user=user).role == "scorekeeper"
    assert mail.outbox == []  # no email given
    link = link_in(response)
    # The link is shown once: the page read again does not have it.
    assert link not in text(organiser.get(people_url(setup)))
    done = set_password(link)
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert Membership.objects.get(club=setup.club, user=user).role == "scorekeeper"
    assert not Invitation.objects.exists()
    again = Client().get(link, follow=True)
    assert "This link does not work" in text(again)
    # Logging in is through the login page (django-axes wants the request).
    logged_in = Client().post(reverse("login"), {"username": "newbie", "password": NEW_PASSWORD})
    assert logged_in.status_code == 302


def test_the_set_password_page_names_the_login() -> None:
    setup = club_setup()
    link = link_in(invite(signed_in(setup.organiser), setup, username="named"))
    page = Client().get(link, follow=True)
    assert "Choose your password" in text(page)
    assert "Your username is <strong>named</strong>" in text(page)


def test_an_invitation_with_an_email_is_mailed_too() -> None:
    setup = club_setup()
    response = invite(
        signed_in(setup.organiser), setup, username="mailed", email="mailed@example.org"
    )
    assert response.status_code == 201
    assert "It was also emailed to mailed@example.org" in text(response)
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["mailed@example.org"]
    assert setup.club.name in sent.subject
    link = link_in(response)
    assert f"http://testserver{link}" in sent.body
    assert "mailed" in sent.body


def test_an_invitation_stands_when_the_mail_cannot_be_sent(monkeypatch: Any) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise smtplib.SMTPServerDisconnected("the server went away")

    monkeypatch.setattr("league.web.accounts.send_mail", refuse)
    setup = club_setup()
    response = invite(signed_in(setup.organiser), setup, username="unlucky", email="u@example.org")
    assert response.status_code == 201
    assert "could not be sent" in text(response)
    assert link_in(response)
    assert Invitation.objects.filter(user__username="unlucky", club=setup.club).exists()


def test_an_invitation_can_make_an_organiser_and_link_a_player() -> None:
    setup = club_setup()
    player = setup.players[2]
    response = invite(
        signed_in(setup.organiser), setup, username="second", role="organiser", player=player.pk
    )
    assert response.status_code == 201
    set_password(link_in(response))
    user = User.objects.get(username="second")
    assert Membership.objects.get(club=setup.club, user=user).role == "organiser"
    player.refresh_from_db()
    assert player.user == user


@pytest.mark.parametrize(
    ("data", "field_id", "message"),
    [
        ({"username": ""}, "id_invite-username", "This field is required."),
        ({"username": "has space"}, "id_invite-username", "letters, digits and @ . + - _ only"),
        ({"username": "x" * 151}, "id_invite-username", "at most 150 characters"),
        ({"email": "not-an-address"}, "id_invite-email", "is not an email address"),
        ({"role": "boss"}, "id_invite-role", "Select a valid choice"),
        ({"player": "999999"}, "id_invite-player", "Select a valid choice"),
    ],
)
def test_a_refused_invitation_says_why_by_the_field_and_stores_nothing(
    data: dict[str, str], field_id: str, message: str
) -> None:
    setup = club_setup()
    before = state()
    response = invite(signed_in(setup.organiser), setup, **data)
    assert response.status_code == 200
    assert message in error_of(response, field_id)
    assert "There is a problem" in text(response)
    assert state() == before
    assert mail.outbox == []


def test_a_login_with_a_role_in_the_club_is_refused_by_the_field() -> None:
    """The club's organisers see its logins with a role, so saying so tells them nothing."""
    setup = club_setup()
    before = state()
    response = invite(signed_in(setup.organiser), setup, username=setup.scorekeeper.username)
    assert response.status_code == 409
    assert "has a role in the club already" in error_of(response, "id_invite-username")
    username_input = field(response, "invite-username")
    assert username_input["aria-invalid"] == "true"
    assert "id_invite-username_error" in username_input["aria-describedby"]
    assert state() == before


def test_a_player_who_got_a_login_meanwhile_is_refused() -> None:
    setup = club_setup()
    player = setup.players[3]
    client = signed_in(setup.organiser)
    client.get(people_url(setup))
    # Offered when the page was read; linked by someone else since.
    Player.objects.filter(pk=player.pk).update(user=UserFactory())
    before = state()
    response = invite(client, setup, username="late", player=player.pk)
    assert response.status_code == 200  # no longer among the choices
    assert "Select a valid choice" in error_of(response, "id_invite-player")
    assert state() == before


def test_the_service_refuses_a_player_with_a_login() -> None:
    setup = club_setup()
    player = setup.players[3]
    Player.objects.filter(pk=player.pk).update(user=UserFactory())
    player.refresh_from_db()
    before = state()
    with pytest.raises(Conflict) as refused:
        user_invite(
            club=setup.club,
            username="late",
            email="",
            role="scorekeeper",
            by=setup.organiser,
            player=player,
        )
    assert refused.value.field == "player"
    assert state() == before


# -- inviting a login that exists: the same answer, no role until accepted ----------------


def shown_alike(response: Any, username: str) -> str:
    """The page with what two invitations' answers may differ in taken out:
    the username typed, the link's secret, the CSRF token, row ids and times."""
    page = text(response).replace(username, "NAME")
    page = re.sub(r"/accounts/invitation/[^/]+/", "/accounts/invitation/SECRET/", page)
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", page)
    page = re.sub(r'invitation-\d+|name="invitation" value="\d+"', "ID", page)
    return re.sub(r"works until [^<]+<", "works until TIME<", page)


def mailed_alike(sent: Any, username: str) -> tuple[str, str, list[str]]:
    body = re.sub(r"/accounts/invitation/[^/]+/", "/accounts/invitation/SECRET/", sent.body)
    return sent.subject, body.replace(username, "NAME"), sent.to


def withdraw_all(client: Client, setup: ClubSetup) -> None:
    for made in Invitation.objects.filter(club=setup.club):
        client.post(people_url(setup), {"action": "withdraw", "invitation": made.pk})
    client.get(people_url(setup))  # the message said


@pytest.mark.parametrize("typed", ["existing", "EXISTING"])
def test_inviting_an_existing_login_is_answered_as_a_new_one_and_gives_no_role(typed: str) -> None:
    """Issue 28, item 4: inviting a username that was taken said so (409, "the
    username is taken"), to the organiser of any club, a club just made too:
    every login could be tried. Now a login that exists is invited as a new
    one is, with the same page, status and mail, and holds no role until it
    accepts."""
    setup = club_setup()
    existing = UserFactory(username="existing", email="their-own@example.org")
    client = signed_in(setup.organiser)
    new = invite(client, setup, username="brandnew", email="typed@example.org")
    withdraw_all(client, setup)
    mail_of_new = mail.outbox[-1]
    old = invite(client, setup, username=typed, email="typed@example.org")

    assert (old.status_code, new.status_code) == (201, 201)
    assert shown_alike(old, typed) == shown_alike(new, "brandnew")
    assert mailed_alike(mail.outbox[-1], typed) == mailed_alike(mail_of_new, "brandnew")
    # The login is left as it was, with no role: an invitation waits for its answer.
    existing.refresh_from_db()
    assert (existing.username, existing.email) == ("existing", "their-own@example.org")
    assert existing.has_usable_password()
    assert not Membership.objects.filter(club=setup.club, user=existing).exists()
    waiting = Invitation.objects.get(club=setup.club, user=existing)
    assert (waiting.username, waiting.role, waiting.new_login) == (typed, "scorekeeper", False)


def test_an_existing_login_accepts_on_its_account_page_and_gets_the_role_and_player() -> None:
    setup = club_setup()
    existing = UserFactory()
    player = setup.players[5]
    invite(signed_in(setup.organiser), setup, username=existing.username, player=player.pk)
    invitee = signed_in(existing)
    account = text(invitee.get(reverse("account")))
    assert f"{setup.club.name} invites you to be its <strong>scorekeeper</strong>" in account
    assert f"playing as {player.name}" in account
    waiting = Invitation.objects.get(user=existing)
    answer = reverse("invitation-answer", kwargs={"invitation_id": waiting.pk})

    done = invitee.post(answer, {"action": "accept"})

    assert done.status_code == 302 and done["Location"] == reverse("account")
    assert Membership.objects.get(club=setup.club, user=existing).role == "scorekeeper"
    player.refresh_from_db()
    assert player.user == existing
    assert not Invitation.objects.exists()
    shown = text(invitee.get(reverse("account")))
    assert f"You are now a scorekeeper of {setup.club.name}. You play as {player.name}." in shown
    assert invitee.post(answer, {"action": "accept"}).status_code == 404  # once


def test_the_link_of_an_existing_login_asks_it_to_log_in_and_accept() -> None:
    setup = club_setup()
    existing, other = UserFactory(), UserFactory()
    link = link_in(invite(signed_in(setup.organiser), setup, username=existing.username))

    anonymous = Client().get(link)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(f"{reverse('login')}?next=")
    wrong = signed_in(other).get(link)
    assert wrong.status_code == 403
    assert "this invitation is for another login" in text(wrong)
    mine = signed_in(existing)
    page = mine.get(link)
    assert page.status_code == 200
    assert f"An organiser of {setup.club.name} invites you to be its" in text(page)
    assert not Membership.objects.filter(club=setup.club, user=existing).exists()
    waiting = Invitation.objects.get(user=existing)
    declined = mine.post(
        reverse("invitation-answer", kwargs={"invitation_id": waiting.pk}), {"action": "decline"}
    )
    assert declined.status_code == 302
    assert not Invitation.objects.exists()
    assert not Membership.objects.filter(club=setup.club, user=existing).exists()
    assert "This link does not work" in text(mine.get(link))


def test_an_invitation_never_sets_the_password_of_a_login_it_did_not_make() -> None:
    """A login another club invited, that has not chosen its password yet, is
    not handed to whoever invites it next: their link asks it to log in."""
    first, second = club_setup(), club_setup()
    invite(signed_in(first.organiser), first, username="unclaimed")
    link = link_in(invite(signed_in(second.organiser), second, username="unclaimed"))
    opened = Client().get(link)
    assert opened.status_code == 302 and opened["Location"].startswith(reverse("login"))
    refused = Client().post(link, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert refused.status_code == 302 and refused["Location"].startswith(reverse("login"))
    assert not User.objects.get(username="unclaimed").has_usable_password()
    # the first club's own link still sets it
    assert Invitation.objects.get(club=first.club).new_login


def test_someone_elses_invitation_cannot_be_answered() -> None:
    setup = club_setup()
    existing, other = UserFactory(), UserFactory()
    invite(signed_in(setup.organiser), setup, username=existing.username)
    waiting = Invitation.objects.get()
    answer = reverse("invitation-answer", kwargs={"invitation_id": waiting.pk})
    before = state()
    assert signed_in(other).post(answer, {"action": "accept"}).status_code == 404
    assert signed_in(setup.organiser).post(answer, {"action": "accept"}).status_code == 404
    assert Client().post(answer, {"action": "accept"}).status_code == 302  # to log in
    assert signed_in(existing).post(answer, {"action": "join"}).status_code == 400
    assert state() == before


def test_an_expired_invitation_cannot_be_accepted() -> None:
    setup = club_setup()
    existing = UserFactory()
    link = link_in(invite(signed_in(setup.organiser), setup, username=existing.username))
    waiting = Invitation.objects.get()
    long_ago = waiting.made_at - datetime.timedelta(days=4)
    Invitation.objects.update(made_at=long_ago, expires_at=long_ago + datetime.timedelta(days=3))
    client = signed_in(existing)
    assert "This link does not work" in text(client.get(link))
    assert "invites you" not in text(client.get(reverse("account")))
    answered = client.post(
        reverse("invitation-answer", kwargs={"invitation_id": waiting.pk}),
        {"action": "accept"},
        follow=True,
    )
    assert "The invitation has expired" in text(answered)
    assert not Membership.objects.filter(club=setup.club, user=existing).exists()
    # its organisers see it expired, and may withdraw it
    people = text(signed_in(setup.organiser).get(people_url(setup)))
    assert "expired on" in people


def test_an_organiser_withdraws_an_invitation_and_its_link_stops_working() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    link = link_in(invite(client, setup, username="changed-mind"))
    waiting = Invitation.objects.get()
    assert f"invitation-{waiting.pk}" in text(client.get(people_url(setup)))
    other = club_setup()
    foreign = signed_in(other.organiser).post(
        people_url(setup), {"action": "withdraw", "invitation": waiting.pk}
    )
    assert foreign.status_code == 404
    done = client.post(people_url(setup), {"action": "withdraw", "invitation": waiting.pk})
    assert done.status_code == 302
    assert "The invitation of changed-mind is withdrawn" in text(client.get(people_url(setup)))
    assert not Invitation.objects.exists()
    assert Client().get(link).status_code == 404


def test_an_organiser_makes_so_many_invitations_an_hour(settings: Any) -> None:
    settings.INVITATION_RATE = "2/h"
    setup = club_setup()
    client = signed_in(setup.organiser)
    assert invite(client, setup, username="one").status_code == 201
    assert invite(client, setup, username="two").status_code == 201
    before = state()
    refused = invite(client, setup, username="three")
    assert refused.status_code == 429
    assert "You have made many invitations in the last hour" in text(refused)
    assert state() == before


# -- changing and removing roles -----------------------------------------------------------


def change(client: Client, setup: ClubSetup, membership: Membership, action: str, role: str) -> Any:
    return client.post(
        people_url(setup),
        {"membership": membership.pk, f"m{membership.pk}-role": role, "action": action},
    )


def test_an_organiser_changes_and_removes_a_role() -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    membership = Membership.objects.get(club=setup.club, user=setup.scorekeeper)
    response = change(client, setup, membership, "role", "organiser")
    assert response.status_code == 302
    assert response["Location"] == people_url(setup)
    membership.refresh_from_db()
    assert membership.role == "organiser"
    assert f"{setup.scorekeeper.username} is now an organiser." in text(
        client.get(people_url(setup))
    )
    response = change(client, setup, membership, "remove", "organiser")
    assert response.status_code == 302
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert User.objects.filter(pk=setup.scorekeeper.pk).exists()  # the login stays


@pytest.mark.parametrize("action", ["role", "remove"])
def test_the_last_organiser_cannot_be_taken_away(action: str) -> None:
    setup = club_setup()
    client = signed_in(setup.organiser)
    membership = Membership.objects.get(club=setup.club, user=setup.organiser)
    before = state()
    response = change(client, setup, membership, action, "scorekeeper")
    assert response.status_code == 409
    assert "the club's only organiser" in error_of(response, f"id_m{membership.pk}-role")
    assert state() == before


def test_an_organiser_who_steps_down_goes_to_their_account() -> None:
    setup = club_setup()
    membership_set(club=setup.club, user=setup.scorekeeper, role="organiser")
    client = signed_in(setup.organiser)
    membership = Membership.objects.get(club=setup.club, user=setup.organiser)
    response = change(client, setup, membership, "role", "scorekeeper")
    assert response.status_code == 302
    assert response["Location"] == reverse("account")


def test_a_login_of_another_club_cannot_be_changed_from_this_page() -> None:
    setup = club_setup()
    other = club_setup()
    foreign = Membership.objects.get(club=other.club, user=other.scorekeeper)
    before = state()
    response = change(signed_in(setup.organiser), setup, foreign, "remove", "scorekeeper")
    assert response.status_code == 404
    assert state() == before


def test_a_bad_role_is_refused_by_its_field() -> None:
    setup = club_setup()
    membership = Membership.objects.get(club=setup.club, user=setup.scorekeeper)
    before = state()
    response = change(signed_in(setup.organiser), setup, membership, "role", "boss")
    assert response.status_code == 200
    assert "Select a valid choice" in error_of(response, f"id_m{membership.pk}-role")
    assert state() == before


def test_the_people_page_takes_the_same_queries_for_few_or_many(
    django_assert_num_queries: Any,
) -> None:
    """The session, the user, the club, the role, the logins with their users,
    the invitations, the players."""
    for extra in (0, 6):
        setup = club_setup()
        for _ in range(extra):
            user = UserFactory()
            membership_set(club=setup.club, user=user, role="scorekeeper")
            PlayerFactory(club=setup.club, user=user)
        client = signed_in(setup.organiser)
        with django_assert_num_queries(7):
            assert client.get(people_url(setup)).status_code == 200


# -- password reset and change -------------------------------------------------------------


def test_a_forgotten_password_is_reset_by_a_mailed_link_that_works_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    user = UserFactory(email="forgetful@example.org")
    client = Client()
    login = text(client.get(reverse("login")))
    assert f'href="{reverse("password_reset")}"' in login
    assert "Forgot your password?" in login
    with django_capture_on_commit_callbacks(execute=True):  # the mail's job
        sent = client.post(reverse("password_reset"), {"email": "Forgetful@example.org"})
    assert sent.status_code == 302
    assert sent["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    match = re.search(r"http://testserver(/accounts/set-password/\S+/)", mail.outbox[0].body)
    assert match
    assert user.username in mail.outbox[0].body
    done = set_password(match[1])
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert "This link does not work" in text(Client().get(match[1], follow=True))


def test_an_unknown_address_gets_the_same_answer_and_no_mail(
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = Client().post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []
    assert not PasswordResetAsked.objects.exists()  # the job ran, and found no login


def test_an_invited_user_who_lost_the_link_can_ask_for_another(
    django_capture_on_commit_callbacks: Any,
) -> None:
    setup = club_setup()
    invite(signed_in(setup.organiser), setup, username="lost", email="lost@example.org")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(reverse("password_reset"), {"email": "lost@example.org"})
    assert len(mail.outbox) == 1


def test_a_weak_new_password_is_refused_by_its_field() -> None:
    setup = club_setup()
    link = link_in(invite(signed_in(setup.organiser), setup, username="weak"))
    response = set_password(link, "123")
    assert response.status_code == 200
    assert "too short" in error_of(response, "id_new_password2")
    assert not User.objects.get(username="weak").has_usable_password()


def test_a_signed_in_user_changes_their_password() -> None:
    user = UserFactory()
    client = signed_in(user)
    page = client.get(reverse("password_change"))
    assert {"id_old_password", "id_new_password1", "id_new_password2"} <= inputs_of(page).labels
    done = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == reverse("password_change_done")
    assert "Your password is changed" in text(client.get(done["Location"]))
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


# -- password resets: limited, mailed by a job after the response ----------------------------


def ask_reset(email: str, address: str = "192.0.2.1") -> Any:
    return Client(REMOTE_ADDR=address).post(reverse("password_reset"), {"email": email})


@pytest.mark.parametrize("known", [True, False])
def test_password_resets_are_limited_by_address(settings: Any, known: bool) -> None:
    """Issue 28, item 7: six resets a second went out as six mails. Now an
    address asks for so many an hour; past that it is told so (429), for an
    address of a login or not alike, and nothing is recorded."""
    settings.PASSWORD_RESET_RATE = "2/h"
    if known:
        UserFactory(email="one@example.org")
    assert ask_reset("one@example.org").status_code == 302
    assert ask_reset("two@example.org").status_code == 302
    before = PasswordResetAsked.objects.count()
    refused = ask_reset("three@example.org")
    assert refused.status_code == 429
    assert "Many links were asked for lately" in text(refused)
    assert PasswordResetAsked.objects.count() == before
    assert ask_reset("three@example.org", address="198.51.100.7").status_code == 302


@pytest.mark.parametrize("known", [True, False])
def test_password_resets_are_limited_by_email_whatever_the_address(
    settings: Any, known: bool
) -> None:
    settings.PASSWORD_RESET_EMAIL_RATE = "2/h"
    if known:
        UserFactory(email="target@example.org")
    assert ask_reset("target@example.org", address="192.0.2.1").status_code == 302
    assert ask_reset("Target@Example.org", address="192.0.2.2").status_code == 302
    refused = ask_reset("TARGET@example.org", address="192.0.2.3")
    assert refused.status_code == 429
    assert "Many links were asked for lately" in text(refused)
    assert ask_reset("other@example.org", address="192.0.2.3").status_code == 302


def test_a_reset_asks_the_same_of_the_database_for_any_address() -> None:
    """The request records the reset and owes its job, whatever the address:
    it looks no login up, so its time does not tell whether one has it."""
    UserFactory(email="known@example.org")
    statements = []
    for email in ("known@example.org", "unknown@example.org"):
        with CaptureQueriesContext(connection) as done:
            assert ask_reset(email).status_code == 302
        shapes = [query["sql"].replace(email, "EMAIL") for query in done.captured_queries]
        statements.append([re.sub(r"\d+", "N", sql) for sql in shapes])
    assert statements[0] == statements[1]
    assert not any("auth_user" in sql for sql in statements[0])


@pytest.mark.django_db(transaction=True)
def test_the_reset_mail_goes_out_after_the_response(settings: Any) -> None:
    """Without a broker the web process's job thread sends it once the answer
    has gone: a mail server that takes its time holds up no request."""
    settings.JOBS_WITHOUT_BROKER = "thread"
    UserFactory(email="slow@example.org")
    gate, sending = threading.Event(), threading.Event()
    send = mails._mail_link

    def slow(*args: Any) -> None:
        sending.set()
        assert gate.wait(20)
        send(*args)

    try:
        with patch.object(mails, "_mail_link", slow):
            answered = ask_reset("slow@example.org")
            assert answered.status_code == 302
            assert mail.outbox == []  # answered while the mail waits
            assert sending.wait(20)
            gate.set()
            assert outbox._job_thread.drain(30)
    finally:
        gate.set()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["slow@example.org"]
    assert not PasswordResetAsked.objects.exists()
    connection.close()


def test_a_reset_job_run_twice_mails_once_and_a_failing_server_leaves_it_owed(
    monkeypatch: Any,
) -> None:
    UserFactory(email="twice@example.org")
    ask_reset("twice@example.org")  # owed; its job is run below, as a worker or the sweep would
    asked = PasswordResetAsked.objects.get()

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise smtplib.SMTPServerDisconnected("the server went away")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", refuse)
    with pytest.raises(smtplib.SMTPServerDisconnected):
        mails.password_reset_send(asked.pk)
    assert PasswordResetAsked.objects.filter(pk=asked.pk).exists()
    assert JobOwed.objects.get(kind="password_reset").attempts == 1
    monkeypatch.undo()

    assert mails.password_reset_send(asked.pk) == 1
    assert mails.password_reset_send(asked.pk) == 0
    assert len(mail.outbox) == 1
    assert not JobOwed.objects.exists()


def test_a_reset_not_mailed_within_an_hour_is_dropped() -> None:
    UserFactory(email="late@example.org")
    ask_reset("late@example.org")
    PasswordResetAsked.objects.update(asked_at=timezone.now() - datetime.timedelta(hours=2))
    assert mails.password_reset_send(PasswordResetAsked.objects.get().pk) == 0
    assert mail.outbox == []
    assert not PasswordResetAsked.objects.exists()


# -- logging in returns to the page asked for ----------------------------------------------


def test_logging_in_returns_to_the_people_page() -> None:
    setup = club_setup()
    client = Client()
    asked = client.get(people_url(setup))
    login = client.get(asked["Location"])
    assert field(login, "next")["value"] == people_url(setup)
    assert "Log in to continue" in text(login)
    done = client.post(
        reverse("login"),
        {"username": setup.organiser.username, "password": PASSWORD, "next": people_url(setup)},
    )
    assert done["Location"] == people_url(setup)
    assert client.get(done["Location"]).status_code == 200


def test_logging_in_does_not_go_to_another_site() -> None:
    user = UserFactory()
    done = Client().post(
        reverse("login"),
        {"username": user.username, "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert done["Location"] == reverse("home")


# -- one's account ---------------------------------------------------------------------------


def test_the_account_page_shows_clubs_roles_players_and_tokens() -> None:
    setup = club_setup()
    Player.objects.filter(pk=setup.players[0].pk).update(user=setup.organiser)
    api_token_create(user=setup.organiser, name="laptop")
    page = text(signed_in(setup.organiser).get(reverse("account")))
    assert f"{setup.club.name}</a>: organiser" in page
    assert reverse("club-people", kwargs={"club_id": setup.club.pk}) in page
    assert (
        f'You play as <a href="{reverse("player", kwargs={"player_id": setup.players[0].pk})}"'
        in page
    )
    assert "laptop (…" in page
    assert reverse("password_change") in page
    scorekeeper = text(signed_in(setup.scorekeeper).get(reverse("account")))
    assert f"{setup.club.name}</a>: scorekeeper" in scorekeeper
    assert reverse("club-people", kwargs={"club_id": setup.club.pk}) not in scorekeeper


def test_the_account_pages_need_a_login() -> None:
    for name in ("account", "api-tokens", "password_change"):
        response = Client().get(reverse(name))
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={reverse(name)}"


# -- API tokens ---------------------------------------------------------------------------------


def test_a_new_token_is_shown_once_then_only_its_last_four() -> None:
    user = UserFactory()
    client = signed_in(user)
    response = client.post(reverse("api-tokens"), {"name": "results laptop"})
    assert response.status_code == 201
    assert "Copy it now, it will not be shown again." in text(response)
    assert "no-store" in response["Cache-Control"]
    key = re.search(r'<code class="secret" id="new-key">([^<]+)</code>', text(response))
    assert key
    token = ApiToken.objects.get(user=user)
    assert token.name == "results laptop"
    assert token.last_four == key[1][-4:]
    assert key[1] not in token.digest  # the key is not stored
    listed = client.get(reverse("api-tokens"))
    assert key[1] not in listed.content.decode()
    assert f"…{key[1][-4:]}" in text(listed)
    assert "never" in text(listed)
    assert key[1] not in client.get(reverse("account")).content.decode()


@pytest.mark.parametrize(
    ("name", "status", "message"),
    [("", 200, "This field is required."), ("twice", 409, "You have a token named 'twice'")],
)
def test_a_token_name_blank_or_taken_is_refused(name: str, status: int, message: str) -> None:
    user = UserFactory()
    api_token_create(user=user, name="twice")
    response = signed_in(user).post(reverse("api-tokens"), {"name": name})
    assert response.status_code == status
    assert message in error_of(response, "id_name")
    assert ApiToken.objects.filter(user=user).count() == 1


def test_a_token_works_on_the_api_until_revoked() -> None:
    user = UserFactory()
    key = api_token_create(user=user, name="script").key
    api = Client()
    created = api.post("/api/clubs/", {"name": "Tokened"}, HTTP_AUTHORIZATION=f"Token {key}")
    assert created.status_code == 201
    token = ApiToken.objects.get(user=user)
    assert token.last_used_at is not None
    listed = text(signed_in(user).get(reverse("api-tokens")))
    assert "never" not in listed
    client = signed_in(user)
    revoked = client.post(reverse("api-token-revoke", kwargs={"token_id": token.pk}))
    assert revoked.status_code == 302
    assert revoked["Location"] == reverse("api-tokens")
    assert "is revoked" in text(client.get(reverse("api-tokens")))
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    refused = api.post("/api/clubs/", {"name": "Again"}, HTTP_AUTHORIZATION=f"Token {key}")
    assert refused.status_code == 401
    assert refused["Content-Type"] == "application/problem+json"
    assert refused["WWW-Authenticate"] == "Token"


def test_another_users_token_cannot_be_revoked() -> None:
    owner, other = UserFactory(), UserFactory()
    token = api_token_create(user=owner, name="mine").token
    response = signed_in(other).post(reverse("api-token-revoke", kwargs={"token_id": token.pk}))
    assert response.status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert (
        signed_in(owner).get(reverse("api-token-revoke", kwargs={"token_id": token.pk})).status_code
        == 405
    )


def test_the_tokens_page_takes_the_same_queries_for_few_or_many(
    django_assert_num_queries: Any,
) -> None:
    """The session, the user, the tokens; the account page also its roles,
    invitations and players."""
    for count in (1, 8):
        user = UserFactory()
        for number in range(count):
            api_token_create(user=user, name=f"token {number}")
        client = signed_in(user)
        with django_assert_num_queries(3):
            assert client.get(reverse("api-tokens")).status_code == 200
        with django_assert_num_queries(6):
            assert client.get(reverse("account")).status_code == 200


def test_every_account_form_posts_with_csrf() -> None:
    setup = club_setup()
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup.organiser)
    assert invite(client, setup).status_code == 403
    assert client.post(reverse("api-tokens"), {"name": "x"}).status_code == 403
    assert client.post(reverse("password_reset"), {"email": "x@example.org"}).status_code == 403
    assert not ApiToken.objects.exists()
    made = user_invite(
        club=setup.club, username="x", email="", role="scorekeeper", by=setup.organiser
    ).invitation
    withdraw = {"action": "withdraw", "invitation": made.pk}
    assert client.post(people_url(setup), withdraw).status_code == 403
    invitee = Client(enforce_csrf_checks=True)
    invitee.force_login(made.user)
    answer = reverse("invitation-answer", kwargs={"invitation_id": made.pk})
    assert invitee.post(answer, {"action": "accept"}).status_code == 403
    assert Invitation.objects.filter(pk=made.pk).exists()
