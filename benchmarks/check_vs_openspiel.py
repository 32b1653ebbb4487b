"""How fast ``python -m games check`` checks Bluke move logs, next to OpenSpiel replaying them.

Why: the league checks every submitted hand card by card, and the engine is pure Python. As a
yardstick we use OpenSpiel, a C++ engine with Python bindings, replaying the same hands with a
legality check on every action. The target is ours/OpenSpiel <= 0.5: the whole ``check``
command, start to finish, in at most half the time.

What runs:

1. Generate ``--hands`` legal Bluke hands (seeded) with our state API and a random bot: half for
   3 players, half for 4, hand sizes within OpenSpiel's ``oh_hell`` limits (3 players: 1..13;
   4 players: 1..12, as 13 would leave no card to turn up), the two Blukes left out of the deal
   and the turn-up (``oh_hell`` has none), every bid at least 1 (``oh_hell`` allows 0, Bluke does
   not), and the dealer never bidding so that the bids add up to the cards (``oh_hell`` forbids
   it). They are written as JSON Lines, one move log per line, to a temporary directory.
2. Time, as whole processes and side by side in one run (best wall-clock time of ``--repeat``
   runs, the two alternating):

   a. ``python -m games check -j 1 FILE`` (one core), which must exit 0 with one answer line
      per hand, and the same with ``-j`` the machine's cores (the parallel check); each on the
      engine's two builds: the pure one (a copy of ``games/*.py`` in the scratch directory,
      which is where it runs) and the compiled one (the repository's, after ``make``, or
      ``make engine-compiled``; left out, with a note, when the repository has no compiled
      build);
   b. this script with ``--replay-openspiel FILE``: it reads the same file, and turns each record
      into ``oh_hell`` actions (chance: number of tricks, dealer, the deal one card at a time in
      OpenSpiel's order, card k to player k % n, then the trump card; then the bids from the
      dealer's left as 52 + bid, then the plays), applying each with
      ``state.apply_action_with_legality_check``. The OpenSpiel side needs nothing else: it names
      the cards from OpenSpiel's own ``action_to_string``.

How the comparison is kept fair:

- Both processes are started the same way (this interpreter, ``sys.executable``), timed from
  start to exit, so both pay for interpreter start-up and imports; a bare start-up is timed
  too and printed for reference. The OpenSpiel side imports only ``json``, ``sys`` and
  ``pyspiel``: nothing of ours.
- Both read the same file and parse every line with ``json.loads``.
- Both check every action against the rules and write one JSON answer line per record to
  standard output (ours: tricks, points and trick winners; OpenSpiel's: the returns), which the
  benchmark reads through a pipe and counts.
- Ours does more per record (field and deal checks, scoring); neither keeps anything between
  records.

Usage: ``python benchmarks/check_vs_openspiel.py [--hands N] [--repeat R] [--seed S]
[--keep DIR] [--profile]``. ``--profile`` also runs ``python -m games check -j 1`` on the pure
build under cProfile (which cannot see into compiled functions) and prints the 15 most expensive
functions by own time: the profile that chose the modules mypyc compiles (``games/native.py``).
Every time is also printed as a ratio to OpenSpiel's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
MAX_TRICKS = {3: 13, 4: 12}
"""The largest hand ``oh_hell`` allows that Bluke also allows, by players."""
DECK = 52
"""``oh_hell``'s card actions are 0..51; a bid b is action 52 + b."""


# -- generating the hands -----------------------------------------------------------------------


