# Bluke's rating model changed (beta 20 -> 32, idle 0.05 -> 0.07 a day): every
# Bluke rating scope is re-rated from its first game, by the ratings job the
# sweep sends (owed here, in the migration's transaction, as the outbox owes it).

import secrets

from django.db import migrations
from django.utils import timezone

EARLIEST = "0001-01-01"  # league.ratings.EARLIEST: an order key before every game


def rerate_bluke(apps, schema_editor):
    JobOwed = apps.get_model("league", "JobOwed")
    RatingScope = apps.get_model("league", "RatingScope")
    now = timezone.now()
    scopes = RatingScope.objects.filter(game="bluke")
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
        ("league", "0011_seating_player_games"),
    ]

    operations = [
        migrations.RunPython(rerate_bluke, migrations.RunPython.noop, elidable=True),
    ]
