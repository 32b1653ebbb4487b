"""Settings shared by every environment, read from the environment.

| variable | meaning | default |
|---|---|---|
| ``DATABASE_URL`` | e.g. ``postgres://user@host:5432/league`` | a SQLite file in the project |
| ``DB_STATEMENT_TIMEOUT``, ``DB_LOCK_TIMEOUT`` | a request's PostgreSQL waits, seconds | 5, 3 |
| ``DB_JOB_STATEMENT_TIMEOUT``, ``DB_JOB_LOCK_TIMEOUT`` | a job's or command's, seconds | 600, 120 |
| ``DB_CONNECT_TIMEOUT`` | seconds to wait for PostgreSQL to accept a connection | 3 |
| ``DB_PREPARED_STATEMENTS`` | ``0`` behind a pooler that cannot keep them (league/db.py) | on |
| ``CELERY_BROKER_URL`` | e.g. ``redis://127.0.0.1:6379/0`` | none: tasks run in the web process |
| ``JOBS_WITHOUT_BROKER`` | no broker: ``thread`` (after the response), ``inline`` | ``thread`` |
| ``DOWNLOAD_STREAM_LINES`` | the most hand lines a games download streams | 200000 |
| ``DOWNLOAD_STREAM_SECONDS`` | how long a streamed download may run | 20 |
| ``ARCHIVES_ROOT`` | the files of larger downloads (one folder for all hosts) | ``archives`` |
| ``ARCHIVE_AGAIN_AFTER_MINUTES`` | how soon such a file may be prepared again | 10 |
| ``SECRET_KEY`` | Django's signing key | required in production |
| ``DEBUG`` | ``1``/``true`` to show debug pages | off (on in ``local``) |
| ``ALLOWED_HOSTS`` | comma-separated host names | ``localhost,127.0.0.1`` |
| ``SITE_DOMAIN`` | the site's own host name (calendar UIDs) | the first of ``ALLOWED_HOSTS`` |
| ``EMAIL_URL`` | e.g. ``smtp+tls://user:pw@mail.example.org:587`` | none: mail to the console |
| ``EMAIL_HOST`` (or the URL's) | the SMTP server, with ``EMAIL_PORT`` (25), | none |
|   | ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS`` (off) | |
| ``DEFAULT_FROM_EMAIL`` | who invitations and password resets come from | ``webmaster@localhost`` |
| ``EMAIL_TIMEOUT`` | seconds to wait for the SMTP server | 10 |
| ``TRUSTED_PROXIES`` | proxies in front adding to ``X-Forwarded-For`` (production) | 1 |
| ``AXES_FAILURE_LIMIT`` | wrong passwords pausing a username at an address | 5 |
| ``LOGIN_USERNAME_FAILURE_LIMIT`` | ...a username from anywhere | 20 |
| ``LOGIN_ADDRESS_FAILURE_LIMIT`` | ...an address, whatever the username | 30 |
| ``AXES_COOLOFF_MINUTES`` | how long they count, and the pause lasts | 15 |
| ``PASSWORD_RESET_RATE`` | password resets an address may ask for | 10/h |
| ``PASSWORD_RESET_EMAIL_RATE`` | password resets one email address may get | 3/h |
| ``INVITATION_RATE`` | invitations an organiser makes | 30/h |
| ``CLUB_CREATION`` | who may start a club: ``anyone`` signed in, or ``staff`` | ``anyone`` |
| ``TIME_ZONE`` | the clubs' time zone: "today", a new night's date | ``UTC`` |
| ``PERSONAL_LINK_RATE`` | requests one player's personal link may make | 60/m |
| ``PERSONAL_LINK_MAIL_RATE`` | personal links an organiser may mail | 100/h |
"""

import base64
import datetime
import hashlib
import os
import re
import zoneinfo
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import dj_database_url
from csp import constants as csp
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")


