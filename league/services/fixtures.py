"""What a league's games are played in: leagues, events, rounds and tables.

A league fixes the game and its rule options (checked by the engine); an
event (a game night) has numbered rounds; a round has tables, each seating
some of the club's players in seat order. Seats and options are fixed once
hands are played at them.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from types import EllipsisType
from typing import Any, Final, Literal, TypedDict

from django.core.files.storage import storages
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils.text import slugify
from django.utils.translation import gettext

import games
from league import audit
from league.errors import Conflict, ServiceError
from league.models import (
    REPLIES_CLOSE_MINUTES_MAX,
    Archive,
    Attendance,
    Club,
    Event,
    Game,
    Hand,
    League,
    Player,
    ResultsConfirmation,
    Round,
    Seating,
    SitOut,
    Standing,
    StandingsOwed,
    Table,
    TableSpill,
)
from league.outbox import standings_owe
from league.season import SeasonJson, season_check
from league.seating import TablePolicy

NOMINAL_PLAYERS = {Game.BLUKE: 4, Game.BUCK_EUCHRE: 4}
"""The table size a league's options are checked against when its table size
cannot be (a page showing every fault at once, with the size refused too)."""


def game_rules(*, game: str, players: int, options: Mapping[str, object]) -> games.Rules:
    """The engine's rules for ``players`` seats; a refusal is a
    :class:`ServiceError` naming the seat count (``players``) or the options."""
    try:
        games.rules_for(game, players)
    except games.RecordError as error:
        raise ServiceError(error.message, field="players") from None
    try:
        return games.rules_for(game, players, options)
    except games.RecordError as error:
        raise ServiceError(error.message, field="options") from None


# -- a league's options at every table size it seats -----------------------------------

OPTION_TOO_LARGE: Final = "option-too-large"
"""The ``code`` of options refused for a table size the league seats: a largest
hand of more cards than that many players can be dealt."""
OPTION_INVALID: Final = "option-invalid"
"""The ``code`` of an option no table size takes (an unknown option, a largest
hand below 1, a value of the wrong kind)."""
TABLE_SIZE_OPTIONS: Final = "table-size-options"
"""The ``code`` of a table size (or spill) refused because it would draw tables
that the league's options, as they stand, cannot be played at."""


