"""Trading and hiring through the ledger (seed 002, 2.1 Trading 1-7; 2.3, 2.4): wyrdstone sold by
warband size, gear sold at half price rounded down, rare items found on 2D6 >= rarity, buying,
Hired Sword upkeep, hiring within the list's limits, reinforcing from a D6 of experience.

Setup: the Rats win battle 1 (nobody out of action); exploring rolls R0, [1, 2, 3] = 6: 2 shards.
Rats' treasury is 350 before trading.
"""

from __future__ import annotations

import re

import msgspec
import pytest

from commands.coreheim import events as ce
from commands.coreheim.commands import Buy, Hire, Injuries, RareSearch, Reinforce, Search, Sell, SellShards, Upkeep
from commands.coreheim.tables import TABLES
from commands.shared import ChangeTreasury, Correct, EnlistWarband, GainItem, LoseItem, RecruitFighter, UpgradeRules
from ledger import events as ev
from ledger.campaigns import PendingDecision
from ledger.errors import BadInput, RuleViolation
from projections.roster import ext_of
from .conftest import HUMAN, Table, rats_and_skaven_on

RATS = "reikland-rats"


def done(step: str) -> ev.PostGameStepDone:
    return ev.PostGameStepDone(warband=RATS, battle=1, step=step)


def trading(table, before: str, **dice) -> None:
    table.battle()
    table.through(before, **dice)


# --- 1. wyrdstone: the price depends on the warband's size (Hired Swords do not count) -----------------------


@pytest.mark.parametrize(
    "marksmen, sword, row, gold",
    [
        (3, False, "wyrdstone-sale:2-shards:4-6-warriors", 55),  # Gunnar, Hans, 3 Marksmen: 5 warriors
        (3, True, "wyrdstone-sale:2-shards:4-6-warriors", 55),  # an Ogre Bodyguard changes nothing
        (1, False, "wyrdstone-sale:2-shards:1-3-warriors", 60),  # 3 warriors
    ],
)
def test_shards_sell_by_the_warbands_size(table, marksmen, sword, row, gold):
    table.do(EnlistWarband(name="Reikland Rats", player="Ann", faction="mercenaries", treasury=500))
    table.hire("Reikland Rats", "Gunnar", "captain")
    table.hire("Reikland Rats", "Hans", "youngblood")
    table.hire("Reikland Rats", "Marksmen", "henchman", cost=25, group_size=marksmen)
    if sword:
        table.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    table.skaven()
    trading(table, "sell-shards")
    assert table.do(SellShards(warband="Reikland Rats", shards=2)) == [
        ce.ShardsChanged(warband=RATS, delta=-2, reason="sold", row=row),
        ev.TreasuryChanged(warband=RATS, delta=gold, reason="sold 2 wyrdstone shards", row=row),
        done("sell-shards"),
    ]


def test_shards_not_held_cannot_be_sold_and_none_sold_keeps_them(rats_and_skaven):
    trading(rats_and_skaven, "sell-shards")
    assert rats_and_skaven.refusal(SellShards(warband="Reikland Rats", shards=3)) == "Reikland Rats has 2 shards, not 3"
    assert rats_and_skaven.do(SellShards(warband="Reikland Rats", shards=0)) == [done("sell-shards")]
    assert ext_of(rats_and_skaven.state, rats_and_skaven.state.warbands["reikland-rats"])["shards"] == 2
    assert rats_and_skaven.refusal(SellShards(warband="Reikland Rats", shards=1)) == (
        "Reikland Rats has already done the post-game step Wyrdstone sale for battle 1"
    )


@pytest.mark.parametrize(("version", "sold"), [("9", "sold 1 wyrdstone shard"), ("8", "sold 1 wyrdstone shards")])
def test_one_shard_sold_is_said_as_one(version, sold):
    """Version 9 says "sold 1 wyrdstone shard"; version 8 said "sold 1 wyrdstone shards", and keeps it."""
    table = rats_and_skaven_on(version)
    trading(table, "sell-shards")
    assert table.do(SellShards(warband="Reikland Rats", shards=1))[1] == ev.TreasuryChanged(
        warband=RATS, delta=40, reason=sold, row="wyrdstone-sale:1-shards:4-6-warriors")


# --- 2. selling gear: half the base price, rounded down ------------------------------------------------------


@pytest.mark.parametrize(
    "item, fighter, gold, reason",
    [
        ("holy-tome", None, 40, "sold holy-tome (half of 80 gc)"),
        ("sword", "Hans", 3, "sold sword (half of 7 gc)"),  # 3.5 rounds down
        ("religious-relic", None, 7, "sold religious-relic (half of 15 gc)"),  # 15+2D6: half the 15
        ("crossbow", "Marksmen", 36, "sold crossbow x3 (half of 25 gc)"),  # 12 for each of 3
    ],
)
def test_gear_sells_for_half_its_price_rounded_down(rats_and_skaven, item, fighter, gold, reason):
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item=item, fighter=fighter))
    trading(rats_and_skaven, "search")
    events = rats_and_skaven.do(Sell(warband="Reikland Rats", item=item, fighter=fighter))
    holder = rats_and_skaven.fighter(fighter).id if fighter else None
    assert events == [
        ev.ItemLost(warband=RATS, fighter=holder, item=item, reason="sold"),
        ev.TreasuryChanged(warband=RATS, delta=gold, reason=reason, row=f"equipment:{item}"),
    ]


@pytest.mark.parametrize(
    "sell, message",
    [
        (Sell(warband="Reikland Rats", item="sword", fighter="Hans"), "the tables give Sword no price: give its list price with --price"),
        (Sell(warband="Reikland Rats", item="holy-tome", price=100), "Holy Tome is priced 80 gc by the tables, not 100"),
        (Sell(warband="Reikland Rats", item="lance", price=40), "Reikland Rats' stash has no lance"),
    ],
)
def test_selling_refusals_on_version_1(rats_and_skaven_v1, sell, message):
    # Version 1 priced only a few items: the player gave the others' prices
    rats_and_skaven_v1.do(Buy(warband="Reikland Rats", item="sword", fighter="Hans", price=15))
    rats_and_skaven_v1.do(Buy(warband="Reikland Rats", item="holy-tome"))
    trading(rats_and_skaven_v1, "search")
    assert rats_and_skaven_v1.refusal(sell) == message


@pytest.mark.parametrize(
    "sell, message",
    [
        (Sell(warband="Reikland Rats", item="sword", fighter="Hans", price=15), "Sword is priced 7 gc by the tables, not 15"),
        (Sell(warband="Reikland Rats", item="lance"), "Reikland Rats' stash has no lance"),
    ],
)
def test_selling_refusals(rats_and_skaven, sell, message):
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="sword", fighter="Hans"))
    trading(rats_and_skaven, "search")
    assert rats_and_skaven.refusal(sell) == message


def test_gear_is_sold_after_the_wyrdstone_and_before_the_rare_items(rats_and_skaven):
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="holy-tome"))
    trading(rats_and_skaven, "sell-shards")
    sell = Sell(warband="Reikland Rats", item="holy-tome")
    assert rats_and_skaven.refusal(sell) == (
        "Reikland Rats cannot sell equipment yet: sell wyrdstone first (post-game of battle 1)"
    )
    rats_and_skaven.through("upkeep")
    assert rats_and_skaven.refusal(sell) == (
        "Reikland Rats can no longer sell equipment after battle 1: 'look for rare items' is done"
    )


# --- 3. rare items: each hero not out of action, 2D6 >= rarity ---------------------------------------------------


@pytest.mark.parametrize("faces, found", [([3, 5], True), ([3, 4], False)])
def test_a_hero_finds_a_rare_item_on_its_rarity_or_more(rats_and_skaven, faces, found):
    trading(rats_and_skaven, "search")
    events = rats_and_skaven.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="Power Scroll")]), faces)
    assert events == [
        ev.DiceRolled(roll=1, expression="2D6", purpose="Gunnar looks for power-scroll", faces=faces, value=sum(faces), source="table"),
        ce.RareItemSearched(warband=RATS, battle=1, fighter="gunnar", item="power-scroll", rarity=8, total=sum(faces), found=found),
        done("search"),
    ]


@pytest.mark.parametrize(("version", "bonuses", "said"), [
    ("7", ["Cathayan Silks +1"], "Gunnar looks for Power Scroll (rare 8): 8 with Cathayan Silks +1, found"),
    ("6", [], "Gunnar looks for Power Scroll (rare 8): 8, found"),
])
def test_what_adds_to_a_rare_search_is_said(version, bonuses, said):
    """Rules §4.2: "Modifiers: Streetwise +3; Cathayan Silks +1 to its wearer": the total said 8 after a 2D6
    of 7 without saying why; version 6 keeps its record."""
    table = rats_and_skaven_on(version)
    table.do(GainItem(warband="Reikland Rats", item="cathayan-silks", fighter="Gunnar"))
    trading(table, "search")
    events = table.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="Power Scroll")]), [3, 4])
    assert events[1] == ce.RareItemSearched(warband=RATS, battle=1, fighter="gunnar", item="power-scroll", rarity=8,
                                            total=8, found=True, bonuses=bonuses)
    assert events[1].describe(table.state) == said


@pytest.mark.parametrize(
    "searches, message",
    [
        ([RareSearch(hero="Hans", item="power-scroll")], "Hans was taken out of action and cannot look for rare items"),
        ([RareSearch(hero="Marksmen", item="power-scroll")], "Marksmen is not a hero; only heroes look for rare items"),
        ([RareSearch(hero="Gunnar", item="power-scroll"), RareSearch(hero="Gunnar", item="lance")],
         "--search names Gunnar twice: each hero looks for one rare item a post-game"),
        ([RareSearch(hero="Gunnar", item="lance", rarity=9)], "lance is rare 8 by the tables, not 9"),
        ([RareSearch(hero="Gunnar", item="power-scroll", rarity=9)], "power-scroll is rare 8 by the tables, not 9"),
        ([RareSearch(hero="Gunnar", item="sword")], "Sword is common: it is bought without looking for it"),
        ([RareSearch(hero="Gunnar", item="ithilmar-dagger")],
         "the tables give ithilmar-dagger no rarity: give it as Gunnar=ithilmar-dagger:RARITY"),
        ([RareSearch(hero="Snikch", item="power-scroll")], "no fighter 'Snikch' in Reikland Rats: Snikch is in Clan Skrit"),
    ],
)
def test_rare_item_refusals(rats_and_skaven, searches, message):
    # Seed 002, Trading 3: "Heroes not taken out of action can look for rare items"; the rarities are the
    # price chart's (Lance: Rare 8+), an item it does not list takes the rarity the player gives
    rats_and_skaven.battle(ooa=["Hans"])
    rats_and_skaven.through("injuries")
    rats_and_skaven.do(Injuries(warband="Reikland Rats"), [5, 5])  # Hans: 55, Full Recovery
    rats_and_skaven.through("search")
    assert rats_and_skaven.refusal(Search(warband="Reikland Rats", searches=searches), [4, 4, 4, 4]) == message


