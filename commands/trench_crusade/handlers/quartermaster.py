"""The Quartermaster and Roster steps."""

from __future__ import annotations



from ledger import events as ev
from ledger.decide import Context
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Warband

from commands.trench_crusade import events
from commands.trench_crusade import rules
from commands.trench_crusade.commands import (
    Allocate,
    BuyKit,
    Quartermaster,
    Retire,
    Roster,
    SellKit,
)
from commands.trench_crusade.model import (
    member,
)
from commands.trench_crusade.phase import QUARTERMASTER, ROSTER
from commands.trench_crusade.handlers.consequences import begin_step, finish_step, kit_to_arsenal


# --- the Quartermaster and Roster steps ---------------------------------------------------------


def quartermaster_window(state: CampaignState, band: Warband, activity: str) -> None:
    """Quartermaster activities happen after Exploration (or Reinforcements) and before the step is done."""
    try:
        begin_step(state, band, QUARTERMASTER)
    except RuleViolation as error:
        raise RuleViolation(f"{band.name} can {activity} only in the Quartermaster step: {error}") from None


def _currency_word(currency: str) -> str:
    return "Glory" if currency == events.GLORY_POINTS else "ducats"


def funds(state: CampaignState, band: Warband, currency: str) -> int:
    """Ducats in the Strongbox (the treasury), or Glory Points."""
    return events.band_facts(state, band.id).glory if currency == events.GLORY_POINTS else band.treasury


def change_funds(ctx: Context, band: Warband, currency: str, delta: int, reason: str) -> None:
    if currency == events.GLORY_POINTS:
        ctx.emit(events.GloryChanged(warband=band.id, delta=delta, reason=reason))
    else:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=delta, reason=reason))


def known_currency(currency: str) -> str:
    if currency not in (events.DUCATS, events.GLORY_POINTS):
        raise BadInput(f"a price is paid in {events.DUCATS} or {events.GLORY_POINTS}, not {currency!r}")
    return currency


def retire(cmd: Retire, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    quartermaster_window(state, band, "retire a model")
    fighter = member(state, band, cmd.fighter)
    scars = events.model_facts(state, fighter.id).battle_scars or 0
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
    if cmd.glory_item and currency != events.GLORY_POINTS:
        raise RuleViolation("a Glory Item is bought with Glory, not ducats")
    quartermaster_window(state, band, "buy")
    item = cmd.item.strip()
    if cmd.price > funds(state, band, currency):
        raise RuleViolation(f"{band.name} has {funds(state, band, currency)} {_currency_word(currency)}; {item} costs {cmd.price}")
    if cmd.price:
        change_funds(ctx, band, currency, -cmd.price, f"bought {item}")
    ctx.emit(
        events.KitBought(warband=band.id, item=item, price=cmd.price, currency=currency,
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
    bought = events.band_facts(state, band.id).armoury.get(cmd.item)
    if bought is None:
        if cmd.price is None:
            raise RuleViolation(f"the ledger does not know what {band.name} paid for {cmd.item}: "
                                "give the price paid (--price, with --glory if it was paid in Glory)")
        if cmd.price < 0:
            raise BadInput(f"a price cannot be {cmd.price}")
        price, currency = cmd.price, known_currency(cmd.currency or events.DUCATS)
    else:
        price, currency = bought.price, bought.currency
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
    bought = events.band_facts(state, band.id).armoury.get(cmd.item)
    if bought is not None and bought.elite_only and rules.ELITE not in fighter.keywords:
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
