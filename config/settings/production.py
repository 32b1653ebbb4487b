"""Production: secrets and hosts from the environment, HTTPS everywhere.

``manage.py check --deploy --fail-level WARNING`` passes with these
settings once ``SECRET_KEY`` and ``ALLOWED_HOSTS`` are set.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403
from config.settings.base import env_bool

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("set SECRET_KEY to a random string of 50 characters or more")
DEBUG = env_bool("DEBUG", False)
# `manage.py demo_data` makes logins with a published password: never here.
DEMO_DATA_ALLOWED = False

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "archives": ARCHIVES_STORAGE,  # noqa: F405
}

# Trusted here only, where gunicorn listens on a socket that nothing but the
# documented proxy reaches (deploy/nginx.conf): nginx sets X-Forwarded-Proto
# itself, replacing whatever a client sent, and adds the address it saw to the
# end of X-Forwarded-For. Without such a proxy in front, a client could claim
# HTTPS, or any address, with a header. The client's address (what django-axes
# and the rate limits count by) is TRUSTED_PROXIES from the header's end: 1 for
# nginx alone, 2 with a load balancer in front of it that adds to the header too.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
