from django.apps import AppConfig


class LeagueConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "league"
    verbose_name = "Card league"

    def ready(self) -> None:
        # Every PostgreSQL connection gets the time limits of the work it serves.
        from league import archives, db

        db.connect_signals()
        # an archive's file goes with its row
        archives.connect_signals()
