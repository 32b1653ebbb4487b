"""The simple bot plays whole legal games, the same ones for the same seed."""

from __future__ import annotations

import pytest

from games import check_record, rules_for
from games.bots import bot_game


@pytest.mark.parametrize("game", ["bluke", "buck_euchre"])
@pytest.mark.parametrize("seed", range(8))
def test_bot_games_are_legal_complete_and_repeatable(game: str, seed: int) -> None:
    rules = rules_for(game, 4, {"max_cards": 5} if game == "bluke" and seed % 2 else {})
    hands = bot_game(rules, first_dealer=seed % 4, seed=seed)
    record = {"game": game, "players": 4, "first_dealer": seed % 4,
              "options": rules.options, "hands": hands}  # fmt: skip
    answer = check_record(record)
    assert answer["ok"] is True, answer
    assert answer["complete"] is True
    assert all(hand["winners"] is not None for hand in answer["hands"])
    assert bot_game(rules, first_dealer=seed % 4, seed=seed) == hands
    assert bot_game(rules, first_dealer=seed % 4, seed=seed + 100) != hands
