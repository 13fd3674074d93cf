"""Retinue's commands: what a player asks the ledger to do (handled in `handlers.py`)."""

from __future__ import annotations

import msgspec

from ledger.decide import Command

from .rules import ScenarioAward


class Recruit(Command, frozen=True, kw_only=True, tag="retinue.recruit"):
    warband: str
    name: str
    ancestry: str
    archetype: str | None = None
    domain: str | None = None
    keywords: list[str] = []  # more keywords, e.g. Caster
    stats: dict[str, int] = {}  # recruitment values; an attribute not given is the ancestry baseline
    leader: bool = False
    cost: int = 0
    paid: bool = True


class BattlePass(Command, frozen=True, kw_only=True, tag="retinue.battle-pass"):
    warband: str


class ScenarioPass(Command, frozen=True, kw_only=True, tag="retinue.scenario-pass"):
    warband: str
    awards: list[ScenarioAward] = []  # as the scenario states; none is a pass with no awards


class Casualties(Command, frozen=True, kw_only=True, tag="retinue.casualty"):
    warband: str
    outcomes: dict[str, str] = {}  # fighter -> outcome named by the player (A3 "by-name")

    answer_keys = ("casualty:FIGHTER",)  # asked after each fighter's die, when no outcome was named


class Doom(Command, frozen=True, kw_only=True, tag="retinue.doom"):
    warband: str
    fighters: list[str] = []  # the fighters who roll on the Doom Table
    outcomes: dict[str, str] = {}

    answer_keys = ("doom:FIGHTER",)  # the outcome, asked after each die (the walk's picks: phase.py)


class Bonus(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    fighter: str
    reason: str  # the survival roll or scenario result granting +1


class PostGamePass(Command, frozen=True, kw_only=True, tag="retinue.post-game-pass"):
    warband: str
    bonus: list[Bonus] = []


class Buy(Command, frozen=True, kw_only=True, tag="retinue.buy"):
    warband: str
    fighter: str
    advancement: str  # an S2 row: feat, Wi, Sa, Mt, Sk, W, caster, M, Df, CC, RC, feat-outside
    feat: str | None = None
    spell: str | None = None  # Caster: the spell chosen at purchase (S8)
    reduce: str | None = None  # S7: the attribute reduced when the raise goes beyond baseline + 1
    # S7 under A1 whole-excess (1.3.0): the next attributes reduced, in order, for the points `reduce`
    # cannot take (an attribute stops at 1).
    also_reduce: list[str] = []

    added_later = ("also_reduce",)


class SpendingDone(Command, frozen=True, kw_only=True, tag="retinue.spending-done"):
    warband: str
