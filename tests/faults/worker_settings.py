"""Settings of the Celery workers that the fault tests start as processes: the
test settings, with a visibility timeout of seconds instead of minutes, so that
a killed worker's job comes back within the test."""

from config.settings.base import CELERY_BROKER_TRANSPORT_OPTIONS
from config.settings.test import *  # noqa: F403

VISIBILITY_TIMEOUT = 4
"""Seconds before a job a dead worker took is given to another."""

CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "visibility_timeout": VISIBILITY_TIMEOUT,
    "unacked_restore_interval": 1,  # look for such jobs every second
}
