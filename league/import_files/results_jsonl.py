"""The reader of results in JSON Lines: a game a line, ``{"event", "date", "round",
"table", "players": [names by seat], "record": <the engine's game record>}``;
move logs are kept as they are."""

from __future__ import annotations

import io
import re
from typing import Final

import games
from league.import_files.problems import Problem, Words, gettext_noop
from league.import_files.results import (
    EventKey,
    FileHand,
    FileTable,
    LeagueGame,
    TableKey,
    table_in_words,
)
from league.import_files.values import MAX_NAME, MAX_ROUND, MAX_TABLE, read_date
from league.names import name_clean, name_fault, name_key

_ESCAPED_NOT_TEXT = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")
"""A JSON escape that reads as a NUL or half of a surrogate pair: UTF-8 text holds
neither raw (and a raw NUL is not JSON), so a line without one needs no closer look."""


def _not_text(value: object, path: str | Words = "") -> tuple[str | Words, str] | None:
    r"""The first string of a JSON value (a key or a value) that holds a NUL or a
    lone half of a surrogate pair, which PostgreSQL refuses and UTF-8 cannot
    encode: where it is (``players[2]``, ``record.hands[0].trump``, ``""`` for the
    value itself) and what it holds, in words; ``None`` when every string is text.

    >>> _not_text({"event": "Night", "players": ["Ann", "B\ud800b"]})
    ('players[1]', 'half of a surrogate pair (\\ud800 to \\udfff)')
    >>> path, what = _not_text({"record": {"a\x00": 1}})
    >>> path.english(), what
    ("a field's name in record", 'a NUL (\\u0000)')
    >>> _not_text({"event": "Caf\u00e9 \U0001f600"}) is None
    True
    """
    if isinstance(value, str):
        if "\0" in value:
            return path, "a NUL (\\u0000)"
        if any("\ud800" <= char <= "\udfff" for char in value):
            return path, "half of a surrogate pair (\\ud800 to \\udfff)"
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            if (found := _not_text(item, f"{path}[{index}]")) is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            within = Words(gettext_noop("a field's name in %(path)s"), {"path": path or _LINE})
            if (found := _not_text(key, within)) is not None:
                return found
            if (found := _not_text(item, f"{path}.{key}" if path else key)) is not None:
                return found
    return None


_LINE: Final = Words(gettext_noop("the line"))
"""Where in a line a value is, when it is the line itself."""


