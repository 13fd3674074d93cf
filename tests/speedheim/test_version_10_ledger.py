"""Version 10, given the usual warbands (conftest): one Treasure die is "1 Treasure die" in the Income roll
and the treasury's reason; an Advantage pair is one draw; on the d20 table (improvement=d20-table) a row at its cap
is rolled again and said so ("roll again"); and version 9, as campaigns recorded on it keep deciding ("1 Treasure
dice", "draw again")."""

from __future__ import annotations

import pytest

from commands.shared import Correct
from commands.speedheim import events as se
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import Table, of


def lost_to_the_skaven(version: str | None = None) -> Table:
    """Battle 1, won by the Skaven, nobody Incapacitated."""
    campaign = Table({}, version=version)
    campaign.warbands()
    campaign.battle(winner="Skaven")
    return campaign


@pytest.mark.parametrize(("version", "warband", "tokens", "dice", "purpose", "reason"), [
    # Rules §7: "Roll 1 d20 per token"; "the winner adds 1": the Skaven, winners with no token, roll one die
    (None, "Skaven", 0, [7], "Skaven: income, 1 Treasure die", "income: Treasure die 7 + 40g"),
    (None, "Sellswords", 2, [7, 5], "Sellswords: income, 2 Treasure dice", "income: Treasure dice 12 + 40g"),
    ("9", "Skaven", 0, [7], "Skaven: income, 1 Treasure dice", "income: Treasure dice 7 + 40g"),
    ("9", "Sellswords", 2, [7, 5], "Sellswords: income, 2 Treasure dice", "income: Treasure dice 12 + 40g"),
])
def test_treasure_dice_are_counted_in_the_singular_and_plural_from_version_10(version, warband, tokens, dice, purpose, reason):
    campaign = lost_to_the_skaven(version)
    # When the warband rolls its income
    events = campaign.do(pg.Income(warband=warband, tokens=tokens), dice)
    # Then its roll and the treasury's reason count the dice
    assert [roll.purpose for roll in of(events, ev.DiceRolled)] == [purpose]
    assert [change.reason for change in of(events, ev.TreasuryChanged)] == [reason]


@pytest.mark.parametrize(("version", "kept_card_asked_as"), [
    (None, "rikk.advantage.1.mel-rgd"),  # the pair is one draw: its keep and the kept card's question, draw 1
    ("9", "rikk.advantage.2.mel-rgd"),  # version 9 asked the kept card's question as a 2nd draw's
])
def test_an_advantage_pairs_questions_share_its_number_from_version_10(version, kept_card_asked_as):
    """Scar 20, "an Improvement Attempt with Advantage" (rules §7): Rikk draws 10 and 02 and keeps 10, Mel/Rgd."""
    campaign = Table({}, version=version)
    campaign.warbands()
    campaign.incap("Gunnar", "Rikk", cards=["01"])
    campaign.battle()
    campaign.do(pg.Income(warband="Skaven"))
    campaign.do(pg.Promotions(warband="Skaven"))
    # When his Scars roll is 20 and the answers name the pair's keep and the kept card's stat
    answers = {"rikk.advantage.1.keep": "10", kept_card_asked_as: "Mel"}
    events = campaign.do(pg.Scars(warband="Skaven", answers=answers), [20, 3], ["10", "02"])
    # Then he tries Mel with card 10, and his 3 improves it
    assert of(events, ev.StatChanged) == [ev.StatChanged(warband="skaven", fighter="rikk", stat="Mel", delta=-1,
                                                         reason="Improvement (advantage), card 10", row="10")]


D20_TABLE = {"improvement": "d20-table"}


@pytest.mark.parametrize(("version", "options", "draw", "again"), [
    (None, D20_TABLE, {"dice": [20, 19]}, "roll again"),  # the d20 table is rolled again
    ("9", D20_TABLE, {"dice": [20, 19]}, "draw again"),  # version 9 said of it what the deck does
    (None, {}, {"cards": ["01", "02"]}, "draw again"),  # the deck draws again on every version
])
def test_a_row_at_its_cap_says_roll_again_on_the_d20_table_from_version_10(version, options, draw, again):
    """Seed: "Should a hero need to make a check to Improve a stat that is already at the Stat (or Skill) Cap,
    draw another card from the Improvement Deck instead"; on the seed's "alternate method … via rolling a d20"
    another row is rolled (rules file §4: "A d20 draws *with* replacement"). Gunnar has Wnd 3, the cap: row 20
    (or card 01), W, is at its cap; then row 19 (or card 02), A: Atk 1 -> 2."""
    campaign = Table(options, version=version)
    campaign.warbands()
    campaign.do(Correct(warband="Sellswords", fighter="Gunnar", reason="setup: Wnd at the cap", stats={"Wnd": 2}))
    events = campaign.incap("Gunnar", "Rat", **draw)
    assert [read.why for read in of(events, se.CardRead)] == [f"Wnd already at its cap of 3: {again}", "Atk 1 -> 2"]


