"""A ruleset's words for people (`ledger.terms.Terms`), and the plain ones of a ruleset that names none."""

from ledger.terms import Terms

EXT = {"glory": 3, "promotion_streak": 1, "veteran": True, "armoury": {"Shield": {}}, "found": ["a"]}


def test_undeclared_resources_are_the_whole_numbers_a_warband_keeps():
    assert Terms().resources_of(EXT) == [("Glory", 3), ("Promotion streak", 1)]  # not flags, tables or lists


def test_declared_resources_are_shown_in_their_order_and_zero_when_not_kept_yet():
    terms = Terms(resources={"shards": "Wyrdstone shards", "glory": "Glory"})
    assert terms.resources_of(EXT) == [("Wyrdstone shards", 0), ("Glory", 3)]
    assert Terms(resources={}).resources_of(EXT) == []


def test_resources_keep_their_key_for_the_roster_json():
    assert Terms(resources={"shards": "Wyrdstone shards"}).resources_in(EXT) == [("shards", "Wyrdstone shards", 0)]
    assert Terms().resources_in(EXT) == [("glory", "Glory", 3), ("promotion_streak", "Promotion streak", 1)]


def test_fighter_facts_and_the_profile_order():
    terms = Terms(fighter_facts={"type": "Type", "skill_lists": "Skill lists", "race": "Race"},
                  stat_order=("M", "WS", "BS", "S"))
    assert terms.facts_of({"type": "captain", "skill_lists": ["combat", "shooting"], "race": ""}) == [
        ("Type", "captain"), ("Skill lists", "combat, shooting")]
    assert terms.ordered_stats({"Ld": 7, "WS": 4, "M": 4, "A": 1}) == [("M", 4), ("WS", 4), ("A", 1), ("Ld", 7)]


def test_a_profile_shows_a_characteristic_the_fighter_lacks_as_a_dash():
    """An Ogre Bodyguard has no BS ("-" in the price chart): his profile dropped it without a trace."""
    terms = Terms(stat_order=("M", "WS", "BS", "S"), counts=("scars",), fighter_facts={"scars": "Battle scars"})
    assert terms.profile({"S": 4, "M": 6, "WS": 3, "Ld": 7}) == [("M", "6"), ("WS", "3"), ("BS", "-"), ("S", "4"), ("Ld", "7")]
    assert terms.profile({}) == []  # a fighter with no profile shows none
    assert terms.facts_of({"scars": 0}) == [] and terms.facts_of({"scars": 2}) == [("Battle scars", "2")]


def test_a_fact_holding_ids_of_table_rows_is_shown_under_their_names():
    """Coreheim keeps a warrior's type and skill lists by id: its cards showed "Type ogre-bodyguard"."""
    terms = Terms(fighter_facts={"type": "Type", "skill_lists": "Skill lists", "race": "Race"},
                  named_facts={"type": "warrior-type", "skill_lists": "skill-list"})
    names = {"warrior-type": {"ogre-bodyguard": "Ogre Bodyguard"}, "skill-list": {"combat": "Combat"}}
    assert terms.facts_of({"type": "ogre-bodyguard", "skill_lists": ["combat", "dropped"], "race": "ogre"}, names) == [
        ("Type", "Ogre Bodyguard"), ("Skill lists", "Combat, dropped"), ("Race", "ogre")]  # an id they lack: as kept
    assert terms.facts_of({"type": "ogre-bodyguard"}) == [("Type", "ogre-bodyguard")]  # no names given
