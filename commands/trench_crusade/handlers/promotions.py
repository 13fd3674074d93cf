"""The Promotions step."""

from __future__ import annotations

from ledger import events as ev
from ledger.decide import Context
from ledger.errors import BadInput
from ledger.state import CampaignState, Fighter, Warband

from commands.kit import Rolled, resolve, since
from commands.trench_crusade import events
from commands.trench_crusade import rules
from commands.trench_crusade.commands import (
    Promotions,
)
from commands.trench_crusade.model import (
    campaign_options, elite_at_phase_start, head_wound_promotion, member, roster_of, tables_for,
)
from commands.trench_crusade.handlers.consequences import begin_step, finish_step


def promotions(cmd: Promotions, ctx: Context) -> None:
    state, tables = ctx.state, tables_for(ctx.state)
    band = state.warband(cmd.warband)
    battle = begin_step(state, band, "promotions")
    if cmd.even and cmd.assign:
        raise BadInput("give the assignment or ask for an even spread, not both")
    roster = roster_of(state, band, tables)
    streak = events.band_facts(state, band.id).promotion_streak
    assignment = assignment_by_model(state, band, cmd.assign, refuse_twice=since(ctx, "1.3.0"))
    at_start = elite_at_phase_start(state, band, roster)
    if rules.promotion_step_skipped(roster, at_start):
        # The rules refuse an assignment here; a skipped step rolls nothing.
        rules.resolve_promotion_step(roster, band.faction, tables, deeds=(), extra_dice=(), assignment=assignment,
                                 order=(), faces=(), streak=streak, elite_at_phase_start=at_start)
        ctx.emit(events.PromotionsSkipped(warband=band.id, elite=at_start))
        finish_step(ctx, band, battle, "promotions")
        return
    deeds = battle.record.deeds
    extra = [rules.ExtraPromotionDice(source_id=source, dice=dice)
             for source, dice in counted("--extra", cmd.extra).items()]
    pool = rules.promotion_pool(deeds, extra, tables)
    if since(ctx, "1.1.0"):  # 1.0.0 took extra dice on the player's word (README, Versions)
        rules.refuse_extra_dice_without_holders(extra, roster, tables)
    eligibility = rules.promotion_eligibility(roster, band.faction, tables, head_wound_elite=head_wound_promotion(state))
    eligible = [f.fighter_id for f in eligibility.eligible]
    if cmd.even:
        assignment = rules.even_spread(eligible, pool.size)
    elif not assignment and eligible:
        raise BadInput("assign the Promotion Dice to Troops (e.g. --assign Anna=2) or ask for an even spread (--even)")
    rules.validate_assignment(assignment, eligibility, pool.size)
    order = roll_order(state, band, cmd.order, assignment, eligible)
    ctx.emit(
        events.PromotionPoolFormed(
            warband=band.id,
            size=pool.size,
            base=pool.base,
            glorious_deeds=pool.glorious_deeds,
            extra=[events.ExtraDice(source=e.source_id, dice=e.dice) for e in pool.extra],
            assignment={f: n for f, n in assignment.items() if n},
            order=order,
            excluded=[events.Excluded(fighter=e.fighter_id, reason=e.reason, row=e.row_id) for e in eligibility.excluded],
            streak=streak,
        )
    )
    def tell(die: rules.PromotionDie, number: int, roll: int) -> None:
        ctx.emit(
            events.PromotionDieRolled(
                warband=band.id,
                fighter=die.fighter_id,
                roll=roll,
                die=number,
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

    told = 0  # dice whose events are out

    def step(rolled: Rolled) -> rules.PromotionStepResult:
        heard = 0

        def on_die(die: rules.PromotionDie) -> None:
            # `resolve` runs the rule again with each new die, which tells the earlier dice again: each
            # die's events are emitted once, before the next die is rolled (the rule rolls with `rolled.next`).
            nonlocal heard, told
            heard += 1
            if heard > told:
                told = heard
                tell(die, heard, rolled.numbers[str(heard - 1)])

        return rules.resolve_promotion_step(
            roster, band.faction, tables, deeds=deeds, extra_dice=extra, assignment=assignment, order=order,
            faces=rolled, streak=streak, stop_rule=campaign_options(state).promotion_stop_rule, on_die=on_die,
            head_wound_elite=head_wound_promotion(state),
            natural_sixes=since(ctx, "1.6.0"), elite_at_phase_start=at_start,  # 1.5.0 recorded a 6 after 5 failures as counted as a 6 (README, Versions)
            purpose=lambda fighter_id, number, _: f"promotion die {number} of {len(order)} for {state.fighters[fighter_id].name}",
        )

    rolls = resolve(ctx, step).rolls
    if rolls is not None and rolls.unrolled and since(ctx, "1.7.0"):  # 1.6.0 left the dice not rolled unsaid
        stopper = rolls.dice[-1].fighter_id if rolls.stopped == "first-six" else ""
        ctx.emit(events.PromotionRollsStopped(warband=band.id, stopped=rolls.stopped, unrolled=rolls.unrolled,
                                              fighter=stopper))
    finish_step(ctx, band, battle, "promotions")


def assignment_by_model(state: CampaignState, band: Warband, assign: dict[str, int], *, refuse_twice: bool) -> dict[str, int]:
    """The Promotion Dice of each model (by id) as the player assigned them. From 1.3.0 a model named
    twice, in another case ("Anna", "anna"), is refused as `--assign` refuses the same name twice;
    1.0.0 to 1.2.0 kept the last count given and dropped the other without a word."""
    assignment: dict[str, int] = {}
    for ref, dice in counted("--assign", assign).items():
        fighter = member(state, band, ref)
        if refuse_twice and fighter.id in assignment:
            raise BadInput(f"--assign {fighter.name} is given twice")
        assignment[fighter.id] = dice
    return assignment


def counted(option: str, dice: dict[str, int]) -> dict[str, int]:
    """Promotion Dice given with `option` (`--assign MODEL=N`, `--extra SOURCE=N`). A count below 0 is
    malformed, like one that is not a number: bad input, not a rule's refusal (`--extra` said "Show Off
    adds 1 die per model with the skill, so it cannot add -1", exit 1)."""
    for ref, count in dice.items():
        if count < 0:
            raise BadInput(f"{option} {ref}: Promotion Dice cannot be negative ({count})")
    return dice


def roll_order(state: CampaignState, band: Warband, refs: list[str], assignment: dict[str, int], eligible: list[str]) -> list[str]:
    """The fighter of each die in rolling order: as given per die (a model named once per die it
    holds), or each named model's dice together (every model named once), or by default each
    model's dice together in roster order."""
    named = [member(state, band, ref).id for ref in refs]
    if len(set(named)) < len(named):  # a model named twice: the order is one entry per die
        rules.validate_roll_order(named, assignment, {f: state.fighters[f].name for f in {*named, *assignment}})
        return named
    holders = named or [f for f in eligible if assignment.get(f)]
    return list(rules.dice_in_fighter_order(assignment, holders, {f: state.fighters[f].name for f in {*holders, *assignment}}))


def promote(ctx: Context, band: Warband, fighter: Fighter, die: rules.PromotionDie) -> None:
    how = "a Promotion Die counted as a 6" if die.counted_as_six else "a 6 on a Promotion Die"
    ctx.emit(
        ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=rules.ELITE, reason=f"Promotion: {how}"),
        ev.FighterPromoted(warband=band.id, fighter=fighter.id, role="elite", reason=f"Promotion: {how}"),
    )
    if fighter.xp:
        ctx.emit(ev.XPSpent(warband=band.id, fighter=fighter.id, amount=fighter.xp,
                            on="Promotion: an ELITE begins with 0 Experience Points"))
