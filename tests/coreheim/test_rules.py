"""Coreheim post-game rules, as given/when/then tables written from seed 002 (section 2.1)
and shared/rules/coreheim.md. Expected values are worked out by hand from the text."""

import re

import msgspec
import pytest

from commands.kit import MoreDice, d66
from ledger.errors import BadInput

from commands.coreheim.rules import (
    AdvanceRoll,
    BattleParticipant,
    Characteristics,
    ChoiceRequest,
    CoreheimRuleError,
    FreeHiredSwordGained,
    GoldGained,
    MultipleSet,
    NewSkill,
    NoAdvancePossible,
    RatedHiredSword,
    RatedMember,
    Reinforcement,
    StatImproved,
    Talent,
    XpAward,
    advance_table,
    advance_thresholds_crossed,
    apply_stat_change,
    battle_xp_awards,
    check_new_skill,
    chart_words,
    choose_multiple,
    exploration_dice_count,
    find_multiples,
    hero_skill_lists,
    hired_sword_upkeep,
    item_sale_value,
    keep_exploration_dice,
    passes_test,
    plan_reinforcements,
    resolve_henchman_advance,
    resolve_henchman_injury,
    resolve_hero_advance,
    resolve_hero_injury,
    resolve_multiples,
    resolve_talent,
    sale_value,
    search_rare_item,
    sell_wyrdstone,
    shards_found,
    underdog_bonus,
    warband_rating,
)
from commands.coreheim.tables import (
    Captured,
    Dead,
    ExplorationDice,
    FreeHenchman,
    FreeUnit,
    GainItem,
    GainShards,
    GainSkill,
    GainXp,
    Hatred,
    HeroInjuryRoll,
    HireOption,
    MissGame,
    Robbed,
    StatChange,
)
from commands.coreheim.tables import TABLES as COREHEIM_TABLES

TABLES = COREHEIM_TABLES.defaults
S = MultipleSet  # (face, count) of a set of multiples


def item(name, count=1):
    return GainItem(item=name, count=count)


# === Exploration 1: one D6 per hero, +1 if the warband won ===============================


@pytest.mark.parametrize(
    "heroes, won, extra, dice",
    [
        (3, False, 0, 3),
        (3, True, 0, 4),  # "one extra D6 if you won the battle"
        (6, True, 0, 7),
        (5, True, 1, 7),  # e.g. a scenario's extra die
        (0, False, 0, 0),
    ],
)
def test_exploration_dice_count(heroes, won, extra, dice):
    assert exploration_dice_count(heroes, won=won, extra_dice=extra) == dice


# === Exploration 2: at most six dice are your result =====================================


@pytest.mark.parametrize(
    "rolled, keep, discard, kept",
    [
        ([3, 5, 2], None, 0, (3, 5, 2)),
        ([1, 2, 3, 4, 5, 6], None, 0, (1, 2, 3, 4, 5, 6)),
        # seven dice: the player keeps six of them
        ([6, 6, 5, 4, 3, 2, 1], [6, 6, 5, 4, 3, 2], 0, (6, 6, 5, 4, 3, 2)),
        # the player may prefer a set of multiples to the highest total
        ([1, 1, 6, 5, 4, 3, 2], [1, 1, 5, 4, 3, 2], 0, (1, 1, 5, 4, 3, 2)),
        # Mordheim Survivor: one extra die, then discard any one die
        ([2, 3, 4, 5, 6, 6, 1], [2, 3, 4, 5, 6, 6], 1, (2, 3, 4, 5, 6, 6)),
        ([2, 3, 4, 5], [2, 3, 5], 1, (2, 3, 5)),
        # "Even if you are allowed to roll seven or more dice, you must always pick a maximum of six
        # dice as your result": fewer than six may count, here to leave the four 6s (a Guardhouse) out
        ([6, 6, 6, 6, 6, 5, 4], [6, 6, 5, 4], 0, (6, 6, 5, 4)),
        ([6, 6, 6, 6, 6, 5, 4], [6], 0, (6,)),
        ([2, 3, 4, 5, 6, 6, 1, 1], [6, 6, 5], 1, (6, 6, 5)),  # eight dice, one discarded: still seven left
    ],
)
def test_keep_exploration_dice(rolled, keep, discard, kept):
    assert keep_exploration_dice(rolled, keep, discard=discard, tables=TABLES) == kept


@pytest.mark.parametrize(
    "rolled, keep, discard, message",
    [
        ([6, 6, 5, 4, 3, 2, 1], None, 0, "7 exploration dice were rolled; choose at most 6 to keep"),
        ([6, 6, 5, 4, 3, 2, 1], [6, 6, 5, 4, 3, 2, 1], 0, "Keep at most 6 of the 7 exploration dice (and at least one), not 7"),
        ([6, 6, 5, 4, 3, 2, 1], [], 0, "Keep at most 6 of the 7 exploration dice (and at least one), not 0"),
        ([1, 2, 3], [1, 2], 0, "Keep exactly 3 of the 3 exploration dice, not 2"),  # six or fewer: all of them count
        ([6, 6, 5, 4, 3, 2, 1], [6, 6, 6, 4, 3, 2], 0, "Cannot keep [6]"),
        ([1, 2, 3], [1, 2, 3], 1, "Keep exactly 2 of the 3 exploration dice, not 3"),
        ([1, 2, 7], None, 0, "Exploration dice: the 3rd die of the 3D6 roll shows 7, not 1-6"),
    ],
)
def test_keep_exploration_dice_refusals(rolled, keep, discard, message):
    with pytest.raises((CoreheimRuleError, BadInput), match=re.escape(message)):
        keep_exploration_dice(rolled, keep, discard=discard, tables=TABLES)


# === Exploration 3: the sum of the kept dice gives the shards ===========================


@pytest.mark.parametrize(
    "kept, total, shards, row_id",
    [
        ([5], 5, 1, "shards:1-5"),
        ([6], 6, 2, "shards:6-11"),
        ([6, 5], 11, 2, "shards:6-11"),
        ([6, 6], 12, 3, "shards:12-17"),
        ([6, 6, 5], 17, 3, "shards:12-17"),
        ([6, 6, 6], 18, 4, "shards:18-24"),
        ([6, 6, 6, 6], 24, 4, "shards:18-24"),
        ([6, 6, 6, 6, 1], 25, 5, "shards:25-30"),
        ([6, 6, 5, 4, 3, 2], 26, 5, "shards:25-30"),
        ([6, 6, 6, 6, 6], 30, 5, "shards:25-30"),
        ([6, 6, 6, 6, 6, 1], 31, 6, "shards:31-35"),
        ([6, 6, 6, 6, 6, 5], 35, 6, "shards:31-35"),
        ([6, 6, 6, 6, 6, 6], 36, 7, "shards:36+"),
        ([], 0, 0, None),
    ],
)
def test_shards_found(kept, total, shards, row_id):
    found = shards_found(kept, tables=TABLES)
    assert (found.total, found.shards, found.row_id) == (total, shards, row_id)


# === Exploration 4 and 5: multiples; the player picks one set ===========================


