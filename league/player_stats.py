"""What a player's page says about their games of one kind (Bluke, or Buck Euchre),
worked out from rows already read: head-to-head against each opponent, the rival and
the nemesis, the best win, streaks, form, personal bests and the game's own figures.

Pure Python (the engine aside, which judges a drop from a hand's cards): the
selector :mod:`league.selectors.player_stats` reads the rows in a fixed number of
queries and hands them here, so every figure is tested from rows worked out by hand,
without a database. ``docs/web.md`` defines each figure for the club's members.

The rows, in the order the games were played (the order the ratings count them):

- :class:`GamePlayed`: each game of the player that counts (complete, confirmed where
  the league asks it), with their seat, place, final total and what their seating
  keeps of their hand lines (``Seating.hands`` and the rest, counted once when the
  game was completed), and for Bluke the cards dealt in each hand;
- :class:`Tablemate`: everyone else seated at those games, with their place and total;
- :class:`DroppedHand`: hands entered card by card in which the player dropped
  (Buck Euchre), the latest first, at most :data:`DROPS_JUDGED`;
- ``rated_before``: each player's rating (the leaderboard's cautious figure) before
  each game the player won, by (table, player), for the best win.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from games import BuckEuchre, Card, RecordError, Suit, replay_tricks

NEMESIS_MIN_GAMES: Final = 3
"""The games together an opponent needs before they can be a nemesis: fewer, and one
unlucky night would make one."""
HEAD_TO_HEAD_SHOWN: Final = 10
"""Opponents listed before "show all"."""
FORM_NIGHTS: Final = 5
"""The game nights the form shows."""
DROPS_JUDGED: Final = 200
"""The latest drops entered card by card that are judged (each a replay of the hand
by the engine): enough for a fair share, bounded so that the page stays fast."""
BLUKE: Final = "bluke"
BUCK_EUCHRE: Final = "buck_euchre"


class GamePlayed(NamedTuple):
    """One game of the player that counts."""

    table_id: int
    event_id: int
    event_name: str
    date: datetime.date
    league_id: int
    league_name: str
    round_number: int
    table_number: int
    players: int
    """The players at the table."""
    seat: int
    place: int
    total: int
    hands: int = 0
    """The hands played (as the seating counts them, like the counts below)."""
    bids_made: int = 0
    overtricks: int = 0
    bucked_as_maker: int = 0
    bucked_as_player: int = 0
    drops: int = 0
    made_trump: int | None = None
    """Buck Euchre: the hands in which the player made trump (``None``: not counted)."""
    bids_made_hands: int | None = None
    """Bluke: the hands whose bid the player made, as bits: bit n for hand n, from 0
    (``None``: not counted)."""
    sizes: tuple[int, ...] = ()
    """Bluke: the cards dealt in each hand, from the first (the game's schedule)."""

    @property
    def won(self) -> bool:
        """First place, shared or not (as the standings count wins)."""
        return self.place == 1

    @property
    def top_half(self) -> bool:
        """A place in the top half of the table: first or second of four or five,
        first of two or three."""
        return self.place * 2 <= self.players


class Tablemate(NamedTuple):
    """Another player's seat at one of the player's games."""

    table_id: int
    player_id: int
    name: str
    place: int
    total: int


@dataclass(frozen=True)
class DroppedHand:
    """A hand entered card by card in which the player dropped out."""

    seat: int
    dealer: int
    trump: str
    """The hand's trump as stored: a suit's letter, empty for no trump."""
    record: Mapping[str, object]
    """The hand's record, as stored (a move log: it has the deal and the plays)."""


@dataclass(frozen=True)
class HeadToHead:
    """The player against one opponent, over the games they sat at together."""

    player_id: int
    name: str
    games: int
    ahead: int
    """Games in which the player finished ahead of the opponent (a better place)."""
    behind: int
    """Games in which the opponent finished ahead."""
    level: int
    """Games in which they shared a place."""
    points: int
    """The player's final totals less the opponent's, summed over the games."""
    last_met: int
    """The position of their latest game together in the player's games."""

    @property
    def points_a_game(self) -> float:
        """The points difference a game together (positive: the player scored more)."""
        return self.points / self.games

    @property
    def behind_share(self) -> float:
        return self.behind / self.games


@dataclass(frozen=True)
class Streak:
    """A run of games in a row that meet a test: the longest, and the current one
    (ending with the latest game; 0 when the latest game does not meet it)."""

    longest: int
    current: int


@dataclass(frozen=True)
class Night:
    """A game night of the player's form: their games of it in the order played."""

    event_id: int
    name: str
    date: datetime.date
    league_name: str
    games: tuple[GamePlayed, ...]

    @property
    def points(self) -> int:
        """The night's final totals added up."""
        return sum(game.total for game in self.games)


@dataclass(frozen=True)
class Opponent:
    """An opponent at the table of the best win, with their rating before it."""

    player_id: int
    name: str
    rating: float


@dataclass(frozen=True)
class BestWin:
    """The win against the strongest opponents: the highest mean rating, before the
    game, of the others at the table."""

    game: GamePlayed
    opponents: tuple[Opponent, ...]

    @property
    def strength(self) -> float:
        return sum(o.rating for o in self.opponents) / len(self.opponents)


@dataclass(frozen=True)
class HandSize:
    """Bluke: bids made at one hand size."""

    cards: int
    hands: int
    made: int


@dataclass(frozen=True)
class BlukeFigures:
    """Bluke's own figures, from the seatings' counts of their hand lines."""

    hands: int
    bids_made: int
    overtricks: int
    """Tricks over the bid, summed over the bids made."""
    by_size: tuple[HandSize, ...]
    """By the cards dealt, the smallest hand first."""
    bids_in_a_row: Streak


@dataclass(frozen=True)
class BuckFigures:
    """Buck Euchre's own figures, from the seatings' counts of their hand lines and
    from the move logs."""

    hands: int
    maker: int
    """Hands in which the player made trump."""
    maker_made: int
    """Of those, the hands in which they took 3 tricks or more."""
    bucked_as_maker: int
    bucked_as_player: int
    """Hands in which they stayed in, did not make trump and took no trick."""
    drops: int
    drops_judged: int
    """Drops whose hand was entered card by card and played out (at most the latest
    :data:`DROPS_JUDGED`)."""
    drops_right: int
    """Of those, the drops that were right: see :func:`drop_was_right`."""


@dataclass(frozen=True)
class GameStats:
    """Everything the page says about the player's games of one kind."""

    game: str
    played: tuple[GamePlayed, ...]
    head_to_head: tuple[HeadToHead, ...]
    """Most games together first, then the latest met, then by name."""
    rival: HeadToHead | None
    nemesis: HeadToHead | None
    best_win: BestWin | None
    wins: Streak
    top_half: Streak
    form: tuple[Night, ...]
    """The latest :data:`FORM_NIGHTS` game nights, the latest last."""
    best_total: GamePlayed | None
    """Bluke: the highest final total; Buck Euchre (which counts down): the lowest.
    The first game that reached it."""
    bluke: BlukeFigures | None
    buck: BuckFigures | None

    @property
    def games(self) -> int:
        return len(self.played)

    @property
    def won(self) -> int:
        return sum(game.won for game in self.played)


def game_stats(
    *,
    game: str,
    played: Sequence[GamePlayed],
    mates: Iterable[Tablemate],
    dropped: Iterable[DroppedHand] = (),
    rated_before: Mapping[tuple[int, int], float] | None = None,
) -> GameStats:
    """The player's figures for their ``game`` from the rows of its games.

    ``played`` is in the order played; ``mates`` may come in any order, and those of
    other games are left out. A game that the ratings have not reached yet (no
    ``rated_before`` for its players) is left out of the best win.
    """
    played = tuple(played)
    tables = {game_row.table_id for game_row in played}
    mates = [mate for mate in mates if mate.table_id in tables]
    head_to_head = head_to_head_of(played, mates)
    return GameStats(
        game=game,
        played=played,
        head_to_head=head_to_head,
        rival=head_to_head[0] if head_to_head else None,
        nemesis=nemesis_of(head_to_head),
        best_win=best_win_of(played, mates, rated_before or {}),
        wins=streak_of([game_row.won for game_row in played]),
        top_half=streak_of([game_row.top_half for game_row in played]),
        form=form_of(played),
        best_total=best_total_of(played, fewer_is_better=game == BUCK_EUCHRE),
        bluke=bluke_figures(played) if game == BLUKE else None,
        buck=buck_figures(played, dropped) if game == BUCK_EUCHRE else None,
    )


@dataclass(slots=True)
class _Met:
    """An opponent's head-to-head while it is counted."""

    name: str
    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0
    points: int = 0
    last_met: int = 0


def head_to_head_of(
    played: Sequence[GamePlayed], mates: Iterable[Tablemate]
) -> tuple[HeadToHead, ...]:
    """The player against each opponent: most games together first, then the one met
    latest, then by name.

    >>> day = datetime.date(2026, 1, 1)
    >>> games = [GamePlayed(t, 1, "N", day, 1, "L", 1, t, 3, 0, p, s)
    ...          for t, p, s in [(1, 1, 50), (2, 3, 10)]]
    >>> mates = [Tablemate(1, 7, "Bo", 2, 30), Tablemate(1, 8, "Cy", 3, 20),
    ...          Tablemate(2, 7, "Bo", 1, 40), Tablemate(2, 8, "Cy", 2, 30)]
    >>> [(h.name, h.games, h.ahead, h.behind, h.points) for h in head_to_head_of(games, mates)]
    [('Bo', 2, 1, 1, -10), ('Cy', 2, 1, 1, 10)]
    """
    own = {game.table_id: (index, game.place, game.total) for index, game in enumerate(played)}
    # one pass over the tablemates: a player of hundreds of games has a thousand
    found: dict[int, _Met] = {}
    for mate in mates:
        index, place, total = own[mate.table_id]
        met = found.get(mate.player_id)
        if met is None:
            met = found[mate.player_id] = _Met(mate.name)
        met.games += 1
        if place < mate.place:
            met.ahead += 1
        elif place > mate.place:
            met.behind += 1
        else:
            met.level += 1
        met.points += total - mate.total
        met.last_met = max(met.last_met, index)
    rows = [
        HeadToHead(
            player_id,
            met.name,
            met.games,
            met.ahead,
            met.behind,
            met.level,
            met.points,
            met.last_met,
        )
        for player_id, met in found.items()
    ]
    rows.sort(key=lambda row: (-row.games, -row.last_met, row.name, row.player_id))
    return tuple(rows)


def nemesis_of(head_to_head: Iterable[HeadToHead]) -> HeadToHead | None:
    """The opponent who finished ahead of the player in the largest share of their
    games together, among those met at least :data:`NEMESIS_MIN_GAMES` times, and only
    one who finished ahead in more than half of them; a tie goes to the one met more,
    then as :func:`head_to_head_of` orders them. ``None`` when nobody qualifies.

    >>> rows = [HeadToHead(1, "Ada", 6, 3, 3, 0, 0, 5), HeadToHead(2, "Bo", 4, 1, 3, 0, 0, 4),
    ...         HeadToHead(3, "Cy", 2, 0, 2, 0, 0, 3)]
    >>> nemesis_of(rows).name  # Ada: half, not more; Cy: too few games
    'Bo'
    """
    candidates = [
        row for row in head_to_head if row.games >= NEMESIS_MIN_GAMES and row.behind * 2 > row.games
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda row: (row.behind_share, row.games))


def best_win_of(
    played: Sequence[GamePlayed],
    mates: Iterable[Tablemate],
    rated_before: Mapping[tuple[int, int], float],
) -> BestWin | None:
    """The win whose opponents had the highest mean rating before it; of equals, the
    earliest. A win whose opponents' ratings are not all known (the ratings have not
    reached it yet) is passed over.

    >>> day = datetime.date(2026, 1, 1)
    >>> games = [GamePlayed(t, 1, "N", day, 1, "L", 1, t, 2, 0, 1, 9) for t in (1, 2, 3)]
    >>> mates = [Tablemate(t, 7, "Bo", 2, 0) for t in (1, 2, 3)]
    >>> best = best_win_of(games, mates, {(1, 7): 10.0, (2, 7): 12.5})
    >>> best.game.table_id, best.strength
    (2, 12.5)
    """
    at_table: dict[int, list[Tablemate]] = {}
    for mate in mates:
        at_table.setdefault(mate.table_id, []).append(mate)
    best: BestWin | None = None
    for game in played:
        others = at_table.get(game.table_id, [])
        if not game.won or not others:
            continue
        if any((game.table_id, mate.player_id) not in rated_before for mate in others):
            continue
        win = BestWin(
            game=game,
            opponents=tuple(
                Opponent(mate.player_id, mate.name, rated_before[game.table_id, mate.player_id])
                for mate in sorted(others, key=lambda mate: (mate.place, mate.name))
            ),
        )
        if best is None or win.strength > best.strength:
            best = win
    return best


def streak_of(results: Sequence[bool]) -> Streak:
    """The longest run of ``True`` and the run that ends the sequence.

    >>> streak_of([True, True, False, True, True, True, False, True])
    Streak(longest=3, current=1)
    >>> streak_of([])
    Streak(longest=0, current=0)
    """
    longest = current = 0
    for result in results:
        current = current + 1 if result else 0
        longest = max(longest, current)
    return Streak(longest=longest, current=current)


def form_of(played: Sequence[GamePlayed]) -> tuple[Night, ...]:
    """The latest :data:`FORM_NIGHTS` game nights the player played, the latest last,
    each with its games in the order played."""
    nights: dict[int, list[GamePlayed]] = {}
    for game in played:
        nights.setdefault(game.event_id, []).append(game)
    # a dict keeps the order of first appearance: the order the nights were played
    latest = list(nights.values())[-FORM_NIGHTS:]
    return tuple(
        Night(
            event_id=games[0].event_id,
            name=games[0].event_name,
            date=games[0].date,
            league_name=games[0].league_name,
            games=tuple(games),
        )
        for games in latest
    )


def best_total_of(played: Sequence[GamePlayed], *, fewer_is_better: bool) -> GamePlayed | None:
    """The game of the best final total (the lowest where fewer is better); the first
    game that reached it."""
    best: GamePlayed | None = None
    for game in played:
        if best is None or (
            game.total < best.total if fewer_is_better else game.total > best.total
        ):
            best = game
    return best


def bluke_figures(played: Sequence[GamePlayed]) -> BlukeFigures:
    """Bids made, in all and by hand size, the overtricks of the bids made, and the
    most bids made in a row (across games, in the order played). A game whose hands
    were not counted bit by bit (``bids_made_hands`` ``None``), or whose hand sizes
    are not known, is left out of the sizes and the runs.

    >>> day = datetime.date(2026, 1, 1)
    >>> game = GamePlayed(1, 1, "N", day, 1, "L", 1, 1, 4, 0, 1, 30, 3, 2, 1, 0, 0, 0, 0,
    ...                   0b101, (2, 1, 2))
    >>> figures = bluke_figures([game, game._replace(table_id=2, bids_made_hands=0b011)])
    >>> [(s.cards, s.hands, s.made) for s in figures.by_size], figures.bids_in_a_row
    ([(1, 2, 1), (2, 4, 3)], Streak(longest=3, current=0))
    """
    # each game's hands as a text of 1s (made) and 0s (missed), in the order played:
    # the runs are then text operations, and the sizes a count down each column of the
    # games of one schedule (the work of the page at 100,000 games is here)
    texts: list[str] = []
    by_schedule: dict[tuple[int, ...], list[str]] = {}
    for game in played:
        if game.bids_made_hands is None or not game.hands or len(game.sizes) < game.hands:
            continue
        text = format(game.bids_made_hands, f"0{game.hands}b")[::-1]
        texts.append(text)
        by_schedule.setdefault(game.sizes[: game.hands], []).append(text)
    by_size: dict[int, list[int]] = {}
    for sizes, games_texts in by_schedule.items():
        for cards, column in zip(sizes, zip(*games_texts, strict=False), strict=False):
            counts = by_size.setdefault(cards, [0, 0])
            counts[0] += len(column)
            counts[1] += column.count("1")
    made = "".join(texts)
    return BlukeFigures(
        hands=sum(game.hands for game in played),
        bids_made=sum(game.bids_made for game in played),
        overtricks=sum(game.overtricks for game in played),
        by_size=tuple(
            HandSize(cards=cards, hands=hands, made=made)
            for cards, (hands, made) in sorted(by_size.items())
        ),
        bids_in_a_row=Streak(
            longest=max(map(len, made.split("0"))), current=len(made) - len(made.rstrip("1"))
        ),
    )


def buck_figures(played: Sequence[GamePlayed], dropped: Iterable[DroppedHand]) -> BuckFigures:
    """Making trump and taking 3 tricks, the bucks as maker and as another player, the
    drops, and of the drops entered card by card, how many were right. A maker is
    bucked exactly when they take fewer than 3 tricks, so the makes that stood are the
    hands as maker less the bucks as maker (of the games whose makes were counted)."""
    judged = [verdict for hand in dropped if (verdict := drop_was_right(hand)) is not None]
    counted = [game for game in played if game.made_trump is not None]
    maker = sum(game.made_trump or 0 for game in counted)
    return BuckFigures(
        hands=sum(game.hands for game in played),
        maker=maker,
        maker_made=maker - sum(game.bucked_as_maker for game in counted),
        bucked_as_maker=sum(game.bucked_as_maker for game in played),
        bucked_as_player=sum(game.bucked_as_player for game in played),
        drops=sum(game.drops for game in played),
        drops_judged=len(judged),
        drops_right=sum(judged),
    )


def drop_was_right(hand: DroppedHand) -> bool | None:
    """Whether dropping out of ``hand`` was right, by a proxy: the player's five cards
    set against the tricks as they were played without them.

    At each trick in turn they follow the suit led if they can (the engine's own
    rules: the left bower is a trump); if one of the cards they may play beats every
    card of the trick, they would have taken it, and then they would not have been
    bucked (staying in would have scored at least a trick, better than the drop's
    nothing); otherwise they throw their weakest card and keep the rest. The drop was
    right when they would have taken no trick (staying in, they would have been
    bucked: 5 points). The others would have played differently with a fourth player
    in, so this is a guide, not a certainty.

    ``None`` (not judged) for a hand not played out: fewer than two players stayed
    in, or the record is not a move log the engine replays.
    """
    record = hand.record
    rules = BuckEuchre()
    try:
        tricks = replay_tricks(rules, dict(record), dealer=hand.dealer)
    except RecordError:
        return None
    if not tricks:
        return None
    trick_rules = rules.trick_rules(Suit.parse(hand.trump))
    held = _cards_held(record, seat=hand.seat, dealer=hand.dealer)
    if held is None:
        return None
    for trick in tricks:
        led = trick.plays[0][1]
        strength = trick_rules.strength[led.index]
        best = max(strength[card.index] for _, card in trick.plays)
        follow = trick_rules.follow_mask[led.index]
        followers = [card for card in held if follow >> card.index & 1]
        allowed = followers or held
        if any(strength[card.index] > best for card in allowed):
            return False
        weakest = min(allowed, key=lambda card: (strength[card.index], card.rank, card.index))
        held.remove(weakest)
    return True


def _cards_held(record: Mapping[str, object], *, seat: int, dealer: int) -> list[Card] | None:
    """The cards ``seat`` held once trump was settled: as dealt, and for a dealer who
    took up the turned card, with it and without the discard."""
    deal = record.get("deal")
    if not isinstance(deal, list) or not 0 <= seat < len(deal) or not isinstance(deal[seat], list):
        return None
    held = [Card.parse(code) for code in deal[seat]]
    if any(card is None for card in held):
        return None
    cards = [card for card in held if card is not None]
    if seat == dealer and "discard" in record:
        turned, discarded = Card.parse(record.get("turn_up")), Card.parse(record.get("discard"))
        if turned is None or discarded is None:
            return None
        cards = [card for card in [*cards, turned] if card != discarded]
    return cards