def test_on_version_1_an_item_without_a_rarity_in_the_tables_takes_the_players(rats_and_skaven_v1):
    rats_and_skaven_v1.battle()
    rats_and_skaven_v1.through("search")
    lance = Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="lance")])
    assert rats_and_skaven_v1.refusal(lance, [4, 4]) == "the tables give lance no rarity: give it as Gunnar=lance:RARITY"
    lance = Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="lance", rarity=9)])
    assert rats_and_skaven_v1.do(lance, [4, 4])[1] == ce.RareItemSearched(
        warband=RATS, battle=1, fighter="gunnar", item="lance", rarity=9, total=8, found=False)


# --- 4. buying ------------------------------------------------------------------------------------------------------


def test_a_rare_item_found_may_be_bought_once(rats_and_skaven):
    trading(rats_and_skaven, "search")
    rats_and_skaven.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="power-scroll")]), [6, 6])
    buy = Buy(warband="Reikland Rats", item="power-scroll")
    assert rats_and_skaven.do(buy, [4]) == [  # Power Scroll: 7 + D6 gc
        ev.DiceRolled(roll=2, expression="D6", purpose="price of power-scroll", faces=[4], value=4, source="table"),
        ce.PriceRolled(warband=RATS, battle=1, item="power-scroll", price=11, bought=True),
        ev.TreasuryChanged(warband=RATS, delta=-11, reason="bought power-scroll", row="equipment:power-scroll"),
        ev.ItemGained(warband=RATS, item="power-scroll", reason="bought for 11 gc"),
        ce.RareItemBought(warband=RATS, battle=1, item="power-scroll"),
    ]
    # What was found was bought: it was not to be found still (buying, trading 4, comes after the search, trading 3)
    assert rats_and_skaven.refusal(buy, [4]) == (
        "the Power Scroll found after battle 1 was bought already: a rare item found is bought once, "
        "and a hero may look for another after the next battle")


def test_rare_items_found_by_two_heroes_are_bought_once_each(rats_and_skaven):
    trading(rats_and_skaven, "search")
    both = [RareSearch(hero="Gunnar", item="power-scroll"), RareSearch(hero="Hans", item="power-scroll")]
    rats_and_skaven.do(Search(warband="Reikland Rats", searches=both), [6, 6, 5, 5])
    buy = Buy(warband="Reikland Rats", item="power-scroll")
    rats_and_skaven.do(buy, [4])  # the price rolled holds: the second one rolls none
    assert rats_and_skaven.do(buy)[-1] == ce.RareItemBought(warband=RATS, battle=1, item="power-scroll")
    assert rats_and_skaven.refusal(buy) == (
        "the 2 Power Scrolls found after battle 1 were bought already: a rare item found is bought once, "
        "and a hero may look for another after the next battle")


def test_a_rare_item_bought_after_an_earlier_battle_must_be_found_again(rats_and_skaven):
    trading(rats_and_skaven, "search")
    rats_and_skaven.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="power-scroll")]), [6, 6])
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="power-scroll"), [4])
    rats_and_skaven.finish()
    rats_and_skaven.battle(winner="Clan Skrit", absent=["Hans", "Marksmen"])  # Gunnar has 23 XP: no advance
    rats_and_skaven.through("search")
    rats_and_skaven.do(Search(warband="Reikland Rats"))
    assert rats_and_skaven.refusal(Buy(warband="Reikland Rats", item="power-scroll")) == (
        "power-scroll is rare (8): a hero must find it this post-game first")


def map_found_and_bought(table, dice: list[int]) -> list[ev.Event]:
    """Gunnar finds a Mordheim Map (rarity 9: 5 + 4) and buys it for himself (50 + 3D6 gc: 1, 1, 1)."""
    trading(table, "search")
    table.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="mordheim-map")]), [5, 4])
    return table.do(Buy(warband="Reikland Rats", item="mordheim-map", fighter="Gunnar"), [1, 1, 1, *dice])


@pytest.mark.parametrize("face, fake", [(4, True), (5, False)])
def test_a_mordheim_map_bought_rolls_its_d6_as_one_found_does(rats_and_skaven, face, fake):
    """Rules 1, "Effects that happen when an item is gained": "Mordheim Map: roll D6. 1-4 fake (lose
    it; the holder misses the next battle); 5-6 genuine: the holder gains Streetwise"."""
    events = map_found_and_bought(rats_and_skaven, [face])
    rolled = [e for e in events if isinstance(e, ev.DiceRolled)][-1]
    assert (rolled.expression, rolled.faces) == ("D6", [face])
    gunnar = rats_and_skaven.fighter("Gunnar")
    if fake:
        assert "mordheim-map" not in gunnar.equipment and gunnar.missed_games == 1
    else:
        assert "mordheim-map" in gunnar.equipment and "Streetwise" in gunnar.skills


@pytest.mark.parametrize(("version", "purpose"), [("7", "Mordheim Map (D6)"), ("6", "Mordheim Map (item:mordheim-map:authenticity)")])
def test_a_bought_maps_roll_is_named_by_its_die_not_its_row_id(version, purpose):
    table = rats_and_skaven_on(version)
    events = map_found_and_bought(table, [5])
    assert [e for e in events if isinstance(e, ev.DiceRolled)][-1].purpose == purpose


def test_on_version_4_a_mordheim_map_bought_rolled_nothing(rats_and_skaven_v4):
    events = map_found_and_bought(rats_and_skaven_v4, [])
    assert [e.expression for e in events if isinstance(e, ev.DiceRolled)] == ["3D6"]
    assert "mordheim-map" in rats_and_skaven_v4.fighter("Gunnar").equipment


def test_on_version_1_a_rare_item_found_may_be_bought_once_at_the_players_price(rats_and_skaven_v1):
    trading(rats_and_skaven_v1, "search")
    rats_and_skaven_v1.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="power-scroll")]), [6, 6])
    buy = Buy(warband="Reikland Rats", item="power-scroll", price=25)
    assert rats_and_skaven_v1.do(buy) == [
        ev.TreasuryChanged(warband=RATS, delta=-25, reason="bought power-scroll", row="equipment:power-scroll"),
        ev.ItemGained(warband=RATS, item="power-scroll", reason="bought for 25 gc"),
        ce.RareItemBought(warband=RATS, battle=1, item="power-scroll"),
    ]
    assert rats_and_skaven_v1.refusal(buy) == (
        "the Power Scroll found after battle 1 was bought already: a rare item found is bought once, "
        "and a hero may look for another after the next battle")


def test_on_version_1_a_rare_item_the_tables_give_no_rarity_is_bought_without_a_find(rats_and_skaven_v1):
    # What issue 9 (item 1) found: version 1 knew only the Power Scroll's rarity, and kept deciding so
    trading(rats_and_skaven_v1, "search")
    rats_and_skaven_v1.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="lance", rarity=9)]), [4, 4])
    assert rats_and_skaven_v1.do(Buy(warband="Reikland Rats", item="lance", fighter="Gunnar", price=20))[1] == \
        ev.ItemGained(warband=RATS, fighter="gunnar", item="lance", reason="bought for 20 gc")
    assert rats_and_skaven_v1.do(Buy(warband="Reikland Rats", item="lance:9", price=20))[1] == \
        ev.ItemGained(warband=RATS, item="lance:9", reason="bought for 20 gc")


def test_a_price_with_dice_is_rolled(rats_and_skaven):
    trading(rats_and_skaven, "search")
    rats_and_skaven.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="telescope")]), [6, 5])
    events = rats_and_skaven.do(Buy(warband="Reikland Rats", item="telescope"), [2, 3])
    assert events[:4] == [
        ev.DiceRolled(roll=2, expression="2D6", purpose="price of telescope", faces=[2, 3], value=5, source="table"),
        ce.PriceRolled(warband=RATS, battle=1, item="telescope", price=35, bought=True),
        ev.TreasuryChanged(warband=RATS, delta=-35, reason="bought telescope", row="equipment:telescope"),  # 30+5
        ev.ItemGained(warband=RATS, item="telescope", reason="bought for 35 gc"),
    ]


def test_a_henchman_group_buys_one_for_each_member(rats_and_skaven):
    events = rats_and_skaven.do(Buy(warband="Reikland Rats", item="crossbow", fighter="Marksmen"))
    assert events[0] == ev.TreasuryChanged(warband=RATS, delta=-75, reason="bought crossbow x3", row="equipment:crossbow")


@pytest.mark.parametrize(
    "buy, message",
    [
        (Buy(warband="Reikland Rats", item="heavy-armour", fighter="Marksmen"), "Reikland Rats has 50 gc; heavy-armour x3 costs 150 gc"),
        (Buy(warband="Reikland Rats", item="power-scroll"), "power-scroll is rare (8): a hero must find it this post-game first"),
        (Buy(warband="Reikland Rats", item="sword", fighter="Grok"), "Grok is a Hired Sword: he neither buys nor sells gear"),
    ],
)
def test_buying_refusals(rats_and_skaven, buy, message):
    rats_and_skaven.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    rats_and_skaven.do(ChangeTreasury(warband="Reikland Rats", delta=-250, reason="spent in the tavern"))
    trading(rats_and_skaven, "upkeep")
    assert rats_and_skaven.refusal(buy) == message


# --- rare items by the price chart (version 2; issue 9, item 1) -------------------------------------------------
# Seed 002, Trading 3: "If the result is equal to or higher than the item's rarity, you find it." The rarities and
# prices are the Coreheim price chart's (1.11 Arming and Equipping Warriors, 5.2 Price Chart, the warband lists).


def search(table, item: str, faces: list[int], rarity: int | None = None) -> list[ev.Event]:
    trading(table, "search")
    return table.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item=item, rarity=rarity)]), faces)


