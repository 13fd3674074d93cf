"""Trading: wyrdstone, selling, the rare-item search, buying, upkeep, reinforcing henchmen."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple

import msgspec


from commands.coreheim import events
from commands.coreheim import facts
from commands.coreheim import model
from commands.coreheim import outcomes
from commands.coreheim import rules
from commands.coreheim.commands import (
    Buy,
    RareSearch,
    Reinforce,
    Search,
    Sell,
    SellShards,
    Upkeep,
)
from commands.coreheim.phase import PHASE
from commands.coreheim.tables import CoreheimTables, WarbandList
from commands.kit.versions import since
from commands import shared
from commands.shared import GainItem, LoseItem
from ledger import events as ev
from ledger import rulesets
from ledger.decide import Context, check_answers, loose_key, warriors_named, written_as
from ledger.dice import lowest_value
from ledger.describe import plural
from ledger.errors import AnswerRefused, BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband
from ledger.text import possessive
from projections.battles import out_of_action


# --- trading -------------------------------------------------------------------------------------------


def gain_item(cmd: GainItem, ctx: Context) -> None:
    """`campaign item gain`: from version 10 an item the tables know is kept under its id, as `buy` and the exploration
    keep it, so that "Ithilmar Dagger" is the ithilmar-dagger `reinforce --price` and `sell` name. Version 9 kept the
    name as typed, which none of them matched."""
    if since(ctx, "10") and cmd.item.strip():
        cmd = msgspec.structs.replace(cmd, item=model.item_id(model.tables_for(ctx.options), cmd.item, chart=True))
    shared.gain_item(cmd, ctx)


def lose_item(cmd: LoseItem, ctx: Context) -> None:
    """`campaign item lose`: from version 10 the item named by its name or id, as `gain_item` keeps it; one a
    campaign kept as typed before version 10 is still found under that name."""
    if since(ctx, "10"):
        state = ctx.state
        band = state.warband(cmd.warband)
        held = state.fighter(cmd.fighter, band.id).equipment if cmd.fighter else band.stash
        item = model.item_id(model.tables_for(ctx.options), cmd.item, chart=True)
        if cmd.item not in held:
            cmd = msgspec.structs.replace(cmd, item=item)
    shared.lose_item(cmd, ctx)


def sell_shards(cmd: SellShards, ctx: Context) -> None:
    """Trading 1: sell wyrdstone; the price depends on the warband's size (Hired Swords excluded)."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = PHASE.begin(state, band, "sell-shards")
    if cmd.shards < 0:
        raise BadInput("shards sold cannot be negative")
    if cmd.shards:
        sale = rules.sell_wyrdstone(cmd.shards, shards_held=facts.of(state).shards(band.id),
                                    warriors=model.warband_size(state, band), tables=tables, warband=band.name)
        # Version 8 said "sold 1 wyrdstone shards".
        sold = plural(sale.shards_sold, "wyrdstone shard") if since(ctx, "9") else f"{sale.shards_sold} wyrdstone shards"
        ctx.emit(
            events.ShardsChanged(warband=band.id, delta=-sale.shards_sold, reason="sold", row=sale.row_id),
            ev.TreasuryChanged(warband=band.id, delta=sale.gold, reason=f"sold {sold}", row=sale.row_id),
        )
    PHASE.finish(ctx, band, battle, "sell-shards")


def _holder(state: Any, band: Warband, ref: str | None) -> tuple[Fighter | None, list[str], str]:
    if ref is None:
        return None, band.stash, f"{possessive(band.name)} stash"
    fighter = model.member(state, band, ref)
    if fighter.role == model.HIRED_SWORD:
        raise RuleViolation(f"{fighter.name} is a Hired Sword: he neither buys nor sells gear")
    return fighter, fighter.equipment, fighter.name


def _base_price(row: Any, item: str, given: int | None) -> tuple[int, str | None, int]:
    """(fixed price, dice added to it, what the dice are multiplied by) from the tables, or the
    price the player gives."""
    if row is not None and row.price is not None:
        if given is not None and given != row.price.fixed:
            raise RuleViolation(f"{row.name} is priced {row.price.fixed} gc by the tables, not {given}")
        return row.price.fixed, row.price.dice, row.price.times
    if given is None:
        raise RuleViolation(f"the tables give {row.name if row else item} no price: give its list price with --price")
    if given < 0:
        raise BadInput("a price cannot be negative")
    return given, None, 1


def _room_for_mounts(state: Any, band: Warband, tables: Any, joining: int, who: str) -> None:
    """Mounts are members of the warband (version 4): `joining` more, mounts among them, must fit."""
    size, most = model.warband_size(state, band), model.band_list(band, tables)[0].max_size
    if size + joining > most:
        raise RuleViolation(f"{band.name} has {size} members; {who} would pass its maximum of {most} "
                            f"(mounts count towards it, 1.10)")


