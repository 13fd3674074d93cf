"""The Quartermaster and Roster steps (rules §11): after Exploration (or Reinforcements) and until
the Quartermaster step is done, a warband retires 2-scar models, recruits, buys Battlekit and
Glory Items at the price the player gives, sells them for half that price rounded up in the
currency paid, and moves kit between the Arsenal and its models; then Quartermaster and Roster
are each a confirmation, and the Campaign Phase is finished."""

from __future__ import annotations

import pytest

from commands.shared import GainItem
from commands.trench_crusade import events as tc
from commands.trench_crusade.commands import (
    Allocate,
    BuyKit,
    Experience,
    Exploration,
    Promotions,
    Quartermaster,
    Recruit,
    Retire,
    Roster,
    SellKit,
    Trauma,
)
from commands.trench_crusade.phase import PHASE
from ledger import events as ev

from .conftest import PHASE_COMMANDS

PHASE_ORDER = "(the Campaign Phase goes Trauma, Promotions, Experience, Advancement, Exploration, Quartermaster, Roster)"


def through_experience(table) -> None:
    """Battle 1 won by the Pilgrims, Anna's Headshot giving 1 Glory; no casualties. Promotions: 1
    base + 1 deed = 2 dice, Anna 1 and Bert 1, both 1s; Experience: Gaius survived, 1 XP (no
    Advancement Roll)."""
    table.pilgrims()
    table.legion()
    table.battle(deeds={"Anna": ["headshot"]})
    table.do(Trauma(warband="Pilgrims"))
    table.do(Promotions(warband="Pilgrims", even=True), [1, 1])
    table.do(Experience(warband="Pilgrims"))


@pytest.fixture
def shop(table):
    """The Pilgrims in the Quartermaster window of battle 1 with 730 ducats (700 + Exploration
    Roll 1+1+1 = 3, 30 ducats of loot) and 1 Glory."""
    through_experience(table)
    table.do(Exploration(warband="Pilgrims", rerolls=[]), [1, 1, 1])
    band = table.state.warbands["pilgrims"]
    assert (band.treasury, tc.band_facts(table.state, band.id).glory) == (730, 1)
    return table


def shield(price: int = 15, **bought) -> BuyKit:
    return BuyKit(warband="Pilgrims", item="Trench Shield", price=price, **bought)


# --- buying and selling ----------------------------------------------------------------------------


def test_battlekit_bought_with_ducats_goes_to_the_arsenal_with_its_price(shop):
    # When the Pilgrims buy a Trench Shield priced 15 ducats,
    events = shop.do(shield())
    # then 15 ducats leave the Strongbox and the shield, with its price, goes to the Arsenal.
    assert events == [
        ev.TreasuryChanged(warband="pilgrims", delta=-15, reason="bought Trench Shield"),
        tc.KitBought(warband="pilgrims", item="Trench Shield", price=15, currency="ducats"),
        ev.ItemGained(warband="pilgrims", item="Trench Shield", reason="bought for 15 ducats"),
    ]
    band = shop.state.warbands["pilgrims"]
    assert (band.treasury, band.stash) == (715, ["Trench Shield"])


@pytest.mark.parametrize(("price", "refund"), [(15, 8), (7, 4), (2, 1)])
def test_selling_gives_back_half_the_price_paid_rounded_up(shop, price, refund):
    # Given a Trench Shield bought at this price,
    shop.do(shield(price))
    # when it is sold from the Arsenal,
    events = shop.do(SellKit(warband="Pilgrims", item="Trench Shield"))
    # then half the price, rounded up, comes back to the Strongbox.
    assert events == [
        ev.ItemLost(warband="pilgrims", item="Trench Shield", reason=f"sold for {refund} ducats (half of {price}, rounded up)"),
        ev.TreasuryChanged(warband="pilgrims", delta=refund, reason="sold Trench Shield"),
    ]
    band = shop.state.warbands["pilgrims"]
    assert (band.treasury, band.stash) == (730 - price + refund, [])


def test_a_glory_item_is_bought_and_sold_in_glory(shop):
    # When the Pilgrims buy a Glory Item for their 1 Glory and sell it again,
    bought = shop.do(BuyKit(warband="Pilgrims", item="Martyr's Medal", price=1, currency="glory", glory_item=True))
    sold = shop.do(SellKit(warband="Pilgrims", item="Martyr's Medal"))
    # then Glory pays for it and half of 1, rounded up, is 1 Glory back; the ducats are untouched.
    assert bought == [
        tc.GloryChanged(warband="pilgrims", delta=-1, reason="bought Martyr's Medal"),
        tc.KitBought(warband="pilgrims", item="Martyr's Medal", price=1, currency="glory", glory_item=True),
        ev.ItemGained(warband="pilgrims", item="Martyr's Medal", reason="bought for 1 Glory"),
    ]
    assert sold == [
        ev.ItemLost(warband="pilgrims", item="Martyr's Medal", reason="sold for 1 Glory (half of 1, rounded up)"),
        tc.GloryChanged(warband="pilgrims", delta=1, reason="sold Martyr's Medal"),
    ]
    band = shop.state.warbands["pilgrims"]
    assert (band.treasury, tc.band_facts(shop.state, band.id).glory) == (730, 1)


