"""Coreheim's post-game sequence, declared (seed 002, section 2.1): the steps in the seed's order,
the trading actions open between them, and how the guided `campaign post-game WARBAND` builds
each step's command.

Steps, once per battle and in this order (each refuses to run early or twice):
explore → injuries → experience → advances → sell-shards → search → upkeep → reinforce.
Trading actions done any number of times sit between them, in the seed's trading order:
sell equipment (2) before the rare-item search (3), buy (4) before upkeep (5), hire (6) before
reinforcing (7). Before a warband's first battle they are always open. A warband finishes the
post-game of its last battle before it fights again.

The trading actions that take free input (sell or buy an item at a price, hire a warrior with his
profile) are not steps: each step's `before` says what may be done ahead of it, and at a terminal
the walk offers to stop there, since once the step is done that window is closed.
"""

from __future__ import annotations

import shlex

from commands.coreheim import facts
from commands.coreheim import model
from commands.coreheim import rules
from commands.coreheim.commands import (
    Advance, Experience, Explore, Injuries, RareSearch, Reinforce, Search, SellShards, Upkeep
)
from commands.coreheim.tables import CoreheimTables
from commands.kit import Phase, PhaseStep, Window
from commands.kit.versions import plays
from ledger.decide import BuildAsk, Command, loose_key, matches_key, warriors_named
from ledger.describe import plural
from ledger.errors import BadInput
from ledger.state import CampaignState, Fighter, Warband
from ledger.text import possessive
from projections.battles import out_of_action

NOTHING = "nothing"
SURVIVING_XP = 1  # what the experience step gives a henchman group that survives (seed 2.1, Experience 1)
# The hero a Talent! makes of a member of a henchman group, by the id his default name gives ("Marksmen (promoted 2)").
TALENT_HEROES = ("GROUP-promoted", "GROUP-promoted-N")
# His own advance, rolled at the advances that make him (`advances.hero_advance`'s questions).
TALENT_ADVANCES = tuple(f"{hero}:XP:{question}" for hero in TALENT_HEROES for question in model.HERO_ADVANCE_QUESTIONS)


def advances_done(state: CampaignState, band: Warband) -> bool:
    """Advances are over once experience was awarded and no warrior has a threshold left to roll."""
    tables = model.tables_for(state.options)
    return PHASE.is_done(state, band, "experience") and not any(
        model.pending_thresholds(state, f, tables) for f in state.fighters_of(band.id))


def advance_typed(band: Warband, fighter: Fighter | None = None, threshold: int | None = None) -> str:
    """`campaign coreheim advance …` as a player types it: every warrior's advances, or one warrior's (one threshold)."""
    one = f" {shlex.quote(fighter.name)}" if fighter is not None else ""
    return f"campaign coreheim advance {shlex.quote(band.name)}{one}" + (f" --threshold {threshold}" if threshold is not None else "")


def advances_owed(state: CampaignState, band: Warband) -> str:
    """Who has advances to roll, and the command that rolls them (for the next battle's refusal)."""
    tables = model.tables_for(state.options)
    owing = [f"{f.name} at {', '.join(map(str, thresholds))} XP" for f in state.fighters_of(band.id)
             if (thresholds := model.pending_thresholds(state, f, tables))]
    return f"owed: {'; '.join(owing)} — `{advance_typed(band)}` rolls them"


def _sell_shards(state: CampaignState, warband: str, ask: BuildAsk) -> Command:
    band = state.warbands[warband]
    tables = model.tables_for(state.options)
    held = facts.of(state).shards(band.id)
    most = min(held, max(row.shards for row in tables.wyrdstone_sale.rows))
    shards = int(ask(f"{band.name} holds {plural(held, 'shard')}: how many to sell?", [str(n) for n in range(most + 1)],
                     key="shards")) if most else 0
    return SellShards(warband=warband, shards=shards)


def _search(state: CampaignState, warband: str, ask: BuildAsk) -> Command:
    """Each hero not taken out of action may look for an item whose rarity the tables give (the
    price chart's, from version 2)."""
    band = state.warbands[warband]
    tables = model.tables_for(state.options)
    battle = PHASE.latest_battle(state, band)
    items = tables.price_chart.items if plays(state, "2") else tables.equipment.items
    rare = [item.id for item in items if item.rarity is not None]
    out = out_of_action(battle, band.id, state) if battle is not None else []
    searches = []
    for hero in model.heroes(state, band):
        if hero.id in out:
            continue
        wanted = ask(f"Which rare item does {hero.name} look for?", [NOTHING, *rare], key=f"{hero.id}:search")
        if wanted != NOTHING:
            searches.append(RareSearch(hero=hero.name, item=wanted))
    return Search(warband=warband, searches=searches)


