"""Warbands, hiring, recording a battle, and the underdog points it gives."""

from __future__ import annotations

from typing import NamedTuple

import msgspec

from commands.coreheim import events
from commands.coreheim import facts
from commands.coreheim import model
from commands.coreheim import rules
from commands.coreheim.commands import (
    Hire,
    SpendUnderdog,
    UnderdogSword,
)
from commands.coreheim.outcomes import restate_deeds
from commands.coreheim.phase import PHASE
from commands.shared import EnlistWarband, RecordBattle, RecruitFighter, battle_record, enlist_warband, unique_id
from commands.shared import bearer_of, enemy_id
from commands.kit import as_spelled, since
from ledger import events as ev
from ledger.decide import Context
from ledger.describe import plural
from ledger.errors import BadInput, RuleViolation
from ledger.state import Battle, Fighter, Warband
from ledger.text import possessive
from projections.battles import fought


# --- the warband ------------------------------------------------------------------------------------


def enlist(cmd: EnlistWarband, ctx: Context) -> None:
    """A Coreheim warband names its warband list as its faction ("mercenaries/marienburg")."""
    tables = model.tables_for(ctx.options)
    listed = msgspec.structs.replace(cmd, faction=model.faction_as_listed(cmd.faction, tables))
    model.band_list(Warband(id="", name=listed.name, player=listed.player, faction=listed.faction), tables)
    enlist_warband(listed, ctx)


def refuse_recruit(cmd: RecruitFighter, ctx: Context) -> None:
    raise RuleViolation(
        "in a coreheim campaign hire warriors with `campaign coreheim hire WARBAND NAME --type TYPE`: "
        "it takes cost, starting XP and limits from the warband list"
    )


class _HireTerms(NamedTuple):
    role: str
    cost: int  # of one member
    xp: int  # starting experience
    race: str  # the list's, for a command that names none
    profile: dict[str, int]  # the list's starting profile ("-" left out); {} for a type it does not print


