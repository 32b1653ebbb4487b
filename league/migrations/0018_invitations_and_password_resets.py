"""Invitations a login accepts before it holds a role (league.services.accounts),
and password resets asked, mailed by a kind of work owed (league.mails)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0017_results_imports'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Invitation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('username', models.CharField(help_text='the login as the organiser typed it: what their pages show', max_length=150)),
                ('role', models.CharField(choices=[('organiser', 'Organiser'), ('scorekeeper', 'Scorekeeper')], max_length=20)),
                ('new_login', models.BooleanField(default=False, help_text='the login was made for this invitation: its link sets the first password')),
                ('digest', models.CharField(help_text="SHA-256 of the link's secret, hex", max_length=64, unique=True)),
                ('made_at', models.DateTimeField()),
                ('expires_at', models.DateTimeField()),
            ],
            options={
                'ordering': ['made_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='PasswordResetAsked',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('email', models.CharField(help_text='the address as typed', max_length=254)),
                ('protocol', models.CharField(help_text='http or https, as the request came', max_length=5)),
                ('domain', models.CharField(help_text="the site's host the request came to", max_length=255)),
                ('asked_at', models.DateTimeField()),
            ],
            options={
                'verbose_name': 'password reset asked',
                'verbose_name_plural': 'password resets asked',
            },
        ),
        migrations.RemoveConstraint(
            model_name='jobowed',
            name='job_owed_known_kind',
        ),
        migrations.AlterField(
            model_name='jobowed',
            name='kind',
            field=models.CharField(choices=[('standings', "a league's standings"), ('ratings', "a rating scope's ratings"), ('webhook', 'a webhook delivery'), ('import', "a results file's import"), ('password_reset', "a password reset's mail")], max_length=20),
        ),
        migrations.AlterField(
            model_name='jobowed',
            name='target_id',
            field=models.BigIntegerField(help_text='the league (standings), the rating scope (ratings), the delivery (webhook), the results import (import) or the password reset asked (password_reset) to work on'),
        ),
        migrations.AddConstraint(
            model_name='jobowed',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['standings', 'ratings', 'webhook', 'import', 'password_reset'])), name='job_owed_known_kind'),
        ),
        migrations.AddField(
            model_name='invitation',
            name='club',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to='league.club'),
        ),
        migrations.AddField(
            model_name='invitation',
            name='made_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='invitation',
            name='player',
            field=models.ForeignKey(blank=True, help_text="the club's player to link the login to when it accepts, if still free", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='league.player'),
        ),
        migrations.AddField(
            model_name='invitation',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='invitations', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name='invitation',
            constraint=models.UniqueConstraint(fields=('club', 'user'), name='invitation_once_per_club_and_login'),
        ),
        migrations.AddConstraint(
            model_name='invitation',
            constraint=models.CheckConstraint(condition=models.Q(('role__in', ['organiser', 'scorekeeper'])), name='invitation_known_role'),
        ),
        migrations.AddConstraint(
            model_name='invitation',
            constraint=models.CheckConstraint(condition=models.Q(('expires_at__gt', models.F('made_at'))), name='invitation_expires_after_made'),
        ),
    ]
