"""Players say they are coming: their personal links, their replies to a game
night, a league's minutes before a night's start time when replies close, and
the audit trail's ``reply.changed``, ``personal_link.made`` and
``personal_link.revoked`` and its ``via`` ``personal``.

The audit trail's new actions alter its CHECK constraints, which SQLite does by
building the table anew: its UPDATE trigger is dropped before and made again
after, as in 0014.
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

_links = importlib.import_module("league.migrations.0014_table_links_and_confirmation")


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0022_player_name_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_links.drop_trigger, _links.create_trigger, elidable=False),
        migrations.CreateModel(
            name="PersonalLink",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "digest",
                    models.CharField(
                        help_text="SHA-256 of the secret, hex", max_length=64, unique=True
                    ),
                ),
                ("created_at", models.DateTimeField()),
            ],
        ),
        migrations.CreateModel(
            name="Reply",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "answer",
                    models.CharField(
                        choices=[("coming", "Coming"), ("not_coming", "Not coming")], max_length=12
                    ),
                ),
                ("answered_at", models.DateTimeField()),
            ],
            options={
                "verbose_name_plural": "replies",
                "ordering": ["event", "player__name"],
            },
        ),
        migrations.RemoveConstraint(
            model_name="auditentry",
            name="audit_known_via",
        ),
        migrations.RemoveConstraint(
            model_name="auditentry",
            name="audit_known_action",
        ),
        migrations.AddField(
            model_name="league",
            name="replies_close_minutes",
            field=models.PositiveSmallIntegerField(
                db_default=60,
                default=60,
                help_text="players' replies to a game night close this many minutes before its start time (and always when its first round is drawn): 0 to 1440",
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
                    ("table.player_removed", "player taken off a table"),
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
                    ("reply.changed", "reply to a game night changed"),
                    ("personal_link.made", "personal link made"),
                    ("personal_link.revoked", "personal link revoked"),
                    ("event.deleted", "game night deleted"),
                    ("round.deleted", "round deleted"),
                    ("table.deleted", "table deleted"),
                    ("player.deleted", "player deleted"),
                    ("player.merged", "players merged"),
                ],
                max_length=30,
            ),
        ),
        migrations.AlterField(
            model_name="auditentry",
            name="via",
            field=models.CharField(
                choices=[
                    ("api", "the API"),
                    ("page", "the pages"),
                    ("import", "an import"),
                    ("command", "a command or job"),
                    ("link", "a table link"),
                    ("personal", "a player's personal link"),
                ],
                max_length=10,
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
                            "table.player_removed",
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
                            "reply.changed",
                            "personal_link.made",
                            "personal_link.revoked",
                            "event.deleted",
                            "round.deleted",
                            "table.deleted",
                            "player.deleted",
                            "player.merged",
                        ],
                    )
                ),
                name="audit_known_action",
            ),
        ),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("via__in", ["api", "page", "import", "command", "link", "personal"])
                ),
                name="audit_known_via",
            ),
        ),
        migrations.AddConstraint(
            model_name="league",
            constraint=models.CheckConstraint(
                condition=models.Q(("replies_close_minutes__lte", 1440)),
                name="league_replies_close_within_a_day",
            ),
        ),
        migrations.AddField(
            model_name="personallink",
            name="created_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="personallink",
            name="player",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="personal_link",
                to="league.player",
            ),
        ),
        migrations.AddField(
            model_name="reply",
            name="event",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="replies",
                to="league.event",
            ),
        ),
        migrations.AddField(
            model_name="reply",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="replies",
                to="league.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="reply",
            constraint=models.UniqueConstraint(
                fields=("event", "player"), name="reply_once_per_event"
            ),
        ),
        migrations.AddConstraint(
            model_name="reply",
            constraint=models.CheckConstraint(
                condition=models.Q(("answer__in", ["coming", "not_coming"])),
                name="reply_known_answer",
            ),
        ),
        migrations.RunPython(_links.create_trigger, _links.drop_trigger, elidable=False),
    ]
