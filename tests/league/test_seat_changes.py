"""Taking a player off a published table before its first hand
(:mod:`league.services.seat_changes`): a smaller table, a replacement, the
round re-seated, every refusal with nothing stored, the night's attendance,
sit-outs, the audit trail, the standings and webhooks owed."""

from __future__ import annotations

from typing import Any

import pytest

from league.errors import Conflict, ServiceError
from league.models import (
    Attendance,
    AuditEntry,
    Game,
    JobOwed,
    SitOut,
    StandingsOwed,
    Table,
    WebhookDelivery,
    WebhookEvent,
)
from league.services.attendance import attendance_check_in
from league.services.results import hand_submit
from league.services.seat_changes import (
    Departure,
    Outcome,
    Waiting,
    table_player_remove,
)
from league.services.seating import event_schedule_commit
from league.services.webhook_endpoints import webhook_endpoint_create
from tests.support.factories import PlayerFactory, make_table
from tests.support.records import bluke_results, buck_takes_all
from tests.support.seat_changes import Night, names, seated_night, seats_of, sitting_out
from tests.support.state import db_state

pytestmark = pytest.mark.django_db


def remove(night: Night, table: int, player: int, **kwargs: Any) -> Any:
    """Take ``night.players[player]`` off round 1's table numbered ``table``."""
    return table_player_remove(
        table=night.tables[table - 1],
        player=night.players[player],
        by=night.setup.organiser,
        **kwargs,
    )


def entries_after(mark: int) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(pk__gt=mark).order_by("pk"))


def last_entry() -> int:
    return AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def stretch(night: Night, player: int) -> tuple[int, int | None] | None:
    row = Attendance.objects.filter(event=night.event, player=night.players[player]).first()
    return None if row is None else (row.from_round, row.until_round)


# -- a smaller table -------------------------------------------------------------------


def test_a_preview_of_a_smaller_table_stores_nothing_and_keeps_the_first_dealer() -> None:
    night = seated_night(first_dealers=(2,))
    before = db_state()

    removal = remove(night, 1, 0)

    assert db_state() == before
    assert not removal.committed
    assert removal.outcome is Outcome.SMALLER
    assert removal.departure is Departure.NOT_COME
    assert removal.candidates == ()
    assert removal.seed is None
    first = removal.tables[0]
    assert names(first.players) == names(night.players[1:4])
    assert first.changed
    assert first.players[first.first_dealer] == night.players[2]  # still deals first
    assert [t.changed for t in removal.tables] == [True, False, False]


def test_a_commit_plays_the_table_smaller_and_the_player_who_did_not_come_is_off_the_list() -> None:
    night = seated_night(first_dealers=(1,))
    table = night.tables[0]
    mark = last_entry()

    removal = remove(night, 1, 1, commit=True)

    assert removal.committed
    table.refresh_from_db()
    assert table.players == 3
    assert table.version == 1
    assert seats_of(night.rounds[1])[1] == names([night.players[0], *night.players[2:4]])
    # the first dealer left: the next seat (now seat 1) deals first
    assert table.first_dealer == 1
    assert stretch(night, 1) is None
    entries = entries_after(mark)
    assert [e.action for e in entries] == [
        "table.reseated",
        "attendance.changed",
        "table.player_removed",
    ]
    removed = entries[-1]
    assert removed.table_id == table.pk
    assert removed.before["player"] == night.players[1].pk
    assert removed.before["tables"][0]["players"][1]["player_name"] == night.players[1].name
    assert removed.after["outcome"] == "smaller"
    assert removed.after["departure"] == "not_come"
    assert [p["player"] for p in removed.after["tables"][0]["players"]] == [
        p.pk for p in (night.players[0], night.players[2], night.players[3])
    ]


def test_a_player_who_played_earlier_rounds_leaves_after_the_last_of_them() -> None:
    night = seated_night()
    for table in night.tables:
        hand_submit(table=table, record=bluke_results(13, players=table.players))
    later = make_table(round=night.rounds[2], players=night.players[:4], number=1)
    night.tables = [later]

    removal = remove(night, 1, 3, commit=True)

    assert removal.departure is Departure.LEFT
    assert stretch(night, 3) == (1, 1)
    assert seats_of(night.rounds[2]) == {1: names(night.players[:3])}


def test_a_player_who_stays_sits_the_round_out_and_keeps_their_night() -> None:
    night = seated_night()
    removal = remove(night, 1, 0, leaves=False, commit=True)

    assert removal.departure is Departure.STAYS
    assert stretch(night, 0) == (1, None)
    assert sitting_out(night.rounds[1]) == [night.players[0].name]
    owed = StandingsOwed.objects.filter(event=night.event).values_list("player_id", flat=True)
    assert list(owed) == [night.players[0].pk]


# -- someone takes the seat -------------------------------------------------------------


