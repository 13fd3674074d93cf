"""The shipped tables load, and house rules replace them only when they fit the schema."""

from __future__ import annotations

import json

import msgspec
import pytest

from commands.trench_crusade.rules import (
    Fighter,
    award_xp,
    promotion_eligibility,
)
from commands.kit import TableError
from commands.trench_crusade.tables import NAMES
from commands.trench_crusade.tables import TABLES as TRENCH_TABLES

TABLES = TRENCH_TABLES.defaults


def as_json_object(table) -> dict:
    """A table as a house-rule file would hold it (lists, not tuples), ready to edit."""
    return msgspec.json.decode(msgspec.json.encode(table))


def test_every_default_table_loads_with_its_source():
    for name, attribute in NAMES.items():
        table = getattr(TABLES, attribute)
        assert isinstance(table, msgspec.structs.fields(type(TABLES))[type(TABLES).__struct_fields__.index(attribute)].type), name
        assert table.source


def test_house_rule_war_wolf_as_limited_potential_instead_of_non_promotable():
    """Rules C3: the playtest made the War Wolf Assault Beast Limited Potential."""
    non_promotable = as_json_object(TABLES.non_promotable)
    non_promotable["rows"] = [
        row
        for row in non_promotable["rows"]
        if row["id"] != "heretic-legions/war-wolf-assault-beast"
    ]
    limited = as_json_object(TABLES.limited_potential)
    limited["rows"].append(
        {"id": "heretic-legions/war-wolf-assault-beast", "faction": "heretic-legions",
         "model": "War Wolf Assault Beast"}
    )
    house = TRENCH_TABLES.with_house_rules({"non-promotable": json.dumps(non_promotable), "limited-potential": limited})
    wolf = Fighter(fighter_id="wolf", name="Fang", model="War Wolf Assault Beast")
    assert promotion_eligibility([wolf], "heretic-legions", TABLES).eligible == ()
    assert promotion_eligibility([wolf], "heretic-legions", house).eligible == (wolf,)
    elite_wolf = msgspec.structs.replace(wolf, keywords=frozenset({"ELITE"}), xp=7)
    grant = award_xp(elite_wolf, 1, "survived", "heretic-legions", house)
    assert (grant.granted, grant.capped) == (0, True)
    assert house.trauma is TABLES.trauma


def with_change(name: str, change) -> dict:
    attribute = NAMES[name]
    table = as_json_object(getattr(TABLES, attribute))
    change(table)
    return table


@pytest.mark.parametrize(
    ("name", "replacement", "message"),
    [
        (
            "experience",
            with_change("experience", lambda table: table.update(xp_cap="ten")),
            r"Trench Crusade table 'experience' is invalid: Expected `int`, got `str` - at `\$.xp_cap`",
        ),
        (
            "non-promotable",
            with_change("non-promotable", lambda table: table["rows"][0].update(colour="red")),
            r"unknown field `colour` - at `\$.rows\[0\]`",
        ),
        (
            "limited-potential",
            with_change(
                "limited-potential", lambda table: table["rows"][0].update(keyword="BEAST")
            ),
            "must name exactly one of `model` or `keyword`",
        ),
        (
            "trauma",
            with_change("trauma", lambda table: table["elite"].pop()),
            "result 66 of elite has no row",
        ),
        (
            "trauma",
            with_change("trauma", lambda table: table["troop_survival"][0].update(high=3)),
            "result 3 of troop_survival has rows",
        ),
        (
            "glorious-deeds",
            with_change("glorious-deeds", lambda table: table["scenarios"][0]["deeds"].append("x")),
            "lists unknown deeds",
        ),
        (
            "exploration",
            with_change(
                "exploration", lambda table: table["locations"].append(table["locations"][0])
            ),
            "duplicate id 'common/4-moonshine-stash' in locations",
        ),
        ("trauma", b"{not json", "Trench Crusade table 'trauma' is invalid: JSON is malformed"),
        ("sorcery", {}, "there is no Trench Crusade table 'sorcery'"),
    ],
)
def test_invalid_house_rules_are_refused_with_msgspec_messages(name, replacement, message):
    with pytest.raises(TableError, match=message):
        TRENCH_TABLES.with_house_rules({name: replacement})