def test_a_rare_item_not_found_cannot_be_bought(rats_and_skaven):
    # Lance: Rare 8+; 4 + 3 = 7 does not find it
    assert search(rats_and_skaven, "lance", [4, 3])[1] == ce.RareItemSearched(
        warband=RATS, battle=1, fighter="gunnar", item="lance", rarity=8, total=7, found=False)
    assert rats_and_skaven.refusal(Buy(warband="Reikland Rats", item="lance", fighter="Gunnar")) == (
        "lance is rare (8): a hero must find it this post-game first")


def test_a_rare_item_found_is_bought_at_its_chart_price(rats_and_skaven):
    # 4 + 4 = 8 finds a Lance (Rare 8+, 30 gc)
    assert search(rats_and_skaven, "Lance", [4, 4])[1].found
    assert rats_and_skaven.do(Buy(warband="Reikland Rats", item="lance", fighter="Gunnar")) == [
        ev.TreasuryChanged(warband=RATS, delta=-30, reason="bought lance", row="equipment:lance"),
        ev.ItemGained(warband=RATS, fighter="gunnar", item="lance", reason="bought for 30 gc"),
        ce.RareItemBought(warband=RATS, battle=1, item="lance"),
    ]


def test_a_common_item_is_bought_without_a_search(rats_and_skaven):
    trading(rats_and_skaven, "upkeep")
    assert rats_and_skaven.do(Buy(warband="Reikland Rats", item="Halberd", fighter="Gunnar")) == [
        ev.TreasuryChanged(warband=RATS, delta=-15, reason="bought halberd", row="equipment:halberd"),
        ev.ItemGained(warband=RATS, fighter="gunnar", item="halberd", reason="bought for 15 gc"),
    ]


def test_before_the_first_battle_a_rare_item_needs_no_find(rats_and_skaven):
    # shared/rules/coreheim.md 4.2: "At warband creation, rare items on the warband's list can be bought without a roll."
    assert rats_and_skaven.do(Buy(warband="Reikland Rats", item="pistol", fighter="Gunnar"))[1] == \
        ev.ItemGained(warband=RATS, fighter="gunnar", item="pistol", reason="bought for 15 gc")


# 2.4 (version 6): "At warband creation, **rare items** listed on your roster can be bought **without rarity rolls**."
# The roster's list is the warband list's equipment (3.x, data/warbands.json): a rare item not on it is not bought
# before the first battle, when no hero has looked for it.

MERCENARY_RARES = "Pistol, Duelling Pistol, Blunderbuss, Rifle, Long Rifle"


@pytest.mark.parametrize(
    ("warband", "item", "fighter", "paid"),
    [
        # 3.1 "Marksmen Weapons": "| Rifle | 30 |"
        ("Reikland Rats", "rifle", "Marksmen", 90),
        # 3.6 "Eshin Special Equipment": "## Weeping Blade", "**Cost:** 25gc", "**Rarity:** Rare 9+"
        ("Clan Skrit", "weeping-blade", "Snikch", 25),
    ],
)
def test_at_creation_a_rare_item_on_the_warbands_list_is_bought_without_a_roll(rats_and_skaven, warband, item, fighter, paid):
    """Given a warband that has fought no battle, when it buys a rare item its warband list prints,
    then it pays the chart's price and no die is rolled."""
    events = rats_and_skaven.do(Buy(warband=warband, item=item, fighter=fighter))
    assert [type(e) for e in events] == [ev.TreasuryChanged, ev.ItemGained]
    assert (events[0].delta, events[1].item) == (-paid, item)


@pytest.mark.parametrize(
    ("item", "name", "rarity"),
    [
        ("weeping-blade", "Weeping Blade", 9),  # 3.6 Eshin Special Equipment
        ("ritual-dagger", "Ritual Dagger", 9),  # 3.5 Shadow Cult Special Equipment
        ("elf-bow", "Elf Bow", 12),  # 1.11, on no warband list
        ("lance", "Lance", 8),  # 1.11, on no warband list
    ],
)
def test_at_creation_a_rare_item_not_on_the_warbands_list_is_refused_naming_the_list(rats_and_skaven, item, name, rarity):
    """Given the Reikland Rats (Mercenaries) before their first battle, when Gunnar buys a rare
    item the Mercenaries' lists do not print, then it is refused, naming the list and its rare
    items, and nothing is written."""
    assert rats_and_skaven.refusal(Buy(warband="Reikland Rats", item=item, fighter="Gunnar")) == (
        f"{name} is rare ({rarity}) and not on the Mercenaries warband list: at warband creation only rare items on "
        f"the list are bought without a roll (2.4; on it: {MERCENARY_RARES}); after Reikland Rats' first battle a "
        f"hero may look for it"
    )


def test_a_warband_list_with_no_rare_items_buys_none_at_creation(table):
    # 3.3 "Vampire, Necromancer, Dreg & Skeleton Weapons List": common weapons and armour only
    table.do(EnlistWarband(name="Night Court", player="Cid", faction="undead", treasury=500))
    table.do(Hire(warband="Night Court", name="Vlad", type="vampire"))
    assert table.refusal(Buy(warband="Night Court", item="pistol", fighter="Vlad")) == (
        "Pistol is rare (8) and not on the Undead warband list: at warband creation only rare items on the list are "
        "bought without a roll (2.4; on it: none); after Night Court's first battle a hero may look for it"
    )


def test_on_version_5_any_rare_item_was_bought_unfound_before_the_first_battle():
    table = rats_and_skaven_on("5")
    assert table.do(Buy(warband="Reikland Rats", item="weeping-blade", fighter="Gunnar"))[1] == ev.ItemGained(
        warband=RATS, fighter="gunnar", item="weeping-blade", reason="bought for 25 gc")


def test_a_house_rule_list_without_equipment_lists_limits_no_rare_item_at_creation(house_rules):
    """A group's own warband lists that print no equipment say nothing of the roster's rare items:
    any is bought at creation, as version 5 did."""
    warbands = msgspec.to_builtins(TABLES.defaults.warbands)
    del warbands["warbands"][0]["equipment_lists"]
    table = house_rules({"tables": {"warbands": warbands}})
    table.rats()
    assert table.do(Buy(warband="Reikland Rats", item="weeping-blade", fighter="Gunnar"))[1].item == "weeping-blade"


def test_after_the_first_battle_a_hero_may_look_for_an_item_of_another_warbands_list(rats_and_skaven):
    """2.1 Trading 3: "Heroes not _taken out of action_ can look for rare items", and 1.11: "Warriors
    may buy any non-unique weapon for their warband" (what one may use is his equipment list's
    business: "Warriors can only use weapons specified on their equipment list"). The source marks
    no item unique and restricts no search to a list: a Mercenary finds and buys a Weeping Blade."""
    assert search(rats_and_skaven, "weeping-blade", [5, 4])[1].found  # Rare 9+
    assert rats_and_skaven.do(Buy(warband="Reikland Rats", item="weeping-blade", fighter="Gunnar"))[-1] == \
        ce.RareItemBought(warband=RATS, battle=1, item="weeping-blade")


@pytest.mark.parametrize(
    "item, message",
    [
        ("lance:9", "'lance:9': buy the item by its name alone (lance); a rarity (9) is given only when looking for it"),
        ("lanse", "'lanse' is not on the price chart (and no hero found it this post-game): name an item of "
                  "`campaign coreheim items`, or add it with a house rule's price_chart"),
    ],
)
def test_an_item_with_a_rarity_or_not_on_the_chart_is_not_bought(rats_and_skaven, item, message):
    search(rats_and_skaven, "lance", [6, 6])
    assert rats_and_skaven.refusal(Buy(warband="Reikland Rats", item=item, fighter="Gunnar", price=20)) == message


def test_an_item_the_chart_does_not_list_is_looked_for_with_its_rarity_and_bought_at_the_players_price(rats_and_skaven):
    # The Ithilmar Dagger is priced nowhere in the Coreheim rules: the players give its rarity and price
    assert search(rats_and_skaven, "Ithilmar Dagger", [4, 4], rarity=7)[1].found
    assert rats_and_skaven.do(Buy(warband="Reikland Rats", item="Ithilmar Dagger", price=20)) == [
        ev.TreasuryChanged(warband=RATS, delta=-20, reason="bought ithilmar-dagger", row="equipment:ithilmar-dagger"),
        ev.ItemGained(warband=RATS, item="ithilmar-dagger", reason="bought for 20 gc"),
        ce.RareItemBought(warband=RATS, battle=1, item="ithilmar-dagger"),
    ]


def test_the_elven_cloaks_die_is_multiplied_by_ten(rats_and_skaven):
    # 1.11: "Elven Cloak | 75 + D6 x 10 gc | Rare 12+"
    search(rats_and_skaven, "elven-cloak", [6, 6])
    assert rats_and_skaven.do(Buy(warband="Reikland Rats", item="elven-cloak"), [3])[2] == ev.TreasuryChanged(
        warband=RATS, delta=-105, reason="bought elven-cloak", row="equipment:elven-cloak")


# Version 9: a price with dice is rolled once in a post-game. Rolled too dear, the roll is recorded and nothing is bought
# (it was refused after the roll: with ledger dice the purchase was left pending, and once voided a new `buy` rolled a
# new price, a re-roll for free); a later `buy` of the item in that post-game pays that price and rolls nothing.
# The Rats keep 35 gc; Gunnar finds a Telescope (30 + 2D6 gc, Rare 11).


def telescope_found_with_35_gc(table) -> Buy:
    table.do(ChangeTreasury(warband="Reikland Rats", delta=-315, reason="spent in the tavern"))
    assert search(table, "telescope", [6, 5])[1].found
    return Buy(warband="Reikland Rats", item="telescope", fighter="Gunnar")


