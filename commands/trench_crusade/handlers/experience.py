"""The Experience step and Advancement Rolls."""

from __future__ import annotations



from collections import Counter

from ledger import events as ev
from ledger.decide import Context
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter

from commands.kit import since
from commands.trench_crusade import events
from commands.trench_crusade import rules
from commands.trench_crusade.commands import (
    AdvanceRoll, Advancement, Experience,
)
from commands.trench_crusade.model import (
    member, roster_of, rules_fighter, tables_for,
)
from commands.trench_crusade.handlers.consequences import begin_step, finish_step, give_xp
from commands.trench_crusade.tables import TrenchCrusadeTables


def experience(cmd: Experience, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "experience")
    roster = roster_of(state, band, tables)
    record = battle.record
    leader = member(state, band, cmd.leader).id if cmd.leader else None
    warband_deeds = {deed.id for deed in tables.glorious_deeds.deeds if deed.warband_level}
    if leader is None and any(deed.deed_id in warband_deeds for deed in record.deeds):
        leaders = rules.warband_deed_leaders(roster, record)
        if len(leaders) > 1:
            chosen = ctx.choose("leader", "Which ELITE LEADER gains the XP of the warband's Glorious Deed?",
                                [f.name for f in leaders])
            leader = next(f.fighter_id for f in leaders if f.name == chosen)
    for line in rules.battle_experience(roster, record, tables, warband_deed_leader=leader):
        fighter = rules_fighter(state, state.fighters[line.fighter_id], tables)  # as it is after earlier awards
        grant = rules.award_xp(fighter, line.amount, line.award_id, band.faction, tables)
        give_xp(ctx, band, grant, f"battle {battle.number}: {award_reason(ctx, line)}")
    finish_step(ctx, band, battle, "experience")


def award_reason(ctx: Context, line: rules.XpAwardLine) -> str:
    """The award's row, and from 1.7.0 those it stands for too, counted once ("Glorious Deed and Warband Glorious
    Deed, counted once: …"): 1.6.0 gave a LEADER who did a deed and was given the warband's the one XP for
    both, its reason naming his own deed alone."""
    if not line.also or not since(ctx, "1.7.0"):
        return line.award_id
    return f"{' and '.join((line.award_id, *line.also))}, counted once: at most 1 XP for deeds in a game"


def advancement(cmd: Advancement, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    if not cmd.rolls:
        raise BadInput("name the fighter and the two skill tables of each Advancement Roll")
    skill_tables = {table.id: table.name for table in tables.advancement_skills.tables}
    if ctx.typed_now:
        # Every roll is checked before the first is rolled: a later one refused after the earlier ones' dice, or a
        # --keep of neither table refused once both were rolled, left ledger dice seen and the step pending.
        made: Counter[str] = Counter()
        for chosen in cmd.rolls:
            fighter = member(state, band, chosen.fighter)
            refuse_roll(fighter, chosen, state, tables, made=made[fighter.id])
            if chosen.keep:  # none: asked once both are rolled
                rules.refuse_keeping_another_table(chosen.keep, chosen.tables)
            made[fighter.id] += 1
    for index, chosen in enumerate(cmd.rolls, start=1):
        fighter = member(state, band, chosen.fighter)
        refuse_roll(fighter, chosen, state, tables)
        results = [
            (table, ctx.roll("2D6", purpose=f"Advancement Roll for {fighter.name} on {skill_tables[table]}").value)
            for table in chosen.tables
        ]
        offered = [rules.advancement_skill(table, roll, fighter.skills, tables) for table, roll in results]
        keep = chosen.keep or ctx.choose(
            f"keep-{index}",
            f"{fighter.name} may learn {offered[0].skill} ({chosen.tables[0]}) or {offered[1].skill} ({chosen.tables[1]}): keep which?",
            list(chosen.tables),
        )
        result = rules.resolve_advancement_roll(results, keep, fighter.skills, tables)
        ctx.emit(
            events.AdvancementRolled(
                warband=band.id,
                fighter=fighter.id,
                options=[
                    events.AdvancementOption(table=o.table_id, roll=o.roll, rolled_row=o.rolled_row_id, row=o.result.id, skill=o.result.skill)
                    for o in result.options
                ],
                kept=keep,
            ),
            ev.SkillLearned(warband=band.id, fighter=fighter.id, skill=result.kept.result.skill,
                            reason="Advancement Roll", row=result.kept.result.id),
        )


def answer_choices(state: CampaignState) -> dict[str, list[str]]:
    """The N-th Advancement Roll's kept table (`keep-N`) is one of the skill tables, whichever two it is rolled on: an
    answer given ahead that is none of them is refused before the roll."""
    return {"keep-N": [table.id for table in tables_for(state).advancement_skills.tables]}


def refuse_roll(fighter: Fighter, chosen: AdvanceRoll, state: CampaignState, tables: TrenchCrusadeTables, *,
                made: int = 0) -> None:
    """Refuse an Advancement Roll the fighter does not owe (`made`: his rolls of the command before this one, not
    yet recorded), or one not on two different skill tables."""
    if (events.model_facts(state, fighter.id).advancements_due or 0) - made < 1:
        raise RuleViolation(f"{fighter.name} has no Advancement Roll to make")
    for table in chosen.tables:  # a table mistyped is bad input, before any die is rolled
        rules.skill_table(table, tables)
    if len(set(chosen.tables)) != 2 or len(chosen.tables) != 2:
        skill_tables = [table.id for table in tables.advancement_skills.tables]
        raise RuleViolation(f"an Advancement Roll uses two different skill tables of: {', '.join(skill_tables)}")