def _room_for_mount(state: Any, band: Warband, tables: Any, rider: Fighter) -> None:
    """A mount bought for a warrior who rides none: one for each member of his group."""
    _room_for_mounts(state, band, tables, rider.group_size, f"{plural(rider.group_size, 'mount')} for {rider.name}")


def sell(cmd: Sell, ctx: Context) -> None:
    """Trading 2: half the base price, rounded down (of the fixed part, for "15+2D6"); a group
    sells the item of every member."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    PHASE.open_window(state, band, "sell equipment")
    fighter, items, owner = _holder(state, band, cmd.fighter)
    chart = since(ctx, "2")
    item = model.item_id(tables, cmd.item, chart=chart)
    if item not in items:
        raise RuleViolation(f"{owner} has no {item}")
    price, _dice, _times = _base_price(model.priced_row(tables, item, chart=chart), item, cmd.price)
    members = fighter.group_size if fighter else 1
    gold = rules.sale_value(price) * members
    each = f" x{members}" if members > 1 else ""
    ctx.emit(ev.ItemLost(warband=band.id, fighter=fighter.id if fighter else None, item=item, reason="sold"))
    if gold:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=gold, reason=f"sold {item}{each} (half of {price} gc)",
                                    row=f"equipment:{item}"))


def search(cmd: Search, ctx: Context) -> None:
    """Trading 3: each hero not taken out of action may look for one rare item: 2D6 >= rarity."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = PHASE.begin(state, band, "search")
    chart = since(ctx, "2")
    out = out_of_action(battle, band.id, state)
    if ctx.typed_now:
        # Every search is checked before the first roll: refused after another hero's ledger dice,
        # it would have shown them and left the search pending.
        refuse_hero_named_twice(state, band, [wanted.hero for wanted in cmd.searches])
        for wanted in cmd.searches:
            hero, _item, _rarity = _sought(state, tables, band, wanted, chart)
            rules.check_rare_searcher(hero.name, role=_searcher_role(hero), out_of_action=hero.id in out,
                                      already_searched=False)
    searched: set[str] = set()
    for wanted in cmd.searches:
        hero, item, rarity = _sought(state, tables, band, wanted, chart)
        roll = ctx.roll("2D6", purpose=f"{hero.name} looks for {item}")
        found = rules.search_rare_item(
            roll.faces, searcher=hero.name, role=_searcher_role(hero), rarity=rarity,
            out_of_action=hero.id in out, already_searched=hero.id in searched,
            skills=hero.skills, wears_cathayan_silks="cathayan-silks" in hero.equipment, tables=tables,
        )
        searched.add(hero.id)
        # What added to the dice is said from version 7 (a total past the dice was unexplained).
        ctx.emit(events.RareItemSearched(warband=band.id, battle=battle.number, fighter=hero.id, item=item,
                                         rarity=rarity, total=found.total, found=found.found,
                                         bonuses=list(found.bonuses) if since(ctx, "7") else []))
    PHASE.finish(ctx, band, battle, "search")


def refuse_hero_named_twice(state: CampaignState, band: Warband, heroes: Iterable[str]) -> None:
    """A hero named twice in one search command, looking for items or for none ('--search Gunnar=nothing'), is the
    command's mistake (the step is done once a post-game), not a search he made: bad input. The CLI hands it every
    hero typed, those looking for none too, whom the command it records leaves out."""
    named: set[str] = set()
    for ref in heroes:
        hero = state.fighter(ref, band.id)
        if hero.id in named:
            raise BadInput(f"--search names {hero.name} twice: each hero looks for one rare item a post-game")
        named.add(hero.id)


def _sought(state: CampaignState, tables: CoreheimTables, band: Warband, wanted: RareSearch,
            chart: bool) -> tuple[Fighter, str, int]:
    """The hero a search names, the item and the rarity his 2D6 must reach."""
    hero = model.member(state, band, wanted.hero)
    row = model.priced_row(tables, wanted.item, chart=chart)
    item = model.item_id(tables, wanted.item, chart=chart)
    if chart and row is not None and row.rarity is None:
        raise RuleViolation(f"{row.name} is common: it is bought without looking for it")
    rarity = row.rarity if row is not None and row.rarity is not None else wanted.rarity
    if rarity is None:
        raise RuleViolation(f"the tables give {item} no rarity: give it as {hero.name}={item}:RARITY")
    if wanted.rarity is not None and wanted.rarity != rarity:
        raise RuleViolation(f"{item} is rare {rarity} by the tables, not {wanted.rarity}")
    return hero, item, rarity


def _searcher_role(hero: Fighter) -> str:
    return "hero" if hero.role in model.HEROES else hero.role