def site_domain(environ: Mapping[str, str], allowed_hosts: list[str]) -> str:
    """The site's own name: ``SITE_DOMAIN``, or else the first of
    ``ALLOWED_HOSTS`` that names one host (not ``*``; ``.example.org`` gives
    ``example.org``), or else ``localhost``. What the site calls itself
    whatever a request's ``Host`` says (the calendar feeds' UIDs).

    >>> site_domain({}, ["league.example.org", "www.league.example.org"])
    'league.example.org'
    >>> site_domain({}, ["*", ".example.org"]), site_domain({}, ["*"])
    ('example.org', 'localhost')
    >>> site_domain({"SITE_DOMAIN": "League.Example.org"}, ["*"])
    'league.example.org'

    Anything but a host name (a URL, a path, a space) is refused with
    :class:`ImproperlyConfigured`.
    """
    given = environ.get("SITE_DOMAIN", "").strip()
    if not given:
        named = (host.lstrip(".") for host in allowed_hosts if host not in ("*", "."))
        given = next(named, "") or "localhost"
    if not re.fullmatch(r"[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]", given):
        raise ImproperlyConfigured(
            f"SITE_DOMAIN is {given!r}: give a host name, such as league.example.org"
        )
    return given.lower()


SITE_DOMAIN = site_domain(os.environ, ALLOWED_HOSTS)
"""The site's own host name (``SITE_DOMAIN``; by default the first of
``ALLOWED_HOSTS``): calendar feeds end their UIDs with it, so that a night
keeps one UID whichever of the site's names a feed was read at."""

INSTALLED_APPS = [
    # first, so that its runserver (a club night's connections) is the one run
    "league.devserver",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "csp",
    "django_ratelimit",
    "league",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # gzip (not what whitenoise serves, compressed beforehand), except answers
    # that may hold a secret (BREACH): league/web/compression.py
    "league.web.compression.GZipUnlessNoStoreMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # the page's language: the login's choice, the switch, the browser's, the club's
    # (league/web/languages.py, docs/translating.md); after the session and the login
    "league.web.languages.LanguageMiddleware",
    # who changed what, and through what, for the audit trail (league/audit.py)
    "league.audit.AuditMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # last, as django-axes asks: it turns a lockout into the page that says so
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Connections: gunicorn's sync workers serve one request at a time each, so a
# process holds at most one connection, kept for a minute between requests
# (CONN_MAX_AGE) and checked before reuse (CONN_HEALTH_CHECKS), never held
# by idle threads (docs/operations.md, "A web process").
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A server that does not answer fails the connection after this many
    # seconds instead of never (libpq waits forever by default).
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = int(
        os.environ.get("DB_CONNECT_TIMEOUT") or 3
    )
    # Parameters travel apart from the SQL, bound by the server, instead of
    # quoted into its text: a statement then reads the same every time, so
    # what a request runs again and again is prepared once (league/db.py).
    DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite for a club night's several writers (docs/operations.md, "One box"):
    # the WAL journal, so that readers never wait for the writer nor it for them
    # (kept at synchronous=FULL, its default: a hand answered 201 survives a power
    # cut); every transaction takes the write lock when it begins (a transaction
    # that read first and then wrote would fail at once if another wrote between);
    # writers queued in the order they came by league.backends.sqlite, each waiting
    # at most its work's lock timeout (3 s for a request); SQLite's own busy
    # timeout for writers from outside the site (a sqlite3 shell).
    DATABASES["default"]["ENGINE"] = "league.backends.sqlite"
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=5,
        init_command="PRAGMA journal_mode=WAL",
    )

# On PostgreSQL a request's statement that has run five times on a connection
# is prepared there, parsed and planned once (league/db.py); 0 turns that off,
# for a pooler in transaction mode that cannot keep prepared statements
# (PgBouncer before 1.21).
DATABASE_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)

# Bounded waits on PostgreSQL, in seconds (0: none), applied to every connection
# by league/db.py: a request gives up on a lock within 3 s (PostgreSQL's
# lock_timeout is half of it: a row's lock can be two waits) and on a statement
# after 5 s, inside gunicorn's 30 s, and is answered 503 with Retry-After; a
# background job (or a command) waits longer: a standings job scans a whole
# league, 45 s at 100,000 games, and a job that still times out is retried.
DATABASE_TIMEOUTS = {
    "web": {
        "statement": float(os.environ.get("DB_STATEMENT_TIMEOUT") or 5),
        "lock": float(os.environ.get("DB_LOCK_TIMEOUT") or 3),
    },
    "job": {
        "statement": float(os.environ.get("DB_JOB_STATEMENT_TIMEOUT") or 600),
        "lock": float(os.environ.get("DB_JOB_LOCK_TIMEOUT") or 120),
    },
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Not a rule: a new password, however set, revokes the login's API tokens and
    # forgets its failed logins (league/passwords.py says why it is listed here).
    {"NAME": "league.passwords.PasswordChangeEffects"},
]

