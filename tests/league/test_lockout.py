"""Wrong passwords and old keys: the lockout after too many wrong passwords
(django-axes) on the login page and the admin's, for a username from one
address, a username from anywhere and an address whatever the username, its
cool-off, the address it counts by (X-Forwarded-For through the trusted
proxies); tokens that expire; demo data refused under production settings.
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.core.management import CommandError
from django.db.models import F
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from league.client_address import client_ip
from league.models import ApiToken, Club
from league.services.accounts import api_token_create
from tests.support.api import assert_problem
from tests.support.factories import PASSWORD, UserFactory
from tests.support.markup import text
from tests.support.setups import run_demo_data

pytestmark = pytest.mark.django_db

LIMIT = django_settings.AXES_FAILURE_LIMIT
USERNAME_LIMIT = django_settings.LOGIN_USERNAME_FAILURE_LIMIT
ADDRESS_LIMIT = django_settings.LOGIN_ADDRESS_FAILURE_LIMIT
NEW_PASSWORD = "a-fresh-Passw0rd-9"
ROOT = Path(__file__).resolve().parents[2]


def log_in(client: Client, username: str, password: str, url: str = "/accounts/login/") -> Any:
    return client.post(url, {"username": username, "password": password})


def logged_in(response: Any) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def test_the_limits_and_cool_off_are_five_twenty_and_thirty_wrong_passwords_in_15_minutes() -> None:
    assert (LIMIT, USERNAME_LIMIT, ADDRESS_LIMIT) == (5, 20, 30)
    assert datetime.timedelta(minutes=15) == django_settings.AXES_COOLOFF_TIME
    assert django_settings.AXES_LOCKOUT_PARAMETERS == [
        ["ip_address", "username"],
        "username",
        "ip_address",
    ]
    assert django_settings.AXES_HANDLER == "league.web.lockout.LoginThrottle"
    assert django_settings.TRUSTED_PROXIES == 1


def test_wrong_passwords_lock_the_username_out_even_with_the_right_one() -> None:
    user = UserFactory()
    client = Client()
    for attempt in range(LIMIT - 1):
        refused = log_in(client, user.username, f"wrong {attempt}")
        assert refused.status_code == 200  # the page again, "wrong password"
    locked = log_in(client, user.username, "wrong again")
    assert locked.status_code == 429

    right = log_in(client, user.username, PASSWORD)

    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    page = text(right)
    assert "Too many wrong passwords" in page
    assert f"After {LIMIT} wrong passwords for “{user.username}”" in page
    assert "paused for 15 minutes, even with the right password" in page
    assert right["Content-Type"].startswith("text/html")


def test_the_admin_login_counts_and_locks_out_too() -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    for attempt in range(LIMIT):
        log_in(client, admin.username, f"wrong {attempt}", url="/admin/login/")
    right = log_in(client, admin.username, PASSWORD, url="/admin/login/")
    assert right.status_code == 429
    assert "Too many wrong passwords" in right.content.decode()
    # The page it shows logs in back to the admin once the lockout ends.
    assert 'name="next" value="/admin/"' in right.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_lockout_ends_after_the_cool_off() -> None:
    user = UserFactory()
    client = Client()
    for attempt in range(LIMIT):
        log_in(client, user.username, f"wrong {attempt}")
    assert log_in(client, user.username, PASSWORD).status_code == 429
    # Fifteen minutes and a second later (the attempts recorded that long ago).
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - datetime.timedelta(minutes=15, seconds=1)
    )

    assert logged_in(log_in(client, user.username, PASSWORD))


def test_failures_during_a_lockout_do_not_extend_it() -> None:
    user = UserFactory()
    client = Client()
    for attempt in range(LIMIT):
        log_in(client, user.username, f"wrong {attempt}")
    AccessAttempt.objects.update(attempt_time=timezone.now() - datetime.timedelta(minutes=10))
    for attempt in range(3):  # the attacker keeps trying while locked out
        assert log_in(client, user.username, f"still wrong {attempt}").status_code == 429
    # ...yet the lockout ends fifteen minutes after it began: five minutes on.
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - datetime.timedelta(minutes=5, seconds=1)
    )
    assert logged_in(log_in(client, user.username, PASSWORD))


def test_a_lockout_is_of_one_username_from_one_address() -> None:
    victim, other = UserFactory(), UserFactory()
    attacker = Client(REMOTE_ADDR="203.0.113.66")
    for attempt in range(LIMIT + 3):
        log_in(attacker, victim.username, f"guess {attempt}")
    # The victim logs in from their own address; another user from the attacker's.
    assert logged_in(log_in(Client(REMOTE_ADDR="198.51.100.7"), victim.username, PASSWORD))
    assert logged_in(log_in(Client(REMOTE_ADDR="203.0.113.66"), other.username, PASSWORD))


def test_a_success_before_the_limit_clears_the_count() -> None:
    user = UserFactory()
    client = Client()
    for attempt in range(LIMIT - 1):
        log_in(client, user.username, f"wrong {attempt}")
    assert logged_in(log_in(client, user.username, PASSWORD))
    client.post(reverse("logout"))
    for attempt in range(LIMIT - 1):
        log_in(client, user.username, f"wrong again {attempt}")
    assert logged_in(log_in(client, user.username, PASSWORD))


def test_the_address_is_the_proxys_header_where_the_settings_trust_one(
    settings: Settings,
) -> None:
    request = RequestFactory().get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9"
    )
    assert client_ip(request) == "127.0.0.1"  # no proxy trusted: the connection's
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    assert client_ip(request) == "203.0.113.9"  # the address the proxy added, last
    unix_socket = RequestFactory().get("/", REMOTE_ADDR="")
    assert client_ip(unix_socket) is None


def test_behind_the_proxy_two_addresses_are_counted_apart(settings: Settings) -> None:
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    user = UserFactory()
    attacker = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.66")
    for attempt in range(LIMIT):
        log_in(attacker, user.username, f"guess {attempt}")
    assert log_in(attacker, user.username, PASSWORD).status_code == 429
    owner = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert logged_in(log_in(owner, user.username, PASSWORD))


def test_a_spray_from_one_address_pauses_that_address() -> None:
    """Issue 28, item 5: one address could try four wrong passwords at every
    login (each pair under five). Now thirty wrong passwords from one address,
    whatever the usernames, pause logging in from there."""
    sprayed = [UserFactory() for _ in range(ADDRESS_LIMIT // 3)]
    spray = Client(REMOTE_ADDR="203.0.113.66")
    answers = [
        log_in(spray, user.username, f"guess {attempt}").status_code
        for user in sprayed
        for attempt in range(3)
    ]
    assert answers == [200] * (ADDRESS_LIMIT - 1) + [429]  # the last one pauses the address
    newcomer = UserFactory()

    paused = log_in(Client(REMOTE_ADDR="203.0.113.66"), newcomer.username, PASSWORD)

    assert paused.status_code == 429
    page = text(paused)
    assert f"After {ADDRESS_LIMIT} wrong passwords from your network, for any login" in page
    assert "_auth_user_id" not in paused.client.session
    # the same login from elsewhere is not paused
    assert logged_in(log_in(Client(REMOTE_ADDR="198.51.100.7"), newcomer.username, PASSWORD))


def test_a_shared_address_spares_the_logins_that_logged_in_from_it_before() -> None:
    """A club's wifi (a NAT): one person's typos, or a stranger's spray, do not
    lock out everyone behind the address, only logins new to it."""
    regular = UserFactory()
    club_wifi = "192.0.2.10"
    assert logged_in(log_in(Client(REMOTE_ADDR=club_wifi), regular.username, PASSWORD))
    for n in range(ADDRESS_LIMIT):
        log_in(Client(REMOTE_ADDR=club_wifi), f"nobody{n}", "guess")

    assert logged_in(log_in(Client(REMOTE_ADDR=club_wifi), regular.username, PASSWORD))
    assert (
        log_in(Client(REMOTE_ADDR=club_wifi), UserFactory().username, PASSWORD).status_code == 429
    )


def test_guessing_at_one_username_from_many_addresses_pauses_it_where_it_is_new() -> None:
    """Issue 28, item 5: five wrong passwords locked a username at one address
    only: every other address could go on guessing. Now twenty from anywhere
    pause it, except where the user has logged in before (so a stranger cannot
    lock them out at home), and the page says what to do."""
    victim = UserFactory()
    home = "198.51.100.7"
    assert logged_in(log_in(Client(REMOTE_ADDR=home), victim.username, PASSWORD))
    answers = [
        log_in(Client(REMOTE_ADDR=f"203.0.113.{n + 1}"), victim.username, "guess").status_code
        for n in range(USERNAME_LIMIT)
    ]
    assert answers == [200] * (USERNAME_LIMIT - 1) + [429]  # the last one pauses the username

    paused = log_in(Client(REMOTE_ADDR="192.0.2.200"), victim.username, PASSWORD)

    assert paused.status_code == 429
    page = text(paused)
    assert (
        f"After {USERNAME_LIMIT} wrong passwords for “{victim.username}” from several places"
        in page
    )
    assert "except from where it has logged in before" in page
    assert reverse("password_reset") in page
    assert logged_in(log_in(Client(REMOTE_ADDR=home), victim.username, PASSWORD))
    # another login from the guessers' addresses is not held up
    assert logged_in(log_in(Client(REMOTE_ADDR="203.0.113.1"), UserFactory().username, PASSWORD))


def test_a_new_password_ends_the_pause_of_its_username() -> None:
    victim = UserFactory()
    for n in range(USERNAME_LIMIT):
        log_in(Client(REMOTE_ADDR=f"203.0.113.{n + 1}"), victim.username, "guess")
    somewhere = "192.0.2.200"
    assert log_in(Client(REMOTE_ADDR=somewhere), victim.username, PASSWORD).status_code == 429
    victim.set_password(NEW_PASSWORD)  # as the emailed reset link does
    victim.save()
    assert logged_in(log_in(Client(REMOTE_ADDR=somewhere), victim.username, NEW_PASSWORD))


def test_a_success_clears_its_own_count_alone() -> None:
    """A sprayer with a login of their own cannot wipe the address's count by
    logging in with it now and then (django-axes would clear every count the
    request matches)."""
    sprayer = UserFactory()
    address = "203.0.113.66"
    for n in range(ADDRESS_LIMIT - 1):
        log_in(Client(REMOTE_ADDR=address), f"nobody{n}", "guess")
    assert logged_in(log_in(Client(REMOTE_ADDR=address), sprayer.username, PASSWORD))
    log_in(Client(REMOTE_ADDR=address), "nobody-else", "guess")  # the thirtieth
    newcomer = UserFactory()
    assert log_in(Client(REMOTE_ADDR=address), newcomer.username, PASSWORD).status_code == 429


def test_the_admin_login_is_paused_by_the_wider_counts_too() -> None:
    admin = UserFactory(is_staff=True, is_superuser=True)
    for n in range(USERNAME_LIMIT):
        log_in(
            Client(REMOTE_ADDR=f"203.0.113.{n + 1}"), admin.username, "guess", url="/admin/login/"
        )
    paused = log_in(
        Client(REMOTE_ADDR="192.0.2.200"), admin.username, PASSWORD, url="/admin/login/"
    )
    assert paused.status_code == 429
    assert "from several places" in text(paused)
    assert 'name="next" value="/admin/"' in paused.content.decode()


def test_x_forwarded_for_is_read_through_the_trusted_proxies_alone(settings: Settings) -> None:
    """Issue 28, item 5: the address was the header's last, whatever stood in
    front of nginx; behind a load balancer everyone shared its address. Now
    the client is ``TRUSTED_PROXIES`` from the header's end, and what a client
    wrote before that is never read."""
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    forwarded = "6.6.6.6, 203.0.113.9, 10.0.0.1"  # a client's claim, the balancer's, nginx's
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)
    settings.TRUSTED_PROXIES = 1
    assert client_ip(request) == "10.0.0.1"  # nginx alone: the address it saw
    settings.TRUSTED_PROXIES = 2
    assert client_ip(request) == "203.0.113.9"  # a balancer in front: the address it saw
    settings.TRUSTED_PROXIES = 5
    assert client_ip(request) == "6.6.6.6"  # fewer addresses than proxies: the first
    settings.TRUSTED_PROXIES = 0
    assert client_ip(request) == "10.0.0.2"  # no proxy trusted: the connection's
    settings.TRUSTED_PROXIES = 1
    garbled = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="x, <b>")
    assert client_ip(garbled) == "10.0.0.2"  # not an address: the connection's, never a 500


def test_behind_a_load_balancer_two_clients_are_counted_apart(settings: Settings) -> None:
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    settings.TRUSTED_PROXIES = 2
    user = UserFactory()
    via = {"REMOTE_ADDR": "127.0.0.1"}
    attacker = Client(HTTP_X_FORWARDED_FOR="203.0.113.66, 10.0.0.1", **via)
    for attempt in range(LIMIT):
        log_in(attacker, user.username, f"guess {attempt}")
    assert log_in(attacker, user.username, PASSWORD).status_code == 429
    # claiming the owner's address in front of its own does not help
    spoofing = Client(HTTP_X_FORWARDED_FOR="198.51.100.7, 203.0.113.66, 10.0.0.1", **via)
    assert log_in(spoofing, user.username, PASSWORD).status_code == 429
    owner = Client(HTTP_X_FORWARDED_FOR="198.51.100.7, 10.0.0.1", **via)
    assert logged_in(log_in(owner, user.username, PASSWORD))


# -- tokens expire -----------------------------------------------------------------------


def test_a_token_past_its_age_is_refused_saying_so() -> None:
    user = UserFactory()
    key = api_token_create(user=user, name="old script").key
    token = ApiToken.objects.get()
    assert token.expires_at == token.created_at + django_settings.API_TOKEN_MAX_AGE
    headers = {"HTTP_AUTHORIZATION": f"Token {key}"}
    assert Client().post("/api/clubs/", {"name": "Fresh"}, **headers).status_code == 201

    ApiToken.objects.update(created_at=timezone.now() - django_settings.API_TOKEN_MAX_AGE)
    refused = Client().post("/api/clubs/", {"name": "Stale"}, **headers)

    assert "expired" in assert_problem(refused, 401)["detail"]
    assert not Club.objects.filter(name="Stale").exists()


def test_the_tokens_page_says_when_each_token_expires() -> None:
    user = UserFactory()
    api_token_create(user=user, name="fresh")
    api_token_create(user=user, name="stale")
    ApiToken.objects.filter(name="stale").update(
        created_at=timezone.now() - django_settings.API_TOKEN_MAX_AGE - datetime.timedelta(days=1)
    )
    client = Client()
    client.force_login(user)
    page = text(client.get(reverse("api-tokens")))
    assert page.count("<dt>Expires</dt>") == 1 and page.count("<dt>Expired</dt>") == 1
    assert f"A token works for {django_settings.API_TOKEN_MAX_AGE.days} days" in page
    assert "revoke the old one" in page


# -- demo data never under production settings -----------------------------------------------


def test_demo_data_is_refused_where_the_settings_forbid_it(settings: Settings) -> None:
    settings.DEMO_DATA_ALLOWED = False
    with pytest.raises(CommandError, match="password is published"):
        run_demo_data()
    assert not Club.objects.exists()
    assert not UserFactory._meta.model.objects.filter(username="organiser").exists()


def test_the_production_settings_refuse_demo_data() -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "k" * 60,
        "ALLOWED_HOSTS": "league.example.org",
        # A database that does not exist: the command must stop before any query.
        "DATABASE_URL": "sqlite:////nonexistent-folder/league.sqlite3",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "demo_data"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "DEMO_DATA_ALLOWED = False" in done.stderr
    assert "Traceback" not in done.stderr
