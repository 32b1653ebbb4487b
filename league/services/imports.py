"""Records brought in from files: a club's players, and a league's past results.

An import is two calls. ``check_*`` reads the file and the database and stores
nothing: it answers a check listing every problem (by the file's row, the hand and
the seat) or, when there is none, what the import would store. The import itself
(:func:`players_import`, :func:`results_import`) runs the same check again inside
one transaction and stores only if it finds nothing wrong, all or nothing, through
the other services: players by :func:`~league.services.clubs.player_create`, game
nights by :func:`~league.services.fixtures.event_create`, tables by
:func:`~league.services.fixtures.table_create` and hands by
:func:`~league.services.results.game_submit`, so every invariant they keep holds and
the standings and ratings jobs are owed as for results entered at the table.

A check is three steps, each in a module of its own: the file read alone, as the
pure Python of :mod:`league.import_files` reads it (its rows, values and problems
by line); what it read matched against what the club and the league have
(:mod:`league.services.import_matching`); and, here, each hand the import would
store checked with the engine (:func:`_check_with_engine`).

The files (docs/data.md, "Imports"):

- **players**: CSV with one column, ``name``; names the club has are left as they are.
- **results**, CSV: the games CSV the export writes (:data:`league.csv_format.HAND_COLUMNS`),
  a row per hand and seat. Each hand becomes a results-only record (docs/records.md)
  checked by the engine, and the file's ``points`` and ``total`` must be what the
  engine scores.
- **results**, JSON Lines: a game a line, ``{"event", "date", "round", "table",
  "players": [names by seat], "record": <the engine's game record>}``; move logs are
  kept as they are.

Game nights are told apart by date and name, tables by their night, round and
number; players go by name (unique in a club) and are created when the club has no
player of that name. A table the league has already, with the same players and the
same hands, is skipped, so importing a file twice changes nothing the second time; a
table with other players or other hands is a conflict.

A results file too large to store while the import page's browser waits is kept and
imported by a background job (:func:`results_import_queue`, :func:`results_import_run`):
the same import, in the job's transaction, its outcome kept for the page.

Lock order: a background import's own row (:class:`~league.models.ResultsImport`),
then the club's row (:func:`_lock_club`), so that two imports into one club run one
after the other and the second sees what the first stored; then what the services
lock (an event before its tables, a table, the rows of the work owed).
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, replace
from typing import Final

from celery import shared_task
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import games
from league import audit, outbox
from league.errors import ServiceError
from league.import_files.players import read_players
from league.import_files.problems import Problem, Words, gettext_noop, ngettext_lazy
from league.import_files.results import (
    FileHand,
    FileTable,
    ImportFormat,
    LeagueGame,
    TableAction,
)
from league.import_files.results_csv import CsvResults
from league.import_files.results_jsonl import JsonLinesResults
from league.models import Club, Event, Game, JobOwed, League, Player, ResultsImport, Round, Table
from league.names import name_key
from league.outbox import JOB_OPTIONS, JOB_TASKS
from league.services import clubs, fixtures, results
from league.services.import_matching import ImportPlan, chunks, club_name_keys, import_plan
from league.users import SiteUser

# -- what a check answers ------------------------------------------------------------


@dataclass(frozen=True)
class ResultsSummary:
    """What a results import stores (or, after the import, stored)."""

    events: int
    """Game nights the file's games are in."""
    new_events: int
    """Of those, the nights the league does not have yet."""
    tables: int
    """Tables in the file."""
    new_tables: int
    """Tables whose hands are stored (new tables, and tables with no hands yet)."""
    skipped_tables: int
    """Tables the league has already with the same hands: left as they are."""
    hands: int
    """Hands stored."""
    new_players: tuple[str, ...]
    """Names the club has no player of: added as players, in the order first met."""


@dataclass(frozen=True)
class ResultsCheck:
    """A results file read against a league: every problem, or what the import stores."""

    league: League
    format: ImportFormat
    digest: str
    """The SHA-256 of the file, in hex: what a confirmation names to import this file."""
    problems: tuple[Problem, ...]
    summary: ResultsSummary
    plan: ImportPlan = field(repr=False, compare=False)
    seats_from: int = 0
    """How the file counts seats: 1 in a games CSV with ``seat_number``, 0 in an
    older one and in JSON Lines. A problem's ``seat`` counts from 0, as the records
    do; whoever shows it adds this, so that it reads as the file does (its
    message already does)."""

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class PlayersCheck:
    """A players file read against a club: every problem, or the players to add."""

    club: Club
    digest: str
    problems: tuple[Problem, ...]
    new_players: tuple[str, ...]
    """Names to add, in the file's order."""
    existing: int
    """Names the club has already (left as they are)."""

    @property
    def ok(self) -> bool:
        return not self.problems