class OptionsRefused(ServiceError):
    """A league's rule option that a table it seats cannot be played by, with
    what a page needs to say so in its own words (never parsing ``message``).

    ``option`` and ``value``: the option at fault. ``players``: the largest
    table size that cannot take it, ``limit`` the most cards that many can be
    dealt (for :data:`OPTION_INVALID`, the most every size takes; ``None``
    where the option is no count of cards). ``present``: the fewest players
    present whom a round draws a table of ``players`` (``None``: a table of
    the league has that size already). ``fits_at``: the preferred table size
    nearest the league's, with the same spill, whose tables all take ``value``
    (``None``: no size does). ``sizes``: the table sizes checked, smallest first.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str,
        code: str,
        option: str,
        value: object,
        players: int | None = None,
        limit: int | None = None,
        present: int | None = None,
        fits_at: int | None = None,
        sizes: Sequence[int] = (),
    ) -> None:
        super().__init__(message, field=field, code=code)
        self.option = option
        self.value = value
        self.players = players
        self.limit = limit
        self.present = present
        self.fits_at = fits_at
        self.sizes = tuple(sizes)


def league_table_sizes(*, game: str, table_size: int, table_spill: str) -> dict[int, int]:
    """Every table size a league's rounds are drawn with (by the seating
    generator's :class:`~league.seating.TablePolicy`), each with the fewest
    players present who are drawn such a table: Buck Euchre ``{4: 4}``; Bluke
    at a preferred 4 with smaller tables ``{3: 3, 4: 4, 5: 5}`` (5 who come
    play at one table). The policy must be valid (:func:`check_table_policy`)."""
    spill: Literal["smaller", "larger"] = (
        "larger" if table_spill == TableSpill.LARGER else "smaller"
    )
    return TablePolicy(game, size=table_size, spill=spill).sizes_drawn()


def check_league_options(
    *, game: str, options: Mapping[str, Any], table_size: int, table_spill: str
) -> None:
    """Refuse ``options`` (:class:`OptionsRefused`, ``field`` ``options``)
    unless the engine takes them at every table size a league of this table
    size and spill seats (:func:`league_table_sizes`), each option alone and
    then all together."""
    sizes: dict[int, int | None] = dict(
        league_table_sizes(game=game, table_size=table_size, table_spill=table_spill)
    )
    _check_options_at(
        game=game,
        options=options,
        sizes=sizes,
        table_size=table_size,
        table_spill=table_spill,
        field="options",
        code=OPTION_TOO_LARGE,
    )


def _check_options_at(
    *,
    game: str,
    options: Mapping[str, Any],
    sizes: Mapping[int, int | None],
    table_size: int,
    table_spill: str,
    field: str,
    code: str,
) -> None:
    """Refuse ``options`` unless every table size of ``sizes`` (each with the
    fewest present drawn it, ``None`` for a table drawn already) takes them:
    an option alone that some size cannot take is an :class:`OptionsRefused`
    with ``code`` (a largest hand too large for the size) or
    :data:`OPTION_INVALID` (any size refuses it)."""
    ordered = sorted(sizes)
    for option, value in sorted(options.items()):
        refusals = {
            players: refusal
            for players in ordered
            if (refusal := _engine_refusal(game, players, {option: value})) is not None
        }
        if not refusals:
            continue
        if _is_card_count(game, option, value) and value >= 1:
            players = max(refusals)
            limit = games.bluke.max_hand_size(players)
            fits_at = _size_that_fits(game, option, value, table_size, table_spill)
            raise OptionsRefused(
                _too_large_message(value, players, limit, sizes[players], fits_at, code),
                field=field,
                code=code,
                option=option,
                value=value,
                players=players,
                limit=limit,
                present=sizes[players],
                fits_at=fits_at,
                sizes=ordered,
            )
        most = None
        message = next(iter(refusals.values()))
        if _is_card_count(game, option, value):
            most = min(games.bluke.max_hand_size(players) for players in ordered)
            message = f"max_cards is at least 1 (and at most {most} here), not {value}"
        raise OptionsRefused(
            message,
            field=field,
            code=OPTION_INVALID,
            option=option,
            value=value,
            limit=most,
            sizes=ordered,
        )
    for players in ordered:  # together, as a table plays them
        game_rules(game=game, players=players, options=dict(options))


def _engine_refusal(game: str, players: int, options: Mapping[str, object]) -> str | None:
    """The engine's refusal of ``options`` at ``players`` seats, ``None`` if it takes them."""
    try:
        games.rules_for(game, players, options)
    except games.RecordError as error:
        return error.message
    return None


def _is_card_count(game: str, option: str, value: object) -> bool:
    """Whether ``option`` is Bluke's largest hand given as a whole number."""
    return game == Game.BLUKE and option == "max_cards" and type(value) is int


def _too_large_message(
    value: int, players: int, limit: int, present: int | None, fits_at: int | None, code: str
) -> str:
    """The API's sentence for a largest hand a table size cannot be dealt."""
    where = (
        f"a round draws a table of {players} when {present} players come"
        if present is not None
        else f"the league has a table of {players} drawn already"
    )
    smaller = f"; a table_size of {fits_at} would take it" if fits_at is not None else ""
    if code == TABLE_SIZE_OPTIONS:
        return (
            f"with this table size and spill {where}, and {players} players can be dealt "
            f"at most {limit} cards, fewer than the league's max_cards {value}{smaller}"
        )
    return (
        f"max_cards {value} is more cards than {players} players can be dealt (at most "
        f"{limit}), and {where}: give {limit} or fewer, or leave max_cards out for the "
        f"full game at every table size{smaller}"
    )


def _size_that_fits(
    game: str, option: str, value: object, table_size: int, table_spill: str
) -> int | None:
    """The preferred table size nearest ``table_size`` (with the same spill)
    whose tables all take ``option`` at ``value``; ``None`` if none does."""
    allowed = [4] if game == Game.BUCK_EUCHRE else range(3, 7)
    fitting = [
        size
        for size in allowed
        if size != table_size
        and all(
            _engine_refusal(game, players, {option: value}) is None
            for players in league_table_sizes(game=game, table_size=size, table_spill=table_spill)
        )
    ]
    return min(fitting, key=lambda size: (abs(size - table_size), size), default=None)


