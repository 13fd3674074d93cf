"""The log's lines of Retinue purchases (read-model rows format 3): given the usual campaign, when an
advancement is bought, then its events read so."""

from __future__ import annotations

from commands.retinue.commands import Buy
from ledger.describe import describe


def test_an_attribute_bought_says_why_without_saying_the_change_twice(game):
    """S2 "Wi or Sa +1: 6"; S7: Sa 5 is beyond Wren's Human baseline 2 + 1, so she reduces Mt. The
    first line read "Wren Sa +1: advancement: Sa +1"."""
    game.xp("Wren", 6)
    events = game.do(Buy(warband="Hawks", fighter="Wren", advancement="Sa", answers={"reduce": "Mt"}))
    assert [describe(event, game.state) for event in events] == [
        "Wren spends 6 XP on Sa +1",
        "Wren Sa +1 (advancement)",
        "Wren Mt -1 (S7: Sa 5 is beyond the ancestry baseline 2 + 1)",
    ]
