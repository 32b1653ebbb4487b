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
      per hand, and the same with ``-j`` the machine's cores (the parallel check);
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
[--keep DIR] [--profile]``. ``--profile`` also runs ``python -m games check`` under cProfile and
prints the 15 most expensive functions by own time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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


def timed(command: Sequence[str], expected_lines: int) -> float:
    """Wall-clock seconds of one run of ``command``, which must exit 0 with one line a hand."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    lines = done.stdout.count("\n")
    if lines != expected_lines:
        raise SystemExit(f"{' '.join(command)} answered {lines} lines, not {expected_lines}")
    return elapsed


def profile(path: Path, out: Path) -> None:
    """Run ``python -m games check`` under cProfile and print its 15 costliest functions."""
    import pstats

    stats_file = out / "check.prof"
    command = [sys.executable, "-m", "cProfile", "-o", str(stats_file)]
    subprocess.run(
        [*command, "-m", "games", "check", str(path)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        check=True,
    )
    print("\nprofile of python -m games check (top 15 by tottime):")
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
    ours = [sys.executable, "-m", "games", "check", "-j", "1", str(path)]
    ours_all = [sys.executable, "-m", "games", "check", "-j", str(cores), str(path)]
    theirs = [sys.executable, str(Path(__file__).resolve()), "--replay-openspiel", str(path)]
    baseline = min(timed([sys.executable, "-c", "print()"], 1) for _ in range(repeat))
    ours_times, ours_all_times, theirs_times = [], [], []
    for _ in range(repeat):
        ours_times.append(timed(ours, hands))
        ours_all_times.append(timed(ours_all, hands))
        theirs_times.append(timed(theirs, hands))
    best_ours, best_all, best_theirs = min(ours_times), min(ours_all_times), min(theirs_times)

    print(f"python start-up alone: {baseline:.3f} s; best of {repeat} runs each:")
    print(f"  {'':36} {'seconds':>8} {'hands/s':>9}   all runs")
    for name, best, times in (
        ("python -m games check -j 1", best_ours, ours_times),
        (f"python -m games check -j {cores} (all cores)", best_all, ours_all_times),
        ("OpenSpiel oh_hell replay (one core)", best_theirs, theirs_times),
    ):
        runs = " ".join(f"{t:.2f}" for t in times)
        print(f"  {name:36} {best:8.2f} {hands / best:9.0f}   {runs}")
    for label, best in (("one core", best_ours), (f"{cores} cores", best_all)):
        ratio = best / best_theirs
        verdict = "meets" if ratio <= 0.5 else "misses"
        print(f"ratio ours/OpenSpiel, {label}: {ratio:.2f} ({verdict} the target of 0.5)")
    if with_profile:
        profile(path, out)


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
