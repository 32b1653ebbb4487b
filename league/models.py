"""What the league stores: clubs, players, leagues, events, tables, hands.

Integrity that must never break is in the database: unique seats and
players, one hand per number, the seat counts each game allows, tricks that
are never negative. Writes go through :mod:`league.services`.
"""

from __future__ import annotations

import datetime
import hashlib
from typing import Any, Final

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from league.names import MAX_KEY, MAX_NAME, name_key
from league.rating_model import Skill, model_for


class Game(models.TextChoices):
    BLUKE = "bluke", "Bluke"
    BUCK_EUCHRE = "buck_euchre", "Buck Euchre"


class Visibility(models.TextChoices):
    """Who may read a club's players, results and ratings."""

    PUBLIC = "public", pgettext_lazy("who may read a club", "Anyone")
    MEMBERS = "members", _("The club's members only")


class Club(models.Model):
    """A club. ``visibility`` ``members`` shows its pages, API objects,
    downloads and calendar feeds to its members alone (a role in it, or a
    login linked to one of its players: :func:`league.access.club_visible`);
    ``feed_key`` is the secret of its calendar feeds' private address, for
    calendar apps, which cannot log in (made when first asked for)."""

    name = models.CharField(max_length=100, unique=True)
    slug = models.SlugField(max_length=100, unique=True)
    visibility = models.CharField(
        max_length=10,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        db_default=Visibility.PUBLIC,
    )
    feed_key = models.CharField(max_length=64, blank=True, default="", db_default="")
    # The language of the club's pages for a visitor who chose none and whose
    # browser asks for none we have, and of its mails to players without a choice
    # of their own (docs/translating.md); blank: none, the site's own (en-gb).
    language = models.CharField(
        max_length=10, choices=settings.LANGUAGES, blank=True, default="", db_default=""
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(visibility__in=["public", "members"]), name="club_visibility_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def members_only(self) -> bool:
        return self.visibility == Visibility.MEMBERS


class Membership(models.Model):
    """A user's role in a club: organisers manage it, scorekeepers submit results."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", pgettext_lazy("club role", "Organiser")
        SCOREKEEPER = "scorekeeper", pgettext_lazy("club role", "Scorekeeper")

    # indexed as the first column of membership_once_per_club
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="memberships", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=20, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club"),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "scorekeeper"]), name="membership_known_role"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}, {self.club})"


class PlayerQuerySet(models.QuerySet["Player"]):
    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Player]:
        """Each player's ``name_key`` set from their name, as :meth:`Player.save` does."""
        objs = list(objs)
        for player in objs:
            player.name_key = name_key(player.name)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    """A player of a club. ``name`` is kept as typed (trimmed, NFC); ``name_key``
    is what tells names apart (:func:`league.names.name_key`: case, invisible
    characters and runs of spaces do not count), unique in the club, and set from
    the name whenever a player is saved or made in bulk."""

    # indexed as the first column of player_name_key_unique_in_club
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players", db_index=False)
    name = models.CharField(max_length=MAX_NAME)
    name_key = models.CharField(
        max_length=MAX_KEY,
        editable=False,
        help_text="the name as compared: NFC, invisible characters removed, spaces "
        "collapsed, case folded (league.names)",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    is_guest = models.BooleanField(
        default=False,
        help_text="added on the spot at a game night, until an organiser keeps them",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name_key"], name="player_name_key_unique_in_club"
            ),
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=Q(user__isnull=False),
                name="player_user_once_per_club",
            ),
        ]

    objects = PlayerQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class TableSpill(models.TextChoices):
    """Where a Bluke round's leftover players go when the count does not divide."""

    SMALLER = "smaller", _("Tables of one fewer")
    LARGER = "larger", _("Tables of one more")


class ResultsConfirmation(models.TextChoices):
    """Whether a game entered at its table counts at once, or once a second
    player (or an organiser) has confirmed it."""

    NONE = "none", _("Results count at once")
    PLAYER = "player", _("A second player confirms results entered through a table link")


REPLIES_CLOSE_MINUTES_MAX: Final = 24 * 60
"""The most minutes before a night's start time that its players' replies may close."""