def _hire_terms(cmd: Hire, band: Warband, ctx: Context) -> _HireTerms:
    """What the warband list or the Hired Swords table says of the type hired, checking its limits."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    listing, variant = model.band_list(band, tables)
    of_type = [f for f in state.fighters_of(band.id) if model.warrior(state, f).type == cmd.type]
    hero = model.hero_type(listing, cmd.type)
    henchman = model.henchman_type(listing, cmd.type)
    sword = next((s for s in tables.hired_swords.swords if s.id == cmd.type), None)
    if hero is not None or sword is not None:
        if cmd.group_size != 1:
            raise RuleViolation(f"{cmd.name} is hired alone, not in a group of {cmd.group_size}")
    if hero is not None:
        if len(of_type) >= hero.max_count:
            raise RuleViolation(f"{band.name} may have at most {plural(hero.max_count, hero.name)}; it has {len(of_type)}")
        count = len(model.heroes(state, band))
        if count >= tables.warbands.max_heroes:
            raise RuleViolation(f"{band.name} has {count} heroes; a warband has at most {tables.warbands.max_heroes}")
        return _HireTerms(model.LEADER if hero.leader else model.HERO, hero.hire_cost, hero.starting_xp, hero.race,
                          model.starting_profile(hero, listing, variant))
    if sword is not None:
        if of_type:
            raise RuleViolation(f"{band.name} already has {sword.name} {of_type[0].name}; one of each Hired Sword at most")
        discount = tables.hired_swords.marienburg_hire_discount if variant == "marienburg" else 0
        return _HireTerms(model.HIRED_SWORD, sword.hire - discount, 0, sword.race, model.starting_profile(sword, listing, variant))
    if henchman is not None:
        terms = _HireTerms(henchman.kind, henchman.hire_cost, 0, henchman.race, model.starting_profile(henchman, listing, variant))
    elif cmd.type in model.GROUP_TYPES:
        if cmd.cost is None or cmd.cost < 0:
            raise BadInput(f"give the cost of one {cmd.type} from {listing.name}' list with --cost")
        terms = _HireTerms(cmd.type, cmd.cost, 0, "", {})
    else:
        raise BadInput(f"{cmd.type} is not a type {band.name} can hire ({', '.join(model.hire_types(listing, tables))})")
    limits = tables.warbands
    if terms.role == model.HENCHMAN and not limits.min_henchman_group_size <= cmd.group_size <= limits.max_henchman_group_size:
        raise RuleViolation(
            f"henchmen are hired in groups of {limits.min_henchman_group_size} to {limits.max_henchman_group_size}, "
            f"not {cmd.group_size}"
        )
    if henchman is not None:  # after the group's size: "so not 6 more" of a group of 6 hid that a group holds 5
        model.check_list_limit(state, band, henchman, cmd.group_size)
    return terms


def hire(cmd: Hire, ctx: Context) -> None:
    state = ctx.state
    band = state.warband(cmd.warband)
    PHASE.open_window(state, band, "hire warriors")
    battle = PHASE.latest_battle(state, band)
    if battle is not None and (rolled := facts.of(state).warband(band.id).reinforcement_roll(battle.number)) is not None:
        # Hiring is trading 6, reinforcing 7: once its D6 is seen (held, version 10), the hiring is over.
        raise RuleViolation(f"{band.name} rolled {rolled} XP for its reinforcements, which hold until they are done: "
                            f"hiring (trading 6) comes before reinforcing (trading 7)")
    _recruit(cmd, band, ctx)


def _recruit(cmd: Hire, band: Warband, ctx: Context) -> str:
    """Hire's checks and events, whenever the warrior joins; returns his fighter id. The type, a known
    race and the characteristics are taken in any case and recorded as the tables spell them
    ("Sergeant", "Human" and "ws" were refused)."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    races = [row.race for row in tables.max_characteristics.races]
    cmd = msgspec.structs.replace(
        cmd, type=model.hire_type(model.band_list(band, tables)[0], tables, cmd.type),
        race=cmd.race and (as_spelled(cmd.race, races) or cmd.race),
        stats={as_spelled(stat, rules.STATS) or stat: value for stat, value in cmd.stats.items()})
    name = cmd.name.strip()
    if not name:
        raise BadInput("a warrior needs a name")
    # From version 2 a name stays unique in the warband whatever became of its bearer (the history
    # and every command name him by it); v1 only looked at the warriors still active.
    bearer = bearer_of(state, band.id, name, ever=since(ctx, "2"))
    returning = bearer if bearer is not None and _may_return(ctx, bearer) else None
    if bearer is not None and (returning is None or model.warrior(state, bearer).type != cmd.type):
        was = "" if bearer.active else f" ({bearer.status}): a name stays his, choose another"
        again = f", or hire him again with --type {model.warrior(state, bearer).type}" if returning else ""
        raise RuleViolation(f"{band.name} already has a warrior called {name}{was}{again}")
    role, cost, xp, listed_race, profile = _hire_terms(cmd, band, ctx)
    if cmd.cost is not None and cmd.cost != cost:
        raise RuleViolation(f"a {cmd.type} costs {cost} gc in {band.name}, not {cmd.cost}")
    if returning is not None:
        return _rehire(cmd, band, returning, cost, ctx)
    unknown = sorted(set(cmd.stats) - set(rules.STATS))
    if unknown:
        raise BadInput(f"{', '.join(unknown)}: not a characteristic ({' '.join(rules.STATS)})")
    # The list's starting profile, each stat the command gives in its place; a type the list
    # does not print takes the whole profile from the command.
    stats, race = {**profile, **cmd.stats}, cmd.race or listed_race
    if role not in (model.ANIMAL, model.MONSTER):
        missing = [] if profile else [s for s in rules.STATS if s not in stats]
        if missing:
            raise BadInput(f"give {possessive(name)} {' '.join(missing)} with --stat (e.g. --stat {missing[0]}=4)")
        if not race:
            raise BadInput(f"give {possessive(name)} race with --race (it sets his maximum characteristics)")
        if race not in races:
            raise BadInput(f"no race '{race}' with maximum characteristics (races: {', '.join(races)})")
    listing = model.band_list(band, tables)[0]
    size = model.warband_size(state, band)
    if role != model.HIRED_SWORD and size + cmd.group_size > listing.max_size:
        raise RuleViolation(
            f"{band.name} has {size} warriors; {cmd.group_size} more would pass its maximum of {listing.max_size}"
        )
    total = cost * cmd.group_size
    _check_affordable(cmd, band, name, total)
    acting = model.leader(state, band)
    fighter = unique_id(name, state.fighters)
    ctx.emit(
        ev.FighterRecruited(warband=band.id, fighter=fighter, name=name, role=role, stats=stats, cost=cost,
                            group_size=cmd.group_size, xp=xp),
        events.WarriorProfile(warband=band.id, fighter=fighter, warrior_type=cmd.type, race=race, advanced_to=xp),
    )
    _pay(cmd, band, total, f"hired {name}", ctx)
    if role == model.LEADER and acting is not None:
        # 1.8: a warband that hires its list's leader type again is led by him at once.
        ctx.emit(ev.FighterPromoted(warband=band.id, fighter=acting.id, role=model.HERO, reason=f"{name} leads the warband"))
    return fighter


def _may_return(ctx: Context, bearer: Fighter) -> bool:
    """A Hired Sword who left (his upkeep not paid, or let go) "may be hired again later" (2.3), from
    version 5: the same warrior, hired by his name and type; version 4 refused his name."""
    return since(ctx, "5") and bearer.role == model.HIRED_SWORD and bearer.status == "retired"


def _rehire(cmd: Hire, band: Warband, sword: Fighter, fee: int, ctx: Context) -> str:
    """The sword comes back with his XP, profile and advances ("leaves with his XP"), for his fee."""
    if cmd.stats or cmd.race:
        raise BadInput(f"{sword.name} comes back with his own profile and race: hire him again without --stat and --race")
    _check_affordable(cmd, band, sword.name, fee)
    ctx.emit(events.HiredSwordRehired(warband=band.id, fighter=sword.id))
    _pay(cmd, band, fee, f"hired {sword.name} again", ctx)
    return sword.id