def test_a_price_rolled_too_dear_is_recorded_buys_nothing_and_holds_for_the_post_game(rats_and_skaven):
    buy = telescope_found_with_35_gc(rats_and_skaven)
    assert rats_and_skaven.do(buy, [4, 4]) == [
        ev.DiceRolled(roll=2, expression="2D6", purpose="price of telescope", faces=[4, 4], value=8, source="table"),
        ce.PriceRolled(warband=RATS, battle=1, item="telescope", price=38, bought=False),
    ]
    assert rats_and_skaven.state.warbands[RATS].treasury == 35
    # the same price holds: refused with no die rolled, then bought at it once the gold is there
    assert rats_and_skaven.refusal(buy) == "Reikland Rats has 35 gc; telescope costs 38 gc, at the price rolled for it earlier"
    rats_and_skaven.do(ChangeTreasury(warband="Reikland Rats", delta=3, reason="a debt repaid"))
    assert rats_and_skaven.do(buy) == [
        ev.TreasuryChanged(warband=RATS, delta=-38, reason="bought telescope", row="equipment:telescope"),
        ev.ItemGained(warband=RATS, fighter="gunnar", item="telescope", reason="bought for 38 gc"),
        ce.RareItemBought(warband=RATS, battle=1, item="telescope"),
    ]


def test_a_price_rolled_holds_only_for_its_own_post_game(rats_and_skaven):
    rats_and_skaven.do(telescope_found_with_35_gc(rats_and_skaven), [4, 4])  # 38 gc: too dear
    rats_and_skaven.finish()
    rats_and_skaven.battle(winner=None, absent=["Hans", "Marksmen"])  # a draw: nobody comes to a threshold
    rats_and_skaven.through("search")
    rats_and_skaven.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="telescope")]), [6, 5])
    events = rats_and_skaven.do(Buy(warband="Reikland Rats", item="telescope", fighter="Gunnar"), [1, 1])
    assert events[1] == ce.PriceRolled(warband=RATS, battle=2, item="telescope", price=32, bought=True)


def test_on_version_8_a_price_rolled_too_dear_was_refused_and_rolled_again():
    table = rats_and_skaven_on("8")
    buy = telescope_found_with_35_gc(table)
    assert table.refusal(buy, [4, 4]) == "Reikland Rats has 35 gc; telescope costs 38 gc"
    assert table.do(buy, [1, 2]) == [
        ev.DiceRolled(roll=2, expression="2D6", purpose="price of telescope", faces=[1, 2], value=3, source="table"),
        ev.TreasuryChanged(warband=RATS, delta=-33, reason="bought telescope", row="equipment:telescope"),
        ev.ItemGained(warband=RATS, fighter="gunnar", item="telescope", reason="bought for 33 gc"),
        ce.RareItemBought(warband=RATS, battle=1, item="telescope"),
    ]


@pytest.mark.parametrize(("version", "asked_first"), [
    ("9", "Mordheim Map gained: which hero of Reikland Rats?: answer with --answer map-holder=CHOICE (one of: Gunnar, Hans)"),
    ("8", "price of mordheim-map needs 3D6 (3 more dice): pass them with --dice, or use --ledger"),
])
def test_a_map_for_the_stash_asks_its_holder_before_its_price_is_rolled(version, asked_first):
    """Rules 1: a Mordheim Map gained rolls a D6 for its holder. From version 9 the holder of a map bought into the
    stash is asked before the price is rolled: asked after it, the price was seen and the purchase left pending."""
    table = rats_and_skaven_on(version)
    search(table, "mordheim-map", [5, 4])
    assert table.refusal(Buy(warband="Reikland Rats", item="mordheim-map")) == asked_first


def test_a_house_rule_price_chart_sets_rarities_and_prices(house_rules):
    # README "House rules": any table of data/ may be replaced; here the Lance is made Rare 6+ and 40 gc
    lance = {"id": "lance", "name": "Lance", "price": {"fixed": 40, "dice": None}, "rarity": 6}
    table = house_rules({"tables": {"price_chart": {"items": [lance]}}})
    table.rats()
    table.skaven()
    assert search(table, "lance", [3, 3])[1].found
    assert table.do(Buy(warband="Reikland Rats", item="lance"))[0] == ev.TreasuryChanged(
        warband=RATS, delta=-40, reason="bought lance", row="equipment:lance")
    with pytest.raises(BadInput) as refused:
        house_rules({"tables": {"price_chart": {"items": [lance, lance]}}})
    assert str(refused.value) == "price_chart: items listed twice: ['lance']"


# 1.11 (version 4): "Cannot buy Miscellaneous Equipment until you have fought at least one battle"; "You cannot buy
# Mounts and Powdermonkeys until you have fought at least one battle"; "Only Heroes can use Miscellaneous Equipment";
# "A hero can carry only one instance of each type of Miscellaneous Equipment at a time".


@pytest.mark.parametrize(
    "item, name",
    [("dwarven-ale", "Dwarven Ale"), ("horse", "Horse"), ("powdermonkey", "Powdermonkey"), ("holy-tome", "Holy Tome")],
)
def test_miscellaneous_equipment_mounts_and_powdermonkeys_wait_for_the_first_battle(rats_and_skaven, item, name):
    assert rats_and_skaven.refusal(Buy(warband="Reikland Rats", item=item)) == (
        f"{name} can be bought only after Reikland Rats' first battle (1.11)"
    )


def test_weapons_and_armour_are_bought_before_the_first_battle(rats_and_skaven):
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="light-armour", fighter="Marksmen"))
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="pistol", fighter="Hans"))  # a rare one on the list too, unfound
    assert rats_and_skaven.fighter("Hans").equipment == ["pistol"]


@pytest.mark.parametrize(
    "fighter, refusal",
    [
        ("Marksmen", "Dwarven Ale is Miscellaneous Equipment, which only heroes use: Marksmen is a henchman "
                     "(buy it into the stash for a hero)"),
        ("Hans", "Hans already carries Dwarven Ale: a hero carries one of each Miscellaneous Equipment (1.11)"),
    ],
)
def test_miscellaneous_equipment_is_for_heroes_one_of_each(rats_and_skaven, fighter, refusal):
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="dwarven-ale", fighter="Hans"))
    trading(rats_and_skaven, "upkeep")
    assert rats_and_skaven.refusal(Buy(warband="Reikland Rats", item="dwarven-ale", fighter=fighter)) == refusal
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="dwarven-ale", fighter="Gunnar"))
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="dwarven-ale"))
    assert (rats_and_skaven.fighter("Gunnar").equipment, rats_and_skaven.state.warband("Reikland Rats").stash) == (
        ["dwarven-ale"], ["dwarven-ale"])


def test_on_version_3_miscellaneous_equipment_was_bought_by_anyone_at_any_time(rats_and_skaven_v3):
    rats_and_skaven_v3.do(Buy(warband="Reikland Rats", item="dwarven-ale", fighter="Marksmen"))
    rats_and_skaven_v3.do(Buy(warband="Reikland Rats", item="dwarven-ale", fighter="Marksmen"))
    assert rats_and_skaven_v3.fighter("Marksmen").equipment == ["dwarven-ale", "dwarven-ale"]


# --- 5. Hired Sword upkeep, after every game ---------------------------------------------------------------------------


@pytest.fixture
def with_grok(rats_and_skaven):
    rats_and_skaven.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")  # 50 gc: 300 left
    return rats_and_skaven


def test_upkeep_paid_or_the_sword_leaves(with_grok):
    trading(with_grok, "upkeep")
    upkeep = Upkeep(warband="Reikland Rats")
    assert with_grok.refusal(upkeep) == (
        "Pay Grok's upkeep of 30 gc (Reikland Rats has 300 gc)?: answer with --answer grok:upkeep=CHOICE (one of: pay, release)"
    )
    assert with_grok.do(Upkeep(warband="Reikland Rats", answers={"grok:upkeep": "pay"})) == [
        ev.TreasuryChanged(warband=RATS, delta=-30, reason="upkeep of Grok", row="hired-sword:ogre-bodyguard"),
        done("upkeep"),
    ]


def test_a_sword_not_paid_leaves_and_too_little_gold_cannot_pay(with_grok):
    with_grok.do(ChangeTreasury(warband="Reikland Rats", delta=-280, reason="spent in the tavern"))
    trading(with_grok, "upkeep")
    assert with_grok.refusal(Upkeep(warband="Reikland Rats", answers={"grok:upkeep": "pay"})) == (
        "Reikland Rats has 20 gc; Grok's upkeep is 30 gc"
    )
    assert with_grok.do(Upkeep(warband="Reikland Rats", answers={"grok:upkeep": "release"})) == [
        ev.FighterRetired(warband=RATS, fighter="grok", reason="left: upkeep not paid"),
        done("upkeep"),
    ]


def grok_released(table) -> None:
    """Grok (an Ogre Bodyguard, 50 gc) fought battle 1 (+1 XP) and was let go at its upkeep."""
    trading(table, "upkeep")
    table.do(Upkeep(warband="Reikland Rats", answers={"grok:upkeep": "release"}))


GROK_AGAIN = Hire(warband="Reikland Rats", name="Grok", type="ogre-bodyguard")


def test_a_hired_sword_let_go_is_hired_again_by_his_name_and_type_with_his_xp(with_grok):
    """Rules 2.3: unpaid, "the sword leaves with his XP and may be hired again later" (version 5)."""
    # Given Grok let go at the upkeep after battle 1, with the XP he earned in it
    grok_released(with_grok)
    # When the warband hires Grok, an Ogre Bodyguard, again
    events = with_grok.do(GROK_AGAIN)
    # Then the same warrior comes back with his XP, for his fee
    assert events == [
        ce.HiredSwordRehired(warband=RATS, fighter="grok"),
        ev.TreasuryChanged(warband=RATS, delta=-50, reason="hired Grok again", row="ogre-bodyguard"),
    ]
    grok = with_grok.fighter("Grok")
    assert (grok.status, grok.xp) == ("active", 1)


@pytest.mark.parametrize("hire, refusal", [
    (Hire(warband="Reikland Rats", name="Grok", type="pit-fighter"),
     "Reikland Rats already has a warrior called Grok (retired): a name stays his, choose another, "
     "or hire him again with --type ogre-bodyguard"),
    (Hire(warband="Reikland Rats", name="Grok", type="ogre-bodyguard", stats={"WS": 5}),
     "Grok comes back with his own profile and race: hire him again without --stat and --race"),
], ids=["another-type", "another-profile"])
def test_a_hired_sword_let_go_comes_back_as_he_was(with_grok, hire, refusal):
    grok_released(with_grok)
    assert with_grok.refusal(hire) == refusal


