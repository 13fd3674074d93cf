"""Hiring from the warband lists (issue 9, item 7): each list's heroes and henchmen with their
starting profiles, races and prices as data, so a warrior is hired by his type alone.

The source is the Coreheim repository (github coreheim/coreheim, HEAD 619a733, see
shared/rules/coreheim.md section 0), `docs/3 Warband Lists/3.x`; each profile row below is
quoted from it as printed (`M A W T WS BS I Ld`, "-" for none) and checked against the table.
"""

from __future__ import annotations

import msgspec
import pytest

from commands.coreheim.commands import Hire
from commands.coreheim.model import listed_items, tables_for
from commands.coreheim.tables import TABLES
from commands.kit import TableError
from commands.shared import EnlistWarband
from ledger import events as ev
from ledger.errors import BadInput

from .conftest import HUMAN, Table

# The v10 profile's order, as the lists print it.
PRINTED_ORDER = ("M", "A", "W", "T", "WS", "BS", "I", "Ld")


def printed(row: str) -> dict[str, int]:
    """A profile row as the source prints it ("| 7 | 1 | 1 | +0 | 8+ | 8+ | 5+ | 4+ |") as the
    ledger keeps it: targets without their "+", T as a signed number, "-" left out."""
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    return {stat: int(cell.rstrip("+")) for stat, cell in zip(PRINTED_ORDER, cells, strict=True) if cell != "-"}


def listed(list_id: str, type_id: str):
    warbands = tables_for({}).warbands.warbands
    listing = next(w for w in warbands if w.id == list_id)
    return next(w for w in (*listing.hero_types, *listing.henchman_types) if w.id == type_id)


def profile_of(warrior) -> dict[str, int]:
    return {stat: value for stat in PRINTED_ORDER if (value := getattr(warrior.profile, stat)) is not None}


@pytest.mark.parametrize(
    ("list_id", "type_id", "source", "cost", "row"),
    [
        # 3.1: "## 1 Mercenary Captain **60gc to hire** **Starting Experience: 20**"
        ("mercenaries", "captain", "1 Mercenary Captain", 60, "| 7   | 1   | 1   | +0  | 8+  | 8+  | 5+  | 4+  |"),
        # 3.1: "## 0-7 Marksmen **25gc to hire**"
        ("mercenaries", "marksman", "0-7 Marksmen", 25, "| 7   | 1   | 1   | +0  | 10+ | 9+  | 7+  | 8+  |"),
        # 3.3: "## 1 Vampire **105gc to hire**" (no BS)
        ("undead", "vampire", "1 Vampire", 105, "| 8   | 1   | 2   | +0  | 6+  | -   | 5+  | 4+  |"),
        # 3.3: "## 0-8 Crypt Ghouls **40gc to hire**"
        ("undead", "crypt-ghoul", "0-8 Crypt Ghouls", 40, "| 7   | 2   | 1   | -1  | 10+ | -   | 7+  | 9+  |"),
        # 3.6: "## 0-1 Rat Ogre **155gc to hire**"
        ("skaven", "rat-ogre", "0-1 Rat Ogre", 155, "| 9   | 3   | 4   | -2  | 6+  | -   | 9+  | 11+ |"),
        # 3.7: "## 0-2 Augurs **25gc to hire**"
        ("sisters-of-sigmar", "augur", "0-2 Augurs", 25, "| 7   | 1   | 1   | +0  | 11+ | 11+ | 9+  | 9+  |"),
    ],
)
def test_the_lists_profiles_and_prices_are_the_sources(list_id, type_id, source, cost, row):
    warrior = listed(list_id, type_id)
    assert (warrior.hire_cost, profile_of(warrior)) == (cost, printed(row)), source
    if source[0].isdigit():
        assert warrior.max_count == int(source.split()[0].split("-")[-1]), source


def test_a_hired_swords_profile_is_the_sources():
    # 2.3: "### **Ogre Bodyguard** - **Hire:** 50gc | **Upkeep:** 30gc | **Rating:** +25"
    ogre = next(s for s in tables_for({}).hired_swords.swords if s.id == "ogre-bodyguard")
    assert (ogre.hire, ogre.race, profile_of(ogre)) == (50, "ogre", printed("| 8   | 2   | 3   | -1  | 6+  | -   | 7+  | 6+  |"))


