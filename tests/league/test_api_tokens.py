"""API tokens and invitations at the service level, the API's token
authentication, tokens ended by a new password, and the mail settings read
from the environment."""

from __future__ import annotations

import datetime
import hashlib
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.settings.base import email_settings
from league.errors import Conflict, Forbidden, NotFound, ServiceError
from league.models import ApiToken, Invitation, Membership
from league.services.accounts import (
    api_token_create,
    api_token_mark_used,
    api_token_revoke,
    invitation_accept,
    user_invite,
)
from league.services.clubs import player_update
from tests.support.api import assert_problem
from tests.support.factories import PASSWORD, UserFactory
from tests.support.markup import text
from tests.support.setups import club_setup, member
from tests.support.web import signed_in

pytestmark = pytest.mark.django_db


def call_api(key: str, **headers: str) -> Any:
    """A write any signed-in user may make (found a club)."""
    return Client().post(
        "/api/clubs/", {"name": f"Club of {key[:6]}"}, HTTP_AUTHORIZATION=f"Token {key}", **headers
    )


# -- tokens ----------------------------------------------------------------------------------


def test_only_the_digest_and_the_last_four_are_stored() -> None:
    user = UserFactory()
    new = api_token_create(user=user, name="  laptop  ")
    token = ApiToken.objects.get()
    assert token == new.token
    assert token.name == "laptop"
    assert len(new.key) >= 40
    assert token.digest == hashlib.sha256(new.key.encode()).hexdigest()
    assert token.last_four == new.key[-4:]
    stored = [str(value) for value in ApiToken.objects.values_list().get()]
    assert new.key not in stored
    assert token.last_used_at is None


def test_every_key_is_new() -> None:
    user = UserFactory()
    keys = {api_token_create(user=user, name=f"token {n}").key for n in range(5)}
    assert len(keys) == 5


@pytest.mark.parametrize(
    ("name", "error"), [("", ServiceError), ("   ", ServiceError), ("x" * 101, ServiceError)]
)
def test_a_token_needs_a_name_of_at_most_100_characters(name: str, error: type) -> None:
    with pytest.raises(error) as refused:
        api_token_create(user=UserFactory(), name=name)
    assert refused.value.field == "name"
    assert not ApiToken.objects.exists()


def test_a_users_token_names_differ_but_two_users_may_share_one() -> None:
    first, second = UserFactory(), UserFactory()
    api_token_create(user=first, name="laptop")
    with pytest.raises(Conflict):
        api_token_create(user=first, name="laptop")
    api_token_create(user=second, name="laptop")
    assert ApiToken.objects.count() == 2


def test_only_the_owner_revokes_a_token() -> None:
    owner, other = UserFactory(), UserFactory()
    token = api_token_create(user=owner, name="mine").token
    with pytest.raises(NotFound):
        api_token_revoke(token=token, by=other)
    assert ApiToken.objects.filter(pk=token.pk).exists()
    api_token_revoke(token=token, by=owner)
    assert not ApiToken.objects.exists()


def test_last_used_is_written_at_most_once_a_minute(django_assert_num_queries: Any) -> None:
    token = api_token_create(user=UserFactory(), name="busy").token
    start = timezone.now()
    with django_assert_num_queries(1):
        api_token_mark_used(token=token, now=start)
    with django_assert_num_queries(0):
        api_token_mark_used(token=token, now=start + datetime.timedelta(seconds=59))
    token.refresh_from_db()
    assert token.last_used_at == start
    later = start + datetime.timedelta(seconds=61)
    api_token_mark_used(token=token, now=later)
    token.refresh_from_db()
    assert token.last_used_at == later


def test_a_stale_copy_does_not_move_last_used_back() -> None:
    token = api_token_create(user=UserFactory(), name="racing").token
    stale = ApiToken.objects.get(pk=token.pk)
    now = timezone.now()
    api_token_mark_used(token=token, now=now)
    api_token_mark_used(token=stale, now=now - datetime.timedelta(seconds=30))
    token.refresh_from_db()
    assert token.last_used_at == now


# -- the API's authentication ------------------------------------------------------------------


def test_a_key_authenticates_and_notes_its_use() -> None:
    user = UserFactory()
    key = api_token_create(user=user, name="script").key
    response = call_api(key)
    assert response.status_code == 201
    assert Membership.objects.get(club_id=response.json()["id"]).user == user
    assert ApiToken.objects.get().last_used_at is not None


def test_a_second_request_within_the_minute_writes_nothing_more(
    django_assert_num_queries: Any,
) -> None:
    key = api_token_create(user=UserFactory(), name="script").key
    client = Client()
    first = client.get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {key}")
    assert first.status_code == 200
    used = ApiToken.objects.get().last_used_at
    with django_assert_num_queries(2):  # the token with its user; the clubs
        assert client.get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200
    assert ApiToken.objects.get().last_used_at == used


