"""Experience: the XP cap, grants and their advancement circles, a battle's XP, Advancement Rolls."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

import msgspec

from commands.trench_crusade.tables import (
    SkillRow,
    SkillTable,
    TrenchCrusadeTables,
)
from ledger.errors import BadInput
from commands.trench_crusade.rules.common import BattleRecord, Fighter, LEADER, TrenchCrusadeRuleError, limited_potential_row


class XpCap(NamedTuple):
    cap: int
    row_id: str | None  # the Limited Potential row, or None for the general cap


def xp_cap(fighter: Fighter, faction: str, tables: TrenchCrusadeTables) -> XpCap:
    row = limited_potential_row(fighter, faction, tables)
    if row is not None:
        return XpCap(tables.limited_potential.xp_cap, row.id)
    return XpCap(tables.experience.xp_cap, None)


class XpGrant(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    award_id: str
    requested: int
    granted: int
    capped: bool  # the cap cut the award
    cap: int
    cap_row_id: str | None
    blocked: bool  # Head Wound: no XP at all
    xp_before: int
    xp_after: int
    advancement_circles: tuple[str, ...]  # circles reached: one Advancement Roll each


def advancement_circles_reached(
    xp_before: int, xp_after: int, tables: TrenchCrusadeTables
) -> tuple[str, ...]:
    return tuple(
        circle.id
        for circle in tables.experience.advancement_circles
        if xp_before < circle.xp <= xp_after
    )


def _dice_range(expression: str) -> range:
    """The results of the small dice an award may use (``D3``, ``D6``)."""
    if expression == "D3":
        return range(1, 4)
    if expression == "D6":
        return range(1, 7)
    raise TrenchCrusadeRuleError(f"unsupported dice for an XP award: {expression}")


def award_xp(
    fighter: Fighter,
    amount: int,
    award_id: str,
    faction: str,
    tables: TrenchCrusadeTables,
) -> XpGrant:
    """Give XP from a named award row, capped at 18 (7 for Limited Potential models)."""
    awards = {award.id: award for award in tables.experience.awards}
    award = awards.get(award_id)
    if award is None:
        raise TrenchCrusadeRuleError(f"there is no XP award {award_id!r}")
    if award.xp is not None and amount != award.xp:
        raise TrenchCrusadeRuleError(f"{award.description} gives {award.xp} XP, not {amount}")
    if award.dice is not None and amount not in _dice_range(award.dice):
        raise TrenchCrusadeRuleError(f"{award.dice} cannot give {amount} XP")
    return grant_xp(fighter, amount, award_id, faction, tables)


#: The award id of XP given by hand (an arbiter's award), which no table row prices.
ARBITER_AWARD = "arbiter"


def grant_xp(
    fighter: Fighter,
    amount: int,
    award_id: str,
    faction: str,
    tables: TrenchCrusadeTables,
) -> XpGrant:
    """Give ``amount`` XP to an ELITE, capped at 18 (7 for Limited Potential models);
    a Head-Wounded model gains none. ``award_xp`` checks table awards before this."""
    if amount < 1:
        raise TrenchCrusadeRuleError(f"an XP award must be at least 1, not {amount}")
    if not fighter.is_elite:
        raise TrenchCrusadeRuleError(
            f"{fighter.name} is not ELITE: only ELITE models gain Experience Points"
        )
    cap = xp_cap(fighter, faction, tables)
    granted = 0 if fighter.xp_blocked else max(0, min(amount, cap.cap - fighter.xp))
    xp_after = fighter.xp + granted
    return XpGrant(
        fighter_id=fighter.fighter_id,
        award_id=award_id,
        requested=amount,
        granted=granted,
        capped=not fighter.xp_blocked and granted < amount,
        cap=cap.cap,
        cap_row_id=cap.row_id,
        blocked=fighter.xp_blocked,
        xp_before=fighter.xp,
        xp_after=xp_after,
        advancement_circles=advancement_circles_reached(fighter.xp, xp_after, tables),
    )


class XpAwardLine(msgspec.Struct, frozen=True, kw_only=True):
    fighter_id: str
    award_id: str
    amount: int
    # The awards this line stands for too, counted once: a LEADER who did a deed and is given the warband's
    # deed earns one XP for both ("never more than +1 for deeds").
    also: tuple[str, ...] = ()


def warband_deed_leaders(roster: Sequence[Fighter], battle: BattleRecord) -> list[Fighter]:
    """The ELITE LEADERs that took part: the models a warband-level deed's XP may go to."""
    participants = set(battle.participants)
    return [
        fighter
        for fighter in roster
        if fighter.is_elite and LEADER in fighter.keywords and fighter.fighter_id in participants
    ]