@pytest.mark.parametrize(
    "kept, sets",
    [
        ([1, 2, 3, 4, 5, 6], ()),
        ([6, 6, 5, 4, 3, 2], (S(face=6, count=2),)),
        ([2, 2, 5, 5, 5, 1], (S(face=2, count=2), S(face=5, count=3))),
        ([4, 4, 4, 4, 1, 1], (S(face=1, count=2), S(face=4, count=4))),
        ([3, 3, 1, 1, 6, 6], (S(face=1, count=2), S(face=3, count=2), S(face=6, count=2))),
        ([3, 3, 3, 3, 3, 3], (S(face=3, count=6),)),
    ],
)
def test_find_multiples(kept, sets):
    assert find_multiples(kept) == sets


def test_several_sets_of_multiples_need_the_players_pick():
    sets = find_multiples([2, 2, 5, 5, 5, 1])
    with pytest.raises(CoreheimRuleError, match="Several sets of multiples \\(2 2, 5 5 5\\); choose one"):
        choose_multiple(sets)
    assert choose_multiple(sets, S(face=2, count=2)) == S(face=2, count=2)
    assert choose_multiple(sets, S(face=5, count=3)) == S(face=5, count=3)
    with pytest.raises(CoreheimRuleError, match="5 5 was not rolled"):
        choose_multiple(sets, S(face=5, count=2))


def test_a_single_set_needs_no_pick_and_none_gives_nothing():
    assert choose_multiple(find_multiples([4, 4, 1])) == S(face=4, count=2)
    assert choose_multiple(find_multiples([1, 2, 3])) is None


def test_the_chart_rows_read_are_told_by_their_names():
    """Issue 9, item 6: the log said "multiples:6x4" where the chart says "Guardhouse"."""
    read = ("multiples:6x4", "multiples:6x4:any", "multiples:6x4:ld-test:failed", "multiples:6x4:fight:won")
    assert chart_words(read, tables=TABLES) == (
        "Guardhouse", "leader's Ld test failed", "won the fight against the warhound")
    # a row a house-rule table no longer has keeps its id rather than vanish
    assert chart_words(("multiples:3x2", "multiples:3x2:d6:9"), tables=TABLES) == ("Corpse", "multiples:3x2:d6:9")
    # a house-rule chart says its own words, not those of the chart read before it
    renamed = msgspec.structs.replace(TABLES.multiples, entries=tuple(
        msgspec.structs.replace(entry, name=entry.name.upper()) for entry in TABLES.multiples.entries))
    assert chart_words(read[:1], tables=msgspec.structs.replace(TABLES, multiples=renamed)) == ("GUARDHOUSE",)
    assert chart_words(read[:1], tables=TABLES) == ("Guardhouse",)


@pytest.mark.parametrize(
    "chosen, warband, rolls, choices, leader_ld, outcomes, rows",
    [
        # Well, declined: nothing happens
        (S(face=1, count=2), "mercenaries", {}, {"multiples:1x2:search": False}, None, (), ()),
        (S(face=1, count=2), "mercenaries", {"multiples:1x2:d6": [2]}, {"multiples:1x2:search": True}, None,
         (MissGame(target="chosen-hero"),), ("multiples:1x2:search:yes", "multiples:1x2:d6:1-2")),
        (S(face=1, count=2), "mercenaries", {"multiples:1x2:d6": [3]}, {"multiples:1x2:search": True}, None,
         (GainShards(count=1),), ("multiples:1x2:search:yes", "multiples:1x2:d6:3-6")),
        (S(face=2, count=2), "undead", {"multiples:2x2:d6": [4]}, {}, None, (item("dwarven-ale"),), ("multiples:2x2:d6:1-4",)),
        (S(face=2, count=2), "undead", {"multiples:2x2:d6": [5]}, {}, None, (item("dark-venom"),), ("multiples:2x2:d6:5-6",)),
        (S(face=3, count=2), "skaven", {"multiples:3x2:d6": [5]}, {}, None, (item("sword"),), ("multiples:3x2:d6:4-5",)),
        (S(face=4, count=2), "skaven", {"multiples:4x2:d6": [3], "multiples:4x2:d6:1-3:gold": [5]}, {}, None,
         (GoldGained(source="multiples:4x2:d6:1-3:gold", amount=5),), ("multiples:4x2:d6:1-3",)),
        # Overturned Cart 6: a Mordheim Map, which is rolled for when found (5-6 genuine)
        (S(face=4, count=2), "skaven", {"multiples:4x2:d6": [6], "item:mordheim-map:authenticity": [5]}, {}, None,
         (item("mordheim-map"), GainSkill(target="map-holder", skill="Streetwise")),
         ("multiples:4x2:d6:6", "item:mordheim-map:authenticity:5-6")),
        # Mordheim Survivor differs per warband
        (S(face=5, count=2), "cult-of-the-possessed", {}, {}, None, (GainXp(target="leader", amount=1),), ("multiples:5x2:cult",)),
        (S(face=5, count=2), "skaven", {"multiples:5x2:skaven:gold": [3, 4]}, {}, None,
         (GoldGained(source="multiples:5x2:skaven:gold", amount=7),), ("multiples:5x2:skaven",)),
        (S(face=5, count=2), "undead", {}, {}, None, (FreeUnit(unit="zombie", count=1),), ("multiples:5x2:undead",)),
        (S(face=5, count=2), "witch-hunters", {}, {}, None, (ExplorationDice(extra=1, discard=1),), ("multiples:5x2:other",)),
        (S(face=6, count=2), "mercenaries", {}, {}, None, (item("power-scroll"),), ("multiples:6x2",)),
        # Wine Cellar: leader's Ld test (D12 >= Ld target); Undead always get 2
        (S(face=1, count=3), "mercenaries", {"multiples:1x3:ld-test": [7]}, {}, 7, (item("elven-wine", 4),), ("multiples:1x3:ld-test:passed",)),
        (S(face=1, count=3), "mercenaries", {"multiples:1x3:ld-test": [6]}, {}, 7, (item("elven-wine", 1),), ("multiples:1x3:ld-test:failed",)),
        (S(face=1, count=3), "undead", {}, {}, None, (item("elven-wine", 2),), ("multiples:1x3:undead",)),
        (S(face=2, count=3), "sisters-of-sigmar", {"multiples:2x3:other:gold": [2, 3]}, {}, None,
         (GoldGained(source="multiples:2x3:other:gold", amount=5), FreeHenchman(max_cost=30, count=1)), ("multiples:2x3:other",)),
        (S(face=3, count=3), "night-goblins", {}, {}, None, (item("net"), item("rope-and-hook")), ()),
        (S(face=6, count=3), "mercenaries", {}, {"multiples:6x3:slot": True}, None,
         (FreeHiredSwordGained(source="multiples:6x3:slot"),), ()),
        (S(face=6, count=3), "mercenaries", {"multiples:6x3:no-slot:gold": [6, 6]}, {"multiples:6x3:slot": False}, None,
         (GoldGained(source="multiples:6x3:no-slot:gold", amount=12),), ()),
        (S(face=3, count=4), "witch-hunters", {}, {}, None, (GainXp(target="chosen-warrior", amount=3),), ("multiples:3x4:witch-hunters",)),
        (S(face=3, count=4), "undead", {}, {}, None,
         (FreeUnit(unit="crypt-ghoul", count=1), FreeUnit(unit="zombie", count=2)), ()),
        # Guardhouse: Mercenaries pass automatically; others test and may have to fight
        (S(face=6, count=4), "mercenaries", {}, {}, None,
         (FreeUnit(unit="warhound", count=1), item("halberd")), ("multiples:6x4:ld-test:passed",)),
        (S(face=6, count=4), "witch-hunters", {"multiples:6x4:ld-test": [1]}, {"multiples:6x4:fight": True}, 2,
         (GainXp(target="chosen-hero", amount=1), item("halberd")), ("multiples:6x4:ld-test:failed", "multiples:6x4:fight:won")),
        (S(face=6, count=4), "witch-hunters", {"multiples:6x4:ld-test": [4]}, {"multiples:6x4:fight": False}, 5,
         (HeroInjuryRoll(target="chosen-hero"),), ("multiples:6x4:fight:lost",)),
        # Moneylender: D3 x 20 (+4D6 for Mercenaries)
        (S(face=1, count=5), "mercenaries", {"multiples:1x5:mercenaries:d3": [2], "multiples:1x5:mercenaries:4d6": [1, 2, 3, 4]}, {}, None,
         (GoldGained(source="multiples:1x5:mercenaries:d3", amount=40), GoldGained(source="multiples:1x5:mercenaries:4d6", amount=10)), ()),
        (S(face=1, count=5), "undead", {"multiples:1x5:other:d3": [3]}, {}, None,
         (GoldGained(source="multiples:1x5:other:d3", amount=60),), ()),
        (S(face=6, count=5), "skaven", {}, {"multiples:6x5:fight": False}, None,
         (Robbed(target="chosen-hero"), HeroInjuryRoll(target="chosen-hero")), ("multiples:6x5:fight:lost",)),
        (S(face=6, count=5), "skaven", {}, {"multiples:6x5:fight": True}, None,
         (GainXp(target="chosen-hero", amount=1), GoldGained(source="multiples:6x5:purse", amount=25), item("pit-fighter-manual")), ()),
        (S(face=3, count=6), "undead", {}, {}, None,
         (GainShards(count=1), item("telescope"), item("gromril-dagger"), item("religious-relic")), ()),
        (S(face=5, count=6), "mercenaries", {}, {}, None,
         (item("halberd", 2), item("rifle", 2), item("light-armour", 2), HireOption(unit="veteran-state-troop", price=20)),
         ("multiples:5x6:mercenaries",)),
        (S(face=6, count=6), "undead", {}, {}, None, (item("shackles", 5), item("rope-and-hook", 5)), ()),
    ],
)
def test_resolve_multiples(chosen, warband, rolls, choices, leader_ld, outcomes, rows):
    resolution = resolve_multiples(chosen, warband=warband, rolls=rolls, choices=choices, leader_ld=leader_ld, tables=TABLES)
    assert resolution.complete
    assert resolution.outcomes == outcomes
    assert resolution.rows_used[0] == f"multiples:{chosen.face}x{chosen.count}"
    assert set(rows) <= set(resolution.rows_used)


