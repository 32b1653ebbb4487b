"""A 25-hand Bluke pad through the grid on the default set-up, through a real
server (benchmarks/pad_entry.py with one pad a way): the whole pad in two
requests, or a row a request in 26, every answer checked by the benchmark. The
benchmark prints the server's times; none is asserted here."""

from __future__ import annotations

from benchmarks import pad_entry


def test_a_pad_is_entered_in_two_requests_or_a_row_a_request_in_26() -> None:
    args = pad_entry.parse(["--tables", "1", "--ways", "whole", "rows"])
    ways, pads = pad_entry.measure(args)
    assert [(way.name, way.requests) for way in ways] == [("whole", [2]), ("rows", [26])]
    assert [len(pad) for pad in pads] == [25, 25]
    assert [len(way.per_hand) for way in ways] == [1, 25]


def test_the_typing_estimate_counts_what_a_row_asks_of_the_fingers() -> None:
    """A row of four players' one-digit bids and tricks: a mental act, the trump
    picked, then sixteen keystrokes (eight digits, eight moves on)."""
    row = {"trump": "S", "bids": [1, 0, 2, 1], "tricks": [1, 1, 1, 1]}
    expected = pad_entry.MENTAL + pad_entry.POINT + 17 * 0.28 + 4 * pad_entry.MENTAL
    assert abs(pad_entry.typing_estimate([[row]], 0.28) - expected) < 1e-9