# -- leagues -----------------------------------------------------------------------


@transaction.atomic
def league_create(
    *,
    club: Club,
    name: str,
    game: str,
    options: dict[str, Any] | None = None,
    slug: str = "",
    table_size: int = 4,
    table_spill: str = TableSpill.SMALLER,
    results_confirmation: str = ResultsConfirmation.NONE,
    season: object = None,
    replies_close_minutes: int = 60,
) -> League:
    """A league of one game; its preferred table size and spill are checked
    by :func:`check_table_policy`, its rule options by the engine at every
    table size a round of it is drawn with (:func:`check_league_options`);
    ``results_confirmation`` says whether a game entered through a table link
    counts once a second player confirms it (:mod:`league.services.confirmations`);
    ``season`` is its season format (:func:`league.season.season_check`), or
    ``None`` for today's order (a format given is in the audit trail);
    ``replies_close_minutes`` says how long before a night's start time its
    players' replies close (:mod:`league.services.replies`).

    The slug defaults to the name's; one the club already has is a :class:`Conflict`.
    """
    options = options or {}
    if game not in Game.values:
        raise ServiceError(
            gettext("game must be one of %(names)s") % {"names": ", ".join(Game.values)},
            field="game",
        )
    check_table_policy(game=game, table_size=table_size, table_spill=table_spill)
    check_league_options(game=game, options=options, table_size=table_size, table_spill=table_spill)
    check_results_confirmation(results_confirmation)
    season = season_check(game=game, season=season)
    check_replies_close_minutes(replies_close_minutes)
    slug = slug or slugify(name)
    if not slug:
        raise ServiceError(
            gettext("the name has no letter or digit to make a slug of; give one"), field="slug"
        )
    if League.objects.filter(club=club, slug=slug).exists():
        raise Conflict(
            gettext("the club already has a league %(slug)s") % {"slug": repr(slug)}, field="slug"
        )
    league = League.objects.create(
        club=club,
        name=name,
        slug=slug,
        game=game,
        options=options,
        table_size=table_size,
        table_spill=table_spill,
        results_confirmation=results_confirmation,
        replies_close_minutes=replies_close_minutes,
        season=season,
    )
    if season is not None:
        _audit_season(league, before=None)
    return league


def _audit_season(league: League, *, before: SeasonJson | None) -> None:
    """The ``league.season_changed`` entry: the league and its format before and after."""
    audit.audit_entry_write(
        action=audit.Action.SEASON_CHANGED,
        club_id=league.club_id,
        before={"league": league.pk, "season": before},
        after={"league": league.pk, "season": league.season},
    )


def check_replies_close_minutes(minutes: int) -> None:
    if not 0 <= minutes <= REPLIES_CLOSE_MINUTES_MAX:
        raise ServiceError(
            gettext(
                "replies close 0 to %(replies_close_minutes_max)s minutes before a night starts"
            )
            % {"replies_close_minutes_max": REPLIES_CLOSE_MINUTES_MAX},
            field="replies_close_minutes",
        )


def check_results_confirmation(value: str) -> None:
    if value not in ResultsConfirmation.values:
        raise ServiceError(
            gettext("results_confirmation is one of %(names)s")
            % {"names": ", ".join(ResultsConfirmation.values)},
            field="results_confirmation",
        )


def check_table_policy(*, game: str, table_size: int, table_spill: str) -> None:
    """Bluke tables seat 3 to 6 by preference; Buck Euchre's always seat 4."""
    if game == Game.BUCK_EUCHRE and table_size != 4:
        raise ServiceError(gettext("Buck Euchre is played four to a table"), field="table_size")
    if not 3 <= table_size <= 6:
        raise ServiceError(gettext("a Bluke table seats 3 to 6 players"), field="table_size")
    if table_spill not in TableSpill.values:
        raise ServiceError(
            gettext("table_spill must be one of %(names)s")
            % {"names": ", ".join(TableSpill.values)},
            field="table_spill",
        )


