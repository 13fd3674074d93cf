"""Coreheim's commands and their handlers: hiring, recording battles, and each step of the
post-game sequence (seed 002, section 2.1) in the seed's order.

Steps, once per battle and in this order (each refuses to run early or twice):
explore → injuries → experience → advances → sell-shards → search → upkeep → reinforce.
Trading actions done any number of times sit between them, in the seed's trading order:
sell equipment (2) before the rare-item search (3), buy (4) before upkeep (5), hire (6)
before reinforcing (7). Before a warband's first battle, hiring and buying are always open.
A warband must finish the post-game of its last battle before it fights again.

Every player choice is either a field of the command or asked with `ctx.choose` (and so
recorded in the command's `answers`), so replaying a command with its recorded dice gives the
same events. The rules' refusals (CoreheimRuleError) become RuleViolations in one place,
`player_grade`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

import msgspec

from commands.coreheim import events as ce
from commands.coreheim import model as m
from commands.coreheim import rules
from commands.coreheim.advances import roll_advance
from commands.coreheim.outcomes import Consequences, hero_injury, henchman_injury
from commands.shared import EnlistWarband, RecordBattle, RecruitFighter, battle_record, enlist_warband, unique_id
from commands.shared import enemy_id
from ledger import events as ev
from ledger.decide import Command, Context
from ledger.errors import BadInput, RuleViolation
from ledger.rulesets import refusing_as_rule_violation
from ledger.state import Battle, Fighter
from ledger.state import Warband as Band


# The one place where the rules' refusals become the ledger's.
player_grade = refusing_as_rule_violation(rules.CoreheimRuleError)


# --- commands --------------------------------------------------------------------------------------


class Hire(Command, frozen=True, kw_only=True, tag="coreheim.hire"):
    """Hire a hero (a hero type of the warband list: cost and starting XP from the list), a
    Hired Sword (by id: fee from the table), or a henchman group, animal or monster (`cost` per
    member, from the player's list). `free` for warriors an exploration result gives."""

    warband: str
    name: str
    type: str
    race: str = ""
    stats: dict[str, int] = {}
    cost: int | None = None
    group_size: int = 1
    free: bool = False


class Explore(Command, frozen=True, kw_only=True, tag="coreheim.explore"):
    warband: str
    extra_dice: int = 0  # scenario or Hired Sword dice beyond one per hero and the win
    discard: int = 0  # dice to drop before keeping (e.g. Bionic Eye)

    answer_keys = ("keep",)  # asked only when more than six dice are rolled


class Injuries(Command, frozen=True, kw_only=True, tag="coreheim.injuries"):
    warband: str


class Experience(Command, frozen=True, kw_only=True, tag="coreheim.experience"):
    warband: str
    scenario_xp: dict[str, int] = {}  # warrior -> XP the scenario gives
    henchman_deeds: list[str] = []  # groups that took out an enemy hero (only with henchman_deed_xp)


class Advance(Command, frozen=True, kw_only=True, tag="coreheim.advance"):
    """Roll the advances reached: every warrior's, one warrior's, or one threshold of one warrior."""

    warband: str
    fighter: str | None = None
    threshold: int | None = None
    names: dict[str, str] = {}  # henchman group -> name of the member Talent! promotes


class SellShards(Command, frozen=True, kw_only=True, tag="coreheim.sell-shards"):
    warband: str
    shards: int


class Sell(Command, frozen=True, kw_only=True, tag="coreheim.sell"):
    warband: str
    item: str
    fighter: str | None = None  # None: from the stash
    price: int | None = None  # the base price, for items the tables do not price


class RareSearch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    hero: str
    item: str
    rarity: int | None = None  # for items the tables give no rarity


class Search(Command, frozen=True, kw_only=True, tag="coreheim.search"):
    warband: str
    searches: list[RareSearch] = []


class Buy(Command, frozen=True, kw_only=True, tag="coreheim.buy"):
    warband: str
    item: str
    fighter: str | None = None  # None: into the stash; a henchman group buys one for each member
    price: int | None = None


class Upkeep(Command, frozen=True, kw_only=True, tag="coreheim.upkeep"):
    warband: str


class Reinforce(Command, frozen=True, kw_only=True, tag="coreheim.reinforce"):
    warband: str

    answer_keys = ("reinforce",)  # asked only when there is a henchman group to reinforce


class UnderdogSword(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Hired Sword one underdog point brings to the battle, and what he did in it."""

    name: str
    type: str  # a Hired Sword id (ogre-bodyguard…)
    race: str = ""
    stats: dict[str, int] = {}
    out_of_action: bool = False
    took_out: list[str] = []  # enemies he took out of action


class SpendUnderdog(Command, frozen=True, kw_only=True, tag="coreheim.underdog"):
    warband: str
    xp: dict[str, int] = {}  # warrior -> XP bought with underdog points
    sword: UnderdogSword | None = None  # bought with one point


# --- the warband ------------------------------------------------------------------------------------


def enlist(cmd: EnlistWarband, ctx: Context) -> None:
    """A Coreheim warband names its warband list as its faction ("mercenaries/marienburg")."""
    tables = m.tables_for(ctx.options)
    m.band_list(Band(id="", name=cmd.name, player=cmd.player, faction=cmd.faction), tables)
    enlist_warband(cmd, ctx)


def refuse_recruit(cmd: RecruitFighter, ctx: Context) -> None:
    raise RuleViolation(
        "in a coreheim campaign hire warriors with `campaign coreheim hire WARBAND NAME --type TYPE`: "
        "it takes cost, starting XP and limits from the warband list"
    )


def _hire_terms(cmd: Hire, band: Band, ctx: Context) -> tuple[str, int, int]:
    """(role, cost per member, starting XP) for the type hired, checking the list's limits."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    listing, variant = m.band_list(band, tables)
    of_type = [f for f in state.fighters_of(band.id) if f.ext.get(ce.TYPE) == cmd.type]
    hero = m.hero_type(listing, cmd.type)
    sword = next((s for s in tables.hired_swords.swords if s.id == cmd.type), None)
    if hero is not None or sword is not None:
        if cmd.group_size != 1:
            raise RuleViolation(f"{cmd.name} is hired alone, not in a group of {cmd.group_size}")
    if hero is not None:
        if len(of_type) >= hero.max_count:
            raise RuleViolation(f"{band.name} may have at most {hero.max_count} {hero.name}; it has {len(of_type)}")
        count = len(m.heroes(state, band))
        if count >= tables.warbands.max_heroes:
            raise RuleViolation(f"{band.name} has {count} heroes; a warband has at most {tables.warbands.max_heroes}")
        return (m.LEADER if hero.leader else m.HERO), hero.hire_cost, hero.starting_xp
    if sword is not None:
        if of_type:
            raise RuleViolation(f"{band.name} already has {sword.name} {of_type[0].name}; one of each Hired Sword at most")
        discount = tables.hired_swords.marienburg_hire_discount if variant == "marienburg" else 0
        return m.HIRED_SWORD, sword.hire - discount, 0
    if cmd.type not in m.GROUP_TYPES:
        known = [h.id for h in listing.hero_types] + list(m.GROUP_TYPES) + [s.id for s in tables.hired_swords.swords]
        raise RuleViolation(f"{cmd.type} is not a type {band.name} can hire ({', '.join(known)})")
    if cmd.cost is None or cmd.cost < 0:
        raise BadInput(f"give the cost of one {cmd.type} from {listing.name}' list with --cost")
    limits = tables.warbands
    if cmd.type == m.HENCHMAN and not limits.min_henchman_group_size <= cmd.group_size <= limits.max_henchman_group_size:
        raise RuleViolation(
            f"henchmen are hired in groups of {limits.min_henchman_group_size} to {limits.max_henchman_group_size}, "
            f"not {cmd.group_size}"
        )
    return cmd.type, cmd.cost, 0


def hire(cmd: Hire, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    m.open_window(state, band, "hire warriors")
    _recruit(cmd, band, ctx)


def _recruit(cmd: Hire, band: Band, ctx: Context) -> str:
    """Hire's checks and events, whenever the warrior joins; returns his fighter id."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    name = cmd.name.strip()
    if not name:
        raise BadInput("a warrior needs a name")
    if any(f.name.lower() == name.lower() for f in state.fighters_of(band.id)):
        raise RuleViolation(f"{band.name} already has a warrior called {name}")
    role, cost, xp = _hire_terms(cmd, band, ctx)
    if cmd.cost is not None and cmd.cost != cost:
        raise RuleViolation(f"a {cmd.type} costs {cost} gc in {band.name}, not {cmd.cost}")
    unknown = sorted(set(cmd.stats) - set(rules.STATS))
    if unknown:
        raise BadInput(f"{', '.join(unknown)}: not a characteristic ({' '.join(rules.STATS)})")
    if role not in (m.ANIMAL, m.MONSTER):
        missing = [s for s in rules.STATS if s not in cmd.stats]
        if missing:
            raise BadInput(f"give {name}'s {' '.join(missing)} with --stat (e.g. --stat {missing[0]}=4)")
        if not cmd.race:
            raise BadInput(f"give {name}'s race with --race (it sets his maximum characteristics)")
        rules.race_maximums(cmd.race, tables=tables)
    listing = m.band_list(band, tables)[0]
    size = m.warband_size(state, band)
    if role != m.HIRED_SWORD and size + cmd.group_size > listing.max_size:
        raise RuleViolation(
            f"{band.name} has {size} warriors; {cmd.group_size} more would pass its maximum of {listing.max_size}"
        )
    total = cost * cmd.group_size
    if not cmd.free and total > band.treasury:
        raise RuleViolation(f"{band.name} has {band.treasury} gc; {name} costs {total} gc")
    acting = m.leader(state, band)
    fighter = unique_id(name, state.fighters)
    ctx.emit(
        ev.FighterRecruited(warband=band.id, fighter=fighter, name=name, role=role, stats=dict(cmd.stats), cost=cost,
                            group_size=cmd.group_size, xp=xp),
        ce.WarriorProfile(warband=band.id, fighter=fighter, warrior_type=cmd.type, race=cmd.race, advanced_to=xp),
    )
    if total and not cmd.free:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-total, reason=f"hired {name}", row=cmd.type))
    if role == m.LEADER and acting is not None:
        # 1.8: a warband that hires its list's leader type again is led by him at once.
        ctx.emit(ev.FighterPromoted(warband=band.id, fighter=acting.id, role=m.HERO, reason=f"{name} leads the warband"))
    return fighter


def record_battle(cmd: RecordBattle, ctx: Context) -> None:
    """The battle, with every warband's rating before it and the underdog points that gives."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    battle = battle_record(cmd, ctx)
    for warband in battle.participants:
        band = state.warbands[warband]
        unfinished = m.next_step(state, band)
        if unfinished is not None:
            last = m.latest_battle(state, band)
            raise RuleViolation(
                f"{band.name} must finish the post-game of battle {last.number if last else 0} first "
                f"(next: {m.STEP_TITLES[unfinished]})"
            )
    ratings = {w: m.rating(state, w) for w in battle.participants}
    underdog: dict[str, int] = {}
    rows: dict[str, str] = {}
    if len(ratings) > 1:
        for warband, own in ratings.items():
            row = rules.underdog_bonus(own, [r for w, r in ratings.items() if w != warband], tables=tables)
            if row.points:
                underdog[warband], rows[warband] = row.points, row.id
    ctx.emit(battle)
    for warband in battle.participants:
        own = [d for d in battle.deeds if state.fighters[d.fighter].warband == warband]
        ctx.emit(ce.BattleDeeds(
            warband=warband, battle=battle.battle, fought=[d.fighter for d in own],
            out_of_action=[d.fighter for d in own if d.out_of_action],
            took_out={d.fighter: list(d.took_out) for d in own if d.took_out},
        ))
    ctx.emit(ce.BattleRatings(battle=battle.battle, ratings=ratings, underdog=underdog, rows=rows))


def spend_underdog(cmd: SpendUnderdog, ctx: Context) -> None:
    """Underdog points (5.4): each buys +1 XP, or a Hired Sword to help in the battle.

    The rules spend them before the battle, but the ledger knows them only from the battle's
    ratings, recorded with it; so they are spent right after the battle is recorded: XP before
    the experience step, a Hired Sword before exploration, so that the whole post-game sees him.
    One point brings one sword. He joins as a hire does (a Hired Sword type, one of each type;
    FighterRecruited at his fee, no gold paid) and the warband's deeds in the battle are stated
    again with him among those who fought, with the enemies he took out and whether he was taken
    out, so injuries and experience treat him as any Hired Sword. (An enemy who took him out names
    him in the battle record, as an enemy the ledger does not know yet.) At the upkeep step the
    player keeps him by paying his upkeep or lets him go, as for every Hired Sword.
    """
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = m.latest_battle(state, band)
    if battle is None:
        raise RuleViolation(f"{band.name} has not fought a battle yet")
    held = band.ext.get(ce.UNDERDOG, {}).get(str(battle.number), {"points": 0, "spent": 0})
    if not held["points"]:
        raise RuleViolation(f"{band.name} earned no underdog points in battle {battle.number}")
    if cmd.xp and m.step_done(state, band, "experience"):
        raise RuleViolation(f"{band.name} has already been awarded experience for battle {battle.number}")
    if cmd.sword is not None and m.step_done(state, band, "explore"):
        raise RuleViolation(
            f"{band.name} has already explored after battle {battle.number}: "
            "a Hired Sword bought with underdog points joins before the post-game"
        )
    if any(amount < 1 for amount in cmd.xp.values()):
        raise BadInput("spend at least 1 point on each warrior named")
    wanted = sum(cmd.xp.values()) + (cmd.sword is not None)
    if not wanted:
        raise BadInput("spend the points on experience (warrior=N) or on a Hired Sword")
    left = held["points"] - held["spent"]
    if wanted > left:
        raise RuleViolation(
            f"{band.name} has {left} underdog point{'' if left == 1 else 's'} left for battle {battle.number}, not {wanted}"
        )
    for ref, amount in cmd.xp.items():
        fighter = m.member(state, band, ref)
        if m.advance_kind(fighter) is None:
            raise RuleViolation(f"{fighter.name} never gains experience")
        ctx.emit(ev.XPAwarded(warband=band.id, fighter=fighter.id, amount=amount,
                              reason=f"underdog bonus (battle {battle.number})"))
    sword = _underdog_sword(cmd.sword, band, battle, ctx) if cmd.sword is not None else None
    ctx.emit(ce.UnderdogSpent(warband=band.id, battle=battle.number, points=wanted, sword=sword))


def _underdog_sword(spec: UnderdogSword, band: Band, battle: Battle, ctx: Context) -> str:
    """Hire the sword without pay and add him to the warband's deeds in the battle; his id."""
    swords = [s.id for s in m.tables_for(ctx.options).hired_swords.swords]
    if spec.type not in swords:
        raise RuleViolation(f"{spec.type} is not a Hired Sword {band.name} can hire ({', '.join(swords)})")
    fighter = _recruit(Hire(warband=band.id, name=spec.name, type=spec.type, race=spec.race, stats=spec.stats, free=True),
                       band, ctx)
    state = ctx.state
    took_out = [enemy_id(state, name, state.fighters[fighter]) for name in spec.took_out]
    done = m.deeds(band, battle)
    ctx.emit(ce.BattleDeeds(
        warband=band.id, battle=battle.number, fought=[*done["fought"], fighter],
        out_of_action=[*done["out_of_action"], *([fighter] if spec.out_of_action else [])],
        took_out={**done["took_out"], **({fighter: took_out} if took_out else {})},
    ))
    return fighter


# --- exploration ------------------------------------------------------------------------------------


def _dice(values: list[int] | tuple[int, ...]) -> str:
    return ",".join(str(v) for v in sorted(values, reverse=True))


def explore(cmd: Explore, ctx: Context) -> None:
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = m.begin_step(state, band, "explore")
    if cmd.extra_dice < 0 or cmd.discard < 0:
        raise BadInput("extra and discarded dice cannot be negative")
    listing = m.band_list(band, tables)[0]
    bonus = band.ext.get(ce.BONUS_DICE, {"extra": 0, "discard": 0})
    count = rules.exploration_dice_count(
        len(m.heroes(state, band)), won=battle.winner == band.id, extra_dice=cmd.extra_dice + bonus["extra"]
    )
    discard = cmd.discard + bonus["discard"]
    rolled = ctx.roll(f"{count}D6", purpose=f"exploration of {band.name}").faces if count else []
    needed = min(tables.shards.max_kept_dice, len(rolled) - discard)
    keep = None
    if needed < len(rolled):
        if "keep" in ctx.answers:  # any order of the faces will do
            ctx.answers["keep"] = _dice([int(x) for x in ctx.answers["keep"].split(",") if x.strip().isdigit()])
        options = sorted({_dice(c) for c in combinations(rolled, max(needed, 0))}, reverse=True)
        answer = ctx.choose("keep", f"{band.name} rolled {list(rolled)}: which {needed} dice count?", options)
        keep = [int(x) for x in answer.split(",")] if answer else []
    kept = rules.keep_exploration_dice(rolled, keep, discard=discard, tables=tables)
    found = rules.shards_found(kept, tables=tables)
    sets = rules.find_multiples(kept)
    chosen = None
    if sets:
        labels = {f"{s.face}x{s.count}": s for s in sets}
        names = ", ".join(f"{label} ({rules.multiples_entry(s, tables=tables).name})" for label, s in labels.items())
        picked = ctx.choose("multiple", f"{band.name} rolled several multiples, {names}: which one counts?", list(labels))
        chosen = rules.choose_multiple(sets, labels[picked])
    resolution = _resolve_multiple(ctx, band, chosen, listing.id) if chosen else None
    ctx.emit(ce.ExplorationResolved(
        warband=band.id, battle=battle.number, dice=list(rolled), kept=list(kept), total=found.total,
        shards=found.shards, row=found.row_id or "", multiple=f"{chosen.face}x{chosen.count}" if chosen else "",
        rows=list(resolution.rows_used) if resolution else [],
    ))
    if found.shards:
        ctx.emit(ce.ShardsChanged(warband=band.id, delta=found.shards, reason=f"explored after battle {battle.number}",
                                  row=found.row_id or ""))
    if chosen and resolution:
        entry = rules.multiples_entry(chosen, tables=tables)
        effects = Consequences(ctx, band, battle, f"exploration: {entry.name}")
        for outcome in resolution.outcomes:
            effects.apply(outcome, resolution.rows_used[-1])
    ctx.emit(ev.PostGameStepDone(warband=band.id, battle=battle.number, step="explore"))


def _table_faces(roll: Any, dice: str) -> list[int]:
    """The faces the rules read: a D3 is read as 1-3 (the ledger rolls a D6 for it)."""
    return [(face + 1) // 2 for face in roll.faces] if dice.upper().endswith("D3") else list(roll.faces)


def _resolve_multiple(ctx: Context, band: Band, chosen: rules.MultipleSet, listing: str) -> rules.Resolution:
    """Resolve a chart entry, rolling and asking for what it needs one layer at a time."""
    tables = m.tables_for(ctx.options)
    leader = m.leader(ctx.state, band)
    rolls: dict[str, list[int]] = {}
    choices: dict[str, bool] = {}
    while True:
        resolution = rules.resolve_multiples(
            chosen, warband=listing, rolls=rolls, choices=choices,
            leader_ld=leader.stats.get("Ld") if leader else None, tables=tables,
        )
        if resolution.complete:
            return resolution
        for request in resolution.pending:
            if isinstance(request, rules.RollRequest):
                roll = ctx.roll(request.dice, purpose=f"{request.purpose} for {band.name}")
                rolls[request.id] = _table_faces(roll, request.dice)
            else:
                choices[request.id] = ctx.choose(request.id, request.question, ["yes", "no"]) == "yes"


# --- injuries ----------------------------------------------------------------------------------------


def injuries(cmd: Injuries, ctx: Context) -> None:
    """In the seed's order, so table dice typed as the rules list them land on the right warrior:
    first a D12 for each henchman, mount and Hired Sword taken out of action, then a D66 for each
    hero (with Multiple Injuries' extra rolls). Each pass goes in roster order, the order in which
    the battle's deeds list the warband's fighters."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = m.begin_step(state, band, "injuries")
    out = m.deeds(band, battle)["out_of_action"]
    heroes = [f for f in out if state.fighters[f].role in m.HEROES]
    for fighter_id in [f for f in out if f not in heroes]:
        if state.fighters[fighter_id].active:
            henchman_injury(ctx, band, state.fighters[fighter_id])
    for fighter_id in heroes:
        if state.fighters[fighter_id].active:
            hero_injury(ctx, band, battle, state.fighters[fighter_id])
    ctx.emit(ev.PostGameStepDone(warband=band.id, battle=battle.number, step="injuries"))


# --- experience ----------------------------------------------------------------------------------------

XP_REASONS = {
    "survived": "survived the battle",
    "enemies-out-of-action": "took enemies out of action",
    "leader-won": "led the winning warband",
    "scenario": "scenario",
    "henchman-deed": "took out an enemy hero",
}
PARTICIPANT_ROLES: dict[str, Any] = {
    m.LEADER: "hero", m.HERO: "hero", m.HENCHMAN: "henchman-group", m.HIRED_SWORD: "hired-sword",
    m.ANIMAL: "animal", m.MONSTER: "monster",
}


def experience(cmd: Experience, ctx: Context) -> None:
    """Battle experience (seed 2.1 Experience 1-4); advances are rolled in the next step."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = m.begin_step(state, band, "experience")
    done = m.deeds(band, battle)
    fought = [state.fighters[f] for f in done["fought"]]
    deed_groups = {m.member(state, band, ref).id for ref in cmd.henchman_deeds}
    participants = [
        rules.BattleParticipant(
            name=f.name, role=PARTICIPANT_ROLES[f.role], survived=f.active, is_leader=f.role == m.LEADER and f.active,
            enemies_out_of_action=len(done["took_out"].get(f.id, [])),
            downed_enemy_hero_or_large_creature=f.id in deed_groups,
        )
        for f in fought
    ]
    scenario = {m.member(state, band, ref).name: amount for ref, amount in cmd.scenario_xp.items()}
    awards = rules.battle_xp_awards(
        participants, won=battle.winner == band.id, scenario_awards=scenario,
        henchman_deed_xp=bool(ctx.options.get("henchman_deed_xp")),
    )
    by_name = {f.name: f for f in fought}
    for award in awards:
        ctx.emit(ev.XPAwarded(warband=band.id, fighter=by_name[award.fighter].id, amount=award.amount,
                              reason=f"{XP_REASONS[award.reason]} (battle {battle.number})"))
    ctx.emit(ev.PostGameStepDone(warband=band.id, battle=battle.number, step="experience"))


def advance(cmd: Advance, ctx: Context) -> None:
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = m.latest_battle(state, band)
    if battle is not None and not m.step_done(state, band, "experience"):
        m.begin_step(state, band, "advances")  # refuses with the step that comes first
    if cmd.fighter is None:
        if cmd.threshold is not None:
            raise BadInput("name the warrior whose threshold to roll for")
        due = [f for f in state.fighters_of(band.id) if m.pending_thresholds(f, tables)]
        if not due:
            raise RuleViolation(f"{band.name} has no advances to roll")
        for fighter in due:
            _advance_fighter(ctx, band, fighter, None, cmd.names)
        return
    _advance_fighter(ctx, band, m.member(state, band, cmd.fighter), cmd.threshold, cmd.names)


def _advance_fighter(ctx: Context, band: Band, fighter: Fighter, threshold: int | None, names: dict[str, str]) -> None:
    """Roll one threshold (checked), or every threshold the warrior reached, lowest first."""
    tables = m.tables_for(ctx.options)
    due = m.pending_thresholds(fighter, tables)
    kind = m.advance_kind(fighter)
    if kind is None:
        raise RuleViolation(f"{fighter.name} never gains experience, so never advances")
    if threshold is not None:
        thresholds = getattr(tables.xp_thresholds, kind.replace("-", "_"))
        if threshold not in thresholds:
            raise RuleViolation(f"{threshold} XP is not an advance threshold of a {kind} ({', '.join(map(str, thresholds))})")
        if threshold > fighter.xp:
            raise RuleViolation(f"{fighter.name} has {fighter.xp} XP: the advance at {threshold} XP is not reached")
        if threshold not in due:
            raise RuleViolation(f"{fighter.name} has no advance to roll at {threshold} XP: it was rolled or came with his starting XP")
        if threshold != due[0]:
            raise RuleViolation(f"{fighter.name} rolls the advance at {due[0]} XP first")
        due = (threshold,)
    elif not due:
        raise RuleViolation(f"{fighter.name} has no advance to roll ({fighter.xp} XP)")
    for reached in due:
        roll_advance(ctx, band, ctx.state.fighters[fighter.id], reached, names)


# --- trading -------------------------------------------------------------------------------------------


def sell_shards(cmd: SellShards, ctx: Context) -> None:
    """Trading 1: sell wyrdstone; the price depends on the warband's size (Hired Swords excluded)."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = m.begin_step(state, band, "sell-shards")
    if cmd.shards < 0:
        raise BadInput("shards sold cannot be negative")
    if cmd.shards:
        sale = rules.sell_wyrdstone(cmd.shards, shards_held=band.ext.get(ce.SHARDS, 0),
                                    warriors=m.warband_size(state, band), tables=tables)
        ctx.emit(
            ce.ShardsChanged(warband=band.id, delta=-sale.shards_sold, reason="sold", row=sale.row_id),
            ev.TreasuryChanged(warband=band.id, delta=sale.gold, reason=f"sold {sale.shards_sold} wyrdstone shards",
                               row=sale.row_id),
        )
    ctx.emit(ev.PostGameStepDone(warband=band.id, battle=battle.number, step="sell-shards"))


def _holder(state: Any, band: Band, ref: str | None) -> tuple[Fighter | None, list[str], str]:
    if ref is None:
        return None, band.stash, f"{band.name}'s stash"
    fighter = m.member(state, band, ref)
    if fighter.role == m.HIRED_SWORD:
        raise RuleViolation(f"{fighter.name} is a Hired Sword: he neither buys nor sells gear")
    return fighter, fighter.equipment, fighter.name


def _base_price(tables: Any, item: str, given: int | None) -> tuple[int, str | None]:
    """(fixed price, dice added to it) from the tables, or the price the player gives."""
    row = m.item_row(tables, item)
    if row is not None and row.price is not None:
        if given is not None and given != row.price.fixed:
            raise RuleViolation(f"{row.name} is priced {row.price.fixed} gc by the tables, not {given}")
        return row.price.fixed, row.price.dice
    if given is None:
        raise RuleViolation(f"the tables give {row.name if row else item} no price: give its list price with --price")
    if given < 0:
        raise BadInput("a price cannot be negative")
    return given, None


def sell(cmd: Sell, ctx: Context) -> None:
    """Trading 2: half the base price, rounded down (of the fixed part, for "15+2D6"); a group
    sells the item of every member."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    m.open_window(state, band, "sell equipment")
    fighter, items, owner = _holder(state, band, cmd.fighter)
    item = m.item_id(tables, cmd.item)
    if item not in items:
        raise RuleViolation(f"{owner} has no {item}")
    price, _dice_part = _base_price(tables, item, cmd.price)
    members = fighter.group_size if fighter else 1
    gold = rules.sale_value(price) * members
    each = f" x{members}" if members > 1 else ""
    ctx.emit(ev.ItemLost(warband=band.id, fighter=fighter.id if fighter else None, item=item, reason="sold"))
    if gold:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=gold, reason=f"sold {item}{each} (half of {price} gc)",
                                    row=f"equipment:{item}"))


def search(cmd: Search, ctx: Context) -> None:
    """Trading 3: each hero not taken out of action may look for one rare item: 2D6 >= rarity."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = m.begin_step(state, band, "search")
    searched: set[str] = set()
    for wanted in cmd.searches:
        hero = m.member(state, band, wanted.hero)
        row = m.item_row(tables, wanted.item)
        item = m.item_id(tables, wanted.item)
        rarity = row.rarity if row is not None and row.rarity is not None else wanted.rarity
        if rarity is None:
            raise RuleViolation(f"the tables give {item} no rarity: give it as {hero.name}={item}:RARITY")
        if wanted.rarity is not None and wanted.rarity != rarity:
            raise RuleViolation(f"{item} is rare {rarity} by the tables, not {wanted.rarity}")
        roll = ctx.roll("2D6", purpose=f"{hero.name} looks for {item}")
        found = rules.search_rare_item(
            roll.faces, searcher=hero.name, role="hero" if hero.role in m.HEROES else hero.role, rarity=rarity,
            out_of_action=m.was_out_of_action(band, battle, hero), already_searched=hero.id in searched,
            skills=hero.skills, wears_cathayan_silks="cathayan-silks" in hero.equipment, tables=tables,
        )
        searched.add(hero.id)
        ctx.emit(ce.RareItemSearched(warband=band.id, battle=battle.number, fighter=hero.id, item=item,
                                     rarity=rarity, total=found.total, found=found.found))
    ctx.emit(ev.PostGameStepDone(warband=band.id, battle=battle.number, step="search"))


def buy(cmd: Buy, ctx: Context) -> None:
    """Trading 4: a rare item must have been found this post-game (not at creation); a price with
    dice ("30+2D6") is rolled; a henchman group buys one for each member."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    m.open_window(state, band, "buy equipment")
    fighter, _items, _owner = _holder(state, band, cmd.fighter)
    item = m.item_id(tables, cmd.item)
    row = m.item_row(tables, item)
    battle = m.latest_battle(state, band)
    found = band.ext.get(ce.FOUND, {}).get(str(battle.number), []) if battle else []
    rare = item in found or (row is not None and row.rarity is not None)
    if rare and battle is not None and item not in found:
        raise RuleViolation(f"{item} is rare ({row.rarity if row else '?'}): a hero must find it this post-game first")
    price, dice = _base_price(tables, item, cmd.price)
    if dice:
        price += ctx.roll(dice, purpose=f"price of {item}").value
    members = fighter.group_size if fighter else 1
    total = price * members
    each = f" x{members}" if members > 1 else ""
    if total > band.treasury:
        raise RuleViolation(f"{band.name} has {band.treasury} gc; {item}{each} costs {total} gc")
    if total:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-total, reason=f"bought {item}{each}", row=f"equipment:{item}"))
    ctx.emit(ev.ItemGained(warband=band.id, fighter=fighter.id if fighter else None, item=item, reason=f"bought for {price} gc"))
    if rare and battle is not None:
        ctx.emit(ce.RareItemBought(warband=band.id, battle=battle.number, item=item))


