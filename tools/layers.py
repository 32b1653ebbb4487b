"""docs/architecture.md's layers of ``league/`` and its table's "may import" column,
made from the import contracts of pyproject.toml (``[tool.importlinter]``, which
``lint-imports`` checks in ``make lint``), so that the doc says what the tool enforces.

    python -m tools.layers           # write them into the doc
    python -m tools.layers --check   # exit 1 when the doc says otherwise

tests/league/test_layers.py runs the check with the tests.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
PYPROJECT: Final = ROOT / "pyproject.toml"
DOC: Final = ROOT / "docs" / "architecture.md"
PACKAGE: Final = "league"
PACKAGE_DIR: Final = ROOT / PACKAGE

LAYERS_CONTRACT: Final = "league-layers"
"""The id of the layers contract of ``league/``."""
PURE_CONTRACT: Final = "pure"
"""The id of the contract that holds the pure modules apart from the frameworks."""

BEGIN: Final = "<!-- layers: made by `python -m tools.layers` from pyproject.toml -->"
END: Final = "<!-- end of layers -->"
TABLE_HEADER: Final = "| module | holds | may import |"
FRAMEWORKS: Final = {"django": "Django", "rest_framework": "DRF", "celery": "Celery"}
"""How the doc names the packages the pure modules may not import."""


class DocError(ValueError):
    """The doc cannot be made to agree with the contracts by this script: a row
    names a module no layer holds, or a module of a layer has no row."""


@dataclass(frozen=True)
class Layer:
    modules: tuple[str, ...]
    """Its modules there are (an optional module that is absent left out), in the
    contract's order."""
    independent: bool
    """Whether its modules may not import each other (``a | b``; ``a : b`` may)."""


def contracts(pyproject: str) -> dict[str, dict[str, Any]]:
    """The import contracts of a pyproject.toml's text, by id."""
    config = tomllib.loads(pyproject)["tool"]["importlinter"]
    return {contract["id"]: contract for contract in config["contracts"]}


def layers(contract: dict[str, Any], package_dir: Path) -> list[Layer]:
    """The layers of a layers contract, from the top."""
    found = []
    for raw in contract["layers"]:
        names = []
        for part in re.split(r"[|:]", raw):
            name = part.strip()
            if name.startswith("(") and name.endswith(")"):
                name = name[1:-1]
                if not _exists(package_dir, name):
                    continue
            names.append(name)
        if names:  # a layer of absent modules alone is no layer yet
            found.append(Layer(modules=tuple(names), independent=":" not in raw))
    return found


def _exists(package_dir: Path, name: str) -> bool:
    path = package_dir.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or path.is_dir()


def pure(contract: dict[str, Any]) -> tuple[set[str], str]:
    """The modules of ``league`` a forbidden contract holds apart, and what it
    forbids them, in words."""
    prefix = f"{PACKAGE}."
    modules = {
        name.removeprefix(prefix)
        for name in contract["source_modules"]
        if name.startswith(prefix) and "*" not in name
    }
    names = [FRAMEWORKS.get(name, f"`{name}`") for name in contract["forbidden_modules"]]
    return modules, f"nothing of {_either(names)}"


def _code(names: Sequence[str]) -> str:
    return ", ".join(f"`{name}`" for name in names)


def _either(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]


def denied(by_id: dict[str, dict[str, Any]]) -> dict[str, tuple[str, ...]]:
    """What the forbidden contracts deny each module of ``league`` (by its name in
    the package), in words: "never `services`", "nothing of Django or Celery"."""
    prefix = f"{PACKAGE}."
    found: dict[str, list[str]] = {}
    for contract in by_id.values():
        if contract["type"] != "forbidden":
            continue
        forbidden = contract["forbidden_modules"]
        inner = [name.removeprefix(prefix) for name in forbidden if name.startswith(prefix)]
        outer = [
            FRAMEWORKS.get(name, f"`{name}`") for name in forbidden if not name.startswith(prefix)
        ]
        words = []
        if inner:
            words.append("never " + _either([f"`{name}`" for name in inner]))
        if outer:
            words.append("nothing of " + _either(outer))
        for name in contract["source_modules"]:
            if name.startswith(prefix) and "*" not in name:
                found.setdefault(name.removeprefix(prefix), []).extend(words)
    return {module: tuple(words) for module, words in found.items()}