@transaction.atomic
def league_update(
    *,
    league: League,
    name: str | None = None,
    options: dict[str, Any] | None = None,
    table_size: int | None = None,
    table_spill: str | None = None,
    results_confirmation: str | None = None,
    season: object = ...,
    replies_close_minutes: int | None = None,
) -> League:
    """Rename a league, change its options while no hand has been played, or
    its table size and spill (which the next rounds drawn follow), or whether
    a second player confirms results entered through a table link (which the
    games completed from then on follow: a game awaiting confirmation already
    still awaits it, for a player or an organiser to confirm), or its season
    format (``season``: a format, ``None`` for today's order, ``...`` to
    leave it), at any time.

    New options must suit every table size the league's rounds are drawn with
    and every table drawn already (:class:`OptionsRefused`, ``field``
    ``options``). A new table size or spill must not draw a table size the
    league did not draw before that its options, as they stand, cannot be
    played at (:data:`TABLE_SIZE_OPTIONS`, ``field`` ``table_size`` or
    ``table_spill``): options that some table size drawn already refuses, as
    a league made before they were checked at every size may have, keep it
    from no change but the ones that would make it worse.

    A new season format is in the audit trail, and owes the league's standings
    a full rebuild in this transaction (:func:`league.outbox.standings_owe`):
    the standings job ranks the season anew once this commits. The league row
    is locked first when the format changes, so that two changes at once are
    recorded one after the other, each with the format it replaced."""
    table_size_was = league.table_size
    drew = league_table_sizes(
        game=league.game, table_size=league.table_size, table_spill=league.table_spill
    )
    if name is not None:
        league.name = name
    if results_confirmation is not None:
        check_results_confirmation(results_confirmation)
        league.results_confirmation = results_confirmation
    if replies_close_minutes is not None:
        check_replies_close_minutes(replies_close_minutes)
        league.replies_close_minutes = replies_close_minutes
    if table_size is not None or table_spill is not None:
        league.table_size = league.table_size if table_size is None else table_size
        league.table_spill = league.table_spill if table_spill is None else table_spill
        check_table_policy(
            game=league.game, table_size=league.table_size, table_spill=league.table_spill
        )
    draws = league_table_sizes(
        game=league.game, table_size=league.table_size, table_spill=league.table_spill
    )
    if options is not None and options != league.options:
        if Hand.objects.filter(table__round__event__league=league).exists():
            raise Conflict(gettext("options cannot change once hands are played"), field="options")
        drawn = set(
            Table.objects.filter(round__event__league=league).values_list("players", flat=True)
        )
        _check_options_at(
            game=league.game,
            options=options,
            sizes={**dict.fromkeys(drawn), **draws},
            table_size=league.table_size,
            table_spill=league.table_spill,
            field="options",
            code=OPTION_TOO_LARGE,
        )
        league.options = options
    elif added := {players: present for players, present in draws.items() if players not in drew}:
        _check_options_at(
            game=league.game,
            options=league.options or {},
            sizes=added,
            table_size=league.table_size,
            table_spill=league.table_spill,
            field="table_size" if league.table_size != table_size_was else "table_spill",
            code=TABLE_SIZE_OPTIONS,
        )
    if not isinstance(season, EllipsisType):
        season = season_check(game=league.game, season=season)
        stored = League.objects.select_for_update(of=("self",)).get(pk=league.pk).season
        if season != stored:
            league.season = season
            _audit_season(league, before=stored)
            standings_owe(league_id=league.pk)
    league.save()
    return league


# -- events and rounds ----------------------------------------------------------------


@transaction.atomic
def event_create(
    *,
    league: League,
    name: str,
    date: datetime.date,
    rounds: int = 1,
    start_time: datetime.time | None = None,
    venue: str = "",
) -> Event:
    """An event with its rounds numbered from 1; the start time and the venue are optional."""
    if rounds < 1:
        raise ServiceError(gettext("an event has at least one round"), field="rounds")
    event = Event.objects.create(
        league=league, name=name, date=date, start_time=start_time, venue=venue
    )
    Round.objects.bulk_create(Round(event=event, number=n) for n in range(1, rounds + 1))
    return event