def battle_experience(
    roster: Sequence[Fighter],
    battle: BattleRecord,
    tables: TrenchCrusadeTables,
    *,
    warband_deed_leader: str | None = None,
) -> tuple[XpAwardLine, ...]:
    """The XP a game earns, given the roster after Trauma and Promotions.

    +1 to each ELITE that took part and is still on the roster; +1 more to each ELITE that
    did at least one deed; +1 to one ELITE LEADER that took part for warband-level deeds.
    """
    deeds = {deed.id: deed for deed in tables.glorious_deeds.deeds}
    participants = set(battle.participants)
    doers = {record.fighter_id for record in battle.deeds if record.fighter_id is not None}
    lines: list[XpAwardLine] = []
    for fighter in roster:
        if not fighter.is_elite or fighter.fighter_id not in participants:
            continue
        lines.append(XpAwardLine(fighter_id=fighter.fighter_id, award_id="survived", amount=1))
        if fighter.fighter_id in doers:
            lines.append(
                XpAwardLine(fighter_id=fighter.fighter_id, award_id="glorious-deed", amount=1)
            )
    if not any(deeds[record.deed_id].warband_level for record in battle.deeds):
        return tuple(lines)
    leaders = warband_deed_leaders(roster, battle)
    if warband_deed_leader is None:
        if len(leaders) > 1:
            raise TrenchCrusadeRuleError(
                "choose which ELITE LEADER gains the XP of the warband's Glorious Deed: "
                + ", ".join(leader.name for leader in leaders)
            )
        recipient = leaders[0] if leaders else None
    else:
        recipient = next(
            (leader for leader in leaders if leader.fighter_id == warband_deed_leader), None
        )
        if recipient is None:
            raise TrenchCrusadeRuleError(
                f"{warband_deed_leader!r} is not an ELITE LEADER that took part in the game"
            )
    if recipient is not None and recipient.fighter_id not in doers:
        lines.append(
            XpAwardLine(fighter_id=recipient.fighter_id, award_id="warband-deed-leader", amount=1)
        )
    elif recipient is not None:  # his own deed's XP is the warband deed's too
        lines = [msgspec.structs.replace(line, also=("warband-deed-leader",))
                 if (line.fighter_id, line.award_id) == (recipient.fighter_id, "glorious-deed") else line for line in lines]
    return tuple(lines)


class AdvancementOption(msgspec.Struct, frozen=True, kw_only=True):
    table_id: str
    roll: int
    rolled_row_id: str
    result: SkillRow  # differs from the rolled row when that skill was already held


class AdvancementResult(msgspec.Struct, frozen=True, kw_only=True):
    options: tuple[AdvancementOption, ...]
    kept: AdvancementOption


def skill_table(table_id: str, tables: TrenchCrusadeTables) -> SkillTable:
    """The skill table of that id; an id no table has is bad input (a name mistyped), naming the tables."""
    skill_tables = {table.id: table for table in tables.advancement_skills.tables}
    table = skill_tables.get(table_id)
    if table is None:
        raise BadInput(f"there is no skill table {table_id!r}; tables: {', '.join(skill_tables)}")
    return table


def _skill_rows(
    table_id: str, roll: int, tables: TrenchCrusadeTables
) -> tuple[str, list[SkillRow], SkillRow]:
    """The table's name, its rows by roll, and the row a 2D6 roll lands on."""
    table = skill_table(table_id, tables)
    if not 2 <= roll <= 12:
        raise TrenchCrusadeRuleError(f"an Advancement Roll is 2D6, so {roll} is impossible")
    rows = sorted(table.rows, key=lambda row: row.roll)
    return table.name, rows, next(row for row in rows if row.roll == roll)


def advancement_skill(
    table_id: str, roll: int, held_skills: Collection[str], tables: TrenchCrusadeTables
) -> SkillRow:
    """The skill a 2D6 roll gives on a table: a held skill falls to the next lower one the
    model lacks, else the next higher; 2 and 12 are Patron Skills."""
    table_name, rows, rolled = _skill_rows(table_id, roll, tables)
    if rolled.patron or rolled.skill not in held_skills:
        return rolled
    learnable = [row for row in rows if not row.patron and row.skill not in held_skills]
    lower = [row for row in learnable if row.roll < roll]
    higher = [row for row in learnable if row.roll > roll]
    if lower:
        return lower[-1]
    if higher:
        return higher[0]
    raise TrenchCrusadeRuleError(f"the model already has every skill of the {table_name} table")


def resolve_advancement_roll(
    rolls: Sequence[tuple[str, int]],
    keep_table_id: str,
    held_skills: Collection[str],
    tables: TrenchCrusadeTables,
) -> AdvancementResult:
    """Two 2D6 rolls on two different skill tables; the player keeps one result."""
    if len(rolls) != 2 or rolls[0][0] == rolls[1][0]:
        raise TrenchCrusadeRuleError("an Advancement Roll uses two different skill tables")
    options = tuple(
        AdvancementOption(
            table_id=table_id,
            roll=roll,
            rolled_row_id=_skill_rows(table_id, roll, tables)[2].id,
            result=advancement_skill(table_id, roll, held_skills, tables),
        )
        for table_id, roll in rolls
    )
    refuse_keeping_another_table(keep_table_id, [table_id for table_id, _roll in rolls])
    kept = next(option for option in options if option.table_id == keep_table_id)
    return AdvancementResult(options=options, kept=kept)


def refuse_keeping_another_table(keep_table_id: str, table_ids: Sequence[str]) -> None:
    """The result kept (`--keep`) is one of the two tables rolled: another is bad input, told from the command alone."""
    if keep_table_id not in table_ids:
        raise BadInput(
            f"--keep {keep_table_id}: keep the result of one of the two tables rolled: {table_ids[0]} or {table_ids[1]}"
        )