def _check_affordable(cmd: Hire, band: Warband, name: str, total: int) -> None:
    if not cmd.free and total > band.treasury:
        raise RuleViolation(f"{band.name} has {band.treasury} gc; {name} costs {total} gc")


def _pay(cmd: Hire, band: Warband, total: int, reason: str, ctx: Context) -> None:
    if total and not cmd.free:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-total, reason=reason, row=cmd.type))


def record_battle(cmd: RecordBattle, ctx: Context) -> None:
    """The battle, with every warband's rating before it and the underdog points that gives."""
    state, tables = ctx.state, model.tables_for(ctx.options)
    battle = battle_record(cmd, ctx)
    PHASE.refuse_unfinished(state, battle.participants)
    ratings = {w: model.rating(state, w) for w in battle.participants}
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
        ctx.emit(events.BattleDeeds(
            warband=warband, battle=battle.battle, fought=[d.fighter for d in own],
            out_of_action=[d.fighter for d in own if d.out_of_action],
            took_out={d.fighter: list(d.took_out) for d in own if d.took_out},
        ))
    ctx.emit(events.BattleRatings(battle=battle.battle, ratings=ratings, underdog=underdog, rows=rows))


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
    battle = PHASE.latest_battle(state, band)
    if battle is None:
        raise RuleViolation(f"{band.name} has not fought a battle yet")
    held = facts.of(state).warband(band.id).underdog_of(battle.number)
    if not held.points:
        raise RuleViolation(f"{band.name} earned no underdog points in battle {battle.number}")
    if cmd.xp and PHASE.is_done(state, band, "experience"):
        raise RuleViolation(f"{band.name} has already been awarded experience for battle {battle.number}")
    if cmd.sword is not None and PHASE.is_done(state, band, "explore"):
        raise RuleViolation(
            f"{band.name} has already explored after battle {battle.number}: "
            "a Hired Sword bought with underdog points joins before the post-game"
        )
    if any(amount < 1 for amount in cmd.xp.values()):
        raise BadInput("spend at least 1 point on each warrior named")
    wanted = sum(cmd.xp.values()) + (cmd.sword is not None)
    if not wanted:
        raise BadInput("spend the points on experience (warrior=N) or on a Hired Sword")
    left = held.points - held.spent
    if wanted > left:
        raise RuleViolation(
            f"{band.name} has {left} underdog point{'' if left == 1 else 's'} left for battle {battle.number}, not {wanted}"
        )
    for ref, amount in cmd.xp.items():
        fighter = model.member(state, band, ref)
        if model.advance_kind(fighter) is None:
            raise RuleViolation(f"{fighter.name} never gains experience")
        ctx.emit(ev.XPAwarded(warband=band.id, fighter=fighter.id, amount=amount,
                              reason=f"underdog bonus (battle {battle.number})"))
    sword = _underdog_sword(cmd.sword, band, battle, ctx) if cmd.sword is not None else None
    ctx.emit(events.UnderdogSpent(warband=band.id, battle=battle.number, points=wanted, sword=sword))


def _underdog_sword(spec: UnderdogSword, band: Warband, battle: Battle, ctx: Context) -> str:
    """Hire the sword without pay and add him to the warband's deeds in the battle; his id."""
    swords = [s.id for s in model.tables_for(ctx.options).hired_swords.swords]
    kind = as_spelled(spec.type, swords)  # in any case, as hire takes it
    if kind is None:
        raise RuleViolation(f"{spec.type} is not a Hired Sword {band.name} can hire ({', '.join(swords)})")
    fighter = _recruit(Hire(warband=band.id, name=spec.name, type=kind, race=spec.race, stats=spec.stats, free=True),
                       band, ctx)
    state = ctx.state
    took_out = [enemy_id(state, name, state.fighters[fighter]) for name in spec.took_out]
    restate_deeds(ctx, band.id, battle, fighter, joins=True, out_of_action=spec.out_of_action, took_out=took_out)
    if since(ctx, "4"):
        _taken_out(ctx, battle, [state.fighters[enemy] for enemy in took_out if enemy in state.fighters])
    return fighter


def _taken_out(ctx: Context, battle: Battle, enemies: list) -> None:
    """Enemies on a roster the underdog sword took out are out of action in their warband's deeds,
    as `battle record --took-out` makes them (version 4; version 3 left them as recorded)."""
    state = ctx.state
    for enemy in enemies:
        band = state.warbands[enemy.warband]
        deeds = fought(battle, band.id, state)
        if any(d.fighter == enemy.id and d.out_of_action for d in deeds):
            continue
        if not any(d.fighter == enemy.id for d in deeds):
            raise RuleViolation(f"{enemy.name} did not fight in battle {battle.number}: no one took him out of action")
        if PHASE.is_done(state, band, "injuries"):
            raise RuleViolation(f"{band.name} has rolled its injuries after battle {battle.number}: {enemy.name}, whom the "
                                "sword took out, would have rolled one (void its injuries step first)")
        restate_deeds(ctx, band.id, battle, enemy.id, out_of_action=True)
