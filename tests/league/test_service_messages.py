"""The services' refusals are worded in the request's language (issue 33): each
message is looked up when it is raised, so the language active then is the
one the page or the API answers in; English stays as it was, and ``code`` and
``field`` are the same in every language."""

# Ukrainian words are Cyrillic by design: not letters mistaken for Latin ones.
# ruff: noqa: RUF001

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.utils import translation

import games
from league import seating
from league.access import role_needed
from league.errors import Conflict, ServiceError
from league.models import Confirmation, Game, League, Membership, Round, Table, TableStatus
from league.season import SeasonRefused, season_check
from league.selectors.tonight import progress_of
from league.services.accounts import api_token_create
from league.services.clubs import check_name, club_create
from league.services.fixtures import (
    _check_no_hands,
    _season_checked,
    round_create,
    season_refusal_words,
)
from league.services.results import game_submit
from league.services.seating import seating_refusal_words
from tests.support.factories import ClubFactory, EventFactory, UserFactory

pytestmark = pytest.mark.django_db


def refusal(language: str, call: object, *args: object, **kwargs: object) -> ServiceError:
    """The error ``call`` raises with ``language`` active."""
    assert callable(call)
    with translation.override(language), pytest.raises(ServiceError) as raised:
        call(*args, **kwargs)
    return raised.value


def test_a_club_s_name_taken_in_three_languages() -> None:
    ClubFactory(name="Hilltop Whist")
    said = {
        language: refusal(language, club_create, name="Hilltop Whist")
        for language in ("en", "uk", "cs")
    }

    assert said["en"].message == "a club named 'Hilltop Whist' exists already"
    assert said["uk"].message == "клуб із назвою 'Hilltop Whist' уже існує"
    assert said["cs"].message == "klub s názvem 'Hilltop Whist' už existuje"
    assert {(type(e), e.field, e.code) for e in said.values()} == {(Conflict, "name", None)}


def test_a_name_s_fault_is_worded_from_its_code() -> None:
    assert refusal("en", check_name, "\u200b").message == "the name has nothing to show"
    assert refusal("cs", check_name, "\u200b").message == "jméno neobsahuje nic viditelného"
    assert refusal("uk", check_name, "a\x07b").message == (
        "ім'я не може містити керівний символ (U+0007)"
    )
    assert refusal("uk", check_name, "a\x07b").code == "bad-name"


def test_a_round_number_taken_at_a_game_night() -> None:
    event = EventFactory()  # with its round 1

    assert refusal("en", round_create, event=event, number=1).message == (
        "the event already has a round 1"
    )
    assert refusal("cs", round_create, event=event, number=1).message == ("večer už má kolo 1")
    assert refusal("uk", round_create, event=event, number=1).field == "number"


def test_hands_held_at_tables_are_counted_in_each_language_s_plural_forms() -> None:
    """Ukrainian and Czech have three forms where English has two."""
    tables = [
        Table(number=number, hands_played=hands, round=Round(number=1))
        for number, hands in ((1, 1), (2, 3), (3, 5), (4, 2), (5, 2))
    ]

    english = refusal("en", _check_no_hands, tables, what="round 1").message
    ukrainian = refusal("uk", _check_no_hands, tables, what="тур 1").message
    czech = refusal("cs", _check_no_hands, tables, what="kolo 1").message

    assert english == (
        "round 1 cannot be deleted once hands are entered: table 1 of round 1 has 1 hand; "
        "table 2 of round 1 has 3 hands; table 3 of round 1 has 5 hands (and 2 more tables)"
    )
    assert ukrainian == (
        "тур 1: видалити не можна, бо вже внесено роздачі: стіл 1 туру 1 має 1 роздачу; "
        "стіл 2 туру 1 має 3 роздачі; стіл 3 туру 1 має 5 роздач (і ще 2 столи)"
    )
    assert czech.endswith("stůl 3 v kole 1 má 5 rozdání (a ještě 2 stoly)")


def test_a_game_record_refused_by_the_results_service() -> None:
    table = Table()  # refused before the table is read

    assert refusal("en", game_submit, table=table, record=[]).message == (
        "a game record is a JSON object"
    )
    assert refusal("cs", game_submit, table=table, record=[]).message == (
        "záznam hry je objekt JSON"
    )
    assert refusal("uk", game_submit, table=table, record=[]).field == "record"


def test_an_api_token_s_name_refused_with_a_limit_in_words() -> None:
    user = UserFactory()
    long_name = "x" * 101

    assert refusal("en", api_token_create, user=user, name="").message == (
        "name the token: what is it for?"
    )
    assert refusal("uk", api_token_create, user=user, name="").message == (
        "назвіть токен: для чого він?"
    )
    assert refusal("en", api_token_create, user=user, name=long_name).message == (
        "a token's name has at most 100 characters"
    )
    assert refusal("cs", api_token_create, user=user, name=long_name).message == (
        "název tokenu má nejvýše 100 znaků"
    )
    assert refusal("uk", api_token_create, user=user, name=long_name).message == (
        "назва токена має щонайбільше 100 символів"
    )


def test_a_role_refused_names_the_role_in_the_language() -> None:
    results = (Membership.Role.ORGANISER, Membership.Role.SCOREKEEPER)
    with translation.override("cs"):
        assert role_needed(results).message == (
            "k tomu je potřeba role organizátora nebo zapisovatele v klubu"
        )
        assert role_needed(results).roles == results
    assert role_needed(results).message == (
        "this needs the organiser or scorekeeper role in the club"
    )


