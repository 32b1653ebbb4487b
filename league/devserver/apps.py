from django.apps import AppConfig


class DevserverConfig(AppConfig):
    """Listed first in ``INSTALLED_APPS``, so that its ``runserver`` is the one run."""

    name = "league.devserver"
    label = "league_devserver"
