"""Players' names: kept as typed (trimmed, NFC), unique in a club by their key
(case, invisible characters and runs of spaces do not count), control characters
refused, close names found, and the migration that keys the names there are."""

from __future__ import annotations

import importlib
import unicodedata

import pytest
from django.db import IntegrityError, connection, transaction

from league.errors import Conflict, ServiceError
from league.models import AuditEntry, Player
from league.names import close_names, is_close, name_clean, name_key, name_problem
from league.selectors import clubs as clubs_selectors
from league.services import attendance, clubs
from tests.support.api import assert_problem, client_for
from tests.support.factories import ClubFactory, EventFactory, PlayerFactory
from tests.support.setups import club_setup

_migration = importlib.import_module("league.migrations.0022_player_name_key")

NFD_JOSE = unicodedata.normalize("NFD", "José")


@pytest.mark.parametrize(
    "typed",
    [
        "ada",
        "ADA",
        "Ada ",
        " Ada",
        "A\u200bda",  # zero-width space
        "A\u200dda",  # zero-width joiner
        "A\u00adda",  # soft hyphen
        "\ufeffAda",  # byte order mark
        "\u200eAda\u200f",  # bidi marks
        "A\u2060da",  # word joiner
        "Ad\ufe0fa",  # a variation selector
    ],
)
def test_these_are_all_the_name_ada(typed: str) -> None:
    assert name_key(typed) == name_key("Ada") == "ada"


def test_spaces_inside_a_name_count_as_one() -> None:
    assert name_key("Ada  Lovelace") == name_key("Ada\u00a0Lovelace") == "ada lovelace"
    assert name_key("AdaLovelace") != name_key("Ada Lovelace")


def test_composed_and_decomposed_accents_are_one_name_and_kept_composed() -> None:
    assert NFD_JOSE != "José"
    assert name_key(NFD_JOSE) == name_key("José")
    assert name_clean(f" {NFD_JOSE} ") == "José"


def test_nfc_not_nfkc_full_width_letters_and_accents_stay_distinct() -> None:
    assert name_key("\uff21\uff44\uff41") != name_key("Ada")  # full width
    assert name_key("José") != name_key("Jose")  # a different name, but a close one
    assert name_key("Straße") == name_key("STRASSE")  # case folding, not NFKC


def test_what_a_name_cannot_be() -> None:
    assert name_problem("Ada") is None
    assert "control character (U+0000)" in str(name_problem("A\x00da"))
    assert "U+0009" in str(name_problem("Ada\tL"))
    assert "U+000A" in str(name_problem("Ada\nL"))
    assert "U+007F" in str(name_problem("Ada\x7f"))
    assert name_problem("") == "the name is empty"
    assert name_problem("\u200b\u200b") == "the name has nothing to show"
    assert "at most 100" in str(name_problem("x" * 101))
    assert name_problem("x" * 100) is None


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Jose", "José"),  # accents
        ("Mary Ann", "Mary-Ann"),  # punctuation and spaces
        ("Ada Lovelace", "Lovelace Ada"),  # the same letters reordered
        ("Ada", "Adaa"),  # one letter more
        ("Ada", "Ado"),  # one letter changed
        ("Margaret", "Margret"),  # one letter fewer in a longer name
        ("Christopher", "Kristopher"),  # two edits in a longer name
    ],
)
def test_close_names(name: str, other: str) -> None:
    assert is_close(name, other) and is_close(other, name)


@pytest.mark.parametrize(
    ("name", "other"),
    [
        ("Ada", "Bob"),
        ("Ada", "ada"),  # the same name, not a close one
        ("Ann", "Anton"),  # two edits in a short name
        ("Chris", "Christopher"),
        ("Ada", "\u200b"),  # nothing to compare
        ("Player 7", "Player 8"),  # other digits: another person, not a slip
    ],
)
def test_names_not_close(name: str, other: str) -> None:
    assert not is_close(name, other)


def test_close_names_keeps_the_order_given() -> None:
    assert close_names("Jose", ["Joss", "Ann", "José"]) == ["Joss", "José"]


# -- the services --------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ["ada", "ADA", " Ada ", "A\u200bda", "Ada\u00ad"])
def test_a_name_the_club_has_in_other_letters_is_taken(typed: str) -> None:
    club = ClubFactory()
    ada = clubs.player_create(club=club, name="Ada")
    with pytest.raises(clubs.NameTaken) as refused:
        clubs.player_create(club=club, name=typed)
    assert refused.value.player == ada
    assert refused.value.code == clubs.NAME_TAKEN and refused.value.field == "name"
    assert "the club already has a player named 'Ada'" in refused.value.message
    assert Player.objects.filter(club=club).count() == 1


