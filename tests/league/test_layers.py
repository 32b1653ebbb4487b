"""docs/architecture.md says what the import contracts enforce: its list of the
layers of ``league/`` and its table's "may import" column are made from the
contracts of pyproject.toml (``lint-imports`` checks the code against them), and
every module of a layer has its row in the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import layers

PYPROJECT = """
[[tool.importlinter.contracts]]
id = "league-layers"
type = "layers"
layers = ["web | api", "services", "models : names", "(absent)", "errors"]

[[tool.importlinter.contracts]]
id = "no-writes"
type = "forbidden"
source_modules = ["league.api"]
forbidden_modules = ["league.services", "league.models"]

[[tool.importlinter.contracts]]
id = "pure"
type = "forbidden"
source_modules = ["games", "league.errors"]
forbidden_modules = ["django", "celery"]
"""

DOC = f"""# Layout

{layers.BEGIN}
{layers.END}

| module | holds | may import |
|---|---|---|
| `web/` | the pages | ? |
| `api/` | the API | ? |
| `services/` | the writes | ? |
| `models.py`, `names.py` | the tables | ? |
| `errors.py` | the errors | ? |

## After
"""


def test_the_architecture_doc_shows_the_import_contracts() -> None:
    doc = layers.DOC.read_text()
    made = layers.render(doc, layers.PYPROJECT.read_text())
    assert made == doc, "docs/architecture.md disagrees with pyproject.toml: python -m tools.layers"


def test_the_doc_is_made_from_the_layers_below_each_module() -> None:
    made = layers.render(DOC, PYPROJECT, Path("no-such-package"))
    assert (
        made
        == f"""# Layout

{layers.BEGIN}
1. `web`, `api`
2. `services`
3. `models` : `names`
4. `errors` (pure Python: nothing of Django or Celery)
{layers.END}

| module | holds | may import |
|---|---|---|
| `web/` | the pages | `services` and the layers below |
| `api/` | the API | `services` and the layers below; never `services` or `models` |
| `services/` | the writes | `models`, `names` and the layers below |
| `models.py`, `names.py` | the tables | the others of its layer; `errors` |
| `errors.py` | the errors | nothing of `league`; nothing of Django or Celery |

## After
"""
    )
    assert layers.render(made, PYPROJECT, Path("no-such-package")) == made


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ("| `outbox.py` | work owed | ? |", "no layer holds outbox"),
        ("| `services/`, `errors.py` | both | ? |", "different layers"),
        ("| `web/`, `api/` | the ways in | ? |", "held by different contracts"),
    ],
)
def test_a_row_the_contracts_do_not_place_is_refused(row: str, said: str) -> None:
    last = "| `errors.py` | the errors | ? |"
    doc = DOC.replace(last, f"{last}\n{row}")
    with pytest.raises(layers.DocError, match=said):
        layers.render(doc, PYPROJECT, Path("no-such-package"))


def test_a_module_of_a_layer_without_a_row_is_refused() -> None:
    doc = DOC.replace("| `services/` | the writes | ? |\n", "")
    with pytest.raises(layers.DocError, match="no row for services"):
        layers.render(doc, PYPROJECT, Path("no-such-package"))