@pytest.mark.parametrize(
    "header",
    ["Token not-a-key", "Token", "Token two parts", "token {key}x"],
)
def test_a_wrong_or_malformed_key_is_a_401_with_a_challenge(header: str) -> None:
    key = api_token_create(user=UserFactory(), name="script").key
    response = Client().post(
        "/api/clubs/", {"name": "Nope"}, HTTP_AUTHORIZATION=header.format(key=key)
    )
    assert_problem(response, 401)
    assert response["WWW-Authenticate"] == "Token"


def test_the_key_of_an_inactive_user_is_refused() -> None:
    user = UserFactory()
    key = api_token_create(user=user, name="script").key
    user.is_active = False
    user.save()
    assert_problem(call_api(key), 401)


def test_a_revoked_key_is_refused() -> None:
    user = UserFactory()
    new = api_token_create(user=user, name="script")
    api_token_revoke(token=new.token, by=user)
    response = call_api(new.key)
    assert_problem(response, 401)
    assert response["WWW-Authenticate"] == "Token"


def test_drf_tokens_are_gone() -> None:
    from django.conf import settings

    assert "rest_framework.authtoken" not in settings.INSTALLED_APPS
    assert settings.REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"][0] == (
        "league.api.authentication.ApiTokenAuthentication"
    )


# -- invitations ----------------------------------------------------------------------------


def test_an_invitation_makes_the_user_and_an_invitation_but_no_role() -> None:
    setup = club_setup()
    made = user_invite(
        club=setup.club,
        username=" guest.player ",
        email=" Guest@Example.ORG ",
        role="scorekeeper",
        by=setup.organiser,
    )
    invitation = made.invitation
    user = invitation.user
    assert user.username == "guest.player"
    assert user.email == "Guest@example.org"  # the domain lower-cased, as Django does
    assert made.email == "Guest@example.org"
    assert not user.has_usable_password()
    assert (invitation.role, invitation.new_login, invitation.made_by) == (
        "scorekeeper",
        True,
        setup.organiser,
    )
    assert not Membership.objects.filter(user=user).exists()
    # only the secret's digest is stored
    assert invitation.digest == hashlib.sha256(made.secret.encode()).hexdigest()
    stored = [str(value) for value in Invitation.objects.values_list().get()]
    assert made.secret not in stored
    assert invitation.expires_at == invitation.made_at + datetime.timedelta(days=3)


def test_accepting_gives_the_role_once_and_a_password_only_to_a_login_it_made() -> None:
    setup = club_setup()
    existing = UserFactory()
    made = user_invite(
        club=setup.club, username=existing.username, email="", role="organiser", by=setup.organiser
    )
    with pytest.raises(Conflict) as refused:  # a password for a login it did not make
        invitation_accept(invitation=made.invitation, by=existing, password="a-new-Passw0rd")
    assert refused.value.field == "password"
    with pytest.raises(NotFound):  # not theirs
        invitation_accept(invitation=made.invitation, by=setup.scorekeeper)
    assert not Membership.objects.filter(user=existing).exists()
    accepted = invitation_accept(invitation=made.invitation, by=existing)
    assert accepted.membership.role == "organiser"
    assert accepted.player is None
    with pytest.raises(NotFound):  # once
        invitation_accept(invitation=made.invitation, by=existing)


def test_a_player_linked_since_the_invitation_is_not_taken_from_them() -> None:
    setup = club_setup()
    existing = UserFactory()
    player = setup.players[6]
    made = user_invite(
        club=setup.club,
        username=existing.username,
        email="",
        role="scorekeeper",
        by=setup.organiser,
        player=player,
    )
    player_update(player=player, user=setup.scorekeeper)
    accepted = invitation_accept(invitation=made.invitation, by=existing)
    assert accepted.player is None
    player.refresh_from_db()
    assert player.user == setup.scorekeeper
    assert Membership.objects.get(club=setup.club, user=existing).role == "scorekeeper"


def test_inviting_the_same_login_again_replaces_its_invitation() -> None:
    setup = club_setup()
    first = user_invite(
        club=setup.club, username="twice", email="", role="scorekeeper", by=setup.organiser
    )
    again = user_invite(
        club=setup.club, username="twice", email="", role="organiser", by=setup.organiser
    )
    assert Invitation.objects.get().pk == again.invitation.pk
    assert again.invitation.new_login  # still the club's own new login, without a password
    assert first.secret != again.secret


