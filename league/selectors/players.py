"""Reads of a player: the profile's player, their latest games, and
everything the league keeps about them (their own data, to take away)."""

from __future__ import annotations

from django.db.models import QuerySet

from league import ratings
from league.models import Attendance, PersonalLink, Player, Reply, Seating, Standing
from league.selectors.ratings import player_ratings


def player_for_page() -> QuerySet[Player]:
    """Players with their club, which the profile names."""
    return Player.objects.select_related("club")


def player_recent_games(*, player: Player, limit: int = 10) -> list[Seating]:
    """The player's latest games that count, the latest first (in the order
    played, as the ratings count them), with table, round, event and league."""
    return list(
        Seating.objects.filter(player=player, place__isnull=False)
        .select_related("table__round__event__league")
        .order_by(*(f"-{field}" for field in ratings.PLAYED_ORDER))[:limit]
    )


def player_data(*, player: Player) -> dict[str, object]:
    """Everything the league keeps about a player, for them to take away
    (the player's own data, on request): who they are, their login's username,
    the game nights they attended, every game they sat at with its seat,
    total, place and confirmation, their standing lines and their ratings
    with each one's history, their replies to game nights and when their
    personal link was made. Nine queries, whatever the number of games."""
    seatings = (
        Seating.objects.filter(player=player)
        .select_related("table__round__event__league")
        .order_by("table__round__event__date", "table__round__number", "table__number")
    )
    games = []
    for seating in seatings:
        table = seating.table
        event = table.round.event
        games.append(
            {
                "league": event.league.name,
                "event": event.name,
                "date": event.date.isoformat(),
                "round": table.round.number,
                "table": table.number,
                "seat": seating.seat,
                "hands": table.hands_played,
                "complete": table.complete,
                "total": table.totals[seating.seat] if seating.seat < len(table.totals) else None,
                "place": seating.place,
                "confirmation": table.confirmation,
            }
        )
    attended = (
        Attendance.objects.filter(player=player)
        .select_related("event__league")
        .order_by("event__date", "event_id")
    )
    lines = Standing.objects.filter(player=player).select_related("league", "event")
    answered = (
        Reply.objects.filter(player=player)
        .select_related("event__league")
        .order_by("event__date", "event_id")
    )
    link = PersonalLink.objects.filter(player=player).first()
    return {
        "player": {
            "id": player.pk,
            "name": player.name,
            "club": player.club.name,
            "is_guest": player.is_guest,
            "login": player.user.get_username() if player.user is not None else None,
        },
        "attendance": [
            {
                "league": row.event.league.name,
                "event": row.event.name,
                "date": row.event.date.isoformat(),
                "from_round": row.from_round,
                "until_round": row.until_round,
            }
            for row in attended
        ],
        "games": games,
        "standings": [
            {
                "league": line.league.name,
                "event": line.event.name if line.event is not None else None,
                "rank": line.rank,
                "games": line.games,
                "wins": line.wins,
                "average_place": line.average_place,
                "total_points": line.total_points,
            }
            for line in lines.order_by("league__name", "event__date", "event_id")
        ],
        "ratings": [
            {
                "scope": rated.scope.league.name
                if rated.scope.league
                else f"club-wide {rated.scope.game}",
                "mu": rated.rating.mu,
                "sigma": rated.rating.sigma,
                "ordinal": rated.rating.ordinal,
                "games": rated.rating.games,
                "history": [
                    {"mu": row.mu, "sigma": row.sigma, "games": row.games} for row in rated.history
                ],
            }
            for rated in player_ratings(player=player)
        ],
        "replies": [
            {
                "league": reply.event.league.name,
                "event": reply.event.name,
                "date": reply.event.date.isoformat(),
                "answer": reply.answer,
                "answered_at": reply.answered_at.isoformat(),
            }
            for reply in answered
        ],
        "personal_link": None if link is None else {"created_at": link.created_at.isoformat()},
    }


def player_for_manage() -> QuerySet[Player]:
    """Players with their club and linked login."""
    return Player.objects.select_related("club", "user")
