"""The Celery app. Settings come from Django's, prefixed ``CELERY_``.

Without ``CELERY_BROKER_URL`` the tasks run eagerly in the process that
dispatches them (after the transaction commits), so a single ``make run``
needs no broker or worker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