def test_every_race_the_lists_name_has_its_maximums():
    tables = tables_for({})
    races = {row.race for row in tables.max_characteristics.races}
    listed = [*tables.hired_swords.swords,
              *(w for band in tables.warbands.warbands for w in (*band.hero_types, *band.henchman_types))]
    assert {warrior.race for warrior in listed if warrior.race} <= races


def test_animals_and_monsters_are_kinds_of_their_own():
    # 3.2 Warhounds: "**Animals**: … and No Experience."; 3.6 Rat Ogre: "**Monster**: Cause Fear, …"
    assert (listed("witch-hunters", "warhound").kind, listed("skaven", "rat-ogre").kind) == ("animal", "monster")
    assert (listed("witch-hunters", "zealot").kind, listed("witch-hunters", "zealot").max_count) == ("henchman", None)


def reiklanders(table: Table, faction: str = "mercenaries/reikland") -> None:
    table.do(EnlistWarband(name="Reiklanders", player="Ann", faction=faction, treasury=500))


def test_a_captain_is_hired_by_his_type_alone(table):
    """Given Reiklanders with 500 gc, when Kurt is hired as a captain with no profile and no race,
    then he joins with 3.1's "Mercenary Captain" profile, race and price, and his 20 XP."""
    reiklanders(table)
    recruited, profile, paid = table.do(Hire(warband="Reiklanders", name="Kurt", type="captain"))
    assert recruited == ev.FighterRecruited(
        warband="reiklanders", fighter="kurt", name="Kurt", role="leader", cost=60, group_size=1, xp=20,
        stats=printed("| 7   | 1   | 1   | +0  | 8+  | 8+  | 5+  | 4+  |"),
    )
    assert (profile.warrior_type, profile.race) == ("captain", "human")
    assert (paid.delta, table.state.warband("Reiklanders").treasury) == (-60, 440)


@pytest.mark.parametrize(
    ("faction", "ld"),
    [
        # 3.1 Reikland: "**Champion Officers**: Sergeants start with Ld 4+"
        ("mercenaries/reikland", 4),
        # 3.1 Sergeants: "| 7 | 1 | 1 | +0 | 8+ | 9+ | 7+ | 6+ |"
        ("mercenaries/middenheim", 6),
    ],
)
def test_a_variant_starts_its_sergeants_with_its_own_leadership(table, faction, ld):
    reiklanders(table, faction)
    recruited = table.do(Hire(warband="Reiklanders", name="Otto", type="sergeant"))[0]
    assert recruited.stats == {"M": 7, "A": 1, "W": 1, "T": 0, "WS": 8, "BS": 9, "I": 7, "Ld": ld}


@pytest.mark.parametrize(
    ("typed", "faction"),
    [
        ("skaven", "skaven"),
        ("Skaven", "skaven"),  # the list's id in another case
        ("Witch Hunters", "witch-hunters"),  # 3.2's name
        ("Skaven Clan Eshin", "skaven"),
        ("Mercenaries/Reikland", "mercenaries/reikland"),
        ("mercenaries/marienburg", "mercenaries/marienburg"),
    ],
)
def test_a_warband_list_is_named_by_its_id_or_name_in_any_case(table, typed, faction):
    """Given a Coreheim campaign, when a warband is enlisted naming its list as a player would type it,
    then it is enlisted under the list's id (and its variant's)."""
    enlisted = table.do(EnlistWarband(name="Reiklanders", player="Ann", faction=typed, treasury=500))[0]
    assert (enlisted.faction, table.state.warband("Reiklanders").faction) == (faction, faction)