LANGUAGE_CODE = "en-gb"
# The pages' languages (docs/translating.md). English is the source language: its
# texts are the msgids; Ukrainian and Czech have catalogues in locale/.
LANGUAGES = [
    ("en-gb", "English"),
    ("uk", "Українська"),
    ("cs", "Čeština"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates and numbers as each language writes them (config/formats/<language>/formats.py)
FORMAT_MODULE_PATH = ["config.formats"]


def time_zone(environ: Mapping[str, str]) -> str:
    """The site's time zone (an IANA name, ``Europe/London``): which day "today"
    is for the Tonight page and a new game night's date. Checked here, as a
    name Django would refuse only once a request asks the time."""
    name = environ.get("TIME_ZONE", "").strip() or "UTC"
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(
            f"TIME_ZONE is a time zone's name such as Europe/London, not {name!r}"
        ) from None
    return name


TIME_ZONE = time_zone(os.environ)
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Downloads prepared in the background (league/archives.py): their files. Every
# web process and every worker must reach the same folder (or another storage:
# any of Django's, named "archives").
ARCHIVES_ROOT = Path(os.environ.get("ARCHIVES_ROOT") or BASE_DIR / "archives")
ARCHIVES_STORAGE = {
    "BACKEND": "django.core.files.storage.FileSystemStorage",
    "OPTIONS": {"location": ARCHIVES_ROOT},
}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "archives": ARCHIVES_STORAGE,
}


# Mail: invitations and password resets. Without a server configured they are
# printed on the console (and the invitation link is shown on the page anyway).
def email_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """Django's EMAIL_* settings from ``EMAIL_URL`` or ``EMAIL_HOST`` and friends.

    >>> email_settings({})["EMAIL_BACKEND"]
    'django.core.mail.backends.console.EmailBackend'
    >>> found = email_settings({"EMAIL_URL": "smtp+tls://me%40x.org:p%2Fw@mail.x.org:587"})
    >>> found["EMAIL_HOST"], found["EMAIL_PORT"], found["EMAIL_HOST_USER"], found["EMAIL_USE_TLS"]
    ('mail.x.org', 587, 'me@x.org', True)
    >>> found["EMAIL_HOST_PASSWORD"]
    'p/w'
    """
    found: dict[str, Any] = {
        "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend",
        "EMAIL_TIMEOUT": int(environ.get("EMAIL_TIMEOUT") or 10),
    }
    if environ.get("DEFAULT_FROM_EMAIL"):
        found["DEFAULT_FROM_EMAIL"] = environ["DEFAULT_FROM_EMAIL"]
    url = environ.get("EMAIL_URL", "")
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtp+tls", "smtp+ssl"):
            raise ValueError("EMAIL_URL: use smtp://, smtp+tls:// or smtp+ssl://")
        found.update(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST=parts.hostname or "localhost",
            EMAIL_PORT=parts.port or {"smtp": 25, "smtp+tls": 587}.get(parts.scheme, 465),
            EMAIL_HOST_USER=unquote(parts.username or ""),
            EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
            EMAIL_USE_TLS=parts.scheme == "smtp+tls",
            EMAIL_USE_SSL=parts.scheme == "smtp+ssl",
        )
    elif environ.get("EMAIL_HOST"):
        found.update(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST=environ["EMAIL_HOST"],
            EMAIL_PORT=int(environ.get("EMAIL_PORT") or 25),
            EMAIL_HOST_USER=environ.get("EMAIL_HOST_USER", ""),
            EMAIL_HOST_PASSWORD=environ.get("EMAIL_HOST_PASSWORD", ""),
            EMAIL_USE_TLS=environ.get("EMAIL_USE_TLS", "").strip().lower()
            in ("1", "true", "yes", "on"),
        )
    return found


_EMAIL = email_settings(os.environ)
EMAIL_BACKEND: str = _EMAIL["EMAIL_BACKEND"]
EMAIL_TIMEOUT: int = _EMAIL["EMAIL_TIMEOUT"]
EMAIL_HOST: str = _EMAIL.get("EMAIL_HOST", "localhost")
EMAIL_PORT: int = _EMAIL.get("EMAIL_PORT", 25)
EMAIL_HOST_USER: str = _EMAIL.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD: str = _EMAIL.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS: bool = _EMAIL.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL: bool = _EMAIL.get("EMAIL_USE_SSL", False)
DEFAULT_FROM_EMAIL: str = _EMAIL.get("DEFAULT_FROM_EMAIL", "webmaster@localhost")

# Wrong passwords (django-axes, league/web/lockout.py): the login page, the
# admin's and anything else that calls authenticate() with the request. Three
# counts over the last AXES_COOLOFF_TIME each pause logging in for that long, the
# right password too: AXES_FAILURE_LIMIT wrong passwords for one username from
# one address (someone guessing at a login); LOGIN_USERNAME_FAILURE_LIMIT for
# one username from anywhere (the guessing spread over many addresses);
# LOGIN_ADDRESS_FAILURE_LIMIT from one address whatever the username (a spray
# of a few passwords at every login). The last two spare a username at an
# address it has logged in from before, so that a stranger's guessing cannot
# lock a user out at home or at the club, nor one person's typos everyone
# behind a shared address (a club's wifi, a NAT). A lockout always ends
# (nothing is locked for good), failures while locked out do not extend it, and
# a success clears its username's count from its address alone.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "league.web.lockout.LoginThrottle"
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT") or 5)
LOGIN_USERNAME_FAILURE_LIMIT = int(os.environ.get("LOGIN_USERNAME_FAILURE_LIMIT") or 20)
LOGIN_ADDRESS_FAILURE_LIMIT = int(os.environ.get("LOGIN_ADDRESS_FAILURE_LIMIT") or 30)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES") or 15))
# The three counts as django-axes' lockout parameters (what a success, a reset
# and its logs go by); league.web.lockout.LoginThrottle gives each its limit.
AXES_LOCKOUT_PARAMETERS = [["ip_address", "username"], "username", "ip_address"]
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "league.web.lockout.lockout_response"
AXES_CLIENT_IP_CALLABLE = "league.client_address.client_ip"
CLIENT_IP_HEADER: str | None = None
"""The request header holding the client's address, which the proxies in front
add to (production: X-Forwarded-For); without one, the connection's address."""
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES") or 1)
"""How many proxies in front each add the address they saw to the end of
CLIENT_IP_HEADER: the client's address is that many from the end, and what
comes before it is the client's own claim, never read (league/web/lockout.py).
1 for nginx alone (deploy/nginx.conf); 2 with a load balancer in front of it."""

# An API token stops working this long after it was made (a new one replaces
# it: docs/operations.md, "Hostile input and accounts").
API_TOKEN_MAX_AGE = datetime.timedelta(days=int(os.environ.get("API_TOKEN_MAX_AGE_DAYS") or 365))


def csp_hash(source: str) -> str:
    """The CSP source that allows exactly this inline text.

    >>> csp_hash("color: red")
    "'sha256-NerDAUWfwD31YdZHveMrq0GLjsNFMwxLpZl0dPUeCcw='"
    """
    digest = hashlib.sha256(source.encode()).digest()
    return f"'sha256-{base64.b64encode(digest).decode()}'"


# Content-Security-Policy (django-csp): scripts, styles, images, fonts and
# requests from this site only; no inline script anywhere. Inline style is
# refused too but for the one style attribute of DRF's browsable API
# ("float: right; margin-right: 10px"), allowed by its hash alone.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF],
        "style-src": [csp.SELF],
        "style-src-attr": [csp.UNSAFE_HASHES, csp_hash("float: right; margin-right: 10px")],
        "img-src": [csp.SELF, "data:"],
        "object-src": [csp.NONE],
        "base-uri": [csp.NONE],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    }
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    # Token first, so that an anonymous write is 401 with a WWW-Authenticate
    # challenge rather than 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "league.api.authentication.ApiTokenAuthentication",
        # Authorization: Table <secret>, a table's link (its few writes: league/api/permissions.py)
        "league.api.authentication.TableLinkAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "league.api.problems.problem_exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON with a nesting limit, and bodies held to DATA_UPLOAD_MAX_MEMORY_SIZE
    # whatever their type (league/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "league.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "league.api.parsers.MultiPartParser",
    ],
    # The browsable API lists no rows in forms and has no inline style
    # (league/api/renderers.py).
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "league.api.renderers.JSONFormsBrowsableAPIRenderer",
    ],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Card league API",
    "DESCRIPTION": "Clubs, leagues, events and tables of Bluke and Buck Euchre, "
    "with every submitted hand checked by the rules engine.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Two outputs have a "status": a table's and a leaderboard's; name each enum.
    "ENUM_NAME_OVERRIDES": {
        "TableStatusEnum": "league.models.TableStatus",
        "LeaderboardStatusEnum": ["up_to_date", "pending"],
        # webhooks: a delivery's event (ping too), the events subscribed to, a delivery's status
        "WebhookEventEnum": "league.models.WebhookEvent",
        "WebhookSubscribedEventEnum": "league.api.webhook_viewsets.EVENT_CHOICES",
        "WebhookDeliveryStatusEnum": "league.models.WebhookDelivery.Status",
    },
}