class ImportRefused(ServiceError):
    """An import that found problems: ``check`` lists them; nothing was stored."""

    def __init__(self, check: ResultsCheck | PlayersCheck) -> None:
        count = len(check.problems)
        super().__init__(
            ngettext(
                "the file has %(count)d problem; nothing was imported",
                "the file has %(count)d problems; nothing was imported",
                count,
            )
            % {"count": count},
            field="file",
        )
        self.check = check


class NotThePreviewedFile(ServiceError):
    """An import asked for a file (by its digest) other than the one it was given."""

    def __init__(self) -> None:
        super().__init__(
            _("this is not the file that was checked; nothing was imported"), field="file"
        )


def file_digest(data: bytes) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(data).hexdigest()


# -- players ---------------------------------------------------------------------------


def check_players_import(*, club: Club, data: bytes) -> PlayersCheck:
    """Read a players CSV against ``club``; stores nothing (one query, whatever the
    file's size)."""
    problems: list[Problem] = []
    names = read_players(data, problems)
    keys = club_name_keys(club=club)
    known = [name for name in names if name_key(name) in keys]
    return PlayersCheck(
        club=club,
        digest=file_digest(data),
        problems=tuple(problems),
        new_players=tuple(name for name in names if name_key(name) not in keys),
        existing=len(known),
    )


@transaction.atomic
def players_import(*, club: Club, data: bytes, digest: str | None = None) -> PlayersCheck:
    """Add the players of a CSV file that ``club`` does not have, all or nothing.

    ``digest`` (the previewed file's :func:`file_digest`), when given, must be this
    file's, else :class:`NotThePreviewedFile`. A file with problems is
    :class:`ImportRefused`, with the check. Returns the check the import followed.
    """
    _check_digest(data, digest)
    _lock_club(club)
    check = check_players_import(club=club, data=data)
    if not check.ok:
        raise ImportRefused(check)
    clubs.players_create(club=club, names=check.new_players)
    return check


# -- results: checking ---------------------------------------------------------------


def check_results_import(
    *, league: League, data: bytes, format: ImportFormat = ImportFormat.CSV
) -> ResultsCheck:
    """Read a results file against ``league`` and check every hand with the engine;
    stores nothing. Reads a fixed number of queries plus one per
    :data:`~league.services.import_matching.CHUNK` tables the league has already at
    the file's game nights."""
    problems: list[Problem] = []
    read_for = LeagueGame(
        game=league.game, display=league.get_game_display(), options=league.options
    )
    reader = CsvResults(read_for) if format == ImportFormat.CSV else JsonLinesResults(read_for)
    tables = reader.read(data, problems)
    plan = import_plan(league=league, tables=tables, problems=problems)
    for table in tables:
        if table.action in (TableAction.CREATE, TableAction.FILL):
            _check_with_engine(league=league, table=table, problems=problems)
    problems.sort(key=_problem_order)
    return ResultsCheck(
        league=league,
        format=format,
        digest=file_digest(data),
        problems=tuple(_named(problem) for problem in problems),
        summary=_summary(plan, tables),
        plan=plan,
        seats_from=reader.seats_from if isinstance(reader, CsvResults) else 0,
    )


def _problem_order(problem: Problem) -> tuple[int, int, int]:
    return (problem.row or 0, problem.hand or 0, -1 if problem.seat is None else problem.seat)


def _named(problem: Problem) -> Problem:
    """``problem`` with the player in its seat, from the hand's players."""
    seat = problem.seat
    if seat is None or problem.player or problem.facts is None:
        return problem
    names = problem.facts.names
    if 0 <= seat < len(names) and names[seat]:
        return replace(problem, player=names[seat])
    return problem


def _summary(plan: ImportPlan, tables: list[FileTable]) -> ResultsSummary:
    """What the import stores of the file's ``tables``, following ``plan``."""
    stored = [table for table in tables if table.action in (TableAction.CREATE, TableAction.FILL)]
    return ResultsSummary(
        events=len({table.key.event for table in tables}),
        new_events=len(plan.new_events),
        tables=len(tables),
        new_tables=len(stored),
        skipped_tables=sum(1 for table in tables if table.action == TableAction.SKIP),
        hands=sum(len(table.hands) for table in stored),
        new_players=tuple(plan.new_players),
    )