def test_on_version_4_a_hired_sword_let_go_could_not_be_hired_again_by_his_name(rats_and_skaven_v4):
    rats_and_skaven_v4.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    grok_released(rats_and_skaven_v4)
    assert rats_and_skaven_v4.refusal(GROK_AGAIN) == (
        "Reikland Rats already has a warrior called Grok (retired): a name stays his, choose another")


# --- 6. hiring within the list's limits -------------------------------------------------------------------------------


def test_hiring_a_hero_takes_cost_and_experience_from_the_list(rats_and_skaven):
    events = rats_and_skaven.hire("Reikland Rats", "Otto", "sergeant")
    stats = rats_and_skaven.fighter("Otto").stats
    assert events == [
        ev.FighterRecruited(warband=RATS, fighter="otto", name="Otto", role="hero", stats=stats, cost=40, xp=6),
        ce.WarriorProfile(warband=RATS, fighter="otto", warrior_type="sergeant", race="human", advanced_to=6),
        ev.TreasuryChanged(warband=RATS, delta=-40, reason="hired Otto", row="sergeant"),
    ]


def test_a_marienburg_warband_hires_swords_for_10_less(table):
    table.rats(faction="mercenaries/marienburg")
    events = table.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    assert events[-1] == ev.TreasuryChanged(warband=RATS, delta=-40, reason="hired Grok", row="ogre-bodyguard")


@pytest.mark.parametrize(
    "name, type_, more, message",
    [
        ("Karl", "youngblood", {}, "Reikland Rats may have at most 2 Youngbloods; it has 2"),
        ("Ulrich", "captain", {}, "Reikland Rats may have at most 1 Captain; it has 1"),
        ("Grak", "ogre-bodyguard", {"race": "ogre"}, "Reikland Rats already has Ogre Bodyguard Grok; one of each Hired Sword at most"),
        ("Pikes", "henchman", {"cost": 25, "group_size": 6}, "henchmen are hired in groups of 1 to 5, not 6"),
        ("Pikes", "henchman", {"cost": 25, "group_size": 5, "free": True},
         "Reikland Rats has 12 warriors; 5 more would pass its maximum of 15"),
        ("Otto", "sergeant", {"cost": 30}, "a sergeant costs 40 gc in Reikland Rats, not 30"),
        ("Hans", "sergeant", {}, "Reikland Rats already has a warrior called Hans"),
        ("Ogg", "wizard", {}, "wizard is not a type Reikland Rats can hire (captain, sergeant, youngblood, militia, marksman, "
                              "state-troop, greatsword, henchman, animal, "
                              "monster, ogre-bodyguard, halfling-scout, dwarf-slayer, elven-ranger, pit-fighter, warlock, "
                              "freelancer, skryre-engineer)"),
    ],
)
def test_hiring_beyond_the_lists_limits_is_refused(rats_and_skaven, name, type_, more, message):
    rats_and_skaven.hire("Reikland Rats", "Kurt", "youngblood")
    rats_and_skaven.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    rats_and_skaven.hire("Reikland Rats", "Halberds", "henchman", cost=0, group_size=5)
    rats_and_skaven.hire("Reikland Rats", "Hounds", "animal", cost=0, group_size=1)  # animals count toward the size
    assert rats_and_skaven.refusal(Hire(warband="Reikland Rats", name=name, type=type_,
                                          stats={"M": 4, "A": 1, "W": 1, "T": 0, "WS": 8, "BS": 8, "I": 8, "Ld": 7},
                                          race=more.pop("race", "human"), **more)) == message


HANS_AGAIN = Hire(warband="Reikland Rats", name="Hans", type="youngblood", race="human",
                  stats={"M": 4, "A": 1, "W": 1, "T": 0, "WS": 8, "BS": 8, "I": 8, "Ld": 7})


def test_a_dead_warriors_name_is_not_hired_again(rats_and_skaven):
    """Issue 9, item 8: names are unique within a warband, so every command names one warrior."""
    # Given Hans dead
    rats_and_skaven.do(Correct(warband="Reikland Rats", fighter="Hans", reason="fell", status="dead"))
    # When a new warrior is hired as Hans, then it is refused
    assert rats_and_skaven.refusal(HANS_AGAIN) == (
        "Reikland Rats already has a warrior called Hans (dead): a name stays his, choose another"
    )


def test_on_version_1_a_dead_warriors_name_could_be_hired_again(rats_and_skaven_v1):
    rats_and_skaven_v1.do(Correct(warband="Reikland Rats", fighter="Hans", reason="fell", status="dead"))
    assert rats_and_skaven_v1.do(HANS_AGAIN)[0] == ev.FighterRecruited(
        warband=RATS, fighter="hans-2", name="Hans", role="hero", stats=HANS_AGAIN.stats, cost=15)


def test_hiring_with_too_little_gold_is_refused(rats_and_skaven):
    rats_and_skaven.do(ChangeTreasury(warband="Reikland Rats", delta=-330, reason="spent in the tavern"))
    assert rats_and_skaven.refusal(Hire(warband="Reikland Rats", name="Otto", type="sergeant", race="human",
                                          stats={"M": 4, "A": 1, "W": 1, "T": 0, "WS": 8, "BS": 8, "I": 8, "Ld": 7})) == (
        "Reikland Rats has 20 gc; Otto costs 40 gc"
    )


def test_a_warrior_the_list_does_not_print_needs_his_whole_profile_and_race(rats_and_skaven):
    assert rats_and_skaven.refusal(Hire(warband="Reikland Rats", name="Otto", type="henchman", cost=25, race="human",
                                          stats={"M": 4})) == "give Otto's A W T WS BS I Ld with --stat (e.g. --stat A=4)"
    assert rats_and_skaven.refusal(Hire(warband="Reikland Rats", name="Otto", type="henchman", cost=25,
                                          stats=HUMAN)) == "give Otto's race with --race (it sets his maximum characteristics)"


def test_hiring_waits_for_its_place_in_the_trading_order(rats_and_skaven):
    trading(rats_and_skaven, "search")
    hire = Hire(warband="Reikland Rats", name="Otto", type="sergeant", race="human",
                  stats={"M": 4, "A": 1, "W": 1, "T": 0, "WS": 8, "BS": 8, "I": 8, "Ld": 7})
    assert rats_and_skaven.refusal(hire) == "Reikland Rats cannot hire warriors yet: look for rare items first (post-game of battle 1)"
    rats_and_skaven.through("reinforce")
    assert rats_and_skaven.do(hire)[0].name == "Otto"


def test_the_shared_fighter_add_and_an_unknown_faction_are_refused(table):
    assert table.refusal(EnlistWarband(name="Orcs", player="Cid", faction="orcs")) == (
        "Orcs' faction 'orcs' is not a warband list: give --faction one of mercenaries, witch-hunters, undead, "
        "night-goblins, cult-of-the-possessed, skaven, sisters-of-sigmar"
    )
    table.rats()
    assert table.refusal(RecruitFighter(warband="Reikland Rats", name="Otto", role="hero")) == (
        "in a coreheim campaign hire warriors with `campaign coreheim hire WARBAND NAME --type TYPE`: "
        "it takes cost, starting XP and limits from the warband list"
    )


# --- 7. reinforcing: a D6 of experience; each recruit uses his group's XP ------------------------------------------------


def test_a_roll_of_5_buys_one_recruit_at_3_xp_and_two_at_1_xp(rats_and_skaven):
    # The seed's example. Veterans (one henchman, 30 gc) start with 2 XP by hand, so reach 3 in battle 1
    # and roll their advance at 2 (an 8: Ld). Marksmen have 1 XP.
    rats_and_skaven.hire("Reikland Rats", "Veterans", "henchman", cost=30)
    rats_and_skaven.do(Correct(warband="Reikland Rats", fighter="Veterans", reason="test setup", xp=2))
    trading(rats_and_skaven, "reinforce", advances=[8])
    answers = {"reinforce": "yes", "marksmen:recruits": "2", "veterans:recruits": "1"}
    assert rats_and_skaven.do(Reinforce(warband="Reikland Rats", answers=answers), [5]) == [
        ev.DiceRolled(roll=2, expression="D6", purpose="reinforcements of Reikland Rats", faces=[5], value=5, source="table"),
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=2, reason="reinforced: 2 x 1 XP of the 5 rolled"),
        ev.TreasuryChanged(warband=RATS, delta=-50, reason="2 recruits for Marksmen"),
        ce.GroupSizeChanged(warband=RATS, fighter="veterans", delta=1, reason="reinforced: 1 x 3 XP of the 5 rolled"),
        ev.TreasuryChanged(warband=RATS, delta=-30, reason="1 recruit for Veterans"),
        done("reinforce"),
    ]


@pytest.mark.parametrize("version", ["7", "6"])
def test_a_roll_that_brings_no_recruit_says_why(version):
    """Rules 2.4: "Each new recruit joins an existing group at that group's XP and uses up that much of the
    budget": a 2 buys no recruit for the Veterans at 3 XP. The die was recorded and nothing said why;
    version 6 keeps it so."""
    table = rats_and_skaven_on(version)
    table.hire("Reikland Rats", "Veterans", "henchman", cost=30)
    table.do(Correct(warband="Reikland Rats", fighter="Veterans", reason="test setup", xp=2))
    trading(table, "reinforce", advances=[8])
    answers = {"reinforce": "yes", "marksmen:recruits": "0"}
    note = [ev.NoteRecorded(text="no recruits join Reikland Rats (2 XP rolled): none wanted for Marksmen; "
                                 "a recruit for Veterans needs 3 XP", warband=RATS)] if version == "7" else []
    assert table.do(Reinforce(warband="Reikland Rats", answers=answers), [2])[1:] == [*note, done("reinforce")]


def test_on_version_9_reinforcing_offered_only_the_recruits_the_roll_pays_for():
    # Given the Marksmen (3 at 1 XP) at the reinforcing step of a campaign on version 9
    table = rats_and_skaven_on("9")
    trading(table, "reinforce")
    answers = {"reinforce": "yes", "marksmen:recruits": "2"}
    # When the player asks for more recruits than a roll of 1 pays for, then the choice offered says how many it does
    assert table.refusal(Reinforce(warband="Reikland Rats", answers=answers), [1]) == (
        "Recruits for Marksmen (3 at 1 XP; 1 XP to spend)?: '2' is not one of: 0, 1"
    )