def more_dice(rule, *args, **kwargs) -> tuple[str, str, str]:
    """The roll a rule asks for next (the kit's protocol: it raises MoreDice)."""
    with pytest.raises(MoreDice) as asked:
        rule(*args, **kwargs)
    return asked.value.key, asked.value.expression, asked.value.purpose


def test_multiples_tell_which_follow_up_rolls_are_needed():
    assert more_dice(resolve_multiples, S(face=4, count=2), warband="mercenaries", tables=TABLES) == (
        "multiples:4x2:d6", "D6", "exploration chart follow-up multiples:4x2:d6")
    assert more_dice(resolve_multiples, S(face=4, count=2), warband="mercenaries", rolls={"multiples:4x2:d6": [1]},
                     tables=TABLES) == ("multiples:4x2:d6:1-3:gold", "D6", "Gold found (D6)")
    assert more_dice(resolve_multiples, S(face=5, count=4), warband="undead", tables=TABLES) == (
        "multiples:5x4:gold", "3D6", "Gold found (3D6)")
    well = resolve_multiples(S(face=1, count=2), warband="undead", tables=TABLES)
    assert well.pending == (ChoiceRequest(id="multiples:1x2:search", question="Send a hero down the well?"),)


@pytest.mark.parametrize(
    "chosen, rolls, message",
    [
        (S(face=5, count=4), {"multiples:5x4:gold": [1, 2]}, "needs 3D6: 3 dice, not 2"),
        (S(face=4, count=2), {"multiples:4x2:d6": [7]}, "the die of the D6 roll shows 7, not 1-6"),
        (S(face=6, count=2), {"multiples:4x2:d6": [1]}, "were not needed"),
        (S(face=1, count=5), {"multiples:1x5:other:d3": [4]}, "the die of the D3 roll shows 4, not 1-3"),
    ],
)
def test_resolve_multiples_refusals(chosen, rolls, message):
    with pytest.raises((CoreheimRuleError, BadInput), match=message):
        resolve_multiples(chosen, warband="undead", rolls=rolls, tables=TABLES)


@pytest.mark.parametrize(
    "face, target, passes",
    [(7, 7, True), (6, 7, False), (12, 13, True), (1, 1, False), (2, 2, True)],
)
def test_leadership_test(face, target, passes):
    assert passes_test(face, target) is passes


# === Injuries 1 and 3: henchmen, mounts, Hired Swords roll a D12 ========================


@pytest.mark.parametrize(
    "face, marienburg, dead, row_id",
    [
        (1, False, True, "henchman-injury:1-4"),
        (4, False, True, "henchman-injury:1-4"),  # exactly 4: dead
        (5, False, False, "henchman-injury:5-12"),  # exactly 5: survives
        (12, False, False, "henchman-injury:5-12"),
        (2, True, True, "henchman-injury:marienburg-hired-sword:1-2"),
        (3, True, False, "henchman-injury:marienburg-hired-sword:3-12"),
    ],
)
def test_henchman_injury(face, marienburg, dead, row_id):
    injury = resolve_henchman_injury(face, marienburg_hired_sword=marienburg, tables=TABLES)
    assert (injury.dead, injury.row_id) == (dead, row_id)
    assert injury.gear_lost is dead  # "When a warrior dies, all of their ... equipment are lost."


@pytest.mark.parametrize("face", [0, 13])
def test_henchman_injury_refuses_faces_off_the_d12(face):
    with pytest.raises((CoreheimRuleError, BadInput), match=f"Henchman injury: the die of the D12 roll shows {face}, not 1-12"):
        resolve_henchman_injury(face, tables=TABLES)


# === Injuries 2: heroes roll D66 ========================================================


def test_d66_reads_tens_then_units():
    assert d66([3, 5]) == 35
    assert d66([5, 3]) == 53


