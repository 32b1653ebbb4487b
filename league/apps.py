from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "Card league"

    def ready(self) -> None:
        # Every PostgreSQL connection gets the time limits of the work it serves.
        from league import archives, db

        db.connect_signals()
        # The work owed is sent by its task's name (league.outbox.JOB_TASKS), and
        # nothing that owes work imports the tasks: their modules are loaded here,
        # so every process that may send or run a job knows its task.
        from league import tasks, webhook_delivery  # noqa: F401
        from league.services import imports  # noqa: F401

        # an archive's file goes with its row
        archives.connect_signals()