def test_kit_the_ledger_has_no_price_for_is_sold_at_the_price_the_player_gives(shop):
    # Given Bert carries a Rifle he was recruited with (no price on the ledger),
    shop.do(GainItem(warband="Pilgrims", fighter="Bert", item="Rifle"))
    sell = SellKit(warband="Pilgrims", item="Rifle", fighter="Bert")
    # then selling it needs the price paid,
    assert shop.refusal(sell) == (
        "the ledger does not know what Pilgrims paid for Rifle: give the price paid (--price, with --glory if it was paid in Glory)"
    )
    # and with it (7 ducats), half rounded up comes back.
    assert shop.do(SellKit(warband="Pilgrims", item="Rifle", fighter="Bert", price=7)) == [
        ev.ItemLost(warband="pilgrims", item="Rifle", fighter="bert", reason="sold for 4 ducats (half of 7, rounded up)"),
        ev.TreasuryChanged(warband="pilgrims", delta=4, reason="sold Rifle"),
    ]
    assert shop.state.fighters["bert"].equipment == []


@pytest.mark.parametrize(("command", "message"), [
    pytest.param(shield(731), "Pilgrims has 730 ducats; Trench Shield costs 731", id="not enough ducats"),
    pytest.param(BuyKit(warband="Pilgrims", item="Martyr's Medal", price=2, currency="glory", glory_item=True),
                 "Pilgrims has 1 Glory; Martyr's Medal costs 2", id="not enough Glory"),
    pytest.param(BuyKit(warband="Pilgrims", item="Martyr's Medal", price=1, glory_item=True),
                 "a Glory Item is bought with Glory, not ducats", id="a Glory Item for ducats"),
    pytest.param(SellKit(warband="Pilgrims", item="Rifle"), "Pilgrims has no Rifle in the Arsenal", id="selling what is not there"),
    pytest.param(SellKit(warband="Pilgrims", item="Rifle", fighter="Anna"), "Anna carries no Rifle", id="selling what a model lacks"),
    pytest.param(Allocate(warband="Pilgrims", item="Rifle", fighter="Anna"), "Pilgrims has no Rifle in the Arsenal",
                 id="giving what is not in the Arsenal"),
    pytest.param(Allocate(warband="Pilgrims", item="Rifle", fighter="Anna", to_arsenal=True), "Anna carries no Rifle",
                 id="stowing what a model lacks"),
    pytest.param(Retire(warband="Pilgrims", fighter="Gaius"),
                 "Gaius has 0 Battle Scars: only a model with 2 Battle Scars may be retired", id="retiring without 2 scars"),
])
def test_refusals_in_the_window_write_nothing(shop, command, message):
    assert shop.refusal(command) == message


def test_a_price_paid_is_not_contradicted_when_selling(shop):
    shop.do(shield())
    assert shop.refusal(SellKit(warband="Pilgrims", item="Trench Shield", price=20)) == (
        "Pilgrims paid 15 ducats for Trench Shield: it sells for half of that"
    )


# --- allocating ----------------------------------------------------------------------------------------


def test_elite_only_kit_waits_in_the_arsenal_for_an_elite(shop):
    # Given ELITE-only Battlekit bought into the Arsenal,
    shop.do(BuyKit(warband="Pilgrims", item="Holy Relic Blade", price=20, elite_only=True))
    # then Anna, a Troop, cannot be given it,
    assert shop.refusal(Allocate(warband="Pilgrims", item="Holy Relic Blade", fighter="Anna")) == (
        "Holy Relic Blade is ELITE-only Battlekit and Anna is not ELITE"
    )
    # Gaius, an ELITE, can, and can put it back.
    assert shop.do(Allocate(warband="Pilgrims", item="Holy Relic Blade", fighter="Gaius")) == [
        ev.ItemLost(warband="pilgrims", item="Holy Relic Blade", reason="to Gaius"),
        ev.ItemGained(warband="pilgrims", item="Holy Relic Blade", fighter="gaius", reason="from the Arsenal"),
    ]
    assert shop.do(Allocate(warband="Pilgrims", item="Holy Relic Blade", fighter="Gaius", to_arsenal=True)) == [
        ev.ItemLost(warband="pilgrims", item="Holy Relic Blade", fighter="gaius", reason="to the Arsenal"),
        ev.ItemGained(warband="pilgrims", item="Holy Relic Blade", reason="from Gaius"),
    ]
    assert shop.state.warbands["pilgrims"].stash == ["Holy Relic Blade"]


def test_kit_that_is_not_elite_only_goes_to_a_troop(shop):
    shop.do(shield())
    shop.do(Allocate(warband="Pilgrims", item="Trench Shield", fighter="Anna"))
    assert (shop.state.fighters["anna"].equipment, shop.state.warbands["pilgrims"].stash) == (["Trench Shield"], [])