@pytest.mark.parametrize(
    "rolls, game, outcomes, rows_used",
    [
        ([(4, 1)], 5, (Robbed(target="injured-hero"),), ("hero-injury:36-41",)),
        ([(3, 6)], 5, (Robbed(target="injured-hero"),), ("hero-injury:36-41",)),
        ([(1, 5)], 5, (Captured(target="injured-hero"),), ("hero-injury:15",)),
        ([(1, 1)], 3, (Dead(target="injured-hero"),), ("hero-injury:11-14",)),
        ([(1, 4)], 9, (Dead(target="injured-hero"),), ("hero-injury:11-14",)),
        ([(2, 3)], 5, (StatChange(target="injured-hero", stat="T", delta=1),), ("hero-injury:23",)),
        ([(2, 4)], 5, (), ("hero-injury:24",)),  # Arm Wound: no v10 stat by default (D8)
        ([(2, 6)], 5, (StatChange(target="injured-hero", stat="WS", delta=1),), ("hero-injury:26",)),
        ([(3, 3)], 5, (StatChange(target="injured-hero", stat="I", delta=1),), ("hero-injury:32-33",)),
        ([(4, 3)], 5, (MissGame(target="injured-hero"),), ("hero-injury:42-43",)),
        ([(5, 4)], 5, (), ("hero-injury:45-64",)),
        ([(6, 5)], 5, (Hatred(target="injured-hero", of="enemy-warband"),), ("hero-injury:65",)),
        ([(6, 6)], 5, (GainXp(target="injured-hero", amount=1),), ("hero-injury:66",)),
        # Multiple Injuries: four more rolls, each re-rolling Dead/Captured/Pits/Multiple
        ([(1, 6), (1, 1), (1, 5), (4, 4), (2, 1), (5, 5), (6, 6), (6, 5), (4, 2)], 5,
         (GainXp(target="injured-hero", amount=1), Hatred(target="injured-hero", of="enemy-warband"),
          MissGame(target="injured-hero")),
         ("hero-injury:16-22", "hero-injury:45-64", "hero-injury:66", "hero-injury:65", "hero-injury:42-43")),
        # Injuries stack: two Leg Injuries are M -1 twice
        ([(2, 2), (2, 5), (2, 5), (5, 1), (5, 2)], 5,
         (StatChange(target="injured-hero", stat="M", delta=-1), StatChange(target="injured-hero", stat="M", delta=-1)),
         ("hero-injury:16-22", "hero-injury:25", "hero-injury:25", "hero-injury:45-64", "hero-injury:45-64")),
    ],
)
def test_hero_injury(rolls, game, outcomes, rows_used):
    resolution = resolve_hero_injury(rolls, hero="Gunnar", warband_game_number=game, tables=TABLES)
    assert resolution.complete
    assert resolution.outcomes == outcomes
    assert resolution.rows_used == rows_used


@pytest.mark.parametrize("game", [1, 2])
def test_heroes_cannot_die_in_the_warbands_first_two_games(game):
    resolution = resolve_hero_injury(
        [(1, 3), (2, 3), (2, 5), (2, 6), (3, 1)], hero="Gunnar", warband_game_number=game, tables=TABLES
    )
    assert not resolution.dead
    assert resolution.rolls[0].result == "multiple-injuries"
    assert resolution.rolls[0].row_id == "hero-injury:11-14"
    assert resolution.outcomes == (
        StatChange(target="injured-hero", stat="T", delta=1),
        StatChange(target="injured-hero", stat="M", delta=-1),
        StatChange(target="injured-hero", stat="WS", delta=1),
        StatChange(target="injured-hero", stat="BS", delta=1),
    )


def test_a_hero_can_die_from_the_third_game():
    resolution = resolve_hero_injury([(1, 3)], hero="Gunnar", warband_game_number=3, tables=TABLES)
    assert resolution.dead


def test_dead_rolled_during_multiple_injuries_is_rerolled_even_in_the_first_games():
    resolution = resolve_hero_injury(
        [(1, 1), (1, 2), (5, 5), (5, 5), (5, 5), (5, 5)], hero="Gunnar", warband_game_number=1, tables=TABLES
    )
    assert [(r.d66, r.counted) for r in resolution.rolls] == [(11, True), (12, False), (55, True), (55, True), (55, True), (55, True)]
    assert resolution.outcomes == ()


def test_multiple_injuries_asks_for_one_roll_at_a_time():
    assert more_dice(resolve_hero_injury, [(2, 1), (5, 5)], hero="Gunnar", warband_game_number=4, tables=TABLES) == (
        "hero-injury:Gunnar:roll-3", "D66", "Serious injury for Gunnar")


@pytest.mark.parametrize(
    "rolls, won, outcomes",
    [
        ([(4, 4)], True, (GoldGained(source="hero-injury:44:purse", amount=25), GainXp(target="injured-hero", amount=1))),
        # lost: robbed, then D66 again re-rolling a further Sold to the Pits
        ([(4, 4), (4, 4), (3, 4)], False,
         (Robbed(target="injured-hero"), StatChange(target="injured-hero", stat="Ld", delta=1))),
    ],
)
def test_sold_to_the_pits(rolls, won, outcomes):
    resolution = resolve_hero_injury(rolls, hero="Gunnar", warband_game_number=5, pit_fight_won=won, tables=TABLES)
    assert resolution.complete
    assert resolution.outcomes == outcomes


def test_sold_to_the_pits_asks_for_the_fight_result():
    resolution = resolve_hero_injury([(4, 4)], hero="Gunnar", warband_game_number=5, tables=TABLES)
    assert resolution.pending == (
        ChoiceRequest(id="hero-injury:44:pit-fight", question="Did the hero win the fight against the pit-fighter?"),
    )


def test_enemy_shackles_turn_dead_into_captured():
    resolution = resolve_hero_injury([(1, 2)], hero="Gunnar", warband_game_number=5, enemy_has_shackles=True, tables=TABLES)
    assert resolution.outcomes == (Captured(target="injured-hero"),)
    assert resolution.shackles_used


@pytest.mark.parametrize(
    "rolls, kwargs, message",
    [
        ([(5, 5), (5, 5)], {}, "Gunnar's injuries needed 1 D66 rolls, but 2 were given"),
        ([(7, 1)], {}, "D66: the 1st die of the D66 roll shows 7, not 1-6"),
        ([(5, 5)], {"pit_fight_won": True}, "Gunnar was not sold to the pits"),
    ],
)
def test_hero_injury_refusals(rolls, kwargs, message):
    with pytest.raises((CoreheimRuleError, BadInput), match=message):
        resolve_hero_injury(rolls, hero="Gunnar", warband_game_number=5, tables=TABLES, **kwargs)


# === Experience 1-4: awards =============================================================


def hero(name, **kwargs):
    return BattleParticipant(name=name, role="hero", **{"survived": True, **kwargs})


