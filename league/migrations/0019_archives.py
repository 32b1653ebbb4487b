# Downloads prepared as files by a job (league/archives.py): the Archive rows,
# and the work owed to their job (a JobOwed kind of its own).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0018_invitations_and_password_resets"),
    ]

    operations = [
        migrations.CreateModel(
            name="Archive",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("games.csv", "Every hand of every game (CSV)"),
                            ("games.jsonl", "The games as records (JSON Lines)"),
                        ],
                        max_length=20,
                    ),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("owed", "being prepared"),
                            ("ready", "ready"),
                            ("failed", "failed"),
                        ],
                        default="owed",
                        max_length=10,
                    ),
                ),
                ("requested_at", models.DateTimeField()),
                (
                    "started_at",
                    models.DateTimeField(
                        blank=True, help_text="when the job writing it took it up", null=True
                    ),
                ),
                (
                    "heartbeat_at",
                    models.DateTimeField(
                        blank=True,
                        help_text="when the job writing it last showed it was at work",
                        null=True,
                    ),
                ),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "file",
                    models.CharField(
                        blank=True,
                        default="",
                        help_text="its name in the archives storage",
                        max_length=255,
                    ),
                ),
                (
                    "lines",
                    models.BigIntegerField(
                        blank=True, help_text="rows (CSV) or records", null=True
                    ),
                ),
                (
                    "size",
                    models.BigIntegerField(blank=True, help_text="bytes, uncompressed", null=True),
                ),
                ("error", models.CharField(blank=True, default="", max_length=40)),
            ],
            options={
                "ordering": ["-requested_at", "-id"],
            },
        ),
        migrations.RemoveConstraint(
            model_name="jobowed",
            name="job_owed_known_kind",
        ),
        migrations.AlterField(
            model_name="jobowed",
            name="kind",
            field=models.CharField(
                choices=[
                    ("standings", "a league's standings"),
                    ("ratings", "a rating scope's ratings"),
                    ("webhook", "a webhook delivery"),
                    ("import", "a results file's import"),
                    ("password_reset", "a password reset's mail"),
                    ("archive", "a download prepared as a file"),
                ],
                max_length=20,
            ),
        ),
        migrations.AlterField(
            model_name="jobowed",
            name="target_id",
            field=models.BigIntegerField(
                help_text="the league (standings), the rating scope (ratings), the delivery (webhook), the results import (import), the password reset asked (password_reset) or the archive (archive) to work on"
            ),
        ),
        migrations.AddConstraint(
            model_name="jobowed",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        ["standings", "ratings", "webhook", "import", "password_reset", "archive"],
                    )
                ),
                name="job_owed_known_kind",
            ),
        ),
        migrations.AddField(
            model_name="archive",
            name="event",
            field=models.ForeignKey(
                blank=True,
                help_text="the event whose games it holds; none: the whole league's",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="archives",
                to="league.event",
            ),
        ),
        migrations.AddField(
            model_name="archive",
            name="league",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="archives",
                to="league.league",
            ),
        ),
        migrations.AddIndex(
            model_name="archive",
            index=models.Index(
                fields=["league", "event", "kind", "-requested_at"], name="archive_by_scope"
            ),
        ),
        migrations.AddConstraint(
            model_name="archive",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["games.csv", "games.jsonl"])),
                name="archive_known_kind",
            ),
        ),
        migrations.AddConstraint(
            model_name="archive",
            constraint=models.CheckConstraint(
                condition=models.Q(("state__in", ["owed", "ready", "failed"])),
                name="archive_known_state",
            ),
        ),
        migrations.AddConstraint(
            model_name="archive",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("state", "ready"), _negated=True),
                    models.Q(
                        models.Q(("file", ""), _negated=True),
                        ("lines__isnull", False),
                        ("size__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="archive_ready_has_its_file",
            ),
        ),
        migrations.AddConstraint(
            model_name="archive",
            constraint=models.CheckConstraint(
                condition=models.Q(("state", "failed"), ("error", ""), _connector="OR"),
                name="archive_error_only_if_failed",
            ),
        ),
        migrations.AddConstraint(
            model_name="archive",
            constraint=models.UniqueConstraint(
                condition=models.Q(("event__isnull", True), ("state", "owed")),
                fields=("league", "kind"),
                name="archive_owed_once_per_league",
            ),
        ),
        migrations.AddConstraint(
            model_name="archive",
            constraint=models.UniqueConstraint(
                condition=models.Q(("event__isnull", False), ("state", "owed")),
                fields=("event", "kind"),
                name="archive_owed_once_per_event",
            ),
        ),
    ]
