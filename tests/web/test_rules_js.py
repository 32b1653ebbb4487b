"""The browser's restatement of the scoring rules (league/static/league/rules.js)
gives the rules engine's answers: every Bluke bid and tricks, and the points and
the end of whole Buck Euchre games played by the bot, results as a table types
them. Run with Node.js (the machine's ``node``; skipped without it, except in CI)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import games
from games.bluke import hand_points
from games.bots import bot_game

RULES = Path(__file__).resolve().parents[2] / "league" / "static" / "league" / "rules.js"
NODE = shutil.which("node")


def node(program: str, data: Any) -> Any:
    if NODE is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Node.js is missing: the machine's node runs the browser's rules")
        pytest.skip("needs Node.js")
    script = f"{RULES.read_text()}\nconst data = {json.dumps(data)};\n{program}"
    done = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_every_bluke_bid_and_tricks_scores_as_the_engine() -> None:
    pairs = [(bid, tricks) for bid in range(1, 14) for tricks in range(14)]
    got = node(
        "console.log(JSON.stringify(data.map(([b, t]) => LeagueRules.blukePoints(b, t))))", pairs
    )
    assert got == [hand_points(bid, tricks) for bid, tricks in pairs]


def test_buck_euchre_games_score_and_end_as_the_engine() -> None:
    rules = games.rules_for("buck_euchre", 4, {})
    cases = []
    for seed in range(40):
        tally = games.GameTally(rules, first_dealer=seed % 4)
        for log in bot_game(rules, first_dealer=seed % 4, seed=seed):
            result = tally.add(log)
            record = {
                "maker": result.maker,
                "drops": sorted(result.drops),
                "tricks": list(result.tricks),
            }
            cases.append(
                {
                    "record": record,
                    "totals": list(tally.totals),
                    "points": list(result.points),
                    "winner": tally.winner if tally.complete else None,
                }
            )
    got = node(
        """console.log(JSON.stringify(data.map((c) => [
            LeagueRules.handPoints("buck_euchre", c.record),
            LeagueRules.buckWinner(c.totals, c.record.tricks, c.record.drops),
        ])))""",
        cases,
    )
    assert [pair[0] for pair in got] == [case["points"] for case in cases]
    assert [pair[1] for pair in got] == [case["winner"] for case in cases]
    assert any(case["winner"] is not None for case in cases)
    assert any(case["record"]["drops"] for case in cases)


def test_the_starting_totals_are_the_engines() -> None:
    got = node(
        'console.log(JSON.stringify([LeagueRules.startTotals("bluke", 5), '
        'LeagueRules.startTotals("buck_euchre", 4)]))',
        None,
    )
    bluke = games.GameTally(games.rules_for("bluke", 5, {}), first_dealer=0).totals
    buck = games.GameTally(games.rules_for("buck_euchre", 4, {}), first_dealer=0).totals
    assert got == [bluke, buck]
