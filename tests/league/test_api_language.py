"""The API answers in the client's language where people read it: a problem's
``detail`` and the messages of ``errors`` follow ``Accept-Language``, while
what programs read (``type``, ``title``, ``status``, ``code``, ``field`` and
the names in ``errors``) stays the same in every language."""

# Ukrainian words are Cyrillic by design: not letters mistaken for Latin ones.
# ruff: noqa: RUF001

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AbstractUser

from league.services.results import hand_submit
from tests.support.api import assert_problem, client_for
from tests.support.records import bluke_results
from tests.support.setups import ClubSetup, club_setup

pytestmark = pytest.mark.django_db

LANGUAGES = {"en": {}, "cs": {"HTTP_ACCEPT_LANGUAGE": "cs"}, "uk": {"HTTP_ACCEPT_LANGUAGE": "uk"}}
"""The request's headers of each language: English is asked by no header at all."""


@pytest.fixture
def setup() -> ClubSetup:
    return club_setup(name="Hilltop Whist")


def machine_parts(body: dict[str, Any]) -> dict[str, Any]:
    """What a program reads of a problem: everything but the words for people."""
    parts = {key: value for key, value in body.items() if key not in ("detail", "errors")}
    parts["errors"] = sorted(body.get("errors", {}))
    return parts


def test_a_name_taken_is_refused_in_the_client_s_language(
    setup: ClubSetup, user: AbstractUser
) -> None:
    client = client_for(user)
    bodies = {
        language: assert_problem(
            client.post("/api/clubs/", {"name": "Hilltop Whist"}, **headers), 409
        )
        for language, headers in LANGUAGES.items()
    }

    assert bodies["en"]["detail"] == "a club named 'Hilltop Whist' exists already"
    assert bodies["cs"]["detail"] == "klub s názvem 'Hilltop Whist' už existuje"
    assert bodies["uk"]["detail"] == "клуб із назвою 'Hilltop Whist' уже існує"
    assert bodies["en"]["title"] == "Conflict"
    assert bodies["en"]["field"] == "name"
    assert machine_parts(bodies["cs"]) == machine_parts(bodies["en"])
    assert machine_parts(bodies["uk"]) == machine_parts(bodies["en"])


def test_a_service_s_400_words_its_errors_and_keeps_their_names(setup: ClubSetup) -> None:
    client = client_for(setup.organiser)
    bodies = {
        language: assert_problem(client.post("/api/clubs/", {"name": ":"}, **headers), 400)
        for language, headers in LANGUAGES.items()
    }

    english = "the name has no letter or digit to make a slug of; give one"
    assert bodies["en"]["errors"] == {"slug": [english]}
    assert bodies["cs"]["errors"] == {
        "slug": ["v názvu není písmeno ani číslice, z nichž by šel udělat slug; zadejte ho"]
    }
    ukrainian = "у назві немає літер чи цифр для slug; вкажіть його"
    assert bodies["uk"]["errors"] == {"slug": [ukrainian]}
    assert bodies["cs"]["code"] == bodies["en"]["code"] == "slug-needed"
    assert machine_parts(bodies["cs"]) == machine_parts(bodies["en"])


def test_a_member_without_the_role_is_told_in_their_language(setup: ClubSetup) -> None:
    client = client_for(setup.scorekeeper)
    bodies = {
        language: assert_problem(
            client.patch(f"/api/clubs/{setup.club.pk}/", {"name": "Valley Whist"}, **headers),
            403,
        )
        for language, headers in LANGUAGES.items()
    }

    assert bodies["en"]["detail"] == "this needs the organiser role in the club"
    assert bodies["cs"]["detail"] == "k tomu je potřeba role organizátora v klubu"
    assert bodies["uk"]["detail"] == "для цього потрібна роль організатора в клубі"
    assert machine_parts(bodies["uk"]) == machine_parts(bodies["en"])


def test_a_query_parameter_refused_names_the_parameter_in_every_language() -> None:
    client = client_for()
    bodies = {
        language: assert_problem(client.get("/api/players/", {"cursor": "a"}, **headers), 400)
        for language, headers in LANGUAGES.items()
    }

    assert bodies["en"]["detail"] == (
        "cursor: not a cursor of this list: follow the next and previous links as they are"
    )
    assert bodies["cs"]["detail"] == (
        "cursor: to není kurzor tohoto seznamu: použijte odkazy next a previous tak, jak jsou"
    )
    assert machine_parts(bodies["cs"]) == machine_parts(bodies["en"])


def test_django_rest_framework_s_own_messages_follow_the_language_too(
    user: AbstractUser,
) -> None:
    """A required field missing: DRF's words, from its own catalogues."""
    client = client_for(user)
    english = assert_problem(client.post("/api/clubs/", {}), 400)
    czech = assert_problem(client.post("/api/clubs/", {}, HTTP_ACCEPT_LANGUAGE="cs"), 400)

    assert english["errors"]["name"] == ["This field is required."]
    assert czech["errors"]["name"] == ["Toto pole je vyžadováno."]
    assert machine_parts(czech) == machine_parts(english)


def test_a_correction_without_if_match_is_refused_in_the_client_s_language() -> None:
    """A 428 of the API's own (its default detail), then a malformed If-Match."""
    setup = club_setup()
    hand_submit(table=setup.table, record=bluke_results(13))
    client = client_for(setup.scorekeeper)
    url = f"/api/tables/{setup.table.pk}/hands/0/"
    body = {"record": bluke_results(13, 1)}

    english = assert_problem(client.put(url, body), 428)
    czech = assert_problem(client.put(url, body, HTTP_ACCEPT_LANGUAGE="cs"), 428)
    ukrainian = assert_problem(
        client.put(url, body, HTTP_ACCEPT_LANGUAGE="uk", HTTP_IF_MATCH="nonsense"), 400
    )

    assert english["detail"] == "Send If-Match with the table's ETag from its score sheet."
    assert czech["detail"] == "Pošlete If-Match s ETagem stolu z jeho listu výsledků."
    assert machine_parts(czech) == machine_parts(english)
    assert ukrainian["errors"] == {
        "If-Match": [
            'це не ETag цього API: надішліть ETag аркуша результатів, наприклад "table-3-v12"'
        ]
    }
