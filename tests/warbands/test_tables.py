"""The Warbands tables: the defaults load, and a group's own tables are checked against the seed
(the Archetype Table's row sizes) and their schemas, with errors that name what is wrong."""

from __future__ import annotations

import json

import pytest

from commands.kit import TableError
from commands.warbands.tables import ARCHETYPES, SEED_ROW_SIZES, TABLES

DEFAULTS = TABLES.defaults


def archetype_table(**rows: list[str]) -> dict:
    return {"rows": [{"type": t, "archetypes": rows.get(t)} for t in SEED_ROW_SIZES]}


def test_the_seeds_28_types_and_their_row_sizes():
    # The seed's Archetype Table rows, counted: 16 main races then 12 variant lists.
    assert len(SEED_ROW_SIZES) == 28
    assert sum(SEED_ROW_SIZES.values()) == 133  # counted from the seed text
    assert [SEED_ROW_SIZES[t] for t in ("Beasts of Chaos", "Bretonnia", "Empire", "Skaven Clan Eshin", "Red Host of Tehenhauin")] == [6, 4, 6, 6, 4]


def test_defaults_leave_the_unknown_cells_empty_and_name_only_the_intellectual_starting_ability():
    assert [row.type for row in DEFAULTS.archetype_table.rows] == list(SEED_ROW_SIZES)
    assert all(row.archetypes is None for row in DEFAULTS.archetype_table.rows)
    assert DEFAULTS.archetype("Intellectual").starting_ability == "Advantage of Ground"
    assert [a.name for a in DEFAULTS.archetypes.archetypes if a.starting_known] == ["Intellectual"]
    assert {a.die for a in DEFAULTS.archetypes.archetypes} == {"D6"}
    assert (DEFAULTS.recovery.rows, DEFAULTS.character_injury.rows, DEFAULTS.xp_awards.rows) == ((), (), ())


def test_a_supplied_row_of_the_seeds_size_is_accepted():
    supplied = archetype_table(Bretonnia=["Noble", "Veteran", "Magician", "Barbarian"])
    assert TABLES.decode("archetype-table", supplied).rows[1].archetypes == ("Noble", "Veteran", "Magician", "Barbarian")
    tables = TABLES.with_house_rules({"archetype-table": supplied})
    assert tables.allowed_archetypes("Bretonnia") == ("Noble", "Veteran", "Magician", "Barbarian")
    assert tables.allowed_archetypes("Empire") is None


@pytest.mark.parametrize(("name", "content", "message"), [
    ("archetype-table", archetype_table(Bretonnia=["Noble", "Veteran", "Magician"]),
     "Bretonnia has 4 Archetypes in the seed's table, not 3"),
    ("archetype-table", archetype_table(Empire=["Noble"] * 6), "Noble given more than once"),
    ("archetype-table", archetype_table(Dwarfs=["Noble", "Veteran", "Slayer", "Barbarian"]), "Dwarfs: Slayer is not an Archetype"),
    ("archetype-table", {"rows": [{"type": "Empire"}]}, "missing Beasts of Chaos"),
    ("archetype-table", {"rows": archetype_table()["rows"] + [{"type": "Kislev"}]}, "not in the seed Kislev"),
    ("archetype-table", {"rows": [{"type": "Empire", "archetype": []}]}, "Object contains unknown field `archetype`"),
    ("archetypes", {"archetypes": []}, "one entry for each Archetype"),
    ("recovery", {"die": "D7x", "rows": []}, "'D7x' is not a dice expression"),
    ("recovery", {"rows": [{"id": "r", "target": "four"}]}, "Expected `int`, got `str` - at `\\$.rows\\[0\\].target`"),
    ("character-injury", {"die": "D6", "rows": [{"id": "dead", "low": 1, "high": 2, "name": "Dead", "effect": "dead"}]},
     "injury result 3 on D6 has no row"),
    ("character-injury", {"rows": [{"id": "x", "low": 1, "high": 6, "name": "X", "effect": "maimed"}]},
     "Warbands table 'character-injury' is invalid: Invalid enum value 'maimed' - at `\\$.rows\\[0\\].effect`"),
    ("xp-awards", "{\"rows\": [", "Warbands table 'xp-awards' is invalid: Input data was truncated"),
    ("injuries", {}, "there is no Warbands table 'injuries'; tables are: archetype-table, archetypes, character-injury, recovery, xp-awards"),
])
def test_bad_tables_are_refused_naming_the_table_and_the_fault(name, content, message):
    with pytest.raises(TableError, match=message):
        TABLES.with_house_rules({name: content})


def test_an_advancement_table_must_cover_its_die_and_may_use_any_die():
    archetypes = json.loads(json.dumps({"archetypes": [
        {"name": a, "starting_ability": f"{a} start", "die": "D3",
         "advancement": [{"id": f"{a}-{n}", "low": n, "high": n, "ability": f"{a} {n}"} for n in (1, 2, 3)]}
        for a in ARCHETYPES]}))
    assert TABLES.with_house_rules({"archetypes": archetypes}).archetype("Noble").die == "D3"
    archetypes["archetypes"][0]["die"] = "2D6"
    with pytest.raises(TableError, match="Barbarian result 4 on 2D6 has no row"):
        TABLES.with_house_rules({"archetypes": archetypes})
    archetypes["archetypes"][0]["die"] = "D3"
    archetypes["archetypes"][0]["advancement"][0]["ability"] = "Barbarian start"
    with pytest.raises(TableError, match="Barbarian's Starting Ability is also on its Advancement Table"):
        TABLES.with_house_rules({"archetypes": archetypes})