def _known_to_buy(typed: str, row: Any, found: bool) -> None:
    """What can be bought is on the price chart, or was found this post-game (an item the chart does
    not list, looked for with its rarity); a rarity belongs to the search, not to the purchase."""
    name, colon, rarity = typed.partition(":")
    if colon:
        raise BadInput(f"'{typed}': buy the item by its name alone ({name.strip()}); "
                       f"a rarity ({rarity.strip()}) is given only when looking for it")
    if row is None and not found:
        raise BadInput(f"'{typed}' is not on the price chart (and no hero found it this post-game): "
                       f"name an item of `campaign coreheim items`, or add it with a house rule's price_chart")


def _may_have(row: Any, fighter: Fighter | None, band: Warband, *, fought: bool) -> None:
    """1.11: Miscellaneous Equipment, Mounts and Powdermonkeys wait for the warband's first battle;
    only heroes use Miscellaneous Equipment, and a hero carries one of each."""
    if row.after_first_battle and not fought:
        raise RuleViolation(f"{row.name} can be bought only after {possessive(band.name)} first battle (1.11)")
    if not row.miscellaneous or fighter is None:
        return
    if fighter.role not in model.HEROES:
        raise RuleViolation(f"{row.name} is Miscellaneous Equipment, which only heroes use: {fighter.name} is a {fighter.role} "
                            f"(buy it into the stash for a hero)")
    if row.id in fighter.equipment:
        raise RuleViolation(f"{fighter.name} already carries {row.name}: a hero carries one of each Miscellaneous Equipment (1.11)")


def _listed_for_creation(row: Any, band: Warband, tables: Any) -> None:
    """2.4: "At warband creation, rare items listed on your roster can be bought without rarity
    rolls" (version 6): a rare item the warband list does not print waits for the first battle,
    after which a hero may look for it. A house rule's list that prints no equipment limits none."""
    listing = model.band_list(band, tables)[0]
    listed = model.listed_items(listing)
    if listed is None or row.id in listed:
        return
    on_it = ", ".join(item.name for item in tables.price_chart.items if item.rarity is not None and item.id in listed)
    raise RuleViolation(f"{row.name} is rare ({row.rarity}) and not on the {listing.name} warband list: at warband creation "
                        f"only rare items on the list are bought without a roll (2.4; on it: {on_it or 'none'}); "
                        f"after {possessive(band.name)} first battle a hero may look for it")


def _bought_already(state: CampaignState, item: str, bought: int, battle: int) -> str:
    """Why a rare item found and bought is not bought again: what was found is bought once, and the search
    (trading 3) is over once buying (trading 4) begins."""
    name = rulesets.row_name(state, "item", item)
    found = f"the {name}" if bought == 1 else f"the {plural(bought, name)}"
    return (f"{found} found after battle {battle} {'was' if bought == 1 else 'were'} bought already: a rare item found "
            f"is bought once, and a hero may look for another after the next battle")


