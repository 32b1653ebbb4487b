"""Clubs, the roles their users hold, and their players.

A club keeps at least one organiser: changes to its roles lock the club row
first, so two of them cannot both take away "the other" organiser. A club
may keep its results for its members (``visibility``), with private
addresses for its calendar feeds and a night's room screen; an organiser
anonymises a player on request (:func:`player_anonymise`).

A login is given a role in a club only by accepting an invitation
(:mod:`league.services.accounts`); here, a role it holds changes
(:func:`membership_change`), and a player is linked to a login that holds a
role in the club. Both refuse any other login alike, whether or not it exists,
so that they tell no caller which logins there are.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import Final, TypedDict

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from league import audit, ratings
from league.errors import Conflict, ServiceError
from league.models import (
    Attendance,
    Club,
    Event,
    HandSeat,
    Invitation,
    JobOwed,
    Membership,
    PersonalLink,
    Player,
    Reply,
    Round,
    Seating,
    SitOut,
    Standing,
    Table,
    Visibility,
)
from league.names import MAX_NAME, NameFault, name_clean, name_fault, name_key
from league.outbox import jobs_owe, standings_owe
from league.users import Actor, Login

NO_ROLE_IN_CLUB = "invitation-needed"
"""The ``code`` of the refusal of a login that holds no role in the club (or is
no login at all: the two are refused alike)."""


SLUG_NEEDED = "slug-needed"
"""The ``code`` of a club (or league) name with no letter a-z or digit to make
its slug of: a slug must be given."""


@transaction.atomic
def club_create(
    *,
    name: str,
    slug: str = "",
    visibility: str = Visibility.PUBLIC,
    language: str = "",
    organiser: Actor = None,
) -> Club:
    """A new club; ``organiser`` (a user), if given, becomes its first organiser
    (a ``membership.set`` entry in its audit trail). Who may start one is
    :func:`league.access.check_club_creation`'s to say.

    The slug defaults to the name's (its letters a-z and digits: a name with
    none needs a slug given, :data:`SLUG_NEEDED`). A name another club has,
    in any case, is a :class:`Conflict` by the ``name``; a slug another club
    has, by the ``slug``. ``visibility`` and ``language`` as for :func:`club_update`.
    """
    _check_visibility(visibility)
    _check_language(language)
    slug = slug or slugify(name)
    if not slug:
        raise ServiceError(
            _("the name has no letter or digit to make a slug of; give one"),
            field="slug",
            code=SLUG_NEEDED,
        )
    if Club.objects.filter(name__iexact=name).exists():
        raise Conflict(
            _("a club named %(name)s exists already") % {"name": repr(name)}, field="name"
        )
    if Club.objects.filter(slug=slug).exists():
        raise Conflict(_("another club has the slug %(slug)s") % {"slug": repr(slug)}, field="slug")
    club = Club.objects.create(name=name, slug=slug, visibility=visibility, language=language)
    if organiser is not None:  # in the club's audit trail: who started it
        membership_set(club=club, user=organiser, role=Membership.Role.ORGANISER)
    return club


def _check_visibility(visibility: str) -> None:
    if visibility not in Visibility.values:
        raise ServiceError(
            _("visibility is one of %(choices)s") % {"choices": ", ".join(Visibility.values)},
            field="visibility",
        )


def _check_language(language: str) -> None:
    if language and language not in {code for code, _name in settings.LANGUAGES}:
        raise ServiceError(_("no such language"), field="language")


@transaction.atomic
def club_update(
    *,
    club: Club,
    name: str | None = None,
    visibility: str | None = None,
    language: str | None = None,
) -> Club:
    """Rename a club, or say who may read its players, results and ratings
    (``public``: anyone; ``members``: its members alone, see
    :func:`league.access.club_visible`), or its default language (``""``: none;
    docs/translating.md)."""
    fields = []
    if name is not None:
        if Club.objects.filter(name__iexact=name).exclude(pk=club.pk).exists():
            raise Conflict(
                _("a club named %(name)s exists already") % {"name": repr(name)}, field="name"
            )
        club.name = name
        fields.append("name")
    if visibility is not None:
        _check_visibility(visibility)
        club.visibility = visibility
        fields.append("visibility")
    if language is not None:
        _check_language(language)
        club.language = language
        fields.append("language")
    if fields:
        club.save(update_fields=fields)
    return club


SECRET_BYTES = 24
"""The randomness of a private address (a club's feeds, a night's room screen): 192 bits."""


@transaction.atomic
def club_feed_key(*, club: Club, renew: bool = False) -> str:
    """The secret of the club's calendar feeds' private address, made when
    first asked for; ``renew`` makes a new one (the old address stops
    working). Only the club's members are shown it."""
    locked = Club.objects.select_for_update().get(pk=club.pk)
    if renew or not locked.feed_key:
        locked.feed_key = secrets.token_urlsafe(SECRET_BYTES)
        locked.save(update_fields=["feed_key"])
    club.feed_key = locked.feed_key
    return locked.feed_key