class League(models.Model):
    """A season of one game in a club, with the rule options its tables play."""

    # indexed as the first column of league_slug_unique_in_club
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues", db_index=False)
    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=100)
    game = models.CharField(max_length=20, choices=Game.choices)
    options = models.JSONField(default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(
        default=4, help_text="the preferred table size when a round is drawn (Bluke: 3 to 6)"
    )
    table_spill = models.CharField(
        max_length=10,
        choices=TableSpill.choices,
        default=TableSpill.SMALLER,
        help_text="Bluke: players left over make tables of one fewer, or one more",
    )
    results_confirmation = models.CharField(
        max_length=10,
        choices=ResultsConfirmation.choices,
        default=ResultsConfirmation.NONE,
        db_default=ResultsConfirmation.NONE,
        help_text="player: a game entered through a table link counts once another seat "
        "(or an organiser) confirms it",
    )
    season = models.JSONField(
        null=True,
        blank=True,
        default=None,
        help_text="the season format (league.season): points for places by table size, "
        "best nights, games to qualify; null: ranked by wins, then average place",
    )
    replies_close_minutes = models.PositiveSmallIntegerField(
        default=60,
        db_default=60,
        help_text="players' replies to a game night close this many minutes before its start "
        "time (and always when its first round is drawn): 0 to 1440",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="league_slug_unique_in_club"),
            models.CheckConstraint(
                condition=Q(game__in=["bluke", "buck_euchre"]), name="league_known_game"
            ),
            models.CheckConstraint(
                condition=Q(game="bluke", table_size__gte=3, table_size__lte=6)
                | Q(game="buck_euchre", table_size=4),
                name="league_table_size_allowed",
            ),
            models.CheckConstraint(
                condition=Q(table_spill__in=["smaller", "larger"]), name="league_table_spill_known"
            ),
            models.CheckConstraint(
                condition=Q(results_confirmation__in=["none", "player"]),
                name="league_results_confirmation_known",
            ),
            models.CheckConstraint(
                condition=Q(replies_close_minutes__lte=REPLIES_CLOSE_MINUTES_MAX),
                name="league_replies_close_within_a_day",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    """A game night: a date (with, optionally, a start time and a venue) and
    one or more rounds of tables.

    ``is_final``: the league's final night (:mod:`league.services.finals`), one
    a league at most; its games have their own result and count in no season
    standings of the league (they do count for ratings)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=100)
    date = models.DateField()
    start_time = models.TimeField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True, default="")
    room_key = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="the secret of the room screen's address for the venue's TV, in a club "
        "whose results are for members only (made when first asked for)",
    )
    is_final = models.BooleanField(
        default=False,
        db_default=False,
        help_text="the league's final night: its games count apart from the season",
    )

    class Meta:
        ordering = ["date", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["league"], condition=Q(is_final=True), name="event_one_final_per_league"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class Round(models.Model):
    """A round of an event; once drawn by the seating generator, how it was
    drawn (``seating_method``, ``seating_seed``), so the draw can be reproduced."""

    # indexed as the first column of round_number_unique
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="rounds", db_index=False
    )
    number = models.PositiveSmallIntegerField()
    seating_method = models.CharField(max_length=20, blank=True, default="")
    seating_seed = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.event} round {self.number}"


class Attendance(models.Model):
    """A player present at an event: the rounds they play, from ``from_round``
    to ``until_round`` (null: to the end of the night), and who last changed
    that and when (see :mod:`league.services.attendance`).

    The database keeps one row per player and event and a stretch of rounds
    that is never empty. That the player is of the event's league's club
    spans three tables, so no CHECK can hold it: the services do.
    """

    # indexed as the first column of attendance_once_per_event
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="attendance", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="attendance")
    from_round = models.PositiveSmallIntegerField(help_text="the first round they play")
    until_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the last round they play; null: to the end"
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    changed_at = models.DateTimeField()

    class Meta:
        ordering = ["event", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="attendance_once_per_event"),
            models.CheckConstraint(
                condition=Q(from_round__gte=1), name="attendance_from_round_from_one"
            ),
            models.CheckConstraint(
                condition=Q(until_round__isnull=True) | Q(until_round__gte=F("from_round")),
                name="attendance_until_not_before_from",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}"

    @property
    def present(self) -> bool:
        """Still at the game night: they have not left."""
        return self.until_round is None


class SitOut(models.Model):
    """A player present for a round who was drawn to no table (Buck Euchre's
    leftovers). A sit-out is never a game: standings count it apart."""

    # indexed as the first column of sit_out_once_per_round
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="sit_outs", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sit_outs")

    class Meta:
        ordering = ["round", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="sit_out_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.player} sits out {self.round}"


def secret_digest(secret: str) -> str:
    """What is kept of a secret handed out once in a link (a table's, an
    invitation's): its SHA-256, hex. The secret has 256 random bits, so a
    digest without salt or stretching is safe to store and quick to look up."""
    return hashlib.sha256(secret.encode()).hexdigest()


class SecretLink(models.Model):
    """A link handed out once, whose holder may act without an account (a
    table's, a player's): what is kept of its secret (:func:`secret_digest`),
    who made it and when."""

    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the secret, hex")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField()

    class Meta:
        abstract = True

    @staticmethod
    def digest_of(token: str) -> str:
        """What is stored of a link's secret, and looked up when it comes back."""
        return secret_digest(token)


class PersonalLink(SecretLink):
    """A player's personal link: whoever holds its secret may answer "coming" or
    "not coming" to the player's coming game nights, and check the player in at
    the venue on the night, without an account (:mod:`league.services.replies`).

    Only the secret's SHA-256 digest is stored; the secret is shown (or mailed,
    or printed on a card) once, when the link is made. One link a player, with
    no expiry: a new one replaces the old, which stops working at once, and
    revoking deletes the row."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="personal_link")

    def __str__(self) -> str:
        return f"personal link of {self.player_id}, made {self.created_at}"


class Reply(models.Model):
    """A player's answer to a game night before it: coming or not coming, and
    when they said so (through their personal link). One row a player and
    night; changing the answer updates it, until the night's replies close
    (:func:`league.services.replies.replies_close_at`). A reply is not
    attendance: checking in is (:mod:`league.services.attendance`)."""

    class Answer(models.TextChoices):
        COMING = "coming", pgettext_lazy("reply to a game night", "Coming")
        NOT_COMING = "not_coming", pgettext_lazy("reply to a game night", "Not coming")

    # indexed as the first column of reply_once_per_event
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="replies", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="replies")
    answer = models.CharField(max_length=12, choices=Answer.choices)
    answered_at = models.DateTimeField()

    class Meta:
        ordering = ["event", "player__name"]
        verbose_name_plural = "replies"
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="reply_once_per_event"),
            models.CheckConstraint(
                condition=Q(answer__in=["coming", "not_coming"]), name="reply_known_answer"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.answer} to {self.event_id}"


class TableStatus(models.TextChoices):
    """How far a table's game has got: one vocabulary for the API (the
    values) and the pages (the labels)."""

    NOT_STARTED = "not_started", pgettext_lazy("table status", "Not started")
    IN_PROGRESS = "in_progress", pgettext_lazy("table status", "In progress")
    COMPLETE = "complete", pgettext_lazy("table status", "Complete")


class Confirmation(models.TextChoices):
    """Where a complete game stands with the players' confirmation
    (:mod:`league.services.confirmations`)."""

    NONE = "none", pgettext_lazy("game confirmation", "Counts without confirmation")
    AWAITING = "awaiting", pgettext_lazy("game confirmation", "Awaiting confirmation")
    CONFIRMED = "confirmed", pgettext_lazy("game confirmation", "Confirmed")
    DISPUTED = "disputed", pgettext_lazy("game confirmation", "Disputed")


COUNTED: Final = (Confirmation.NONE, Confirmation.CONFIRMED)
"""The confirmation states in which a complete game counts in standings and ratings."""


class Table(models.Model):
    """One table of a round, holding one game.

    ``game`` repeats the league's game so that the database itself can hold
    the seat count to what that game allows. ``hands_played`` counts the
    stored hands, ``totals`` are the seats' running totals and ``version``
    grows with every change of results (for ``If-Match``); they change only
    in :mod:`league.services.results`, in one row update a change.

    ``confirmation`` says whether a complete game counts yet: ``none`` (it
    counts: entered by a scorekeeper, or the league asks no confirmation) and
    ``confirmed`` count; ``awaiting`` and ``disputed`` do not. ``entered_seat``
    is the seat that last changed the results through a table link (``None``
    when a signed-in user or an import did), which may not confirm them;
    ``confirmation_seat``, ``confirmation_at`` and ``confirmation_note`` say
    who confirmed or disputed (no seat: an organiser), when, and why.
    """

    # indexed as the first column of table_number_unique
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", db_index=False
    )
    number = models.PositiveSmallIntegerField()
    game = models.CharField(max_length=20, choices=Game.choices)
    players = models.PositiveSmallIntegerField()
    first_dealer = models.PositiveSmallIntegerField()
    complete = models.BooleanField(default=False)
    hands_played = models.PositiveSmallIntegerField(default=0)
    totals = models.JSONField(default=list, help_text="each seat's running total")
    seat_players = models.JSONField(
        default=list, help_text="the player id in each seat, as the seatings say"
    )
    version = models.PositiveIntegerField(default=0)
    # db_default too: rows written without the ORM (a bulk COPY) need no confirmation
    confirmation = models.CharField(
        max_length=10,
        choices=Confirmation.choices,
        default=Confirmation.NONE,
        db_default=Confirmation.NONE,
    )
    entered_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the seat that last changed the results by a table link"
    )
    confirmation_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the seat that confirmed or disputed; null: an organiser"
    )
    confirmation_at = models.DateTimeField(null=True, blank=True)
    confirmation_note = models.TextField(
        blank=True, default="", db_default="", help_text="why it is disputed"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(
                condition=Q(confirmation__in=["none", "awaiting", "confirmed", "disputed"]),
                name="table_confirmation_known",
            ),
            # only a complete game awaits confirmation, is confirmed or disputed
            models.CheckConstraint(
                condition=Q(confirmation="none") | Q(complete=True),
                name="table_confirmation_of_a_complete_game",
            ),
            # a dispute says why; nothing else carries a note
            models.CheckConstraint(
                condition=Q(confirmation="disputed", confirmation_note__gt="")
                | (~Q(confirmation="disputed") & Q(confirmation_note="")),
                name="table_confirmation_note_with_a_dispute",
            ),
            models.CheckConstraint(
                condition=Q(entered_seat__isnull=True) | Q(entered_seat__lt=F("players")),
                name="table_entered_seat_is_a_seat",
            ),
            models.CheckConstraint(
                condition=Q(confirmation_seat__isnull=True) | Q(confirmation_seat__lt=F("players")),
                name="table_confirmation_seat_is_a_seat",
            ),
            models.CheckConstraint(
                condition=(
                    Q(game="bluke", players__gte=2, players__lte=15)
                    | Q(game="buck_euchre", players=4)
                ),
                name="table_seat_count_allowed",
            ),
            models.CheckConstraint(
                condition=Q(first_dealer__lt=F("players")), name="table_first_dealer_is_a_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"

    @property
    def status(self) -> TableStatus:
        if self.complete:
            return TableStatus.COMPLETE
        return TableStatus.IN_PROGRESS if self.hands_played else TableStatus.NOT_STARTED

    @property
    def counts(self) -> bool:
        """Whether the game counts in standings and ratings: complete, and
        confirmed or needing no confirmation (its seatings' places are set
        exactly then)."""
        return self.complete and self.confirmation in COUNTED


class TableLink(SecretLink):
    """A table's link for the people playing at it: whoever holds its secret
    may read the table's score sheet, enter and correct its hands until the
    game is confirmed, and confirm or dispute it, without an account
    (:mod:`league.services.links`).

    Only the secret's SHA-256 digest is stored; the secret is shown once, when
    the link is made. One link a table: a new one replaces the old, and
    revoking deletes the row."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="link")
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("created_at")), name="table_link_expires_after_made"
            )
        ]

    def __str__(self) -> str:
        return f"link to {self.table_id}, until {self.expires_at}"


