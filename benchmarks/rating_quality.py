"""How well each rating finds players of known strength, in real games played by bots.

Why: ``benchmarks/rating_models.py`` draws results from a formula; here the games are
real Bluke and Buck Euchre games played hand by hand through the engine, by bots whose
strength we set, so luck, table size, counting down and incomplete games are what they
are at a club. The league's model (``league.rating_model``, rated on the points, each
game's constants from ``model_for``) runs next to the former leaderboard and the
baselines.

What runs (everything seeded; the same arguments give the same figures):

1. Players: ``--players`` (16) per league. Each has a noise ``p``, evenly spaced from 0
   (the strongest) to 0.9 (the weakest), given to the player ids in a random order (so
   an id says nothing about strength). A player plays :class:`games.bots.SimpleBot`'s
   bids, calls and drops, with the card play of :func:`games.bots.watchful_card` (the
   cheapest card that wins the trick when it wants one, the strongest that loses when
   not: with ``SimpleBot``'s own card play, always its highest card when it wants a
   trick, a random card does no worse in Bluke, and card noise would set no strength),
   but each decision of the kind the *mechanism* names is, with chance ``p``, replaced
   by a random legal one (:class:`games.bots.NoisyBot`, one :class:`~games.bots.Noise`
   per seat, ``watchful=True``):

   - ``bids``: Bluke bids; Buck Euchre calls and drop decisions (a coin toss);
   - ``cards``: card plays (and a Buck Euchre dealer's discard);
   - ``both``: all of the above;
   - ``never-drops`` (Buck Euchre only): with chance ``p`` the player stays in where the
     strategy drops (at 0.9 it almost never drops), and plays a random card with chance
     ``p / 3`` (staying in alone costs a few points a game and no wins: too little to
     rank 16 players by);
   - ``improver``: as ``both``, but the two weakest players improve over the season,
     their ``p`` falling linearly from 0.9 to 0.1 with the season's progress (games
     played so far over the games of the whole season).

   The truth: a lower ``p`` is a stronger player; at a checkpoint an improver's truth is
   its ``p`` at that moment.
2. The season: nights of three rounds, a night every 7 days. Each round the players
   present are seated by ``league.seating.plan_round`` with the game's
   ``TablePolicy`` (Bluke: tables of 4, and of 3 when the count requires; Buck
   Euchre: tables of 4, leftovers sit out), in one of three ways:

   - ``random``: everyone present, method ``random``;
   - ``standing``: everyone present, method ``swiss`` with the ranking by average
     points per game so far (Buck Euchre: fewest first; no games yet: last, in a
     random order), tonight's rounds as history, a shortened search (150 swaps):
     tables of similar players;
   - ``absent``: a third of the players (rounded) absent each night, drawn at random;
     method ``random``.

   Each table plays one whole game (default rule options; the seat order and first
   dealer as seated; Buck Euchre stops after 200 hands, then places go by the totals),
   and the season stops the moment the mean games per player reaches the last
   checkpoint.
3. The raters go through the games in the order played. BEFORE rating a game, each
   predicts it (probabilistic raters: each player's chance of winning; the others only
   a favourite, by their leaderboard); then it rates it. The raters:

   - ``uniform guess``: chances 1/n, everyone tied on the board (tau 0): the reference
     a log-loss must beat to say anything (ln 4 = 1.386 at tables of four);
   - ``average points``: the leaderboard by mean final total per game (Buck Euchre
     counts down: fewer is better); a player without games counts as the mean of the
     others at the table (a favourite only);
   - ``average place``: by mean place (1 = won), the same way;
   - ``Elo per game``: 1500 to start, the game split into all its pairs by places (a
     shared place is half a win), a player's change 32 / (n - 1) times the sum of actual
     minus expected; chances in proportion to 10^(rating / 400);
   - the openskill models on places (``rate(teams, ranks=places)``, one-player teams,
     default parameters): PlackettLuce, BradleyTerryFull (named ``former leaderboard
     (BT-Full)``: what the league ran before the points model), BradleyTerryPart,
     ThurstoneMostellerFull, ThurstoneMostellerPart; the leaderboard by ordinal
     (mu - 3 sigma), chances by ``predict_win``;
   - ``score model``: the league's model of the game (``league.rating_model.model_for``;
     ``--mu --sigma --beta --tau --idle`` change its constants) on the final totals, ``luck =
     luck_points(game, table size)``, Buck Euchre ``lower_is_better``; before each game
     each player's skill goes through ``before_game`` with the days since their previous
     game; the leaderboard by ``Skill.ordinal``, chances by ``win_chances``. Each
     ``--variant beta=3,idle=0`` adds one more score model with those constants changed,
     and a variant may also say (:func:`parse_variant`): ``board=mu``, ``settled`` or
     ``excess`` (:func:`board_value`: the board by mu, for every player or past the
     provisional threshold); ``cards=named`` or ``cards=dealt`` (Buck Euchre totals less
     what the cards held were worth, :data:`CARD_FEATURES`, :data:`CARD_SLOPES`: a luck
     correction from the move logs); ``shift=K`` (Bluke: the league's mean counted as
     known only to ``K beta² / totals``, :func:`rate_with_mean_unsure`); ``prior=club``
     (each player starts from their club-wide rating of the games before the league:
     ``--previous GAMES`` has every league's players first play that many games each in
     another league of the club, which only this variant sees).
4. At each checkpoint (``--checkpoints``, the mean games per player: 6, 12 and 30):

   - tau-b: Kendall's tau-b between a rater's leaderboard and the truth (-p), over the
     players with at least one game (ties on either side count as ties; 0 when either
     side ties everyone);
   - log-loss: over all the games so far, the mean of -ln(chance given to the winner)
     (players sharing first place: the mean of -ln p over them; chances floored at
     1e-15); a dash for the raters without chances;
   - top-1: the share of the games so far whose favourite won (favourites tied in the
     prediction share the credit, a favourite among tied winners counts as a win);
   - inversions: over pairs of players with at least 10 games each and different true
     strengths, the share that the leaderboard orders weaker above stronger (a tie on
     the board counts half); a dash when there is no such pair yet.

   Each figure is the mean over ``--seeds`` leagues (seeds 1..N, 10 by default) of one
   configuration (game x seating x mechanism); every rater rates the same leagues.
5. The report: one table per configuration (rater | tau-b at each checkpoint | log-loss,
   top-1 and inversions at the last); the same figures averaged over the configurations;
   the summary, a line per configuration with the score model's tau-b against the best
   baseline's at each checkpoint (``<`` where it is below) and its last log-loss against
   the best probabilistic baseline's (the uniform guess counts), then for each
   checkpoint in how many configurations its tau-b is at least the best baseline's and
   its log-loss below every probabilistic baseline's. Then the target (issue 32), cell by
   cell (:func:`print_target`): at each checkpoint the score model's tau-b minus the
   best baseline's (the best by the mean over the seeds), paired seed by seed on the
   same leagues, its mean and 95% t-interval over the seeds (Student's t with seeds - 1
   degrees of freedom, :func:`interval`), and the verdict: ``at least`` the best (mean
   difference >= 0), ``within noise`` (behind on the mean, the interval holds 0) or
   ``behind``; the same for the log-loss against the best probabilistic baseline (the
   uniform guess among them), signed so that above 0 is better; the verdicts counted.
   Choosing the best baseline by its mean favours the baselines (the largest of several
   noisy means is biased up), so the verdicts lean against the score model; with 81
   cells, about two fall "behind" by chance where the score model equals the best in
   expectation. Then every candidate's verdicts counted (:func:`print_target_counts`),
   and the time taken.

``--extra ttt,rerun`` adds candidates that are not the league's (each also gets a line in
the summary): ``ttt``, TrueSkill Through Time (the ``trueskillthroughtime`` package, which
the project does not install: each game a ranked match by places, shared places drawn,
each night a time step; its boards by mu - 3 sigma and by mu from the history converged
to that game, its chances from the history converged to the night before; the report
ends with what the convergences cost); ``rerun`` (Bluke only), the score model whose
boards (by the ordinal and by mu) re-run it over every game so far against the league's
mean as it stands, instead of the running mean; its chances are the score model's.

``par``, the average of points and the score model on each total minus its *par*
(:func:`par_totals`: what that seat would have scored from the same deals had every seat
been played by a bot without noise, as duplicate bridge compares a pair with the others
who held the same cards), by two par bots: the players' own strategy (an upper bound: the
truth here is how often a player strays from it) and ``SimpleBot``'s plainer card play;
a game then costs twice as long to play.

``--only NAME [NAME ...]`` keeps the raters whose name contains one of the words (the
score model and its variants always run with ``--only score``); ``--games``,
``--seatings``, ``--mechanisms`` pick configurations. ``--tiny`` is the CI run: 8
players, checkpoints 3 and 6 (two nights), 2 seeds, in seconds. The default run plays
32,840 games (ten seeds) in about four minutes of one core's time: a Bluke game costs
about 6 ms, a Buck Euchre game about 2 ms, a ``standing`` round's seating about 15 ms,
and the raters about a fifth of the time, most of it the score model's ``win_chances``;
``--jobs 2`` plays the leagues in two processes (``make bench-quality`` does), with the
same figures.

``--seed-from K`` plays seeds K..K+N-1 instead (leagues the constants were not chosen
on: docs/ratings.md has seeds 11 to 20); ``--show NAME ...`` prints the target table of
the candidates so named too.

Usage: ``python benchmarks/rating_quality.py [--seeds N] [--seed-from K] [--jobs J]
[--only NAME ...] [--beta B] [--tau T] [--idle I] [--variant K=V,...] [--show NAME ...]
[--previous GAMES] [--games ...] [--seatings ...] [--mechanisms ...]
[--checkpoints 6 12 30] [--players 16] [--extra ttt,rerun,par] [--tiny]``.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from benchmarks.rating_models import kendall_tau_b  # the earlier evaluation's, shared
from games import rules_for
from games.bluke import Bluke
from games.bots import Noise, NoisyBot, play_game
from games.cards import Card, Suit, card
from games.hands import evaluate_game_hand
from games.results import competition_ranks
from league.rating_model import LeagueMeans, ScoreModel, Skill, luck_points, model_for
from league.seating import PastRound, Search, TablePolicy, plan_round

GAMES = ("bluke", "buck_euchre")
SEATINGS = ("random", "standing", "absent")
MECHANISMS: dict[str, tuple[str, ...]] = {
    "bluke": ("bids", "cards", "both", "improver"),
    "buck_euchre": ("bids", "cards", "both", "never-drops", "improver"),
}
ALL_MECHANISMS = ("bids", "cards", "both", "never-drops", "improver")
CHECKPOINTS = (6, 12, 30)
SEEDS = 10
"""Leagues per configuration by default: the target is judged over ten at least."""
PLAYERS = 16
ROUNDS_PER_NIGHT = 3
DAYS_BETWEEN_NIGHTS = 7
WEAKEST = 0.9
"""The noise of the weakest player; the strongest has none."""
IMPROVERS = 2
IMPROVER_FROM, IMPROVER_TO = 0.9, 0.1
SETTLED = 10
"""Games each that a pair needs to count in the inversions."""
MAX_HANDS = 200
STANDING_SEARCH = Search(iterations=150, restarts=0)
"""The seating search for ``standing``: the default effort (about 1,200 swaps, one
restart) found the same tables in our checks at eight times the cost, and took most of
the run's time."""
ELO_START, ELO_K = 1500.0, 32.0
SCORE_MODEL = "score model"
NET_AVERAGE = "average points net of par"
BOARDS = ("excess", "ordinal", "mu", "settled")
"""What a score model's leaderboard orders by: ``excess``, the league's board (mu less
three times the part of sigma above the provisional threshold:
``ScoreModel.board_value``), the ordinal (mu - 3 sigma, the league's board before issue
32), mu, or ``settled`` (mu for a player past the provisional threshold, the ordinal
for a provisional one)."""
NO_FIGURE = "\u2013"
"""An en dash, printed where a figure is undefined."""
FORMER_LEADERBOARD = "former leaderboard (BT-Full)"
OPENSKILL: dict[str, Callable[[], Any]] = {
    "PlackettLuce": PlackettLuce,
    FORMER_LEADERBOARD: BradleyTerryFull,
    "BradleyTerryPart": BradleyTerryPart,
    "ThurstoneMostellerFull": ThurstoneMostellerFull,
    "ThurstoneMostellerPart": ThurstoneMostellerPart,
}