def _check_with_engine(*, league: League, table: FileTable, problems: list[Problem]) -> None:
    """Check a table's hands in order with the engine, as the results service will:
    the league's rules for its seats, the first hand's dealer dealing first. Every
    hand is checked: after a hand that is refused (or whose rows are broken) the
    next is checked from the same totals, and the totals are no longer compared."""
    if table.broken or not table.names:
        return
    try:
        rules = fixtures.game_rules(
            game=league.game, players=len(table.names), options=league.options or {}
        )
    except ServiceError as error:
        seats = len(table.names)
        # the rules' refusal is worded already, in the language of the check
        words = Words.counted(
            ngettext_lazy("%(seats)d seat: %(refusal)s", "%(seats)d seats: %(refusal)s", seats),
            {"seats": seats, "refusal": error.message},
        )
        problems.append(Problem.said(table.row, "seats", words))
        return
    first = table.seats_from  # the file's words count seats as the file does
    if not 0 <= table.first_dealer < len(table.names):
        words = Words(
            gettext_noop(
                "the first hand's dealer is seat %(dealer)d; the table's seats are %(first)d to "
                "%(last)d"
            ),
            {
                "dealer": table.first_dealer + first,
                "first": first,
                "last": len(table.names) - 1 + first,
            },
        )
        problems.append(Problem.said(table.row, "dealer", words, hand=1))
        return
    tally = games.GameTally(rules, first_dealer=table.first_dealer)
    totals_known = True

    def skip() -> games.GameTally:
        return games.GameTally(
            rules,
            first_dealer=table.first_dealer,
            hands_played=tally.hands_played + 1,
            totals=tally.totals,
        )

    for hand in table.hands:
        if hand.record is None or not _fits_the_deal(
            league, tally, hand, problems, seats_from=first
        ):
            tally, totals_known = skip(), False
            continue
        try:
            result = tally.add(hand.record)
        except games.RecordError as error:
            error.hand = hand.number - 1
            problems.append(
                Problem(
                    hand.row_of(error.seat),
                    error.code,
                    error.message,
                    hand=hand.number,
                    seat=error.seat,
                    error=error,
                    facts=hand.facts,
                )
            )
            tally, totals_known = skip(), False
            continue
        for seat, line in enumerate(hand.lines or ()):
            if line.points != result.points[seat]:
                words = Words(
                    gettext_noop(
                        "the points are %(points)d; the rules score %(scored)d for this hand"
                    ),
                    {"points": line.points, "scored": result.points[seat]},
                )
                problems.append(
                    Problem.said(
                        line.row, "points", words, hand=hand.number, seat=seat, facts=hand.facts
                    )
                )
            elif totals_known and line.total != tally.totals[seat]:
                words = Words(
                    gettext_noop("the total is %(total)d; the hands so far add up to %(sum)d"),
                    {"total": line.total, "sum": tally.totals[seat]},
                )
                problems.append(
                    Problem.said(
                        line.row, "total", words, hand=hand.number, seat=seat, facts=hand.facts
                    )
                )


def _fits_the_deal(
    league: League,
    tally: games.GameTally,
    hand: FileHand,
    problems: list[Problem],
    *,
    seats_from: int,
) -> bool:
    """A CSV hand's dealer and cards are the ones the game deals (the engine decides
    both from the hand's place in the game; a move log carries its own deal); its
    words count seats from ``seats_from``, as the file does."""
    fits = True
    if hand.dealer is not None and hand.dealer != tally.next_dealer:
        words = Words(
            gettext_noop(
                "seat %(dealer)d deals hand %(hand)d here, but the deal passes left: seat "
                "%(next)d deals it"
            ),
            {
                "dealer": hand.dealer + seats_from,
                "hand": hand.number,
                "next": tally.next_dealer + seats_from,
            },
        )
        problems.append(Problem.said(hand.rows[0], "dealer", words, hand=hand.number))
        fits = False
    if hand.cards is not None:
        expected = (
            games.buck_euchre.HAND_SIZE if league.game == Game.BUCK_EUCHRE else tally.next_hand_size
        )
        if expected is not None and hand.cards != expected:
            words = Words.counted(
                ngettext_lazy(
                    "hand %(hand)d deals %(cards)d card here; the league's games deal %(dealt)d",
                    "hand %(hand)d deals %(cards)d cards here; the league's games deal %(dealt)d",
                    hand.cards,
                ),
                {"hand": hand.number, "cards": hand.cards, "dealt": expected},
            )
            problems.append(Problem.said(hand.rows[0], "cards", words, hand=hand.number))
            fits = False
    return fits