def generate(hands: int, seed: int) -> list[dict[str, Any]]:
    """``hands`` legal Bluke move logs without Blukes, played by a random bot through our API.

    ``games`` is imported here, not at the top, so that the OpenSpiel replay (which runs this
    file too) does not load our engine."""
    from games import ALL_CARDS, Bluke

    rng = random.Random(seed)
    pack = [c for c in ALL_CARDS if not c.is_bluke]
    rules = {n: Bluke(n) for n in MAX_TRICKS}
    records = []
    for number in range(hands):
        players = 3 if number < hands // 2 else 4
        size = rng.randint(1, MAX_TRICKS[players])
        dealer = rng.randrange(players)
        rng.shuffle(pack)
        deal = [pack[seat * size : (seat + 1) * size] for seat in range(players)]
        turn_up = pack[players * size]
        hand = rules[players].new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
        bids = [0] * players
        for k in range(players):
            seat = (dealer + 1 + k) % players
            choices = range(1, size + 1)
            if k == players - 1:  # oh_hell's dealer may not make the bids add up to the cards
                choices = [b for b in choices if sum(bids) + b != size]
            bids[seat] = rng.choice(choices)
            hand.apply_action(bids[seat])
        plays = []
        while not hand.is_terminal():
            chosen = rng.choice(hand.legal_actions())
            hand.apply_action(chosen)
            plays.append(chosen.code)
        records.append(
            {
                "game": "bluke",
                "dealer": dealer,
                "deal": [[c.code for c in seat_cards] for seat_cards in deal],
                "turn_up": turn_up.code,
                "bids": bids,
                "plays": plays,
            }
        )
    return records


# -- the OpenSpiel side (a process of its own) ----------------------------------------------------


