"""What several handlers do alike: begin and finish a Campaign Phase step, grant XP, send kit to the Arsenal."""

from __future__ import annotations



from ledger import events as ev
from ledger.decide import Context
from ledger.state import CampaignState, Fighter, Warband

from commands.kit import since
from commands.trench_crusade import events
from commands.trench_crusade import rules
from commands.trench_crusade.model import (
    CampaignBattle,
    latest_battle,
    tables_for,
)
from commands.trench_crusade.phase import PHASE


def begin_step(state: CampaignState, band: Warband, step: str) -> CampaignBattle:
    """The latest battle, as the Campaign Phase reads it, once the phase lets this step begin."""
    PHASE.begin(state, band, step)
    return latest_battle(state, band)


def finish_step(ctx: Context, band: Warband, battle: CampaignBattle, step: str) -> None:
    PHASE.finish(ctx, band, battle.number, step)

# --- shared consequences ---------------------------------------------------------------------


def give_xp(ctx: Context, band: Warband, grant: rules.XpGrant, reason: str) -> None:
    """XP as the rules granted it; the event keeps the amount asked for when a cap cut it. A Head
    Wound blocks XP, it caps nothing: from 1.5.0 the award says so ("blocked by a Head Wound: 1 XP
    not gained"), where 1.0.0 to 1.4.0 recorded it as a cap ("capped from 1", `requested`)."""
    block_worded = grant.blocked and since(ctx, "1.5.0")
    if block_worded:
        reason += f" (blocked by a Head Wound: {grant.requested} XP not gained)"
    elif grant.blocked:
        reason += " (Head Wound: gains no more XP)"
    elif grant.capped:
        reason += f" (capped: at most {grant.cap} XP{' as ' + grant.cap_row_id if grant.cap_row_id else ''})"
    ctx.emit(
        ev.XPAwarded(
            warband=band.id,
            fighter=grant.fighter_id,
            amount=grant.granted,
            reason=reason,
            requested=grant.requested if grant.granted < grant.requested and not block_worded else None,
        )
    )
    earn_advancements(ctx, band, grant.fighter_id, grant.advancement_circles)


def earn_advancements(ctx: Context, band: Warband, fighter_id: str, reached: tuple[str, ...]) -> None:
    """One Advancement Roll owed per advancement circle the model's XP reached."""
    circles = {circle.id: circle.xp for circle in tables_for(ctx.state).experience.advancement_circles}
    for circle in reached:
        ctx.emit(events.AdvancementEarned(warband=band.id, fighter=fighter_id, circle=circle, xp=circles[circle]))


def kit_to_arsenal(ctx: Context, band: Warband, fighter: Fighter, reason: str) -> None:
    for item in list(fighter.equipment):
        ctx.emit(
            ev.ItemLost(warband=band.id, fighter=fighter.id, item=item, reason=reason),
            ev.ItemGained(warband=band.id, item=item, reason=f"from {fighter.name}: {reason}"),
        )