def test_a_player_sitting_out_is_proposed_and_takes_the_seat() -> None:
    night = seated_night(game=Game.BUCK_EUCHRE, present=9, seats=((0, 1, 2, 3), (4, 5, 6, 7)),
                         sit_out=(8,))  # fmt: skip
    preview = remove(night, 2, 5)
    assert preview.proposed == night.players[8]
    assert [(c.player, c.where) for c in preview.candidates] == [
        (night.players[8], Waiting.SITTING_OUT)
    ]
    # named by nobody, Buck Euchre's three left are drawn again with the others
    assert preview.outcome is Outcome.ROUND_RESEATED
    assert preview.sit_out == ()

    removal = remove(night, 2, 5, replacement=night.players[8], commit=True)

    assert removal.outcome is Outcome.REPLACED
    assert seats_of(night.rounds[1])[2] == names([night.players[i] for i in (4, 8, 6, 7)])
    assert sitting_out(night.rounds[1]) == []
    assert stretch(night, 5) is None
    owed = set(StandingsOwed.objects.filter(event=night.event).values_list("player_id", flat=True))
    assert owed == {night.players[8].pk}
    assert JobOwed.objects.filter(kind=JobOwed.Kind.STANDINGS).exists()
    entry = AuditEntry.objects.get(action="table.player_removed")
    assert entry.after["replacement"] == {
        "player": night.players[8].pk,
        "player_name": night.players[8].name,
    }
    assert entry.after["sit_out"] == []


def test_a_late_arrival_takes_the_seat_and_plays_from_this_round() -> None:
    night = seated_night()
    late = PlayerFactory(club=night.setup.club, name="Zed")
    attendance_check_in(event=night.event, player=late, by=night.setup.organiser)
    assert Attendance.objects.get(player=late).from_round == 2

    preview = remove(night, 3, 7)
    assert [(c.player, c.where) for c in preview.candidates] == [(late, Waiting.ARRIVED_LATE)]

    removal = remove(night, 3, 7, replacement=late, commit=True)

    assert removal.outcome is Outcome.REPLACED
    assert seats_of(night.rounds[1])[3] == ["Zed", night.players[8].name, night.players[9].name]
    assert Attendance.objects.get(player=late).from_round == 1
    assert (
        AuditEntry.objects.filter(action="attendance.changed", after__player=late.pk).count() == 2
    )


def test_a_replacement_is_present_not_seated_not_the_player_and_of_the_club() -> None:
    night = seated_night(present=11)  # players[10] is checked in but not seated
    other = seated_night()
    absent = PlayerFactory(club=night.setup.club)
    before = db_state()
    refusals = {
        "seated": (night.players[4], Conflict, "already at table 2"),
        "absent": (absent, Conflict, "not present for round 1"),
        "self": (night.players[0], ServiceError, "their own seat"),
        "stranger": (other.players[9], ServiceError, "not a player of the league's club"),
    }
    for replacement, kind, words in refusals.values():
        with pytest.raises(kind) as refused:
            remove(night, 1, 0, replacement=replacement, commit=True)
        assert refused.value.field == "replacement"
        assert words in refused.value.message
    assert db_state() == before
    candidates = remove(night, 1, 0).candidates
    assert [(c.player, c.where) for c in candidates] == [(night.players[10], Waiting.NOT_SEATED)]


# -- the round re-seated ---------------------------------------------------------------


def test_a_table_too_small_has_the_rounds_open_tables_drawn_again_as_previewed() -> None:
    night = seated_night()
    started = night.tables[0]
    hand_submit(table=started, record=bluke_results(13))
    mark = last_entry()

    preview = remove(night, 2, 4)
    assert preview.outcome is Outcome.ROUND_RESEATED
    assert preview.seed is not None
    assert not preview.committed

    removal = remove(night, 2, 4, seed=preview.seed, commit=True)

    assert [(t.number, names(t.players), t.first_dealer) for t in removal.tables] == [
        (t.number, names(t.players), t.first_dealer) for t in preview.tables
    ]
    stored = seats_of(night.rounds[1])
    assert stored[1] == names(night.players[:4])  # the started table is untouched
    assert len(stored) == 2  # five players left: one table of five
    (number,) = set(stored) - {1}
    assert sorted(stored[number]) == sorted(names([night.players[i] for i in (5, 6, 7, 8, 9)]))
    assert [t.number for t in removal.dropped] == [{2: 3, 3: 2}[number]]
    assert not Table.objects.filter(pk=removal.dropped[0].pk).exists()
    started.refresh_from_db()
    assert started.version == 1  # the hand's move only
    actions = [e.action for e in entries_after(mark)]
    assert actions.count("table.reseated") == 1
    assert actions[-1] == "table.player_removed"