@pytest.mark.parametrize(("version", "got", "again", "player"), [
    (None, "rolled", "roll again", "rolls again"),
    ("9", "drew", "draw again", "draws again"),  # version 9 offered to draw again from a table, as if drawn
])
def test_mel_rgd_with_one_at_its_cap_offers_to_roll_again_on_the_d20_table_from_version_10(version, got, again, player):
    """Seed: "If a unit's Melee or Ranged is at the Stat Cap, the player has the choice to either attempt to Improve
    the stat not at the Stat Cap, or draw again"; on the d20 table, roll again. Gunnar has Rgd 5, the cap: row 7-11,
    Mel/Rgd, offers Mel or rolling again; he rolls again, 19: Atk 1 -> 2."""
    campaign = Table(D20_TABLE, version=version)
    campaign.warbands()
    campaign.do(Correct(warband="Sellswords", fighter="Gunnar", reason="setup: Rgd at the cap", stats={"Rgd": -7}))
    assert campaign.refusal(h.Incapacitate(warband="Sellswords", fighter="Gunnar", victim="Rat"), [7]) == (
        f"Gunnar {got} Mel/Rgd with Rgd at its cap: try Mel or {again}: answer with --answer "
        f"gunnar.rat.1.mel-rgd=CHOICE (one of: Mel, {again})")
    events = campaign.incap("Gunnar", "Rat", dice=[7, 19], **{"gunnar.rat.1.mel-rgd": again})
    assert [read.why for read in of(events, se.CardRead)] == [
        f"Rgd at its cap: the player {player} instead of trying Mel", "Atk 1 -> 2"]


@pytest.mark.parametrize(("version", "wasted"), [(None, "the roll is wasted"), ("9", "the card is wasted")])
def test_a_wasted_row_is_a_wasted_roll_on_the_d20_table_from_version_10(version, wasted):
    """Under `capped_card=wasted` (rules file §10) a W row at its cap is wasted, not rolled again: the roll, on the
    d20 table. Gunnar has Wnd 3, the cap."""
    campaign = Table({**D20_TABLE, "capped_card": "wasted"}, version=version)
    campaign.warbands()
    campaign.do(Correct(warband="Sellswords", fighter="Gunnar", reason="setup: Wnd at the cap", stats={"Wnd": 2}))
    assert [read.why for read in of(campaign.incap("Gunnar", "Rat", dice=[20]), se.CardRead)] == [
        f"Wnd already at its cap of 3: {wasted}"]


@pytest.mark.parametrize(("version", "options", "none"), [
    (None, D20_TABLE, "no row could improve it, so none is rolled"),
    ("9", D20_TABLE, "no card could improve it, so none is drawn"),
    (None, {}, "no card could improve it, so none is drawn"),
])
def test_a_hero_no_row_could_improve_rolls_none_on_the_d20_table_from_version_10(version, options, none):
    """A hero that nothing could improve draws no card (rolling again could not end): Hilde, at every cap,
    rolls no d20 on the table either, and is told so in its words."""
    campaign = Table(options, version=version)
    campaign.warbands()
    # an Animal, for whom Skill/Spell is as at the cap (the seed), at every stat's cap (rules file §4)
    campaign.do(Correct(warband="Sellswords", fighter="Hilde", reason="setup: every cap", add_keywords=["Animal"],
                        stats={"Wnd": 2, "Atk": 2, "Prc": 5, "Inj": 5, "Def": -12, "Mel": -7, "Rgd": -7, "Agi": -3, "Mrl": -2}))
    events = campaign.incap("Hilde", "Hound")
    assert ([read.why for read in of(events, se.CardRead)], of(events, ev.DiceRolled)) == ([f"at every cap: {none}"], [])
