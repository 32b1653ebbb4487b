# Results files imported by a background job (issue 28): the file kept from its
# confirmation until the job has imported it, and the job's kind among the work owed.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0016_ratings_owed_and_jobs_failed_at'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ResultsImport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('filename', models.CharField(blank=True, default='', max_length=255)),
                ('format', models.CharField(choices=[('csv', 'CSV'), ('jsonl', 'JSON Lines')], max_length=5)),
                ('digest', models.CharField(help_text='SHA-256 of the file, hex', max_length=64)),
                ('data', models.BinaryField(help_text='the file, until it has been imported')),
                ('tables', models.PositiveIntegerField(help_text='tables to store, as checked when confirmed')),
                ('hands', models.PositiveIntegerField(help_text='hands to store, as checked when confirmed')),
                ('state', models.CharField(choices=[('waiting', 'Waiting to start'), ('running', 'Importing'), ('done', 'Imported'), ('refused', 'Nothing imported')], default='waiting', max_length=10)),
                ('summary', models.JSONField(blank=True, help_text='done: what was stored (imports.ResultsSummary)', null=True)),
                ('problems', models.PositiveIntegerField(default=0, help_text='refused: the problems the file had when checked again')),
                ('refusal', models.TextField(blank=True, default='', help_text='refused: why, in a sentence')),
                ('created_at', models.DateTimeField()),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.RemoveConstraint(
            model_name='jobowed',
            name='job_owed_known_kind',
        ),
        migrations.AlterField(
            model_name='jobowed',
            name='kind',
            field=models.CharField(choices=[('standings', "a league's standings"), ('ratings', "a rating scope's ratings"), ('webhook', 'a webhook delivery'), ('import', "a results file's import")], max_length=20),
        ),
        migrations.AlterField(
            model_name='jobowed',
            name='target_id',
            field=models.BigIntegerField(help_text='the league (standings), the rating scope (ratings), the delivery (webhook) or the results import (import) to work on'),
        ),
        migrations.AddConstraint(
            model_name='jobowed',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['standings', 'ratings', 'webhook', 'import'])), name='job_owed_known_kind'),
        ),
        migrations.AddField(
            model_name='resultsimport',
            name='league',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='imports', to='league.league'),
        ),
        migrations.AddField(
            model_name='resultsimport',
            name='requested_by',
            field=models.ForeignKey(blank=True, help_text="who confirmed it: the audit trail's actor for what it stores", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='resultsimport',
            constraint=models.CheckConstraint(condition=models.Q(('state__in', ['waiting', 'running', 'done', 'refused'])), name='results_import_known_state'),
        ),
        migrations.AddConstraint(
            model_name='resultsimport',
            constraint=models.CheckConstraint(condition=models.Q(('format__in', ['csv', 'jsonl'])), name='results_import_known_format'),
        ),
        migrations.AddConstraint(
            model_name='resultsimport',
            constraint=models.UniqueConstraint(condition=models.Q(('state__in', ['waiting', 'running'])), fields=('league', 'digest'), name='results_import_once_under_way'),
        ),
        migrations.AddConstraint(
            model_name='resultsimport',
            constraint=models.CheckConstraint(condition=models.Q(('state', 'waiting'), ('started_at__isnull', False), _connector='OR'), name='results_import_started_unless_waiting'),
        ),
        migrations.AddConstraint(
            model_name='resultsimport',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('finished_at__isnull', False), ('state__in', ['done', 'refused'])), models.Q(('state__in', ['waiting', 'running']), ('finished_at__isnull', True)), _connector='OR'), name='results_import_finished_when_done_or_refused'),
        ),
        migrations.AddConstraint(
            model_name='resultsimport',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('state', 'done'), ('summary__isnull', False)), models.Q(models.Q(('state', 'done'), _negated=True), ('summary__isnull', True)), _connector='OR'), name='results_import_summary_when_done'),
        ),
    ]