LISTS = "mercenaries, witch-hunters, undead, night-goblins, cult-of-the-possessed, skaven, sisters-of-sigmar"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", f"a Coreheim warband is enlisted with its warband list: give --faction one of {LISTS}"),
        ("Orcs", f"Reiklanders' faction 'Orcs' is not a warband list: give --faction one of {LISTS}"),
        ("mercenaries/bogenhafen", "Mercenaries have no variant 'bogenhafen' (variants: reikland, middenheim, marienburg)"),
        ("undead/lahmia", "Undead have no variants: give --faction undead"),
    ],
)
def test_a_faction_no_list_has_is_bad_input_naming_the_lists(table, typed, message):
    with pytest.raises(BadInput) as refused:
        table.do(EnlistWarband(name="Reiklanders", player="Ann", faction=typed, treasury=500))
    assert str(refused.value) == message
    assert table.state.warbands == {}


def test_a_stat_or_race_given_replaces_the_lists_and_only_that_one(table):
    reiklanders(table)
    recruited, profile, _paid = table.do(Hire(warband="Reiklanders", name="Otto", type="sergeant", race="dwarf",
                                              stats={"WS": 7}))
    assert recruited.stats == {"M": 7, "A": 1, "W": 1, "T": 0, "WS": 7, "BS": 9, "I": 7, "Ld": 4}
    assert profile.race == "dwarf"


def test_a_whole_profile_given_is_kept_as_before(table):
    """Campaigns recorded before the lists had profiles gave all eight: they decide the same."""
    reiklanders(table)
    recruited = table.do(Hire(warband="Reiklanders", name="Kurt", type="captain", race="human", stats=HUMAN))[0]
    assert recruited.stats == HUMAN


def test_a_henchman_group_of_the_list_pays_the_lists_price_per_member(table):
    reiklanders(table)
    recruited, profile, paid = table.do(Hire(warband="Reiklanders", name="Shots", type="marksman", group_size=3))
    assert (recruited.role, recruited.cost, recruited.group_size, recruited.xp) == ("henchman", 25, 3, 0)
    assert recruited.stats == printed("| 7   | 1   | 1   | +0  | 10+ | 9+  | 7+  | 8+  |")
    assert (profile.warrior_type, profile.race, paid.delta) == ("marksman", "human", -75)


def test_a_vampire_has_no_ballistic_skill(table):
    table.do(EnlistWarband(name="Night Court", player="Cid", faction="undead", treasury=500))
    recruited = table.do(Hire(warband="Night Court", name="Vlad", type="vampire"))[0]
    assert "BS" not in recruited.stats
    assert table.state.fighter("Vlad").stats == {"M": 8, "A": 1, "W": 2, "T": 0, "WS": 6, "I": 5, "Ld": 4}


def test_an_animal_of_the_list_needs_no_race(table):
    table.do(EnlistWarband(name="Zealous", player="Cid", faction="witch-hunters", treasury=500))
    recruited, profile, paid = table.do(Hire(warband="Zealous", name="Hounds", type="warhound", group_size=2))
    assert (recruited.role, recruited.stats, profile.race, paid.delta) == (
        "animal", printed("| 9   | 1   | 1   | +0  | 8+  | -   | 5+  | 9+  |"), "", -40)


def test_a_hired_sword_comes_with_his_profile_and_race(table):
    reiklanders(table, "mercenaries/marienburg")
    recruited, profile, paid = table.do(Hire(warband="Reiklanders", name="Grok", type="ogre-bodyguard"))
    assert (recruited.role, recruited.stats, profile.race) == (
        "hired-sword", printed("| 8   | 2   | 3   | -1  | 6+  | -   | 7+  | 6+  |"), "ogre")
    assert paid.delta == -40  # Marienburg, City of Gold: "Deduct 10gc from the hire fee of all Hired Swords"


@pytest.mark.parametrize(
    ("hires", "refused", "message"),
    [
        # "0-7 Marksmen": members count, whatever their groups
        ([("Shots", 5)], ("More", 3), "Reiklanders may have at most 7 Marksmen; it has 5, so not 3 more"),
        ([], ("Shots", 6), "henchmen are hired in groups of 1 to 5, not 6"),
        # a group past the size a group holds is told so first: "so not 6 more" hid it
        ([("Shots", 3)], ("More", 6), "henchmen are hired in groups of 1 to 5, not 6"),
    ],
)
def test_a_henchman_type_keeps_the_lists_limits(table, hires, refused, message):
    reiklanders(table)
    for name, size in hires:
        table.do(Hire(warband="Reiklanders", name=name, type="marksman", group_size=size))
    name, size = refused
    assert table.refusal(Hire(warband="Reiklanders", name=name, type="marksman", group_size=size)) == message