@pytest.mark.parametrize(
    "participants, won, scenario, awards",
    [
        # the leader, taken out of action but alive, took two enemies out, and won
        ([hero("Captain Kurt", is_leader=True, enemies_out_of_action=2)], True, {},
         (XpAward(fighter="Captain Kurt", amount=1, reason="survived"),
          XpAward(fighter="Captain Kurt", amount=2, reason="enemies-out-of-action"),
          XpAward(fighter="Captain Kurt", amount=1, reason="leader-won"))),
        ([hero("Captain Kurt", is_leader=True)], False, {}, (XpAward(fighter="Captain Kurt", amount=1, reason="survived"),)),
        ([hero("Gunnar", survived=False, enemies_out_of_action=3)], True, {}, ()),
        # henchmen get no XP for taking enemies out unless the scenario says so
        ([BattleParticipant(name="Swordsmen", role="henchman-group", survived=True, enemies_out_of_action=2)], True,
         {"Swordsmen": 1},
         (XpAward(fighter="Swordsmen", amount=1, reason="survived"), XpAward(fighter="Swordsmen", amount=1, reason="scenario"))),
        ([BattleParticipant(name="Ogre", role="hired-sword", survived=True, enemies_out_of_action=1)], False, {},
         (XpAward(fighter="Ogre", amount=1, reason="survived"), XpAward(fighter="Ogre", amount=1, reason="enemies-out-of-action"))),
        ([BattleParticipant(name="Warhound", role="animal", survived=True, enemies_out_of_action=1),
          BattleParticipant(name="Zombies", role="henchman-group", survived=True, gains_xp=False)], True, {}, ()),
    ],
)
def test_battle_xp_awards(participants, won, scenario, awards):
    assert battle_xp_awards(participants, won=won, scenario_awards=scenario) == awards


def test_henchman_deed_option():
    group = BattleParticipant(name="Swordsmen", role="henchman-group", survived=True, downed_enemy_hero_or_large_creature=True)
    assert battle_xp_awards([group], won=False) == (XpAward(fighter="Swordsmen", amount=1, reason="survived"),)
    assert battle_xp_awards([group], won=False, henchman_deed_xp=True) == (
        XpAward(fighter="Swordsmen", amount=1, reason="survived"),
        XpAward(fighter="Swordsmen", amount=1, reason="henchman-deed"),
    )


@pytest.mark.parametrize(
    "participants, scenario, message",
    [
        ([hero("Gunnar")], {"Ulf": 1}, "Ulf did not take part in this battle"),
        ([hero("Gunnar", survived=False)], {"Gunnar": 1}, "Gunnar died and cannot gain experience"),
        ([hero("Gunnar"), hero("Gunnar")], {}, "Gunnar listed twice"),
        ([BattleParticipant(name="Swordsmen", role="henchman-group", survived=True, is_leader=True)], {},
         "Swordsmen is not a hero and cannot lead"),
    ],
)
def test_battle_xp_refusals(participants, scenario, message):
    with pytest.raises(CoreheimRuleError, match=message):
        battle_xp_awards(participants, won=True, scenario_awards=scenario)


# === Experience 5-6: thresholds =========================================================


@pytest.mark.parametrize(
    "kind, old, new, crossed",
    [
        ("hero", 0, 1, ()),
        ("hero", 1, 4, (2, 4)),  # two thresholds in one battle: two advance rolls
        ("hero", 3, 9, (4, 6, 8)),
        ("hero", 8, 11, (11,)),
        ("hero", 20, 23, ()),  # starting XP triggers nothing; a 20-XP leader next advances at 24
        ("hero", 20, 24, (24,)),
        ("hero", 89, 95, (90,)),
        ("hero", 90, 99, ()),
        ("henchman", 1, 2, (2,)),
        ("henchman", 5, 7, (6, 7)),
        ("henchman", 7, 10, ()),
        ("hired-sword", 3, 8, (4, 6, 7)),
    ],
)
def test_thresholds_crossed(kind, old, new, crossed):
    assert advance_thresholds_crossed(old, new, kind=kind, tables=TABLES) == crossed


def test_hired_swords_use_henchman_thresholds_but_the_hero_table():
    assert advance_table("hired-sword", tables=TABLES) is TABLES.hero_advances
    assert advance_table("henchman", tables=TABLES) is TABLES.henchman_advances


def test_experience_never_goes_down():
    with pytest.raises(CoreheimRuleError, match="Experience cannot go from 5 to 4"):
        advance_thresholds_crossed(5, 4, kind="hero", tables=TABLES)


# === Advances ===========================================================================

HUMAN = Characteristics(M=4, A=1, W=1, T=0, WS=7, BS=8, I=5, Ld=7)


@pytest.mark.parametrize(
    "faces, profile, choice, advance, outcomes",
    [
        ([1], HUMAN, None, StatImproved(stat="I", delta=-2, old=5, new=3), ["applied"]),  # exactly the 3+ maximum
        ([4], HUMAN, None, StatImproved(stat="Ld", delta=-1, old=7, new=6), ["applied"]),
        ([5], HUMAN, None, StatImproved(stat="T", delta=-1, old=0, new=-1), ["applied"]),
        ([6], HUMAN, None, StatImproved(stat="W", delta=1, old=1, new=2), ["applied"]),
        ([7], HUMAN, None, StatImproved(stat="A", delta=1, old=1, new=2), ["applied"]),
        ([9], HUMAN, "WS", StatImproved(stat="WS", delta=-1, old=7, new=6), ["applied"]),
        ([10], HUMAN, "BS", StatImproved(stat="BS", delta=-1, old=8, new=7), ["applied"]),
        ([12], HUMAN, None, NewSkill(spell_instead_for_wizards=True), ["applied"]),
        # I 4+ cannot improve two steps past the human 3+: re-roll
        ([2, 7], Characteristics(M=4, A=1, W=1, T=0, WS=7, BS=8, I=4, Ld=7), None,
         StatImproved(stat="A", delta=1, old=1, new=2), ["re-rolled: I 4+ would pass the human maximum 3+", "applied"]),
        # T already at the human maximum -1
        ([5, 3], Characteristics(M=4, A=1, W=1, T=-1, WS=7, BS=8, I=5, Ld=7), None,
         StatImproved(stat="Ld", delta=-1, old=7, new=6), ["re-rolled: T -1 would pass the human maximum -1", "applied"]),
        # WS capped: the other (BS) is taken, no choice needed
        ([8], Characteristics(M=4, A=1, W=1, T=0, WS=6, BS=8, I=5, Ld=7), None,
         StatImproved(stat="BS", delta=-1, old=8, new=7), ["applied"]),
        # both WS and BS capped: re-roll
        ([8, 11], Characteristics(M=4, A=3, W=3, T=-1, WS=6, BS=7, I=3, Ld=4), None,
         NewSkill(spell_instead_for_wizards=True),
         ["re-rolled: WS 6+ would pass the human maximum 6+; BS 7+ would pass the human maximum 7+", "applied"]),
    ],
)
def test_hero_advance(faces, profile, choice, advance, outcomes):
    resolution = resolve_hero_advance(faces, hero="Gunnar", characteristics=profile, race="human", stat_choice=choice, tables=TABLES)
    assert resolution.advance == advance
    assert [roll.outcome for roll in resolution.rolls] == outcomes