@transaction.atomic
def event_room_key(*, event: Event, renew: bool = False) -> str:
    """The secret of the night's room screen's address for the venue's TV
    (what a members-only club's room screen needs), made when first asked
    for; ``renew`` makes a new one."""
    locked = Event.objects.select_for_update().get(pk=event.pk)
    if renew or not locked.room_key:
        locked.room_key = secrets.token_urlsafe(SECRET_BYTES)
        locked.save(update_fields=["room_key"])
    event.room_key = locked.room_key
    return locked.room_key


ANONYMOUS_NAME = "Former player {id}"
"""What an anonymised player is called: unique in the club, as every name is."""


@transaction.atomic
def player_anonymise(*, player: Player) -> Player:
    """Erase a player's identity on request, keeping their games: the name
    replaced by :data:`ANONYMOUS_NAME`, the login unlinked, the guest mark
    kept as it is; every game, total, standing and rating stays, so that the
    league's figures still add up. One ``player.anonymised`` entry in the
    audit trail, which names the player by id only. Entries written before
    keep the name they recorded: the trail is never edited (docs/audit.md).
    Anonymising twice changes nothing more. The player's personal link, if
    any, stops working (its card or mail named them)."""
    locked = Player.objects.select_for_update().get(pk=player.pk)
    PersonalLink.objects.filter(player=locked).delete()
    name = ANONYMOUS_NAME.format(id=locked.pk)
    if locked.name == name and locked.user_id is None:
        return locked
    same = Player.objects.filter(club_id=locked.club_id, name_key=name_key(name))
    if same.exclude(pk=locked.pk).exists():
        name = f"{name} ({secrets.token_hex(3)})"  # a player once named so by hand
    had_login = locked.user_id is not None
    locked.name = name
    locked.user = None
    locked.save(update_fields=["name", "user"])
    audit.audit_entry_write(
        action=audit.Action.PLAYER_ANONYMISED,
        club_id=locked.club_id,
        before={"player": locked.pk, "had_login": had_login},
        after={"player": locked.pk, "player_name": name},
    )
    return locked


@transaction.atomic
def membership_set(*, club: Club, user: Login, role: str) -> Membership:
    """Give ``user`` a role in ``club``; the club keeps at least one organiser.

    Locks the club row first, so that changes to its roles are serialised.
    """
    Club.objects.select_for_update().get(pk=club.pk)
    current = Membership.objects.filter(club=club, user=user).first()
    if current is not None and current.role == Membership.Role.ORGANISER != role:
        _check_not_last_organiser(club.pk)
    membership, _made = Membership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    if current is None or current.role != role:  # giving the role held already changes nothing
        audit.audit_entry_write(
            action=audit.Action.MEMBERSHIP_SET,
            club_id=club.pk,
            before=None if current is None else _role_record(user, current.role),
            after=_role_record(user, role),
        )
    return membership


@transaction.atomic
def membership_change(*, club: Club, user: AbstractBaseUser, role: str) -> Membership:
    """Change the role that ``user`` (a login, or a reference to one by id)
    holds in ``club`` to ``role``; the club keeps at least one organiser.

    A login that holds no role in the club gets one only by accepting an
    invitation: for it, and for an id that is no login, the same
    :class:`ServiceError` (``field`` ``user``, ``code`` :data:`NO_ROLE_IN_CLUB`).
    """
    Club.objects.select_for_update().get(pk=club.pk)
    current = Membership.objects.select_related("user").filter(club=club, user_id=user.pk).first()
    if current is None:
        raise _no_role_in_club()
    return membership_set(club=club, user=current.user, role=role)


