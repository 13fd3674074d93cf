"""What a table row does, as data: the effects the rules apply, and the base of every table Struct."""

from __future__ import annotations

from typing import Union

import msgspec


class Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every table Struct: immutable, and strict about unknown keys so typos in
    house rules are reported instead of silently ignored."""


# ``target`` names a role, not a fighter ("leader", "chosen-hero", "chosen-warrior",
# "injured-hero", "map-holder"); the command layer maps roles to fighters.


class GainGold(Data, tag_field="kind", tag="gold"):
    id: str
    dice: str | None
    multiplier: int
    fixed: int


class GainItem(Data, tag_field="kind", tag="item"):
    item: str
    count: int


class LoseItem(Data, tag_field="kind", tag="lose-item"):
    item: str


class GainShards(Data, tag_field="kind", tag="shards"):
    count: int


class GainXp(Data, tag_field="kind", tag="xp"):
    target: str
    amount: int


class GainSkill(Data, tag_field="kind", tag="skill"):
    target: str
    skill: str


class MissGame(Data, tag_field="kind", tag="miss-game"):
    target: str


class FreeUnit(Data, tag_field="kind", tag="free-unit"):
    unit: str
    count: int


class FreeHenchman(Data, tag_field="kind", tag="free-henchman"):
    max_cost: int
    count: int


class HireOption(Data, tag_field="kind", tag="hire-option"):
    unit: str
    price: int


class ExplorationDice(Data, tag_field="kind", tag="exploration-dice"):
    """Extra exploration dice at the next post-game, after which ``discard`` dice are dropped."""

    extra: int
    discard: int


class FreeHiredSword(Data, tag_field="kind", tag="free-hired-sword"):
    id: str
    no_free_slot: tuple[Effect, ...]


class PlayerOption(Data, tag_field="kind", tag="optional"):
    """Effects the player may decline (the Well); ``id`` names the yes/no choice."""

    id: str
    question: str
    effects: tuple[Effect, ...]


class RollTableRow(Data):
    id: str
    min: int
    max: int
    name: str
    effects: tuple[Effect, ...]


class RollTable(Data, tag_field="kind", tag="roll-table"):
    id: str
    dice: str
    rows: tuple[RollTableRow, ...]


class LeaderTest(Data, tag_field="kind", tag="leader-test"):
    id: str
    stat: str
    auto_pass_warbands: tuple[str, ...]
    passed: tuple[Effect, ...]
    failed: tuple[Effect, ...]


class Fight(Data, tag_field="kind", tag="fight"):
    """A fight played out on the table; the player reports whether the hero won."""

    id: str
    target: str
    opponent: str
    won: tuple[Effect, ...]
    lost: tuple[Effect, ...]


class HeroInjuryRoll(Data, tag_field="kind", tag="hero-injury"):
    target: str


class Dead(Data, tag_field="kind", tag="dead"):
    target: str


class Captured(Data, tag_field="kind", tag="captured"):
    target: str


class Robbed(Data, tag_field="kind", tag="robbed"):
    target: str


class StatChange(Data, tag_field="kind", tag="stat"):
    """``delta`` applies to the stored value: +1 on a target stat (WS 6+ -> 7+) is worse."""

    target: str
    stat: str
    delta: int


class Hatred(Data, tag_field="kind", tag="hatred"):
    target: str
    of: str


class MultipleInjuries(Data, tag_field="kind", tag="multiple-injuries"):
    rolls: int
    reroll_results: tuple[str, ...]


class InjuryReroll(Data, tag_field="kind", tag="injury-reroll"):
    reroll_results: tuple[str, ...]


Effect = Union[
    GainGold, GainItem, LoseItem, GainShards, GainXp, GainSkill, MissGame, FreeUnit,
    FreeHenchman, HireOption, ExplorationDice, FreeHiredSword, PlayerOption, RollTable,
    LeaderTest, Fight, HeroInjuryRoll, Dead, Captured, Robbed, StatChange, Hatred,
    MultipleInjuries, InjuryReroll,
]
