"""Table links, the players' confirmation of a game, and the audit trail's seat.

SQLite alters a table's CHECK constraints by building the table anew, which
drops its triggers: the audit trail's refusal of UPDATEs (0006) is dropped
before its table changes and made again after, on SQLite alone (PostgreSQL
alters the table in place and keeps it).
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

_audit_trail = importlib.import_module("league.migrations.0006_audit_trail")


def _on_sqlite(statements: dict[str, list[str]]) -> object:
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor == "sqlite":
            for statement in statements["sqlite"]:
                schema_editor.execute(statement)

    return run


drop_trigger = _on_sqlite(_audit_trail.DROP_TRIGGER)
create_trigger = _on_sqlite(_audit_trail.CREATE_TRIGGER)


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0013_fk_indexes_covered_by_unique'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(drop_trigger, create_trigger, elidable=False),
        migrations.CreateModel(
            name='TableLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(help_text='SHA-256 of the secret, hex', max_length=64, unique=True)),
                ('created_at', models.DateTimeField()),
                ('expires_at', models.DateTimeField()),
            ],
        ),
        migrations.RemoveConstraint(
            model_name='auditentry',
            name='audit_known_action',
        ),
        migrations.RemoveConstraint(
            model_name='auditentry',
            name='audit_known_via',
        ),
        migrations.RemoveConstraint(
            model_name='webhookdelivery',
            name='webhook_delivery_known_event',
        ),
        migrations.AddField(
            model_name='auditentry',
            name='seat',
            field=models.PositiveSmallIntegerField(blank=True, help_text='via a table link: the seat that said it made the change', null=True),
        ),
        migrations.AddField(
            model_name='league',
            name='results_confirmation',
            field=models.CharField(choices=[('none', 'Results count at once'), ('player', 'A second player confirms results entered through a table link')], db_default='none', default='none', help_text='player: a game entered through a table link counts once another seat (or an organiser) confirms it', max_length=10),
        ),
        migrations.AddField(
            model_name='table',
            name='confirmation',
            field=models.CharField(choices=[('none', 'Counts without confirmation'), ('awaiting', 'Awaiting confirmation'), ('confirmed', 'Confirmed'), ('disputed', 'Disputed')], db_default='none', default='none', max_length=10),
        ),
        migrations.AddField(
            model_name='table',
            name='confirmation_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='table',
            name='confirmation_note',
            field=models.TextField(blank=True, db_default='', default='', help_text='why it is disputed'),
        ),
        migrations.AddField(
            model_name='table',
            name='confirmation_seat',
            field=models.PositiveSmallIntegerField(blank=True, help_text='the seat that confirmed or disputed; null: an organiser', null=True),
        ),
        migrations.AddField(
            model_name='table',
            name='entered_seat',
            field=models.PositiveSmallIntegerField(blank=True, help_text='the seat that last changed the results by a table link', null=True),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('hand.submitted', 'hand submitted'), ('hand.corrected', 'hand corrected'), ('hand.deleted', 'hand deleted'), ('game.submitted', 'whole game submitted'), ('table.created', 'table made by hand'), ('table.reseated', 'table reseated'), ('seating.drawn', 'round drawn'), ('seating.adjusted', 'round adjusted by hand'), ('attendance.changed', 'attendance changed'), ('membership.set', 'role given'), ('membership.removed', 'role taken away'), ('game.confirmed', 'game confirmed'), ('game.disputed', 'game disputed'), ('table_link.made', 'table link made'), ('table_link.revoked', 'table link revoked')], max_length=30),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='via',
            field=models.CharField(choices=[('api', 'the API'), ('page', 'the pages'), ('import', 'an import'), ('command', 'a command or job'), ('link', 'a table link')], max_length=10),
        ),
        migrations.AlterField(
            model_name='idempotencykey',
            name='user',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='webhookdelivery',
            name='event',
            field=models.CharField(choices=[('game.completed', 'A game completed'), ('game.confirmed', 'A game confirmed at its table'), ('result.corrected', 'A result corrected'), ('standings.updated', 'Standings updated'), ('round.seated', 'A round seated'), ('ping', 'A test ping')], max_length=30),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(('action__in', ['hand.submitted', 'hand.corrected', 'hand.deleted', 'game.submitted', 'table.created', 'table.reseated', 'seating.drawn', 'seating.adjusted', 'attendance.changed', 'membership.set', 'membership.removed', 'game.confirmed', 'game.disputed', 'table_link.made', 'table_link.revoked'])), name='audit_known_action'),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(('via__in', ['api', 'page', 'import', 'command', 'link'])), name='audit_known_via'),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('seat__isnull', False), ('via', 'link')), models.Q(models.Q(('via', 'link'), _negated=True), ('seat__isnull', True)), _connector='OR'), name='audit_seat_via_link'),
        ),
        migrations.AddConstraint(
            model_name='league',
            constraint=models.CheckConstraint(condition=models.Q(('results_confirmation__in', ['none', 'player'])), name='league_results_confirmation_known'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('confirmation__in', ['none', 'awaiting', 'confirmed', 'disputed'])), name='table_confirmation_known'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('confirmation', 'none'), ('complete', True), _connector='OR'), name='table_confirmation_of_a_complete_game'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('confirmation', 'disputed'), ('confirmation_note__gt', '')), models.Q(models.Q(('confirmation', 'disputed'), _negated=True), ('confirmation_note', '')), _connector='OR'), name='table_confirmation_note_with_a_dispute'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('entered_seat__isnull', True), ('entered_seat__lt', models.F('players')), _connector='OR'), name='table_entered_seat_is_a_seat'),
        ),
        migrations.AddConstraint(
            model_name='table',
            constraint=models.CheckConstraint(condition=models.Q(('confirmation_seat__isnull', True), ('confirmation_seat__lt', models.F('players')), _connector='OR'), name='table_confirmation_seat_is_a_seat'),
        ),
        migrations.AddConstraint(
            model_name='webhookdelivery',
            constraint=models.CheckConstraint(condition=models.Q(('event__in', ['game.completed', 'game.confirmed', 'result.corrected', 'standings.updated', 'round.seated', 'ping'])), name='webhook_delivery_known_event'),
        ),
        migrations.AddField(
            model_name='tablelink',
            name='created_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='tablelink',
            name='table',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='link', to='league.table'),
        ),
        migrations.AddField(
            model_name='idempotencykey',
            name='table_link',
            field=models.ForeignKey(blank=True, db_index=False, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='league.tablelink'),
        ),
        migrations.AddConstraint(
            model_name='idempotencykey',
            constraint=models.UniqueConstraint(condition=models.Q(('table_link__isnull', False)), fields=('table_link', 'key'), name='idempotency_key_once_per_link'),
        ),
        migrations.AddConstraint(
            model_name='idempotencykey',
            constraint=models.CheckConstraint(condition=models.Q(('user__isnull', True), ('table_link__isnull', True), _connector='XOR'), name='idempotency_key_of_a_user_or_a_link'),
        ),
        migrations.AddConstraint(
            model_name='tablelink',
            constraint=models.CheckConstraint(condition=models.Q(('expires_at__gt', models.F('created_at'))), name='table_link_expires_after_made'),
        ),
        migrations.RunPython(create_trigger, drop_trigger, elidable=False),
    ]
