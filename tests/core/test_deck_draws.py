"""A deck run out is shuffled anew from its discards, less the cards in hand (speedheim rules §5.2, and an
Advantage pair's first card, held while the second is drawn): where that leaves no card, the draw is refused
in the rules' words, before any shuffle; it raised IndexError (a ledger deck) or asked for a card no deck
holds (a physical one)."""

from __future__ import annotations

import pytest

from ledger.decide import Context, TableDice
from ledger.errors import RuleViolation
from ledger.state import CampaignState

PURPOSE = "Boss: Improvement (advantage)"
ALL_IN_HAND = f"{PURPOSE}: no card of improvement is left to draw: 01 is in hand, and no other to shuffle into a new deck"


@pytest.mark.parametrize("decks", ["ledger", "physical"])
def test_a_deck_whose_only_card_is_in_hand_refuses_the_draw_before_any_shuffle(decks):
    # Given a one-card deck whose card was drawn and is still in hand
    ctx = Context(CampaignState(), dice=TableDice(given=[], cards=["01", "01"]), shuffle_dice=TableDice(given=[]),
                  answers={}, ask=None, ruleset_evolve=None, decks={"improvement": ["01"]}, options={"decks": decks})
    assert ctx.draw("improvement", PURPOSE) == "01"
    events = len(ctx.events)
    # When a second card is drawn while it is held
    with pytest.raises(RuleViolation) as refused:
        ctx.draw("improvement", PURPOSE, held=("01",))
    # Then the draw is refused, and nothing more was shuffled or drawn
    assert str(refused.value) == ALL_IN_HAND
    assert len(ctx.events) == events
