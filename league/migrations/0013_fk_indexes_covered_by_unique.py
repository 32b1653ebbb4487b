# Django indexes every foreign key by default; these sixteen are also the first
# column of a unique constraint (league/models.py names each one), whose index
# serves every lookup by the key alone: the joins, the cascades and the checks
# of a deleted row. The second index only cost writes (five index entries a hand
# submitted). Only the indexes are dropped: Django's own AlterField would also
# drop and re-add each foreign key, which checks every row of the table again
# under a lock that blocks writes.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

COVERED = (
    ("apitoken", "user"),
    ("attendance", "event"),
    ("hand", "table"),
    ("handseat", "hand"),
    ("idempotencykey", "user"),
    ("league", "club"),
    ("membership", "club"),
    ("player", "club"),
    ("rating", "scope"),
    ("round", "event"),
    ("seating", "round"),
    ("seating", "table"),
    ("sitout", "round"),
    ("table", "round"),
    ("webhookdelivery", "endpoint"),
    ("webhookendpoint", "club"),
)


def drop_covered_indexes(apps, schema_editor):
    """Drop each key's own index: the plain, one-column index on its column,
    found by its columns (its name is a hash of Django's), dropped with the
    statement Django's own AlterField would use."""
    connection = schema_editor.connection
    for model_name, field_name in COVERED:
        model = apps.get_model("league", model_name)
        column = model._meta.get_field(field_name).column
        with connection.cursor() as cursor:
            found = connection.introspection.get_constraints(cursor, model._meta.db_table)
        for name, info in found.items():
            plain = info["index"] and not info["unique"] and not info["primary_key"]
            if plain and info["columns"] == [column]:
                schema_editor.execute(schema_editor._delete_index_sql(model, name))


def create_key_indexes(apps, schema_editor):
    """The reverse: each key's index again, named as Django first named it."""
    for model_name, field_name in COVERED:
        model = apps.get_model("league", model_name)
        field = model._meta.get_field(field_name)
        schema_editor.execute(schema_editor._create_index_sql(model, fields=[field]))


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0012_rerate_bluke"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunPython(drop_covered_indexes, create_key_indexes),
            ],
            state_operations=[
                migrations.AlterField(
                    model_name="apitoken",
                    name="user",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.AlterField(
                    model_name="attendance",
                    name="event",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="attendance",
                        to="league.event",
                    ),
                ),
                migrations.AlterField(
                    model_name="hand",
                    name="table",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="hands",
                        to="league.table",
                    ),
                ),
                migrations.AlterField(
                    model_name="handseat",
                    name="hand",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="league.hand",
                    ),
                ),
                migrations.AlterField(
                    model_name="idempotencykey",
                    name="user",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                migrations.AlterField(
                    model_name="league",
                    name="club",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="leagues",
                        to="league.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="membership",
                    name="club",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="memberships",
                        to="league.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="player",
                    name="club",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="players",
                        to="league.club",
                    ),
                ),
                migrations.AlterField(
                    model_name="rating",
                    name="scope",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to="league.ratingscope",
                    ),
                ),
                migrations.AlterField(
                    model_name="round",
                    name="event",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rounds",
                        to="league.event",
                    ),
                ),
                migrations.AlterField(
                    model_name="seating",
                    name="round",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="league.round",
                    ),
                ),
                migrations.AlterField(
                    model_name="seating",
                    name="table",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seatings",
                        to="league.table",
                    ),
                ),
                migrations.AlterField(
                    model_name="sitout",
                    name="round",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sit_outs",
                        to="league.round",
                    ),
                ),
                migrations.AlterField(
                    model_name="table",
                    name="round",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tables",
                        to="league.round",
                    ),
                ),
                migrations.AlterField(
                    model_name="webhookdelivery",
                    name="endpoint",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="deliveries",
                        to="league.webhookendpoint",
                    ),
                ),
                migrations.AlterField(
                    model_name="webhookendpoint",
                    name="club",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="webhook_endpoints",
                        to="league.club",
                    ),
                ),
            ],
        ),
    ]
