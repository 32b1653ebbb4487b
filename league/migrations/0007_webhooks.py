"""Webhooks (league.webhooks): a club's endpoints and their deliveries, and
a kind of work owed for a delivery's job."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0006_audit_trail"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="WebhookEndpoint",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("url", models.URLField(max_length=500)),
                ("events", models.JSONField(default=list, help_text="the event types subscribed to (league.models.WebhookEvent)")),
                ("secret", models.CharField(max_length=100)),
                ("active", models.BooleanField(default=True)),
                ("disabled_at", models.DateTimeField(blank=True, null=True)),
                ("disabled_reason", models.TextField(blank=True, default="")),
                ("consecutive_failures", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="webhook_endpoints", to="league.club")),
                ("created_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["club", "id"],
                "constraints": [
                    models.UniqueConstraint(fields=("club", "url"), name="webhook_url_once_per_club"),
                    models.CheckConstraint(condition=models.Q(("secret", ""), _negated=True), name="webhook_has_a_secret"),
                    models.CheckConstraint(condition=models.Q(models.Q(("disabled_at__isnull", True), ("disabled_reason", "")), models.Q(("active", False), ("disabled_at__isnull", False), models.Q(("disabled_reason", ""), _negated=True)), _connector="OR"), name="webhook_disabled_inactive_with_reason"),
                ],
            },
        ),
        migrations.CreateModel(
            name="WebhookDelivery",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("event_id", models.UUIDField()),
                ("event", models.CharField(choices=[("game.completed", "A game completed"), ("result.corrected", "A result corrected"), ("standings.updated", "Standings updated"), ("round.seated", "A round seated"), ("ping", "A test ping")], max_length=30)),
                ("payload", models.JSONField()),
                ("status", models.CharField(choices=[("pending", "Pending"), ("delivered", "Delivered"), ("failed", "Failed")], default="pending", max_length=10)),
                ("attempts", models.PositiveSmallIntegerField(default=0)),
                ("next_attempt_at", models.DateTimeField(blank=True, null=True)),
                ("last_status_code", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("last_error", models.TextField(blank=True, default="")),
                ("delivered_at", models.DateTimeField(blank=True, null=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("endpoint", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="deliveries", to="league.webhookendpoint")),
            ],
            options={
                "verbose_name_plural": "webhook deliveries",
                "ordering": ["-id"],
                "constraints": [
                    models.UniqueConstraint(fields=("endpoint", "event_id"), name="webhook_delivery_once_per_endpoint"),
                    models.CheckConstraint(condition=models.Q(("status__in", ["pending", "delivered", "failed"])), name="webhook_delivery_known_status"),
                    models.CheckConstraint(condition=models.Q(("event__in", ["game.completed", "result.corrected", "standings.updated", "round.seated", "ping"])), name="webhook_delivery_known_event"),
                    models.CheckConstraint(condition=models.Q(models.Q(("next_attempt_at__isnull", False), ("status", "pending")), models.Q(models.Q(("status", "pending"), _negated=True), ("next_attempt_at__isnull", True)), _connector="OR"), name="webhook_delivery_due_while_pending"),
                    models.CheckConstraint(condition=models.Q(models.Q(("delivered_at__isnull", False), ("status", "delivered")), models.Q(models.Q(("status", "delivered"), _negated=True), ("delivered_at__isnull", True)), _connector="OR"), name="webhook_delivery_delivered_at_when_delivered"),
                ],
            },
        ),
        # A delivery's job is work owed like any other (league.outbox).
        migrations.RemoveConstraint(
            model_name="jobowed",
            name="job_owed_known_kind",
        ),
        migrations.AlterField(
            model_name="jobowed",
            name="kind",
            field=models.CharField(choices=[("standings", "a league's standings"), ("ratings", "a rating scope's ratings"), ("webhook", "a webhook delivery")], max_length=20),
        ),
        migrations.AlterField(
            model_name="jobowed",
            name="target_id",
            field=models.BigIntegerField(help_text="the league (standings), the rating scope (ratings) or the delivery (webhook) to work on"),
        ),
        migrations.AddConstraint(
            model_name="jobowed",
            constraint=models.CheckConstraint(condition=models.Q(("kind__in", ["standings", "ratings", "webhook"])), name="job_owed_known_kind"),
        ),
    ]
