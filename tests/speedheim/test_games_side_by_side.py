"""Given/when/then on the ledger: a league plays games side by side. Incapacitations are recorded "the
moment it happens, during the battle" (README), so while Sellswords fight Skaven the Orcs may be fighting
the Elves; whichever battle is recorded first is battle 1, and the other game goes on toward battle 2.
And units are hired at step 7 of the post-game, "Spend Gold: Buy units" (shared/rules/speedheim.md §7),
after step 5's "Each hero makes one free Improvement Attempt"."""

from __future__ import annotations

import pytest

from commands.shared import EnlistWarband
from commands.speedheim import events as se
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import CAPTAIN, INFANTRY, Table, of


def league(version: str | None = None) -> Table:
    """The fixture's Sellswords and Skaven, and the Orcs (Grub, leader; Snot, henchman) and Elves (Ael, leader)."""
    campaign = Table({}, version=version)
    campaign.warbands()
    campaign.do(EnlistWarband(name="Orcs", player="Cid", treasury=500))
    campaign.do(h.Recruit(warband="Orcs", name="Grub", role="leader", stats=CAPTAIN, keywords=["Leader"], paid=False))
    campaign.do(h.Recruit(warband="Orcs", name="Snot", role="henchman", stats=INFANTRY, paid=False))
    campaign.do(EnlistWarband(name="Elves", player="Dee", treasury=500))
    campaign.do(h.Recruit(warband="Elves", name="Ael", role="leader", stats=CAPTAIN, keywords=["Leader"], paid=False))
    return campaign


def incap(campaign: Table, band: str, fighter: str, victim: str, card: str) -> list[ev.Event]:
    return campaign.do(h.Incapacitate(warband=band, fighter=fighter, victim=victim), cards=[card])


def battle(campaign: Table, *bands: str, winner: str) -> list[ev.Event]:
    return campaign.do(h.RecordSpeedheimBattle(participants=list(bands), winner=winner))


def test_the_battle_recorded_first_is_battle_1_and_the_other_game_counts_toward_battle_2():
    campaign = league()
    # Given Gunnar takes out Rikk (card 01) and, at the next table, Grub takes out Ael (card 02)
    incap(campaign, "Sellswords", "Gunnar", "Rikk", "01")
    incap(campaign, "Orcs", "Grub", "Ael", "02")
    # When the Sellswords' battle is recorded (it was refused: "Orcs recorded Incapacitations in this battle")
    events = battle(campaign, "Sellswords", "Skaven", winner="Sellswords")
    # Then it is battle 1, with Gunnar's Incapacitation only; the Orcs' game goes on toward battle 2
    assert of(events, se.GameCarried) == [se.GameCarried(warbands=["orcs", "elves"], battle=1, incapacitations=1)]
    assert of(events, ev.BattleRecorded)[0].participants == ["sellswords", "skaven"]
    assert [(e.fighter, e.victim) for e in se.incapacitations(campaign.state, 1)] == [("gunnar", "rikk")]
    assert [(e.fighter, e.victim) for e in se.incapacitations(campaign.state, 2)] == [("grub", "ael")]
    # And Ael, out of the game, cannot be taken out again in it; the Orcs' battle is battle 2
    assert campaign.refusal(h.Incapacitate(warband="Orcs", fighter="Snot", victim="Ael"), cards=["03"]) == (
        "Ael is already Incapacitated in battle 2")
    assert of(battle(campaign, "Orcs", "Elves", winner="Orcs"), ev.BattleRecorded)[0].battle == 2
    # Where Ael rolls his Scars: "Every unit Incapacitated in the game rolls for Scars"
    campaign.do(pg.Income(warband="Elves"))
    campaign.do(pg.Promotions(warband="Elves"))
    assert [r.purpose for r in of(campaign.do(pg.Scars(warband="Elves"), [12]), ev.DiceRolled)] == ["Ael: Hero Scars"]


def test_a_game_finished_first_is_recorded_while_another_goes_on():
    campaign = league()
    incap(campaign, "Orcs", "Grub", "Ael", "02")
    events = battle(campaign, "Sellswords", "Skaven", winner="Skaven")
    assert of(events, se.GameCarried)[0].describe(campaign.state) == (
        "Orcs and Elves are still playing: the Incapacitation of their game so far counts toward battle 2, "
        "since battle 1 was recorded first")
    assert se.incapacitations(campaign.state, 1) == []


def test_a_henchman_to_promote_in_the_game_that_goes_on_promotes_at_the_end_of_its_battle():
    campaign = league()
    # Snot takes out Ael, a Leader: card 05's henchman half, "Promote if a Leader", and he draws no more
    incap(campaign, "Orcs", "Snot", "Ael", "05")
    battle(campaign, "Sellswords", "Skaven", winner="Skaven")
    assert h.promotes_in(campaign.state, campaign.state.fighter("Snot")) == 2
    battle(campaign, "Orcs", "Elves", winner="Orcs")
    campaign.do(pg.Income(warband="Orcs"), [4])
    promoted = of(campaign.do(pg.Promotions(warband="Orcs")), ev.FighterPromoted)
    assert [(p.fighter, p.reason) for p in promoted] == [
        ("snot", "promote card drawn in battle 2: keeps its unit type and stat line")]


