"""The audit trail (league.audit): an append-only table of changes.

Besides the table, a trigger refuses every UPDATE of an entry, on PostgreSQL
and on SQLite alike, so that not even a bug in the app can rewrite history.
Deletes stay possible: a club's entries go with the club (a cascade the
database cannot tell from any other delete).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

REFUSAL = "the audit trail is append-only: an entry is never updated"

CREATE_TRIGGER = {
    "postgresql": [
        f"""
        CREATE FUNCTION league_auditentry_refuse_update() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{REFUSAL}';
        END
        $$
        """,
        """
        CREATE TRIGGER league_auditentry_no_update
        BEFORE UPDATE ON league_auditentry
        FOR EACH ROW EXECUTE FUNCTION league_auditentry_refuse_update()
        """,
    ],
    "sqlite": [
        f"""
        CREATE TRIGGER league_auditentry_no_update
        BEFORE UPDATE ON league_auditentry
        BEGIN
            SELECT RAISE(ABORT, '{REFUSAL}');
        END
        """,
    ],
}

DROP_TRIGGER = {
    "postgresql": [
        "DROP TRIGGER IF EXISTS league_auditentry_no_update ON league_auditentry",
        "DROP FUNCTION IF EXISTS league_auditentry_refuse_update()",
    ],
    "sqlite": ["DROP TRIGGER IF EXISTS league_auditentry_no_update"],
}


def _run(statements: dict[str, list[str]], schema_editor: BaseDatabaseSchemaEditor) -> None:
    for statement in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(statement)


def create_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run(CREATE_TRIGGER, schema_editor)


def drop_trigger(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    _run(DROP_TRIGGER, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0005_rating_scope_means"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations: list[migrations.operations.base.Operation] = [
        migrations.CreateModel(
            name="AuditEntry",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "hand_number",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        help_text="from 0, as stored; for a change of one hand",
                        null=True,
                    ),
                ),
                (
                    "action",
                    models.CharField(
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
                            ("membership.set", "role given"),
                            ("membership.removed", "role taken away"),
                        ],
                        max_length=30,
                    ),
                ),
                ("actor_name", models.CharField(blank=True, default="", max_length=150)),
                (
                    "via",
                    models.CharField(
                        choices=[
                            ("api", "the API"),
                            ("page", "the pages"),
                            ("import", "an import"),
                            ("command", "a command or job"),
                        ],
                        max_length=10,
                    ),
                ),
                ("at", models.DateTimeField()),
                ("before", models.JSONField(blank=True, null=True)),
                ("after", models.JSONField(blank=True, null=True)),
                (
                    "actor",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        db_index=False,
                        help_text="null for a command or job",
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="league.club",
                    ),
                ),
                (
                    "event",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="league.event",
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="league.round",
                    ),
                ),
                (
                    "table",
                    models.ForeignKey(
                        blank=True,
                        db_constraint=False,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="+",
                        to="league.table",
                    ),
                ),
            ],
            options={
                "verbose_name": "audit entry",
                "verbose_name_plural": "audit trail",
                "ordering": ["-id"],
                "indexes": [
                    models.Index(fields=["table", "-id"], name="audit_of_table"),
                    models.Index(fields=["round", "-id"], name="audit_of_round"),
                    models.Index(fields=["club", "-id"], name="audit_of_club"),
                ],
                "constraints": [
                    models.CheckConstraint(
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
                                    "membership.set",
                                    "membership.removed",
                                ],
                            )
                        ),
                        name="audit_known_action",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("via__in", ["api", "page", "import", "command"])),
                        name="audit_known_via",
                    ),
                ],
            },
        ),
        migrations.RunPython(create_trigger, drop_trigger, elidable=False),
    ]
