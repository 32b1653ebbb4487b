from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "Card league"

    def ready(self) -> None:
        # Every PostgreSQL connection gets the time limits of the work it serves.
        from league import archives, db

        db.connect_signals()
        # The import of a results file is a task of its service, which the tasks
        # name but may not import (league.tasks.RESULTS_IMPORT_TASK): loaded here,
        # it is known to every process that may send or run it.
        from league.services import imports  # noqa: F401

        # an archive's file goes with its row
        archives.connect_signals()