SEATING_COUNTS: Final = (
    "hands",
    "bids_made",
    "overtricks",
    "bucked_as_maker",
    "bucked_as_player",
    "drops",
)
"""A seating's counts of its hand lines, set with its ``place`` and cleared with it."""

SEATING_FIGURES: Final = ("made_trump", "bids_made_hands")
"""More of a seating's hand lines, for the player's page (:mod:`league.player_stats`): set
with its ``place`` and cleared with it, as the counts are, but not summed by the standings."""


class Seating(models.Model):
    """Who sits in which seat; once the game is complete, the seat's final
    ``total`` and ``place`` (the running totals live on the table), and the
    seat's counts of its hand lines, which the standings add up: so a
    player's line in a league of 100,000 games sums that player's seatings,
    not the millions of hand lines behind them. Likewise the figures a player's
    page needs of every hand (:data:`SEATING_FIGURES`: the hands in which the
    seat made trump, the hands whose bid it made), so that the page reads a row
    a game.

    ``round`` repeats the table's round so that the database can keep a
    player at one table per round.
    """

    # indexed as the first column of seating_one_player_per_seat
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seatings", db_index=False
    )
    # indexed as the first column of seating_one_table_per_round
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.PositiveSmallIntegerField()
    # RESTRICT: a player with games cannot be deleted alone, but deleting the
    # whole club (tables and seatings with it) may proceed. Indexed by
    # seating_player_games below.
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="seatings", db_index=False
    )
    total = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # The seat's hand lines counted, once the game is complete (as total and place).
    hands = models.PositiveSmallIntegerField(null=True, blank=True)
    bids_made = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="hands whose tricks reached the bid (Bluke)"
    )
    overtricks = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="tricks over the bid, summed over the bids made (Bluke)"
    )
    bucked_as_maker = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="hands bucked (points above 0) as the maker (Buck Euchre)"
    )
    bucked_as_player = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="hands bucked as another player (Buck Euchre)"
    )
    drops = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="hands dropped (Buck Euchre)"
    )
    made_trump = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="hands in which the seat made trump (Buck Euchre)"
    )
    bids_made_hands = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="the hands whose bid was made, as bits: bit n for hand n, from 0 (Bluke)",
    )

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="seating_one_player_per_seat"),
            models.UniqueConstraint(fields=["round", "player"], name="seating_one_table_per_round"),
            models.CheckConstraint(condition=Q(seat__lte=14), name="seating_seat_in_range"),
            models.CheckConstraint(
                condition=Q(place__isnull=True) | Q(place__gte=1), name="seating_place_from_one"
            ),
            models.CheckConstraint(
                condition=(
                    Q(place__isnull=True, **{f"{n}__isnull": True for n in SEATING_COUNTS})
                    | Q(place__isnull=False, **{f"{n}__isnull": False for n in SEATING_COUNTS})
                ),
                name="seating_counts_with_place",
            ),
            # only a placed seat has them (the results service sets them with the place)
            models.CheckConstraint(
                condition=Q(place__isnull=False)
                | Q(**{f"{n}__isnull": True for n in SEATING_FIGURES}),
                name="seating_figures_with_place",
            ),
        ]
        indexes = [
            # A player's standings line reads only this index (PostgreSQL: an
            # index-only scan), a few pages, where their seatings lie on as
            # many pages as games (a player with 200 games: 4 pages, not 200).
            models.Index(
                fields=["player"],
                include=["id", "round", "place", "total", *SEATING_COUNTS],
                name="seating_player_games",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.seat}: {self.player}"


class Hand(models.Model):
    """One hand of a table's game, as the engine read and scored it.

    ``number`` counts from 0 in the order played. ``record`` is the hand as
    submitted, kept so that a move log can be shown card by card.
    """

    # indexed as the first column of hand_number_unique
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    cards = models.PositiveSmallIntegerField()
    trump = models.CharField(max_length=1, blank=True, default="")
    maker = models.PositiveSmallIntegerField(null=True, blank=True)
    drops = models.JSONField(default=list, blank=True)
    takes_all = models.PositiveSmallIntegerField(null=True, blank=True)
    is_move_log = models.BooleanField()
    record = models.JSONField()
    submitted_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            models.CheckConstraint(
                condition=Q(trump__in=["", "C", "D", "H", "S"]), name="hand_trump_is_a_suit"
            ),
            models.CheckConstraint(condition=Q(cards__gte=1), name="hand_cards_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"


class HandSeat(models.Model):
    """One seat's line of a hand: bid (Bluke), tricks, points and running
    total; ``player`` and ``dropped`` are kept for the standings' sums."""

    # indexed as the first column of handseat_once_per_seat
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    dropped = models.BooleanField(default=False)
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    tricks = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    total = models.IntegerField()

    class Meta:
        ordering = ["hand", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seat"], name="handseat_once_per_seat"),
            models.CheckConstraint(condition=Q(tricks__gte=0), name="handseat_tricks_not_negative"),
            models.CheckConstraint(
                condition=Q(bid__isnull=True) | Q(bid__gte=1), name="handseat_bid_from_one"
            ),
        ]


class Standing(models.Model):
    """A player's line in the standings of a league (``event`` null) or of
    one of its events, as last computed (see :mod:`league.standings`)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="standings")
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="standings"
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standings")
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    average_place = models.FloatField()
    total_points = models.IntegerField()
    average_points = models.FloatField()
    hands = models.PositiveIntegerField()
    bids_made_share = models.FloatField(null=True, blank=True, help_text="Bluke")
    average_overtricks = models.FloatField(null=True, blank=True, help_text="Bluke")
    bucked_as_maker = models.PositiveIntegerField(null=True, blank=True, help_text="Buck Euchre")
    bucked_as_player = models.PositiveIntegerField(null=True, blank=True, help_text="Buck Euchre")
    drops = models.PositiveIntegerField(null=True, blank=True, help_text="Buck Euchre")
    sat_out = models.PositiveIntegerField(
        default=0, help_text="rounds drawn without them (Buck Euchre); never a game"
    )
    season_points = models.FloatField(
        null=True, blank=True, help_text="points for places (a season format); null without one"
    )
    nights_counted = models.PositiveIntegerField(
        default=0, help_text="the nights whose points count (all nights played without a format)"
    )
    qualified = models.BooleanField(
        default=True, help_text="played the season format's games to qualify (always without one)"
    )
    rank = models.PositiveIntegerField(help_text="1 = first, after the tie-breaks")
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["league", "event", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "player"],
                condition=Q(event__isnull=True),
                name="standing_once_per_player_in_league",
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(event__isnull=False),
                name="standing_once_per_player_in_event",
            ),
        ]


class StandingsOwed(models.Model):
    """Standings that a change made stale, for the league's standings job
    (:func:`league.standings.standings_catch_up`) to recompute: a player's line
    in one event and in the league (``event`` and ``player`` given), or, both
    null, every line of the league (a full rebuild, for repair).

    Written in the transaction of the change (a game completed or corrected, a
    draw's sit-outs) beside the :class:`JobOwed` row that sends the job; the
    job deletes the rows it read once it has recomputed them. Rows are not
    unique: the same line owed twice is recomputed once.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    owed_at = models.DateTimeField()

    class Meta:
        verbose_name = "standings owed"
        verbose_name_plural = "standings owed"
        constraints = [
            models.CheckConstraint(
                condition=Q(event__isnull=True, player__isnull=True)
                | Q(event__isnull=False, player__isnull=False),
                name="standings_owed_a_line_or_the_whole_league",
            )
        ]

    def __str__(self) -> str:
        if self.event_id is None:
            return f"all standings of league {self.league_id}"
        return f"player {self.player_id} in event {self.event_id}"


class IdempotencyKey(models.Model):
    """The first response to a POST sent with an ``Idempotency-Key``, so that
    a retry gets the same answer and changes nothing."""

    # indexed as the first column of idempotency_key_once_per_user
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        null=True,
        blank=True,
    )
    # a table link's requests: their keys are the link's (one of user and link is set)
    table_link = models.ForeignKey(
        TableLink,
        on_delete=models.CASCADE,
        related_name="+",
        db_index=False,
        null=True,
        blank=True,
    )
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once_per_user"),
            models.UniqueConstraint(
                fields=["table_link", "key"],
                condition=Q(table_link__isnull=False),
                name="idempotency_key_once_per_link",
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) ^ Q(table_link__isnull=True),
                name="idempotency_key_of_a_user_or_a_link",
            ),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_key_made")]  # pruning


class RatingScope(models.Model):
    """What a set of ratings covers: one league, or (``league`` null) all of
    a club's leagues of one game.

    The ratings job re-rates from the earliest game owed on: the earliest of
    its :class:`RatingsOwed` rows (what changes of results owe, without
    waiting for a job), and ``rerate_from``, an order key owed by work that
    holds the scope's ratings lock as the job does (a rebuild, a migration).
    Neither: the ratings are up to date. The job takes no lock on this row
    but for its last update, so a change that owes it never waits for a job.

    ``means`` keeps the league's running means (a model that rates Bluke
    against them, :class:`league.rating_model.LeagueMeans`) over every game up
    to ``means_through`` (an order key; empty: none kept), so that rating a new
    game at the end does not add up the whole scope again.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="rating_scopes")
    game = models.CharField(max_length=20, choices=Game.choices)
    league = models.OneToOneField(
        League, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_scope"
    )
    rerate_from = models.CharField(max_length=48, null=True, blank=True)
    rated_at = models.DateTimeField(null=True, blank=True)
    means = models.JSONField(
        default=dict, blank=True, help_text='"players/hands": [sum of totals, totals]'
    )
    means_through = models.CharField(max_length=48, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "game"],
                condition=Q(league__isnull=True),
                name="rating_scope_one_club_wide_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"ratings of {self.league or f'{self.club} ({self.game})'}"


class RatingsOwed(models.Model):
    """A re-rating that a change of results owes a scope: its games from the
    order key ``rerate_from`` on, for the scope's ratings job
    (:func:`league.ratings.ratings_refresh`).

    Written in the transaction of the change (a game completed, corrected or
    no longer counting) beside the :class:`JobOwed` row that sends the job,
    as :class:`StandingsOwed` rows are: an insert, which waits for no job
    running (the job holds the scope's advisory lock, not its row). The job
    re-rates from the earliest row it read and deletes those rows once done;
    a row written while it ran stays, for the next run. Rows are not unique.
    """

    scope = models.ForeignKey(RatingScope, on_delete=models.CASCADE, related_name="+")
    rerate_from = models.CharField(max_length=48, help_text="the order key of the changed game")
    owed_at = models.DateTimeField()

    class Meta:
        verbose_name = "ratings owed"
        verbose_name_plural = "ratings owed"

    def __str__(self) -> str:
        return f"scope {self.scope_id} from {self.rerate_from}"


class Rating(models.Model):
    """A player's current rating in a scope."""

    # indexed as the first column of rating_once_per_player
    scope = models.ForeignKey(
        RatingScope, on_delete=models.CASCADE, related_name="ratings", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(
        help_text="what the leaderboard ranks by: mu less 3 x the part of sigma above the "
        "provisional threshold"
    )
    games = models.PositiveIntegerField()
    last_order_key = models.CharField(
        max_length=48, help_text="the order key of the player's latest rated game"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "player"], name="rating_once_per_player"),
        ]


class RatingHistory(models.Model):
    """A player's rating after one game, for charts and for re-rating.

    Derived data, rewritten wholesale by a re-rating (a row per player per
    game), so it is kept lean: its key is (scope, order key, player), which
    serves the re-rating's "from this game on", with one more index for a
    player's history; no surrogate id, and foreign keys that the database
    does not check (deletes still cascade through the ORM). Each of these
    made a re-rating measurably faster (``make bench-ratings``)."""

    pk = models.CompositePrimaryKey("scope", "order_key", "player")
    scope = models.ForeignKey(
        RatingScope,
        on_delete=models.CASCADE,
        related_name="history",
        db_constraint=False,
        db_index=False,
    )
    order_key = models.CharField(max_length=48)
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_history",
        db_constraint=False,
        db_index=False,
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="+", db_constraint=False, db_index=False
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField()
    # What the game was scored against, so a page can say why the rating moved
    # (league.rating_explain); null on rows written before they were kept.
    points = models.FloatField(null=True, help_text="the player's final total in this game")
    mean = models.FloatField(
        null=True,
        help_text="the total the game was measured against: the league's mean at such "
        "tables (Bluke) or the table's average",
    )
    expected = models.FloatField(
        null=True, help_text="the total the model expected of the player at that table"
    )
    against_table = models.BooleanField(
        null=True, help_text="whether ``mean`` is the table's average, not the league's"
    )

    class Meta:
        ordering = ["scope", "player", "order_key"]
        indexes = [
            models.Index(fields=["scope", "player", "order_key"], name="rating_history_of_player")
        ]

    @property
    def ordinal(self) -> float:
        """The board's figure after this game, as on the leaderboard
        (:meth:`~league.rating_model.ScoreModel.board_value`; derived, so a re-rating
        writes less). Reads the scope: load it with the rows."""
        return model_for(self.scope.game).board_value(Skill(self.mu, self.sigma))


class ApiToken(models.Model):
    """A user's key to the API, sent as ``Authorization: Token <key>``.

    Only the key's SHA-256 digest is stored (a stolen database holds no usable
    key) and its last four characters, to tell a user's keys apart; the key
    itself is shown once, when it is made (:func:`league.services.accounts.api_token_create`).
    Revoking deletes the row: nothing is kept that could pass for a live key.
    """

    # indexed as the first column of api_token_name_once_per_user
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        db_index=False,
    )
    name = models.CharField(max_length=100, help_text="what the key is for, e.g. the club laptop")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the key, in hex")
    last_four = models.CharField(max_length=4, help_text="the key's last four characters")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(
        null=True, blank=True, help_text="to the minute: written at most once a minute"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="api_token_name_once_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.name} (…{self.last_four}, {self.user})"

    @property
    def expires_at(self) -> datetime.datetime:
        """When the key stops working: ``API_TOKEN_MAX_AGE`` after it was made."""
        return self.created_at + settings.API_TOKEN_MAX_AGE


class LoginLanguage(models.Model):
    """A login's own choice of language for the pages and the mails it gets: above
    the language switch's cookie, the browser's and the club's (docs/translating.md).
    No row: no choice. Copied into the session at login and when chosen, so that
    the pages read it with no query of their own (:mod:`league.web.languages`)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="language_choice",
    )
    language = models.CharField(max_length=10, choices=settings.LANGUAGES)

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"


class Invitation(models.Model):
    """An organiser's invitation of a login to a role in a club: the login
    holds no role until it accepts (:mod:`league.services.accounts`).

    Whoever holds the invitation's link (its secret: only the SHA-256 digest
    is stored) and is logged in as the invited login accepts it there; the
    login's account page lists it too. A login made for the invitation
    (``new_login``) has no password yet, and the link is where it chooses its
    first one, which accepts the invitation. Accepting, declining and
    withdrawing delete the row; one invitation a club and login, a new one
    replacing the old."""

    # indexed as the first column of invitation_once_per_club_and_login
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    username = models.CharField(
        max_length=150, help_text="the login as the organiser typed it: what their pages show"
    )
    role = models.CharField(max_length=20, choices=Membership.Role.choices)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="the club's player to link the login to when it accepts, if still free",
    )
    new_login = models.BooleanField(
        default=False,
        help_text="the login was made for this invitation: its link sets the first password",
    )
    digest = models.CharField(
        max_length=64, unique=True, help_text="SHA-256 of the link's secret, hex"
    )
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    made_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["made_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], name="invitation_once_per_club_and_login"
            ),
            models.CheckConstraint(
                condition=Q(role__in=["organiser", "scorekeeper"]), name="invitation_known_role"
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("made_at")), name="invitation_expires_after_made"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.username} invited as {self.role} ({self.club_id})"

    @staticmethod
    def digest_of(secret: str) -> str:
        """What is stored of an invitation's secret, and looked up when it comes back."""
        return secret_digest(secret)