def test_hero_advance_asks_ws_or_bs_and_the_next_roll():
    assert resolve_hero_advance([9], hero="Gunnar", characteristics=HUMAN, race="human", tables=TABLES).pending == (
        ChoiceRequest(id="hero-advance:8-10", question="Which does Gunnar improve: WS or BS?"),
    )
    capped = Characteristics(M=4, A=1, W=1, T=-1, WS=7, BS=8, I=5, Ld=7)
    assert more_dice(resolve_hero_advance, [5], hero="Gunnar", characteristics=capped, race="human", tables=TABLES) == (
        "advance:Gunnar:roll-2", "D12", "Advance for Gunnar")
    resolution = resolve_hero_advance([5, 9], hero="Gunnar", characteristics=capped, race="human", tables=TABLES)
    assert resolution.rolls[0] == AdvanceRoll(face=5, row_id="hero-advance:5", outcome="re-rolled: T -1 would pass the human maximum -1")


def test_an_ogre_has_no_bs_to_improve():
    ogre = Characteristics(M=6, A=2, W=3, T=-1, WS=5, BS=9, I=6, Ld=6)
    resolution = resolve_hero_advance([9, 6], hero="Ogre", characteristics=ogre, race="ogre", tables=TABLES)
    assert resolution.advance == StatImproved(stat="W", delta=1, old=3, new=4)
    assert resolution.rolls[0].outcome == "re-rolled: WS 5+ would pass the ogre maximum 5+; BS cannot be improved"


def test_a_hero_with_no_skill_left_to_learn_rolls_a_new_skill_again():
    """"If an advance would pass the racial maximum (§3.5), re-roll it" (rules §3.3): a new skill he cannot
    learn is re-rolled the same way."""
    resolution = resolve_hero_advance([11, 7], hero="Gunnar", characteristics=HUMAN, race="human",
                                      no_skill="Gunnar has no skill left to learn from combat", tables=TABLES)
    assert resolution.advance == StatImproved(stat="A", delta=1, old=1, new=2)
    assert [roll.outcome for roll in resolution.rolls] == ["re-rolled: Gunnar has no skill left to learn from combat", "applied"]


def test_a_hero_at_every_maximum_with_no_skill_left_loses_the_advance():
    """"When no row of the table could ever apply, the advance is lost instead of re-rolling forever"."""
    best = Characteristics(M=4, A=3, W=3, T=-1, WS=6, BS=7, I=3, Ld=4)
    resolution = resolve_hero_advance([], hero="Gunnar", characteristics=best, race="human",
                                      no_skill="Gunnar has no skill left to learn from combat", tables=TABLES)
    assert isinstance(resolution.advance, NoAdvancePossible)
    assert "Gunnar has no skill left to learn from combat" in resolution.advance.reason


@pytest.mark.parametrize(
    "choice, profile, message",
    [
        ("WS", Characteristics(M=4, A=1, W=1, T=0, WS=6, BS=8, I=5, Ld=7), "Gunnar cannot take WS: WS 6\\+ would pass the human maximum 6\\+; take BS"),
        ("I", HUMAN, "Gunnar must choose WS or BS, not I"),
    ],
)
def test_hero_advance_refusals(choice, profile, message):
    with pytest.raises(CoreheimRuleError, match=message):
        resolve_hero_advance([9], hero="Gunnar", characteristics=profile, race="human", stat_choice=choice, tables=TABLES)


HENCHMAN = Characteristics(M=4, A=1, W=1, T=0, WS=8, BS=8, I=6, Ld=8)


@pytest.mark.parametrize(
    "faces, kwargs, advance, outcomes",
    [
        ([2], {}, StatImproved(stat="I", delta=-2, old=6, new=4), ["applied"]),
        ([5], {"stat_choice": "BS"}, StatImproved(stat="BS", delta=-1, old=8, new=7), ["applied"]),
        ([9], {}, StatImproved(stat="Ld", delta=-1, old=8, new=7), ["applied"]),
        ([10], {}, Talent(), ["applied"]),
        # a henchman never improves a characteristic twice: re-roll
        ([8, 1], {"advanced_stats": {"Ld"}}, StatImproved(stat="I", delta=-2, old=6, new=4),
         ["re-rolled: Ld was already improved once", "applied"]),
        ([4], {"advanced_stats": {"WS"}}, StatImproved(stat="BS", delta=-1, old=8, new=7), ["applied"]),
        # Night Goblin Fanatics may repeat
        ([8], {"advanced_stats": {"Ld"}, "may_repeat_stats": True}, StatImproved(stat="Ld", delta=-1, old=8, new=7), ["applied"]),
        # a further Talent! this post-game is re-rolled
        ([11, 3], {"talent_allowed": False}, StatImproved(stat="I", delta=-2, old=6, new=4),
         ["re-rolled: Talent! cannot come up again this post-game", "applied"]),
        # a group of two or more may re-roll once; the second result stands
        ([10, 3], {"group_rerolls": 0}, StatImproved(stat="I", delta=-2, old=6, new=4),
         ["re-rolled by the group's choice", "applied"]),
        ([3, 2], {"group_rerolls": 0}, StatImproved(stat="I", delta=-2, old=6, new=4),
         ["re-rolled by the group's choice", "applied"]),
        # the result the group re-rolls is the one that stood: after a repeat the rules re-rolled (rules 2.4)
        ([8, 2, 1], {"advanced_stats": {"Ld"}, "group_rerolls": 1}, StatImproved(stat="I", delta=-2, old=6, new=4),
         ["re-rolled: Ld was already improved once", "re-rolled by the group's choice", "applied"]),
        # and a repeat after the group's re-roll is re-rolled too
        ([2, 8, 3], {"advanced_stats": {"Ld"}, "group_rerolls": 0}, StatImproved(stat="I", delta=-2, old=6, new=4),
         ["re-rolled by the group's choice", "re-rolled: Ld was already improved once", "applied"]),
    ],
)
def test_henchman_advance(faces, kwargs, advance, outcomes):
    resolution = resolve_henchman_advance(faces, group="Swordsmen", group_size=3, characteristics=HENCHMAN, race="human", tables=TABLES, **kwargs)
    assert resolution.advance == advance
    assert [roll.outcome for roll in resolution.rolls] == outcomes


def test_a_henchman_with_nothing_left_to_improve_loses_the_advance():
    resolution = resolve_henchman_advance(
        [], group="Swordsmen", group_size=3, characteristics=HENCHMAN, race="human",
        advanced_stats={"I", "WS", "BS", "Ld"}, talent_allowed=False, tables=TABLES,
    )
    assert isinstance(resolution.advance, NoAdvancePossible)


@pytest.mark.parametrize(
    "faces, kwargs, message",
    [
        ([10, 3], {"group_size": 1, "group_rerolls": 0}, "only groups of two or more may re-roll"),
        ([2, 3, 4], {"group_size": 3, "group_rerolls": 1}, "settled by roll 1; extra dice given"),
        ([2, 3], {"group_size": 3}, "settled by roll 1; extra dice given"),
        ([13], {"group_size": 3}, "the die of the D12 roll shows 13, not 1-12"),
    ],
)
def test_henchman_advance_refusals(faces, kwargs, message):
    with pytest.raises((CoreheimRuleError, BadInput), match=message):
        resolve_henchman_advance(faces, group="Swordsmen", characteristics=HENCHMAN, race="human", tables=TABLES, **kwargs)


