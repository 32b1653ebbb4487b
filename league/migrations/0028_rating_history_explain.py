# Issue 32: the rating history keeps what each game was measured against (the
# player's total, the mean, the total the model expected and whether the mean is
# the table's average), so the player's page can say why a rating moved. Every
# rating scope is re-rated from its first game to fill them, by the ratings job
# the sweep sends (owed here, in the migration's transaction, as the outbox owes it).

import secrets

from django.db import migrations, models
from django.utils import timezone

EARLIEST = "0001-01-01"  # league.ratings.EARLIEST: an order key before every game


def rerate_every_scope(apps, schema_editor):
    JobOwed = apps.get_model("league", "JobOwed")
    RatingScope = apps.get_model("league", "RatingScope")
    now = timezone.now()
    scopes = RatingScope.objects.all()
    scopes.update(rerate_from=EARLIEST)
    JobOwed.objects.bulk_create(
        [
            JobOwed(
                kind="ratings",
                target_id=pk,
                owed_since=now,
                owed_at=now,
                token=secrets.randbits(63),
            )
            for pk in scopes.values_list("pk", flat=True)
        ],
        ignore_conflicts=True,  # owed already: the job re-rates from the earliest game
    )


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0027_import_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratinghistory",
            name="points",
            field=models.FloatField(help_text="the player's final total in this game", null=True),
        ),
        migrations.AddField(
            model_name="ratinghistory",
            name="mean",
            field=models.FloatField(
                help_text="the total the game was measured against: the league's mean at "
                "such tables (Bluke) or the table's average",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="ratinghistory",
            name="expected",
            field=models.FloatField(
                help_text="the total the model expected of the player at that table", null=True
            ),
        ),
        migrations.AddField(
            model_name="ratinghistory",
            name="against_table",
            field=models.BooleanField(
                help_text="whether ``mean`` is the table's average, not the league's", null=True
            ),
        ),
        migrations.RunPython(rerate_every_scope, migrations.RunPython.noop, elidable=True),
    ]