@pytest.mark.parametrize(("version", "rats"), [("8", "Reikland Rats's"), ("9", "Reikland Rats's"), ("10", "Reikland Rats'")])
def test_the_reinforcing_question_names_the_warband_in_its_possessive(version, rats):
    """The question is stored with a reinforce left pending: from version 10 a name ending in s takes an apostrophe
    alone ("Reikland Rats' henchman groups"); versions 8 and 9 keep "Rats's"."""
    table = rats_and_skaven_on(version)
    trading(table, "reinforce")
    assert table.refusal(Reinforce(warband="Reikland Rats")) == (
        f"Reinforce {rats} henchman groups (a D6 gives the experience available)?: "
        "answer with --answer reinforce=CHOICE (one of: yes, no)")


MARKSMEN_AND_VETERANS = {"reinforce": "yes", "marksmen:recruits": "0"}


def veterans_at_3_xp(table) -> None:
    """The seed's example: Veterans (one henchman, 30 gc) at 3 XP beside the Marksmen (3 at 1 XP), at the reinforcing
    step (they start with 2 XP, reach 3 in battle 1 and roll their advance at 2, an 8: Ld); the Rats hold 320 gc."""
    table.hire("Reikland Rats", "Veterans", "henchman", cost=30)
    table.do(Correct(warband="Reikland Rats", fighter="Veterans", reason="test setup", xp=2))
    trading(table, "reinforce", advances=[8])


def reinforce(**recruits: str) -> Reinforce:
    return Reinforce(warband="Reikland Rats", answers={**MARKSMEN_AND_VETERANS, **{f"{group}:recruits": n for group, n in recruits.items()}})


@pytest.mark.parametrize("version", ["10", "9"])
@pytest.mark.parametrize(
    "recruits, refusal",
    [
        # a group holds 5: the Marksmen, 3, take 2 more whatever the D6 gives
        ({"marksmen": "3"}, "Recruits for Marksmen (3 at 1 XP; a D6 gives at most 6 XP)?: '3' is not one of: 0, 1, 2"),
        # a recruit for the Veterans uses 3 XP: a D6 pays for 2 at the most
        ({"veterans": "3"}, "Recruits for Veterans (1 at 3 XP; a D6 gives at most 6 XP)?: '3' is not one of: 0, 1, 2"),
        ({"veterans": "two"}, "Recruits for Veterans (1 at 3 XP; a D6 gives at most 6 XP)?: 'two' is not one of: 0, 1, 2"),
        ({"marksmen": "1", "veterans": "2"},
         "the recruits asked for (1 for Marksmen at 1 XP, 2 for Veterans at 3 XP) need 7 XP; a D6 gives at most 6"),
    ],
)
def test_recruits_no_d6_pays_for_are_refused_before_it_is_rolled(version, recruits, refusal):
    """Rules 2.4: "roll a D6: this is the total amount of experience available" and "Each new recruit joins an
    existing group at that group's XP and uses up that much": what no face pays for is refused before the roll
    (no die given, none asked for), on every version. Refused after it, ledger dice were seen and the reinforcing
    was left pending with answers that stand: only a void ended it, and a new `reinforce` rolled a new D6."""
    table = rats_and_skaven_on(version)
    veterans_at_3_xp(table)
    assert table.refusal(reinforce(**recruits)) == refusal


def test_a_roll_too_small_for_the_recruits_asked_is_recorded_and_holds_until_they_are_planned_within_it(rats_and_skaven):
    """Rules 2.4: the D6 "is the total amount of experience available", and "you may" spend it on recruits: the roll
    stands once rolled (version 10). Recruits it does not pay for are recorded with it, nobody joins, and the step
    stays open: the next `reinforce` plans within the same XP and rolls no D6."""
    # Given the Veterans at 3 XP and the Marksmen at 1 XP
    veterans_at_3_xp(rats_and_skaven)
    # When two Veterans are asked for (6 XP) and the D6 gives 3
    assert rats_and_skaven.do(reinforce(veterans="2"), [3]) == [
        ev.DiceRolled(roll=2, expression="D6", purpose="reinforcements of Reikland Rats", faces=[3], value=3, source="table"),
        ce.ReinforcementRollHeld(warband=RATS, battle=1, xp=3, reason="the recruits asked for (2 for Veterans at 3 XP) need 6 XP"),
    ]
    # Then the 3 XP hold: more than they pay for is refused without a roll, and hiring (trading 6) is over
    assert rats_and_skaven.refusal(reinforce(veterans="1", marksmen="1")) == (
        "the recruits asked for (1 for Marksmen at 1 XP, 1 for Veterans at 3 XP) need 4 XP; the roll held gives 3")
    assert rats_and_skaven.refusal(Hire(warband="Reikland Rats", name="Otto", type="youngblood", race="human", stats=HUMAN)) == (
        "Reikland Rats rolled 3 XP for its reinforcements, which hold until they are done: hiring (trading 6) comes "
        "before reinforcing (trading 7)")
    # and what they pay for joins, with no die rolled
    assert rats_and_skaven.do(reinforce(veterans="1")) == [
        ce.GroupSizeChanged(warband=RATS, fighter="veterans", delta=1, reason="reinforced: 1 x 3 XP of the 3 rolled"),
        ev.TreasuryChanged(warband=RATS, delta=-30, reason="1 recruit for Veterans"),
        done("reinforce"),
    ]


def test_with_ledger_dice_a_roll_too_small_leaves_nothing_pending_and_is_not_rolled_again():
    # Given the Veterans at 3 XP in a campaign whose ledger dice give a 3 for the reinforcements
    table = Table.dealt_alike()
    table.rats()
    table.skaven()
    veterans_at_3_xp(table)
    # When two Veterans are asked for with ledger dice, then the roll is recorded, held, and nothing is pending
    rolled, held = table.by_the_ledger(reinforce(veterans="2"))
    assert (rolled.faces, rolled.source, held.xp) == ([3], "ledger", 3)
    assert table.state.pending == {}
    # and the next reinforcing spends those 3 XP: the ledger rolls nothing
    assert table.by_the_ledger(reinforce(veterans="1"))[0] == ce.GroupSizeChanged(
        warband=RATS, fighter="veterans", delta=1, reason="reinforced: 1 x 3 XP of the 3 rolled")
    assert table.state.rolls == rolled.roll + 1


def test_on_version_9_a_roll_too_small_was_refused_after_it_and_with_ledger_dice_left_pending():
    table = rats_and_skaven_on("9")
    veterans_at_3_xp(table)
    assert table.refusal(reinforce(veterans="2"), [3]) == "Recruits for Veterans (1 at 3 XP; 3 XP to spend)?: '2' is not one of: 0, 1"
    ledger_dice = Table.dealt_alike(version="9")
    ledger_dice.rats()
    ledger_dice.skaven()
    veterans_at_3_xp(ledger_dice)
    with pytest.raises(PendingDecision):
        ledger_dice.by_the_ledger(reinforce(veterans="2"))
    # (the answer given ahead, which the roll does not offer, is dropped and the question left to answer)
    pending = list(ledger_dice.state.pending.values())[0]
    assert (pending.question, pending.prompt, pending.options) == (
        "veterans:recruits", "Recruits for Veterans (1 at 3 XP; 3 XP to spend)? ('2', given ahead, is not one of them)",
        ["0", "1"])


def greatswords_at_the_reinforcing(table) -> None:
    """Two Greatswords (the list: "0-3 Greatswords", 80 gc each) at 1 XP at the reinforcing step."""
    table.hire("Reikland Rats", "Greatswords", "greatsword", group_size=2)
    trading(table, "reinforce")


GREATSWORD_RECRUITS = {"reinforce": "yes", "marksmen:recruits": "0"}


def test_recruits_past_the_lists_limit_are_refused_naming_it(rats_and_skaven):
    """The list's "0-3 Greatswords" holds for recruits as for a hire (version 5)."""
    # Given two Greatswords at 1 XP, and a 6 to spend
    greatswords_at_the_reinforcing(rats_and_skaven)
    # When three recruits are asked for, then it is refused naming the limit; one is taken
    reinforce = Reinforce(warband="Reikland Rats", answers={**GREATSWORD_RECRUITS, "greatswords:recruits": "3"})
    # (before the D6: none is given)
    assert rats_and_skaven.refusal(reinforce) == "Reikland Rats may have at most 3 Greatswords; it has 2, so not 3 more"
    one = Reinforce(warband="Reikland Rats", answers={**GREATSWORD_RECRUITS, "greatswords:recruits": "1"})
    assert rats_and_skaven.do(one, [6])[1] == ce.GroupSizeChanged(warband=RATS, fighter="greatswords", delta=1,
                                                                  reason="reinforced: 1 x 1 XP of the 6 rolled")


def test_on_version_4_recruits_passed_the_lists_limit(rats_and_skaven_v4):
    greatswords_at_the_reinforcing(rats_and_skaven_v4)
    reinforce = Reinforce(warband="Reikland Rats", answers={**GREATSWORD_RECRUITS, "greatswords:recruits": "2"})
    rats_and_skaven_v4.do(reinforce, [6])
    assert rats_and_skaven_v4.fighter("Greatswords").group_size == 4


# Rules 2.4: "Henchmen are hired in groups of 1–5 with identical equipment" — a recruit carries his group's gear
# and pays for it, as `buy` prices it (version 4). The Marksmen are 3 at 1 XP, 25 gc each.


def armed_marksmen(table, *items: str) -> None:
    for item in items:
        table.do(GainItem(warband="Reikland Rats", item=item, fighter="Marksmen"))
    trading(table, "reinforce")


PRICE_OF_TELESCOPE = ev.DiceRolled(roll=2, expression="2D6", purpose="price of telescope for Marksmen's recruits",
                                   faces=[2, 3], value=5, source="table")
TELESCOPE_AT_35 = ce.PriceRolled(warband=RATS, battle=1, item="telescope", price=35, bought=True)