def buy(cmd: Buy, ctx: Context) -> None:
    """Trading 4: a rare item must have been found this post-game (at creation, from version 6, be
    on the warband list); a price with dice ("30+2D6") is rolled; a henchman group buys one for each
    member. From version 9 a price rolled holds for that item until the post-game's trading ends,
    and rolled too dear it is recorded and buys nothing: ledger dice rolled and then refused left
    the purchase pending, and voided, a new `buy` rolled a new price (a re-roll for free)."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    PHASE.open_window(state, band, "buy equipment")
    fighter, _items, _owner = _holder(state, band, cmd.fighter)
    chart = since(ctx, "2")
    item = model.item_id(tables, cmd.item, chart=chart)
    row = model.priced_row(tables, item, chart=chart)
    battle = PHASE.latest_battle(state, band)
    band_facts = facts.of(state).warband(band.id)
    found = band_facts.found_after(battle.number) if battle else []
    if chart:
        _known_to_buy(cmd.item, row, item in found)
    if since(ctx, "4") and row is not None:
        _may_have(row, fighter, band, fought=battle is not None)
    # From version 2 the price chart gives every item's rarity; an item it does not list was found
    # with the rarity its search gave.
    rare = item in found or (row is not None and row.rarity is not None)
    if rare and battle is not None and item not in found:
        if bought := band_facts.bought_after(battle.number).count(item):
            raise RuleViolation(_bought_already(state, item, bought, battle.number))
        raise RuleViolation(f"{item} is rare ({row.rarity if row else '?'}): a hero must find it this post-game first")
    if rare and battle is None and since(ctx, "6"):  # version 5 sold any rare item unfound before the first battle
        _listed_for_creation(row, band, tables)
    price, dice, times = _base_price(row, item, cmd.price)
    members = fighter.group_size if fighter else 1
    each = f" x{members}" if members > 1 else ""
    rolls_price = since(ctx, "9")  # the price a roll gives is recorded, and holds for the post-game
    window = battle.number if battle else None
    held = facts.of(state).warband(band.id).price_rolled(window, item) if dice and rolls_price else None
    if held is not None:
        price, dice = held, None
    if dice and ctx.typed_now:
        # Refused before the price roll when even its lowest is too dear: refused after it, ledger
        # dice would leave the purchase pending, which only a void ends.
        lowest = (price + lowest_value(dice) * times) * members
        if lowest > band.treasury:
            raise RuleViolation(f"{band.name} has {band.treasury} gc; {item}{each} costs "
                                f"{model.price_text(row.price)}{' each' if each else ''}, at least {lowest} gc")
    needs_room = fighter is not None and since(ctx, "4") and model.is_mount(tables, item) and not outcomes.mounts_of(ctx, fighter)
    # What does not hang on the price is settled before it is rolled (typed now, or from version 9): after it,
    # a refusal or a question would leave the price seen and the purchase pending.
    room_checked_first = needs_room and (ctx.typed_now or rolls_price)
    if room_checked_first:
        _room_for_mount(state, band, tables, fighter)
    if (why := outcomes.holder_not_asked(ctx, band, battle, item, fighter)) is not None:
        ctx.not_asked("map-holder", why)
    if rolls_price and battle is not None:
        outcomes.name_whom_gaining_decides(ctx, band, battle, item, fighter)
    if dice:
        price += ctx.roll(dice, purpose=f"price of {item}").value * times
        if rolls_price:
            ctx.emit(events.PriceRolled(warband=band.id, battle=window, item=item, price=price,
                                        bought=price * members <= band.treasury))
    total = price * members
    if total > band.treasury:
        if dice and rolls_price:
            return  # the price rolled is recorded too dear: it holds, and nothing is bought
        rolled_earlier = f", at the price rolled for it earlier{f' ({price} gc each)' if each else ''}" if held is not None else ""
        raise RuleViolation(f"{band.name} has {band.treasury} gc; {item}{each} costs {total} gc{rolled_earlier}")
    if needs_room and not room_checked_first:
        _room_for_mount(state, band, tables, fighter)
    if total:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-total, reason=f"bought {item}{each}", row=f"equipment:{item}"))
    ctx.emit(ev.ItemGained(warband=band.id, fighter=fighter.id if fighter else None, item=item, reason=f"bought for {price} gc"))
    if rare and battle is not None:
        ctx.emit(events.RareItemBought(warband=band.id, battle=battle.number, item=item))
    if since(ctx, "5") and battle is not None:  # version 4 rolled only for an item found exploring
        outcomes.on_gain(ctx, band, battle, item, fighter)


def upkeep(cmd: Upkeep, ctx: Context) -> None:
    """Trading 5: each Hired Sword's upkeep, after every game; unpaid, he leaves. A sword the
    underdog bonus brought to this battle is kept the same way, from this first upkeep on."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = PHASE.begin(state, band, "upkeep")
    dwarves = any(model.warrior(state, f).race == "dwarf" for f in state.fighters_of(band.id))
    underdog_sword = facts.of(state).warband(band.id).underdog_of(battle.number).sword
    for sword in [f for f in state.fighters_of(band.id) if f.role == model.HIRED_SWORD]:
        sword_type = model.warrior(state, sword).type
        fee = rules.hired_sword_upkeep(sword_type, warband_has_dwarves=dwarves, tables=tables)
        treasury = state.warbands[band.id].treasury
        asked = f"Pay {outcomes.whose(ctx, sword.name)} upkeep of {fee} gc ({band.name} has {treasury} gc)?"
        answer = ctx.choose(f"{sword.id}:upkeep", asked, ["pay", "release"])
        if answer == "release":
            came = f" (came for battle {battle.number} with the underdog bonus)" if sword.id == underdog_sword else ""
            ctx.emit(ev.FighterRetired(warband=band.id, fighter=sword.id, reason=f"left{came}: upkeep not paid"))
        elif fee > treasury:
            raise RuleViolation(f"{band.name} has {treasury} gc; {possessive(sword.name)} upkeep is {fee} gc")
        elif fee:
            ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-fee, reason=f"upkeep of {sword.name}",
                                        row=f"hired-sword:{sword_type}"))
    PHASE.finish(ctx, band, battle, "upkeep")


MOST_A_D6_GIVES = 6  # the reinforcing D6's highest face: no roll pays for a plan that needs more


class GearPrice(NamedTuple):
    """An item each recruit to a group carries, priced as `buy` prices it before any roll."""

    item: str
    fixed: int  # the price, or its fixed part
    dice: str | None  # added to it, rolled
    times: int  # what the dice are multiplied by
    count: int  # how many a recruit carries

    def lowest(self) -> int:
        return (self.fixed + (lowest_value(self.dice) * self.times if self.dice else 0)) * self.count


