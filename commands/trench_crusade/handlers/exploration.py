"""Exploration, or Reinforcements in its place."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from ledger import events as ev
from ledger.decide import Context
from ledger.describe import plural
from ledger.dice import MOST_DICE
from ledger.errors import BadInput, RuleViolation

from commands.kit import as_spelled, since
from commands.trench_crusade import events
from commands.trench_crusade import rules
from commands.trench_crusade.commands import (
    Exploration,
    Reinforcements,
)
from commands.trench_crusade.model import (
    tables_for,
)
from commands.trench_crusade.tables import TrenchCrusadeTables
from commands.trench_crusade.phase import REINFORCEMENTS
from commands.trench_crusade.handlers.consequences import begin_step, finish_step


def reinforcements(cmd: Reinforcements, ctx: Context) -> None:
    """Reinforcements instead of Exploration (rules §9, steps 1-2): the Arsenal is discarded and the
    Strongbox set to 0. The budget (next game's Threshold less the warband's Total Cost) is spent
    by the players with `recruit --free` and the shared item commands."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, REINFORCEMENTS)
    for item in band.stash:
        ctx.emit(ev.ItemLost(warband=band.id, item=item, reason="Reinforcements: the Arsenal is discarded"))
    if band.treasury:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-band.treasury, reason="Reinforcements: the Strongbox is set to 0"))
    finish_step(ctx, band, battle, REINFORCEMENTS)


EXPLORATION_SKILL_EFFECTS = {"extra-dice": (1, 0, 0), "re-roll-dice": (0, 1, 0), "seek": (0, 0, 1), "circle-back": (0, 0, -1)}


def exploration(cmd: Exploration, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "exploration")
    known = {skill.id: skill.name for skill in tables.exploration.skills}
    cmd = as_the_tables_spell(cmd, ctx, known, tables)
    for skill in cmd.skills:
        if skill not in known:
            raise BadInput(f"there is no Exploration Skill '{skill}' (skills: {', '.join(known)})")
        if skill not in EXPLORATION_SKILL_EFFECTS:
            raise RuleViolation(f"{known[skill]} changes the dice themselves, which the ledger does not model: "
                                "apply it as a --modifier and say so in a note")
    extra_dice, extra_rerolls, skill_modifier = (sum(EXPLORATION_SKILL_EFFECTS[s][i] for s in cmd.skills) for i in range(3))
    stage = rules.exploration_stage(band.games, tables)
    table = cmd.table or ctx.choose("table", f"Explore which table after {band.games} games?", list(stage.tables))
    count = rules.exploration_dice_count(band.games, extra_dice, tables)
    if count > MOST_DICE:  # refused so by the roll before, naming neither the skill nor how many dice it takes
        raise BadInput(f"--skill extra-dice ({extra_dice} times): an Exploration Roll takes at most {MOST_DICE} dice "
                       f"({stage.dice} after {plural(band.games, 'game')}, and 1 more for each Extra Dice skill): "
                       f"these make {count}")
    allowed = rules.exploration_rerolls(battle.record.result == "win", extra_rerolls, tables)
    modifier = skill_modifier + cmd.modifier
    if ctx.typed_now:
        # Before the roll: refused after it, ledger dice would be seen and the exploration left pending.
        rules.explored_stage(band.games, table, tables)
        refuse_unusable_modifier(cmd.modifier, modifier, count, table, tables)
        if cmd.rerolls is not None:
            refuse_rerolls(cmd.rerolls, count, allowed)
    faces = list(ctx.roll(f"{count}D6", purpose=f"Exploration dice for {band.name}").faces)
    for position in chosen_rerolls(ctx, cmd.rerolls, faces, allowed):
        faces[position - 1] = ctx.roll("D6", purpose=f"Exploration re-roll of die {position} for {band.name}").value
    found_before = list(events.band_facts(state, band.id).locations_found)  # this Exploration's find adds to it
    found = rules.resolve_exploration(band.games, table, sum(faces) + modifier, found_before, tables)  # type: ignore[arg-type]
    seen = found.location or next(
        (row for row in tables.exploration.locations if found.pillaged and row.table == table and row.roll == found.final_roll), None
    )
    ctx.emit(
        events.ExplorationResolved(
            warband=band.id,
            stage=found.stage_id,
            table=table,
            dice=faces,
            modifier=modifier,
            final=found.final_roll,
            location=found.location.id if found.location else None,
            location_name=seen.name if seen else "",
            pillaged=found.pillaged,
            loot=found.loot_ducats,
        )
    )
    if found.loot_ducats:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=found.loot_ducats,
                                    reason=f"Exploration loot: Exploration Roll {found.final_roll}",
                                    row=found.location.id if found.location else found.stage_id))
    if since(ctx, "1.4.0"):  # 1.3.0 paid no Pot of Manna (README, Versions)
        for location in rules.lasting_loot(found_before, tables):
            ctx.emit(ev.TreasuryChanged(warband=band.id, delta=location.loot_every_exploration,
                                        reason=f"Exploration loot: {location.name}", row=location.id))
    finish_step(ctx, band, battle, "exploration")


