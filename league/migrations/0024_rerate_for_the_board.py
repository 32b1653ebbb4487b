# Issue 32: the leaderboard orders by mu less three times the part of sigma above the
# provisional threshold (ScoreModel.board_value), which the ratings' stored ordinal now
# holds, and Bluke's model changed (sigma 24, tau 1, idle 0.58 a day): every rating
# scope is re-rated from its first game, by the ratings job the sweep sends (owed here,
# in the migration's transaction, as the outbox owes it).

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
        ("league", "0023_replies_and_personal_links"),
    ]

    operations = [
        migrations.AlterField(
            model_name="rating",
            name="ordinal",
            field=models.FloatField(
                help_text="what the leaderboard ranks by: mu less 3 x the part of sigma above "
                "the provisional threshold"
            ),
        ),
        migrations.RunPython(rerate_every_scope, migrations.RunPython.noop, elidable=True),
    ]