@pytest.mark.parametrize(
    "items, dice, price_rolls, listed, each",
    [
        # Given Marksmen with bows (7 gc) and daggers (free), two recruits pay 2 x 25 gc and 2 x 7 gc of gear
        (["bow", "dagger"], [2], [], "bow, dagger", 7),
        # two swords each (7 gc apiece) are 14 gc a recruit
        (["sword", "sword"], [2], [], "sword", 14),
        # a price with dice ("30+2D6") is rolled once for the group's recruits, as `buy` rolls it: 30 + 5, and holds
        # for the post-game as a price `buy` rolls does (version 10)
        (["telescope"], [2, 2, 3], [PRICE_OF_TELESCOPE, TELESCOPE_AT_35], "telescope", 35),
        # gear that costs nothing adds no payment
        (["dagger"], [2], [], "dagger", 0),
    ],
)
def test_a_recruit_pays_for_his_group_s_gear(rats_and_skaven, items, dice, price_rolls, listed, each):
    armed_marksmen(rats_and_skaven, *items)
    treasury = rats_and_skaven.state.warband("Reikland Rats").treasury
    answers = {"reinforce": "yes", "marksmen:recruits": "2"}
    paid_for_gear = [ev.TreasuryChanged(warband=RATS, delta=-2 * each,
                                        reason=f"the gear of 2 recruits for Marksmen: {listed} ({each} gc each)")]
    assert rats_and_skaven.do(Reinforce(warband="Reikland Rats", answers=answers), dice)[1:] == [
        *price_rolls,
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=2, reason="reinforced: 2 x 1 XP of the 2 rolled"),
        ev.TreasuryChanged(warband=RATS, delta=-50, reason="2 recruits for Marksmen"),
        *(paid_for_gear if each else []),
        done("reinforce"),
    ]
    assert rats_and_skaven.state.warband("Reikland Rats").treasury == treasury - 50 - 2 * each


def test_on_version_9_a_price_rolled_for_recruits_gear_was_not_held():
    table = rats_and_skaven_on("9")
    armed_marksmen(table, "telescope")
    answers = {"reinforce": "yes", "marksmen:recruits": "2"}
    assert table.do(Reinforce(warband="Reikland Rats", answers=answers), [2, 2, 3])[1:3] == [
        PRICE_OF_TELESCOPE,
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=2, reason="reinforced: 2 x 1 XP of the 2 rolled"),
    ]


def test_a_price_with_dice_is_rolled_once_for_every_group_reinforced_that_carries_the_item(rats_and_skaven):
    # Given Marksmen (1 XP) and Pikes (a henchman group of 2, 20 gc, 1 XP), each with a Telescope (30 + 2D6)
    rats_and_skaven.hire("Reikland Rats", "Pikes", "henchman", cost=20, group_size=2)
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="telescope", fighter="Pikes"))
    armed_marksmen(rats_and_skaven, "telescope")
    # When one recruit joins each, then one 2D6 prices both Telescopes, and the price holds (version 10)
    treasury = rats_and_skaven.state.warband("Reikland Rats").treasury
    answers = {"reinforce": "yes", "marksmen:recruits": "1", "pikes:recruits": "1"}
    assert rats_and_skaven.do(Reinforce(warband="Reikland Rats", answers=answers), [2, 2, 3])[1:3] == [PRICE_OF_TELESCOPE, TELESCOPE_AT_35]
    assert rats_and_skaven.state.warband("Reikland Rats").treasury == treasury - 25 - 20 - 2 * 35


def test_a_recruit_s_gear_is_paid_at_the_price_buy_rolled_in_the_post_game(rats_and_skaven):
    """A price with dice is rolled once for a warband and an item in a post-game and holds there (version 9, `buy`):
    a recruit whose group carries a Telescope pays what the Rats rolled for Gunnar's, and rolls nothing (version 10)."""
    # Given Marksmen with a Telescope, and a Telescope bought for Gunnar at 30 + 8
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="telescope", fighter="Marksmen"))
    search(rats_and_skaven, "telescope", [6, 5])
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="telescope", fighter="Gunnar"), [4, 4])
    rats_and_skaven.through("reinforce")
    # When a recruit joins, then his Telescope costs 38 gc, and only the D6 is rolled
    answers = {"reinforce": "yes", "marksmen:recruits": "1"}
    assert rats_and_skaven.do(Reinforce(warband="Reikland Rats", answers=answers), [2])[1:] == [
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=1, reason="reinforced: 1 x 1 XP of the 2 rolled"),
        ev.TreasuryChanged(warband=RATS, delta=-25, reason="1 recruit for Marksmen"),
        ev.TreasuryChanged(warband=RATS, delta=-38, reason="the gear of 1 recruit for Marksmen: telescope (38 gc each)"),
        done("reinforce"),
    ]


def test_gear_priced_too_dear_by_its_roll_is_recorded_and_the_recruits_plan_again_at_that_price(rats_and_skaven):
    """The prices rolled stand (version 10): two recruits with Telescopes at 30 + 2D6 cost at least 2 x (25 + 32) =
    114 gc, which 120 gc pay; rolled at 30 + 8 they cost 126. The rolls are recorded, nobody joins, and the D6 and
    the price hold: one recruit then joins at 25 + 38, and nothing is rolled."""
    armed_marksmen(rats_and_skaven, "telescope")
    rats_and_skaven.do(ChangeTreasury(warband="Reikland Rats", delta=120 - rats_and_skaven.state.warband("Reikland Rats").treasury,
                                      reason="test setup"))
    two = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "2"})
    assert rats_and_skaven.do(two, [2, 4, 4])[1:] == [
        ev.DiceRolled(roll=2, expression="2D6", purpose="price of telescope for Marksmen's recruits", faces=[4, 4],
                      value=8, source="table"),
        ce.PriceRolled(warband=RATS, battle=1, item="telescope", price=38, bought=False),
        ce.ReinforcementRollHeld(warband=RATS, battle=1, xp=2, reason="Reikland Rats has 120 gc; the recruits cost 126 gc"),
    ]
    assert rats_and_skaven.refusal(two) == "Reikland Rats has 120 gc; the recruits cost 126 gc"
    one = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "1"})
    assert rats_and_skaven.do(one)[-2:] == [
        ev.TreasuryChanged(warband=RATS, delta=-38, reason="the gear of 1 recruit for Marksmen: telescope (38 gc each)"),
        done("reinforce"),
    ]


@pytest.mark.parametrize("version", ["10", "9"])
def test_recruits_too_dear_even_at_their_gear_s_lowest_prices_are_refused_before_the_roll(version):
    # Given Marksmen with Telescopes (30 + 2D6) and 113 gc: two recruits cost at least 2 x (25 + 32) = 114
    table = rats_and_skaven_on(version)
    armed_marksmen(table, "telescope")
    table.do(ChangeTreasury(warband="Reikland Rats", delta=113 - table.state.warband("Reikland Rats").treasury, reason="test setup"))
    # When they are asked for, then it is refused with no die rolled (none given)
    assert table.refusal(Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "2"})) == (
        "Reikland Rats has 113 gc; the recruits cost at least 114 gc (their gear's prices with dice at the lowest)")


def test_recruits_whose_gear_the_treasury_cannot_pay_are_refused(rats_and_skaven):
    armed_marksmen(rats_and_skaven, "crossbow")  # 25 gc
    rats_and_skaven.do(ChangeTreasury(warband="Reikland Rats", delta=99 - rats_and_skaven.state.warband("Reikland Rats").treasury,
                                      reason="test setup"))
    answers = {"reinforce": "yes", "marksmen:recruits": "2"}
    assert rats_and_skaven.refusal(Reinforce(warband="Reikland Rats", answers=answers)) == (  # before the roll: no die given
        "Reikland Rats has 99 gc; the recruits cost 100 gc"
    )


def marksmen_with_crossbows_and(table, treasury: int) -> None:
    """Marksmen (3 at 1 XP, 25 gc) with crossbows (25 gc): a recruit costs 50 gc; the Rats hold `treasury`."""
    armed_marksmen(table, "crossbow")
    table.do(ChangeTreasury(warband="Reikland Rats", delta=treasury - table.state.warband("Reikland Rats").treasury,
                            reason="test setup"))


ASKED_AFTER_THE_ROLL = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes"})


@pytest.mark.parametrize(("version", "asked"), [
    # Version 11: a 5 pays for the 2 places left, 99 gc for one recruit at 50 gc: one is offered, and the question
    # says what a recruit costs and what the treasury holds
    ("11", "Recruits for Marksmen (3 at 1 XP, 50 gc each; 5 XP and 99 gc to spend)?: answer with --answer "
           "marksmen:recruits=CHOICE (one of: 0, 1)"),
    # Version 10 offered two, which the treasury then refused ("the recruits cost 100 gc"): answered 0 or 1 only
    ("10", "Recruits for Marksmen (3 at 1 XP; 5 XP to spend)?: answer with --answer marksmen:recruits=CHOICE "
           "(one of: 0, 1, 2)"),
])
def test_the_recruits_offered_after_the_roll_are_those_the_treasury_pays_for(version, asked):
    """Rules 2.4: each recruit costs "the price of hiring henchmen" and, with "identical equipment", his group's gear:
    from version 11 a group is offered the recruits the treasury pays for, at its gear's lowest prices."""
    table = rats_and_skaven_on(version)
    marksmen_with_crossbows_and(table, 99)
    assert table.refusal(ASKED_AFTER_THE_ROLL, [5]) == asked


def test_what_a_group_is_offered_leaves_out_what_the_groups_before_it_spend():
    # Given Marksmen at 50 gc a recruit and Pikes (2 at 1 XP, 20 gc, no gear), and 99 gc
    table = rats_and_skaven_on("11")
    table.hire("Reikland Rats", "Pikes", "henchman", cost=20, group_size=2)
    marksmen_with_crossbows_and(table, 99)
    # When one Marksman is taken, then the Pikes are offered what the 49 gc left pay for: two
    asks_pikes = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "1"})
    assert table.refusal(asks_pikes, [5]) == (
        "Recruits for Pikes (2 at 1 XP, 20 gc each; 5 XP and 49 gc to spend)?: answer with --answer "
        "pikes:recruits=CHOICE (one of: 0, 1, 2)")


def test_with_ledger_dice_no_recruit_the_treasury_cannot_pay_for_is_offered():
    # Given Marksmen at 50 gc a recruit, 99 gc, and ledger dice that give a 3
    table = Table.dealt_alike()
    table.rats()
    table.skaven()
    marksmen_with_crossbows_and(table, 99)
    # When the reinforcing stops for the recruits after its roll, then what is left to answer is 0 or 1
    with pytest.raises(PendingDecision):
        table.by_the_ledger(ASKED_AFTER_THE_ROLL)
    pending = list(table.state.pending.values())[0]
    assert (pending.question, pending.options) == ("marksmen:recruits", ["0", "1"])