# -- the leagues --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """One game as played: the players in seat order, their final totals and places."""

    night: int
    players: tuple[int, ...]
    totals: tuple[int, ...]
    places: tuple[int, ...]
    """1 for the winner; players with equal standing share a place."""
    complete: bool
    hands: int
    pars: dict[str, tuple[int, ...]] = field(default_factory=dict, compare=False)
    """Each seat's par over the game's deals, by par bot (:data:`PAR_BOTS`), when asked for."""
    cards: dict[str, tuple[tuple[int, ...], ...]] = field(default_factory=dict, compare=False)
    """Each seat's features of the cards it was dealt, added up over the game's hands, by
    kind (:data:`CARD_FEATURES`; Buck Euchre only), when asked for."""

    def net_of_par(self, bot: str) -> tuple[int, ...]:
        """Each seat's total minus its par by ``bot`` (``--extra par``)."""
        return tuple(t - q for t, q in zip(self.totals, self.pars[bot], strict=True))


@dataclass(frozen=True)
class Checkpoint:
    """The moment the mean games per player reached ``target``: after ``games`` games,
    with the players' true noise ``p`` at that moment (lower is stronger)."""

    target: float
    games: int
    p: tuple[float, ...]


@dataclass
class League:
    game: str
    seating: str
    mechanism: str
    seed: int
    players: int
    games: list[Game] = field(default_factory=list)
    checkpoints: list[Checkpoint] = field(default_factory=list)
    club: list[Game] = field(default_factory=list)
    """The same players' games in another league of the club, before this one
    (``--previous``; nights before 0): what a club-wide rating has seen."""

    @property
    def lower_is_better(self) -> bool:
        return self.game == "buck_euchre"


def noise_of(mechanism: str, p: float) -> Noise:
    """A player's :class:`Noise` for ``mechanism`` at noise level ``p``."""
    if mechanism == "bids":
        return Noise(bid=p, drop=p)
    if mechanism == "cards":
        return Noise(card=p)
    if mechanism in ("both", "improver"):
        return Noise(bid=p, card=p, drop=p)
    if mechanism == "never-drops":
        return Noise(stay=p, card=p / 3)
    raise ValueError(f"unknown mechanism {mechanism!r}")


def base_noise(players: int, rng: random.Random, weakest: float = WEAKEST) -> list[float]:
    """Each player id's ``p``: 0 to ``weakest`` evenly spaced, in a random order."""
    levels = [weakest * k / (players - 1) for k in range(players)]
    rng.shuffle(levels)
    return levels


def current_noise(base: Sequence[float], mechanism: str, progress: float) -> list[float]:
    """Everyone's ``p`` at ``progress`` (0 to 1) through the season: the improvers (the
    :data:`IMPROVERS` weakest) fall linearly from 0.9 to 0.1."""
    p = list(base)
    if mechanism == "improver":
        weakest = sorted(range(len(p)), key=lambda i: -p[i])[:IMPROVERS]
        now = IMPROVER_FROM + (IMPROVER_TO - IMPROVER_FROM) * min(1.0, progress)
        for i in weakest:
            p[i] = now
    return p


def places_of(totals: Sequence[int], lower_is_better: bool) -> tuple[int, ...]:
    """Competition places by total (1 = best, equal totals share)."""
    return competition_ranks([t if lower_is_better else -t for t in totals])


def make_league(
    game: str,
    seating: str,
    mechanism: str,
    seed: int,
    *,
    players: int = PLAYERS,
    checkpoints: Sequence[float] = CHECKPOINTS,
    weakest: float = WEAKEST,
    pars: bool = False,
    cards: bool = False,
    previous: float = 0.0,
    noise: Sequence[float] | None = None,
) -> League:
    """A season of real games, to the last checkpoint (see the module's docstring);
    the weakest player's noise is ``weakest``; with ``pars``, each game's pars
    (:func:`par_totals`); with ``cards``, each Buck Euchre game's card features
    (:func:`card_features`). With ``previous`` above 0, the league's ``club`` games
    first: the same players' season of ``previous`` games each in another league of
    the club (its own seed stream; the improvers not yet improving), ending two weeks
    before this one's first night. ``noise``: each player id's ``p`` instead of drawing
    them (the club's other league)."""
    rng = random.Random(f"{game} {seating} {mechanism} {seed}")
    league = League(game, seating, mechanism, seed, players)
    policy = TablePolicy(game)
    base = base_noise(players, rng, weakest)
    if noise is not None:
        base = list(noise)
        rng = random.Random(f"{game} {seating} {mechanism} {seed} club")
    if previous > 0:
        before = make_league(
            game,
            seating,
            "both" if mechanism == "improver" else mechanism,
            seed,
            players=players,
            checkpoints=(previous,),
            cards=cards,
            noise=base,
        )
        gap = before.games[-1].night + 3  # two nights without a game between the leagues
        league.club = [replace(g, night=g.night - gap) for g in before.games]
    season = players * max(checkpoints)
    targets = sorted(checkpoints)
    played = [0] * players
    points = [0.0] * players
    tiebreak = [rng.random() for _ in range(players)]
    seat_count = 0
    night = 0
    while targets:
        present = list(range(players))
        if seating == "absent":
            present = sorted(rng.sample(present, players - round(players / 3)))
        tonight: list[PastRound[int]] = []
        for _ in range(ROUNDS_PER_NIGHT):
            if not targets:
                break
            p = current_noise(base, mechanism, seat_count / season)
            if seating == "standing":
                sign = 1.0 if league.lower_is_better else -1.0
                ranking = sorted(
                    present,
                    key=lambda i: (
                        played[i] == 0,
                        sign * points[i] / played[i] if played[i] else 0.0,
                        tiebreak[i],
                    ),
                )
                seated = plan_round(
                    present,
                    policy,
                    method="swiss",
                    ranking=ranking,
                    history=tonight,
                    seed=rng.randrange(2**31),
                    search=STANDING_SEARCH,
                )
            else:
                seated = plan_round(present, policy, method="random", seed=rng.randrange(2**31))
            tonight.append(PastRound(tuple(t.players for t in seated.tables), seated.sit_out))
            for table in seated.tables:
                rules = rules_for(game, len(table.players), {})
                bot = NoisyBot(
                    rng.randrange(2**31),
                    [noise_of(mechanism, p[i]) for i in table.players],
                    watchful=True,
                )
                hands, tally = play_game(
                    bot, rules, first_dealer=table.first_dealer, max_hands=MAX_HANDS
                )
                totals = tuple(tally.totals)
                ranks = tally.ranks()
                places = ranks if ranks is not None else places_of(totals, league.lower_is_better)
                par = {
                    name: par_totals(rules, hands, table.first_dealer, watchful=watchful)
                    for name, watchful in (PAR_BOTS.items() if pars else ())
                }
                features = (
                    card_features(rules, hands, table.first_dealer)
                    if cards and not isinstance(rules, Bluke)
                    else {}
                )
                league.games.append(
                    Game(
                        night,
                        table.players,
                        totals,
                        tuple(places),
                        tally.complete,
                        len(hands),
                        par,
                        features,
                    )
                )
                for i, total in zip(table.players, totals, strict=True):
                    played[i] += 1
                    points[i] += total
                seat_count += len(table.players)
                while targets and seat_count >= players * targets[0]:
                    now = current_noise(base, mechanism, seat_count / season)
                    league.checkpoints.append(
                        Checkpoint(targets.pop(0), len(league.games), tuple(now))
                    )
                if not targets:
                    break
        night += 1
    return league