class JsonLinesResults:
    """Reads JSON Lines of games, a game a line (see the module's docstring)."""

    FIELDS: Final = ("event", "date", "round", "table", "players", "record")
    RECORD_FIELDS: Final = ("game", "players", "first_dealer", "options", "hands")

    def __init__(self, league: LeagueGame) -> None:
        self.league = league

    def read(self, data: bytes, problems: list[Problem]) -> list[FileTable]:
        tables: list[FileTable] = []
        seen: dict[TableKey, int] = {}
        # Decoded as read, a line at a time; lines end at "\n" alone: JSON text may
        # hold other line breaks (U+2028) raw.
        lines = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="\n")
        try:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                table = self._table(number, line.rstrip("\r\n"), problems)
                if table is None:
                    continue
                if table.key in seen:
                    words = Words(
                        gettext_noop("%(table)s is on line %(line)d already"),
                        {"table": table_in_words(table.key), "line": seen[table.key]},
                    )
                    problems.append(Problem.said(number, "table_split", words))
                    continue
                seen[table.key] = number
                tables.append(table)
        except UnicodeDecodeError:
            words = Words(gettext_noop("the file is not UTF-8 text"))
            problems.append(Problem.said(None, "encoding", words))
            return []
        if not tables and not problems:
            problems.append(
                Problem.said(None, "empty", Words(gettext_noop("the file has no games")))
            )
        return tables

    def _table(self, line: int, text: str, problems: list[Problem]) -> FileTable | None:
        def bad(text: str, **params: object) -> None:
            problems.append(Problem.said(line, "bad_line", Words(text, params)))

        try:
            value = games.parse_record(text)
        except games.RecordError as error:
            # the engine's English: a reason JSON itself gives (a number too long, say)
            problems.append(Problem(line, "bad_line", error.message))
            return None
        except ValueError:
            bad(gettext_noop("the line is not JSON"))
            return None
        if _ESCAPED_NOT_TEXT.search(text) and (found := _not_text(value)) is not None:
            path, what = found
            # Translators: what is "a NUL (\u0000)" or "half of a surrogate pair (\ud800 to
            # \udfff)", in English: the names of invisible characters
            words = Words(
                gettext_noop(
                    "%(path)s holds %(what)s, which is no character of text: write the name or "
                    "value without it"
                ),
                {"path": path or _LINE, "what": what},
            )
            problems.append(Problem.said(line, "not_text", words))
            return None
        if not isinstance(value, dict):
            bad(
                gettext_noop(
                    "a line is a JSON object: a game with its event, date, round, table and players"
                )
            )
            return None
        wrong = sorted(set(value) ^ set(self.FIELDS))
        if "hands" in value and "record" not in value:
            bad(
                gettext_noop(
                    "the line is a game record alone (as the league's JSON Lines download writes "
                    "it): the import needs it as the record of a line with the game's event, "
                    "date, round, table and players"
                )
            )
            return None
        if wrong:
            fields = ", ".join(self.FIELDS)
            bad(
                gettext_noop("a line has exactly the fields %(fields)s (not so: %(wrong)s)"),
                fields=fields,
                wrong=", ".join(wrong),
            )
            return None
        event, date, round_, number, names, record = (value[key] for key in self.FIELDS)
        if not isinstance(event, str) or not 0 < len(event.strip()) <= MAX_NAME:
            bad(
                gettext_noop("event is a game night's name, 1 to %(most)d characters"),
                most=MAX_NAME,
            )
            return None
        day = read_date(date, line, problems) if isinstance(date, str) else None
        if day is None:
            if not isinstance(date, str):
                bad(gettext_noop("date is a date written 2026-10-01"))
            return None
        for name, number_, high in (("round", round_, MAX_ROUND), ("table", number, MAX_TABLE)):
            if type(number_) is not int or not 1 <= number_ <= high:
                # Translators: field is the line's field, round or table
                bad(
                    gettext_noop("%(field)s is a whole number from 1 to %(most)d"),
                    field=name,
                    most=high,
                )
                return None
        if (
            not isinstance(names, list)
            or not names
            or not all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_NAME for n in names)
        ):
            bad(
                gettext_noop(
                    "players is a list of the players' names by seat, each 1 to %(most)d characters"
                ),
                most=MAX_NAME,
            )
            return None
        names = [name_clean(name) for name in names]
        for name in names:
            fault = name_fault(name)
            if fault is not None:
                bad(gettext_noop("players: %(fault)s"), fault=fault)
                return None
        if not isinstance(record, dict):
            bad(gettext_noop("record is the engine's game record (docs/records.md)"))
            return None
        unknown = sorted(set(record) - set(self.RECORD_FIELDS))
        if unknown:
            bad(gettext_noop("the record has an unknown field %(field)s"), field=repr(unknown[0]))
            return None
        if record.get("game") != self.league.game:
            bad(
                gettext_noop("the record's game is %(game)s: the league plays %(league)s"),
                game=repr(record.get("game")),
                league=repr(self.league.game),
            )
            return None
        if "options" in record and record["options"] != (self.league.options or {}):
            bad(
                gettext_noop("the record's options must be the league's, %(options)s"),
                options=str(self.league.options or {}),
            )
            return None
        if "players" in record and record["players"] != len(names):
            bad(
                gettext_noop("the record has %(players)s players; the line names %(names)d"),
                players=repr(record["players"]),
                names=len(names),
            )
            return None
        first_dealer = record.get("first_dealer")
        if type(first_dealer) is not int or not 0 <= first_dealer < len(names):
            bad(
                gettext_noop("the record's first_dealer is a seat, 0 to %(last)d"),
                last=len(names) - 1,
            )
            return None
        hands = record.get("hands")
        if not isinstance(hands, list) or not hands:
            bad(gettext_noop("the record's hands are a list of hand records, at least one"))
            return None
        key = TableKey(EventKey(day, event.strip()), round_, number)
        table = FileTable(
            key=key,
            row=line,
            names=names,
            first_dealer=first_dealer,
            hands=[],
            results_only=False,
        )
        for index, hand in enumerate(hands):
            table.hands.append(
                FileHand(
                    number=index + 1,
                    rows=[line],
                    record=hand,
                    game=self.league.game,
                    names=names,
                )
            )
        keys = [name_key(name) for name in names]
        first: dict[str, str] = {}  # each name in two seats once, as first spelled
        for name, same in zip(names, keys, strict=True):
            if keys.count(same) > 1:
                first.setdefault(same, name)
        repeated = sorted(first.values())
        for name in repeated:
            words = Words(gettext_noop("%(name)s is in two seats of this table"), {"name": name})
            problems.append(Problem.said(line, "player_twice", words))
        return table