def test_choice_labels_shown_on_pages_are_translated_when_shown() -> None:
    with translation.override("uk"):
        assert str(Confirmation.DISPUTED.label) == "Оскаржено"
        assert str(TableStatus.IN_PROGRESS.label) == "Триває"
    with translation.override("cs"):
        assert str(Membership.Role.SCOREKEEPER.label) == "Zapisovatel"
    assert str(Confirmation.DISPUTED.label) == "Disputed"


BAD_SEASONS = [
    [4, 2],
    {"points_by_place": {"4": [4, 2, 1, 0]}, "best": 3},
    {"points_by_place": {"4": [4, 2, 1, 0]}, "best_nights": 0},
    {"points_by_place": {"4": [4, 2, 1, 0]}, "min_games": -1},
    {"points_by_place": [4, 2, 1, 0]},
    {"points_by_place": {"9": [1]}},
    {"points_by_place": {}},
    {"points_by_place": {"4": "4210"}},
    {"points_by_place": {"4": [4, 2, 1]}},
    {"points_by_place": {"4": [4, 2, -1, 0]}},
    {"points_by_place": {"4": [4, 2, 3, 0]}},
]
"""A season format refused by each of the pure module's rules."""


@pytest.mark.parametrize("season", BAD_SEASONS)
def test_a_season_format_s_refusal_keeps_its_english_and_is_worded_in_czech(
    season: object,
) -> None:
    """The services word the pure module's refusal from its rule and facts: the
    English is the module's own sentence, the field is the same in Czech."""
    with pytest.raises(SeasonRefused) as raised:
        season_check(game=Game.BUCK_EUCHRE, season=season)
    refused = raised.value
    assert refused.rule
    assert season_refusal_words(refused) == refused.message
    with translation.override("cs"):
        czech = season_refusal_words(refused)
    assert czech != refused.message

    with translation.override("cs"), pytest.raises(ServiceError) as worded:
        _season_checked(game=Game.BUCK_EUCHRE, season=season)
    assert (worded.value.message, worded.value.field, worded.value.code) == (
        czech,
        refused.field,
        None,
    )


def test_a_season_s_rising_points_in_czech() -> None:
    with pytest.raises(SeasonRefused) as raised:
        season_check(game=Game.BUCK_EUCHRE, season={"points_by_place": {"4": [4, 2, 3, 0]}})
    with translation.override("cs"):
        assert season_refusal_words(raised.value) == (
            "body stolu pro 4 nesmějí od jednoho místa k dalšímu stoupat: "
            "místo 3 má víc než místo 2"
        )


def test_a_table_s_progress_on_the_night_s_pages_in_each_language() -> None:
    league = League(game=Game.BLUKE, options={})
    entering = Table(hands_played=1, complete=False, players=4)
    disputed = Table(hands_played=10, complete=True, players=4, confirmation=Confirmation.DISPUTED)
    hands = len(games.rules_for(Game.BLUKE, 4, {}).schedule)

    assert progress_of(entering, league).text == f"entering, hand 2 of {hands}"
    assert progress_of(disputed, league).text == "disputed"
    with translation.override("cs"):
        assert progress_of(entering, league).text == f"zapisuje se rozdání 2 z {hands}"
        assert progress_of(disputed, league).text == "rozporováno"
        assert progress_of(Table(hands_played=0), league).text == "nezačato"
    with translation.override("uk"):
        assert progress_of(entering, league).text == f"вносять роздачу 2 з {hands}"


BLUKE_4 = seating.TablePolicy("bluke", size=4)
SEATING_REFUSALS = [
    lambda: seating.TablePolicy("whist"),
    lambda: seating.TablePolicy("bluke", spill="sideways"),  # type: ignore[arg-type]
    lambda: seating.TablePolicy("buck_euchre", size=5),
    lambda: seating.TablePolicy("bluke", size=7),
    lambda: BLUKE_4.table_sizes(2),
    lambda: seating.plan_night([1, 2, 3, 4], BLUKE_4, rounds=0),
    lambda: seating.plan_night([1, 2, 3, 4], BLUKE_4, rounds=1, absent={3: [1]}),
    lambda: seating.plan_round([1, 1, 2, 3], BLUKE_4),
    lambda: seating.plan_round([1, 2, 3, 4], BLUKE_4, pins={9: 0}),
    lambda: seating.plan_round([1, 2, 3, 4], BLUKE_4, keep_apart=[(1, 1)]),
    lambda: seating.plan_round([1, 2, 3, 4], BLUKE_4, method="alphabetical"),
    lambda: seating.plan_round([1, 2, 3, 4], BLUKE_4, method="swiss"),
    lambda: seating.plan_round([1, 2, 3, 4], BLUKE_4, pins={1: 2}),
    lambda: seating.plan_round(list(range(1, 9)), BLUKE_4, pins=dict.fromkeys(range(1, 6), 0)),
]
"""A call the seating generator refuses, for each of its codes and sentences."""


@pytest.mark.parametrize("call", SEATING_REFUSALS)
def test_the_seating_generator_s_refusal_keeps_its_english_and_is_worded_in_czech(
    call: Callable[[], object],
) -> None:
    with pytest.raises(seating.SeatingError) as raised:
        call()
    error = raised.value

    assert seating_refusal_words(error) == error.message
    with translation.override("cs"):
        assert seating_refusal_words(error) != error.message
