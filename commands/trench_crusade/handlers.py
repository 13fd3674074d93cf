"""Trench Crusade commands and their handlers: the pure rules of `rules.py` run on the ledger.

A handler reads the campaign state, turns it into the rules' own view (`rules.Fighter`,
`rules.BattleRecord`), asks the rules what happens, rolls each die through `ctx.roll` as the
rules ask for it, and emits events. Every refusal of the rules (`TrenchCrusadeRuleError`)
becomes a `RuleViolation` in one place, `_refusing`, around every handler.

Decisions (the rules module's docstring lists the rule readings):

- The Campaign Phase runs strictly in order for the warband's latest battle: Trauma,
  Promotions, Experience, then every Advancement Roll owed, then Exploration, Quartermaster
  and Roster. Each step is one command, refused when an earlier step is not done or when it
  was already done; a shared `post-game.step-done` event marks it done even when it changed
  nothing.
- Reinforcements (optional, rules §4 and §9) is taken in Exploration's place and forfeits it:
  `trench-crusade.reinforcements` discards the Arsenal and sets the Strongbox to 0; recruiting
  on the budget is left to the players (the ledger does not price Battlekit, so it cannot work
  out the warband's Total Cost).
- Quartermaster and Roster (rules §11) close the phase and are required: the rules make them
  part of every Campaign Phase, and a player finishes them with no purchases (`quartermaster`,
  then `roster`, each only a confirmation). Until the Quartermaster step is done, and once
  Exploration or Reinforcements is, a warband may retire a model with 2 Battle Scars (its kit to
  the Arsenal), buy Battlekit (ducats or Glory) and Glory Items (Glory) at the price the player
  gives (the public rules print no Armoury prices), sell for half the price paid, rounded up, in
  the currency paid, and move kit between the Arsenal and its models (ELITE-only kit only to
  ELITE). After Reinforcements the window is open too: rules §13 C1 is read as the TC step page
  has it ("go to Quartermaster"); the other reading is a Quartermaster step with no purchases.
  One price per item name and warband, the latest purchase's: an Armoury prices an item, not a copy.
- A battle is refused for a warband that has not finished the Campaign Phase of its latest
  battle (the guided post-game's steps, `steps.py`): its remaining steps would otherwise be
  dropped, since every step belongs to the latest battle.
- A Troop has 0 XP in this ruleset (only ELITE gain XP, and `xp award` is capped and
  refused for Troops), so a promotion's "begins with 0 Experience Points" emits nothing in
  play. If an arbiter's correction gave a Troop XP, the promotion emits `XPSpent` of all of
  it ("Promotion: an ELITE begins with 0 XP"): the shared fact keeps every read model right
  without a ruleset-only "reset" event.
- A fighter's Faction List entry (what the model lists match) is recorded by
  `trench-crusade.recruit --model`; a fighter added with the shared `fighter add` is read
  by its `--role` instead.
- A warband's faction is one of the six v1.0 factions, by id or name; it is stored by id.
- Removed without dying (Unfit for Duty, a 2nd Lost an Eye): `FighterRetired`, and its
  Battlekit goes to the warband's stash (the Arsenal). Killed: `FighterDied` (kit lost).
- A Captured ELITE stays captured until `trench-crusade.ransom` settles it: paid ducats go
  from its warband's treasury to the captor's and it returns (Full Recovery); unpaid, it
  is executed. The ransom is settled before the phase goes on (rules §5), so every step after
  Trauma is refused while a model of the warband is Captured.
"""

from __future__ import annotations

from typing import Any

import msgspec

from commands.shared import (
    SHARED_HANDLERS,
    AwardXP,
    EnlistWarband,
    RecordBattle,
    RecruitFighter,
    active_fighter,
    battle_record,
    enlist_warband,
    positive,
    recruit_fighter,
    slug,
)
from ledger import events as ev
from ledger.decide import Context
from ledger.errors import BadInput, RuleViolation
from ledger.rulesets import refusing_as_rule_violation
from ledger.state import CampaignState, Fighter, Warband

