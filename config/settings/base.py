"""Settings shared by every environment, read from the environment.

| variable | meaning | default |
|---|---|---|
| ``DATABASE_URL`` | e.g. ``postgres://user@host:5432/league`` | a SQLite file in the project |
| ``CELERY_BROKER_URL`` | e.g. ``redis://127.0.0.1:6379/0`` | none: tasks run in the web process |
| ``SECRET_KEY`` | Django's signing key | required in production |
| ``DEBUG`` | ``1``/``true`` to show debug pages | off (on in ``local``) |
| ``ALLOWED_HOSTS`` | comma-separated host names | ``localhost,127.0.0.1`` |
| ``EMAIL_URL`` | e.g. ``smtp+tls://user:pw@mail.example.org:587`` | none: mail to the console |
| ``EMAIL_HOST`` (or the URL's) | the SMTP server, with ``EMAIL_PORT`` (25), | none |
|   | ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS`` (off) | |
| ``DEFAULT_FROM_EMAIL`` | who invitations and password resets come from | ``webmaster@localhost`` |
| ``EMAIL_TIMEOUT`` | seconds to wait for the SMTP server | 10 |
"""

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import dj_database_url

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

INSTALLED_APPS = [
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
    "league",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
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

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
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

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    # Token first, so that an anonymous write is 401 with a WWW-Authenticate
    # challenge rather than 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "league.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "league.api.problems.problem_exception_handler",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
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
    },
}

# Celery: without a broker, tasks run eagerly where they are dispatched.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or None
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