def test_a_listed_types_price_is_the_lists(table):
    reiklanders(table)
    assert table.refusal(Hire(warband="Reiklanders", name="Shots", type="marksman", cost=20)) == (
        "a marksman costs 25 gc in Reiklanders, not 20"
    )


def test_an_unknown_type_is_bad_input_naming_the_lists_types(table):
    table.do(EnlistWarband(name="Night Court", player="Cid", faction="undead", treasury=500))
    assert table.refusal(Hire(warband="Night Court", name="Igor", type="captain")) == (
        "captain is not a type Night Court can hire (vampire, necromancer, dreg, zombie, dire-wolf, crypt-ghoul, "
        "skeleton, henchman, animal, monster, ogre-bodyguard, halfling-scout, dwarf-slayer, elven-ranger, "
        "pit-fighter, warlock, freelancer, skryre-engineer)"
    )


def test_a_house_rule_list_without_profiles_asks_for_the_whole_profile():
    """A campaign whose house rules replaced the warband lists before they had profiles (or that
    leaves them out) still loads, and hiring there takes the profile and race from the player."""
    warbands = tables_for({}).warbands
    bare = {
        "max_heroes": warbands.max_heroes, "min_henchman_group_size": 1, "max_henchman_group_size": 5,
        "starting_gold": 500, "talent_skill_list_count": 2,
        "warbands": [{"id": "mercenaries", "name": "Mercenaries", "max_size": 15, "rout_at": 4, "variants": [],
                      "hero_types": [{"id": "captain", "name": "Captain", "leader": True, "max_count": 1, "hire_cost": 60,
                                      "starting_xp": 20, "skill_lists": ["combat"]}]}],
    }
    table = Table({"tables": {"warbands": bare}})
    table.do(EnlistWarband(name="Reiklanders", player="Ann", faction="mercenaries", treasury=500))
    assert table.refusal(Hire(warband="Reiklanders", name="Kurt", type="captain", race="human", stats={"WS": 7})) == (
        "give Kurt's M A W T BS I Ld with --stat (e.g. --stat M=4)"
    )
    assert table.do(Hire(warband="Reiklanders", name="Kurt", type="captain", race="human", stats=HUMAN))[0].stats == HUMAN



def mercenaries_house_rule(change) -> dict:
    """The default warband lists as a house rule, with `change` made to the mercenaries' list."""
    warbands = msgspec.to_builtins(tables_for({}).warbands)
    change(warbands["warbands"][0])
    return {"warbands": warbands}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda band: band["henchman_types"][1].update(id="sergeant"),
         "warbands: mercenaries has more than one warrior type ['sergeant']"),
        (lambda band: band["henchman_types"][1].update(id="ogre-bodyguard"),
         "warbands: mercenaries has more than one warrior type ['ogre-bodyguard']"),
        (lambda band: band["variants"][0]["starting_stats"][0].update(hero_type="marksman"),
         "warbands: mercenaries/reikland starts marksman's Ld, not a characteristic of one of its hero types"),
        (lambda band: band["variants"][0]["starting_stats"][0].update(stat="S"),
         "warbands: mercenaries/reikland starts sergeant's S, not a characteristic of one of its hero types"),
    ],
)
def test_a_house_rule_list_must_name_each_type_once_and_real_stats(change, message):
    with pytest.raises(TableError) as refused:
        TABLES.with_house_rules(mercenaries_house_rule(change))
    assert str(refused.value) == message


# --- the lists' equipment (version 6 reads it: the rare items a warband buys without a roll at creation) -------------


def rare_on(list_id: str) -> set[str]:
    """The rare items a warband list prints, by the price chart's ids and rarities."""
    tables = tables_for({})
    rare = {item.id for item in tables.price_chart.items if item.rarity is not None}
    return set(listed_items(next(w for w in tables.warbands.warbands if w.id == list_id))) & rare