PAR_BOTS = {"own strategy": True, "SimpleBot": False}
"""The bots that set a par (``--extra par``), each ``watchful`` or not: the strategy the
players stray from (:class:`NoisyBot` without noise, watchful card play), and
:class:`SimpleBot`'s plainer card play, a par bot unlike the players."""


def par_totals(
    rules: Any, records: Sequence[dict[str, Any]], first_dealer: int, *, watchful: bool
) -> tuple[int, ...]:
    """Each seat's par for a game: the points that seat would have scored from the same
    deals, dealer and turn-up if every seat had been played by a :class:`NoisyBot`
    without noise (``watchful`` card play or not), its bids' coin seeded by the deal.
    Duplicate bridge's idea: a total minus its par leaves out the luck of the cards,
    and, as the par depends on the deals alone, favours no seat."""
    n = rules.players
    totals = [0] * n
    bluke = isinstance(rules, Bluke)
    for index, record in enumerate(records):
        dealer = (first_dealer + index) % n
        deal = [[card(c) for c in seat] for seat in record["deal"]]
        turn_up = card(record["turn_up"])
        seed = zlib.crc32(repr((record["deal"], record["turn_up"])).encode())
        bot = NoisyBot(seed, [Noise()] * n, watchful=watchful)
        hand = rules.new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
        played = bot.play_bluke_hand(hand) if bluke else bot.play_buck_euchre_hand(hand)
        result = evaluate_game_hand(
            rules, played, dealer=dealer, cards=len(deal[0]) if bluke else None
        )
        totals = [t + p for t, p in zip(totals, result.points, strict=True)]
    return tuple(totals)


CARD_FEATURES: dict[str, tuple[str, ...]] = {
    "named": ("trumps", "right bower", "left bower", "other aces"),
    "dealt": ("best suit's trumps", "its right bower", "its left bower", "other aces",
              "trumps of the turn-up's suit"),
}  # fmt: skip
"""What :func:`card_features` counts in a seat's Buck Euchre hand, hand by hand: ``named``
in the trump suit named (the dealer's hand after taking the turn-up and discarding);
``dealt`` in the hand as dealt, whatever anyone called: in the suit the hand is longest
in (bowers counted as trumps), and the trumps of the turn-up's suit. ``named`` reads
what the players chose (the maker named the suit, the dealer discarded), so a player's
call can move it; ``dealt`` reads the deal alone, which is blind to skill."""

CARD_SLOPES: dict[str, tuple[float, ...]] = {
    "named": (-1.504, -1.512, -0.660, -1.292),
    "dealt": (-0.102, 0.027, -0.503, -1.239, -1.115),
}
"""Points of a Buck Euchre game's final total per feature (:data:`CARD_FEATURES`), each
feature and total taken about the table's average: the least-squares fit over 600
games at tables of four players of random strength (noise drawn uniformly from 0 to 0.9,
``both``; bot seeds 10,000 and up, apart from the leagues'). The share of the spread
they leave: :data:`CARD_LUCK_SHARE`."""

CARD_LUCK_SHARE: dict[str, float] = {"named": 0.848, "dealt": 0.936}
"""The spread of a Buck Euchre total about its table's average left once the cards'
share is taken out (``named``: R² 0.28; ``dealt``: R² 0.12), as a share of the spread
before. In Bluke the cards explain nothing: the sure tricks dealt (trumps from the
queen up, Blukes, other aces: ``SimpleBot``'s bid) had R² 0.001 on the total, since a
strong hand is bid high and scores by its bid made or missed, as a weak one does."""


def card_features(
    rules: Any, records: Sequence[dict[str, Any]], first_dealer: int
) -> dict[str, tuple[tuple[int, ...], ...]]:
    """Each seat's :data:`CARD_FEATURES` over a Buck Euchre game's hands (a hand that no
    one called counts nothing), by kind."""
    n = rules.players
    out = {kind: [[0] * len(names) for _ in range(n)] for kind, names in CARD_FEATURES.items()}
    for index, record in enumerate(records):
        dealer = (first_dealer + index) % n
        deal = [[card(c) for c in seat] for seat in record["deal"]]
        turn_up = card(record["turn_up"])
        hand = rules.new_hand(dealer=dealer, deal=deal, turn_up=turn_up)
        for call in record["calls"]:
            hand.call(call)
        trump = hand.trump
        if trump is None:
            continue
        for seat, dealt in enumerate(deal):
            held = list(dealt)
            if seat == dealer and "discard" in record:
                held = [*held, turn_up]
                held.remove(card(record["discard"]))
            best = _longest_suit(dealt)
            assert turn_up.suit is not None
            rows = {
                "named": (*_trump_features(held, trump),),
                "dealt": (*_trump_features(dealt, best), _trumps(dealt, turn_up.suit)),
            }
            for kind, row in rows.items():
                out[kind][seat] = [a + b for a, b in zip(out[kind][seat], row, strict=True)]
    return {kind: tuple(tuple(seat) for seat in seats) for kind, seats in out.items()}


def _longest_suit(held: Sequence[Card]) -> Suit:
    """The suit with the most trumps were it named (bowers counted); ties by name."""
    return max(Suit, key=lambda suit: (_trumps(held, suit), suit.value))


def _trumps(held: Sequence[Card], suit: Suit) -> int:
    return sum(1 for c in held if c.suit is suit or (c.rank == 11 and c.suit is suit.partner))


def _trump_features(held: Sequence[Card], trump: Suit) -> tuple[int, int, int, int]:
    """Trumps (bowers counted), the right and the left bower, aces of the other suits."""
    return (
        _trumps(held, trump),
        int(any(c.rank == 11 and c.suit is trump for c in held)),
        int(any(c.rank == 11 and c.suit is trump.partner for c in held)),
        sum(1 for c in held if c.rank == 14 and c.suit is not trump),
    )


# -- the raters ---------------------------------------------------------------------------------


class Rater:
    """Predicts a game, then learns from it; keeps a leaderboard (higher is better).

    ``predict`` gives each player's chance of winning (``None`` for a rater without
    chances) and the values the favourite is chosen by."""

    name = ""
    probabilistic = True

    def start(self, league: League) -> None:
        self.league = league

    def predict(self, game: Game) -> tuple[list[float] | None, list[float]]:
        raise NotImplementedError

    def update(self, game: Game) -> None:
        raise NotImplementedError

    def board(self) -> dict[int, float]:
        raise NotImplementedError


class Uniform(Rater):
    """Everyone equal: chances 1/n, the favourite a tie of everyone; a reference for
    the log-loss (ln 4 = 1.386 at a table of four), tau 0 by construction."""

    name = "uniform guess"

    def predict(self, game: Game) -> tuple[list[float] | None, list[float]]:
        n = len(game.players)
        return [1.0 / n] * n, [0.0] * n

    def start(self, league: League) -> None:
        super().start(league)
        self.seen: set[int] = set()

    def update(self, game: Game) -> None:
        self.seen.update(game.players)

    def board(self) -> dict[int, float]:
        return dict.fromkeys(self.seen, 0.0)


class Average(Rater):
    """Mean points per game, or mean place: no chances, a favourite by the board."""

    probabilistic = False

    def __init__(self, of: str) -> None:
        self.of = of
        self.name = f"average {of}"

    def start(self, league: League) -> None:
        super().start(league)
        self.sum: dict[int, float] = {}
        self.games: dict[int, int] = {}

    def _totals(self, game: Game) -> tuple[int, ...]:
        return game.totals

    def _value(self, total: int, place: int) -> float:
        if self.of == "place":
            return -place
        return -total if self.league.lower_is_better else total

    def predict(self, game: Game) -> tuple[list[float] | None, list[float]]:
        board = self.board()
        known = [board[p] for p in game.players if p in board]
        neutral = sum(known) / len(known) if known else 0.0
        return None, [board.get(p, neutral) for p in game.players]

    def update(self, game: Game) -> None:
        totals = self._totals(game)
        for p, total, place in zip(game.players, totals, game.places, strict=True):
            self.sum[p] = self.sum.get(p, 0.0) + self._value(total, place)
            self.games[p] = self.games.get(p, 0) + 1

    def board(self) -> dict[int, float]:
        return {p: s / self.games[p] for p, s in self.sum.items()}