def _gear_priced(group: Fighter, prices: dict[str, int], held: dict[str, int], tables: CoreheimTables) -> list[GearPrice]:
    """The items a recruit to `group` carries, each at its price as `buy` takes it (a price with dice held from a roll
    in this post-game, `held`, is that price), or `prices`' for one the tables do not price: refused, before any roll,
    for one priced by neither or given a price unlike the tables'."""
    if unpriced := _unpriced_gear(group, prices, tables):
        raise RuleViolation(unpriced)
    priced = []
    for item in dict.fromkeys(group.equipment):
        row = model.priced_row(tables, item, chart=True)
        fixed, dice, times = _base_price(row, item, prices.get(item))
        if dice and item in held:
            fixed, dice = held[item], None
        priced.append(GearPrice(item, fixed, dice, times, group.equipment.count(item)))
    return priced


def _unpriced_gear(group: Fighter, prices: dict[str, int], tables: CoreheimTables) -> str:
    """Why a recruit to `group` cannot be priced: an item he carries that neither the tables nor --price price ("": none)."""
    for item in dict.fromkeys(group.equipment):
        row = model.priced_row(tables, item, chart=True)
        if (row is None or row.price is None) and item not in prices:
            return (f"the tables give {item} no price: a recruit to {group.name} carries one, "
                    f"give its base price with --price {item}=GC")
    return ""


def _recruit_gear(group: Fighter, priced: list[GearPrice], ctx: Context, rolled: dict[str, int] | None) -> dict[str, int]:
    """What a recruit pays for each item his group carries: a price with dice is rolled once for the group's recruits,
    and, given `rolled` (version 10), once in the command: the prices rolled are kept there."""
    paid: dict[str, int] = {}
    for gear in priced:
        price = gear.fixed
        if gear.dice and rolled is not None and gear.item in rolled:
            price = rolled[gear.item]
        elif gear.dice:
            purpose = f"price of {gear.item} for {outcomes.whose(ctx, group.name)} recruits"
            price += ctx.roll(gear.dice, purpose=purpose).value * gear.times
            if rolled is not None:
                rolled[gear.item] = price
        paid[gear.item] = price * gear.count
    return paid


def _recruits_cost(groups: list[Fighter], wanted: dict[str, int], gear_each: dict[str, int]) -> int:
    """What the recruits wanted cost: each what a member of his group cost, and his gear (`gear_each`, by group)."""
    return sum((g.cost + gear_each.get(g.id, 0)) * wanted.get(g.id, 0) for g in groups)


def _xp_needed(groups: list[Fighter], wanted: dict[str, int]) -> int:
    return sum(g.xp * wanted.get(g.id, 0) for g in groups)


def _recruits_asked(groups: list[Fighter], wanted: dict[str, int]) -> str:
    """The recruits wanted, as a reason says them: "the recruits asked for (2 for Veterans at 3 XP, …)"."""
    asked = ", ".join(f"{n} for {g.name} at {g.xp} XP" for g in groups if (n := wanted.get(g.id, 0)))
    return f"the recruits asked for ({asked})"


