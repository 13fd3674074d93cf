"""What every part of the rules shares: keywords and limits, the refusal, the rules' view of a fighter and a battle, the model lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from commands.trench_crusade.tables import (
    ModelListRow,
    TrenchCrusadeTables,
)


ELITE = "ELITE"
LEADER = "LEADER"
BAD_COMPANY = "Bad Company"
BASE_PROMOTION_DICE = 1
FAILURES_BEFORE_AUTOMATIC_SIX = 5
ELITE_CAP = 6

PromotionStopRule = Literal["first-six", "per-model"]
# Why assigned Promotion Dice were left unrolled: the first 6 (seed: "As soon as one of the dice rolls a 6, stop
# rolling"), 6 ELITE ("stop rolling for Promotions when a successful Promotion Roll means that you have 6 models
# with the ELITE Keyword"), or, under `per-model`, the dice of models promoted before them; "" when all were rolled.
PromotionStop = Literal["", "first-six", "elite-cap", "per-model"]


class TrenchCrusadeRuleError(ValueError):
    """A refusal: the rules do not allow what was asked."""


class Fighter(msgspec.Struct, frozen=True, kw_only=True):
    """A model on a warband roster, as the rules need to see it."""

    fighter_id: str
    name: str  # what the player calls it, used in messages
    model: str  # the Faction List entry, e.g. "Grail Thralls"
    keywords: frozenset[str] = frozenset()
    xp: int = 0
    skills: frozenset[str] = frozenset()
    injuries: tuple[str, ...] = ()  # ids of trauma rows suffered
    battle_scars: int = 0
    xp_blocked: bool = False  # Head Wound

    @property
    def is_elite(self) -> bool:
        return ELITE in self.keywords


class DeedRecord(msgspec.Struct, frozen=True, kw_only=True):
    deed_id: str
    fighter_id: str | None = None  # None for a warband-level deed


class BattleRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What one warband's record of a game must hold for the Campaign Phase."""

    scenario_id: str
    result: Literal["win", "loss", "draw"]
    participants: tuple[str, ...]  # the Force: only these can do deeds or gain XP
    out_of_action: tuple[str, ...] = ()  # casualties: each makes a Trauma roll
    deeds: tuple[DeedRecord, ...] = ()
    side: Literal["attacker", "defender"] | None = None


def _ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _dice_word(count: int) -> str:
    return "die" if count == 1 else "dice"


def _matching_row(
    rows: Sequence[ModelListRow], fighter: Fighter, faction: str
) -> ModelListRow | None:
    keywords = {keyword.casefold() for keyword in fighter.keywords}
    for row in rows:
        if row.faction is not None and row.faction != faction:
            continue
        if row.keyword is not None:
            if row.keyword.casefold() in keywords:
                return row
        elif fighter.model.casefold() in {name.casefold() for name in (row.model, *row.aliases)}:
            return row
    return None


def non_promotable_row(
    fighter: Fighter, faction: str, tables: TrenchCrusadeTables
) -> ModelListRow | None:
    """The row of the non-promotable list that covers this model, if any."""
    return _matching_row(tables.non_promotable.rows, fighter, faction)


def limited_potential_row(
    fighter: Fighter, faction: str, tables: TrenchCrusadeTables
) -> ModelListRow | None:
    """The row of the Limited Potential (max 7 XP) list that covers this model, if any."""
    return _matching_row(tables.limited_potential.rows, fighter, faction)