def test_buck_euchre_leftovers_sit_out_when_a_table_is_drawn_away() -> None:
    night = seated_night(game=Game.BUCK_EUCHRE, present=8, seats=((0, 1, 2, 3), (4, 5, 6, 7)))

    removal = remove(night, 1, 0, seed=3, commit=True)

    assert removal.outcome is Outcome.ROUND_RESEATED
    tables = seats_of(night.rounds[1])
    assert len(tables) == 1 and len(next(iter(tables.values()))) == 4
    out = sitting_out(night.rounds[1])
    assert len(out) == 3
    assert night.players[0].name not in out
    owed = set(
        StandingsOwed.objects.filter(event=night.event).values_list("player__name", flat=True)
    )
    assert owed == set(out)


def test_no_allowed_seating_is_refused_with_its_reason_and_nothing_stored() -> None:
    night = seated_night(game=Game.BUCK_EUCHRE, present=4, seats=((0, 1, 2, 3),))
    before = db_state()

    for commit in (False, True):
        with pytest.raises(Conflict) as refused:
            remove(night, 1, 2, commit=commit)
        assert (refused.value.field, refused.value.code) == ("replacement", "no_seating")
        assert "a Buck Euchre table seats four" in refused.value.message
        assert "nobody present is free to take the seat" in refused.value.message
    assert db_state() == before


# -- refusals --------------------------------------------------------------------------


def test_a_table_with_a_hand_entered_keeps_its_seats() -> None:
    night = seated_night(game=Game.BUCK_EUCHRE, present=9, seats=((0, 1, 2, 3), (4, 5, 6, 7)),
                         sit_out=(8,))  # fmt: skip
    hand_submit(table=night.tables[0], record=buck_takes_all(0))
    before = db_state()

    with pytest.raises(Conflict) as refused:
        remove(night, 1, 1, replacement=night.players[8], commit=True)

    assert (refused.value.field, refused.value.code) == ("table", "table_started")
    assert db_state() == before


def test_a_player_not_at_the_table_or_of_another_club_is_refused() -> None:
    night = seated_night()
    other = seated_night()
    before = db_state()

    with pytest.raises(ServiceError) as not_there:
        remove(night, 1, 5, commit=True)
    with pytest.raises(ServiceError) as stranger:
        table_player_remove(table=night.tables[0], player=other.players[0], commit=True)

    assert not_there.value.field == "player" and "is not at table 1" in not_there.value.message
    assert stranger.value.field == "player" and "not a player" in stranger.value.message
    assert not isinstance(stranger.value, Conflict)
    assert db_state() == before


def test_a_leaver_seated_in_a_later_round_is_taken_off_there_first() -> None:
    night = seated_night(seats=())
    event_schedule_commit(event=night.event, seed=1)
    round_1 = Table.objects.filter(round=night.rounds[1]).order_by("number")
    table = round_1.first()
    assert table is not None
    player = table.seatings.get(seat=0).player
    before = db_state()

    with pytest.raises(Conflict) as refused:
        table_player_remove(table=table, player=player, commit=True)
    assert (refused.value.field, refused.value.code) == ("leaves", "seated_later")
    assert db_state() == before

    # taken off the last round first, then the earlier: the night's list follows
    for number in (3, 2, 1):
        at = Table.objects.get(round=night.rounds[number], seatings__player=player)
        table_player_remove(table=at, player=player, commit=True)
    assert not Attendance.objects.filter(event=night.event, player=player).exists()
    assert not Table.objects.filter(round__event=night.event, seatings__player=player).exists()


def test_a_leaver_sits_out_no_later_round() -> None:
    night = seated_night()
    later = SitOut.objects.create(round=night.rounds[2], player=night.players[0])

    remove(night, 1, 0, commit=True)

    assert not SitOut.objects.filter(pk=later.pk).exists()
    owed = StandingsOwed.objects.filter(event=night.event).values_list("player_id", flat=True)
    assert list(owed) == [night.players[0].pk]


def test_a_seed_out_of_range_is_refused() -> None:
    night = seated_night()
    with pytest.raises(ServiceError) as refused:
        remove(night, 1, 0, seed=-1)
    assert refused.value.field == "seed"


# -- webhooks ---------------------------------------------------------------------------


def test_the_rounds_new_seating_is_sent_to_its_webhooks(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True  # the endpoint is never called here
    night = seated_night()
    webhook_endpoint_create(
        club=night.setup.club, url="http://127.0.0.1:9/hook", events=[WebhookEvent.ROUND_SEATED]
    )

    remove(night, 1, 0, commit=True)

    (delivery,) = WebhookDelivery.objects.filter(event=WebhookEvent.ROUND_SEATED)
    table = delivery.payload["tables"][0]
    assert [seat["player"]["id"] for seat in table["players"]] == [p.pk for p in night.players[1:4]]