def replay_openspiel(path: str) -> int:
    """Replay every record of the JSON Lines file in ``oh_hell``, each action legality-checked;
    write one answer line per record. Runs in its own process (``--replay-openspiel``)."""
    import pyspiel

    games = {n: pyspiel.load_game("oh_hell", {"players": n}) for n in MAX_TRICKS}
    naming = games[3].new_initial_state()
    naming.apply_action(1)  # one trick
    naming.apply_action(0)  # dealer 0: now in the deal, where actions read as cards ("H9")
    action_of = {}
    for action in range(DECK):
        name = naming.action_to_string(pyspiel.PlayerId.CHANCE, action)
        action_of[name[1] + name[0]] = action
    answers = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            deal = record["deal"]
            players, size, dealer = len(deal), len(deal[0]), record["dealer"]
            state = games[players].new_initial_state()
            apply = state.apply_action_with_legality_check
            apply(size)
            apply(dealer)
            for k in range(players * size):
                apply(action_of[deal[k % players][k // players]])
            apply(action_of[record["turn_up"]])
            bids = record["bids"]
            for k in range(players):
                apply(DECK + bids[(dealer + 1 + k) % players])
            for code in record["plays"]:
                apply(action_of[code])
            if not state.is_terminal():
                print(f"record {len(answers)} is not a finished hand", file=sys.stderr)
                return 1
            answers.append(json.dumps({"ok": True, "returns": state.returns()}))
    sys.stdout.write("\n".join(answers) + "\n")
    return 0


# -- timing ---------------------------------------------------------------------------------------


def timed(command: Sequence[str], expected_lines: int, cwd: Path = REPO) -> float:
    """Wall-clock seconds of one run of ``command``, which must exit 0 with one line a hand."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    lines = done.stdout.count("\n")
    if lines != expected_lines:
        raise SystemExit(f"{' '.join(command)} answered {lines} lines, not {expected_lines}")
    return elapsed


def pure_copy(out: Path) -> Path:
    """A directory holding a copy of the engine's sources only, no compiled
    modules: ``python -m games`` run there (the current directory comes first
    on the import path) is the pure build, whichever build the repository has."""
    root = out / "pure"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(
        REPO / "games", root / "games", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    return root


def compiled_in_repo() -> bool:
    """Whether the repository's engine is the compiled build (``make engine-compiled``)."""
    done = subprocess.run(
        [sys.executable, "-c", "import games; print(games.compiled())"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip() == "True"


def profile(path: Path, out: Path, pure: Path) -> None:
    """Run ``python -m games check -j 1`` on the pure build under cProfile and
    print its 15 costliest functions (cProfile sees into Python functions only,
    so it profiles the pure build: the functions mypyc compiles)."""
    import pstats

    stats_file = out / "check.prof"
    command = [sys.executable, "-m", "cProfile", "-o", str(stats_file)]
    subprocess.run(
        [*command, "-m", "games", "check", "-j", "1", str(path)],
        cwd=pure,
        stdout=subprocess.DEVNULL,
        check=True,
    )
    print("\nprofile of python -m games check -j 1, pure build (top 15 by tottime):")
    pstats.Stats(str(stats_file), stream=sys.stdout).sort_stats("tottime").print_stats(15)


def run(hands: int, repeat: int, seed: int, out: Path, *, with_profile: bool) -> None:
    started = time.perf_counter()
    records = generate(hands, seed)
    path = out / "bluke_hands.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    plays = sum(len(r["plays"]) for r in records)
    three = sum(1 for r in records if len(r["deal"]) == 3)
    print(
        f"hands: {hands} ({three} of 3 players, {hands - three} of 4), {plays} plays, "
        f"file {path.stat().st_size / 1e6:.1f} MB (generated in "
        f"{time.perf_counter() - started:.1f} s)"
    )

    cores = os.cpu_count() or 1
    pure = pure_copy(out)
    builds = [("pure", pure)]
    if compiled_in_repo():
        builds.append(("compiled", REPO))
    else:
        print("the compiled build is not built (make engine-compiled): timing the pure one only")
    ours = {
        (build, jobs): ([sys.executable, "-m", "games", "check", "-j", str(jobs), str(path)], cwd)
        for build, cwd in builds
        for jobs in sorted({1, cores})
    }
    theirs = [sys.executable, str(Path(__file__).resolve()), "--replay-openspiel", str(path)]
    baseline = min(timed([sys.executable, "-c", "print()"], 1) for _ in range(repeat))
    times: dict[tuple[str, int] | None, list[float]] = {key: [] for key in [*ours, None]}
    for _ in range(repeat):  # the runs alternate, so that a noisy moment spreads over all
        for run_key, (command, cwd) in ours.items():
            times[run_key].append(timed(command, hands, cwd))
        times[None].append(timed(theirs, hands))
    best = {key: min(runs) for key, runs in times.items()}

    print(f"python start-up alone: {baseline:.3f} s; best of {repeat} runs each:")
    print(f"  {'':44} {'seconds':>8} {'hands/s':>9} {'ratio':>6}   all runs")
    for row, runs in times.items():
        if row is None:
            name = "OpenSpiel oh_hell replay (one core)"
        else:
            cores_named = "one core" if row[1] == 1 else f"{row[1]} cores"
            name = f"{row[0]}: games check -j {row[1]} ({cores_named})"
        ratio = best[row] / best[None]
        shown = " ".join(f"{t:.2f}" for t in runs)
        print(f"  {name:44} {best[row]:8.2f} {hands / best[row]:9.0f} {ratio:6.2f}   {shown}")
    print("ratio: ours / OpenSpiel's time (the target is 0.5 or less on one core)")
    for build, jobs in ours:
        ratio = best[build, jobs] / best[None]
        verdict = "meets" if ratio <= 0.5 else "misses"
        print(f"  {build}, -j {jobs}: {ratio:.2f} ({verdict} the target)")
    if with_profile:
        profile(path, out, pure)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands to generate (20,000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, best counts (3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generated hands (1)")
    parser.add_argument("--keep", metavar="DIR", help="write the files here and keep them")
    parser.add_argument("--profile", action="store_true", help="also profile games check")
    parser.add_argument("--replay-openspiel", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.replay_openspiel:
        return replay_openspiel(args.replay_openspiel)
    if args.hands < 2 or args.repeat < 1:
        parser.error("--hands must be at least 2 and --repeat at least 1")
    if args.keep:
        out = Path(args.keep)
        out.mkdir(parents=True, exist_ok=True)
        run(args.hands, args.repeat, args.seed, out, with_profile=args.profile)
    else:
        with tempfile.TemporaryDirectory(prefix="check_vs_openspiel.") as scratch:
            run(args.hands, args.repeat, args.seed, Path(scratch), with_profile=args.profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