# The cache: where django-ratelimit counts a table link's requests, password resets and
# invitations (league/ratelimits.py).
# With CACHE_URL (redis://...), Redis, shared by every process, each call bounded to a
# second; without, each process's memory, which is exact for make run (one process)
# and counts per process on a one-box gunicorn (a link may then make the limit's
# requests at each worker): django-ratelimit's check asks for a shared cache, and is
# silenced for that reason alone. Django's own Redis cache increments atomically,
# which is what the check's warning about backends it does not name is for.
CACHE_URL = os.environ.get("CACHE_URL") or None
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "OPTIONS": {"socket_timeout": 1.0, "socket_connect_timeout": 1.0},
        }
    }
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]

# Table links (league/services/links.py): how long after its game night's day a link
# works, and how many requests a minute one link may make (its phones together), and an
# address may make with links that do not work.
TABLE_LINK_HOURS_AFTER_NIGHT = int(os.environ.get("TABLE_LINK_HOURS_AFTER_NIGHT") or 12)
TABLE_LINK_RATE = os.environ.get("TABLE_LINK_RATE") or "120/m"
TABLE_LINK_REFUSED_RATE = os.environ.get("TABLE_LINK_REFUSED_RATE") or "30/m"

# Players' personal links (league/services/replies.py): how many requests a minute one
# link may make, and how many links an organiser may mail an hour. A personal link that
# does not work counts against TABLE_LINK_REFUSED_RATE, as a table link's does.
PERSONAL_LINK_RATE = os.environ.get("PERSONAL_LINK_RATE") or "60/m"
PERSONAL_LINK_MAIL_RATE = os.environ.get("PERSONAL_LINK_MAIL_RATE") or "100/h"