@pytest.mark.parametrize("who", ["scorekeeper", "member", "outsider"])
def test_only_an_organiser_invites(who: str) -> None:
    setup = club_setup()
    by = {
        "scorekeeper": setup.scorekeeper,
        "member": member(setup),
        "outsider": club_setup().organiser,
    }[who]
    users = UserFactory._meta.model.objects.count()
    with pytest.raises(Forbidden):
        user_invite(club=setup.club, username="nope", email="", role="scorekeeper", by=by)
    assert UserFactory._meta.model.objects.count() == users


def test_a_role_unknown_is_refused() -> None:
    setup = club_setup()
    with pytest.raises(ServiceError) as refused:
        user_invite(club=setup.club, username="x", email="", role="boss", by=setup.organiser)
    assert refused.value.field == "role"


def test_a_player_of_another_club_is_refused() -> None:
    setup, other = club_setup(), club_setup()
    with pytest.raises(ServiceError) as refused:
        user_invite(
            club=setup.club,
            username="x",
            email="",
            role="scorekeeper",
            by=setup.organiser,
            player=other.players[0],
        )
    assert refused.value.field == "player"
    assert not UserFactory._meta.model.objects.filter(username="x").exists()


# -- a new password ends the tokens ---------------------------------------------------------

NEW_PASSWORD = "a-fresh-Passw0rd-9"


def test_a_password_reset_revokes_the_users_tokens(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """Issue 28, item 6: after a reset the other sessions ended but an old API
    token still worked. Now the new password revokes every token of the
    login, and the page says so."""
    user = UserFactory(email="reset@example.org")
    key = api_token_create(user=user, name="script").key
    theirs = api_token_create(user=UserFactory(), name="script").key
    assert call_api(key).status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        Client().post(reverse("password_reset"), {"email": user.email})
    found = re.search(r"http://testserver(/accounts/set-password/\S+/)", mail.outbox[0].body)
    assert found
    client = Client()
    opened = client.get(found[1], follow=True)
    assert "A new password ends the login" in text(opened)  # said before, with the rules
    done = client.post(
        opened.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert done["Location"] == reverse("password_reset_complete")

    assert_problem(call_api(key), 401)
    assert not ApiToken.objects.filter(user=user).exists()
    assert call_api(theirs).status_code == 201  # another login's token is its own
    assert "any API token it had no longer works" in text(client.get(done["Location"]))


def test_a_password_change_revokes_the_users_tokens() -> None:
    user = UserFactory()
    key = api_token_create(user=user, name="script").key
    client = signed_in(user)
    wrong = client.post(
        reverse("password_change"),
        {"old_password": "not it", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert wrong.status_code == 200
    assert call_api(key).status_code == 201  # a refused change ends nothing

    done = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert done["Location"] == reverse("password_change_done")
    assert_problem(call_api(key), 401)
    assert "Your API tokens no longer work" in text(client.get(done["Location"]))
    assert client.get(reverse("account")).status_code == 200  # this session goes on


def test_a_password_set_anywhere_revokes_the_tokens() -> None:
    """The admin's password form, ``manage.py changepassword``: whatever calls
    ``set_password()`` and saves."""
    user = UserFactory()
    key = api_token_create(user=user, name="script").key
    user.set_password(NEW_PASSWORD)
    user.save()
    assert_problem(call_api(key), 401)
    assert api_token_create(user=user, name="new one").key  # new tokens work again
    assert ApiToken.objects.filter(user=user).count() == 1


# -- mail settings --------------------------------------------------------------------------


def test_mail_goes_to_the_console_unless_a_server_is_given() -> None:
    found = email_settings({})
    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert found["EMAIL_TIMEOUT"] == 10


def test_an_email_url_names_the_server() -> None:
    found = email_settings(
        {
            "EMAIL_URL": "smtp+tls://me%40x.org:p%2Fw@mail.x.org:587",
            "EMAIL_TIMEOUT": "5",
            "DEFAULT_FROM_EMAIL": "league@x.org",
        }
    )
    assert found == {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_TIMEOUT": 5,
        "DEFAULT_FROM_EMAIL": "league@x.org",
        "EMAIL_HOST": "mail.x.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "me@x.org",
        "EMAIL_HOST_PASSWORD": "p/w",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }
    assert email_settings({"EMAIL_URL": "smtp+ssl://mail.x.org"})["EMAIL_PORT"] == 465
    with pytest.raises(ValueError):
        email_settings({"EMAIL_URL": "imap://mail.x.org"})


def test_email_host_and_friends_name_the_server() -> None:
    found = email_settings({"EMAIL_HOST": "mail.x.org", "EMAIL_PORT": "2525", "EMAIL_USE_TLS": "1"})
    assert found["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (found["EMAIL_HOST"], found["EMAIL_PORT"], found["EMAIL_USE_TLS"]) == (
        "mail.x.org",
        2525,
        True,
    )
