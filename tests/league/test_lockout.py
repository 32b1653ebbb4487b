"""Wrong passwords and old keys: the lockout after too many wrong passwords
(django-axes) on the login page and the admin's, its cool-off, the address
it counts by; tokens that expire; demo data refused under production settings.
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

from league.models import ApiToken, Club
from league.services.accounts import api_token_create
from league.web.lockout import client_ip
from tests.support.api import assert_problem
from tests.support.factories import PASSWORD, UserFactory
from tests.support.markup import text
from tests.support.setups import run_demo_data

pytestmark = pytest.mark.django_db

LIMIT = django_settings.AXES_FAILURE_LIMIT
ROOT = Path(__file__).resolve().parents[2]


def log_in(client: Client, username: str, password: str, url: str = "/accounts/login/") -> Any:
    return client.post(url, {"username": username, "password": password})


def logged_in(response: Any) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.client.session


def test_the_limit_and_cool_off_are_five_wrong_passwords_and_fifteen_minutes() -> None:
    assert LIMIT == 5
    assert datetime.timedelta(minutes=15) == django_settings.AXES_COOLOFF_TIME
    assert django_settings.AXES_LOCKOUT_PARAMETERS == [["ip_address", "username"]]


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
