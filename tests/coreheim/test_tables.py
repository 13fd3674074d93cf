"""Coreheim's data tables and house-rule overrides."""

import msgspec
import pytest

from commands.coreheim.rules import resolve_hero_injury, shards_found
from commands.coreheim.tables import TABLES as COREHEIM_TABLES
from commands.coreheim.tables import StatChange
from commands.kit import TableError

TABLES = COREHEIM_TABLES.defaults
load_tables = COREHEIM_TABLES.with_house_rules


def test_every_table_file_loads():
    assert set(COREHEIM_TABLES.names) == {
        "shards", "multiples", "henchman_injury", "hero_injury", "xp_thresholds", "hero_advances",
        "henchman_advances", "max_characteristics", "skills", "warbands", "wyrdstone_sale",
        "equipment", "price_chart", "hired_swords", "warband_rating", "underdog",
    }
    assert len(TABLES.multiples.entries) == 30  # doubles to six of a kind, for each face
    assert sum(len(row.d66) for row in TABLES.hero_injury.rows) == 36
    assert len(TABLES.wyrdstone_sale.rows) == 40


def test_tables_are_frozen():
    with pytest.raises(AttributeError):
        TABLES.shards.max_kept_dice = 7


def test_no_house_rules_gives_the_defaults():
    assert load_tables() is TABLES
    assert load_tables({}) is TABLES


def shards_house_rule(first_max):
    rows = msgspec.to_builtins(TABLES.shards)["rows"]
    rows[0]["max_total"] = first_max
    rows[1]["min_total"] = first_max + 1
    return {**msgspec.to_builtins(TABLES.shards), "rows": rows}


def test_a_house_rule_replaces_a_table():
    tables = load_tables({"shards": shards_house_rule(6)})
    assert shards_found([6], tables=tables).shards == 1
    assert shards_found([6], tables=TABLES).shards == 2


def test_a_house_rule_can_be_json_text():
    tables = load_tables({"shards": msgspec.json.encode(shards_house_rule(7))})
    assert shards_found([6, 1], tables=tables).row_id == "shards:1-5"


def test_arm_wound_house_rule():
    rules = msgspec.to_builtins(TABLES.hero_injury)
    arm = next(row for row in rules["rows"] if row["result"] == "arm-wound")
    arm["effects"] = [{"kind": "stat", "target": "injured-hero", "stat": "WS", "delta": 1}]
    tables = load_tables({"hero_injury": rules})
    resolution = resolve_hero_injury([(2, 4)], hero="Gunnar", warband_game_number=5, tables=tables)
    assert resolution.outcomes == (StatChange(target="injured-hero", stat="WS", delta=1),)


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"shards": {"die": "D6", "max_kept_dice": 6, "rows": [{"id": "x", "min_total": "a"}]}},
         "Coreheim table 'shards' is invalid: Expected `int`, got `str` - at `$.rows[0].min_total`"),
        ({"shards": {"die": "D6", "max_kept_dice": 6, "rows": [], "colour": "red"}},
         "Coreheim table 'shards' is invalid: Object contains unknown field `colour`"),
        ({"underdog": b"{not json"}, "Coreheim table 'underdog' is invalid: JSON is malformed"),
        ({"shards": {"die": "D6", "max_kept_dice": 6, "rows": [
            {"id": "a", "min_total": 1, "max_total": 5, "shards": 1},
            {"id": "b", "min_total": 7, "max_total": None, "shards": 2}]}},
         "shards: a row starts at 7, expected 6"),
        ({"dice": {}}, "there is no Coreheim table 'dice'"),
    ],
)
def test_invalid_house_rules_are_explained(overrides, message):
    with pytest.raises(TableError) as error:
        load_tables(overrides)
    assert message in str(error.value)


def test_house_rule_hero_injury_must_cover_every_d66():
    rules = msgspec.to_builtins(TABLES.hero_injury)
    rules["rows"] = rules["rows"][1:]
    with pytest.raises(TableError, match="must cover each D66 value 11-66 exactly once"):
        load_tables({"hero_injury": rules})


def test_house_rule_multiples_must_name_known_items():
    rules = msgspec.to_builtins(TABLES.multiples)
    rules["entries"][5]["variants"][0]["effects"] = [{"kind": "item", "item": "magic-beans", "count": 1}]
    with pytest.raises(TableError, match="item 'magic-beans' is not in the equipment table"):
        load_tables({"multiples": rules})


def test_row_ids_are_unique_and_named_by_table():
    rules = msgspec.to_builtins(TABLES.underdog)
    rules["rows"][1]["id"] = rules["rows"][0]["id"]
    with pytest.raises(TableError, match="repeated: \\['underdog:0-50'\\]"):
        load_tables({"underdog": rules})
