from django.db import migrations, models


class Migration(migrations.Migration):
    """The language a background import was asked for in, so that its job words
    the refusal it keeps in that language (issue 33)."""

    dependencies = [
        ("league", "0026_languages"),
    ]

    operations = [
        migrations.AddField(
            model_name="resultsimport",
            name="language",
            field=models.CharField(
                blank=True,
                default="",
                help_text="the language the import was asked for in: the job words its refusal in it",
                max_length=16,
            ),
        ),
    ]