def may_import(index: int, stack: Sequence[Layer], notes: Sequence[str] = ()) -> str:
    """The "may import" cell of modules of ``stack[index]`` that the forbidden
    contracts deny ``notes``."""
    layer, below = stack[index], stack[index + 1 :]
    said = []
    if not layer.independent and len(layer.modules) > 1:
        said.append("the others of its layer")
    if below:
        said.append(_code(below[0].modules) + (" and the layers below" if len(below) > 1 else ""))
    return "; ".join([*(said or [f"nothing of `{PACKAGE}`"]), *notes])


def layers_section(stack: Sequence[Layer], pure_modules: set[str], pure_words: str) -> str:
    """The numbered list of the layers, from the top."""
    lines = []
    for number, layer in enumerate(stack, start=1):
        joined = (", " if layer.independent else " : ").join(f"`{m}`" for m in layer.modules)
        if set(layer.modules) <= pure_modules:
            joined += f" (pure Python: {pure_words})"
        lines.append(f"{number}. {joined}")
    return "\n".join(lines)


def render(doc: str, pyproject: str, package_dir: Path = PACKAGE_DIR) -> str:
    """``doc`` with its layers and its table's last column as the contracts say."""
    by_id = contracts(pyproject)
    stack = layers(by_id[LAYERS_CONTRACT], package_dir)
    pure_modules, pure_words = pure(by_id[PURE_CONTRACT])
    notes = denied(by_id)
    where = {module: index for index, layer in enumerate(stack) for module in layer.modules}

    before, begin, rest = doc.partition(BEGIN + "\n")
    _, end, after = rest.partition(END)
    if not begin or not end:
        raise DocError(f"the doc has no {BEGIN!r} ... {END!r} section")
    doc = before + begin + layers_section(stack, pure_modules, pure_words) + "\n" + end + after

    lines = doc.split("\n")
    start = lines.index(TABLE_HEADER) + 2  # after the header and its rule
    rowed: set[str] = set()
    number = start
    while number < len(lines) and lines[number].startswith("| "):
        row = lines[number]
        first = row[2:].split(" | ", 1)[0]
        named = re.findall(r"`([^`]+)`", first)
        tails = {token.split("/")[0].removesuffix(".py") for token in named}
        unplaced = sorted(tails - where.keys())
        if unplaced:
            raise DocError(f"no layer holds {', '.join(unplaced)} (row: {first})")
        indexes = {where[tail] for tail in tails}
        if len(indexes) != 1:
            raise DocError(f"a row's modules are in different layers: {first}")
        denials = {notes.get(tail, ()) for tail in tails}
        if len(denials) != 1:
            raise DocError(f"a row's modules are held by different contracts: {first}")
        head = row.removesuffix(" |").rpartition(" | ")[0]
        cell = may_import(indexes.pop(), stack, denials.pop())
        lines[number] = f"{head} | {cell} |"
        rowed |= tails
        number += 1
    missing = sorted(where.keys() - rowed)
    if missing:
        raise DocError(f"the table has no row for {', '.join(missing)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 if the doc disagrees")
    args = parser.parse_args(argv)
    doc = DOC.read_text()
    made = render(doc, PYPROJECT.read_text())
    if args.check:
        if made != doc:
            print(f"{DOC.relative_to(ROOT)} disagrees with the import contracts:", file=sys.stderr)
            print("run python -m tools.layers", file=sys.stderr)
            return 1
        return 0
    if made != doc:
        DOC.write_text(made)
        print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