def test_applying_advances_and_injuries_to_a_profile():
    improved = apply_stat_change(HUMAN, "WS", -1)
    assert improved.WS == 6
    assert apply_stat_change(improved, "WS", 1).WS == 7  # Hand Injury: 6+ -> 7+


# --- Talent! ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "warband, variant, group_size, chosen, lists, left, again",
    [
        ("mercenaries", None, 3, ["combat", "shooting"], ("combat", "shooting"), 2, True),
        ("mercenaries", None, 1, ["academic", "speed"], ("academic", "speed"), 0, False),
        ("mercenaries", "middenheim", 2, ["combat", "speed"], ("combat", "speed", "strength"), 1, True),
        ("mercenaries", "marienburg", 2, ["rogue", "combat"], ("rogue", "combat"), 1, True),
        ("undead", None, 5, ["rogue", "strength"], ("rogue", "strength"), 4, True),
    ],
)
def test_talent(warband, variant, group_size, chosen, lists, left, again):
    promotion = resolve_talent(
        group="Warriors", group_size=group_size, new_hero="Ulf", heroes_in_warband=4,
        warband=warband, variant=variant, chosen_skill_lists=chosen, tables=TABLES,
    )
    assert (promotion.skill_lists, promotion.group_size_left, promotion.group_rolls_again) == (lists, left, again)
    assert promotion.hero_advance_rolls == 1


@pytest.mark.parametrize(
    "heroes, variant, chosen, sack, message",
    [
        (6, None, ["combat", "shooting"], None, "already has 6 heroes; sack one or re-roll"),
        (4, None, ["combat", "rogue"], None, "The rogue list is not open to Mercenaries"),
        (4, "reikland", ["combat", "rogue"], None, "The rogue list is not open to Mercenaries"),
        (4, "middenheim", ["strength", "combat"], None, "Ulf gets strength anyway"),
        (4, None, ["combat"], None, "Ulf picks 2 different skill lists"),
        (4, None, ["combat", "combat"], None, "Ulf picks 2 different skill lists"),
        (4, None, ["combat", "speed"], "Hans", "no hero needs to be sacked"),
    ],
)
def test_talent_refusals(heroes, variant, chosen, sack, message):
    with pytest.raises(CoreheimRuleError, match=message):
        resolve_talent(group="Warriors", group_size=2, new_hero="Ulf", heroes_in_warband=heroes,
                       warband="mercenaries", variant=variant, chosen_skill_lists=chosen, sack_hero=sack, tables=TABLES)


def test_talent_with_six_heroes_after_sacking_one():
    promotion = resolve_talent(group="Warriors", group_size=2, new_hero="Ulf", heroes_in_warband=6,
                               warband="mercenaries", chosen_skill_lists=["combat", "speed"], sack_hero="Hans", tables=TABLES)
    assert promotion.sacked_hero == "Hans"


# --- Skill lists ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "warband, hero_type, variant, lists",
    [
        ("mercenaries", "captain", None, ("combat", "shooting", "academic", "strength", "speed")),
        ("mercenaries", "captain", "marienburg", ("combat", "shooting", "academic", "strength", "speed", "rogue")),
        ("mercenaries", "youngblood", "middenheim", ("combat", "shooting", "speed", "strength")),
        ("mercenaries", "youngblood", "marienburg", ("combat", "shooting", "speed")),
        ("witch-hunters", "priest", None, ("academic", "strength")),
        ("skaven", "assassin", None, ("combat", "shooting", "strength", "speed", "rogue")),
    ],
)
def test_hero_skill_lists(warband, hero_type, variant, lists):
    assert hero_skill_lists(warband, hero_type, variant=variant, tables=TABLES) == lists


def test_unknown_hero_type():
    with pytest.raises(CoreheimRuleError, match="'priest' is not a hero type of Mercenaries"):
        hero_skill_lists("mercenaries", "priest", tables=TABLES)


@pytest.mark.parametrize(
    "skill, lists, known, warband, others, casual, result",
    [
        ("Streetwise", ("academic",), (), "mercenaries", {}, False, "academic"),
        ("Quick Shot", ("speed",), (), "mercenaries", {}, False, "speed"),
        ("Dodge", ("speed",), (), "mercenaries", {"Hans": {"Dodge"}}, False, "speed"),
        ("Backstab", ("combat",), (), "mercenaries", {}, False, "Backstab is not on Gunnar's skill lists \\(combat\\)"),
        ("Dodge", ("speed",), ("Dodge",), "mercenaries", {}, False, "Gunnar already has Dodge"),
        ("Arms Expert", ("shooting",), (), "mercenaries", {"Hans": {"Arms Expert"}}, False, "Hans already has Arms Expert"),
        ("Shade Fiend", ("academic",), (), "undead", {}, False, "Shade Fiend is not allowed in this warband"),
        ("Dodge", ("speed",), (), "mercenaries", {"Hans": {"Dodge"}}, True, "Hans already has Dodge"),
    ],
)
def test_check_new_skill(skill, lists, known, warband, others, casual, result):
    def check():
        return check_new_skill(skill, hero="Gunnar", skill_lists=lists, known_skills=known, warband=warband,
                               warband_skills=others, casual=casual, tables=TABLES)

    if result in ("academic", "speed"):
        assert check() == result
    else:
        with pytest.raises(CoreheimRuleError, match=result):
            check()


# === Reinforcing henchmen (seed example) ================================================


def test_reinforcing_with_a_roll_of_five_as_in_the_seed():
    plan = plan_reinforcements(
        5,
        [Reinforcement(group="Swordsmen", group_xp=3, group_size=2, recruits=1),
         Reinforcement(group="Archers", group_xp=1, group_size=1, recruits=2)],
        warband="mercenaries", warband_size=9, tables=TABLES,
    )
    assert (plan.xp_spent, plan.xp_left, plan.recruits) == (5, 0, 3)


def test_recruits_into_a_group_without_experience_cost_nothing():
    plan = plan_reinforcements(
        1, [Reinforcement(group="Warriors", group_xp=0, group_size=1, recruits=4)],
        warband="mercenaries", warband_size=9, tables=TABLES,
    )
    assert (plan.xp_spent, plan.xp_left) == (0, 1)


def test_a_plan_weighed_against_the_roll_elsewhere_still_keeps_the_sizes():
    """Version 10 records recruits a roll does not pay for (the roll stands): the plan leaves the XP to the ledger,
    and still keeps the group's and the warband's size."""
    five_xp = [Reinforcement(group="Swordsmen", group_xp=3, group_size=2, recruits=1),
               Reinforcement(group="Archers", group_xp=1, group_size=1, recruits=2)]
    plan = plan_reinforcements(4, five_xp, warband="mercenaries", warband_size=9, tables=TABLES, xp_checked=False)
    assert (plan.xp_spent, plan.xp_left) == (5, -1)
    with pytest.raises(CoreheimRuleError, match="The warband has 13 warriors; 3 more would pass its maximum of 15"):
        plan_reinforcements(4, five_xp, warband="mercenaries", warband_size=13, tables=TABLES, xp_checked=False)