def test_a_unit_of_another_game_that_met_a_warband_of_this_battle_is_still_refused():
    campaign = league()
    # Grub took out Rat of the Skaven: the Orcs fought in the Skaven's battle, so it must name them
    incap(campaign, "Orcs", "Grub", "Rat", "02")
    assert campaign.refusal(h.RecordSpeedheimBattle(participants=["Sellswords", "Skaven"], winner="Skaven")) == (
        "Orcs recorded Incapacitations in this battle: name it as a warband that fought")


def test_version_4_refuses_a_battle_while_another_game_has_incapacitations():
    campaign = league(version="4")
    incap(campaign, "Orcs", "Grub", "Ael", "02")
    assert campaign.refusal(h.RecordSpeedheimBattle(participants=["Sellswords", "Skaven"], winner="Skaven")) == (
        "Orcs recorded Incapacitations in this battle: name it as a warband that fought")


HIRE = h.Recruit(warband="Skaven", name="Newbie", role="hero", stats=CAPTAIN, cost=50)
STEPS = [(pg.Income(warband="Skaven"), [], []), (pg.Promotions(warband="Skaven"), [], []),
         (pg.Scars(warband="Skaven"), [12], []), (pg.FreeAttempts(warband="Skaven"), [], ["02", "03"])]


def fought_then(steps: int, version: str | None = None) -> Table:
    """Battle 1, Rikk taken out; then the Skaven's first `steps` post-game steps."""
    campaign = league(version)
    incap(campaign, "Sellswords", "Gunnar", "Rikk", "01")
    battle(campaign, "Sellswords", "Skaven", winner="Sellswords")
    for command, dice, cards in STEPS[:steps]:
        campaign.do(command, dice, cards)
    return campaign


@pytest.mark.parametrize(("steps", "first"), [(0, "Income & Loot"), (3, "Free Improvement Attempts")])
def test_a_unit_is_not_hired_before_the_free_attempts(steps, first):
    # A hero hired now would make "one free Improvement Attempt" for a game he never played
    assert fought_then(steps).refusal(HIRE) == f"Skaven cannot spend gold yet: {first} first (post-game of battle 1)"


def test_a_unit_is_hired_in_the_spend_gold_step_and_after_the_post_game():
    campaign = fought_then(4)
    assert of(campaign.do(HIRE), ev.TreasuryChanged)[0].delta == -50
    campaign.do(pg.SpendGold(warband="Skaven"))
    assert of(campaign.do(h.Recruit(warband="Skaven", name="Later", role="henchman", stats=INFANTRY)), ev.FighterRecruited)


def test_version_4_hires_at_any_step():
    assert of(fought_then(0, version="4").do(HIRE), ev.FighterRecruited)


def words_of(campaign: Table, events: list[ev.Event]) -> str:
    """The log's line of the Incapacitation among `events`, with the campaign's state now."""
    return next(e for e in events if isinstance(e, se.Incapacitation)).describe(campaign.state)


def test_an_incapacitations_line_says_only_what_is_known_of_its_battle():
    """The log said "Grub Incapacitated Ael, a leader, in battle 1" of an Incapacitation that counts
    toward battle 2, its game being carried past the Sellswords' battle recorded first. A row is worded
    with the state just after its own transaction (projections.tables), so it says what is known then."""
    campaign = league()
    sellswords = incap(campaign, "Sellswords", "Gunnar", "Rikk", "01")
    one_game = words_of(campaign, sellswords)
    orcs = incap(campaign, "Orcs", "Grub", "Ael", "02")
    two_games = words_of(campaign, orcs)
    battle(campaign, "Sellswords", "Skaven", winner="Sellswords")
    carried = words_of(campaign, orcs)
    battle(campaign, "Orcs", "Elves", winner="Orcs")
    assert [one_game, two_games, carried, words_of(campaign, orcs), words_of(campaign, sellswords)] == [
        # given one game going on: the battle recorded next
        "Gunnar Incapacitated Rikk, a hero, in the game toward battle 1",
        # given two, either may be recorded first
        "Grub Incapacitated Ael, a leader, in the game of Orcs and Elves toward battle 1, beside that of Sellswords and Skaven",
        # once the Sellswords' battle is recorded first, the Orcs' game goes on toward battle 2
        "Grub Incapacitated Ael, a leader, in the game toward battle 2",
        # and once each battle is recorded, its number
        "Grub Incapacitated Ael, a leader, in battle 2",
        "Gunnar Incapacitated Rikk, a hero, in battle 1",
    ]