@transaction.atomic
def event_update(
    *,
    event: Event,
    name: str | None = None,
    date: datetime.date | None = None,
    start_time: datetime.time | EllipsisType | None = ...,
    venue: str | None = None,
) -> Event:
    """Change an event's name, date, start time (``None`` clears it, ``...``
    leaves it) or venue (``""`` clears it)."""
    if name is not None:
        event.name = name
    if date is not None:
        event.date = date
    if not isinstance(start_time, EllipsisType):
        event.start_time = start_time
    if venue is not None:
        event.venue = venue
    event.save()
    return event


@transaction.atomic
def round_create(*, event: Event, number: int) -> Round:
    """A round of the event, numbered so; the league's final is played in one
    round (:mod:`league.services.finals`)."""
    if event.is_final:
        raise ServiceError(gettext("the final is played in one round"), field="rounds")
    if number < 1:
        raise ServiceError(gettext("rounds are numbered from 1"), field="number")
    if event.rounds.filter(number=number).exists():
        raise Conflict(
            gettext("the event already has a round %(number)s") % {"number": number}, field="number"
        )
    return Round.objects.create(event=event, number=number)


class RoundsDrawn(Conflict):
    """Rounds asked to go that have tables; ``rounds`` lists their numbers."""

    def __init__(self, rounds: Sequence[int]) -> None:
        listed = ", ".join(str(number) for number in rounds)
        super().__init__(f"rounds with tables cannot be removed: {listed}", field="rounds")
        self.rounds = tuple(rounds)


@transaction.atomic
def event_rounds_trim(*, event: Event, keep: int) -> None:
    """Remove the event's rounds after round ``keep``; none of them may have tables
    (:class:`RoundsDrawn` lists those that do, and nothing is removed).

    Locks the event row first, as a draw does before it adds tables, so a round
    cannot gain tables between the check and its removal.
    """
    if keep < 1:
        raise ServiceError(gettext("an event keeps at least one round"), field="rounds")
    Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
    drawn = sorted(
        set(
            Table.objects.filter(round__event=event, round__number__gt=keep).values_list(
                "round__number", flat=True
            )
        )
    )
    if drawn:
        raise RoundsDrawn(drawn)
    Round.objects.filter(event=event, number__gt=keep).delete()


# -- tables -----------------------------------------------------------------------


@transaction.atomic
def table_create(
    *, round: Round, number: int, players: Sequence[Player], first_dealer: int = 0
) -> Table:
    """A table of ``players`` in seat order, ready for its first hand.

    Locks the event row first: which rounds have tables decides the rounds a
    player checking in or leaving plays (:mod:`league.services.attendance`),
    so a draw and an attendance change of one event are serialised.
    """
    Event.objects.select_for_update(of=("self",)).get(pk=round.event_id)
    rules = _check_seating(round, players, first_dealer, table=None)
    if round.tables.filter(number=number).exists():
        raise Conflict(
            gettext("the round already has a table %(number)s") % {"number": number}, field="number"
        )
    table = Table.objects.create(
        round=round,
        number=number,
        game=round.event.league.game,
        players=len(players),
        first_dealer=first_dealer,
    )
    _seat(table, players, rules)
    after = audit.seats_record(players, first_dealer)
    audit.table_entry_write(table, action=audit.Action.TABLE_CREATED, before=None, after=after)
    return table


@transaction.atomic
def table_reseat(
    *, table: Table, players: Sequence[Player] | None = None, first_dealer: int | None = None
) -> Table:
    """Change who sits where, or the first dealer, before the first hand.

    Locks the table row, then replaces its seatings. A change to what the
    table has already (the same players in the same seats, the same first
    dealer) changes nothing: the version stays, the seatings are kept, and
    it is no refusal once hands are played.
    """
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event__league")
        .get(pk=table.pk)
    )
    seated = [s.player for s in table.seatings.select_related("player").order_by("seat")]
    players = seated if players is None else players
    first_dealer = table.first_dealer if first_dealer is None else first_dealer
    if [p.pk for p in players] == [p.pk for p in seated] and first_dealer == table.first_dealer:
        return table
    if table.hands_played:
        raise Conflict(gettext("seats cannot change once hands are played"))
    rules = _check_seating(table.round, players, first_dealer, table=table)
    table.seatings.all().delete()
    _reseated(table, players, first_dealer, rules, seated=seated)
    return table