class NetAverage(Average):
    """Mean points per game net of par (``--extra par``): each total minus its par by
    one of the :data:`PAR_BOTS`."""

    def __init__(self, bot: str) -> None:
        super().__init__("points")
        self.bot = bot
        self.name = f"{NET_AVERAGE} ({bot})"

    def _totals(self, game: Game) -> tuple[int, ...]:
        return game.net_of_par(self.bot)


class Elo(Rater):
    name = "Elo per game"

    def start(self, league: League) -> None:
        super().start(league)
        self.rating: dict[int, float] = {}

    def predict(self, game: Game) -> tuple[list[float] | None, list[float]]:
        ratings = [self.rating.get(p, ELO_START) for p in game.players]
        top = max(ratings)
        strengths = [10 ** ((r - top) / 400) for r in ratings]
        return [s / sum(strengths) for s in strengths], ratings

    def update(self, game: Game) -> None:
        ratings = [self.rating.get(p, ELO_START) for p in game.players]
        k = ELO_K / (len(game.players) - 1)
        places = game.places
        for i, player in enumerate(game.players):
            change = 0.0
            for j in range(len(game.players)):
                if j != i:
                    actual = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0
                    change += actual - 1 / (1 + 10 ** ((ratings[j] - ratings[i]) / 400))
            self.rating[player] = ratings[i] + k * change

    def board(self) -> dict[int, float]:
        return dict(self.rating)


class OpenSkill(Rater):
    def __init__(self, name: str) -> None:
        self.name = name
        self.model = OPENSKILL[name]()

    def start(self, league: League) -> None:
        super().start(league)
        self.rating: dict[int, Any] = {}

    def _teams(self, game: Game) -> list[list[Any]]:
        return [[self.rating.get(p) or self.model.rating()] for p in game.players]

    def predict(self, game: Game) -> tuple[list[float] | None, list[float]]:
        teams = self._teams(game)
        return list(self.model.predict_win(teams)), [t[0].ordinal() for t in teams]

    def update(self, game: Game) -> None:
        rated = self.model.rate(self._teams(game), ranks=list(game.places))
        for p, (rating,) in zip(game.players, rated, strict=True):
            self.rating[p] = rating

    def board(self) -> dict[int, float]:
        return {p: r.ordinal() for p, r in self.rating.items()}


def board_value(model: ScoreModel, skill: Skill, board: str) -> float:
    """A rating's place on a leaderboard ordered by ``board`` (:data:`BOARDS`), higher
    first."""
    if board == "excess":
        return model.board_value(skill)
    if board == "ordinal":
        return skill.ordinal
    if board == "mu":
        return skill.mu
    if board == "settled":
        return skill.mu if skill.sigma <= model.provisional_sigma else skill.ordinal
    raise ValueError(f"the board is one of {BOARDS}, not {board!r}")


@functools.lru_cache(maxsize=4096)
def _win_chances(model: ScoreModel, skills: tuple[Skill, ...]) -> list[float]:
    # score models that differ only in their board predict alike: computed once
    return model.win_chances(skills)


class Scored(Rater):
    """:class:`league.rating_model.ScoreModel` on the final totals."""

    def __init__(
        self,
        name: str,
        changes: dict[str, Any] | None = None,
        *,
        board: str = "excess",
        par: str = "",
        cards: str = "",
        shift: float = 0.0,
        prior: bool = False,
    ) -> None:
        """The league's model of each game (``league.rating_model.model_for``), with
        the constants in ``changes`` changed; with ``par`` (one of :data:`PAR_BOTS`),
        on each total minus its par; with ``cards`` (one of :data:`CARD_FEATURES`),
        on each Buck Euchre total less what its cards are worth (:data:`CARD_SLOPES`);
        with ``shift`` above 0 (a model against the league), the league's mean counted
        as known only as well as its games tell (:func:`rate_with_mean_unsure`)."""
        if board not in BOARDS:
            raise ValueError(f"the board is one of {BOARDS}, not {board!r}")
        if cards and cards not in CARD_FEATURES:
            raise ValueError(f"cards is one of {sorted(CARD_FEATURES)}, not {cards!r}")
        self.name = name
        self.changes = dict(changes or {})
        self.board_by = board
        self.by_mu = board == "mu"
        self.par = par
        self.cards = cards
        self.shift = shift
        self.prior = prior

    def start(self, league: League) -> None:
        super().start(league)
        self.model = replace(model_for(league.game), **self.changes)
        self.skill: dict[int, Skill] = {}
        self.last_night: dict[int, int] = {}
        self.means = LeagueMeans()
        self.in_league: set[int] = set()
        if self.prior and league.club:
            # the club-wide rating: every player starts the league where the club's
            # other league left them (then widened for the days away, as before any game)
            for game in league.club:
                self.update(game)
            self.means = LeagueMeans()  # the league's own means start afresh
            self.in_league.clear()

    def _before(self, game: Game) -> list[Skill]:
        skills = []
        for p in game.players:
            if p in self.skill:
                days = DAYS_BETWEEN_NIGHTS * (game.night - self.last_night[p])
                skills.append(self.model.before_game(self.skill[p], days_away=days))
            else:
                skills.append(self.model.new())
        return skills

    def predict(self, game: Game) -> tuple[list[float] | None, list[float]]:
        skills = self._before(game)
        values = [board_value(self.model, s, self.board_by) for s in skills]
        return _win_chances(self.model, tuple(skills)), values

    def _totals(self, game: Game) -> tuple[Sequence[float], float]:
        """The totals the model rates, and their luck (a standard deviation, in points)."""
        luck = luck_points(self.league.game, len(game.players), hands=game.hands)
        if self.par:
            return game.net_of_par(self.par), luck
        if self.cards and game.cards:
            slopes = CARD_SLOPES[self.cards]
            worth = [
                sum(b * x for b, x in zip(slopes, seat, strict=True))
                for seat in game.cards[self.cards]
            ]
            totals = [t - w for t, w in zip(game.totals, worth, strict=True)]
            return totals, luck * CARD_LUCK_SHARE[self.cards]
        return game.totals, luck

    def update(self, game: Game) -> None:
        totals, luck = self._totals(game)
        before = self._before(game)
        if self.shift and self.model.against == "league":
            # Buck Euchre's means by table size alone: its games run to any length
            hands = game.hands if self.league.game == "bluke" else 0
            expected = self.means.expected(players=len(totals), hands=hands)
            _, counted = self.means.sums.get((len(totals), hands), (0, 0))
            rated = rate_with_mean_unsure(
                self.model,
                before,
                totals,
                luck=luck,
                expected=expected,
                counted=counted,
                spread=self.shift,
                lower_is_better=self.league.lower_is_better,
            )
            self.means.add(game.totals, hands=hands)
        else:
            rated = self.model.rate_game(
                before,
                totals,
                luck=luck,
                hands=game.hands,
                lower_is_better=self.league.lower_is_better,
                means=self.means,
            )
        for p, skill in zip(game.players, rated, strict=True):
            self.skill[p] = skill
            self.last_night[p] = game.night
        self.in_league.update(game.players)

    def board(self) -> dict[int, float]:
        return {
            p: board_value(self.model, s, self.board_by)
            for p, s in self.skill.items()
            if p in self.in_league
        }


def rate_with_mean_unsure(
    model: ScoreModel,
    skills: Sequence[Skill],
    points: Sequence[float],
    *,
    luck: float,
    expected: float | None,
    counted: int,
    spread: float,
    lower_is_better: bool = False,
) -> list[Skill]:
    """A game rated against the league's mean ``expected`` (over ``counted`` totals) known
    only as well as those totals tell: the common shift of the table's performances has
    the prior ``N(mu, spread * beta² / counted)`` (a new player's mu is what the league's
    mean total is worth), where :meth:`ScoreModel.rate` takes it as unknown (no mean
    yet: ``counted`` 0) and :meth:`ScoreModel.rate_against` as known exactly. The same
    closed form as :meth:`ScoreModel.rate`, the prior one more term in the shift's mean
    and weight."""
    if expected is None or counted == 0:
        return model.rate(skills, points, luck=luck, lower_is_better=lower_is_better)
    sign = -1.0 if lower_is_better else 1.0
    margins = [sign * (p - expected) * model.beta / luck for p in points]
    beta2 = model.beta**2
    prior_weight = counted / (spread * beta2)
    spreads = [s.sigma**2 + beta2 for s in skills]
    total_weight = sum(1.0 / d for d in spreads) + prior_weight
    shift = sum((s.mu - y) / d for s, y, d in zip(skills, margins, spreads, strict=True))
    shift = (shift + prior_weight * model.mu) / total_weight
    rated = []
    for skill, y, d in zip(skills, margins, spreads, strict=True):
        gain = skill.sigma**2 / d
        variance = skill.sigma**2 * beta2 / d + gain**2 / total_weight
        rated.append(Skill(skill.mu + gain * (y + shift - skill.mu), math.sqrt(variance)))
    return rated