def _no_role_in_club() -> ServiceError:
    return ServiceError(
        _(
            "that login holds no role in the club: a role for anyone else is given by an "
            "invitation they accept (the club's people page)"
        ),
        field="user",
        code=NO_ROLE_IN_CLUB,
    )


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a role; locks the club row first, like :func:`membership_set`."""
    Club.objects.select_for_update().get(pk=membership.club_id)
    if membership.role == Membership.Role.ORGANISER:
        _check_not_last_organiser(membership.club_id)
    before = _role_record(membership.user, membership.role)
    membership.delete()
    audit.audit_entry_write(
        action=audit.Action.MEMBERSHIP_REMOVED, club_id=membership.club_id, before=before
    )


class RoleRecord(TypedDict):
    """A role as the audit trail keeps it (``membership.set``, ``membership.removed``)."""

    user: int
    username: str
    role: str


def _role_record(user: AbstractBaseUser, role: str) -> RoleRecord:
    """A role as the audit trail keeps it: whose (id and login) and which."""
    return {"user": user.pk, "username": user.get_username(), "role": role}


def _check_not_last_organiser(club_id: int) -> None:
    """Refuse to take away the club's last organiser (the club row is locked)."""
    if Membership.objects.filter(club_id=club_id, role=Membership.Role.ORGANISER).count() == 1:
        raise Conflict(_("a club keeps at least one organiser"))


class NameTaken(Conflict):
    """A name whose key (:func:`league.names.name_key`) a player of the club has
    already: ``player`` is that player's id (the API's problem shows it)."""

    def __init__(self, name: str, player: Player) -> None:
        if player.name == name:
            message = _("the club already has a player named %(name)s") % {
                "name": repr(player.name)
            }
        else:
            # Translators: a name differing only in case, spaces or invisible characters
            message = _(
                "the club already has a player named %(name)s (the same name as %(given)s)"
            ) % {"name": repr(player.name), "given": repr(name)}
        super().__init__(
            message,
            field="name",
            code=NAME_TAKEN,
        )
        self.player = player

    @property
    def problem_fields(self) -> dict[str, int]:
        return {"player": self.player.pk}


NAME_TAKEN: Final = "name-taken"
"""The ``code`` of a name the club has already (without regard to case, invisible
characters and runs of spaces)."""
BAD_NAME: Final = "bad-name"
"""The ``code`` of a name refused in itself (a control character, nothing to show,
too long)."""


def name_fault_words(fault: NameFault) -> str:
    """A name's fault (:func:`league.names.name_fault`) in the request's language."""
    if fault.code == "control-character":
        return _("a name cannot hold a control character (%(char)s)") % {
            "char": f"U+{fault.char:04X}"
        }
    if fault.code == "too-long":
        return ngettext(
            "a name has at most %(most)d characters (this one has %(length)d)",
            "a name has at most %(most)d characters (this one has %(length)d)",
            MAX_NAME,
        ) % {"most": MAX_NAME, "length": fault.length}
    if fault.code == "empty":
        return _("the name is empty")
    return _("the name has nothing to show")


def check_name(name: str, *, field: str = "name") -> str:
    """``name`` as a player's name is kept (trimmed, NFC); a
    :class:`ServiceError` (``code`` :data:`BAD_NAME`) when it cannot be one."""
    cleaned = name_clean(name)
    fault = name_fault(cleaned)
    if fault is not None:
        raise ServiceError(name_fault_words(fault), field=field, code=BAD_NAME)
    return cleaned


@transaction.atomic
def player_create(
    *, club: Club, name: str, user: AbstractBaseUser | None = None, is_guest: bool = False
) -> Player:
    """A new player of the club, named as typed (trimmed, NFC: :func:`check_name`);
    a name the club already has, without regard to case, invisible characters and
    runs of spaces (:func:`league.names.name_key`), is a :class:`NameTaken`.
    ``user``, the login linked, must hold a role in the club (see
    :func:`player_update`).

    ``is_guest`` marks a player added on the spot at a game night
    (:func:`league.services.attendance.guest_add`) until an organiser keeps them.

    A name close to one the club has (:func:`league.names.is_close`) is taken: the
    pages ask first (:func:`league.selectors.clubs.close_players`).
    """
    name = _check_player_name(club, name, player=None)
    user = _check_player_user(club, user, player=None)
    return Player.objects.create(club=club, name=name, user=user, is_guest=is_guest)


