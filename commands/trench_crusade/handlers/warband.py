"""Warbands, recruiting, recording a battle, and XP an arbiter awards."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

import msgspec

from commands.kit import possessive_since, since
from commands.shared import (
    XP_TAKEN_AWAY,
    AwardXP,
    Correct,
    EnlistWarband,
    RecordBattle,
    RecruitFighter,
    active_fighter,
    battle_record,
    correct,
    enlist_warband,
    keywords_one_by_one,
    positive,
    recruit_fighter,
    slug,
)
from ledger import events as ev
from ledger.decide import Context
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Warband

from commands.trench_crusade import events
from commands.trench_crusade import rules
from commands.trench_crusade.commands import (
    RecordTrenchBattle,
    Recruit,
)
from commands.trench_crusade.model import (
    faction_id,
    roster_of,
    rules_fighter,
    tables_for,
    warband_record,
)
from commands.trench_crusade.phase import PHASE
from commands.trench_crusade.tables import Scenario, TrenchCrusadeTables
from commands.trench_crusade.handlers.consequences import earn_advancements, give_xp

Row = TypeVar("Row", bound=msgspec.Struct)


# --- handlers ------------------------------------------------------------------------------------


def enlist(cmd: EnlistWarband, ctx: Context) -> None:
    enlist_warband(msgspec.structs.replace(cmd, faction=faction_id(cmd.faction)), ctx)


def refuse_a_seventh_elite(state: CampaignState, band: Warband, keywords: list[str]) -> None:
    if rules.ELITE in keywords and rules.elite_count(roster_of(state, band, tables_for(state))) >= rules.ELITE_CAP:
        raise RuleViolation(f"{band.name} already has {rules.ELITE_CAP} ELITE models, the most a warband may have")


def recruit_shared(cmd: RecruitFighter, ctx: Context) -> None:
    """`fighter add` in a Trench Crusade campaign: the 6-ELITE limit holds for it too."""
    refuse_a_seventh_elite(ctx.state, ctx.state.warband(cmd.warband), cmd.keywords)
    recruit_fighter(cmd, ctx)


def recruit(cmd: Recruit, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    if not cmd.model.strip():
        raise BadInput("name the model's Faction List entry with --model")
    keywords = list(dict.fromkeys([*([rules.ELITE] if cmd.elite else []), *cmd.keywords]))
    refuse_a_seventh_elite(ctx.state, band, keywords)
    recruit_fighter(
        RecruitFighter(
            warband=band.id,
            name=cmd.name,
            role="elite" if rules.ELITE in keywords else "troop",
            keywords=keywords,
            equipment=cmd.equipment,
            cost=cmd.cost,
            paid=cmd.paid,
        ),
        ctx,
    )
    recruited = next(e for e in reversed(ctx.events) if isinstance(e, ev.FighterRecruited))
    ctx.emit(events.ModelEntry(warband=band.id, fighter=recruited.fighter, model=cmd.model.strip()))


def _named(text: str, rows: Iterable[Row], spellings: Callable[[Row], Iterable[str]]) -> Row | None:
    """The row `text` names by one of its spellings (an id, or a name as a slug: any case and punctuation)."""
    wanted = slug(text)
    return next((row for row in rows if wanted in spellings(row)), None)


def _slugs(name: str) -> set[str]:
    """A name's slugs with its apostrophes read as a break or left out: "No Man's Land" is typed both ways."""
    return {slug(name), slug(name.replace("'", ""))}


def scenario_named(text: str, tables: TrenchCrusadeTables) -> Scenario:
    """A scenario by its id or its name, with or without the numeral the rules put before it ("IV Trench
    Warfare", "Trench Warfare"); the battle records its id, however it was named."""
    scenarios = tables.glorious_deeds.scenarios
    if not text.strip():
        raise BadInput(f"a Trench Crusade battle names its scenario: give --scenario one of "
                       f"{', '.join(s.numbered for s in scenarios)}")
    found = _named(text, scenarios, lambda scenario: {scenario.id, *_slugs(scenario.name), *_slugs(scenario.numbered)})
    if found is None:
        raise BadInput(f"there is no scenario '{text}' (scenarios: {', '.join(s.numbered for s in scenarios)}; "
                       "the numeral may be left out)")
    return found