@transaction.atomic
def round_reseat(
    *,
    round: Round,
    seats: Mapping[int, Sequence[Player]],
    first_dealers: Mapping[int, int] | None = None,
) -> list[Table]:
    """Reseat several tables of ``round`` at once (``seats``: table id →
    players in seat order), before the first hand at any of them: players
    may change tables, as a swap or a move between two tables needs.

    Locks the event row, then the tables (by id), then replaces their
    seatings; each table keeps its first dealer's seat when it still has
    it (else seat 0 deals first), unless ``first_dealers`` (table id → seat)
    says otherwise.
    """
    Event.objects.select_for_update(of=("self",)).get(pk=round.event_id)
    tables = list(
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event__league")
        .filter(round=round, pk__in=seats)
        .order_by("pk")
    )
    if len(tables) != len(seats):
        raise ServiceError(gettext("every table must be one of the round's"), field="tables")
    if any(table.hands_played for table in tables):
        raise Conflict(gettext("seats cannot change once hands are played"), field="tables")
    seated = Seating.objects.filter(table__in=tables).select_related("player").order_by("seat")
    before: dict[int, list[Player]] = {table.pk: [] for table in tables}
    for seating in seated:
        before[seating.table_id].append(seating.player)
    Seating.objects.filter(table__in=tables).delete()
    for table in tables:
        players = seats[table.pk]
        first_dealer = table.first_dealer if table.first_dealer < len(players) else 0
        if first_dealers is not None and table.pk in first_dealers:
            first_dealer = first_dealers[table.pk]
        rules = _check_seating(round, players, first_dealer, table=table)
        _reseated(table, players, first_dealer, rules, seated=before[table.pk])
    return tables


def _reseated(
    table: Table,
    players: Sequence[Player],
    first_dealer: int,
    rules: games.Rules,
    *,
    seated: Sequence[Player],
) -> None:
    """The new seats of ``table`` (its seatings deleted already, the seating
    checked: ``rules``) stored, its version moved, and the entry saying who
    sat where before (``seated``, by seat) and after: what
    :func:`table_reseat` and :func:`round_reseat` do for each table."""
    before = audit.seats_record(seated, table.first_dealer)
    table.players, table.first_dealer = len(players), first_dealer
    table.version += 1
    table.save(update_fields=["players", "first_dealer", "version"])
    _seat(table, players, rules)
    after = audit.seats_record(players, first_dealer)
    audit.table_entry_write(table, action=audit.Action.TABLE_RESEATED, before=before, after=after)


def _check_seating(
    round: Round, players: Sequence[Player], first_dealer: int, *, table: Table | None
) -> games.Rules:
    """The rules the seated players play by, once the seating is checked:
    the engine takes that many players, the first dealer is a seat, every
    player is the league's club's, sits once, and sits at no other table of
    the round (``table``, when reseated, is not "another")."""
    league = round.event.league
    rules = game_rules(game=league.game, players=len(players), options=league.options)
    if not 0 <= first_dealer < len(players):
        raise ServiceError(
            gettext("first_dealer must be a seat, 0..%(value)s") % {"value": len(players) - 1},
            field="first_dealer",
        )
    if any(player.club_id != league.club_id for player in players):
        raise ServiceError(
            gettext("every player must belong to the league's club"), field="players"
        )
    if len({player.pk for player in players}) != len(players):
        raise ServiceError(gettext("a player can sit in one seat only"), field="players")
    seated = Seating.objects.filter(round=round, player__in=players).select_related("player")
    if table is not None:
        seated = seated.exclude(table=table)
    if seated:
        names = ", ".join(sorted(s.player.name for s in seated))
        raise Conflict(
            gettext("already at a table in this round: %(names)s") % {"names": names},
            field="players",
        )
    return rules


def _seat(table: Table, players: Sequence[Player], rules: games.Rules) -> None:
    """Seat ``players`` in order at a table with no seatings, and start its totals."""
    table.totals = games.GameTally(rules, first_dealer=table.first_dealer).totals
    table.seat_players = [player.pk for player in players]
    table.save(update_fields=["totals", "seat_players"])
    Seating.objects.bulk_create(
        Seating(table=table, round_id=table.round_id, seat=seat, player=player)
        for seat, player in enumerate(players)
    )