@pytest.mark.parametrize(
    ("list_id", "rare"),
    [
        # 3.1 "Weapons List for All Except Marksmen": "| Bow | 7 |", "| Pistol | 15 |", "| Duelling Pistol | 25 |";
        # "Marksmen Weapons" adds "| Blunderbuss | 20 |", "| Rifle | 30 |", "| Long Rifle | 75 |"
        ("mercenaries", {"pistol", "duelling-pistol", "blunderbuss", "rifle", "long-rifle"}),
        # 3.2 "Inquisitor, Witch Hunter & Bounty Hunter Weapon List": "| Pistol | 15 |", "| Duelling Pistol | 25 |"
        ("witch-hunters", {"pistol", "duelling-pistol"}),
        # 3.3 "Vampire, Necromancer, Dreg & Skeleton Weapons List": common weapons and armour only
        ("undead", set()),
        # 3.4 "Night Goblin Special Equipment": "### Great Cave Squig Mount", "**Rarity**: **Rare 11+**"
        ("night-goblins", {"great-cave-squig"}),
        # 3.5 "Shadow Cult Special Equipment": "### Ritual Dagger" (Rare 9+), "### Daemon Robes" (Rare 11+)
        ("cult-of-the-possessed", {"ritual-dagger", "daemon-robes"}),
        # 3.6 "Eshin Special Equipment": Fighting Claw (Rare 7+), Warplock Pistol (Rare 9+), Weeping Blade (Rare 9+),
        # Smoke Bombs (Rare 8+)
        ("skaven", {"fighting-claw", "warplock-pistol", "weeping-blade", "smoke-bombs"}),
        # 3.7 "Sisters of Sigmar Special Equipment": Sigmarite Great Hammer, Sigmarite Hammer, Steel Whip (Rare 8+ each)
        ("sisters-of-sigmar", {"sigmarite-great-hammer", "sigmarite-hammer", "steel-whip"}),
    ],
)
def test_each_warband_list_holds_the_rare_items_the_source_prints_on_it(list_id, rare):
    assert rare_on(list_id) == rare


def test_an_item_is_listed_as_printed_with_the_chart_items_it_is():
    # 3.6 "Assassin, Adept & Night Runner Weapons List": "| Halbern | 15 |", "| Sling (Short Bow) | 5 |";
    # 3.2 "Priest & Zealot Weapons List": "| Sling / Short Bow | 5 |"
    def entry(list_id: str, heading: str, printed_name: str) -> tuple[str, ...]:
        listing = next(w for w in tables_for({}).warbands.warbands if w.id == list_id)
        equipment = next(e for e in listing.equipment_lists if e.name == heading)
        return next(listed.items for listed in equipment.items if listed.name == printed_name)

    assert entry("skaven", "Assassin, Adept & Night Runner Weapons List", "Halbern") == ("halberd",)
    assert entry("skaven", "Assassin, Adept & Night Runner Weapons List", "Sling (Short Bow)") == ("sling",)
    assert entry("witch-hunters", "Priest & Zealot Weapons List", "Sling / Short Bow") == ("sling", "short-bow")


def test_a_list_naming_an_item_on_no_price_chart_fails_loudly():
    def mistyped(band):
        band["equipment_lists"][1]["items"][10]["items"] = ["rifel"]

    with pytest.raises(TableError) as refused:
        TABLES.with_house_rules(mercenaries_house_rule(mistyped))
    assert str(refused.value) == "warbands: mercenaries' 'Marksmen Weapons' names items on no price chart: ['rifel']"


def test_a_house_rule_price_chart_may_leave_out_items_the_lists_name():
    # README "House rules": any table may be replaced; a chart of the Lance alone still loads with the shipped lists
    lance = {"id": "lance", "name": "Lance", "price": {"fixed": 40, "dice": None}, "rarity": 6}
    assert [item.id for item in TABLES.with_house_rules({"price_chart": {"items": [lance]}}).price_chart.items] == ["lance"]