def _surviving_xp_to_come(state: CampaignState, band: Warband) -> int:
    """The XP the walk's experience step, still to do, gives a henchman group (it gives it no other)."""
    return 0 if PHASE.is_done(state, band, "experience") else SURVIVING_XP


def _talent_thresholds(state: CampaignState, warband: str) -> dict[str, tuple[int, ...]]:
    """The henchman groups a Talent! may promote a member of in this advances step, by id, each with the
    thresholds it rolls there: a group of two or more (one of one is promoted itself, under its own id)
    with a threshold due, or due once the experience step still to do gives it the XP of surviving, and
    no Talent! this post-game already (from version 5)."""
    band = state.warbands[warband]
    tables = model.tables_for(state.options)
    gaining = _surviving_xp_to_come(state, band)
    return {group.id: thresholds for group in state.fighters_of(warband)
            if group.role == model.HENCHMAN and group.group_size >= 2
            and not model.talent_came_this_post_game(state, band, group)
            and (thresholds := model.pending_thresholds(state, group, tables, gaining))}


def talent_may_promote(state: CampaignState, warband: str) -> frozenset[str]:
    """The henchman groups of the warband one of whose members a Talent! may make a hero in this advances
    step, who rolls his own advance there and searches after."""
    return warriors_named(state, [state.fighters[group] for group in _talent_thresholds(state, warband)])


def talent_advance_asked_as(state: CampaignState, warband: str, key: str) -> str:
    """The key the advances ask `key` under (`GROUP-promoted:XP:stat`, of a group a Talent! may promote): his
    own advance's (`GROUP:XP:hero:stat`, `advances._answered_under_his_name`) at a threshold his group rolls
    the Talent! at; from version 8 also his own key at a later hero threshold his group's XP passes, which he
    rolls in the same advances (`handlers.aftermath.advance`). For any other, a refusal naming why."""
    hero, xp, question = loose_key(key).split(":")
    band = state.warbands[warband]
    tables = model.tables_for(state.options)
    due = _talent_thresholds(state, warband)
    group = next(group for group in (state.fighters[g] for g in due)
                 if matches_key(TALENT_ADVANCES, key, warriors_named(state, [group])))
    gaining = _surviving_xp_to_come(state, band)
    has = group.xp + gaining
    later: tuple[int, ...] = ()
    if plays(state, "8"):
        later = rules.advance_thresholds_crossed(min(due[group.id]), has, kind="hero", tables=tables)
    if xp in map(str, due[group.id]):
        return f"{group.id}:{xp}:hero:{question}"
    if xp in map(str, later):
        return f"{hero}:{xp}:{question}"
    # The XP he has as he is made: his group's, with what the experience still to do gives it.
    his_xp = f"{possessive(group.name)} {has} XP" + (" after the experience" if gaining else "")
    rolled = (f"the hero a Talent! makes of {group.name} rolls his own advance at the threshold the Talent! comes at "
              f"({numbers_listed(due[group.id], 'or')} XP: {possessive(group.name)} at these advances)")
    if later:
        rolled += f", then at each hero threshold past it up to {his_xp} ({numbers_listed(later, 'and')} XP)"
    raise BadInput(f"{rolled}: {_not_rolled_there(band, min(due[group.id]), has, his_xp, xp, tables)}")


def _not_rolled_there(band: Warband, first: int, has: int, his_xp: str, xp: str, tables: CoreheimTables) -> str:
    """Why the hero a Talent! makes rolls no advance at `xp` at these advances (they begin at `first` XP, and
    he has `has`, as `his_xp` says), and when he does if he does."""
    if not xp.isdecimal():
        return f"'{xp}' is not a number of XP"
    at, hero_threshold = int(xp), int(xp) in tables.xp_thresholds.hero
    if at > has:
        if hero_threshold:
            return f"not at {at} XP, which {his_xp} does not reach: it comes after a later battle"
        return f"not at {at} XP, which is no hero threshold"
    if at < first:
        return f"not at {at} XP, below the thresholds these advances roll"
    if hero_threshold:  # version 7: a hero threshold past the Talent! is left to an advance of its own
        return f"not at {at} XP in the same advances: `{advance_typed(band)}` rolls it after them"
    return f"not at {at} XP, which is no threshold"


