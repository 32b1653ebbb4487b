"""Members-only clubs (a club's visibility, the private addresses of its
calendar feeds and of a night's room screen) and the audit trail's
``player.anonymised``.

The audit trail's new action alters its CHECK constraint, which SQLite does by
building the table anew: its UPDATE trigger is dropped before and made again
after, as in 0014.
"""

import importlib

from django.conf import settings
from django.db import migrations, models

_links = importlib.import_module("league.migrations.0014_table_links_and_confirmation")


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0014_table_links_and_confirmation'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_links.drop_trigger, _links.create_trigger, elidable=False),
        migrations.RemoveConstraint(
            model_name='auditentry',
            name='audit_known_action',
        ),
        migrations.AddField(
            model_name='club',
            name='feed_key',
            field=models.CharField(blank=True, db_default='', default='', max_length=64),
        ),
        migrations.AddField(
            model_name='club',
            name='visibility',
            field=models.CharField(choices=[('public', 'Anyone'), ('members', "The club's members only")], db_default='public', default='public', max_length=10),
        ),
        migrations.AddField(
            model_name='event',
            name='room_key',
            field=models.CharField(blank=True, db_default='', default='', help_text="the secret of the room screen's address for the venue's TV, in a club whose results are for members only (made when first asked for)", max_length=64),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('hand.submitted', 'hand submitted'), ('hand.corrected', 'hand corrected'), ('hand.deleted', 'hand deleted'), ('game.submitted', 'whole game submitted'), ('table.created', 'table made by hand'), ('table.reseated', 'table reseated'), ('seating.drawn', 'round drawn'), ('seating.adjusted', 'round adjusted by hand'), ('attendance.changed', 'attendance changed'), ('player.anonymised', 'player anonymised'), ('membership.set', 'role given'), ('membership.removed', 'role taken away'), ('game.confirmed', 'game confirmed'), ('game.disputed', 'game disputed'), ('table_link.made', 'table link made'), ('table_link.revoked', 'table link revoked')], max_length=30),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(('action__in', ['hand.submitted', 'hand.corrected', 'hand.deleted', 'game.submitted', 'table.created', 'table.reseated', 'seating.drawn', 'seating.adjusted', 'attendance.changed', 'player.anonymised', 'membership.set', 'membership.removed', 'game.confirmed', 'game.disputed', 'table_link.made', 'table_link.revoked'])), name='audit_known_action'),
        ),
        migrations.AddConstraint(
            model_name='club',
            constraint=models.CheckConstraint(condition=models.Q(('visibility__in', ['public', 'members'])), name='club_visibility_known'),
        ),
        migrations.RunPython(_links.create_trigger, _links.drop_trigger, elidable=False),
    ]
