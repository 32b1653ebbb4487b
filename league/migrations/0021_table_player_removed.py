"""The audit trail's ``table.player_removed``: a player taken off a table
before its first hand (:mod:`league.services.seat_changes`).

The new action alters the trail's CHECK constraint, which SQLite does by
building the table anew: its UPDATE trigger is dropped before and made again
after, as in 0014.
"""

import importlib

from django.conf import settings
from django.db import migrations, models

_links = importlib.import_module("league.migrations.0014_table_links_and_confirmation")


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0020_season_formats_and_finals'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_links.drop_trigger, _links.create_trigger, elidable=False),
        migrations.RemoveConstraint(
            model_name='auditentry',
            name='audit_known_action',
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('hand.submitted', 'hand submitted'), ('hand.corrected', 'hand corrected'), ('hand.deleted', 'hand deleted'), ('game.submitted', 'whole game submitted'), ('table.created', 'table made by hand'), ('table.reseated', 'table reseated'), ('table.player_removed', 'player taken off a table'), ('seating.drawn', 'round drawn'), ('seating.adjusted', 'round adjusted by hand'), ('attendance.changed', 'attendance changed'), ('player.anonymised', 'player anonymised'), ('membership.set', 'role given'), ('membership.removed', 'role taken away'), ('game.confirmed', 'game confirmed'), ('game.disputed', 'game disputed'), ('table_link.made', 'table link made'), ('table_link.revoked', 'table link revoked'), ('league.season_changed', 'season format changed'), ('league.final_made', 'final made')], max_length=30),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(('action__in', ['hand.submitted', 'hand.corrected', 'hand.deleted', 'game.submitted', 'table.created', 'table.reseated', 'table.player_removed', 'seating.drawn', 'seating.adjusted', 'attendance.changed', 'player.anonymised', 'membership.set', 'membership.removed', 'game.confirmed', 'game.disputed', 'table_link.made', 'table_link.revoked', 'league.season_changed', 'league.final_made'])), name='audit_known_action'),
        ),
        migrations.RunPython(_links.create_trigger, _links.drop_trigger, elidable=False),
    ]
