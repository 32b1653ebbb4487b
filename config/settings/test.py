"""The test suite: fast password hashing, the database from DATABASE_URL."""

from config.settings.base import *  # noqa: F403

SECRET_KEY = "test-key-not-secret"
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Serve static files from the apps' folders, as `make run` does, so the tests
# need no collectstatic.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
# The tests read what a submission owed right after it: jobs run after the commit, not in a thread.
JOBS_WITHOUT_BROKER = "inline"