def record_battle(cmd: RecordTrenchBattle, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    scenario = scenario_named(cmd.scenario, tables)
    known_deeds = {deed.id: deed for deed in tables.glorious_deeds.deeds}

    def deed_id(name: str) -> str:
        found = _named(name, known_deeds.values(), lambda deed: (deed.id, slug(deed.name)))
        if found is None:
            listed = ", ".join(known_deeds[deed].name for deed in scenario.deeds) or "none"
            raise BadInput(f"there is no Glorious Deed '{name}' (the deeds of {scenario.name}: {listed})")
        return found.id

    def deed_ids(names: list[str]) -> list[str]:
        return [deed_id(name) for name in names]

    deeds = [msgspec.structs.replace(deed, glorious_deeds=deed_ids(deed.glorious_deeds)) for deed in cmd.deeds]
    battle = battle_record(
        RecordBattle(participants=cmd.participants, winner=cmd.winner, scenario=scenario.id, deeds=deeds), ctx
    )
    PHASE.refuse_unfinished(state, battle.participants)
    by_warband = {state.warband(ref).id: deed_ids(names) for ref, names in cmd.warband_deeds.items()}
    attacker = state.warband(cmd.attacker).id if cmd.attacker else None
    for named in [*by_warband, *([attacker] if attacker else [])]:
        if named not in battle.participants:
            raise RuleViolation(f"{state.warbands[named].name} did not fight in this battle")
    kept: list[tuple[events.BattleRecordKept, int]] = []  # each warband's record and the Glory its deeds give
    treatments: list[ev.TreasuryChanged] = []  # what the injuries of each warband's Force cost before deploying
    claimed: set[str] = set()
    for band_id in battle.participants:
        band = state.warbands[band_id]
        mine = [deed for deed in battle.deeds if state.fighters[deed.fighter].warband == band_id]
        side = None if attacker is None else "attacker" if band_id == attacker else "defender"
        record = warband_record(band_id, scenario.id, battle.winner, mine, by_warband.get(band_id, []), side)
        roster = roster_of(state, band, tables)
        rules.validate_battle_record(record, roster, tables)
        if since(ctx, "1.4.0"):  # 1.3.0 charged nothing for Expensive Treatment (README, Versions)
            force = [fighter for fighter in roster if fighter.fighter_id in record.participants]
            treatments += [
                ev.TreasuryChanged(warband=band_id, delta=-cost.row.deployment_ducats, row=cost.row.id,
                                   reason=f"{possessive_since(ctx, '1.8.0', state.fighters[cost.fighter_id].name)} "
                                          f"{cost.row.name} before deploying in battle {battle.battle}")
                for cost in rules.deployment_costs(force, band.treasury, tables)
            ]
        for deed in record.deeds:
            if deed.deed_id in claimed:
                name = known_deeds[deed.deed_id].name
                raise RuleViolation(f"{name} can be completed only once per game, by the first warband to do it")
            claimed.add(deed.deed_id)
        kept.append((
            events.BattleRecordKept(
                warband=band_id,
                battle=battle.battle,
                scenario=scenario.id,
                result=record.result,
                enemies=[w for w in battle.participants if w != band_id],
                force=list(record.participants),
                out_of_action=list(record.out_of_action),
                deeds=[events.DeedEntry(deed=d.deed_id, fighter=d.fighter_id) for d in record.deeds],
                side=record.side,
            ),
            rules.glory_from_deeds(record, tables),
        ))
    ctx.emit(battle)
    for record_kept, glory in kept:
        ctx.emit(record_kept)
        if glory:
            ctx.emit(events.GloryChanged(warband=record_kept.warband, delta=glory, reason=f"Glorious Deeds in battle {battle.battle}"))
    ctx.emit(*treatments)


def record_shared_battle(cmd: RecordBattle, ctx: Context) -> None:
    """`campaign battle record` in a Trench Crusade campaign: a battle with no warband-level deeds."""
    record_battle(
        RecordTrenchBattle(participants=cmd.participants, scenario=cmd.scenario, winner=cmd.winner, deeds=cmd.deeds),
        ctx,
    )


def award_capped_xp(cmd: AwardXP, ctx: Context) -> None:
    """`xp award` in a Trench Crusade campaign: only ELITE gain XP, up to their cap."""
    positive(cmd.amount, "an XP award", XP_TAKEN_AWAY)
    fighter = active_fighter(ctx.state, cmd.fighter, cmd.warband)
    band = ctx.state.warbands[fighter.warband]
    tables = tables_for(ctx.state)
    give_xp(ctx, band, rules.grant_xp(rules_fighter(ctx.state, fighter, tables), cmd.amount, rules.ARBITER_AWARD, band.faction, tables), cmd.reason)


def correct_earning_advancements(cmd: Correct, ctx: Context) -> None:
    """`correct` in a Trench Crusade campaign: XP a correction adds to an ELITE reaches advancement
    circles as any XP does ("reaching a circle box = one Advancement Roll", rules §6.4), so it owes
    the same Advancement Rolls as `xp award` and the Experience step. A correction stays an arbiter's
    override: it is not capped, and removing XP takes back no roll (void the award instead). Keywords typed several
    to an option are read one by one (`keywords_one_by_one`): a Trench Crusade keyword (ELITE, NEGATE FEAR) holds no comma."""
    cmd = keywords_one_by_one(cmd, ctx)
    correct(cmd, ctx)
    if cmd.xp <= 0 or not since(ctx, "1.1.0"):  # 1.0.0 owed no roll for corrected XP (README, Versions)
        return
    band = ctx.state.warband(cmd.warband)
    fighter = ctx.state.fighter(cmd.fighter, band.id)
    if fighter.active and rules.ELITE in fighter.keywords:
        reached = rules.advancement_circles_reached(fighter.xp - cmd.xp, fighter.xp, tables_for(ctx.state))
        earn_advancements(ctx, band, fighter.id, reached)