PLAYERS_A_STATEMENT: Final = 1_000
"""Players one INSERT of :func:`players_create` adds (4,000 parameters; PostgreSQL
takes at most 65,535 in a statement)."""


@transaction.atomic
def players_create(*, club: Club, names: Sequence[str], is_guest: bool = False) -> list[Player]:
    """New players of the club, one a name of ``names`` in its order, all or none:
    a name refused in itself is a :class:`ServiceError`; one the club has already
    (:class:`NameTaken`), or named twice (by its key), a :class:`Conflict`.

    For many at once (an import's, a pasted list's): one query reads the club's
    names and one INSERT adds each :data:`PLAYERS_A_STATEMENT` players, where
    :func:`player_create` takes a query and an INSERT a player. The players
    returned have their ids."""
    wanted = [check_name(name) for name in names]
    counts = Counter(name_key(name) for name in wanted)
    repeated = [name for name in wanted if counts[name_key(name)] > 1]
    if repeated:
        raise Conflict(
            _("%(repeated)s is named twice") % {"repeated": repr(repeated[0])}, field="name"
        )
    # a club's players fit in memory (its pages list them all), and one query
    # reading them is bound by no limit on a statement's parameters
    taken = {player.name_key: player for player in Player.objects.filter(club=club)}
    for name in wanted:
        if name_key(name) in taken:
            raise NameTaken(name, taken[name_key(name)])
    return Player.objects.bulk_create(
        [Player(club=club, name=name, is_guest=is_guest) for name in wanted],
        batch_size=PLAYERS_A_STATEMENT,
    )


@transaction.atomic
def player_update(
    *,
    player: Player,
    name: str | None = None,
    user: AbstractBaseUser | EllipsisType | None = ...,
    is_guest: bool | None = None,
) -> Player:
    """Rename a player, or link them to a user (``None`` unlinks; ``...``
    leaves the link as it is), or keep a guest (``is_guest=False``).

    A new name is checked as :func:`player_create` checks one (another player's
    name, without regard to case, is a :class:`NameTaken`; the player's own name
    in other letters, "ada" for "Ada", is taken).

    A player is linked to a login (or a reference to one by id) that holds a
    role in the club, or stays linked to their own; any other login, or an id
    that is no login, is refused alike (:class:`ServiceError`, ``field``
    ``user``, ``code`` :data:`NO_ROLE_IN_CLUB`): a login is linked to a player
    of a club it has no role in by accepting an invitation that names the
    player.

    Keeping is one way: a player becomes a guest only by being added as one
    at a game night, so ``is_guest=True`` for a player who is not a guest is
    a :class:`Conflict` (for a guest it changes nothing).
    """
    if name is not None:
        player.name = _check_player_name(player.club, name, player=player)
    if user is not ...:
        player.user = _check_player_user(player.club, user, player=player)
    if is_guest is not None and is_guest != player.is_guest:
        if is_guest:
            raise Conflict(
                _("%(player)s is a player of the club already, not a guest")
                % {"player": player.name},
                field="is_guest",
            )
        player.is_guest = False
    player.save()
    return player


def _check_player_name(club: Club, name: str, *, player: Player | None) -> str:
    """The name as kept (:func:`check_name`), once no other player of the club
    has its key (so a score sheet is unambiguous)."""
    name = check_name(name)
    taken = Player.objects.filter(club=club, name_key=name_key(name))
    if player is not None:
        taken = taken.exclude(pk=player.pk)
    holder = taken.first()
    if holder is not None:
        raise NameTaken(name, holder)
    return name


def _check_player_user(
    club: Club, user: AbstractBaseUser | None, *, player: Player | None
) -> Login | None:
    """The login a player of the club may be linked to (``None``: none): one
    with a role in the club, or the player's own; linked to one player of a
    club at most."""
    if user is None:
        return None
    if player is not None and player.user_id == user.pk:
        return player.user
    holder = Membership.objects.select_related("user").filter(club=club, user_id=user.pk).first()
    if holder is None:
        raise _no_role_in_club()
    linked = Player.objects.filter(club=club, user_id=user.pk)
    if player is not None:
        linked = linked.exclude(pk=player.pk)
    if linked.exists():
        raise Conflict(_("that user is already linked to a player of the club"), field="user")
    return holder.user