def _recruits_room(group: Fighter, budget: int, tables) -> int:
    """The most recruits a group can take on its own: the places left in it, and what the
    experience rolled pays for (recruits into a 0-XP group use none of it)."""
    room = tables.warbands.max_henchman_group_size - group.group_size
    return min(room, budget // group.xp) if group.xp else room


def _why_none(group: Fighter, budget: int, tables, too_dear: str = "") -> str:
    """Why a group takes no recruit: it is full, a recruit needs more experience than was rolled
    (rules 2.4: "Each new recruit joins an existing group at that group's XP"), costs more than the treasury holds
    (`too_dear`, version 11), or none was wanted."""
    if group.group_size >= tables.warbands.max_henchman_group_size:
        return f"{group.name} is full ({group.group_size})"
    if not _recruits_room(group, budget, tables):
        return f"a recruit for {group.name} needs {group.xp} XP"
    return too_dear or f"none wanted for {group.name}"


class RecruitCost(NamedTuple):
    """What a recruit to a group costs at the least: his hire and his gear at the lowest prices their dice give."""

    gc: int
    rolled: bool  # dice may make it more

    def said(self) -> str:
        return f"{'at least ' if self.rolled else ''}{self.gc} gc"


def _recruit_costs(groups: list[Fighter], prices: dict[str, int], held: dict[str, int],
                   tables: CoreheimTables) -> dict[str, RecruitCost]:
    """What a recruit to each group costs at the least, but for a group whose gear nothing prices (which holds the
    roll, or is refused, for the --price it wants)."""
    costs = {}
    for group in groups:
        if not _unpriced_gear(group, prices, tables):
            gear = _gear_priced(group, prices, held, tables)
            lowest = group.cost + sum(item.lowest() for item in gear)
            costs[group.id] = RecruitCost(lowest, any(item.dice for item in gear))
    return costs


def _recruits_wanted(ctx: Context, band: Warband, groups: list[Fighter], budget: int, pays_for: int,
                     costs: dict[str, RecruitCost] | None, too_dear: dict[str, str]) -> dict[str, int]:
    """The recruits each group takes, asked in turn: those it has room for and `pays_for` XP pays for, and, given
    `costs` (version 11), the treasury left by the groups asked before it (at their lowest prices); a group the
    treasury can pay for none of says why in `too_dear`. Version 10 offered recruits the treasury then refused."""
    tables, left = model.tables_for(ctx.options), band.treasury
    wanted: dict[str, int] = {}
    for g in groups:
        room = _recruits_room(g, pays_for, tables)
        question = f"Recruits for {g.name} ({g.group_size} at {g.xp} XP; {budget} XP to spend)?"
        cost = costs.get(g.id) if costs is not None else None
        if cost is not None:
            if cost.gc and left // cost.gc < room:
                room = left // cost.gc
                if not room:
                    too_dear[g.id] = f"a recruit for {g.name} costs {cost.said()}, and {band.name} has {left} gc"
            question = (f"Recruits for {g.name} ({g.group_size} at {g.xp} XP, {cost.said()} each; "
                        f"{budget} XP and {left} gc to spend)?")
        wanted[g.id] = int(ctx.choose(f"{g.id}:recruits", question, [str(n) for n in range(room + 1)]))
        left -= wanted[g.id] * (cost.gc if cost is not None else 0)
    return wanted


def _within_list_limits(state: CampaignState, band: Warband, listing: WarbandList, groups: list[Fighter],
                        wanted: dict[str, int]) -> None:
    """Recruits count toward their type's limit in the list ("0-3 Greatswords"), as a hire does
    (version 5; version 4 let a group grow past it)."""
    recruits: dict[str, int] = {}
    for group in groups:
        type_id = model.warrior(state, group).type
        recruits[type_id] = recruits.get(type_id, 0) + wanted[group.id]
    for type_id, more in recruits.items():
        if more and (henchman := model.henchman_type(listing, type_id)) is not None:
            model.check_list_limit(state, band, henchman, more)


def _plan_checked(ctx: Context, band: Warband, groups: list[Fighter], wanted: dict[str, int], budget: int, *,
                  xp_checked: bool) -> None:
    """The recruits `wanted` fit their groups and the warband (and, `xp_checked`, the experience `budget`), the list's
    limit on their type (version 5), and, with the mounts they ride (version 4), the warband's maximum size."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    plans = [rules.Reinforcement(group=g.name, group_xp=g.xp, group_size=g.group_size, recruits=wanted[g.id])
             for g in groups if wanted.get(g.id)]
    listing = model.band_list(band, tables)[0]
    rules.plan_reinforcements(budget, plans, warband=listing.id, warband_size=model.warband_size(state, band), tables=tables,
                              xp_checked=xp_checked)
    if since(ctx, "5"):
        _within_list_limits(state, band, listing, groups, {g.id: wanted.get(g.id, 0) for g in groups})
    riders = sum(wanted.get(g.id, 0) for g in groups if since(ctx, "4") and outcomes.mounts_of(ctx, g))
    if riders:
        recruits = sum(wanted.values())
        _room_for_mounts(state, band, tables, recruits + riders,
                         f"{plural(recruits, 'recruit')} and the {plural(riders, 'mount')} they ride")


def _prices_given(cmd: Reinforce, tables: CoreheimTables) -> dict[str, int]:
    """--price ITEM=GC, by item id."""
    prices = {model.item_id(tables, item, chart=True): price for item, price in cmd.prices.items()}
    if len(prices) < len(cmd.prices):
        raise BadInput(f"--price names an item twice: {', '.join(cmd.prices)}")
    return prices


def _refuse_prices_unused(ctx: Context, prices: dict[str, int], carried: set[str]) -> None:
    """A --price for an item no group reinforced here carries (on version 3 for any: gear was not paid for)."""
    unused = sorted(set(prices) - carried)
    if unused and not since(ctx, "4"):
        raise BadInput(f"--price {', '.join(unused)}: on version {ctx.version} of the rules a recruit's gear is not paid for")
    if unused:
        raise BadInput(f"--price {', '.join(unused)}: no group reinforced here carries it")


def _refuse_too_dear_at_least(band: Warband, groups: list[Fighter], wanted: dict[str, int],
                              priced: dict[str, list[GearPrice]]) -> None:
    """Recruits the treasury cannot pay for even at the lowest prices their gear's dice give."""
    lowest = _recruits_cost(groups, wanted, {g: sum(gear.lowest() for gear in items) for g, items in priced.items()})
    if lowest > band.treasury:
        rolled = any(gear.dice for g in groups if wanted.get(g.id) for gear in priced.get(g.id, []))
        raise RuleViolation(f"{band.name} has {band.treasury} gc; the recruits cost {'at least ' if rolled else ''}{lowest} gc"
                            + (" (their gear's prices with dice at the lowest)" if rolled else ""))


def _answered_ahead(ctx: Context, key: str) -> str | None:
    """The key an answer was given under for `key` (None: none was)."""
    return key if key in ctx.answers else written_as(key, ctx.answers)


def _refuse_before_the_roll(cmd: Reinforce, ctx: Context, band: Warband, groups: list[Fighter], held: dict[str, int]) -> None:
    """What is refused whatever the D6 gives, refused before it is rolled (a command typed now): recruits answered
    ahead past what their group holds or a D6 pays for, or past the warband's or the list's limits; gear they carry
    that nothing prices, or priced unlike the tables; a --price no group that may be reinforced carries; and recruits
    the treasury cannot pay for even at their gear's lowest prices. Refused after it, ledger dice were seen and the
    reinforcing left pending with answers that stand, which only a void ended, and a new `reinforce` rolled anew."""
    tables = model.tables_for(ctx.options)
    # A group's key that names no warrior ("marksman:recruits") is no question of the command: checked after the
    # decision, with ledger dice it went pending with the D6, and the question for the group was asked after it.
    check_answers(cmd, [key for key in ctx.answers if ctx.answered_now(key) and loose_key(key).endswith(":recruits")],
                  ["reinforce", *(f"{g.id}:recruits" for g in groups)], warriors_named(ctx.state))
    ahead: dict[str, int] = {}
    for g in groups:
        typed = _answered_ahead(ctx, f"{g.id}:recruits")
        if typed is None:
            continue
        offered = [str(n) for n in range(_recruits_room(g, MOST_A_D6_GIVES, tables) + 1)]
        if ctx.answers[typed].strip() not in offered:
            raise AnswerRefused(f"Recruits for {g.name} ({g.group_size} at {g.xp} XP; a D6 gives at most {MOST_A_D6_GIVES} XP)?: "
                                f"'{ctx.answers[typed]}' is not one of: {', '.join(offered)}", [typed])
        ahead[g.id] = int(ctx.answers[typed])
    if (needed := _xp_needed(groups, ahead)) > MOST_A_D6_GIVES:
        raise RuleViolation(f"{_recruits_asked(groups, ahead)} need {needed} XP; a D6 gives at most {MOST_A_D6_GIVES}")
    _plan_checked(ctx, band, groups, ahead, MOST_A_D6_GIVES, xp_checked=False)
    prices = _prices_given(cmd, tables)
    joining = [g for g in groups if ahead.get(g.id)]
    priced = {g.id: _gear_priced(g, prices, held, tables) for g in joining} if since(ctx, "4") else {}
    may_join = [g for g in groups if ahead.get(g.id, 1)]  # one not answered ahead may take recruits
    _refuse_prices_unused(ctx, prices, {item for g in may_join for item in g.equipment} if since(ctx, "4") else set())
    _refuse_too_dear_at_least(band, groups, ahead, priced)


# The reason a recruit's gear is paid for with ("the gear of 2 recruits for Marksmen: bow, dagger (7 gc each)") up to an
# item it lists: the log says the items by their names (`Ruleset.ids_cited_after`).
RECRUITS_GEAR = re.compile(r"^the gear of \d+ recruits? for .+: (?:[^,()]+, )*$")


def reinforce(cmd: Reinforce, ctx: Context) -> None:
    """Trading 7: a D6 is the experience available; each recruit joins a group at its XP and uses
    that much of it (0-XP groups cost none); he costs what a member of his group cost and, from
    version 4, his group's gear (a group's members have identical equipment, 2.4).

    From version 10 the D6 stands once rolled ("roll a D6: this is the total amount of experience available"):
    recruits it cannot pay for, or whose gear's prices rolled too dear for the treasury, are recorded with it and
    none joins (`coreheim.reinforcement-roll-held`); it holds until the step is done, and the next `reinforce`
    spends it, rolling no D6. A gear price with dice is rolled once in the post-game, as `buy` rolls it (one it
    rolled is paid), and holds. Version 9 refused after the roll: with ledger dice the reinforcing was left
    pending, and voided, a new `reinforce` rolled a new D6 (a re-roll for free). From version 11 a group is offered
    the recruits the treasury pays for at their lowest prices (version 10 offered more, refused once answered)."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = PHASE.begin(state, band, "reinforce")
    groups = [f for f in state.fighters_of(band.id) if f.role == model.HENCHMAN]
    holds = since(ctx, "10")  # the D6 and the gear prices rolled stand, and hold for the post-game
    band_facts = facts.of(state).warband(band.id)
    held = band_facts.reinforcement_roll(battle.number) if holds else None
    held_prices = band_facts.prices_rolled(battle.number) if holds else {}
    rolled_for = f"{held} XP rolled for them already" if held is not None else "a D6 gives the experience available"
    question = f"Reinforce {outcomes.whose(ctx, band.name)} henchman groups ({rolled_for})?"
    wanted: dict[str, int] = {}
    budget = 0
    prices = _prices_given(cmd, tables)
    if groups and ctx.choose("reinforce", question, ["yes", "no"]) == "yes":
        if ctx.typed_now:
            _refuse_before_the_roll(cmd, ctx, band, groups, held_prices)
        # Version 11 offers the recruits the treasury pays for: what they cost at the least is known before the roll.
        costs = _recruit_costs(groups, prices, held_prices, tables) if since(ctx, "11") else None
        budget = held if held is not None else ctx.roll("D6", purpose=f"reinforcements of {band.name}").value
        # Version 10 offers what a group holds and a D6 may pay for: recruits the roll does not pay for are recorded.
        too_dear: dict[str, str] = {}
        wanted = _recruits_wanted(ctx, band, groups, budget, MOST_A_D6_GIVES if holds else budget, costs, too_dear)
        _plan_checked(ctx, band, groups, wanted, budget, xp_checked=not holds)
        if not any(wanted.values()) and since(ctx, "7"):  # version 6 rolled the die and said nothing more
            ctx.emit(ev.NoteRecorded(text=f"no recruits join {band.name} ({budget} XP rolled): "
                                          + "; ".join(_why_none(g, budget, tables, too_dear.get(g.id, ""))
                                                      for g in groups),
                                     warband=band.id))
    reinforced = [g for g in groups if wanted.get(g.id)]
    paid_gear = since(ctx, "4")  # version 3 let recruits come with their group's gear unpaid
    unpriced = next(((g, why) for g in reinforced if paid_gear and (why := _unpriced_gear(g, prices, tables))), None)
    if unpriced is not None and holds and held is None:
        # The D6 stands (version 10): answered after it (`campaign answer`), a reinforce can be given no --price, so the
        # roll is held for the next `reinforce`, which can. Version 9 refused, and the pending reinforcing could only be
        # completed by answering no recruits for the group.
        ctx.emit(events.ReinforcementRollHeld(warband=band.id, battle=battle.number, xp=budget, reason=unpriced[1]))
        return
    if unpriced is not None and not ctx.typed_now:
        group, why = unpriced
        raise RuleViolation(f"{why}; answered later, a reinforce takes no --price: answer {group.id}:recruits=0")
    priced = {g.id: _gear_priced(g, prices, held_prices, tables) for g in reinforced} if paid_gear else {}
    _refuse_prices_unused(ctx, prices, {gear.item for items in priced.values() for gear in items})
    if ctx.typed_now or holds:
        _refuse_too_dear_at_least(band, groups, wanted, priced)
    if holds and (needed := _xp_needed(groups, wanted)) > budget:
        short = f"{_recruits_asked(groups, wanted)} need {needed} XP"
        if held is not None:
            raise RuleViolation(f"{short}; the roll held gives {held}")
        ctx.emit(events.ReinforcementRollHeld(warband=band.id, battle=battle.number, xp=budget, reason=short))
        return
    rolled: dict[str, int] | None = {} if holds else None
    gear = {g.id: _recruit_gear(g, priced[g.id], ctx, rolled) for g in reinforced} if priced else {}
    cost = _recruits_cost(reinforced, wanted, {g: sum(paid.values()) for g, paid in gear.items()})
    paid = cost <= band.treasury
    for item, price in (rolled or {}).items():  # each holds for the post-game, as one `buy` rolls
        ctx.emit(events.PriceRolled(warband=band.id, battle=battle.number, item=item, price=price, bought=paid))
    if not paid and holds:
        # Too dear at the prices rolled (refused before them when too dear at their lowest): the rolls stand.
        ctx.emit(events.ReinforcementRollHeld(warband=band.id, battle=battle.number, xp=budget,
                                              reason=f"{band.name} has {band.treasury} gc; the recruits cost {cost} gc"))
        return
    if not paid:
        raise RuleViolation(f"{band.name} has {band.treasury} gc; the recruits cost {cost} gc")
    for g in reinforced:
        n = wanted[g.id]
        recruits = f"{n} recruit{'' if n == 1 else 's'}"
        ctx.emit(events.GroupSizeChanged(warband=band.id, fighter=g.id, delta=n,
                                         reason=f"reinforced: {n} x {g.xp} XP of the {budget} rolled"))
        if g.cost:
            ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-g.cost * n, reason=f"{recruits} for {g.name}"))
        if each := sum(gear.get(g.id, {}).values()):
            ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-each * n,
                                        reason=f"the gear of {recruits} for {g.name}: {', '.join(gear[g.id])} ({each} gc each)"))
    PHASE.finish(ctx, band, battle, "reinforce")