def test_a_roll_whose_recruits_the_treasury_cannot_pay_for_says_so():
    # Given Marksmen at 50 gc a recruit and 40 gc: none is offered (version 11), and the note says why
    table = rats_and_skaven_on("11")
    marksmen_with_crossbows_and(table, 40)
    assert table.do(ASKED_AFTER_THE_ROLL, [5])[1:] == [
        ev.NoteRecorded(text="no recruits join Reikland Rats (5 XP rolled): a recruit for Marksmen costs 50 gc, and "
                             "Reikland Rats has 40 gc", warband=RATS),
        done("reinforce"),
    ]


def test_gear_the_tables_do_not_price_is_priced_by_the_player(rats_and_skaven):
    armed_marksmen(rats_and_skaven, "lucky charm of Ulric")
    answers = {"reinforce": "yes", "marksmen:recruits": "1"}
    assert rats_and_skaven.refusal(Reinforce(warband="Reikland Rats", answers=answers)) == (  # before the D6: none given
        "the tables give lucky charm of Ulric no price: a recruit to Marksmen carries one, "
        "give its base price with --price lucky charm of Ulric=GC"
    )
    priced = Reinforce(warband="Reikland Rats", prices={"lucky charm of Ulric": 12}, answers=answers)
    assert rats_and_skaven.do(priced, [2])[-2] == ev.TreasuryChanged(
        warband=RATS, delta=-12, reason="the gear of 1 recruit for Marksmen: lucky charm of Ulric (12 gc each)")


LUCKY_CHARM_UNPRICED = ("the tables give lucky charm of Ulric no price: a recruit to Marksmen carries one, "
                        "give its base price with --price lucky charm of Ulric=GC")


def test_recruits_answered_after_the_roll_whose_gear_nothing_prices_hold_the_roll(rats_and_skaven):
    """Seed 2.4: "roll a D6: this is the total amount of experience available". Answered after the D6 (`campaign answer`
    to a reinforce left pending by ledger dice: no longer typed now), the reinforce can be given no --price: from version
    10 the roll stands and is held, saying why, for the next `reinforce`, which can be given it."""
    armed_marksmen(rats_and_skaven, "lucky charm of Ulric")
    answered = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "1"})
    assert rats_and_skaven.decided_again(answered, [2]) == [
        ev.DiceRolled(roll=1, expression="D6", purpose="reinforcements of Reikland Rats", faces=[2], value=2, source="table"),
        ce.ReinforcementRollHeld(warband=RATS, battle=1, xp=2, reason=LUCKY_CHARM_UNPRICED),
    ]


def test_on_version_9_recruits_answered_after_the_roll_whose_gear_nothing_prices_were_refused_saying_what_is_left():
    """Version 9 decides as before, refused after the roll; the refusal says what completes the reinforcing."""
    table = rats_and_skaven_on("9")
    armed_marksmen(table, "lucky charm of Ulric")
    answered = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "1"})
    with pytest.raises(RuleViolation, match=re.escape(
            f"{LUCKY_CHARM_UNPRICED}; answered later, a reinforce takes no --price: answer marksmen:recruits=0")):
        table.decided_again(answered, [2])


@pytest.mark.parametrize(
    "prices, answers, refusal",
    [
        ({"sword": 7}, {"reinforce": "yes", "marksmen:recruits": "1"}, "--price sword: no group reinforced here carries it"),
        ({"bow": 7}, {"reinforce": "no"}, "--price bow: no group reinforced here carries it"),
        ({"bow": 9}, {"reinforce": "yes", "marksmen:recruits": "1"}, "Bow is priced 7 gc by the tables, not 9"),
        ({"bow": 7, "Bow": 9}, {"reinforce": "yes", "marksmen:recruits": "1"}, "--price names an item twice: bow, Bow"),
    ],
)
def test_a_price_given_for_no_recruit_s_gear_or_against_the_tables_is_refused(rats_and_skaven, prices, answers, refusal):
    armed_marksmen(rats_and_skaven, "bow")
    # before the D6: none is given
    assert rats_and_skaven.refusal(Reinforce(warband="Reikland Rats", prices=prices, answers=answers)) == refusal


def test_on_version_3_recruits_came_with_their_group_s_gear_unpaid(rats_and_skaven_v3):
    armed_marksmen(rats_and_skaven_v3, "crossbow")
    answers = {"reinforce": "yes", "marksmen:recruits": "2"}
    assert rats_and_skaven_v3.refusal(Reinforce(warband="Reikland Rats", prices={"crossbow": 25}, answers=answers), [2]) == (
        "--price crossbow: on version 3 of the rules a recruit's gear is not paid for"
    )
    assert rats_and_skaven_v3.do(Reinforce(warband="Reikland Rats", answers=answers), [2])[1:] == [
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=2, reason="reinforced: 2 x 1 XP of the 2 rolled"),
        ev.TreasuryChanged(warband=RATS, delta=-50, reason="2 recruits for Marksmen"),
        done("reinforce"),
    ]


def test_not_reinforcing_rolls_nothing(rats_and_skaven):
    trading(rats_and_skaven, "reinforce")
    assert rats_and_skaven.do(Reinforce(warband="Reikland Rats", answers={"reinforce": "no"})) == [done("reinforce")]


@pytest.mark.parametrize(("version", "kept"), [("9", "Ithilmar Dagger"), ("10", "ithilmar-dagger")])
def test_an_item_gained_by_its_name_is_kept_under_the_id_the_other_commands_name_it_by(version, kept):
    """`campaign item gain … "Ithilmar Dagger"` kept the name as typed, while `buy`, the exploration and `reinforce
    --price ithilmar-dagger=GC` keep and read the item's id: a recruit's gear priced "Ithilmar Dagger=20" matched
    nothing. From version 10 it is kept under its id whichever way it is named; version 9 keeps it as typed."""
    table = rats_and_skaven_on(version)
    gained = table.do(GainItem(warband="Reikland Rats", item="Ithilmar Dagger", fighter="Marksmen"))
    assert [e.item for e in gained if isinstance(e, ev.ItemGained)] == [kept]
    # Then it is lost by either spelling
    lost = table.do(LoseItem(warband="Reikland Rats", item="ithilmar-dagger" if version == "10" else kept, fighter="Marksmen"))
    assert [e.item for e in lost if isinstance(e, ev.ItemLost)] == [kept]


def test_an_item_kept_as_typed_before_version_10_is_lost_by_that_name_on_version_10():
    """A campaign upgraded to version 10 may hold an item kept as typed ("Ithilmar Dagger"): it is still found."""
    table = rats_and_skaven_on("9")
    table.do(GainItem(warband="Reikland Rats", item="Ithilmar Dagger"))
    table.do(UpgradeRules(version="10"))  # `campaign rules upgrade`
    lost = table.do(LoseItem(warband="Reikland Rats", item="Ithilmar Dagger"))
    assert [e.item for e in lost if isinstance(e, ev.ItemLost)] == ["Ithilmar Dagger"]


def map_found_and_heroes_lost(version: str | None = None) -> Table:
    """Gunnar finds a Mordheim Map (rarity 9: 5 + 4); then he and Hans are lost (an arbiter's correction), and the Rats
    have no hero left, their Marksmen alone."""
    table = Table(version=version)
    table.rats()
    table.skaven()
    trading(table, "search")
    table.do(Search(warband="Reikland Rats", searches=[RareSearch(hero="Gunnar", item="mordheim-map")]), [5, 4])
    for hero in ("Gunnar", "Hans"):
        table.do(Correct(warband="Reikland Rats", fighter=hero, reason="lost", status="dead"))
    return table


def _bought_map(row: str, event: type[ev.ItemGained] | type[ev.ItemLost]) -> ev.Event:
    return event(warband=RATS, item="mordheim-map", reason=f"Mordheim Map gained (item:mordheim-map:authenticity:{row})")


@pytest.mark.parametrize(("face", "after", "said"), [
    (5, [], "Mordheim Map gained: the Mordheim Map is genuine (item:mordheim-map:authenticity:5-6): Reikland Rats has "
            "no hero to hold it, so nobody gains Streetwise"),
    (2, [_bought_map("1-4", ev.ItemLost)],
     "Mordheim Map gained: the Mordheim Map is fake (item:mordheim-map:authenticity:1-4): Reikland Rats has no hero to "
     "hold it, so nobody misses the next battle"),
])
def test_a_mordheim_map_bought_by_a_warband_with_no_hero_goes_to_the_stash_held_by_nobody(face, after, said):
    """Version 11, as for a map found exploring (rules 1: "Items go to the stash"; "Mordheim Map: roll D6. 1-4 fake
    (lose it; the holder misses the next battle); 5-6 genuine: the holder gains Streetwise"): the price and the map's
    D6 are rolled, and what it does to its holder is done to nobody, as the record says. It asked which hero holds
    it, and refused before the price roll ('there is nothing to choose from')."""
    table = map_found_and_heroes_lost()
    events = table.do(Buy(warband="Reikland Rats", item="mordheim-map"), [1, 1, 1, face])
    assert [(e.purpose, e.faces) for e in events if isinstance(e, ev.DiceRolled)] == [
        ("price of mordheim-map", [1, 1, 1]), ("Mordheim Map (D6)", [face])]
    assert events[-1 - len(after):] == [*after, ev.NoteRecorded(text=said, warband=RATS)]
    assert ("mordheim-map" in table.state.warbands[RATS].stash) == (not after)  # a fake one is discarded


def test_on_version_10_a_mordheim_map_bought_by_a_warband_with_no_hero_was_refused_before_its_price():
    assert map_found_and_heroes_lost("10").refusal(Buy(warband="Reikland Rats", item="mordheim-map"), [1, 1, 1, 5]) == (
        "Mordheim Map gained: which hero of Reikland Rats?: there is nothing to choose from")


def test_a_map_holder_answered_for_a_warband_with_no_hero_is_not_asked():
    """Version 11: with no hero to hold it, nobody is asked for; an answer naming one is refused, nothing written
    (it was taken and left unused)."""
    table = map_found_and_heroes_lost()
    assert table.refusal(Buy(warband="Reikland Rats", item="mordheim-map", answers={"map-holder": "Gunnar"}),
                         [1, 1, 1, 5]) == ("--answer map-holder: not asked: Reikland Rats has no hero to hold it: what its "
                                           "roll does to its holder is done to nobody")