FINAL_MEAN = f"{SCORE_MODEL} [final mean]"
"""The score model whose leaderboard re-runs it against the league's current mean."""
TTT = "TTT"
"""TrueSkill Through Time's raters' names start so."""
EXTRAS = ("ttt", "rerun", "par")
"""The raters ``--extra`` adds: TrueSkill Through Time (package ``trueskillthroughtime``,
not a dependency of the project: install it to run this), the score model re-run
against the final league mean (Bluke), and the average and the score model on totals
net of par (:func:`par_totals`)."""
TTT_MU, TTT_SIGMA, TTT_BETA, TTT_GAMMA = 0.0, 6.0, 1.0, 0.03
"""The package's defaults: a new player's skill N(0, 6²), luck beta 1, and gamma, the
skill's drift per time step (a night), 0.03."""
TTT_DRAW = {"bluke": 0.005, "buck_euchre": 0.06}
"""The chance of a draw between two neighbouring places: the share of tied neighbouring
places in pilot leagues (seed 1, ``both``, seated at random and absent): Bluke 0.0 and
0.003, Buck Euchre 0.056 and 0.069. The package needs one above 0 to accept ties."""
TTT_EPSILON, TTT_ITERATIONS = 1e-2, 30
"""Converged when no mean or sigma moves by more than a hundredth of beta in a pass over
the history: a season of 131 Bluke games takes 3 passes (0.16 s); the package's 1e-6
stops at its 30 passes (1.4 s) with everyone's mean shifted alike by 0.09, their
differences within 0.001: the passes beyond only move the level, which no board or
chance sees."""


class FinalMean(Scored):
    """The score model, predicting as it does, whose leaderboard at a checkpoint re-runs
    it over every game so far with each total counted against the league's mean as it
    stands (per table size and hands, over all those games) instead of the running mean
    of the games before it: the first games of a season are measured against a rough
    figure. Meant for Bluke: a model against the table has no mean, and re-runs alike."""

    def __init__(self, *, board: str = "ordinal") -> None:
        super().__init__(FINAL_MEAN[:-1] + (", mu]" if board == "mu" else "]"), board=board)

    def start(self, league: League) -> None:
        super().start(league)
        self.rated: list[Game] = []

    def update(self, game: Game) -> None:
        super().update(game)
        self.rated.append(game)

    def board(self) -> dict[int, float]:
        final = self.means  # every game rated so far counted in
        skill: dict[int, Skill] = {}
        last_night: dict[int, int] = {}
        for game in self.rated:
            before = [
                self.model.before_game(
                    skill[p], days_away=DAYS_BETWEEN_NIGHTS * (game.night - last_night[p])
                )
                if p in skill
                else self.model.new()
                for p in game.players
            ]
            expected = (
                final.expected(players=len(game.players), hands=game.hands)
                if self.model.against == "league"
                else None
            )
            rated = self.model.rate(
                before,
                game.totals,
                luck=luck_points(self.league.game, len(game.players), hands=game.hands),
                lower_is_better=self.league.lower_is_better,
                expected=expected,
            )
            for p, after in zip(game.players, rated, strict=True):
                skill[p] = after
                last_night[p] = game.night
        return {p: s.mu if self.by_mu else s.ordinal for p, s in skill.items()}


@dataclass
class Convergence:
    """One run of TrueSkill Through Time over a history: its size and cost."""

    games: int
    nights: int
    seconds: float
    passes: int


class ThroughTime:
    """TrueSkill Through Time (``trueskillthroughtime.History``) on one league, shared
    by its leaderboards (by mu - 3 sigma and by mu), which see the same posteriors.
    Each game is a ranked match by places, shared places drawn (:data:`TTT_DRAW`),
    each night one time step. Skills at a moment: each player's converged posterior
    at their latest night, widened by gamma for the nights since."""

    convergences: list[Convergence] = []
    """Every convergence run, over every league: the cost the report prints."""

    def __init__(self) -> None:
        import importlib

        # Not a dependency of the project: imported only when asked for.
        self.ttt: Any = importlib.import_module("trueskillthroughtime")
        self.league: League | None = None

    def start(self, league: League) -> None:
        if league is self.league:
            return
        self.league = league
        self.before_night: dict[int, dict[int, Skill]] = {}
        self.after_games: dict[int, dict[int, Skill]] = {}

    def _skills(self, games: Sequence[Game], now: int) -> dict[int, Skill]:
        """The converged skills after ``games``, as they stand at night ``now``."""
        if not games:
            return {}
        assert self.league is not None
        started = time.perf_counter()
        # Each game's players listed by place, winner first: trueskillthroughtime 1.1.0
        # hands a game of three or more its likelihoods back in the order of the places
        # as if they were in the order of the teams (``Game.likelihood_teams`` indexes by
        # the sorting permutation, not its inverse), so a game whose teams are not
        # listed in order credits the wrong players; in order (shared places in
        # reverse, an involution) the two orders are the same.
        ordered = [sorted(zip(g.places, g.players, strict=True)) for g in games]
        history = self.ttt.History(
            [[[p] for _, p in seats] for seats in ordered],
            [[-place for place, _ in seats] for seats in ordered],  # higher is better
            [g.night for g in games],
            mu=TTT_MU,
            sigma=TTT_SIGMA,
            beta=TTT_BETA,
            gamma=TTT_GAMMA,
            p_draw=TTT_DRAW[self.league.game],
        )
        _, passes = history.convergence(
            epsilon=TTT_EPSILON, iterations=TTT_ITERATIONS, verbose=False
        )
        skills = {}
        for player, curve in history.learning_curves().items():
            night, posterior = curve[-1]
            sigma = math.sqrt(posterior.sigma**2 + TTT_GAMMA**2 * (now - night))
            skills[player] = Skill(posterior.mu, sigma)
        seconds = time.perf_counter() - started
        nights = len({g.night for g in games})
        ThroughTime.convergences.append(Convergence(len(games), nights, seconds, passes))
        return skills

    def before(self, night: int) -> dict[int, Skill]:
        """The skills at the start of ``night``, from every game before it."""
        if night not in self.before_night:
            assert self.league is not None
            games = [g for g in self.league.games if g.night < night]
            self.before_night[night] = self._skills(games, night)
        return self.before_night[night]

    def after(self, count: int) -> dict[int, Skill]:
        """The skills after the league's first ``count`` games."""
        if count not in self.after_games:
            assert self.league is not None
            games = self.league.games[:count]
            self.after_games[count] = self._skills(games, games[-1].night if games else 0)
        return self.after_games[count]


class ThroughTimeBoard(Rater):
    """A leaderboard of :class:`ThroughTime`: chances of the best performance (as the
    score model's, performances N(mu, sigma² + beta²)), predicted from the skills at
    the start of the night, so a night's later rounds are predicted without its earlier
    ones."""

    def __init__(self, engine: ThroughTime, *, board: str = "ordinal") -> None:
        self.engine = engine
        self.by_mu = board == "mu"
        self.name = f"{TTT} ({'mu' if self.by_mu else 'mu - 3 sigma'})"  # TrueSkill Through Time
        self.chances = ScoreModel(beta=TTT_BETA)

    def start(self, league: League) -> None:
        super().start(league)
        self.engine.start(league)
        self.count = 0

    def _value(self, skill: Skill) -> float:
        return skill.mu if self.by_mu else skill.ordinal

    def predict(self, game: Game) -> tuple[list[float] | None, list[float]]:
        known = self.engine.before(game.night)
        skills = [known.get(p, Skill(TTT_MU, TTT_SIGMA)) for p in game.players]
        return self.chances.win_chances(skills), [self._value(s) for s in skills]

    def update(self, game: Game) -> None:
        self.count += 1

    def board(self) -> dict[int, float]:
        return {p: self._value(s) for p, s in self.engine.after(self.count).items()}


@dataclass(frozen=True)
class Variant:
    """One more score model to run: its ``label``, constants and leaderboard order."""

    label: str
    changes: dict[str, Any]
    board: str = "excess"
    cards: str = ""
    shift: float = 0.0
    prior: bool = False


def make_raters(
    changes: dict[str, Any] | None = None,
    variants: Sequence[Variant] = (),
    extras: Sequence[str] = (),
    game: str | None = None,
) -> list[Rater]:
    """Every rater: the uniform guess, the baselines, then the score model (the
    league's, with ``changes``) and its ``variants``, then the ``extras`` (:data:`EXTRAS`;
    ``rerun`` only for Bluke ``game``)."""
    raters: list[Rater] = [Uniform(), Average("points"), Average("place"), Elo()]
    raters += [OpenSkill(name) for name in OPENSKILL]
    raters.append(Scored(SCORE_MODEL, changes))
    raters += [
        Scored(
            f"{SCORE_MODEL} [{v.label}]",
            (changes or {}) | v.changes,
            board=v.board,
            cards=v.cards,
            shift=v.shift,
            prior=v.prior,
        )
        for v in variants
    ]
    if "rerun" in extras and game == "bluke":
        raters += [FinalMean(board=board) for board in ("ordinal", "mu")]
    if "par" in extras:
        raters += [NetAverage(bot) for bot in PAR_BOTS]
        raters += [Scored(f"{SCORE_MODEL} [par, {bot}]", changes, par=bot) for bot in PAR_BOTS]
    if "ttt" in extras:
        engine = ThroughTime()
        raters += [ThroughTimeBoard(engine, board=board) for board in ("ordinal", "mu")]
    return raters


def is_candidate(name: str) -> bool:
    """Whether ``name`` is a rater measured against the baselines (the score model, its
    variants, the extras), not a baseline."""
    return name.startswith((SCORE_MODEL, TTT, NET_AVERAGE))