# -- deleting what was made by mistake ------------------------------------------------

HAS_HANDS: Final = "has-hands"
"""The ``code`` of a night, round or table that cannot be deleted: hands are entered."""
LAST_ROUND: Final = "last-round"
"""The ``code`` of a night's only round, which goes only with the night."""
LATER_ROUNDS_DRAWN: Final = "later-rounds-drawn"
"""The ``code`` of a round with a later round drawn: that one goes first."""


def _check_no_hands(tables: Iterable[Table], *, what: str) -> None:
    """Refuse (:class:`Conflict`, ``code`` :data:`HAS_HANDS`) when any of ``tables``
    has hands, saying which holds them ("table 3 of round 2 has 4 hands")."""
    played = sorted(
        (table for table in tables if table.hands_played),
        key=lambda table: (table.round.number, table.number),
    )
    if not played:
        return
    held = "; ".join(
        f"table {table.number} of round {table.round.number} has {table.hands_played} "
        f"hand{'s' if table.hands_played != 1 else ''}"
        for table in played[:3]
    )
    more = f" (and {len(played) - 3} more tables)" if len(played) > 3 else ""
    raise Conflict(
        gettext("%(what)s cannot be deleted once hands are entered: %(held)s%(more)s")
        % {"what": what, "held": held, "more": more},
        code=HAS_HANDS,
    )


def _lock_event(event_id: int) -> Event:
    return Event.objects.select_for_update(of=("self",)).select_related("league").get(pk=event_id)


@transaction.atomic
def event_delete(*, event: Event) -> None:
    """Delete a game night made by mistake, with its rounds, tables, seats,
    sit-outs, attendance, table links and prepared files: refused
    (:class:`Conflict`, ``code`` :data:`HAS_HANDS`) when a hand is entered at any
    of its tables. The audit trail keeps its entries, and writes one
    ``event.deleted`` with the night and its rounds' seats. When the night counted
    in the standings (sit-outs), the league's standings are owed a full rebuild.

    Lock order: the event row first, as a draw and an attendance change lock it.
    """
    event = _lock_event(event.pk)
    tables = Table.objects.filter(round__event=event).select_related("round")
    _check_no_hands(tables, what="a game night")
    rounds = list(event.rounds.order_by("number").values_list("pk", flat=True))
    counted = (
        SitOut.objects.filter(round__event=event).exists()
        or Standing.objects.filter(event=event).exists()
        or StandingsOwed.objects.filter(event=event).exists()
    )
    audit.audit_entry_write(
        action=audit.Action.EVENT_DELETED,
        club_id=event.league.club_id,
        event_id=event.pk,
        before={
            "event": event.pk,
            "name": event.name,
            "date": event.date.isoformat(),
            "league": event.league_id,
            "attendance": Attendance.objects.filter(event=event).count(),
            "rounds": list(audit.rounds_record(rounds).values()),
        },
    )
    _archives_forget(Archive.objects.filter(event=event))
    league_id = event.league_id
    event.delete()
    if counted:
        standings_owe(league_id=league_id)


def _archives_forget(archives: QuerySet[Archive]) -> None:
    """Delete the prepared files of ``archives`` once the transaction commits (the
    rows go with their event)."""
    names = [name for name in archives.exclude(file="").values_list("file", flat=True)]
    if not names:
        return

    def remove() -> None:
        storage = storages["archives"]
        for name in names:
            storage.delete(name)

    transaction.on_commit(remove, robust=True)


