"""Season formats (league.season: points for places, best nights, games to
qualify), their standings figures, a league's final night, and the audit
trail's two new actions.

The standings gain nights_counted: every league's standings are owed a full
rebuild, which the standings job the sweep sends fills in (owed here, in the
migration's transaction, as the outbox owes it).

SQLite alters a table's CHECK constraints by building the table anew, which
drops its triggers: the audit trail's refusal of UPDATEs (0006) is dropped
before its table changes and made again after, on SQLite alone (PostgreSQL
alters the table in place and keeps it), as 0014 does.
"""

import importlib
import secrets

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.utils import timezone

_audit_trail = importlib.import_module("league.migrations.0006_audit_trail")


def _on_sqlite(statements: dict[str, list[str]]) -> object:
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            for statement in statements["sqlite"]:
                schema_editor.execute(statement)

    return run


drop_trigger = _on_sqlite(_audit_trail.DROP_TRIGGER)
create_trigger = _on_sqlite(_audit_trail.CREATE_TRIGGER)


def rebuild_standings(apps, schema_editor):
    JobOwed = apps.get_model("league", "JobOwed")
    Standing = apps.get_model("league", "Standing")
    StandingsOwed = apps.get_model("league", "StandingsOwed")
    now = timezone.now()
    leagues = sorted(set(Standing.objects.values_list("league_id", flat=True)))
    StandingsOwed.objects.bulk_create(
        [StandingsOwed(league_id=pk, event=None, player=None, owed_at=now) for pk in leagues]
    )
    JobOwed.objects.bulk_create(
        [
            JobOwed(
                kind="standings",
                target_id=pk,
                owed_since=now,
                owed_at=now,
                token=secrets.randbits(63),
            )
            for pk in leagues
        ],
        ignore_conflicts=True,  # owed already: the job rebuilds the whole league anyway
    )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0019_archives"),
    ]

    operations = [
        migrations.RunPython(drop_trigger, create_trigger, elidable=False),
        migrations.RemoveConstraint(
            model_name="auditentry",
            name="audit_known_action",
        ),
        migrations.AddField(
            model_name="event",
            name="is_final",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="the league's final night: its games count apart from the season",
            ),
        ),
        migrations.AddField(
            model_name="league",
            name="season",
            field=models.JSONField(
                blank=True,
                default=None,
                help_text="the season format (league.season): points for places by table size, best nights, games to qualify; null: ranked by wins, then average place",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="standing",
            name="nights_counted",
            field=models.PositiveIntegerField(
                default=0,
                help_text="the nights whose points count (all nights played without a format)",
            ),
        ),
        migrations.AddField(
            model_name="standing",
            name="qualified",
            field=models.BooleanField(
                default=True,
                help_text="played the season format's games to qualify (always without one)",
            ),
        ),
        migrations.AddField(
            model_name="standing",
            name="season_points",
            field=models.FloatField(
                blank=True,
                help_text="points for places (a season format); null without one",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("hand.submitted", "hand submitted"),
                    ("hand.corrected", "hand corrected"),
                    ("hand.deleted", "hand deleted"),
                    ("game.submitted", "whole game submitted"),
                    ("table.created", "table made by hand"),
                    ("table.reseated", "table reseated"),
                    ("seating.drawn", "round drawn"),
                    ("seating.adjusted", "round adjusted by hand"),
                    ("attendance.changed", "attendance changed"),
                    ("player.anonymised", "player anonymised"),
                    ("membership.set", "role given"),
                    ("membership.removed", "role taken away"),
                    ("game.confirmed", "game confirmed"),
                    ("game.disputed", "game disputed"),
                    ("table_link.made", "table link made"),
                    ("table_link.revoked", "table link revoked"),
                    ("league.season_changed", "season format changed"),
                    ("league.final_made", "final made"),
                ],
                max_length=30,
            ),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "action__in",
                        [
                            "hand.submitted",
                            "hand.corrected",
                            "hand.deleted",
                            "game.submitted",
                            "table.created",
                            "table.reseated",
                            "seating.drawn",
                            "seating.adjusted",
                            "attendance.changed",
                            "player.anonymised",
                            "membership.set",
                            "membership.removed",
                            "game.confirmed",
                            "game.disputed",
                            "table_link.made",
                            "table_link.revoked",
                            "league.season_changed",
                            "league.final_made",
                        ],
                    )
                ),
                name="audit_known_action",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(
                condition=models.Q(("is_final", True)),
                fields=("league",),
                name="event_one_final_per_league",
            ),
        ),
        migrations.RunPython(create_trigger, drop_trigger, elidable=False),
        migrations.RunPython(rebuild_standings, migrations.RunPython.noop, elidable=True),
    ]