# Password resets (league/ratelimits.py): how many an address may ask for, and how
# many may be asked for one email address from anywhere, an hour; how many
# invitations an organiser may make an hour (league/services/accounts.py).
PASSWORD_RESET_RATE = os.environ.get("PASSWORD_RESET_RATE") or "10/h"
PASSWORD_RESET_EMAIL_RATE = os.environ.get("PASSWORD_RESET_EMAIL_RATE") or "3/h"
INVITATION_RATE = os.environ.get("INVITATION_RATE") or "30/h"

# Who may start a club, on the pages and through the API (league/access.py): any
# signed-in user, who becomes its organiser ("anyone"), or the site's staff alone
# ("staff"; others are refused, 403).
CLUB_CREATION_CHOICES = ("anyone", "staff")


def club_creation(environ: Mapping[str, str]) -> str:
    """``CLUB_CREATION``: ``anyone`` (the default) or ``staff``; anything else
    stops the site from starting, rather than opening or closing it by surprise."""
    value = environ.get("CLUB_CREATION", "").strip().lower() or "anyone"
    if value not in CLUB_CREATION_CHOICES:
        raise ImproperlyConfigured(f"CLUB_CREATION is 'anyone' or 'staff', not {value!r}")
    return value


CLUB_CREATION = club_creation(os.environ)

