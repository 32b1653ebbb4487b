"""``python -m league.seating plan``: plan a night's seating without a database.

Players are numbered from 0. The plan is written to standard output as one JSON
object: ``{"rounds": [{"tables": [[...], ...], "first_dealers": [...], "sit_out":
[...]}, ...], "repeats": K, "seed": S}``, each table in seat order, ``first_dealers``
the seat index of each table's first dealer, ``repeats`` the meetings of pairs who had
met before that night. Exit status: 0 with a plan, 2 for bad arguments or a request no
seating meets (one line on standard error).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO, TypedDict

from league.seating.errors import SeatingError
from league.seating.model import Method, Search
from league.seating.planner import plan_night
from league.seating.policy import GAMES, TablePolicy

EXIT_OK, EXIT_USAGE = 0, 2
PROG = "python -m league.seating"


class _Usage(Exception):
    """Bad arguments: the message for the one line on standard error."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Usage(message)


def parse_absent(values: Sequence[str], rounds: int) -> dict[int, list[int]]:
    """``--absent`` values to {round (0-based): players}: ``2:3,7`` is round 2 (counted
    from 1) without players 3 and 7; ``3,7`` is every round without them."""
    absent: dict[int, list[int]] = {}
    for value in values:
        where, _, who = value.rpartition(":")
        try:
            players = [int(p) for p in who.split(",")]
            targets = [int(where) - 1] if where else list(range(rounds))
        except ValueError:
            raise _Usage(f"--absent {value!r}: expected ROUND:P,P or P,P (numbers)") from None
        for r in targets:
            if not 0 <= r < rounds:
                raise _Usage(f"--absent {value!r}: round {r + 1} is not in 1..{rounds}")
            absent.setdefault(r, []).extend(p for p in players if p not in absent.get(r, []))
    return absent


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        answer = _plan(argv)
    except _Usage as error:
        print(f"{PROG}: error: {error}", file=stderr)
        return EXIT_USAGE
    except SeatingError as error:
        print(f"{PROG}: cannot plan ({error.code}): {error.message}", file=stderr)
        return EXIT_USAGE
    stdout.write(json.dumps(answer) + "\n")
    stdout.flush()
    return EXIT_OK


class RoundAnswer(TypedDict):
    """A round planned: the players of each table, each table's first
    dealer, and who sits out."""

    tables: list[list[int]]
    first_dealers: list[int]
    sit_out: list[int]


class PlanAnswer(TypedDict):
    """What ``plan`` writes: the rounds, the repeated pairings, the seed."""

    rounds: list[RoundAnswer]
    repeats: int
    seed: int


def _plan(argv: Sequence[str] | None) -> PlanAnswer:
    parser = _Parser(prog=PROG, description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    plan = commands.add_parser("plan", help="plan the rounds of a night")
    plan.add_argument("--players", type=int, required=True, help="how many (numbered from 0)")
    plan.add_argument("--rounds", type=int, default=1, help="rounds in the night (default 1)")
    plan.add_argument("--game", choices=GAMES, default="bluke", help="default bluke")
    plan.add_argument(
        "--table-size", type=int, default=4, help="preferred Bluke table size, 3..6 (default 4)"
    )
    plan.add_argument(
        "--larger",
        action="store_true",
        help="Bluke: spread the remainder as tables of one more, not one fewer",
    )
    plan.add_argument(
        "--method",
        choices=[m.value for m in Method],
        default="balanced",
        help="default balanced; swiss and rating rank the players by number, 0 first",
    )
    plan.add_argument("--seed", type=int, default=0, help="default 0")
    plan.add_argument(
        "--absent",
        action="append",
        default=[],
        metavar="[ROUND:]P,P",
        help="players missing: '2:3,7' = round 2 (rounds counted from 1) without players "
        "3 and 7; '3,7' = every round without them; repeatable",
    )
    plan.add_argument(
        "--iterations", type=int, default=None, help="search swaps per run (default: scaled)"
    )
    args = parser.parse_args(argv)
    if args.players < 0 or args.rounds < 1:
        raise _Usage("--players must be 0 or more and --rounds 1 or more")
    if args.iterations is not None and args.iterations < 0:
        raise _Usage("--iterations must be 0 or more")
    absent = parse_absent(args.absent, args.rounds)
    policy = TablePolicy(
        args.game, size=args.table_size, spill="larger" if args.larger else "smaller"
    )
    players = list(range(args.players))
    result = plan_night(
        players,
        policy,
        rounds=args.rounds,
        method=args.method,
        seed=args.seed,
        absent=absent,
        ranking=players,
        search=Search(iterations=args.iterations),
    )
    return {
        "rounds": [
            {
                "tables": [list(t.players) for t in seating.tables],
                "first_dealers": [t.first_dealer for t in seating.tables],
                "sit_out": list(seating.sit_out),
            }
            for seating in result.rounds
        ],
        "repeats": result.repeat_count,
        "seed": args.seed,
    }
