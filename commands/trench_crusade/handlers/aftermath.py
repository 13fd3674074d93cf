"""The Trauma step and ransoms."""

from __future__ import annotations



from ledger import events as ev
from ledger.decide import Context
from ledger.errors import BadInput, RuleViolation
from ledger.state import Fighter, Warband

from commands.kit import as_spelled, resolve, since
from commands.trench_crusade import events
from commands.trench_crusade import rules
from commands.trench_crusade.commands import (
    Ransom,
    Trauma,
)
from commands.trench_crusade.model import (
    CampaignBattle,
    latest_battle,
    rules_fighter,
    tables_for,
)
from commands.trench_crusade.tables import TrenchCrusadeTables
from commands.trench_crusade.handlers.consequences import begin_step, finish_step, give_xp, kit_to_arsenal


BITTER_LESSONS_AWARD = "bitter-lessons"


def trauma(cmd: Trauma, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "trauma")
    casualties = [state.fighters[f] for f in battle.record.out_of_action if state.fighters[f].active]
    # Troops first, then ELITE.
    for fighter in [f for f in casualties if rules.ELITE not in f.keywords]:
        face = ctx.roll("D6", purpose=f"Survival Roll for {fighter.name}").value
        row = rules.troop_survival(face, tables)
        ctx.emit(events.TraumaResolved(warband=band.id, fighter=fighter.id, rolls=[face], row=row.id,
                                    result="survives" if row.survives else "removed"))
        if not row.survives:
            ctx.emit(ev.FighterDied(warband=band.id, fighter=fighter.id, reason=f"Survival Roll {face}", row=row.id))
    for fighter in [f for f in casualties if rules.ELITE in f.keywords]:
        elite_trauma(ctx, band, battle, fighter, tables)
    if since(ctx, "1.6.0"):  # 1.5.0 counted the ELITE when the Promotions step ran (README, Versions)
        elite = [f.id for f in state.fighters_of(band.id, active_only=False)
                 if f.status in ("active", "captured") and rules.ELITE in f.keywords]
        ctx.emit(events.PromotionsPhaseBegun(warband=band.id, battle=battle.number, elite=elite))
    finish_step(ctx, band, battle, "trauma")


def elite_trauma(ctx: Context, band: Warband, battle: CampaignBattle, fighter: Fighter, tables: TrenchCrusadeTables) -> None:
    spared = since(ctx, "1.3.0")
    outcome = resolve(ctx, lambda rolled: rules.elite_trauma(rules_fighter(ctx.state, fighter, tables), rolled, tables,
                                                             spared=spared))
    row = outcome.row
    ctx.emit(
        events.TraumaResolved(
            warband=band.id,
            fighter=fighter.id,
            rolls=list(outcome.rolls_used),
            row=row.id,
            result=row.name,
            rerolled=list(outcome.rerolled_rows),
            battle_scars=outcome.battle_scars_after,
            unfit_for_duty=outcome.unfit_for_duty,
            enemies=battle.enemies if row.records_enemy else [],
        )
    )
    why = f"Trauma {outcome.rolls_used[-1]} {row.name}"
    if row.kind == "dead":
        ctx.emit(ev.FighterDied(warband=band.id, fighter=fighter.id, reason=why, row=row.id))
        return
    if row.kind == "captured":
        ctx.emit(ev.FighterCaptured(warband=band.id, fighter=fighter.id, reason=f"{why}: ransom to be settled", row=row.id))
        return
    if outcome.removed:
        ctx.emit(ev.FighterRetired(warband=band.id, fighter=fighter.id, reason=f"a 2nd {row.name}: removed from the roster"))
        kit_to_arsenal(ctx, band, fighter, f"{fighter.name} was removed")
        return
    if row.kind == "injury":
        ctx.emit(ev.InjurySuffered(warband=band.id, fighter=fighter.id, injury=row.name, row=row.id, missed_games=row.missed_games))
    if row.kind == "robbed":
        for item in list(fighter.equipment):
            ctx.emit(ev.ItemLost(warband=band.id, fighter=fighter.id, item=item, reason=why))
    if row.gains_keyword:
        ctx.emit(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=row.gains_keyword, reason=why))
    if row.loses_keyword and since(ctx, "1.4.0"):  # 1.3.0 left an Insomniac his INFILTRATOR (README, Versions)
        # The keyword as the roster spells it: recruit --keyword takes it as typed.
        held = as_spelled(row.loses_keyword, fighter.keywords)
        if held is not None:
            ctx.emit(ev.KeywordLost(warband=band.id, fighter=fighter.id, keyword=held, reason=why))
    if row.bonus_xp_dice:
        amount = ctx.roll(row.bonus_xp_dice, purpose=f"{row.name} XP for {fighter.name}").value
        grant = rules.award_xp(rules_fighter(ctx.state, fighter, tables), amount, BITTER_LESSONS_AWARD, band.faction, tables)
        give_xp(ctx, band, grant, why)
    if outcome.unfit_for_duty:
        ctx.emit(ev.FighterRetired(warband=band.id, fighter=fighter.id,
                                   reason=f"Unfit for Duty: {outcome.battle_scars_after} Battle Scars"))
        kit_to_arsenal(ctx, band, fighter, f"{fighter.name} is Unfit for Duty")


def ransom(cmd: Ransom, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    fighter = state.fighter(cmd.fighter, band.id)
    if fighter.status != "captured":
        raise RuleViolation(f"{fighter.name} is not captured")
    if cmd.paid is None:
        ctx.emit(ev.FighterDied(warband=band.id, fighter=fighter.id, reason="executed: the ransom was not paid"))
        return
    if cmd.paid < 0:
        raise BadInput(f"a ransom cannot be {cmd.paid} ducats")
    if cmd.to is not None:
        captor = state.warband(cmd.to)
    else:
        enemies = latest_battle(state, band).enemies
        if len(enemies) != 1:
            raise BadInput(f"name the warband holding {fighter.name} with --to")
        captor = state.warbands[enemies[0]]
    if captor.id == band.id:
        raise RuleViolation(f"{band.name} cannot ransom {fighter.name} from itself")
    if cmd.paid > band.treasury:
        raise RuleViolation(f"{band.name} has {band.treasury} ducats in the Strongbox; the ransom is {cmd.paid}")
    if cmd.paid:
        ctx.emit(
            ev.TreasuryChanged(warband=band.id, delta=-cmd.paid, reason=f"ransom for {fighter.name}"),
            ev.TreasuryChanged(warband=captor.id, delta=cmd.paid, reason=f"ransom for {fighter.name} of {band.name}"),
        )
    ctx.emit(events.FighterRansomed(warband=band.id, fighter=fighter.id, ducats=cmd.paid, to_warband=captor.id))