# -- results: storing --------------------------------------------------------------------


@transaction.atomic
@audit.audited_via(audit.Via.IMPORT)
def results_import(
    *,
    league: League,
    data: bytes,
    format: ImportFormat = ImportFormat.CSV,
    digest: str | None = None,
) -> ResultsCheck:
    """Import a results file into ``league``: all or nothing, in one transaction.

    Locks the club's row, checks the file again (:func:`check_results_import`) and,
    if nothing is wrong, adds the new players, the game nights and rounds the league
    lacks, and each table with its hands (:func:`~league.services.results.game_submit`,
    which owes the standings and ratings jobs of complete games). A file with
    problems is :class:`ImportRefused`; ``digest``, when given, must be the file's
    (:class:`NotThePreviewedFile`). A refusal of another service (a table drawn
    meanwhile, say) passes through; nothing is stored then either. Returns the
    check the import followed: its summary is what was stored.
    """
    _check_digest(data, digest)
    _lock_club(league.club)
    check = check_results_import(league=league, data=data, format=format)
    if not check.ok:
        raise ImportRefused(check)
    plan = check.plan
    players = {player.name: player for player in Player.objects.filter(club=league.club)}
    for player in clubs.players_create(club=league.club, names=plan.new_players):
        players[player.name] = player
    events: dict[int, Event] = {}
    for ids in chunks(sorted(set(plan.events.values()))):
        events.update(Event.objects.in_bulk(ids))
    for event_id, numbers in plan.missing_rounds.items():
        for number in numbers:
            fixtures.round_create(event=events[event_id], number=number)
    event_ids = {key: event_id for key, event_id in plan.events.items()}
    for key, rounds in plan.new_events.items():
        event = fixtures.event_create(league=league, name=key.name, date=key.date, rounds=rounds)
        event_ids[key] = event.pk
    round_of = {
        (round_.event_id, round_.number): round_
        for ids in chunks(sorted(set(event_ids.values())))
        for round_ in Round.objects.filter(event_id__in=ids).select_related("event__league")
    }
    for table in plan.tables:
        if table.action == TableAction.CREATE:
            stored = fixtures.table_create(
                round=round_of[event_ids[table.key.event], table.key.round],
                number=table.key.number,
                players=[players[name] for name in table.names],
                first_dealer=table.first_dealer,
            )
        elif table.action == TableAction.FILL:
            assert table.stored is not None, "a table to fill is one the league has"
            stored = fixtures.table_reseat(
                table=Table.objects.get(pk=table.stored), first_dealer=table.first_dealer
            )
        else:
            continue
        results.game_submit(table=stored, record={"hands": table.records})
    return check


# -- results: in the background ---------------------------------------------------------

UNDER_WAY: Final = (ResultsImport.State.WAITING, ResultsImport.State.RUNNING)
"""The states of an import whose job has still to store the file (or find it unfit)."""


def results_import_queue(
    *, check: ResultsCheck, data: bytes, digest: str, filename: str = "", by: SiteUser | None = None
) -> ResultsImport:
    """Keep ``data``, the file ``check`` read, and owe the job that imports it
    (:func:`results_import_run`), in one transaction: the job is owed exactly when
    the file is kept. For files whose storing would not fit in a request (the
    import page's large files); ``by``, the user who confirmed it, is the audit
    trail's actor for what the job stores.

    ``digest`` (the previewed file's) must be the file's (:class:`NotThePreviewedFile`),
    and ``check`` must have found no problem (:class:`ImportRefused`); the job checks
    the file again as it imports it. The same file confirmed again while its import
    into the league is under way is that import (returned), not a second one.
    Returns the import, ``waiting`` unless it was under way already.
    """
    _check_digest(data, digest)
    if check.digest != digest:
        raise NotThePreviewedFile()
    if not check.ok:
        raise ImportRefused(check)
    league = check.league
    if (under_way := _under_way(league, digest)) is not None:
        return under_way
    try:
        with transaction.atomic():
            queued = ResultsImport.objects.create(
                league=league,
                requested_by=by if by is not None and by.is_authenticated else None,
                filename=filename[:255],
                format=check.format,
                digest=digest,
                data=data,
                tables=check.summary.new_tables,
                hands=check.summary.hands,
                language=translation.get_language() or "",
                created_at=timezone.now(),
            )
            outbox.job_owe(kind=JobOwed.Kind.IMPORT, target_id=queued.pk)
    except IntegrityError:
        # the same confirmation at the same moment (results_import_once_under_way)
        if (under_way := _under_way(league, digest)) is None:
            raise
        return under_way
    return queued