def parse_variant(text: str) -> Variant:
    """``"beta=3,idle=0"``: the league's model of the game with those constants;
    ``board=mu`` (or another of :data:`BOARDS`) orders its leaderboard so;
    ``against=table`` or ``against=league`` says what a total counts against;
    ``cards=named`` or ``cards=dealt`` rates Buck Euchre totals less what the cards
    were worth (:data:`CARD_FEATURES`); ``shift=K`` counts the league's mean as known to
    ``K beta² / totals`` (:func:`rate_with_mean_unsure`); ``prior=club`` starts each
    player from the club-wide rating of the games before the league (``--previous``)."""
    names = {f.name for f in fields(ScoreModel)}
    changes: dict[str, Any] = {}
    board = "excess"
    cards = ""
    shift = 0.0
    prior = False
    for part in text.split(","):
        key, _, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if key == "board" and value in BOARDS:
            board = value
        elif key == "cards" and value in CARD_FEATURES:
            cards = value
        elif key == "shift" and _positive(value):
            shift = float(value)
        elif key == "prior" and value == "club":
            prior = True
        elif key == "against" and value in ("table", "league"):
            changes[key] = value
        elif key in names - {"against"} and value:
            changes[key] = float(value)
        else:
            raise ValueError(
                f"a variant is KEY=VALUE,... with KEY in {sorted(names)} (against=table or "
                f"against=league), board={'|'.join(BOARDS)}, "
                f"cards={'|'.join(CARD_FEATURES)}, shift=K (K > 0) or prior=club: {text!r}"
            )
    parts = [f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in changes.items()]
    if board != "excess":
        parts.append(f"board={board}")
    if cards:
        parts.append(f"cards={cards}")
    if shift:
        parts.append(f"shift={shift:g}")
    if prior:
        parts.append("prior=club")
    return Variant(" ".join(parts), changes, board, cards, shift, prior)


def _positive(text: str) -> bool:
    try:
        return float(text) > 0
    except ValueError:
        return False


# -- the measurements ---------------------------------------------------------------------------


def inversions(board: dict[int, float], p: Sequence[float], games: dict[int, int]) -> float | None:
    """The share of pairs (both with :data:`SETTLED` games, different truths) that the
    board puts weaker above stronger, a board tie counting half; ``None`` without pairs."""
    settled = sorted(q for q in board if games.get(q, 0) >= SETTLED)
    wrong = 0.0
    pairs = 0
    for a, b in combinations(settled, 2):
        if p[a] == p[b]:
            continue
        pairs += 1
        stronger, weaker = (a, b) if p[a] < p[b] else (b, a)
        if board[weaker] > board[stronger]:
            wrong += 1
        elif board[weaker] == board[stronger]:
            wrong += 0.5
    return wrong / pairs if pairs else None


@dataclass
class Figures:
    """One rater's figures on one league at one checkpoint."""

    tau: float
    log_loss: float | None
    top1: float
    inversions: float | None


def evaluate(rater: Rater, league: League) -> list[Figures]:
    """``rater`` through the league's games; its figures at each checkpoint."""
    rater.start(league)
    played: dict[int, int] = {}
    loss = 0.0
    top1 = 0.0
    out: list[Figures] = []
    pending = list(league.checkpoints)
    for index, game in enumerate(league.games, start=1):
        chances, strengths = rater.predict(game)
        winners = [i for i, place in enumerate(game.places) if place == 1]
        if chances is not None:
            loss += sum(-math.log(max(chances[i], 1e-15)) for i in winners) / len(winners)
        favour = chances if chances is not None else strengths
        best = max(favour)
        favourites = [i for i, f in enumerate(favour) if f >= best - 1e-12]
        top1 += sum(i in winners for i in favourites) / len(favourites)
        rater.update(game)
        for p in game.players:
            played[p] = played.get(p, 0) + 1
        while pending and pending[0].games == index:
            checkpoint = pending.pop(0)
            board = rater.board()
            rated = sorted(board)
            out.append(
                Figures(
                    tau=kendall_tau_b([board[q] for q in rated], [-checkpoint.p[q] for q in rated]),
                    log_loss=loss / index if rater.probabilistic else None,
                    top1=top1 / index,
                    inversions=inversions(board, checkpoint.p, played),
                )
            )
    return out


def mean(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


@dataclass
class Result:
    """A configuration's figures, averaged over its leagues: ``figures[rater][k]`` at
    checkpoint ``k``, each field the mean over the seeds (``None`` where undefined);
    ``per_seed[rater][s][k]`` the same figures on the league of the ``s``-th seed, for
    the paired differences (:func:`paired`)."""

    game: str
    seating: str
    mechanism: str
    figures: dict[str, list[Figures]]
    games: int
    incomplete: int
    seconds_playing: float
    seconds_rating: float
    per_seed: dict[str, list[list[Figures]]] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.game}/{self.seating}/{self.mechanism}"


@dataclass
class SeedRun:
    """Every rater's figures on one league (one seed) of a configuration."""

    figures: dict[str, list[Figures]]
    games: int
    incomplete: int
    seconds_playing: float
    seconds_rating: float


def run_seed(
    game: str,
    seating: str,
    mechanism: str,
    seed: int,
    raters: Sequence[Rater],
    *,
    players: int = PLAYERS,
    checkpoints: Sequence[float] = CHECKPOINTS,
    weakest: float = WEAKEST,
    pars: bool = False,
    cards: bool = False,
    previous: float = 0.0,
) -> SeedRun:
    """Every rater on the league of one seed of a configuration (``previous``: the
    players' games in the club before it, :func:`make_league`)."""
    started = time.perf_counter()
    league = make_league(
        game,
        seating,
        mechanism,
        seed,
        players=players,
        checkpoints=checkpoints,
        weakest=weakest,
        pars=pars,
        cards=cards,
        previous=previous,
    )
    playing = time.perf_counter() - started
    started = time.perf_counter()
    figures = {rater.name: evaluate(rater, league) for rater in raters}
    return SeedRun(
        figures,
        len(league.games),
        sum(not g.complete for g in league.games),
        playing,
        time.perf_counter() - started,
    )


def combine(game: str, seating: str, mechanism: str, runs: Sequence[SeedRun]) -> Result:
    """A configuration's :class:`Result` from its leagues, in the order of the seeds."""
    names = list(runs[0].figures)
    per_seed = {name: [run.figures[name] for run in runs] for name in names}
    checkpoints = len(runs[0].figures[names[0]]) if names else 0
    figures = {
        name: [
            Figures(
                tau=mean([league[k].tau for league in leagues]) or 0.0,
                log_loss=mean([league[k].log_loss for league in leagues]),
                top1=mean([league[k].top1 for league in leagues]) or 0.0,
                inversions=mean([league[k].inversions for league in leagues]),
            )
            for k in range(checkpoints)
        ]
        for name, leagues in per_seed.items()
    }
    return Result(
        game,
        seating,
        mechanism,
        figures,
        sum(r.games for r in runs),
        sum(r.incomplete for r in runs),
        sum(r.seconds_playing for r in runs),
        sum(r.seconds_rating for r in runs),
        per_seed,
    )


def run_config(
    game: str,
    seating: str,
    mechanism: str,
    seeds: Sequence[int],
    raters: Sequence[Rater],
    *,
    players: int = PLAYERS,
    checkpoints: Sequence[float] = CHECKPOINTS,
    weakest: float = WEAKEST,
    pars: bool = False,
    cards: bool = False,
) -> Result:
    """Every rater on the leagues of one configuration, one league per seed (``pars``:
    with each game's pars; ``cards``: with each game's card features)."""
    runs = [
        run_seed(
            game,
            seating,
            mechanism,
            seed,
            raters,
            players=players,
            checkpoints=checkpoints,
            weakest=weakest,
            pars=pars,
            cards=cards,
        )
        for seed in seeds
    ]
    return combine(game, seating, mechanism, runs)


# -- paired differences --------------------------------------------------------------------------

T_975: dict[int, float] = {
    1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
    9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
    17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 25: 2.060, 30: 2.042,
}  # fmt: skip
"""Student's t, the 0.975 quantile, by degrees of freedom (from the tables)."""