# -- deleting and merging players ---------------------------------------------------

HAS_GAMES: Final = "has-games"
"""The ``code`` of a player who cannot be deleted: they have games."""
SAME_ROUND: Final = "same-round"
"""The ``code`` of two players who cannot be merged: both were in one round."""
TWO_LOGINS: Final = "two-logins"
"""The ``code`` of two players who cannot be merged: each is linked to a login."""


def _events_lock(event_ids: Iterable[int]) -> None:
    """Lock the events (by id), as the attendance services do before changing theirs."""
    list(Event.objects.select_for_update(of=("self",)).filter(pk__in=set(event_ids)).order_by("pk"))


def _standings_rebuilds_owe(league_ids: Iterable[int]) -> None:
    """Owe each league a full standings rebuild (a player's lines cannot be owed
    once the player is gone), sent when the transaction commits."""
    for league_id in sorted(set(league_ids)):
        standings_owe(league_id=league_id)


@transaction.atomic
def player_delete(*, player: Player) -> None:
    """Delete a player made by mistake: one with no games (no seat at any table).

    Their attendance, sit-outs, standings lines and ratings go with them; an
    invitation that named them stays, naming no player; the audit trail keeps
    its entries (and writes one ``player.deleted``). The leagues where they had a
    standings line (sit-outs) are owed a full standings rebuild. A player with
    games is a :class:`Conflict` (``code`` :data:`HAS_GAMES`): merge them into
    another player, or anonymise them.

    Lock order: the player's row, then the events of their attendance (as the
    attendance services lock an event), then what is deleted.
    """
    locked = Player.objects.select_for_update(of=("self",)).get(pk=player.pk)
    games = Seating.objects.filter(player=locked).count()
    if games:
        raise Conflict(
            ngettext(
                "%(name)s has %(count)d game: a player with games cannot be deleted (merge "
                "them into another player, or anonymise them)",
                "%(name)s has %(count)d games: a player with games cannot be deleted (merge "
                "them into another player, or anonymise them)",
                games,
            )
            % {"name": locked.name, "count": games},
            code=HAS_GAMES,
        )
    attendance = list(Attendance.objects.filter(player=locked).values_list("event_id", flat=True))
    _events_lock(attendance)
    leagues = set(Standing.objects.filter(player=locked).values_list("league_id", flat=True))
    sit_outs = SitOut.objects.filter(player=locked).count()
    audit.audit_entry_write(
        action=audit.Action.PLAYER_DELETED,
        club_id=locked.club_id,
        before={
            "player": locked.pk,
            "player_name": locked.name,
            "is_guest": locked.is_guest,
            "had_login": locked.user_id is not None,
            "attendance": len(attendance),
            "sit_outs": sit_outs,
        },
    )
    locked.delete()
    _standings_rebuilds_owe(leagues)


class MergeRecord(TypedDict):
    """What a merge moved, as the audit trail keeps it (:meth:`MergeMoves.as_record`)."""

    games: int
    attendance: int
    sit_outs: int
    invitations: int
    login: bool


@dataclass(frozen=True)
class MergeMoves:
    """What merging one player into another moves (:func:`check_player_merge`)."""

    games: int
    """Seats at tables (games, complete or not)."""
    attendance: int
    """Game nights they were checked in at."""
    sit_outs: int
    invitations: int
    """Invitations that name the player."""
    login: bool
    """Whether their login moves to the player kept."""
    leagues: tuple[int, ...]
    """The leagues whose standings are recomputed."""
    first_games: tuple[int, ...]
    """Each league's earliest counted game of the player merged (a table id): the
    ratings are re-rated from there."""
    events: tuple[int, ...]
    """The events whose attendance or seats change."""

    def as_record(self) -> MergeRecord:
        """What moved, as the audit trail keeps it."""
        return {
            "games": self.games,
            "attendance": self.attendance,
            "sit_outs": self.sit_outs,
            "invitations": self.invitations,
            "login": self.login,
        }