def numbers_listed(numbers: tuple[int, ...], last: str) -> str:
    """2, 4 and 6 (`last` joins the last two)."""
    return f"{', '.join(map(str, numbers[:-1]))} {last} {numbers[-1]}" if len(numbers) > 1 else str(numbers[0])


def _plain(command: type[Command]):
    def build(state: CampaignState, warband: str, ask: BuildAsk) -> Command:
        return command(warband=warband)

    return build


def reinforcing_rolls_no_die(state: CampaignState, band: Warband) -> str | None:
    """Why a `reinforce` of the warband now rolls no die, said of --dice it leaves unused (None: it may roll some): the
    reinforcing roll held in its latest battle's post-game (version 10) gives the experience, and no gear its henchman
    groups carry has a price with dice still to roll."""
    battle = PHASE.latest_battle(state, band)
    if battle is None or not plays(state, "10") or PHASE.is_done(state, band, "reinforce"):
        return None
    band_facts = facts.of(state).warband(band.id)
    if (held := band_facts.reinforcement_roll(battle.number)) is None:
        return None
    tables, prices_held = model.tables_for(state.options), band_facts.prices_rolled(battle.number)
    for group in state.fighters_of(band.id):
        for item in group.equipment if group.role == model.HENCHMAN else ():
            row = model.priced_row(tables, item, chart=True)
            if row is not None and row.price is not None and row.price.dice and item not in prices_held:
                return None
    return f"the reinforcing roll held gives {held} XP (rolled after battle {battle.number}), and no die is rolled"


PHASE = Phase(
    steps=[
        PhaseStep("explore", "explore", "Exploration", build=_plain(Explore),
                  guide="a D6 per hero, +1 for a win; keep six, find shards and multiples"),
        PhaseStep("injuries", "roll injuries", "Injuries", build=_plain(Injuries),
                  guide="first a D12 per henchman, mount or Hired Sword out of action, then a D66 per hero"),
        PhaseStep("experience", "award experience", "Experience", build=_plain(Experience),
                  guide="+1 for surviving, +1 per enemy a hero took out, +1 to a winning leader"),
        # The hero a Talent! makes rolls his own advance in the same step, answered under his name too.
        PhaseStep("advances", "roll advances", "Advances", build=_plain(Advance), done=advances_done, owed=advances_owed,
                  asks_once_made=TALENT_ADVANCES,
                  opened_for=talent_may_promote, made_asked_as=talent_advance_asked_as,
                  guide="one roll per threshold reached (D12), maximums respected, Talent!"),
        PhaseStep("sell-shards", "sell wyrdstone", "Wyrdstone sale", build=_sell_shards,
                  guide="trading 1, sell wyrdstone shards"),
        # The search of the hero Talent! makes of a henchman at the advances, named after his group.
        PhaseStep("search", "look for rare items", "Rare item search", build=_search,
                  asks_once_opened=tuple(f"{hero}:search" for hero in TALENT_HEROES), opened_for=talent_may_promote,
                  guide="trading 3, heroes not taken out of action look for rare items (sell equipment first with "
                        "`campaign coreheim sell`)",
                  before="anything to sell first (trading 2, `campaign coreheim sell`)?"),
        PhaseStep("upkeep", "pay Hired Sword upkeep", "Hired Sword upkeep", build=_plain(Upkeep),
                  guide="trading 5 (buy equipment first with `campaign coreheim buy`)",
                  before="anything to buy first (trading 4, `campaign coreheim buy`)?"),
        PhaseStep("reinforce", "reinforce henchman groups", "Reinforcing henchman groups", build=_plain(Reinforce),
                  guide="trading 7 (hire first with `campaign coreheim hire`)",
                  before="anyone to hire first (trading 6, `campaign coreheim hire`)?",
                  rolls_no_dice=reinforcing_rolls_no_die),
    ],
    # Trading actions done any number of times, between two steps of the seed's trading order.
    windows={
        "sell equipment": Window(after="sell-shards", until="search"),
        "buy equipment": Window(after="search", until="upkeep"),
        "hire warriors": Window(after="upkeep", until="reinforce"),
    },
)