class PasswordResetAsked(models.Model):
    """A password reset asked for an email address, for its job to mail
    (:mod:`league.mails`): the request that asked records this row, whatever
    the address, and answers; the job looks the address's logins up and mails
    each its link, made when the mail is sent. So the answer takes the same
    time for an address no login has, and no link is ever stored."""

    email = models.CharField(max_length=254, help_text="the address as typed")
    protocol = models.CharField(max_length=5, help_text="http or https, as the request came")
    domain = models.CharField(max_length=255, help_text="the site's host the request came to")
    # the page's language when it was asked: the mail's, unless the login chose one
    language = models.CharField(max_length=10, blank=True, default="", db_default="")
    asked_at = models.DateTimeField()

    class Meta:
        verbose_name = "password reset asked"
        verbose_name_plural = "password resets asked"

    def __str__(self) -> str:
        return f"password reset for {self.email} at {self.asked_at}"


class JobOwed(models.Model):
    """Work owed to a background job: the transactional outbox of
    :mod:`league.outbox`.

    A service that changes what a job derives writes this row in the same
    transaction as the change (:func:`~league.outbox.job_owe`), so the
    work is recorded exactly when the change commits, whatever the broker
    does. The job clears the row when it has done the work, unless the work
    was owed again meanwhile (``token`` changed); until then the sweep
    (:func:`~league.outbox.jobs_sweep`) sends it again.

    A webhook delivery's row is owed from when its next attempt is due: its
    job sets ``owed_since`` to that time, so the sweep sends it then, not
    before (:mod:`league.webhook_delivery`).
    """

    class Kind(models.TextChoices):
        STANDINGS = "standings", _("a league's standings")
        RATINGS = "ratings", _("a rating scope's ratings")
        WEBHOOK = "webhook", _("a webhook delivery")
        IMPORT = "import", _("a results file's import")
        PASSWORD_RESET = "password_reset", _("a password reset's mail")
        ARCHIVE = "archive", _("a download prepared as a file")

    kind = models.CharField(max_length=20, choices=Kind.choices)
    target_id = models.BigIntegerField(
        help_text="the league (standings), the rating scope (ratings), the delivery "
        "(webhook), the results import (import), the password reset asked "
        "(password_reset) or the archive (archive) to work on"
    )
    owed_since = models.DateTimeField(help_text="when the work was first owed, since last done")
    owed_at = models.DateTimeField(help_text="when it was last owed")
    token = models.BigIntegerField(
        help_text="drawn afresh each time the work is owed: a job clears the row only if it "
        "still holds the token the job read when it began"
    )
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="when last handed to the broker since last owed"
    )
    attempts = models.PositiveIntegerField(
        default=0, help_text="failures so far: publishes the broker refused, runs that raised"
    )
    last_error = models.TextField(blank=True, default="")
    failed_at = models.DateTimeField(
        null=True, blank=True, help_text="when a run last raised, since the work was last owed"
    )

    class Meta:
        ordering = ["owed_since"]
        verbose_name = "job owed"
        verbose_name_plural = "jobs owed"
        constraints = [
            models.UniqueConstraint(fields=["kind", "target_id"], name="job_owed_once_per_target"),
            models.CheckConstraint(
                condition=Q(
                    kind__in=[
                        "standings",
                        "ratings",
                        "webhook",
                        "import",
                        "password_reset",
                        "archive",
                    ]
                ),
                name="job_owed_known_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.target_id}"


class ResultsImport(models.Model):
    """A results file confirmed on the import page, imported by a background job
    (:func:`league.services.imports.results_import_queue`; docs/data.md, "Imports").

    The file is kept here from its confirmation until the job has imported it (or
    found that it no longer fits), then emptied: what stays is what happened.
    ``state`` runs ``waiting`` (the job is owed), ``running`` (the job has begun:
    it checks the file again and stores it, all or nothing, in one transaction),
    then ``done`` (``summary`` says what was stored) or ``refused`` (nothing was
    stored: ``problems`` problems found, or ``refusal`` says why).
    """

    class State(models.TextChoices):
        WAITING = "waiting", pgettext_lazy("results import", "Waiting to start")
        RUNNING = "running", pgettext_lazy("results import", "Importing")
        DONE = "done", pgettext_lazy("results import", "Imported")
        REFUSED = "refused", pgettext_lazy("results import", "Nothing imported")

    class Format(models.TextChoices):
        CSV = "csv", "CSV"
        JSON_LINES = "jsonl", "JSON Lines"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="imports")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="who confirmed it: the audit trail's actor for what it stores",
    )
    filename = models.CharField(max_length=255, blank=True, default="")
    format = models.CharField(max_length=5, choices=Format.choices)
    digest = models.CharField(max_length=64, help_text="SHA-256 of the file, hex")
    data = models.BinaryField(help_text="the file, until it has been imported")
    tables = models.PositiveIntegerField(help_text="tables to store, as checked when confirmed")
    hands = models.PositiveIntegerField(help_text="hands to store, as checked when confirmed")
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    summary = models.JSONField(
        null=True, blank=True, help_text="done: what was stored (imports.ResultsSummary)"
    )
    problems = models.PositiveIntegerField(
        default=0, help_text="refused: the problems the file had when checked again"
    )
    refusal = models.TextField(blank=True, default="", help_text="refused: why, in a sentence")
    language = models.CharField(
        max_length=16,
        blank=True,
        default="",
        help_text="the language the import was asked for in: the job words its refusal in it",
    )
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=["waiting", "running", "done", "refused"]),
                name="results_import_known_state",
            ),
            models.CheckConstraint(
                condition=Q(format__in=["csv", "jsonl"]), name="results_import_known_format"
            ),
            # one import of a file into a league under way at a time: a confirmation
            # sent twice (a double click) is one import
            models.UniqueConstraint(
                fields=["league", "digest"],
                condition=Q(state__in=["waiting", "running"]),
                name="results_import_once_under_way",
            ),
            # started once running; finished exactly when done or refused, and a
            # summary exactly when done
            models.CheckConstraint(
                condition=Q(state="waiting") | Q(started_at__isnull=False),
                name="results_import_started_unless_waiting",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["done", "refused"], finished_at__isnull=False)
                | (Q(state__in=["waiting", "running"]) & Q(finished_at__isnull=True)),
                name="results_import_finished_when_done_or_refused",
            ),
            models.CheckConstraint(
                condition=Q(state="done", summary__isnull=False)
                | (~Q(state="done") & Q(summary__isnull=True)),
                name="results_import_summary_when_done",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.filename or 'a file'} into {self.league_id}: {self.state}"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.REFUSED)


