"""The rating quality harness (benchmarks/rating_quality.py) on tiny leagues, and the
noisy bots it plays with: legal games, noise that costs, figures in range, repeatable."""

from __future__ import annotations

import math

import pytest

from benchmarks import rating_quality as rq
from games import check_record, rules_for
from games.bots import Noise, NoisyBot, bot_game, noisy_game, play_game

PLAYERS = 8
CHECKPOINTS = (3, 12)
"""Eight players to 12 games each: a few seconds for both games, and late enough
that pairs have the 10 games the inversions need."""


def _record(game: str, first_dealer: int, hands: list[dict[str, object]]) -> dict[str, object]:
    return {"game": game, "players": 4, "first_dealer": first_dealer, "hands": hands}


def _tiny(game: str, seating: str, mechanism: str) -> rq.Result:
    raters = rq.make_raters()
    return rq.run_config(
        game, seating, mechanism, [1, 2], raters, players=PLAYERS, checkpoints=CHECKPOINTS
    )


# -- the bots -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["bluke", "buck_euchre"])
@pytest.mark.parametrize("seed", range(4))
def test_a_noisy_bot_without_noise_plays_the_simple_bots_game(game: str, seed: int) -> None:
    rules = rules_for(game, 4, {})
    quiet = [Noise()] * 4
    assert noisy_game(rules, first_dealer=seed % 4, seed=seed, noise=quiet) == bot_game(
        rules, first_dealer=seed % 4, seed=seed
    )


MIXED = [Noise(), Noise(bid=0.5, card=0.5, drop=0.5), Noise(stay=1.0), Noise(1.0, 1.0, 1.0, 1.0)]


