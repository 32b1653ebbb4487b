"""The structure the code keeps: what may import what, and the small pure
helpers of the API's view sets."""

from __future__ import annotations

import ast
import subprocess
import sys
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


@pytest.mark.parametrize(
    "package", [LEAGUE.parent / "games", LEAGUE / "seating", LEAGUE / "import_files"]
)
def test_the_pure_algorithms_import_no_django(package: Path) -> None:
    """The rules engine, the seating generator and the reading of import files run
    without a database."""
    paths = list(package.glob("*.py"))
    assert paths
    for path in paths:
        assert not any(name.startswith("django") for name in imported_modules(path)), path


IMPORT_FILES_MAY_IMPORT = ("league.import_files", "league.names", "league.csv_format")
"""All of the league that the reading of import files imports: itself, players'
names and what the CSV files and their import agree on (all pure Python)."""


def test_the_reading_of_import_files_imports_no_model_and_no_service() -> None:
    """``league/import_files`` reads a file as a file: matching it against what the
    league has is ``league.services.import_matching``'s."""
    paths = [*(LEAGUE / "import_files").glob("*.py"), LEAGUE / "csv_format.py"]
    for path in paths:
        for name in imported_modules(path):
            assert not name.startswith("django"), (path, name)
            if name == "league" or name.startswith("league."):
                assert name.startswith(IMPORT_FILES_MAY_IMPORT), (path, name)


def test_the_reading_of_import_files_loads_no_django_at_all() -> None:
    """Nor through what it imports: in a fresh interpreter, importing every module
    of the package loads no module of Django."""
    modules = sorted(path.stem for path in (LEAGUE / "import_files").glob("*.py"))
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(f'league.import_files.{name}'.removesuffix('.__init__'))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=LEAGUE.parent, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"


def test_the_club_is_found_along_foreign_keys_from_an_object_or_an_input() -> None:
    league = SimpleNamespace(club_id=7)
    table = SimpleNamespace(round=SimpleNamespace(event=SimpleNamespace(league=league)))
    assert club_id_along(table, "round.event.league.club") == 7
    assert club_id_along({"round": table.round}, "round.event.league.club") == 7
    assert club_id_along(SimpleNamespace(club_id=3), "club") == 3
    assert club_id_along({"club": SimpleNamespace(pk=3)}, "club") == 3