from . import events as tce
from . import rules as r
from .commands import (
    Advancement,
    Allocate,
    BuyKit,
    Experience,
    Exploration,
    Promotions,
    Quartermaster,
    Ransom,
    RecordTrenchBattle,
    Recruit,
    Reinforcements,
    Retire,
    Roster,
    SellKit,
    Trauma,
)
from .model import (
    CampaignBattle,
    campaign_options,
    faction_id,
    head_wound_promotion,
    latest_battle,
    member,
    roster_of,
    rules_fighter,
    tables_for,
)
from .phase import PHASE, QUARTERMASTER, REINFORCEMENTS, ROSTER
from .tables import TrenchCrusadeTables


def begin_step(state: CampaignState, band: Warband, step: str) -> CampaignBattle:
    """The latest battle, as the Campaign Phase reads it, once the phase lets this step begin."""
    PHASE.begin(state, band, step)
    return latest_battle(state, band)


def finish_step(ctx: Context, band: Warband, battle: CampaignBattle, step: str) -> None:
    PHASE.finish(ctx, band, battle.number, step)

# --- shared consequences ---------------------------------------------------------------------


def give_xp(ctx: Context, band: Warband, grant: r.XpGrant, reason: str) -> None:
    """XP as the rules granted it; the event keeps the amount asked for when a cap cut it."""
    if grant.blocked:
        reason += " (Head Wound: gains no more XP)"
    elif grant.capped:
        reason += f" (capped: at most {grant.cap} XP{' as ' + grant.cap_row_id if grant.cap_row_id else ''})"
    ctx.emit(
        ev.XPAwarded(
            warband=band.id,
            fighter=grant.fighter_id,
            amount=grant.granted,
            reason=reason,
            requested=grant.requested if grant.granted < grant.requested else None,
        )
    )
    circles = {circle.id: circle.xp for circle in tables_for(ctx.state).experience.advancement_circles}
    for circle in grant.advancement_circles:
        ctx.emit(tce.AdvancementEarned(warband=band.id, fighter=grant.fighter_id, circle=circle, xp=circles[circle]))


def kit_to_arsenal(ctx: Context, band: Warband, fighter: Fighter, reason: str) -> None:
    for item in list(fighter.equipment):
        ctx.emit(
            ev.ItemLost(warband=band.id, fighter=fighter.id, item=item, reason=reason),
            ev.ItemGained(warband=band.id, item=item, reason=f"from {fighter.name}: {reason}"),
        )


# --- handlers ------------------------------------------------------------------------------------


def enlist(cmd: EnlistWarband, ctx: Context) -> None:
    enlist_warband(msgspec.structs.replace(cmd, faction=faction_id(cmd.faction)), ctx)


def refuse_a_seventh_elite(state: CampaignState, band: Warband, keywords: list[str]) -> None:
    if r.ELITE in keywords and r.elite_count(roster_of(state, band, tables_for(state))) >= r.ELITE_CAP:
        raise RuleViolation(f"{band.name} already has {r.ELITE_CAP} ELITE models, the most a warband may have")


def recruit_shared(cmd: RecruitFighter, ctx: Context) -> None:
    """`fighter add` in a Trench Crusade campaign: the 6-ELITE limit holds for it too."""
    refuse_a_seventh_elite(ctx.state, ctx.state.warband(cmd.warband), cmd.keywords)
    recruit_fighter(cmd, ctx)