@transaction.atomic
def round_delete(*, round: Round) -> None:
    """Delete a round made or drawn by mistake, with its tables, seats and
    sit-outs: refused (:class:`Conflict`) when a hand is entered at one of its
    tables (``code`` :data:`HAS_HANDS`), when it is the night's only round (``code``
    :data:`LAST_ROUND`: delete the night), or when a later round has tables
    (``code`` :data:`LATER_ROUNDS_DRAWN`: delete that one first, so that no game
    changes its number).

    The later rounds (none drawn) move down a number, so a night's rounds stay
    1, 2, 3…; attendance follows: a stretch from a later round starts a round
    earlier, one that ended with this round ends with the one before, and one of
    this round alone is removed. The sit-outs' standings lines are owed. One
    ``round.deleted`` entry in the audit trail, with the round's seats and the
    attendance changed.

    Lock order: the event row first, as a draw and an attendance change lock it.
    """
    event = _lock_event(round.event_id)
    round = Round.objects.get(pk=round.pk)
    rounds = list(event.rounds.order_by("number"))
    if len(rounds) == 1:
        raise Conflict(
            gettext("round %(number)s is the night's only round: delete the game night instead")
            % {"number": round.number},
            code=LAST_ROUND,
        )
    later = [r for r in rounds if r.number > round.number]
    drawn = sorted(
        set(Table.objects.filter(round__in=later).values_list("round__number", flat=True))
    )
    tables = Table.objects.filter(round=round).select_related("round")
    _check_no_hands(tables, what=f"round {round.number}")
    if drawn:
        raise Conflict(
            gettext("round %(drawn)s is drawn: delete the later rounds first, last first")
            % {"drawn": drawn[-1]},
            code=LATER_ROUNDS_DRAWN,
        )
    seats = audit.rounds_record([round.pk])[round.pk]
    sat_out = set(SitOut.objects.filter(round=round).values_list("player_id", flat=True))
    number, round_id = round.number, round.pk
    round.delete()
    for moved in later:
        moved.number -= 1
        moved.save(update_fields=["number"])
    changed = _attendance_after_round_removed(event, number)
    audit.audit_entry_write(
        action=audit.Action.ROUND_DELETED,
        club_id=event.league.club_id,
        event_id=event.pk,
        round_id=round_id,
        before={"round": number, "seats": seats, "attendance": [was for was, _ in changed]},
        after={
            "renumbered": [[r.number + 1, r.number] for r in later],
            "attendance": [now for _, now in changed],
        },
    )
    if sat_out:
        standings_owe(league_id=event.league_id, event_id=event.pk, player_ids=sat_out)


def _attendance_after_round_removed(
    event: Event, number: int
) -> list[tuple[StretchRecord, StretchRecord | None]]:
    """Move the event's attendance as round ``number`` goes and the later rounds
    move down one; each row changed as (before, after: ``None`` when removed)."""
    changed: list[tuple[StretchRecord, StretchRecord | None]] = []
    touched = Attendance.objects.filter(event=event).filter(
        Q(from_round__gt=number) | Q(until_round__gte=number)
    )
    for row in touched.order_by("player_id"):
        was = _stretch(row)
        if row.from_round > number:
            row.from_round -= 1
        if row.until_round is not None and row.until_round >= number:
            row.until_round -= 1
        if row.until_round is not None and row.until_round < row.from_round:
            row.delete()
            changed.append((was, None))
            continue
        row.save(update_fields=["from_round", "until_round"])
        changed.append((was, _stretch(row)))
    return changed


class StretchRecord(TypedDict):
    """A player's stretch of a night's rounds as the audit trail keeps it."""

    player: int
    from_round: int
    until_round: int | None


def _stretch(row: Attendance) -> StretchRecord:
    return {"player": row.player_id, "from_round": row.from_round, "until_round": row.until_round}


@transaction.atomic
def table_delete(*, table: Table) -> None:
    """Delete a table made or drawn by mistake, with its seats and its link:
    refused (:class:`Conflict`, ``code`` :data:`HAS_HANDS`) once a hand is entered
    at it. Its players are seated nowhere in that round (draw the round again, or
    seat them at a table made by hand); the other tables keep their numbers. One
    ``table.deleted`` entry in the audit trail, with the seats it had.

    Lock order: the event row, then the table's, as a draw and a reseat do.
    """
    _lock_event(Table.objects.filter(pk=table.pk).values_list("round__event_id", flat=True).get())
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__event__league")
        .get(pk=table.pk)
    )
    _check_no_hands([table], what=f"table {table.number}")
    seated = [s.player for s in table.seatings.select_related("player").order_by("seat")]
    audit.table_entry_write(
        table,
        action=audit.Action.TABLE_DELETED,
        before={"number": table.number, **audit.seats_record(seated, table.first_dealer)},
        after=None,
    )
    table.delete()