def _rounds_of(player: Player) -> dict[int, int | None]:
    """The rounds a player was in: round id → their table's id (``None``: sat out)."""
    rounds: dict[int, int | None] = dict(
        SitOut.objects.filter(player=player).values_list("round_id", "player_id")
    )
    rounds = dict.fromkeys(rounds, None)
    rounds.update(Seating.objects.filter(player=player).values_list("round_id", "table_id"))
    return rounds


def check_player_merge(*, player: Player, into: Player) -> MergeMoves:
    """Whether ``player`` (the same person entered twice) can be merged into
    ``into``, and what would move; reads only (a preview's, and the merge's check).

    Refused: a player into themselves or into another club's
    (:class:`ServiceError`, field ``into``); two players who were in one round, at
    one table or not (:class:`Conflict`, ``code`` :data:`SAME_ROUND`: they are two
    people); two players each linked to a login (``code`` :data:`TWO_LOGINS`:
    unlink one first)."""
    if into.pk == player.pk:
        raise ServiceError(_("a player cannot be merged into themselves"), field="into")
    if into.club_id != player.club_id:
        raise ServiceError(_("the player kept must be of the same club"), field="into")
    if player.user_id is not None and into.user_id is not None:
        raise Conflict(
            _(
                "%(player)s and %(into)s are each linked to a login: unlink one of them first (on "
                "their edit page)"
            )
            % {"player": player.name, "into": into.name},
            field="into",
            code=TWO_LOGINS,
        )
    mine, theirs = _rounds_of(player), _rounds_of(into)
    shared = sorted(set(mine) & set(theirs))
    if shared:
        raise _same_round(player, into, shared[0], mine, theirs)
    seatings = Seating.objects.filter(player=player)
    events = set(Attendance.objects.filter(player=player).values_list("event_id", flat=True)) | set(
        Round.objects.filter(pk__in=mine).values_list("event_id", flat=True)
    )
    leagues = set(Standing.objects.filter(player=player).values_list("league_id", flat=True))
    leagues |= set(Event.objects.filter(pk__in=events).values_list("league_id", flat=True))
    first_games: dict[int, int] = {}
    counted = seatings.filter(place__isnull=False).order_by(*ratings.PLAYED_ORDER)
    for league_id, table_id in counted.values_list("table__round__event__league_id", "table_id"):
        first_games.setdefault(league_id, table_id)
    return MergeMoves(
        games=len([table for table in mine.values() if table is not None]),
        attendance=Attendance.objects.filter(player=player).count(),
        sit_outs=len([table for table in mine.values() if table is None]),
        invitations=Invitation.objects.filter(player=player).count(),
        login=player.user_id is not None,
        leagues=tuple(sorted(leagues)),
        first_games=tuple(first_games.values()),
        events=tuple(sorted(events)),
    )


def _same_round(
    player: Player,
    into: Player,
    round_id: int,
    mine: dict[int, int | None],
    theirs: dict[int, int | None],
) -> Conflict:
    round_ = Round.objects.select_related("event").get(pk=round_id)
    words = {
        "player": player.name,
        "into": into.name,
        "round": round_.number,
        "night": round_.event.name,
        # the date as the message always gave it (ISO), in every language
        "date": round_.event.date.isoformat(),
    }
    table_id = mine[round_id]
    if table_id is not None and table_id == theirs[round_id]:
        words["table"] = Table.objects.filter(pk=table_id).values_list("number", flat=True).get()
        message = _(
            "%(player)s and %(into)s both sat at table %(table)s of round %(round)s of "
            "%(night)s (%(date)s): they are two people, not one"
        )
    else:
        message = _(
            "%(player)s and %(into)s both were in round %(round)s of %(night)s (%(date)s): "
            "they are two people, not one"
        )
    return Conflict(
        message % words,
        field="into",
        code=SAME_ROUND,
    )