def upkeep(cmd: Upkeep, ctx: Context) -> None:
    """Trading 5: each Hired Sword's upkeep, after every game; unpaid, he leaves. A sword the
    underdog bonus brought to this battle is kept the same way, from this first upkeep on."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = m.begin_step(state, band, "upkeep")
    dwarves = any(f.ext.get(ce.RACE) == "dwarf" for f in state.fighters_of(band.id))
    underdog_sword = band.ext.get(ce.UNDERDOG, {}).get(str(battle.number), {}).get("sword")
    for sword in [f for f in state.fighters_of(band.id) if f.role == m.HIRED_SWORD]:
        fee = rules.hired_sword_upkeep(sword.ext.get(ce.TYPE, ""), warband_has_dwarves=dwarves, tables=tables)
        treasury = state.warbands[band.id].treasury
        answer = ctx.choose(f"{sword.id}:upkeep", f"Pay {sword.name}'s upkeep of {fee} gc ({band.name} has {treasury} gc)?",
                            ["pay", "release"])
        if answer == "release":
            came = f" (came for battle {battle.number} with the underdog bonus)" if sword.id == underdog_sword else ""
            ctx.emit(ev.FighterRetired(warband=band.id, fighter=sword.id, reason=f"left{came}: upkeep not paid"))
        elif fee > treasury:
            raise RuleViolation(f"{band.name} has {treasury} gc; {sword.name}'s upkeep is {fee} gc")
        elif fee:
            ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-fee, reason=f"upkeep of {sword.name}",
                                        row=f"hired-sword:{sword.ext.get(ce.TYPE, '')}"))
    ctx.emit(ev.PostGameStepDone(warband=band.id, battle=battle.number, step="upkeep"))


def _recruits_room(group: Fighter, budget: int, tables) -> int:
    """The most recruits a group can take on its own: the places left in it, and what the
    experience rolled pays for (recruits into a 0-XP group use none of it)."""
    room = tables.warbands.max_henchman_group_size - group.group_size
    return min(room, budget // group.xp) if group.xp else room


def reinforce(cmd: Reinforce, ctx: Context) -> None:
    """Trading 7: a D6 is the experience available; each recruit joins a group at its XP and uses
    that much of it (0-XP groups cost none); he costs what a member of his group cost."""
    state, tables = ctx.state, m.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = m.begin_step(state, band, "reinforce")
    groups = [f for f in state.fighters_of(band.id) if f.role == m.HENCHMAN]
    question = f"Reinforce {band.name}'s henchman groups (a D6 gives the experience available)?"
    if groups and ctx.choose("reinforce", question, ["yes", "no"]) == "yes":
        budget = ctx.roll("D6", purpose=f"reinforcements of {band.name}").value
        wanted = {
            g.id: int(ctx.choose(f"{g.id}:recruits", f"Recruits for {g.name} ({g.group_size} at {g.xp} XP; {budget} XP to spend)?",
                                 [str(n) for n in range(_recruits_room(g, budget, tables) + 1)]))
            for g in groups
        }
        plans = [rules.Reinforcement(group=g.name, group_xp=g.xp, group_size=g.group_size, recruits=wanted[g.id])
                 for g in groups if wanted[g.id]]
        listing = m.band_list(band, tables)[0]
        rules.plan_reinforcements(budget, plans, warband=listing.id, warband_size=m.warband_size(state, band), tables=tables)
        cost = sum(g.cost * wanted[g.id] for g in groups)
        if cost > band.treasury:
            raise RuleViolation(f"{band.name} has {band.treasury} gc; the recruits cost {cost} gc")
        for g in groups:
            if wanted[g.id]:
                n = wanted[g.id]
                ctx.emit(ce.GroupSizeChanged(warband=band.id, fighter=g.id, delta=n,
                                             reason=f"reinforced: {n} x {g.xp} XP of the {budget} rolled"))
                if g.cost:
                    recruits = f"{n} recruit{'' if n == 1 else 's'}"
                    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-g.cost * n, reason=f"{recruits} for {g.name}"))
    ctx.emit(ev.PostGameStepDone(warband=band.id, battle=battle.number, step="reinforce"))


HANDLERS: dict[type[Command], Callable[[Any, Context], None]] = {
    EnlistWarband: enlist,
    RecruitFighter: refuse_recruit,
    RecordBattle: record_battle,
    Hire: hire,
    SpendUnderdog: spend_underdog,
    Explore: explore,
    Injuries: injuries,
    Experience: experience,
    Advance: advance,
    SellShards: sell_shards,
    Sell: sell,
    Search: search,
    Buy: buy,
    Upkeep: upkeep,
    Reinforce: reinforce,
}
