"""Standings owed line by line (issue 15): the standings job recomputes the
lines a change made stale instead of the whole league.

Every league whose standings job was still owed when this runs is owed a
full rebuild, since nothing says which of its lines are stale."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps
from django.utils import timezone


def owe_a_rebuild_where_standings_were_owed(
    apps: StateApps, schema_editor: BaseDatabaseSchemaEditor
) -> None:
    JobOwed = apps.get_model("league", "JobOwed")
    StandingsOwed = apps.get_model("league", "StandingsOwed")
    now = timezone.now()
    StandingsOwed.objects.bulk_create(
        StandingsOwed(league_id=league_id, owed_at=now)
        for league_id in JobOwed.objects.filter(kind="standings").values_list(
            "target_id", flat=True
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0007_webhooks"),
    ]

    operations = [
        migrations.CreateModel(
            name="StandingsOwed",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("owed_at", models.DateTimeField()),
                ("event", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="league.event")),
                ("league", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="league.league")),
                ("player", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="league.player")),
            ],
            options={
                "verbose_name": "standings owed",
                "verbose_name_plural": "standings owed",
                "constraints": [
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("event__isnull", True), ("player__isnull", True)),
                            models.Q(("event__isnull", False), ("player__isnull", False)),
                            _connector="OR",
                        ),
                        name="standings_owed_a_line_or_the_whole_league",
                    )
                ],
            },
        ),
        migrations.RunPython(owe_a_rebuild_where_standings_were_owed, migrations.RunPython.noop),
    ]