@pytest.mark.parametrize("game", ["bluke", "buck_euchre"])
@pytest.mark.parametrize("watchful", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_noisy_games_are_legal_complete_and_repeatable(
    game: str, watchful: bool, seed: int
) -> None:
    rules = rules_for(game, 4, {})
    hands = noisy_game(rules, first_dealer=1, seed=seed, noise=MIXED, watchful=watchful)
    answer = check_record(_record(game, 1, hands))
    assert answer["ok"] is True, answer
    assert answer["complete"] is True
    again = noisy_game(rules, first_dealer=1, seed=seed, noise=MIXED, watchful=watchful)
    assert again == hands
    assert hands != noisy_game(rules, first_dealer=1, seed=seed, noise=[Noise()] * 4)


def test_noise_is_a_probability_and_one_per_seat() -> None:
    with pytest.raises(ValueError, match="card is a probability"):
        Noise(card=1.5)
    with pytest.raises(ValueError, match="3 noises for 4 seats"):
        noisy_game(rules_for("bluke", 4, {}), first_dealer=0, seed=1, noise=[Noise()] * 3)


@pytest.mark.parametrize(
    ("game", "mechanism"),
    [("bluke", "bids"), ("bluke", "cards"), ("buck_euchre", "both"), ("buck_euchre", "cards")],
)
def test_the_strongest_bot_beats_the_weakest(game: str, mechanism: str) -> None:
    """Noise 0 against 0.9, with two players between, every seat in turn: the
    noiseless player wins more games and scores better."""
    levels = [0.0, 0.3, 0.6, 0.9]
    wins = dict.fromkeys(levels, 0)
    points = dict.fromkeys(levels, 0)
    for number in range(36):
        order = levels[number % 4 :] + levels[: number % 4]
        bot = NoisyBot(number, [rq.noise_of(mechanism, p) for p in order], watchful=True)
        _, tally = play_game(bot, rules_for(game, 4, {}), first_dealer=number % 4)
        ranks = tally.ranks()
        assert ranks is not None
        for p, total, place in zip(order, tally.totals, ranks, strict=True):
            wins[p] += place == 1
            points[p] += total
    assert wins[0.0] > wins[0.9]
    better = points[0.0] < points[0.9] if game == "buck_euchre" else points[0.0] > points[0.9]
    assert better, points


# -- the harness ----------------------------------------------------------------------------------


def test_kendall_tau_b_and_inversions_by_hand() -> None:
    assert rq.kendall_tau_b([1, 2, 3], [10, 20, 30]) == 1.0
    assert rq.kendall_tau_b([1, 2, 3], [30, 20, 10]) == -1.0
    # 6 pairs, one tied on x, 5 concordant: 5 / sqrt(5 * 6)
    assert rq.kendall_tau_b([1, 2, 2, 3], [1, 2, 3, 4]) == pytest.approx(5 / math.sqrt(30))
    assert rq.kendall_tau_b([1, 1, 1], [1, 2, 3]) == 0.0
    games = {0: 10, 1: 10, 2: 10, 3: 9}
    board = {0: 3.0, 1: 2.0, 2: 2.0, 3: 9.0}  # player 3 has too few games to count
    # pairs (0,1), (0,2) right; (1,2) tied on the board: half of one of three
    assert rq.inversions(board, [0.0, 0.5, 0.9, 0.95], games) == pytest.approx(0.5 / 3)
    assert rq.inversions(board, [0.0, 0.5, 0.9, 0.95], dict.fromkeys(board, 9)) is None


@pytest.mark.parametrize("seating", rq.SEATINGS)
def test_a_league_plays_to_its_checkpoints(seating: str) -> None:
    league = rq.make_league(
        "buck_euchre", seating, "improver", 3, players=PLAYERS, checkpoints=CHECKPOINTS
    )
    assert [c.target for c in league.checkpoints] == [3, 12]
    for checkpoint in league.checkpoints:
        seats = sum(len(g.players) for g in league.games[: checkpoint.games])
        before = seats - len(league.games[checkpoint.games - 1].players)
        assert before < 8 * checkpoint.target <= seats
    assert league.checkpoints[-1].games == len(league.games)
    # the two improvers fall from 0.9 with the season: a quarter of it gone at 3
    # games each of 12, all of it at the end
    assert sum(p == pytest.approx(0.7) for p in league.checkpoints[0].p) == 2
    assert sum(p == pytest.approx(0.1) for p in league.checkpoints[-1].p) == 2
    for game in league.games:
        assert len(game.players) == 4 and len(set(game.players)) == 4
        assert min(game.places) == 1
    nights: dict[int, set[int]] = {}
    for game in league.games:
        nights.setdefault(game.night, set()).update(game.players)
    most = max(len(players) for players in nights.values())
    assert most <= (8 - round(8 / 3) if seating == "absent" else 8)


@pytest.fixture(scope="module")
def tiny_results() -> list[rq.Result]:
    return [
        _tiny(game, seating, mechanism)
        for game, seating, mechanism in (
            ("bluke", "random", "both"),
            ("bluke", "standing", "cards"),
            ("buck_euchre", "absent", "never-drops"),
            ("buck_euchre", "standing", "improver"),
        )
    ]


def test_every_figure_is_in_range(tiny_results: list[rq.Result]) -> None:
    for result in tiny_results:
        assert len(result.figures) == 10
        uniform = result.figures["uniform guess"]
        assert [f.tau for f in uniform] == [0.0, 0.0]
        assert uniform[-1].inversions == 0.5  # every pair tied on the board
        for name, figures in result.figures.items():
            assert len(figures) == 2
            probabilistic = not name.startswith("average")
            for k, f in enumerate(figures):
                assert -1.0 <= f.tau <= 1.0
                assert 0.0 <= f.top1 <= 1.0
                assert (f.log_loss is not None) == probabilistic
                if f.log_loss is not None:
                    assert 0.0 < f.log_loss < 5.0
                if k == 0:
                    assert f.inversions is None  # nobody has 10 games after 3 each
            final = figures[-1].inversions
            assert final is not None and 0.0 <= final <= 1.0


def test_the_same_seeds_give_the_same_figures(tiny_results: list[rq.Result]) -> None:
    first = tiny_results[0]
    again = _tiny(first.game, first.seating, first.mechanism)
    assert again.figures == first.figures
    assert again.games == first.games


@pytest.mark.parametrize(("game", "mechanism"), [("bluke", "bids"), ("buck_euchre", "both")])
def test_every_rater_finds_a_huge_gap(game: str, mechanism: str) -> None:
    """From no noise to nothing but noise: every leaderboard but the uniform guess's
    leans the right way."""
    result = rq.run_config(
        game,
        "random",
        mechanism,
        [1, 2],
        rq.make_raters(),
        players=8,
        checkpoints=(12,),
        weakest=1.0,
    )
    taus = {name: figures[-1].tau for name, figures in result.figures.items()}
    assert taus.pop("uniform guess") == 0.0
    assert all(tau > 0.3 for tau in taus.values()), taus


def test_the_command_runs_tiny_and_filters_raters(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--tiny", "--games", "buck_euchre", "--seatings", "random", "--mechanisms", "bids"]
    variants = ["--variant", "beta=3,idle=0", "--variant", "board=mu,against=league"]
    assert rq.main([*argv, "--only", "points", "score", *variants]) == 0
    out = capsys.readouterr().out
    assert "buck_euchre / random / bids" in out
    assert "average points" in out and "score model [beta=3 idle=0]" in out
    assert "score model [against=league board=mu]" in out
    assert rq.parse_variant("cards=dealt").board == "excess"  # the league's board
    assert "PlackettLuce" not in out and "Elo" not in out
    assert "@6 games per player: tau-b >= the best baseline's in" in out
    with pytest.raises(SystemExit):
        rq.main(["--tiny", "--variant", "gamma=1"])
    with pytest.raises(SystemExit):
        rq.main(["--tiny", "--variant", "against=everyone"])


def test_the_extras_run_behind_their_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """``--extra rerun`` adds the score model re-run against the final league mean, in
    Bluke only; ``--extra ttt`` TrueSkill Through Time, when its package is installed.
    Neither is in the default run."""
    tiny = ["--tiny", "--seatings", "random", "--mechanisms", "bids"]
    argv = [*tiny, "--only", "points", "mean", "TTT"]
    assert rq.main([*argv, "--extra", "rerun"]) == 0
    out = capsys.readouterr().out
    bluke, buck = out.split("buck_euchre / random / bids")
    assert "score model [final mean]" in bluke and "score model [final mean, mu]" in bluke
    assert "final mean" not in buck.split("Means over")[0]
    assert "Summary: score model [final mean] (ours)" in out
    assert not any(r.name.startswith((rq.FINAL_MEAN, rq.TTT)) for r in rq.make_raters())
    with pytest.raises(SystemExit):
        rq.main([*argv, "--extra", "glicko"])
    pytest.importorskip("trueskillthroughtime")
    assert rq.main([*argv, "--games", "buck_euchre", "--extra", "ttt"]) == 0
    out = capsys.readouterr().out
    assert "TTT (mu - 3 sigma)" in out and "TTT (mu)" in out
    assert "TrueSkill Through Time:" in out


def test_through_time_credits_the_winner_wherever_seated() -> None:
    """trueskillthroughtime 1.1.0 credits the wrong players of a game of four whose
    winner is not listed first; the harness lists them by place."""
    pytest.importorskip("trueskillthroughtime")
    league = rq.League("bluke", "random", "both", 1, 4)
    league.games.append(rq.Game(0, (0, 1, 2, 3), (10, 40, 30, 20), (4, 1, 2, 3), True, 25))
    engine = rq.ThroughTime()
    engine.start(league)
    after = engine.after(1)
    assert after[1].mu > after[2].mu > after[3].mu > after[0].mu


@pytest.mark.parametrize("game", ["bluke", "buck_euchre"])
@pytest.mark.parametrize("seed", range(3))
def test_a_par_reads_only_the_deals_hand_by_hand(game: str, seed: int) -> None:
    """A game's par is the sum of its hands' pars, the same each time; players who stray
    from the par bot score something else from the same deals."""
    rules = rules_for(game, 4, {"max_cards": 4} if game == "bluke" else {})
    noisy = NoisyBot(seed, MIXED, watchful=True)
    hands, tally = play_game(noisy, rules, first_dealer=2, max_hands=40)
    par = rq.par_totals(rules, hands, 2, watchful=True)
    assert len(par) == 4 and all(isinstance(points, int) for points in par)
    assert par == rq.par_totals(rules, hands, 2, watchful=True)
    replayed = [
        rq.par_totals(rules, [hand], (2 + index) % 4, watchful=True)
        for index, hand in enumerate(hands)
    ]
    assert tuple(map(sum, zip(*replayed, strict=True))) == par
    start = 25 if game == "buck_euchre" else 0
    assert [total - start for total in tally.totals] != list(par)


def test_the_par_extra_runs_behind_its_flag(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--tiny", "--seatings", "random", "--mechanisms", "both", "--only", "points", "score"]
    assert rq.main([*argv, "--extra", "par"]) == 0
    out = capsys.readouterr().out
    for bot in rq.PAR_BOTS:
        assert f"average points net of par ({bot})" in out
        assert f"Summary: score model [par, {bot}] (ours)" in out
    assert not any(r.name.startswith(rq.NET_AVERAGE) for r in rq.make_raters())


# -- the target: paired differences over the seeds ------------------------------------------------


def _figures(tau: float, log_loss: float | None) -> rq.Figures:
    return rq.Figures(tau=tau, log_loss=log_loss, top1=0.5, inversions=None)


def _result(per_seed: dict[str, list[tuple[float, float | None]]]) -> rq.Result:
    """A configuration of one checkpoint whose raters had these (tau, log-loss) by seed."""
    runs = [
        rq.SeedRun(
            {name: [_figures(*seeds[s])] for name, seeds in per_seed.items()}, 10, 0, 0.0, 0.0
        )
        for s in range(len(next(iter(per_seed.values()))))
    ]
    return rq.combine("bluke", "random", "both", runs)


def test_a_t_interval_by_hand() -> None:
    # differences 0.01, 0.03, -0.01, 0.05: mean 0.02, sd sqrt(0.002 / 3), t(3) = 3.182
    average, low, high = rq.interval([0.01, 0.03, -0.01, 0.05])
    half = 3.182 * math.sqrt(0.002 / 3 / 4)
    assert average == pytest.approx(0.02)
    assert (low, high) == (round(0.02 - half, 3), round(0.02 + half, 3))
    assert rq.t_975(9) == 2.262 and rq.t_975(1) == 12.706
    assert rq.t_975(22) == rq.T_975[20]  # the next smaller df in the table: wider
    assert 1.96 < rq.t_975(1000) < rq.t_975(40) < rq.t_975(30)
    assert rq.interval([0.5]) == (0.5, -math.inf, math.inf)
    with pytest.raises(ValueError):
        rq.t_975(0)


def test_paired_differences_take_the_best_baseline_seed_by_seed() -> None:
    """The best baseline by the mean over the seeds, the difference on the same seeds:
    a candidate always 0.01 above it is 'at least' with a zero-width interval, whatever
    the spread of the seeds themselves."""
    result = _result(
        {
            "average points": [(0.50, None), (0.80, None), (0.20, None)],
            "Elo per game": [(0.10, 1.20), (0.10, 1.30), (0.10, 1.10)],
            "uniform guess": [(0.0, 1.386), (0.0, 1.386), (0.0, 1.386)],
            rq.SCORE_MODEL: [(0.51, 1.25), (0.81, 1.25), (0.21, 1.25)],
        }
    )
    tau = rq.paired(result, rq.SCORE_MODEL, 0, "tau")
    assert tau is not None
    assert tau.rival == "average points"
    assert tau.difference == pytest.approx(0.01)
    assert tau.low == tau.high == 0.01
    assert tau.verdict == "at least"
    # log-loss: the lowest of the probabilistic baselines (Elo's, 1.2 on the mean);
    # signed so that above 0 is better; 1.25 against 1.2, 1.3, 1.1: -0.05, +0.05, -0.15
    loss = rq.paired(result, rq.SCORE_MODEL, 0, "log_loss")
    assert loss is not None
    assert loss.rival == "Elo per game"
    assert loss.difference == pytest.approx(-0.05)
    assert loss.low < 0 < loss.high
    assert loss.verdict == "within noise"


def test_behind_when_the_interval_excludes_zero() -> None:
    result = _result(
        {
            "average points": [(0.50, None), (0.60, None), (0.70, None), (0.55, None)],
            rq.SCORE_MODEL: [(0.45, 1.3), (0.56, 1.3), (0.64, 1.3), (0.50, 1.3)],
        }
    )
    tau = rq.paired(result, rq.SCORE_MODEL, 0, "tau")
    assert tau is not None and tau.difference == pytest.approx(-0.05)
    assert tau.high < 0 and tau.verdict == "behind"
    # no probabilistic baseline: no log-loss to compare with
    assert rq.paired(result, rq.SCORE_MODEL, 0, "log_loss") is None


def test_the_target_table_and_the_counts_print(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--tiny", "--games", "bluke", "--seatings", "random", "--mechanisms", "bids"]
    variants = ["--variant", "board=ordinal,shift=1", "--show", "ordinal"]
    assert rq.main([*argv, "--only", "points", "Elo", "score", *variants, "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "Target: score model minus the best baseline, paired over 2 seeds" in out
    assert "tau-b @6: " in out and "log-loss @6: " in out
    counts = out.split("Target counts")[1]
    assert "score model [board=ordinal shift=1]" in counts
    assert "Target: score model [board=ordinal shift=1] minus the best baseline" in counts
    assert "(2 processes)" in out
    # the seeds from --seed-from: other leagues, other figures
    assert rq.main([*argv, "--only", "points", "score", "--seed-from", "11"]) == 0
    assert capsys.readouterr().out.split("games per player")[1].startswith(", seeds 11..12")
    with pytest.raises(SystemExit):
        rq.main([*argv, "--jobs", "0"])
    with pytest.raises(SystemExit):
        rq.main([*argv, "--variant", "shift=-1"])
    with pytest.raises(SystemExit):
        rq.main([*argv, "--variant", "cards=held"])


def test_an_unsure_mean_lies_between_the_table_and_the_league() -> None:
    """No totals counted: the table's update; the mean known from very many totals: the
    league's; between, every mu between the two."""
    model = rq.model_for("bluke")
    skills = [rq.Skill(25.0, 8.0), rq.Skill(30.0, 5.0), rq.Skill(20.0, 6.0)]
    points = [150, 90, 60]
    args = {"luck": 69.0, "expected": 80.0, "spread": 1.0}
    table = model.rate(skills, points, luck=69.0)
    league = model.rate(skills, points, luck=69.0, expected=80.0)
    assert rq.rate_with_mean_unsure(model, skills, points, counted=0, **args) == table
    known = rq.rate_with_mean_unsure(model, skills, points, counted=10**9, **args)
    for a, b in zip(known, league, strict=True):
        assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    some = rq.rate_with_mean_unsure(model, skills, points, counted=12, **args)
    for s, t, lg in zip(some, table, league, strict=True):
        assert min(t.mu, lg.mu) <= s.mu <= max(t.mu, lg.mu)
        assert lg.sigma <= s.sigma <= t.sigma + 1e-12


def test_card_features_count_what_each_seat_held() -> None:
    rules = rules_for("buck_euchre", 4, {})
    hands, _ = play_game(NoisyBot(3, MIXED, watchful=True), rules, first_dealer=1, max_hands=30)
    features = rq.card_features(rules, hands, 1)
    assert set(features) == set(rq.CARD_FEATURES)
    for kind, seats in features.items():
        assert len(seats) == 4
        assert all(len(seat) == len(rq.CARD_FEATURES[kind]) for seat in seats)
    # five cards a hand: at most five trumps a seat a hand, and seven trumps in all
    # (six and the left bower), some in the kitty
    trumps = [seat[0] for seat in features["named"]]
    assert all(0 <= t <= 5 * len(hands) for t in trumps)
    assert 0 < sum(trumps) <= 7 * len(hands)
    assert features == rq.card_features(rules, hands, 1)
