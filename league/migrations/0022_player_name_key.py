"""Players' names compared by a key, and the audit trail's deletions and merges.

``Player.name_key`` (:func:`league.names.name_key`: NFC, invisible characters
removed, whitespace runs one space, case folded) is unique in a club, in place of
the name itself: "Ada" and "ada" are one name from now on.

The keys are filled for the players there are (:func:`names_keyed`), each name
trimmed and put in NFC as the services keep them. A club that already holds two
names with one key ("Ada", then "ada") keeps the first made (the lower id) as it
is and renames each later one with the first free number: "ada (2)", "ADA (3)"…
(the name cut short to leave room when it is long); a name with nothing to show
(invisible characters alone) becomes "Player <id>". The renames are not in the
audit trail (no request made them); docs/organising.md says so.

The audit trail's new actions (``event.deleted``, ``round.deleted``,
``table.deleted``, ``player.deleted``, ``player.merged``) alter its CHECK
constraint, which SQLite does by building the table anew: its UPDATE trigger is
dropped before and made again after, as in 0014.
"""

import importlib
from collections import defaultdict
from collections.abc import Iterable

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

from league.names import MAX_NAME, name_clean, name_key

_links = importlib.import_module("league.migrations.0014_table_links_and_confirmation")

BATCH = 1_000


def names_keyed(rows: Iterable[tuple[int, int, str]]) -> dict[int, tuple[str, str]]:
    """Each player's name as kept and its key, by id, from ``(id, club id, name)``
    rows: in id order, a name whose key the club has already is numbered
    "<name> (2)", "(3)"… with the first number whose key is free.

    (tests/league/test_player_names.py holds examples: "Ada" then " ada" give
    "Ada" and "ada (2)".)
    """
    taken: dict[int, set[str]] = defaultdict(set)
    kept: dict[int, tuple[str, str]] = {}
    for pk, club_id, name in sorted(rows):
        base = name_clean(name)
        if not name_key(base):
            base = f"Player {pk}"
        candidate, number = base, 1
        while name_key(candidate) in taken[club_id]:
            number += 1
            suffix = f" ({number})"
            candidate = base[: MAX_NAME - len(suffix)].rstrip() + suffix
        key = name_key(candidate)
        taken[club_id].add(key)
        kept[pk] = (candidate, key)
    return kept


def fill_keys(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Set every player's key (and clean name), renaming a club's repeats."""
    if schema_editor.connection.vendor == "postgresql":
        # the updates must leave no deferred check pending: the table is altered next
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    Player = apps.get_model("league", "Player")
    rows = list(Player.objects.values_list("pk", "club_id", "name"))
    keyed = names_keyed(rows)
    changed = [
        Player(pk=pk, name=keyed[pk][0], name_key=keyed[pk][1])
        for pk, _, name in rows
    ]
    for first in range(0, len(changed), BATCH):
        Player.objects.bulk_update(changed[first : first + BATCH], ["name", "name_key"])


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0021_table_player_removed'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='name_key',
            field=models.CharField(default='', editable=False, help_text='the name as compared: NFC, invisible characters removed, spaces collapsed, case folded (league.names)', max_length=300),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop, elidable=False),
        migrations.RemoveConstraint(
            model_name='player',
            name='player_name_unique_in_club',
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(fields=('club', 'name_key'), name='player_name_key_unique_in_club'),
        ),
        migrations.RunPython(_links.drop_trigger, _links.create_trigger, elidable=False),
        migrations.RemoveConstraint(
            model_name='auditentry',
            name='audit_known_action',
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='action',
            field=models.CharField(choices=[('hand.submitted', 'hand submitted'), ('hand.corrected', 'hand corrected'), ('hand.deleted', 'hand deleted'), ('game.submitted', 'whole game submitted'), ('table.created', 'table made by hand'), ('table.reseated', 'table reseated'), ('table.player_removed', 'player taken off a table'), ('seating.drawn', 'round drawn'), ('seating.adjusted', 'round adjusted by hand'), ('attendance.changed', 'attendance changed'), ('player.anonymised', 'player anonymised'), ('membership.set', 'role given'), ('membership.removed', 'role taken away'), ('game.confirmed', 'game confirmed'), ('game.disputed', 'game disputed'), ('table_link.made', 'table link made'), ('table_link.revoked', 'table link revoked'), ('league.season_changed', 'season format changed'), ('league.final_made', 'final made'), ('event.deleted', 'game night deleted'), ('round.deleted', 'round deleted'), ('table.deleted', 'table deleted'), ('player.deleted', 'player deleted'), ('player.merged', 'players merged')], max_length=30),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(('action__in', ['hand.submitted', 'hand.corrected', 'hand.deleted', 'game.submitted', 'table.created', 'table.reseated', 'table.player_removed', 'seating.drawn', 'seating.adjusted', 'attendance.changed', 'player.anonymised', 'membership.set', 'membership.removed', 'game.confirmed', 'game.disputed', 'table_link.made', 'table_link.revoked', 'league.season_changed', 'league.final_made', 'event.deleted', 'round.deleted', 'table.deleted', 'player.deleted', 'player.merged'])), name='audit_known_action'),
        ),
        migrations.RunPython(_links.create_trigger, _links.drop_trigger, elidable=False),
    ]
