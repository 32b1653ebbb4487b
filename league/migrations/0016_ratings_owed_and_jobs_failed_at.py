"""Re-ratings owed in rows of their own (issue 28 item 11), and when a job
last failed (item 10).

A change of results owes a scope's re-rating as a ``RatingsOwed`` row instead
of updating the scope's ``rerate_from``, which meant locking the scope's row,
held by a running re-rating for its whole length. ``rerate_from`` stays for
work that holds the scope's ratings lock (a rebuild, migration 0012): what it
holds now is still owed, and read by the job as before.

``JobOwed.failed_at`` lets the sweep send again soon work whose message was
lost, and leave longer a job that raised.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0015_members_only_clubs'),
    ]

    operations = [
        migrations.AddField(
            model_name='jobowed',
            name='failed_at',
            field=models.DateTimeField(blank=True, help_text='when a run last raised, since the work was last owed', null=True),
        ),
        migrations.CreateModel(
            name='RatingsOwed',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('rerate_from', models.CharField(help_text='the order key of the changed game', max_length=48)),
                ('owed_at', models.DateTimeField()),
                ('scope', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='league.ratingscope')),
            ],
            options={
                'verbose_name': 'ratings owed',
                'verbose_name_plural': 'ratings owed',
            },
        ),
    ]