@pytest.mark.django_db
def test_a_name_is_kept_as_typed_trimmed_and_composed() -> None:
    club = ClubFactory()
    player = clubs.player_create(club=club, name=f"  {NFD_JOSE} da Silva ")
    player.refresh_from_db()
    assert player.name == "José da Silva"
    assert player.name_key == "josé da silva"
    with pytest.raises(clubs.NameTaken):
        clubs.player_create(club=club, name="JOSÉ  DA SILVA")


@pytest.mark.django_db
def test_the_same_name_in_two_clubs_is_two_players() -> None:
    clubs.player_create(club=ClubFactory(), name="Ada")
    assert clubs.player_create(club=ClubFactory(), name="ada").name == "ada"


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["A\x00da", "Ada\nL", "Ada\x1b", "\u200b", "", "x" * 101])
def test_a_name_refused_in_itself_stores_nothing(bad: str) -> None:
    club = ClubFactory()
    with pytest.raises(ServiceError) as refused:
        clubs.player_create(club=club, name=bad)
    assert refused.value.code == clubs.BAD_NAME and refused.value.field == "name"
    assert not isinstance(refused.value, Conflict)
    assert not Player.objects.filter(club=club).exists()


@pytest.mark.django_db
def test_renaming_checks_the_key_against_the_others_but_not_the_player_themselves() -> None:
    club = ClubFactory()
    ada, bob = (clubs.player_create(club=club, name=n) for n in ("Ada", "Bob"))
    with pytest.raises(clubs.NameTaken) as refused:
        clubs.player_update(player=bob, name="ADA")
    assert refused.value.player == ada
    renamed = clubs.player_update(player=Player.objects.get(pk=ada.pk), name="ADA")
    renamed.refresh_from_db()
    assert (renamed.name, renamed.name_key) == ("ADA", "ada")


@pytest.mark.django_db
def test_players_made_at_once_are_checked_by_key_all_or_nothing() -> None:
    club = ClubFactory()
    clubs.player_create(club=club, name="Ada")
    with pytest.raises(Conflict, match="named twice"):
        clubs.players_create(club=club, names=["Bob", "BOB"])
    with pytest.raises(clubs.NameTaken):
        clubs.players_create(club=club, names=["Bob", "ada"])
    with pytest.raises(ServiceError, match="control character"):
        clubs.players_create(club=club, names=["Bob", "C\x00"])
    assert list(Player.objects.filter(club=club).values_list("name", flat=True)) == ["Ada"]
    made = clubs.players_create(club=club, names=["Bob", " Cy "])
    assert [(p.name, p.name_key) for p in made] == [("Bob", "bob"), ("Cy", "cy")]


@pytest.mark.django_db
def test_the_database_holds_the_key_unique_in_a_club() -> None:
    club = ClubFactory()
    clubs.player_create(club=club, name="Ada")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.bulk_create([Player(club=club, name="ADA")])  # the key set, as save does
    with pytest.raises(IntegrityError), transaction.atomic():
        Player(club=club, name="a\u200bda").save()


@pytest.mark.django_db
def test_a_guest_with_a_taken_name_is_refused_and_nothing_is_stored() -> None:
    event = EventFactory()
    clubs.player_create(club=event.league.club, name="Ada")
    with pytest.raises(clubs.NameTaken):
        attendance.guest_add(event=event, name="ada", by=None)
    assert not event.attendance.exists()


@pytest.mark.django_db
def test_anonymising_finds_a_free_name_by_its_key() -> None:
    club = ClubFactory()
    player = clubs.player_create(club=club, name="Ada")
    clubs.player_create(club=club, name=f"former player {player.pk}")
    anonymised = clubs.player_anonymise(player=player)
    assert anonymised.name.startswith(f"Former player {player.pk} (")


@pytest.mark.django_db
def test_close_players_are_found_among_the_club_s_names() -> None:
    club = ClubFactory()
    ada = clubs.player_create(club=club, name="Ada")
    clubs.player_create(club=club, name="Bob")
    names = clubs_selectors.club_names(club=club)
    assert clubs_selectors.close_players(names=names, name="Adaa") == [(ada.pk, "Ada")]
    assert clubs_selectors.close_players(names=names, name="Adaa", exclude=ada.pk) == []


# -- the API ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_answers_a_taken_name_409_with_the_player_who_has_it() -> None:
    setup = club_setup()
    ada = clubs.player_create(club=setup.club, name="Ada")
    client = client_for(setup.organiser)
    body = assert_problem(client.post("/api/players/", {"club": setup.club.pk, "name": "ADA"}), 409)
    assert body["player"] == ada.pk and body["code"] == "name-taken" and body["field"] == "name"
    renamed = client.patch(f"/api/players/{setup.players[0].pk}/", {"name": "a\u200bda"})
    assert assert_problem(renamed, 409)["player"] == ada.pk