def recruit(cmd: Recruit, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    if not cmd.model.strip():
        raise BadInput("name the model's Faction List entry with --model")
    keywords = list(dict.fromkeys([*([r.ELITE] if cmd.elite else []), *cmd.keywords]))
    refuse_a_seventh_elite(ctx.state, band, keywords)
    recruit_fighter(
        RecruitFighter(
            warband=band.id,
            name=cmd.name,
            role="elite" if r.ELITE in keywords else "troop",
            keywords=keywords,
            equipment=cmd.equipment,
            cost=cmd.cost,
            paid=cmd.paid,
        ),
        ctx,
    )
    recruited = next(e for e in reversed(ctx.events) if isinstance(e, ev.FighterRecruited))
    ctx.emit(tce.ModelEntry(warband=band.id, fighter=recruited.fighter, model=cmd.model.strip()))


def _by_id_or_name(text: str, rows: Any, what: str) -> Any:
    wanted = slug(text)
    for row in rows:
        if wanted in (row.id, slug(row.name)):
            return row
    raise RuleViolation(f"there is no {what} '{text}'")


def record_battle(cmd: RecordTrenchBattle, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    scenario = _by_id_or_name(cmd.scenario, tables.glorious_deeds.scenarios, "scenario")
    known_deeds = tables.glorious_deeds.deeds

    def deed_ids(names: list[str]) -> list[str]:
        return [_by_id_or_name(name, known_deeds, "Glorious Deed").id for name in names]

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
    kept: list[tuple[tce.BattleRecordKept, int]] = []  # each warband's record and the Glory its deeds give
    claimed: set[str] = set()
    for band_id in battle.participants:
        band = state.warbands[band_id]
        mine = [deed for deed in battle.deeds if state.fighters[deed.fighter].warband == band_id]
        record = r.BattleRecord(
            scenario_id=scenario.id,
            result="draw" if battle.winner is None else "win" if battle.winner == band_id else "loss",
            participants=tuple(deed.fighter for deed in mine),
            out_of_action=tuple(deed.fighter for deed in mine if deed.out_of_action),
            deeds=tuple(
                [r.DeedRecord(deed_id=deed_id, fighter_id=deed.fighter) for deed in mine for deed_id in deed.glorious_deeds]
                + [r.DeedRecord(deed_id=deed_id) for deed_id in by_warband.get(band_id, [])]
            ),
            side=None if attacker is None else "attacker" if band_id == attacker else "defender",
        )
        r.validate_battle_record(record, roster_of(state, band, tables), tables)
        for deed in record.deeds:
            if deed.deed_id in claimed:
                name = _by_id_or_name(deed.deed_id, known_deeds, "Glorious Deed").name
                raise RuleViolation(f"{name} can be completed only once per game, by the first warband to do it")
            claimed.add(deed.deed_id)
        kept.append((
            tce.BattleRecordKept(
                warband=band_id,
                battle=battle.battle,
                scenario=scenario.id,
                result=record.result,
                enemies=[w for w in battle.participants if w != band_id],
                force=list(record.participants),
                out_of_action=list(record.out_of_action),
                deeds=[tce.DeedEntry(deed=d.deed_id, fighter=d.fighter_id) for d in record.deeds],
                side=record.side,
            ),
            r.glory_from_deeds(record, tables),
        ))
    ctx.emit(battle)
    for record_kept, glory in kept:
        ctx.emit(record_kept)
        if glory:
            ctx.emit(tce.GloryChanged(warband=record_kept.warband, delta=glory, reason=f"Glorious Deeds in battle {battle.battle}"))


def record_shared_battle(cmd: RecordBattle, ctx: Context) -> None:
    """`campaign battle record` in a Trench Crusade campaign: a battle with no warband-level deeds."""
    record_battle(
        RecordTrenchBattle(participants=cmd.participants, scenario=cmd.scenario, winner=cmd.winner, deeds=cmd.deeds),
        ctx,
    )


BITTER_LESSONS_AWARD = "bitter-lessons"


def trauma(cmd: Trauma, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "trauma")
    casualties = [state.fighters[f] for f in battle.record.out_of_action if state.fighters[f].active]
    # Troops first, then ELITE.
    for fighter in [f for f in casualties if r.ELITE not in f.keywords]:
        face = ctx.roll("D6", purpose=f"Survival Roll for {fighter.name}").value
        row = r.troop_survival(face, tables)
        ctx.emit(tce.TraumaResolved(warband=band.id, fighter=fighter.id, rolls=[face], row=row.id,
                                    result="survives" if row.survives else "removed"))
        if not row.survives:
            ctx.emit(ev.FighterDied(warband=band.id, fighter=fighter.id, reason=f"Survival Roll {face}", row=row.id))
    for fighter in [f for f in casualties if r.ELITE in f.keywords]:
        elite_trauma(ctx, band, battle, fighter, tables)
    finish_step(ctx, band, battle, "trauma")


def elite_trauma(ctx: Context, band: Warband, battle: CampaignBattle, fighter: Fighter, tables: TrenchCrusadeTables) -> None:
    rolls: list[int] = []
    while True:
        try:
            outcome = r.elite_trauma(rules_fighter(fighter, tables), rolls, tables)
            break
        except r.MoreDiceNeeded:
            again = f" (roll {len(rolls) + 1}: an injury it already has is rolled again)" if rolls else ""
            rolls.append(ctx.roll("D66", purpose=f"Trauma roll for {fighter.name}{again}").value)
    row = outcome.row
    ctx.emit(
        tce.TraumaResolved(
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
    if row.bonus_xp_dice:
        amount = ctx.roll(row.bonus_xp_dice, purpose=f"{row.name} XP for {fighter.name}").value
        grant = r.award_xp(rules_fighter(fighter, tables), amount, BITTER_LESSONS_AWARD, band.faction, tables)
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
    ctx.emit(tce.FighterRansomed(warband=band.id, fighter=fighter.id, ducats=cmd.paid, to_warband=captor.id))


def promotions(cmd: Promotions, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "promotions")
    if cmd.even and cmd.assign:
        raise BadInput("give the assignment or ask for an even spread, not both")
    roster = roster_of(state, band, tables)
    streak = band.ext.get(tce.STREAK, 0)
    assignment = {member(state, band, ref).id: dice for ref, dice in cmd.assign.items()}
    if r.promotion_step_skipped(roster):
        # The rules refuse an assignment here; a skipped step rolls nothing.
        r.resolve_promotion_step(roster, band.faction, tables, deeds=(), extra_dice=(), assignment=assignment,
                                 order=(), faces=(), streak=streak)
        ctx.emit(tce.PromotionsSkipped(warband=band.id, elite=r.elite_count(roster)))
        finish_step(ctx, band, battle, "promotions")
        return
    deeds = battle.record.deeds
    extra = [r.ExtraPromotionDice(source_id=source, dice=dice) for source, dice in cmd.extra.items()]
    pool = r.promotion_pool(deeds, extra, tables)
    eligibility = r.promotion_eligibility(roster, band.faction, tables, head_wound_elite=head_wound_promotion(state))
    eligible = [f.fighter_id for f in eligibility.eligible]
    if cmd.even:
        assignment = r.even_spread(eligible, pool.size)
    elif not assignment and eligible:
        raise BadInput("assign the Promotion Dice to Troops (e.g. --assign Anna=2) or ask for an even spread (--even)")
    r.validate_assignment(assignment, eligibility, pool.size)
    order = roll_order(state, band, cmd.order, assignment, eligible)
    ctx.emit(
        tce.PromotionPoolFormed(
            warband=band.id,
            size=pool.size,
            base=pool.base,
            glorious_deeds=pool.glorious_deeds,
            extra=[tce.ExtraDice(source=e.source_id, dice=e.dice) for e in pool.extra],
            assignment={f: n for f, n in assignment.items() if n},
            order=order,
            excluded=[tce.Excluded(fighter=e.fighter_id, reason=e.reason, row=e.row_id) for e in eligibility.excluded],
            streak=streak,
        )
    )
    roll_numbers: list[int] = []

    def roll_die(fighter_id: str, number: int) -> int:
        rolled = ctx.roll("D6", purpose=f"promotion die {number} of {len(order)} for {state.fighters[fighter_id].name}")
        roll_numbers.append(rolled.number)
        return rolled.value

    def resolved(die: r.PromotionDie) -> None:
        ctx.emit(
            tce.PromotionDieRolled(
                warband=band.id,
                fighter=die.fighter_id,
                roll=roll_numbers[-1],
                die=len(roll_numbers),
                of=len(order),
                face=die.face,
                counted_as_six=die.counted_as_six,
                promoted=die.promoted,
                streak=die.streak_after,
                xp_restored=die.xp_restored,
            )
        )
        if die.promoted:
            promote(ctx, band, state.fighters[die.fighter_id], die)

    r.resolve_promotion_step(
        roster, band.faction, tables, deeds=deeds, extra_dice=extra, assignment=assignment, order=order,
        faces=roll_die, streak=streak, stop_rule=campaign_options(state).promotion_stop_rule, on_die=resolved,
        head_wound_elite=head_wound_promotion(state),
    )
    finish_step(ctx, band, battle, "promotions")


def roll_order(state: CampaignState, band: Warband, refs: list[str], assignment: dict[str, int], eligible: list[str]) -> list[str]:
    """The fighter of each die in rolling order: as given per die (a model named once per die it
    holds), or each named model's dice together (every model named once), or by default each
    model's dice together in roster order."""
    named = [member(state, band, ref).id for ref in refs]
    if len(set(named)) < len(named):  # a model named twice: the order is one entry per die
        r.validate_roll_order(named, assignment, {f: state.fighters[f].name for f in {*named, *assignment}})
        return named
    holders = named or [f for f in eligible if assignment.get(f)]
    return list(r.dice_in_fighter_order(assignment, holders))


def promote(ctx: Context, band: Warband, fighter: Fighter, die: r.PromotionDie) -> None:
    how = "a Promotion Die counted as a 6" if die.counted_as_six else "a 6 on a Promotion Die"
    ctx.emit(
        ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=r.ELITE, reason=f"Promotion: {how}"),
        ev.FighterPromoted(warband=band.id, fighter=fighter.id, role="elite", reason=f"Promotion: {how}"),
    )
    if fighter.xp:
        ctx.emit(ev.XPSpent(warband=band.id, fighter=fighter.id, amount=fighter.xp,
                            on="Promotion: an ELITE begins with 0 Experience Points"))


def experience(cmd: Experience, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "experience")
    roster = roster_of(state, band, tables)
    record = battle.record
    leader = member(state, band, cmd.leader).id if cmd.leader else None
    warband_deeds = {deed.id for deed in tables.glorious_deeds.deeds if deed.warband_level}
    if leader is None and any(deed.deed_id in warband_deeds for deed in record.deeds):
        leaders = r.warband_deed_leaders(roster, record)
        if len(leaders) > 1:
            chosen = ctx.choose("leader", "Which ELITE LEADER gains the XP of the warband's Glorious Deed?",
                                [f.name for f in leaders])
            leader = next(f.fighter_id for f in leaders if f.name == chosen)
    for line in r.battle_experience(roster, record, tables, warband_deed_leader=leader):
        fighter = rules_fighter(state.fighters[line.fighter_id], tables)  # as it is after earlier awards
        grant = r.award_xp(fighter, line.amount, line.award_id, band.faction, tables)
        give_xp(ctx, band, grant, f"battle {battle.number}: {line.award_id}")
    finish_step(ctx, band, battle, "experience")


def advancement(cmd: Advancement, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    if not cmd.rolls:
        raise BadInput("name the fighter and the two skill tables of each Advancement Roll")
    skill_tables = {table.id: table.name for table in tables.advancement_skills.tables}
    for index, chosen in enumerate(cmd.rolls, start=1):
        fighter = member(state, band, chosen.fighter)
        if fighter.ext.get(tce.ADVANCEMENTS_DUE, 0) < 1:
            raise RuleViolation(f"{fighter.name} has no Advancement Roll to make")
        unknown = [t for t in chosen.tables if t not in skill_tables]
        if unknown or len(set(chosen.tables)) != 2 or len(chosen.tables) != 2:
            raise RuleViolation(f"an Advancement Roll uses two different skill tables of: {', '.join(skill_tables)}")
        results = [
            (table, ctx.roll("2D6", purpose=f"Advancement Roll for {fighter.name} on {skill_tables[table]}").value)
            for table in chosen.tables
        ]
        offered = [r.advancement_skill(table, roll, fighter.skills, tables) for table, roll in results]
        keep = chosen.keep or ctx.choose(
            f"keep-{index}",
            f"{fighter.name} may learn {offered[0].skill} ({chosen.tables[0]}) or {offered[1].skill} ({chosen.tables[1]}): keep which?",
            list(chosen.tables),
        )
        result = r.resolve_advancement_roll(results, keep, fighter.skills, tables)
        ctx.emit(
            tce.AdvancementRolled(
                warband=band.id,
                fighter=fighter.id,
                options=[
                    tce.AdvancementOption(table=o.table_id, roll=o.roll, rolled_row=o.rolled_row_id, row=o.result.id, skill=o.result.skill)
                    for o in result.options
                ],
                kept=keep,
            ),
            ev.SkillLearned(warband=band.id, fighter=fighter.id, skill=result.kept.result.skill,
                            reason="Advancement Roll", row=result.kept.result.id),
        )


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


# --- the Quartermaster and Roster steps ---------------------------------------------------------


def quartermaster_window(state: CampaignState, band: Warband, activity: str) -> None:
    """Quartermaster activities happen after Exploration (or Reinforcements) and before the step is done."""
    try:
        begin_step(state, band, QUARTERMASTER)
    except RuleViolation as error:
        raise RuleViolation(f"{band.name} can {activity} only in the Quartermaster step: {error}") from None


def _currency_word(currency: str) -> str:
    return "Glory" if currency == tce.GLORY_POINTS else "ducats"


def funds(band: Warband, currency: str) -> int:
    """Ducats in the Strongbox (the treasury), or Glory Points."""
    return band.ext.get(tce.GLORY, 0) if currency == tce.GLORY_POINTS else band.treasury


def change_funds(ctx: Context, band: Warband, currency: str, delta: int, reason: str) -> None:
    if currency == tce.GLORY_POINTS:
        ctx.emit(tce.GloryChanged(warband=band.id, delta=delta, reason=reason))
    else:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=delta, reason=reason))


def known_currency(currency: str) -> str:
    if currency not in (tce.DUCATS, tce.GLORY_POINTS):
        raise BadInput(f"a price is paid in {tce.DUCATS} or {tce.GLORY_POINTS}, not {currency!r}")
    return currency


def retire(cmd: Retire, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    quartermaster_window(state, band, "retire a model")
    fighter = member(state, band, cmd.fighter)
    scars = fighter.ext.get(tce.BATTLE_SCARS, 0)
    if scars < 2:
        raise RuleViolation(f"{fighter.name} has {scars} Battle Scar{'' if scars == 1 else 's'}: "
                            "only a model with 2 Battle Scars may be retired")
    ctx.emit(ev.FighterRetired(warband=band.id, fighter=fighter.id, reason="retired with 2 Battle Scars in the Quartermaster step"))
    kit_to_arsenal(ctx, band, fighter, f"{fighter.name} retired")


def buy(cmd: BuyKit, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    currency = known_currency(cmd.currency)
    if not cmd.item.strip():
        raise BadInput("name the item bought")
    if cmd.price < 0:
        raise BadInput(f"a price cannot be {cmd.price}")
    if cmd.glory_item and currency != tce.GLORY_POINTS:
        raise RuleViolation("a Glory Item is bought with Glory, not ducats")
    quartermaster_window(state, band, "buy")
    item = cmd.item.strip()
    if cmd.price > funds(band, currency):
        raise RuleViolation(f"{band.name} has {funds(band, currency)} {_currency_word(currency)}; {item} costs {cmd.price}")
    if cmd.price:
        change_funds(ctx, band, currency, -cmd.price, f"bought {item}")
    ctx.emit(
        tce.KitBought(warband=band.id, item=item, price=cmd.price, currency=currency,
                      glory_item=cmd.glory_item, elite_only=cmd.elite_only),
        ev.ItemGained(warband=band.id, item=item, reason=f"bought for {cmd.price} {_currency_word(currency)}"),
    )


def sell(cmd: SellKit, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    quartermaster_window(state, band, "sell")
    holder = member(state, band, cmd.fighter) if cmd.fighter else None
    if cmd.item not in (holder.equipment if holder else band.stash):
        raise RuleViolation(f"{holder.name} carries no {cmd.item}" if holder else f"{band.name} has no {cmd.item} in the Arsenal")
    bought = band.ext.get(tce.ARMOURY, {}).get(cmd.item)
    if bought is None:
        if cmd.price is None:
            raise RuleViolation(f"the ledger does not know what {band.name} paid for {cmd.item}: "
                                "give the price paid (--price, with --glory if it was paid in Glory)")
        if cmd.price < 0:
            raise BadInput(f"a price cannot be {cmd.price}")
        price, currency = cmd.price, known_currency(cmd.currency or tce.DUCATS)
    else:
        price, currency = bought["price"], bought["currency"]
        if cmd.price not in (None, price) or cmd.currency not in (None, currency):
            raise RuleViolation(f"{band.name} paid {price} {_currency_word(currency)} for {cmd.item}: it sells for half of that")
    refund = -(-price // 2)  # half the price paid, rounded up
    ctx.emit(ev.ItemLost(warband=band.id, item=cmd.item, fighter=holder.id if holder else None,
                         reason=f"sold for {refund} {_currency_word(currency)} (half of {price}, rounded up)"))
    if refund:
        change_funds(ctx, band, currency, refund, f"sold {cmd.item}")


def allocate(cmd: Allocate, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    quartermaster_window(state, band, "allocate Battlekit")
    fighter = member(state, band, cmd.fighter)
    if cmd.to_arsenal:
        if cmd.item not in fighter.equipment:
            raise RuleViolation(f"{fighter.name} carries no {cmd.item}")
        ctx.emit(
            ev.ItemLost(warband=band.id, fighter=fighter.id, item=cmd.item, reason="to the Arsenal"),
            ev.ItemGained(warband=band.id, item=cmd.item, reason=f"from {fighter.name}"),
        )
        return
    if cmd.item not in band.stash:
        raise RuleViolation(f"{band.name} has no {cmd.item} in the Arsenal")
    if band.ext.get(tce.ARMOURY, {}).get(cmd.item, {}).get("elite_only") and r.ELITE not in fighter.keywords:
        raise RuleViolation(f"{cmd.item} is ELITE-only Battlekit and {fighter.name} is not ELITE")
    ctx.emit(
        ev.ItemLost(warband=band.id, item=cmd.item, reason=f"to {fighter.name}"),
        ev.ItemGained(warband=band.id, fighter=fighter.id, item=cmd.item, reason="from the Arsenal"),
    )


def quartermaster(cmd: Quartermaster, ctx: Context) -> None:
    """The Quartermaster step is done (its activities are commands of their own, before this)."""
    band = ctx.state.warband(cmd.warband)
    finish_step(ctx, band, begin_step(ctx.state, band, QUARTERMASTER), QUARTERMASTER)


def roster(cmd: Roster, ctx: Context) -> None:
    """The Roster step: the rules give it nothing to do but bring the roster up to date."""
    band = ctx.state.warband(cmd.warband)
    finish_step(ctx, band, begin_step(ctx.state, band, ROSTER), ROSTER)


# Exploration Skills the ledger applies: (extra dice, extra re-rolls, added to the roll).
EXPLORATION_SKILL_EFFECTS = {"extra-dice": (1, 0, 0), "re-roll-dice": (0, 1, 0), "seek": (0, 0, 1), "circle-back": (0, 0, -1)}


def exploration(cmd: Exploration, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "exploration")
    known = {skill.id: skill.name for skill in tables.exploration.skills}
    for skill in cmd.skills:
        if skill not in known:
            raise RuleViolation(f"there is no Exploration Skill '{skill}' (skills: {', '.join(known)})")
        if skill not in EXPLORATION_SKILL_EFFECTS:
            raise RuleViolation(f"{known[skill]} changes the dice themselves, which the ledger does not model: "
                                "apply it as a --modifier and say so in a note")
    extra_dice, extra_rerolls, skill_modifier = (sum(EXPLORATION_SKILL_EFFECTS[s][i] for s in cmd.skills) for i in range(3))
    stage = r.exploration_stage(band.games, tables)
    table = cmd.table or ctx.choose("table", f"Explore which table after {band.games} games?", list(stage.tables))
    count = r.exploration_dice_count(band.games, extra_dice, tables)
    faces = list(ctx.roll(f"{count}D6", purpose=f"Exploration dice for {band.name}").faces)
    allowed = r.exploration_rerolls(battle.record.result == "win", extra_rerolls, tables)
    for position in chosen_rerolls(ctx, cmd.rerolls, faces, allowed):
        faces[position - 1] = ctx.roll("D6", purpose=f"Exploration re-roll of die {position} for {band.name}").value
    modifier = skill_modifier + cmd.modifier
    found = r.resolve_exploration(band.games, table, sum(faces) + modifier, band.ext.get(tce.LOCATIONS, []), tables)  # type: ignore[arg-type]
    seen = found.location or next(
        (row for row in tables.exploration.locations if found.pillaged and row.table == table and row.roll == found.final_roll), None
    )
    ctx.emit(
        tce.ExplorationResolved(
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
    finish_step(ctx, band, battle, "exploration")


def chosen_rerolls(ctx: Context, given: list[int] | None, faces: list[int], allowed: int) -> list[int]:
    """The dice to re-roll (never the same die twice): as given, or asked one at a time."""
    if given is not None:
        if len(given) > allowed:
            raise RuleViolation(f"only {allowed} Exploration {'die' if allowed == 1 else 'dice'} may be re-rolled")
        if len(set(given)) != len(given):
            raise RuleViolation("the same Exploration die cannot be re-rolled twice")
        for position in given:
            if not 1 <= position <= len(faces):
                raise BadInput(f"there is no Exploration die {position}: dice are 1 to {len(faces)}")
        return list(given)
    chosen: list[int] = []
    for turn in range(1, allowed + 1):
        options = ["none", *(str(p) for p in range(1, len(faces) + 1) if p not in chosen)]
        answer = ctx.choose(f"reroll-{turn}", f"Exploration dice {faces}: re-roll which die? ({allowed - turn + 1} re-roll(s) left)", options)
        if answer == "none":
            break
        chosen.append(int(answer))
    return chosen


def award_capped_xp(cmd: AwardXP, ctx: Context) -> None:
    """`xp award` in a Trench Crusade campaign: only ELITE gain XP, up to their cap."""
    positive(cmd.amount, "an XP award")
    fighter = active_fighter(ctx.state, cmd.fighter, cmd.warband)
    band = ctx.state.warbands[fighter.warband]
    tables = tables_for(ctx.state)
    give_xp(ctx, band, r.grant_xp(rules_fighter(fighter, tables), cmd.amount, r.ARBITER_AWARD, band.faction, tables), cmd.reason)


# The one place where a refusal of the rules becomes a refusal a player reads.
_refusing = refusing_as_rule_violation(r.TrenchCrusadeRuleError)


HANDLERS = {
    **SHARED_HANDLERS,
    **{
        command: _refusing(handler)
        for command, handler in {
            EnlistWarband: enlist,
            RecruitFighter: recruit_shared,
            RecordBattle: record_shared_battle,
            AwardXP: award_capped_xp,
            Recruit: recruit,
            RecordTrenchBattle: record_battle,
            Trauma: trauma,
            Ransom: ransom,
            Promotions: promotions,
            Experience: experience,
            Advancement: advancement,
            Reinforcements: reinforcements,
            Exploration: exploration,
            Retire: retire,
            BuyKit: buy,
            SellKit: sell,
            Allocate: allocate,
            Quartermaster: quartermaster,
            Roster: roster,
        }.items()
    },
}