# Downloads (league/web/exports.py, docs/data.md): a league's or a night's games are
# streamed as they are read while they have at most DOWNLOAD_STREAM_LINES hand lines
# (a four-player Bluke game has 100; 200,000 stream in a few seconds on two cores) and
# prepared as a file by a job beyond that (league/archives.py). A stream still
# running after DOWNLOAD_STREAM_SECONDS stops, as an error the client sees (never a
# file cut short that looks whole), well before gunicorn's 30 s timeout would kill
# the worker. A league's (or night's) file may be asked for again
# ARCHIVE_AGAIN_AFTER_MINUTES after the last was made.
DOWNLOAD_STREAM_LINES = int(os.environ.get("DOWNLOAD_STREAM_LINES") or 200_000)
DOWNLOAD_STREAM_SECONDS = float(os.environ.get("DOWNLOAD_STREAM_SECONDS") or 20)
ARCHIVE_AGAIN_AFTER_MINUTES = float(os.environ.get("ARCHIVE_AGAIN_AFTER_MINUTES") or 10)

# Celery: without a broker, tasks run eagerly in the web process: a request's
# in its job thread, after the response ("thread"), or at once after its commit
# ("inline", the tests'); see league.background.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or None
JOBS_WITHOUT_BROKER = os.environ.get("JOBS_WITHOUT_BROKER", "thread")
if JOBS_WITHOUT_BROKER not in ("thread", "inline"):
    raise ImproperlyConfigured(
        f"JOBS_WITHOUT_BROKER is {JOBS_WITHOUT_BROKER!r}: it takes thread or inline"
    )
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing never holds a request long (league.outbox): a
# broker that refuses fails at once, a silent one (frozen, or its host gone)
# after a second's socket timeout, and nothing retries in the request: the
# work stays owed and the sweep sends it. A worker's wait for messages (BRPOP,
# on its event loop) is not cut short by the socket timeout.
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_timeout": 1.0,
    "socket_connect_timeout": 1.0,
    # a publish does not reconnect and retry (a worker's connection does, by
    # CELERY_BROKER_CONNECTION_MAX_RETRIES)
    "max_retries": 0,
    # A message that a worker took and never acknowledged (it died mid-job)
    # goes to another worker after this long, not kombu's hour. From the
    # longest job measured (benchmarks/job_durations.py): the standings of a
    # league of 100,000 games, 49-56 s on 2 cores; 5 times that leaves room
    # for leagues to grow. A job that outlives it is delivered twice, which is
    # safe (league.tasks) but wasted work.
    "visibility_timeout": 300,
    # look for such messages every 10 s (kombu's default is every 100 s)
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
# Other publishes (Celery beat's, a task's retry): bounded too.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.5,
    "interval_max": 1,
}
# The sweep of the work owed (league.outbox.SWEEP_EVERY), and the
# hourly pruning, for `celery -A config beat`; a run not taken within its
# period is dropped.
CELERY_BEAT_SCHEDULE = {
    "jobs-sweep": {
        "task": "league.tasks.jobs_sweep",
        "schedule": 15.0,
        "options": {"expires": 15.0},
    },
    # Idempotency-Key answers are kept a day (league.idempotency)
    "idempotency-keys-prune": {
        "task": "league.tasks.idempotency_keys_prune",
        "schedule": 3600.0,
        "options": {"expires": 3600.0},
    },
}

# Webhooks (league.webhook_delivery, docs/webhooks.md): whether an endpoint may be a
# loopback or private address. Off, the league refuses such URLs when they are
# registered and checks every address again when it delivers, so that a club's
# URL cannot reach the servers' own network (SSRF). The local settings turn it
# on, to try a receiver on one's own machine.
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env_bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
