"""The accounts pages: a club's people and invitations with their one-time link,
Django's password reset and change, one's account and API tokens, logging in
back to the page asked for; every permission case, every refusal storing
nothing, and a constant number of queries."""

from __future__ import annotations

import re
import smtplib
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from league.errors import Conflict
from league.models import ApiToken, Membership, Player
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
    assert Membership.objects.get(club=setup.club, user=user).role == "scorekeeper"
    assert mail.outbox == []  # no email given
    link = link_in(response)
    # The link is shown once: the page read again does not have it.
    assert link not in text(organiser.get(people_url(setup)))
    done = set_password(link)
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset_complete")
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
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
    assert Membership.objects.filter(user__username="unlucky", club=setup.club).exists()


def test_an_invitation_can_make_an_organiser_and_link_a_player() -> None:
    setup = club_setup()
    player = setup.players[2]
    response = invite(
        signed_in(setup.organiser), setup, username="second", role="organiser", player=player.pk
    )
    assert response.status_code == 201
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


@pytest.mark.parametrize("taken", ["same", "SAME"])
def test_a_username_taken_is_refused_whatever_its_case(taken: str) -> None:
    setup = club_setup()
    UserFactory(username="same")
    before = state()
    response = invite(signed_in(setup.organiser), setup, username=taken)
    assert response.status_code == 409
    assert f"The username '{taken}' is taken" in error_of(response, "id_invite-username")
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
    the players."""
    for extra in (0, 6):
        setup = club_setup()
        for _ in range(extra):
            user = UserFactory()
            membership_set(club=setup.club, user=user, role="scorekeeper")
            PlayerFactory(club=setup.club, user=user)
        client = signed_in(setup.organiser)
        with django_assert_num_queries(6):
            assert client.get(people_url(setup)).status_code == 200


# -- password reset and change -------------------------------------------------------------


def test_a_forgotten_password_is_reset_by_a_mailed_link_that_works_once() -> None:
    user = UserFactory(email="forgetful@example.org")
    client = Client()
    login = text(client.get(reverse("login")))
    assert f'href="{reverse("password_reset")}"' in login
    assert "Forgot your password?" in login
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


def test_an_unknown_address_gets_the_same_answer_and_no_mail() -> None:
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_an_invited_user_who_lost_the_link_can_ask_for_another() -> None:
    setup = club_setup()
    invite(signed_in(setup.organiser), setup, username="lost", email="lost@example.org")
    mail.outbox.clear()
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
    """The session, the user, the tokens."""
    for count in (1, 8):
        user = UserFactory()
        for number in range(count):
            api_token_create(user=user, name=f"token {number}")
        client = signed_in(user)
        with django_assert_num_queries(3):
            assert client.get(reverse("api-tokens")).status_code == 200
        with django_assert_num_queries(5):
            assert client.get(reverse("account")).status_code == 200


def test_every_account_form_posts_with_csrf() -> None:
    setup = club_setup()
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup.organiser)
    assert invite(client, setup).status_code == 403
    assert client.post(reverse("api-tokens"), {"name": "x"}).status_code == 403
    assert client.post(reverse("password_reset"), {"email": "x@example.org"}).status_code == 403
    assert not ApiToken.objects.exists()