@pytest.mark.parametrize(
    "face, plans, size, message",
    [
        (4, [Reinforcement(group="Swordsmen", group_xp=3, group_size=2, recruits=1),
             Reinforcement(group="Archers", group_xp=1, group_size=1, recruits=2)], 9,
         "These recruits need 5 experience; the roll gave 4"),
        (6, [Reinforcement(group="Archers", group_xp=1, group_size=4, recruits=2)], 9, "a group holds at most 5"),
        (6, [Reinforcement(group="Archers", group_xp=0, group_size=3, recruits=2)], 14,
         "The warband has 14 warriors; 2 more would pass its maximum of 15"),
        (7, [], 9, "Reinforcement roll: the die of the D6 roll shows 7, not 1-6"),
    ],
)
def test_reinforcing_refusals(face, plans, size, message):
    with pytest.raises((CoreheimRuleError, BadInput), match=message):
        plan_reinforcements(face, plans, warband="mercenaries", warband_size=size, tables=TABLES)


# === Trading 1: wyrdstone ===============================================================


@pytest.mark.parametrize(
    "shards, held, warriors, gold, left, row_id",
    [
        (1, 1, 3, 45, 0, "wyrdstone-sale:1-shards:1-3-warriors"),
        (3, 5, 5, 70, 2, "wyrdstone-sale:3-shards:4-6-warriors"),
        (4, 4, 10, 70, 0, "wyrdstone-sale:4-shards:10-12-warriors"),
        (1, 1, 13, 30, 0, "wyrdstone-sale:1-shards:13+-warriors"),
        (8, 9, 2, 150, 1, "wyrdstone-sale:8-shards:1-3-warriors"),
        (6, 6, 9, 95, 0, "wyrdstone-sale:6-shards:7-9-warriors"),
    ],
)
def test_sell_wyrdstone(shards, held, warriors, gold, left, row_id):
    sale = sell_wyrdstone(shards, shards_held=held, warriors=warriors, tables=TABLES)
    assert (sale.gold, sale.shards_left, sale.row_id) == (gold, left, row_id)


@pytest.mark.parametrize(
    "shards, held, message",
    [(9, 9, "At most 8 shards can be sold in one post-game"), (3, 2, "The warband has 2 shards, not 3"),
     (2, 1, "The warband has 1 shard, not 2"), (0, 2, "Sell at least one shard")],
)
def test_sell_wyrdstone_refusals(shards, held, message):
    with pytest.raises(CoreheimRuleError, match=message):
        sell_wyrdstone(shards, shards_held=held, warriors=6, tables=TABLES)


# === Trading 2: selling gear at half price, rounded down =================================


@pytest.mark.parametrize("price, value", [(80, 40), (35, 17), (25, 12), (5, 2), (1, 0), (0, 0)])
def test_sale_value(price, value):
    assert sale_value(price) == value


@pytest.mark.parametrize(
    "item_id, value",
    [("holy-tome", 40), ("religious-relic", 7), ("telescope", 15), ("crimson-shade", 1)],
)
def test_item_sale_value(item_id, value):
    assert item_sale_value(item_id, tables=TABLES) == value


def test_an_unpriced_item_cannot_be_sold():
    with pytest.raises(CoreheimRuleError, match="The rules give Ithilmar Dagger no price"):
        item_sale_value("ithilmar-dagger", tables=TABLES)


# === Trading 3: rare items, 2D6 >= rarity ===============================================


@pytest.mark.parametrize(
    "faces, rarity, skills, silks, total, found",
    [
        ([3, 4], 8, (), False, 7, False),
        ([4, 4], 8, (), False, 8, True),  # equal to the rarity finds it
        ([6, 6], 11, (), False, 12, True),
        ([2, 3], 8, ("Streetwise",), False, 8, True),
        ([3, 3], 7, (), True, 7, True),
    ],
)
def test_search_rare_item(faces, rarity, skills, silks, total, found):
    search = search_rare_item(faces, searcher="Gunnar", role="hero", rarity=rarity, out_of_action=False,
                              skills=skills, wears_cathayan_silks=silks, tables=TABLES)
    assert (search.total, search.found) == (total, found)


@pytest.mark.parametrize(
    "role, ooa, searched, faces, message",
    [
        ("hero", True, False, [3, 4], "Gunnar was taken out of action and cannot look for rare items"),
        ("henchman-group", False, False, [3, 4], "Gunnar is not a hero"),
        ("hired-sword", False, False, [3, 4], "Gunnar is not a hero"),
        ("hero", False, True, [3, 4], "Gunnar has already looked for a rare item this post-game"),
        ("hero", False, False, [3], "rolls 2D6, not 1 dice"),
    ],
)
def test_search_rare_item_refusals(role, ooa, searched, faces, message):
    with pytest.raises(CoreheimRuleError, match=message):
        search_rare_item(faces, searcher="Gunnar", role=role, rarity=8, out_of_action=ooa, already_searched=searched, tables=TABLES)


# === Trading 5: Hired Sword upkeep ======================================================


@pytest.mark.parametrize(
    "sword, dwarves, upkeep",
    [("ogre-bodyguard", False, 30), ("elven-ranger", False, 15), ("elven-ranger", True, 20), ("halfling-scout", True, 3)],
)
def test_hired_sword_upkeep(sword, dwarves, upkeep):
    assert hired_sword_upkeep(sword, warband_has_dwarves=dwarves, tables=TABLES) == upkeep


# === Warband rating and underdog bonus ==================================================


@pytest.mark.parametrize(
    "members, swords, casual, rating",
    [
        ([RatedMember(role="henchman", xp=6)] * 3, [], False, 33),  # the rules' own example
        ([RatedMember(role="hero", xp=20), RatedMember(role="henchman"), RatedMember(role="henchman")],
         [RatedHiredSword(sword="ogre-bodyguard", xp=3)], False, 15 + 20 + 25 + 3),
        ([RatedMember(role="monster")], [], False, 20),
        ([RatedMember(role="hero", xp=20), RatedMember(role="henchman", xp=4), RatedMember(role="animal")],
         [RatedHiredSword(sword="halfling-scout", xp=2)], True, 10 + 5 + 5 + 5),
    ],
)
def test_warband_rating(members, swords, casual, rating):
    assert warband_rating(members, swords, casual=casual, rating_rules=TABLES.warband_rating,
                          sword_table=TABLES.hired_swords) == rating


@pytest.mark.parametrize(
    "own, opponents, points, row_id",
    [
        (100, [150], 0, "underdog:0-50"),
        (100, [151], 1, "underdog:51-75"),
        (100, [200], 2, "underdog:76-100"),
        (100, [201], 3, "underdog:101-150"),
        (100, [251], 4, "underdog:151+"),
        (300, [100], 0, "underdog:0-50"),
        (150, [300, 250], 2, "underdog:76-100"),  # multiplayer: the second-highest rating (250)
    ],
)
def test_underdog_bonus(own, opponents, points, row_id):
    row = underdog_bonus(own, opponents, tables=TABLES)
    assert (row.points, row.id) == (points, row_id)