# --- recruiting -----------------------------------------------------------------------------------------


def test_recruiting_in_the_window_pays_from_the_strongbox(shop):
    events = shop.do(Recruit(warband="Pilgrims", name="Dora", model="Trench Pilgrim", cost=30))
    assert events[1:] == [
        ev.TreasuryChanged(warband="pilgrims", delta=-30, reason="recruited Dora"),
        tc.ModelEntry(warband="pilgrims", fighter="dora", model="Trench Pilgrim"),
    ]
    assert shop.state.warbands["pilgrims"].treasury == 700


# --- retiring a model with 2 Battle Scars ----------------------------------------------------------


@pytest.fixture
def scarred(table):
    """Gaius, carrying a Holy Icon, goes Out of Action in two battles: D66 16 Chest Wound, then
    14 Hand Wound, 2 Battle Scars (a 3rd would make him Unfit for Duty). Battle 1's phase ends with
    Reinforcements and nothing bought; battle 2's reaches the Quartermaster step through
    Reinforcements too (Gaius's 2 XP owe an Advancement Roll: double 1s, Patron Skill)."""
    table.pilgrims()
    table.legion()
    table.do(GainItem(warband="Pilgrims", fighter="Gaius", item="Holy Icon"))
    table.battle(ooa=["Gaius"])
    table.do(Trauma(warband="Pilgrims"), [1, 6])
    table.finish_phases(promotions=[1])
    table.battle(ooa=["Gaius"])
    table.do(Trauma(warband="Pilgrims"), [1, 4])
    dice = {"promotions": [1], "advancement": [1, 1, 1, 1]}
    while (step := PHASE.next_step(table.state, table.state.warbands["pilgrims"])) != "quartermaster":
        table.do(PHASE_COMMANDS[step](table.state, "pilgrims"), dice.get(step, []))
    assert tc.model_facts(table.state, "gaius").battle_scars == 2
    return table


def test_a_model_with_2_battle_scars_retires_and_its_kit_goes_to_the_arsenal(scarred):
    events = scarred.do(Retire(warband="Pilgrims", fighter="Gaius"))
    assert events == [
        ev.FighterRetired(warband="pilgrims", fighter="gaius", reason="retired with 2 Battle Scars in the Quartermaster step"),
        ev.ItemLost(warband="pilgrims", fighter="gaius", item="Holy Icon", reason="Gaius retired"),
        ev.ItemGained(warband="pilgrims", item="Holy Icon", reason="from Gaius: Gaius retired"),
    ]
    assert (scarred.state.fighters["gaius"].status, scarred.state.warbands["pilgrims"].stash) == ("retired", ["Holy Icon"])
    # The kit may then be sold from the Arsenal (bought before the ledger knew prices: 15 ducats),
    # into the Strongbox that Reinforcements emptied.
    scarred.do(SellKit(warband="Pilgrims", item="Holy Icon", price=15))
    assert scarred.state.warbands["pilgrims"].treasury == 8


# --- the window, and the steps that close the phase -----------------------------------------------


def test_before_any_battle_there_is_no_quartermaster_window(table):
    table.pilgrims()
    assert table.refusal(shield()) == "Pilgrims can buy only in the Quartermaster step: Pilgrims has not fought a battle yet"


def test_before_exploration_the_window_is_not_open(table):
    through_experience(table)
    assert table.refusal(SellKit(warband="Pilgrims", item="Rifle")) == (
        f"Pilgrims can sell only in the Quartermaster step: Pilgrims must do the Exploration step for battle 1 first {PHASE_ORDER}"
    )
    assert table.refusal(Quartermaster(warband="Pilgrims")) == (
        f"Pilgrims must do the Exploration step for battle 1 first {PHASE_ORDER}"
    )


def test_quartermaster_then_roster_finish_the_phase_and_close_the_window(shop):
    assert shop.refusal(Roster(warband="Pilgrims")) == f"Pilgrims must do the Quartermaster step for battle 1 first {PHASE_ORDER}"
    assert shop.do(Quartermaster(warband="Pilgrims")) == [ev.PostGameStepDone(warband="pilgrims", battle=1, step="quartermaster")]
    assert shop.refusal(Allocate(warband="Pilgrims", item="Rifle", fighter="Anna")) == (
        "Pilgrims can allocate Battlekit only in the Quartermaster step: Pilgrims has already done the Quartermaster step for battle 1"
    )
    assert shop.refusal(Retire(warband="Pilgrims", fighter="Gaius")) == (
        "Pilgrims can retire a model only in the Quartermaster step: Pilgrims has already done the Quartermaster step for battle 1"
    )
    assert PHASE.next_step(shop.state, shop.state.warbands["pilgrims"]) == "roster"
    assert shop.do(Roster(warband="Pilgrims")) == [ev.PostGameStepDone(warband="pilgrims", battle=1, step="roster")]
    assert PHASE.next_step(shop.state, shop.state.warbands["pilgrims"]) is None