def _under_way(league: League, digest: str) -> ResultsImport | None:
    return (
        ResultsImport.objects.defer("data")
        .filter(league=league, digest=digest, state__in=UNDER_WAY)
        .first()
    )


def results_import_run(*, import_id: int) -> str:
    """The job of a queued import (:func:`results_import_queue`): mark it
    ``running`` (committed at once, for the page that follows it), then, in one
    transaction, check the file again and store it as :func:`results_import` does,
    all or nothing, and say what happened: ``done`` with the summary, or
    ``refused`` (the file no longer fits: a table drawn meanwhile, say). The file
    is emptied once it has been imported or refused. Returns the state it ended
    in (``gone`` for an import deleted since, with its league).

    Safe to run twice, at once too: the import's row is locked (before the club's,
    see the module's docstring) for the whole import, so a second run waits for
    the first, then finds it finished and returns. A failure of the database (a
    timeout, a lost connection) rolls the import back and passes on: the row stays
    ``running``, the job stays owed, and Celery or the sweep runs it again.
    """
    ResultsImport.objects.filter(pk=import_id, state__in=UNDER_WAY).update(
        state=ResultsImport.State.RUNNING, started_at=timezone.now()
    )
    with outbox.running(JobOwed.Kind.IMPORT, import_id):
        queued = (
            ResultsImport.objects.select_for_update(of=("self",))
            .select_related("league__club", "requested_by")
            .filter(pk=import_id)
            .first()
        )
        if queued is None:
            return "gone"
        if queued.state not in UNDER_WAY:
            return str(queued.state)  # finished by another run
        # the refusal is kept as words, in the language the import was asked for in
        # (the services word their refusals as they raise them); none: English
        with translation.override(queued.language or None):
            _run(queued)
        return str(queued.state)


def _run(queued: ResultsImport) -> None:
    """Import a queued file, its row locked, and say what happened
    (:func:`results_import_run`)."""
    try:
        with audit.audit_context(via=audit.Via.IMPORT, actor=queued.requested_by):
            done = results_import(
                league=queued.league,
                data=bytes(queued.data),
                format=ImportFormat(queued.format),
                digest=queued.digest,
            )
    except ImportRefused as refused:
        _finish(queued, refusal=refused.message, problems=len(refused.check.problems))
    except ServiceError as error:  # another service's: something changed since the check
        _finish(queued, refusal=error.message)
    except IntegrityError:  # a change at the same moment: a player of a name added
        _finish(queued, refusal=_("something changed in the league as the file was imported"))
    else:
        _finish(queued, summary=asdict(done.summary))


@shared_task(name=JOB_TASKS[JobOwed.Kind.IMPORT], **JOB_OPTIONS)
def results_import_job(import_id: int) -> str:
    """The Celery task of :func:`results_import_run` (the work owed of kind
    ``import``: :data:`league.outbox.JOB_TASKS` names it)."""
    return results_import_run(import_id=import_id)


def _finish(
    queued: ResultsImport,
    *,
    summary: dict[str, object] | None = None,
    refusal: str = "",
    problems: int = 0,
) -> None:
    """Say what an import came to (done, with its summary; else refused), and let
    its file go."""
    queued.state = ResultsImport.State.DONE if summary is not None else ResultsImport.State.REFUSED
    queued.summary, queued.refusal, queued.problems = summary, refusal, problems
    queued.data = b""
    queued.finished_at = timezone.now()
    queued.save(update_fields=["state", "summary", "refusal", "problems", "data", "finished_at"])


def _check_digest(data: bytes, digest: str | None) -> None:
    if digest is not None and digest != file_digest(data):
        raise NotThePreviewedFile()


def _lock_club(club: Club) -> None:
    """Serialise the imports into one club (see the module's docstring)."""
    Club.objects.select_for_update().get(pk=club.pk)