@transaction.atomic
def player_merge(*, player: Player, into: Player) -> Player:
    """Merge ``player``, the same person entered twice, into ``into`` (kept):
    their seats (seatings, hand lines, the tables' ``seat_players``), attendance,
    sit-outs, replies to nights, personal link (unless ``into`` has one), the
    invitations naming them and their login move to ``into``, and
    ``player`` is deleted (their standings lines, ratings and rating history with
    them). Refused as :func:`check_player_merge` says.

    Attendance at a night both were at becomes one stretch, from the earlier
    first round to the later last one (to the end if either stayed). A table the
    player sat at moves its version on (its seats changed). Every league where the
    player had games or sit-outs is owed a full standings rebuild, and every
    rating scope where they had counted games a re-rating from their earliest one,
    in this transaction. One ``player.merged`` entry in the audit trail names both
    players and what moved. Returns the player kept.

    Lock order: both players' rows (by id), the events of the player's nights (as
    the attendance services lock an event), then their tables (by id), as a change
    of results does, before the seatings and hand lines move.
    """
    locked = {
        p.pk: p
        for p in Player.objects.select_for_update(of=("self",))
        .filter(pk__in=[player.pk, into.pk])
        .order_by("pk")
    }
    if player.pk not in locked or into.pk not in locked:
        raise ServiceError(_("the player kept must be of the same club"), field="into")
    gone, kept = locked[player.pk], locked[into.pk]
    moves = check_player_merge(player=gone, into=kept)
    _events_lock(moves.events)
    tables = list(
        Table.objects.select_for_update(of=("self",))
        .filter(pk__in=Seating.objects.filter(player=gone).values("table_id"))
        .order_by("pk")
    )
    for table in tables:
        table.seat_players = [kept.pk if pk == gone.pk else pk for pk in table.seat_players]
        table.version += 1
    Table.objects.bulk_update(tables, ["seat_players", "version"])
    Seating.objects.filter(player=gone).update(player=kept)
    HandSeat.objects.filter(player=gone).update(player=kept)
    SitOut.objects.filter(player=gone).update(player=kept)
    _attendance_merge(gone, kept)
    _replies_merge(gone, kept)
    Invitation.objects.filter(player=gone).update(player=kept)
    if gone.user_id is not None:
        kept.user_id, gone.user_id = gone.user_id, None
        gone.save(update_fields=["user"])
        kept.save(update_fields=["user"])
    owed_scopes: set[int] = set()
    for table in Table.objects.filter(pk__in=moves.first_games).select_related(
        "round__event__league"
    ):
        owed_scopes.update(scope.pk for scope in ratings.ratings_mark_changed(table=table))
    audit.audit_entry_write(
        action=audit.Action.PLAYER_MERGED,
        club_id=kept.club_id,
        before={"player": gone.pk, "player_name": gone.name, "into": kept.pk},
        after={
            "player": kept.pk,
            "player_name": kept.name,
            "merged": gone.pk,
            "moved": moves.as_record(),
        },
    )
    gone.delete()
    _standings_rebuilds_owe(moves.leagues)
    jobs_owe(jobs=[(JobOwed.Kind.RATINGS, scope_id) for scope_id in owed_scopes])
    return kept


def _replies_merge(gone: Player, kept: Player) -> None:
    """Move ``gone``'s replies to nights and personal link to ``kept``: for a
    night both answered, the later answer stands; ``gone``'s link moves when
    ``kept`` has none, and otherwise goes with ``gone`` (the link ``kept``
    holds is the one that keeps working)."""
    theirs = {reply.event_id: reply for reply in Reply.objects.filter(player=kept)}
    for reply in Reply.objects.filter(player=gone):
        other = theirs.get(reply.event_id)
        if other is None:
            reply.player = kept
            reply.save(update_fields=["player"])
            continue
        if reply.answered_at > other.answered_at:
            other.answer, other.answered_at = reply.answer, reply.answered_at
            other.save(update_fields=["answer", "answered_at"])
        reply.delete()
    if not PersonalLink.objects.filter(player=kept).exists():
        PersonalLink.objects.filter(player=gone).update(player=kept)


def _attendance_merge(gone: Player, kept: Player) -> None:
    """Move ``gone``'s attendance to ``kept``: a night both were at becomes one
    stretch of rounds covering both."""
    theirs = {row.event_id: row for row in Attendance.objects.filter(player=kept)}
    for row in Attendance.objects.filter(player=gone):
        other = theirs.get(row.event_id)
        if other is None:
            row.player = kept
            row.save(update_fields=["player"])
            continue
        other.from_round = min(other.from_round, row.from_round)
        if other.until_round is not None:
            other.until_round = (
                None if row.until_round is None else max(other.until_round, row.until_round)
            )
        other.changed_at = max(other.changed_at, row.changed_at)
        row.delete()
        other.save(update_fields=["from_round", "until_round", "changed_at"])