@pytest.mark.django_db
def test_the_api_takes_a_close_name_without_asking() -> None:
    setup = club_setup()
    clubs.player_create(club=setup.club, name="Ada")
    response = client_for(setup.organiser).post(
        "/api/players/", {"club": setup.club.pk, "name": "Adaa"}
    )
    assert response.status_code == 201, response.content
    assert response.json()["name"] == "Adaa"


@pytest.mark.django_db
@pytest.mark.parametrize("bad", ["Ada\x00", "Ada\x07", "Ada\nLovelace", "\u200b"])
def test_the_api_refuses_control_characters_and_empty_names_400(bad: str) -> None:
    setup = club_setup()
    before = Player.objects.count()
    body = assert_problem(
        client_for(setup.organiser).post("/api/players/", {"club": setup.club.pk, "name": bad}),
        400,
    )
    assert "name" in body["errors"]
    assert Player.objects.count() == before


@pytest.mark.django_db
def test_nul_in_a_name_is_refused_before_the_database_on_every_backend() -> None:
    """PostgreSQL refuses NUL in text: the refusal must come first, as a 400."""
    setup = club_setup()
    client = client_for(setup.organiser, crash_as_500=True)
    for response in (
        client.post("/api/players/", {"club": setup.club.pk, "name": "A\x00da"}),
        client.patch(f"/api/players/{setup.players[0].pk}/", {"name": "A\x00da"}),
        client.post(f"/api/events/{setup.event.pk}/attendance/guests/", {"name": "G\x00"}),
    ):
        assert_problem(response, 400)
    with pytest.raises(ServiceError):
        clubs.player_create(club=setup.club, name="A\x00da")
    assert connection.vendor in ("sqlite", "postgresql")


# -- the migration -------------------------------------------------------------------


def test_the_migration_keys_names_and_numbers_a_club_s_repeats() -> None:
    keyed = _migration.names_keyed(
        [
            (3, 1, " ada"),
            (1, 1, "Ada"),
            (4, 2, "ada"),
            (7, 1, "ADA"),
            (9, 1, "A\u200bda (2)"),
            (10, 1, NFD_JOSE),
            (11, 1, "\u200b"),
        ]
    )
    assert keyed == {
        1: ("Ada", "ada"),  # the first made keeps its name
        3: ("ada (2)", "ada (2)"),
        4: ("ada", "ada"),  # another club's
        7: ("ADA (3)", "ada (3)"),
        9: ("A\u200bda (2) (2)", "ada (2) (2)"),  # its own name taken by a number
        10: ("José", "josé"),
        11: ("Player 11", "player 11"),
    }


def test_the_migration_keeps_a_long_repeated_name_within_the_limit() -> None:
    long = "x" * 100
    keyed = _migration.names_keyed([(1, 1, long), (2, 1, long.upper())])
    assert keyed[2][0] == "X" * 96 + " (2)" and len(keyed[2][0]) == 100


@pytest.mark.django_db
def test_the_migration_fills_the_keys_of_a_database_holding_ada_and_ada() -> None:
    """Two names one key, stored as the old constraint let them be: the fill
    renames the later one and keys both, so the new constraint can be made."""
    from django.apps import apps

    club = ClubFactory()
    first = PlayerFactory(club=club, name="Ada")
    second = PlayerFactory(club=club, name="Bob")
    # as the old database held them: "ada" beside "Ada", keys not yet filled (the
    # test database has the new constraint: two stale keys stand for the empty ones)
    with connection.cursor() as cursor:
        for pk, name in ((first.pk, "Ada"), (second.pk, "ada")):
            cursor.execute(
                f"UPDATE {Player._meta.db_table} SET name = %s, name_key = %s WHERE id = %s",
                [name, f"stale {pk}", pk],
            )

    class Editor:
        def __init__(self) -> None:
            self.connection = connection

        def execute(self, sql: str) -> None:
            with connection.cursor() as cursor:
                cursor.execute(sql)

    with transaction.atomic():
        _migration.fill_keys(apps, Editor())
    rows = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    assert rows == {first.pk: "Ada", second.pk: "ada (2)"}
    assert set(Player.objects.filter(club=club).values_list("name_key", flat=True)) == {
        "ada",
        "ada (2)",
    }
    assert not AuditEntry.objects.filter(club=club, action="player.merged").exists()