def _loose_reference(to: type[models.Model]) -> Any:
    """A reference the audit trail keeps as a bare id: no database constraint
    and no cascade, so an entry outlives what it names (a table drawn again,
    a night deleted), and no index of its own (the trail's indexes cover it)."""
    return models.ForeignKey(
        to,
        on_delete=models.DO_NOTHING,
        null=True,
        blank=True,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )


class AuditEntry(models.Model):
    """One change of results, seatings, attendance or roles: who made it,
    when, through what, and the record before and after (:mod:`league.audit`).

    Append-only: written by the services in the transaction of the change,
    never updated (a database trigger refuses an UPDATE on both backends),
    deleted only with the club. The table, round, event and actor are kept
    as ids the database does not check, so an entry outlives a table drawn
    again or a user deleted (``actor_name`` keeps the name it was made by).
    """

    class Action(models.TextChoices):
        HAND_SUBMITTED = "hand.submitted", _("hand submitted")
        HAND_CORRECTED = "hand.corrected", _("hand corrected")
        HAND_DELETED = "hand.deleted", _("hand deleted")
        GAME_SUBMITTED = "game.submitted", _("whole game submitted")
        TABLE_CREATED = "table.created", _("table made by hand")
        TABLE_RESEATED = "table.reseated", _("table reseated")
        TABLE_PLAYER_REMOVED = "table.player_removed", _("player taken off a table")
        SEATING_DRAWN = "seating.drawn", _("round drawn")
        SEATING_ADJUSTED = "seating.adjusted", _("round adjusted by hand")
        ATTENDANCE_CHANGED = "attendance.changed", _("attendance changed")
        PLAYER_ANONYMISED = "player.anonymised", _("player anonymised")
        MEMBERSHIP_SET = "membership.set", _("role given")
        MEMBERSHIP_REMOVED = "membership.removed", _("role taken away")
        GAME_CONFIRMED = "game.confirmed", _("game confirmed")
        GAME_DISPUTED = "game.disputed", _("game disputed")
        LINK_MADE = "table_link.made", _("table link made")
        LINK_REVOKED = "table_link.revoked", _("table link revoked")
        SEASON_CHANGED = "league.season_changed", _("season format changed")
        FINAL_MADE = "league.final_made", _("final made")
        REPLY_CHANGED = "reply.changed", _("reply to a game night changed")
        PERSONAL_LINK_MADE = "personal_link.made", _("personal link made")
        PERSONAL_LINK_REVOKED = "personal_link.revoked", _("personal link revoked")
        EVENT_DELETED = "event.deleted", _("game night deleted")
        ROUND_DELETED = "round.deleted", _("round deleted")
        TABLE_DELETED = "table.deleted", _("table deleted")
        PLAYER_DELETED = "player.deleted", _("player deleted")
        PLAYER_MERGED = "player.merged", _("players merged")

    class Via(models.TextChoices):
        API = "api", _("the API")
        PAGE = "page", _("the pages")
        IMPORT = "import", _("an import")
        COMMAND = "command", _("a command or job")
        LINK = "link", _("a table link")
        PERSONAL = "personal", _("a player's personal link")

    # indexed by audit_of_club, which starts with it
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    event = _loose_reference(Event)
    round = _loose_reference(Round)
    table = _loose_reference(Table)
    hand_number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="from 0, as stored; for a change of one hand"
    )
    action = models.CharField(max_length=30, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        null=True,
        blank=True,
        related_name="+",
        db_constraint=False,
        db_index=False,
        help_text="null for a command or job",
    )
    actor_name = models.CharField(max_length=150, blank=True, default="")
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="via a table link: the seat that said it made the change"
    )
    via = models.CharField(max_length=10, choices=Via.choices)
    at = models.DateTimeField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        verbose_name = "audit entry"
        verbose_name_plural = "audit trail"
        indexes = [
            models.Index(fields=["table", "-id"], name="audit_of_table"),
            models.Index(fields=["round", "-id"], name="audit_of_round"),
            models.Index(fields=["club", "-id"], name="audit_of_club"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(
                    action__in=[
                        "hand.submitted",
                        "hand.corrected",
                        "hand.deleted",
                        "game.submitted",
                        "table.created",
                        "table.reseated",
                        "table.player_removed",
                        "seating.drawn",
                        "seating.adjusted",
                        "attendance.changed",
                        "player.anonymised",
                        "membership.set",
                        "membership.removed",
                        "game.confirmed",
                        "game.disputed",
                        "table_link.made",
                        "table_link.revoked",
                        "league.season_changed",
                        "league.final_made",
                        "reply.changed",
                        "personal_link.made",
                        "personal_link.revoked",
                        "event.deleted",
                        "round.deleted",
                        "table.deleted",
                        "player.deleted",
                        "player.merged",
                    ]
                ),
                name="audit_known_action",
            ),
            models.CheckConstraint(
                condition=Q(via__in=["api", "page", "import", "command", "link", "personal"]),
                name="audit_known_via",
            ),
            # a seat exactly for a change through a table link
            models.CheckConstraint(
                condition=Q(via="link", seat__isnull=False)
                | (~Q(via="link") & Q(seat__isnull=True)),
                name="audit_seat_via_link",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action} by {self.actor_name or 'a command'} at {self.at}"


class WebhookEvent(models.TextChoices):
    """What a webhook delivery tells of: the four events an endpoint may
    subscribe to, and the ping an organiser sends to try an endpoint."""

    GAME_COMPLETED = "game.completed", _("A game completed")
    GAME_CONFIRMED = "game.confirmed", _("A game confirmed at its table")
    RESULT_CORRECTED = "result.corrected", _("A result corrected")
    STANDINGS_UPDATED = "standings.updated", _("Standings updated")
    ROUND_SEATED = "round.seated", _("A round seated")
    PING = "ping", _("A test ping")


class WebhookEndpoint(models.Model):
    """A URL of a club's to which the league POSTs the events it subscribes to
    (:mod:`league.services.webhook_endpoints`, :mod:`league.webhook_events`,
    :mod:`league.webhook_delivery`).

    ``secret`` signs every delivery; it is stored because signing needs it,
    and shown once, when the endpoint is made. ``active`` is false when the
    organiser paused the endpoint, or when the league disabled it after
    failing deliveries: then ``disabled_at`` and ``disabled_reason`` say when
    and why. ``consecutive_failures`` counts the failed attempts since the
    last success.
    """

    # indexed as the first column of webhook_url_once_per_club
    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="webhook_endpoints", db_index=False
    )
    url = models.URLField(max_length=500)
    events = models.JSONField(
        default=list, help_text="the event types subscribed to (league.models.WebhookEvent)"
    )
    secret = models.CharField(max_length=100)
    active = models.BooleanField(default=True)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.TextField(blank=True, default="")
    consecutive_failures = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "url"], name="webhook_url_once_per_club"),
            models.CheckConstraint(condition=~Q(secret=""), name="webhook_has_a_secret"),
            models.CheckConstraint(
                condition=Q(disabled_at__isnull=True, disabled_reason="")
                | (Q(disabled_at__isnull=False, active=False) & ~Q(disabled_reason="")),
                name="webhook_disabled_inactive_with_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.url} ({self.club})"


class WebhookDelivery(models.Model):
    """One event sent, or to be sent, to one endpoint.

    ``event_id`` is the event's, the same in every endpoint's delivery of it
    (a receiver drops one it has seen). While ``pending``, ``next_attempt_at``
    says when the next attempt is due; ``attempts`` counts those made.
    """

    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("webhook delivery", "Pending")
        DELIVERED = "delivered", pgettext_lazy("webhook delivery", "Delivered")
        FAILED = "failed", pgettext_lazy("webhook delivery", "Failed")

    # indexed as the first column of webhook_delivery_once_per_endpoint
    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries", db_index=False
    )
    event_id = models.UUIDField()
    event = models.CharField(max_length=30, choices=WebhookEvent.choices)
    payload = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True, default="")
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "webhook deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "event_id"], name="webhook_delivery_once_per_endpoint"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "delivered", "failed"]),
                name="webhook_delivery_known_status",
            ),
            models.CheckConstraint(
                condition=Q(
                    event__in=[
                        "game.completed",
                        "game.confirmed",
                        "result.corrected",
                        "standings.updated",
                        "round.seated",
                        "ping",
                    ]
                ),
                name="webhook_delivery_known_event",
            ),
            # due again exactly while pending; delivered exactly when delivered
            models.CheckConstraint(
                condition=Q(status="pending", next_attempt_at__isnull=False)
                | (~Q(status="pending") & Q(next_attempt_at__isnull=True)),
                name="webhook_delivery_due_while_pending",
            ),
            models.CheckConstraint(
                condition=Q(status="delivered", delivered_at__isnull=False)
                | (~Q(status="delivered") & Q(delivered_at__isnull=True)),
                name="webhook_delivery_delivered_at_when_delivered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.event_id} to {self.endpoint_id}: {self.status}"


class Archive(models.Model):
    """A download prepared in the background: every game of a league, or of one of
    its events, as one gzip-compressed file (:mod:`league.archives`), for a league
    too large to stream within a request (``settings.DOWNLOAD_STREAM_LINES``).

    ``state`` is ``owed`` from the request until the job has written the file, then
    ``ready`` (``file`` names it in the archives storage; ``lines`` rows or records
    and ``size`` bytes before compression) or ``failed`` (``error``, a code: see
    :data:`league.archives.ERRORS`). ``started_at`` is when the job writing it took
    it up, and ``heartbeat_at`` when that job last showed it was at work (every few
    seconds): another job leaves the archive alone until a heartbeat is a minute
    late, and then takes it over. The newest ready archive of each league (or event)
    and kind is kept; a newer one replaces it, file and all.
    """

    class Kind(models.TextChoices):
        GAMES_CSV = "games.csv", _("Every hand of every game (CSV)")
        GAMES_JSONL = "games.jsonl", _("The games as records (JSON Lines)")

    class State(models.TextChoices):
        OWED = "owed", pgettext_lazy("prepared file", "being prepared")
        READY = "ready", pgettext_lazy("prepared file", "ready")
        FAILED = "failed", pgettext_lazy("prepared file", "failed")

    # indexed as the first column of archive_by_scope
    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="archives", db_index=False
    )
    event = models.ForeignKey(
        Event,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="archives",
        help_text="the event whose games it holds; none: the whole league's",
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OWED)
    requested_at = models.DateTimeField()
    started_at = models.DateTimeField(
        null=True, blank=True, help_text="when the job writing it took it up"
    )
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="when the job writing it last showed it was at work"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    file = models.CharField(
        max_length=255, blank=True, default="", help_text="its name in the archives storage"
    )
    lines = models.BigIntegerField(null=True, blank=True, help_text="rows (CSV) or records")
    size = models.BigIntegerField(null=True, blank=True, help_text="bytes, uncompressed")
    error = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["-requested_at", "-id"]
        indexes = [
            models.Index(
                fields=["league", "event", "kind", "-requested_at"], name="archive_by_scope"
            )
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["games.csv", "games.jsonl"]), name="archive_known_kind"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["owed", "ready", "failed"]), name="archive_known_state"
            ),
            # a ready archive has its file and its figures; only a failed one an error
            models.CheckConstraint(
                condition=~Q(state="ready")
                | (~Q(file="") & Q(lines__isnull=False, size__isnull=False)),
                name="archive_ready_has_its_file",
            ),
            models.CheckConstraint(
                condition=Q(state="failed") | Q(error=""), name="archive_error_only_if_failed"
            ),
            # one archive being prepared at a time for a league's (or event's) kind
            models.UniqueConstraint(
                fields=["league", "kind"],
                condition=Q(state="owed", event__isnull=True),
                name="archive_owed_once_per_league",
            ),
            models.UniqueConstraint(
                fields=["event", "kind"],
                condition=Q(state="owed", event__isnull=False),
                name="archive_owed_once_per_event",
            ),
        ]

    def __str__(self) -> str:
        of = self.event if self.event_id is not None else self.league
        return f"{self.kind} of {of} ({self.state})"