def t_975(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom: the table's
    value, else the next smaller df in it (a slightly wider interval), and past 30 the
    Cornish-Fisher expansion about the normal's 1.95996 (within 0.001 there).

    >>> t_975(9), t_975(22), round(t_975(60), 3)
    (2.262, 2.086, 2.0)
    """
    if df < 1:
        raise ValueError("a t-interval needs two seeds or more")
    if df <= 30:
        return T_975[max(k for k in T_975 if k <= df)]
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


VERDICTS = ("at least", "within noise", "behind")
"""A cell's verdict: the candidate's mean at least the best baseline's; behind it on
the mean, but the 95% interval of the difference holds 0; behind, the interval too."""


@dataclass(frozen=True)
class Paired:
    """The candidate's figure minus the best baseline's (``rival``, best by the mean over
    the seeds), seed by seed on the same leagues: the mean difference and its 95%
    t-interval over the seeds, signed so that above 0 is better for the candidate."""

    rival: str
    candidate: float
    best: float
    difference: float
    low: float
    high: float
    seeds: int

    @property
    def verdict(self) -> str:
        if self.difference >= 0:
            return VERDICTS[0]
        return VERDICTS[1] if self.high >= 0 else VERDICTS[2]


def interval(differences: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``differences`` and its 95% t-interval (``low``, ``high``).

    >>> interval([0.01, 0.03, -0.01, 0.05])  # mean 0.02, sd 0.0258, t(3) 3.182
    (0.02, -0.021, 0.061)
    """
    n = len(differences)
    average = sum(differences) / n
    if n < 2:
        return average, -math.inf, math.inf
    variance = sum((d - average) ** 2 for d in differences) / (n - 1)
    half = t_975(n - 1) * math.sqrt(variance / n)
    return round(average, 12), round(average - half, 3), round(average + half, 3)


def paired(result: Result, candidate: str, k: int, figure: str) -> Paired | None:
    """``candidate`` against the best baseline of the configuration at checkpoint ``k``
    on ``figure``: ``"tau"`` (higher is better; every baseline) or ``"log_loss"`` (lower
    is better; the probabilistic baselines, the uniform guess among them); ``None``
    where the candidate or every baseline lacks the figure."""
    baselines = [n for n in result.figures if not is_candidate(n)]
    lower = figure == "log_loss"
    known = {n: v for n in baselines if (v := getattr(result.figures[n][k], figure)) is not None}
    ours = getattr(result.figures[candidate][k], figure)
    if ours is None or not known:
        return None
    rival = (min if lower else max)(known, key=lambda n: known[n])
    sign = -1.0 if lower else 1.0
    differences = [
        sign * (getattr(mine[k], figure) - getattr(theirs[k], figure))
        for mine, theirs in zip(result.per_seed[candidate], result.per_seed[rival], strict=True)
    ]
    difference, low, high = interval(differences)
    return Paired(rival, ours, known[rival], difference, low, high, len(differences))


# -- the report ---------------------------------------------------------------------------------


def shown(value: float | None, digits: int = 3) -> str:
    return NO_FIGURE if value is None else f"{value:.{digits}f}"


def print_result(result: Result, checkpoints: Sequence[float]) -> None:
    last = f"@{checkpoints[-1]:g}"
    print(
        f"\n{result.game} / {result.seating} / {result.mechanism}: {result.games} games"
        + (f" ({result.incomplete} stopped unfinished)" if result.incomplete else "")
        + f"; {result.seconds_playing:.1f} s playing, {result.seconds_rating:.1f} s rating"
    )
    taus = " ".join(f"{'tau @' + format(c, 'g'):>8}" for c in checkpoints)
    print(f"  {'rater':32} {taus} {'log-loss ' + last:>12} {'top-1 ' + last:>9} {'inv ' + last:>8}")
    for name, figures in result.figures.items():
        final = figures[-1]
        print(
            f"  {name:32} "
            + " ".join(f"{f.tau:8.3f}" for f in figures)
            + f" {shown(final.log_loss, 4):>12} {final.top1:9.3f} {shown(final.inversions):>8}"
        )


def print_means(results: Sequence[Result], checkpoints: Sequence[float]) -> None:
    """Each rater's figures averaged over all the configurations run."""
    if not results:
        return
    last = f"@{checkpoints[-1]:g}"
    print(f"\nMeans over the {len(results)} configurations")
    taus = " ".join(f"{'tau @' + format(c, 'g'):>8}" for c in checkpoints)
    print(f"  {'rater':32} {taus} {'log-loss ' + last:>12} {'top-1 ' + last:>9} {'inv ' + last:>8}")
    names = list(dict.fromkeys(name for r in results for name in r.figures))
    for name in names:
        # a rater run in some configurations only (``--extra rerun``: Bluke's) over those
        runs = [r.figures[name] for r in results if name in r.figures]
        print(
            f"  {name:32} "
            + " ".join(
                f"{mean([f[k].tau for f in runs]) or 0.0:8.3f}" for k in range(len(checkpoints))
            )
            + f" {shown(mean([f[-1].log_loss for f in runs]), 4):>12}"
            + f" {mean([f[-1].top1 for f in runs]) or 0.0:9.3f}"
            + f" {shown(mean([f[-1].inversions for f in runs])):>8}"
        )


def print_summary(
    results: Sequence[Result], checkpoints: Sequence[float], candidate: str = SCORE_MODEL
) -> None:
    """``candidate`` (the score model unless told) against the best baseline in each
    configuration, and how often it is at least as good, checkpoint by checkpoint."""
    results = [r for r in results if candidate in r.figures]
    if not results:
        return
    baselines = [n for n in results[0].figures if not is_candidate(n)]
    if not baselines:
        return
    print(
        f"\nSummary: {candidate} (ours) against the best baseline (best) of each "
        "configuration: tau-b at each checkpoint, then log-loss against the best "
        "probabilistic baseline"
    )
    header = " ".join(f"{'tau @' + format(c, 'g') + ' ours/best':>20}" for c in checkpoints)
    print(f"  {'configuration':34} {header}  {'best @' + format(checkpoints[-1], 'g'):26}"
          f" {'log-loss @' + format(checkpoints[-1], 'g') + ' ours/best':>28}")  # fmt: skip
    tau_ok = [0] * len(checkpoints)
    loss_ok = [0] * len(checkpoints)
    for r in results:
        cells = []
        best_name = ""
        for k in range(len(checkpoints)):
            ours = r.figures[candidate][k]
            best_name = max(baselines, key=lambda n: r.figures[n][k].tau)
            best = r.figures[best_name][k].tau
            tau_ok[k] += ours.tau >= best
            cells.append(f"{ours.tau:6.3f} / {best:6.3f}{' ' if ours.tau >= best else '<'}")
            known = {n: v for n in baselines if (v := r.figures[n][k].log_loss) is not None}
            if ours.log_loss is not None and known:
                loss_ok[k] += ours.log_loss < min(known.values())
        final = r.figures[candidate][-1].log_loss
        known = {n: v for n in baselines if (v := r.figures[n][-1].log_loss) is not None}
        rival = min(known, key=lambda n: known[n]) if known else None
        loss = f"{shown(final, 4)} / {known[rival]:.4f} {rival}" if rival is not None else NO_FIGURE
        print(
            f"  {r.game + '/' + r.seating + '/' + r.mechanism:34} "
            + " ".join(f"{c:>20}" for c in cells)
            + f"  {best_name:26} {loss:>28}"
        )
    count = len(results)
    for k, checkpoint in enumerate(checkpoints):
        print(
            f"  @{checkpoint:g} games per player: tau-b >= the best baseline's in "
            f"{tau_ok[k]}/{count} configurations ({'all' if tau_ok[k] == count else 'not all'});"
            f" log-loss below every probabilistic baseline's in {loss_ok[k]}/{count}"
            f" ({'all' if loss_ok[k] == count else 'not all'})"
        )


MARKS = {"at least": " ", "within noise": "~", "behind": "<"}
"""How the target table marks a cell's verdict (:data:`VERDICTS`)."""


def print_target(
    results: Sequence[Result], checkpoints: Sequence[float], candidate: str = SCORE_MODEL
) -> dict[str, list[list[str]]]:
    """The target, cell by cell: ``candidate``'s tau-b and log-loss at each checkpoint
    minus the best baseline's, paired over the seeds, with 95% t-intervals, and each
    cell's verdict (:data:`VERDICTS`; marked by :data:`MARKS`); then the verdicts
    counted per checkpoint. Returns the verdicts by figure, configuration and checkpoint."""
    results = [r for r in results if candidate in r.figures]
    verdicts: dict[str, list[list[str]]] = {"tau": [], "log_loss": []}
    if not results:
        return verdicts
    seeds = len(next(iter(results[0].per_seed.values())))
    print(
        f"\nTarget: {candidate} minus the best baseline, paired over {seeds} seeds "
        "(the same leagues), mean [95% t-interval]; log-loss signed so that above 0 is "
        "lower (better) than the best probabilistic baseline's; ~ within noise, < behind"
    )
    for figure, title in (("tau", "tau-b"), ("log_loss", "log-loss")):
        header = " ".join(f"{title + ' @' + format(c, 'g'):>27}" for c in checkpoints)
        print(f"  {'configuration':34} {header}  best baseline @{checkpoints[-1]:g}")
        for r in results:
            cells = []
            row = []
            rival = ""
            for k in range(len(checkpoints)):
                pair = paired(r, candidate, k, figure)
                if pair is None:
                    cells.append(f"{NO_FIGURE:>27}")
                    row.append("")
                    continue
                row.append(pair.verdict)
                rival = pair.rival
                cells.append(
                    f"{pair.difference:+.3f} [{pair.low:+.3f}, {pair.high:+.3f}]"
                    f"{MARKS[pair.verdict]}".rjust(27)
                )
            verdicts[figure].append(row)
            print(f"  {r.label:34} " + " ".join(cells) + f"  {rival}")
    for figure, title in (("tau", "tau-b"), ("log_loss", "log-loss")):
        for k, checkpoint in enumerate(checkpoints):
            column = [row[k] for row in verdicts[figure] if row[k]]
            counts = ", ".join(f"{column.count(v)} {v}" for v in VERDICTS)
            print(f"  {title} @{checkpoint:g}: {counts} (of {len(column)})")
    return verdicts


def print_target_counts(
    results: Sequence[Result], checkpoints: Sequence[float], candidates: Sequence[str]
) -> None:
    """Each candidate's verdicts (:func:`print_target`) counted: ``at least/within
    noise/behind`` per checkpoint, tau-b then log-loss; the mean tau-b difference."""
    if not candidates:
        return
    print("\nTarget counts (at least / within noise / behind) for every candidate")
    header = " ".join(f"{'tau @' + format(c, 'g'):>9}" for c in checkpoints)
    losses = " ".join(f"{'loss @' + format(c, 'g'):>9}" for c in checkpoints)
    print(f"  {'candidate':44} {header} {losses}  mean tau difference")
    for name in candidates:
        mine = [r for r in results if name in r.figures]
        cells = []
        means = []
        for figure in ("tau", "log_loss"):
            for k in range(len(checkpoints)):
                pairs = [p for r in mine if (p := paired(r, name, k, figure)) is not None]
                counts = [sum(p.verdict == v for p in pairs) for v in VERDICTS]
                cells.append("/".join(map(str, counts)).rjust(9))
                if figure == "tau":
                    means.append(mean([p.difference for p in pairs]))
        print(f"  {name:44} " + " ".join(cells) + "  " + " ".join(shown(m) for m in means))


def print_ttt_cost() -> None:
    """What TrueSkill Through Time's convergences cost, over every league run."""
    runs = ThroughTime.convergences
    if not runs:
        return
    seasons: dict[int, list[Convergence]] = {}
    for c in runs:
        seasons.setdefault(c.games // 20, []).append(c)
    print(
        f"\nTrueSkill Through Time: {len(runs)} convergences, "
        f"{sum(c.seconds for c in runs):.1f} s in all; by the games in the history "
        "(mean seconds, passes, microseconds per game per pass):"
    )
    for bucket in sorted(seasons):
        group = seasons[bucket]
        games = sum(c.games for c in group) / len(group)
        seconds = sum(c.seconds for c in group) / len(group)
        passes = sum(c.passes for c in group) / len(group)
        print(
            f"  {bucket * 20:>4}-{bucket * 20 + 19:<4} games ({len(group):>4} runs): "
            f"{seconds:6.3f} s, {passes:4.1f} passes, "
            f"{1e6 * seconds / (games * passes):5.0f} us"
        )


def select_raters(
    changes: dict[str, Any],
    variants: Sequence[Variant],
    extras: Sequence[str],
    game: str,
    only: Sequence[str],
) -> list[Rater]:
    """:func:`make_raters`, keeping those whose name holds one of the words ``only``."""
    return [
        r
        for r in make_raters(changes, variants, extras, game)
        if not only or any(w.lower() in r.name.lower() for w in only)
    ]


@dataclass(frozen=True)
class Task:
    """One league to play and rate: what :func:`run` hands a worker process."""

    game: str
    seating: str
    mechanism: str
    seed: int
    changes: dict[str, Any]
    variants: tuple[Variant, ...]
    extras: tuple[str, ...]
    only: tuple[str, ...]
    players: int
    checkpoints: tuple[float, ...]
    previous: float = 0.0

    def __call__(self) -> SeedRun:
        raters = select_raters(self.changes, self.variants, self.extras, self.game, self.only)
        return run_seed(
            self.game,
            self.seating,
            self.mechanism,
            self.seed,
            raters,
            players=self.players,
            checkpoints=self.checkpoints,
            pars="par" in self.extras,
            cards=any(v.cards for v in self.variants),
            previous=self.previous,
        )


def _run_task(task: Task) -> SeedRun:
    return task()


def run(args: argparse.Namespace) -> list[Result]:
    """Every configuration the arguments select; prints the report."""
    checkpoints = sorted(args.checkpoints)
    changes = {
        name: getattr(args, name)
        for name in ("mu", "sigma", "beta", "tau", "idle")
        if getattr(args, name) is not None
    }
    variants = [parse_variant(v) for v in args.variant]
    shown_models = ", ".join(f"{game} {replace(model_for(game), **changes)}" for game in args.games)
    seeds = list(range(args.seed_from, args.seed_from + args.seeds))
    print(
        f"{args.players} players, checkpoints {', '.join(f'{c:g}' for c in checkpoints)} "
        f"games per player, seeds {seeds[0]}..{seeds[-1]}; {SCORE_MODEL}: {shown_models}"
    )
    started = time.perf_counter()
    configs = [
        (game, seating, mechanism)
        for game in args.games
        for seating in args.seatings
        for mechanism in MECHANISMS[game]
        if mechanism in args.mechanisms
    ]
    tasks = [
        Task(
            game,
            seating,
            mechanism,
            seed,
            changes,
            tuple(variants),
            tuple(args.extra),
            tuple(args.only),
            args.players,
            tuple(checkpoints),
            args.previous,
        )
        for game, seating, mechanism in configs
        for seed in seeds
    ]
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            runs = pool.map(_run_task, tasks, chunksize=1)
    else:
        runs = [task() for task in tasks]
    results = []
    for index, (game, seating, mechanism) in enumerate(configs):
        mine = runs[index * len(seeds) : (index + 1) * len(seeds)]
        result = combine(game, seating, mechanism, mine)
        print_result(result, checkpoints)
        results.append(result)
    print_means(results, checkpoints)
    print_summary(results, checkpoints)
    extras = list(
        dict.fromkeys(
            name
            for r in results
            for name in r.figures
            if name.startswith((FINAL_MEAN[:-1], TTT, NET_AVERAGE, f"{SCORE_MODEL} [par"))
        )
    )
    for name in extras:
        print_summary(results, checkpoints, name)
    if len(seeds) >= 2:
        print_target(results, checkpoints)
        candidates = [
            name
            for name in dict.fromkeys(n for r in results for n in r.figures)
            if is_candidate(name)
        ]
        print_target_counts(results, checkpoints, candidates)
        for name in candidates:
            if name != SCORE_MODEL and any(w.lower() in name.lower() for w in args.show):
                print_target(results, checkpoints, name)
    if "ttt" in args.extra and args.jobs == 1:
        print_ttt_cost()
    playing = sum(r.seconds_playing for r in results)
    rating = sum(r.seconds_rating for r in results)
    print(
        f"\n{time.perf_counter() - started:.1f} s in all ({args.jobs} process"
        f"{'es' if args.jobs > 1 else ''}): {playing:.1f} s playing "
        f"{sum(r.games for r in results)} games, {rating:.1f} s rating (CPU seconds)"
    )
    return results


def extras_of(text: str) -> list[str]:
    """``"ttt,rerun"``: the :data:`EXTRAS` named."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [n for n in names if n not in EXTRAS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown extras {unknown}; known: {', '.join(EXTRAS)}")
    return names


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    out.add_argument(
        "--seeds", type=int, default=SEEDS,
        help=f"leagues per configuration, seeds 1..N ({SEEDS}): the target's paired intervals",
    )  # fmt: skip
    out.add_argument(
        "--show", nargs="+", default=[], metavar="NAME",
        help="print the target table of every candidate whose name holds one of these too",
    )  # fmt: skip
    out.add_argument(
        "--previous", type=float, default=0.0, metavar="GAMES",
        help="each league's players first play GAMES each in another league of the club "
        "(0): what a variant's prior=club starts from",
    )  # fmt: skip
    out.add_argument(
        "--seed-from", type=int, default=1, metavar="K",
        help="the first seed (1): seeds K..K+N-1, for leagues the constants were not chosen on",
    )  # fmt: skip
    out.add_argument(
        "--jobs", type=int, default=1,
        help="worker processes, one league at a time each (1); the figures are the same",
    )  # fmt: skip
    out.add_argument("--players", type=int, default=PLAYERS, help=f"per league ({PLAYERS})")
    out.add_argument(
        "--checkpoints", type=float, nargs="+", default=list(CHECKPOINTS),
        help="mean games per player to measure at (6 12 30); the season ends at the last",
    )  # fmt: skip
    out.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    out.add_argument("--seatings", nargs="+", choices=SEATINGS, default=list(SEATINGS))
    out.add_argument(
        "--mechanisms", nargs="+", choices=ALL_MECHANISMS, default=list(ALL_MECHANISMS)
    )
    out.add_argument(
        "--only", nargs="+", default=[], metavar="NAME",
        help="keep the raters whose name contains one of these (case-insensitive)",
    )  # fmt: skip
    for name in ("mu", "sigma", "beta", "tau", "idle"):
        out.add_argument(
            f"--{name}", type=float, help=f"{SCORE_MODEL}: instead of the league's model's"
        )
    out.add_argument(
        "--variant", action="append", default=[], metavar="K=V,...",
        help="another score model with these constants changed (repeatable)",
    )  # fmt: skip
    out.add_argument(
        "--extra", type=extras_of, default=[], metavar="NAME,...",
        help="more raters: ttt (TrueSkill Through Time; needs trueskillthroughtime), "
        "rerun (the score model re-run against the final league mean; Bluke) and par "
        "(the average and the score model on totals net of par)",
    )  # fmt: skip
    out.add_argument(
        "--tiny", action="store_true", help="the CI run: 8 players, checkpoints 3 6, 2 seeds"
    )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    cli = parser()
    args = cli.parse_args(argv)
    if args.tiny:
        args.players, args.checkpoints, args.seeds = 8, [3.0, 6.0], 2
    if args.jobs < 1:
        cli.error("needs --jobs >= 1")
    if args.seeds < 1 or args.players < 4 or not args.checkpoints or min(args.checkpoints) <= 0:
        cli.error("needs --seeds >= 1, --players >= 4 and checkpoints above 0")
    try:
        for text in args.variant:
            parse_variant(text)
    except ValueError as error:
        cli.error(str(error))
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