def as_the_tables_spell(cmd: Exploration, ctx: Context, skills: Iterable[str],
                        tables: TrenchCrusadeTables) -> Exploration:
    """The command with its table and Exploration Skills as the tables spell them, typed in any case ('--table Common'
    is the common table), and recorded so (`Context.record_as`); a name the tables do not have is left as typed, for
    the refusals that name it. A recorded command holds none in another case: one was refused as no table or skill."""
    table = cmd.table and (as_spelled(cmd.table, rules.exploration_tables(tables)) or cmd.table)
    spelled = msgspec.structs.replace(cmd, table=table,
                                      skills=[as_spelled(skill, skills) or skill for skill in cmd.skills])
    if spelled != cmd:
        ctx.record_as(spelled)
    return spelled


def refuse_unusable_modifier(given: int, modifier: int, dice: int, table: str, tables: TrenchCrusadeTables) -> None:
    """Refuse a modifier (`given`, and with the Exploration Skills' `modifier`) no roll of `dice` D6 could use. It moves
    the Exploration Roll along the table (rules §10: "roll, sum → modify (Allies, Equipment, Exploration Skills) →
    table"): one that takes every roll past the table's last row finds nothing whatever the dice show, and paid loot
    for points no table has (+1000: "Exploration Roll 1003", 10030 ducats); one that makes every roll negative makes
    no Exploration Roll."""
    shown = f"--modifier {given}" + (f" ({modifier:+} with the Exploration Skills)" if modifier != given else "")
    last = max((row.roll for row in tables.exploration.locations if row.table == table), default=None)
    if last is not None and dice + modifier > last:
        raise BadInput(f"{shown}: with {dice} dice the Exploration Roll would be at least {dice + modifier}, past the "
                       f"{table} table's last row ({last}): it could find nothing whatever the dice show")
    if 6 * dice + modifier < 0:
        raise BadInput(f"{shown}: with {dice} dice the Exploration Roll would be at most {6 * dice + modifier}, and it "
                       "cannot be negative")


def refuse_rerolls(given: list[int], dice: int, allowed: int) -> None:
    """Refuse re-rolls given past those allowed, of a die twice, or of a die not among the `dice` rolled."""
    if len(given) > allowed:
        raise RuleViolation(f"only {allowed} Exploration {'die' if allowed == 1 else 'dice'} may be re-rolled")
    if len(set(given)) != len(given):  # told from the command alone, as a die that is none
        raise BadInput("the same Exploration die cannot be re-rolled twice")
    for position in given:
        if not 1 <= position <= dice:
            raise BadInput(f"there is no Exploration die {position}: dice are 1 to {dice}")


def chosen_rerolls(ctx: Context, given: list[int] | None, faces: list[int], allowed: int) -> list[int]:
    """The dice to re-roll (never the same die twice): as given, or asked one at a time."""
    if given is not None:
        refuse_rerolls(given, len(faces), allowed)
        return list(given)
    chosen: list[int] = []
    for turn in range(1, allowed + 1):
        options = ["none", *(str(p) for p in range(1, len(faces) + 1) if p not in chosen)]
        answer = ctx.choose(f"reroll-{turn}", f"Exploration dice {faces}: re-roll which die? ({allowed - turn + 1} re-roll(s) left)", options)
        if answer == "none":
            break
        chosen.append(int(answer))
    return chosen
