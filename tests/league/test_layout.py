"""The structure the code keeps: what may import what, and the small pure
helpers of the API's view sets."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import pytest

from league.api.viewsets import club_id_along

LEAGUE = Path(__file__).resolve().parents[2] / "league"


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth of the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize(
    ("module", "never"),
    [
        ("tasks.py", "league.services"),  # the tasks wrap the jobs, never a service
        ("errors.py", "league"),  # errors carry data and depend on nothing
        ("errors.py", "rest_framework"),
        *(  # reads never write
            (f"selectors/{path.name}", "league.services")
            for path in sorted((LEAGUE / "selectors").glob("*.py"))
        ),
        ("access.py", "rest_framework"),  # the API and the pages share it
    ],
)
def test_a_module_does_not_import_what_would_tangle_it(module: str, never: str) -> None:
    imports = imported_modules(LEAGUE / module)
    assert not {name for name in imports if name == never or name.startswith(f"{never}.")}


@pytest.mark.parametrize("package", [LEAGUE.parent / "games", LEAGUE / "seating"])
def test_the_pure_algorithms_import_no_django(package: Path) -> None:
    """The rules engine and the seating generator run without a database."""
    paths = list(package.glob("*.py"))
    assert paths
    for path in paths:
        assert not any(name.startswith("django") for name in imported_modules(path)), path


def test_the_club_is_found_along_foreign_keys_from_an_object_or_an_input() -> None:
    league = SimpleNamespace(club_id=7)
    table = SimpleNamespace(round=SimpleNamespace(event=SimpleNamespace(league=league)))
    assert club_id_along(table, "round.event.league.club") == 7
    assert club_id_along({"round": table.round}, "round.event.league.club") == 7
    assert club_id_along(SimpleNamespace(club_id=3), "club") == 3
    assert club_id_along({"club": SimpleNamespace(pk=3)}, "club") == 3
