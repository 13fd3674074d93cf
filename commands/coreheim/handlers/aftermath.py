"""Injuries, experience and advances (post-game steps 2 to 4)."""

from __future__ import annotations

from typing import Any


from commands.coreheim import model
from commands.coreheim import rules
from commands.coreheim.advances import refuse_names_unused_or_taken, roll_advance
from commands.coreheim.commands import (
    Advance,
    Experience,
    Injuries,
)
from commands.coreheim.phase import (
    PHASE, TALENT_ADVANCES, advance_typed, numbers_listed, talent_advance_asked_as, talent_may_promote
)
from commands.kit.versions import since
from commands.coreheim.outcomes import hero_injury, hero_mount_injury, henchman_injury, lose_shackles
from ledger import events as ev
from ledger.decide import Context, documents_key, loose_key, matches_key, warriors_named
from ledger.errors import BadInput, RuleViolation
from ledger.state import Fighter, Warband
from ledger.text import possessive, slug
from projections.battles import fought, out_of_action


# --- injuries ----------------------------------------------------------------------------------------


def injuries(cmd: Injuries, ctx: Context) -> None:
    """In the seed's order, so table dice typed as the rules list them land on the right warrior:
    first a D12 for each henchman and Hired Sword taken out of action (from version 4 each followed
    by his mount's), then one for each hero's mount (version 4), then a D66 for each hero (with
    Multiple Injuries' extra rolls). Each pass goes in roster order, the order in which the
    battle's deeds list the warband's fighters. From version 5 a monster rolls with the heroes
    (rules 2.1: "Monsters (River Troll, Rat Ogre) roll on the hero D66 table, not the D12");
    version 4 rolled him a henchman's D12. From version 7 a warrior taken out of action first loses
    the Shackles he carries ("lost if its owner is taken out of action", rules §2.2)."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = PHASE.begin(state, band, "injuries")
    out = out_of_action(battle, band.id, state)
    d66_roles = (*model.HEROES, model.MONSTER) if since(ctx, "5") else model.HEROES
    heroes = [f for f in out if state.fighters[f].role in d66_roles]
    for fighter_id in out:
        if state.fighters[fighter_id].active:
            lose_shackles(ctx, band, state.fighters[fighter_id])
    for fighter_id in [f for f in out if f not in heroes]:
        if state.fighters[fighter_id].active:
            henchman_injury(ctx, band, state.fighters[fighter_id])
    for fighter_id in heroes:
        if state.fighters[fighter_id].active:
            hero_mount_injury(ctx, band, state.fighters[fighter_id])
    for fighter_id in heroes:
        if state.fighters[fighter_id].active:
            hero_injury(ctx, band, battle, state.fighters[fighter_id])
    PHASE.finish(ctx, band, battle, "injuries")


# --- experience ----------------------------------------------------------------------------------------

XP_REASONS = {
    "survived": "survived the battle",
    "enemies-out-of-action": "took enemies out of action",
    "leader-won": "led the winning warband",
    "scenario": "scenario",
    "henchman-deed": "took out an enemy hero",
}
PARTICIPANT_ROLES: dict[str, Any] = {
    model.LEADER: "hero", model.HERO: "hero", model.HENCHMAN: "henchman-group", model.HIRED_SWORD: "hired-sword",
    model.ANIMAL: "animal", model.MONSTER: "monster",
}


def experience(cmd: Experience, ctx: Context) -> None:
    """Battle experience (seed 2.1 Experience 1-4); advances are rolled in the next step."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = PHASE.begin(state, band, "experience")
    deeds = fought(battle, band.id, state)
    fighters = [state.fighters[deed.fighter] for deed in deeds]
    deed_groups = {model.member(state, band, ref).id for ref in cmd.henchman_deeds}
    if deed_groups and since(ctx, "4"):  # version 3 let both pass without a word, and gave nothing
        if not model.campaign_options(ctx.options).henchman_deed_xp:
            raise RuleViolation("henchmen earn deed XP only where a scenario says so (D3): give it with --scenario-xp, "
                                "or start the campaign with the house rule henchman_deed_xp (rules 6.1) for --henchman-deed")
        if others := [state.fighters[g].name for g in deed_groups if state.fighters[g].role != model.HENCHMAN]:
            raise RuleViolation(f"{', '.join(others)}: --henchman-deed names a henchman group")
    participants = [
        rules.BattleParticipant(
            name=f.name, role=PARTICIPANT_ROLES[f.role], survived=f.active, is_leader=f.role == model.LEADER and f.active,
            enemies_out_of_action=len(deed.took_out), downed_enemy_hero_or_large_creature=f.id in deed_groups,
        )
        for f, deed in zip(fighters, deeds)
    ]
    if short := [f"{ref}={amount}" for ref, amount in cmd.scenario_xp.items() if amount < 1]:
        raise BadInput(f"--scenario-xp {', '.join(short)}: a scenario gives at least 1 XP")  # bad input, not a rule
    scenario = {model.member(state, band, ref).name: amount for ref, amount in cmd.scenario_xp.items()}
    awards = rules.battle_xp_awards(
        participants, won=battle.winner == band.id, scenario_awards=scenario,
        henchman_deed_xp=model.campaign_options(ctx.options).henchman_deed_xp,
    )
    by_name = {f.name: f for f in fighters}
    for award in awards:
        ctx.emit(ev.XPAwarded(warband=band.id, fighter=by_name[award.fighter].id, amount=award.amount,
                              reason=f"{_xp_reason(award, ctx)} (battle {battle.number})"))
    PHASE.finish(ctx, band, battle, "experience")


def _xp_reason(award: rules.XpAward, ctx: Context) -> str:
    """What an award is for, as stored; from version 9 one enemy taken out of action is one (version 8: "took
    enemies out of action" for one too)."""
    if award.reason == "enemies-out-of-action" and award.amount == 1 and since(ctx, "9"):
        return "took an enemy out of action"
    return XP_REASONS[award.reason]


def advance(cmd: Advance, ctx: Context) -> None:
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = PHASE.latest_battle(state, band)
    if battle is not None and not PHASE.is_done(state, band, "experience"):
        PHASE.begin(state, band, "advances")  # refuses with the step that comes first
    _refuse_answers_not_asked(cmd, ctx, band)
    refuse_names_unused_or_taken(ctx, band, cmd.names,
                                 model.member(ctx.state, band, cmd.fighter) if cmd.fighter is not None else None)
    if cmd.fighter is None:
        if cmd.threshold is not None:
            raise BadInput("name the warrior whose threshold to roll for")
        due = [f for f in state.fighters_of(band.id) if model.pending_thresholds(state, f, tables)]
        if not due:
            raise RuleViolation(f"{band.name} has no advances to roll")
        for fighter in due:
            _advance_fighter(ctx, band, fighter, None, cmd.names)
        if since(ctx, "8"):
            # A hero a Talent! made of a group member has his group's XP: a later hero threshold it passes
            # is his to roll now, as any hero's (seed 2.1, Experience 6). Version 7 left
            # it to another `advance` (the walk went on to the trading with it unrolled).
            rolled = {fighter.id for fighter in due}
            made = [f for f in state.fighters_of(band.id) if f.id not in rolled and model.pending_thresholds(state, f, tables)]
            for hero in made:
                _advance_fighter(ctx, band, hero, None, cmd.names)
        return
    _advance_fighter(ctx, band, model.member(state, band, cmd.fighter), cmd.threshold, cmd.names)


def _refuse_answers_not_asked(cmd: Advance, ctx: Context, band: Warband) -> None:
    """Answers typed now that these advances will not ask, as they tell before any roll, are refused (nothing
    rolled or written): the own advance of the hero a Talent! may make (`GROUP-promoted:XP:stat`) at a threshold he
    will not roll at them, as the walk refuses it (once he is made, it would pass as his documented key and go
    unused; one naming a warrior the warband has is his own); and with FIGHTER, an advance of another warrior, or
    with --threshold N one at another threshold, his Talent! hero's later ones too: those roll FIGHTER's alone."""
    if not ctx.typed_now:
        return
    state = ctx.state
    warriors = warriors_named(state, state.fighters_of(band.id, active_only=False))
    promotable = talent_may_promote(state, band.id)
    fighter = model.member(state, band, cmd.fighter) if cmd.fighter is not None else None
    for key in ctx.answers:
        # An advance's key: of a warrior of the campaign (a name misspelt is no question of the command), or of
        # the hero a Talent! may make, under the key his advances ask it.
        asked_as = key if documents_key(type(cmd), key, warriors_named(state)) else None
        if not documents_key(type(cmd), key, warriors) and matches_key(TALENT_ADVANCES, key, promotable):
            try:
                asked_as = talent_advance_asked_as(state, band.id, key)
            except BadInput as why:
                ctx.not_asked(key, str(why))
        if fighter is not None and asked_as is not None and not _rolled_by(cmd, fighter, asked_as, ctx):
            whose = f"{possessive(fighter.name)} advance" + (f" at {cmd.threshold} XP" if cmd.threshold is not None else "s")
            ctx.not_asked(key, f"`{advance_typed(band, fighter, cmd.threshold)}` rolls {whose} alone: give it to the "
                               f"advance that rolls it (`{advance_typed(band)}` rolls every one owed)")
        if asked_as is not None and (owing := _warrior_of(state, band, asked_as)) is not None:
            _refuse_an_advance_not_owed(ctx, key, owing, loose_key(asked_as).split(":")[1])


def _warrior_of(state: Any, band: Warband, key: str) -> Fighter | None:
    """The warrior of the warband whose advance the key names (None: another warband's, refused before)."""
    named = loose_key(key).split(":")[0]
    return next((f for f in state.fighters_of(band.id, active_only=False) if named in (f.id, slug(f.name))), None)


def _refuse_an_advance_not_owed(ctx: Context, key: str, warrior: Fighter, xp: str) -> None:
    """An answer for an advance at a threshold the warrior does not owe ("otto:9:stat", Otto owing one at 8 XP) is
    refused: it was accepted and left unused. Owed are the thresholds his XP passed since his last roll, and for a
    henchman group of one, which a Talent! makes a hero (version 8), the hero thresholds past the first of them."""
    tables = model.tables_for(ctx.options)
    owed = model.pending_thresholds(ctx.state, warrior, tables)
    if owed and warrior.role == model.HENCHMAN and warrior.group_size == 1 and since(ctx, "8"):
        owed = tuple(sorted({*owed, *rules.advance_thresholds_crossed(owed[0], warrior.xp, kind="hero", tables=tables)}))
    if not xp.isdecimal():
        ctx.not_asked(key, f"'{xp}' is not a number of XP")
    elif int(xp) not in owed:
        owes = f"owed: {numbers_listed(owed, 'and')} XP" if owed else f"none owed now, at {warrior.xp} XP"
        ctx.not_asked(key, f"{warrior.name} owes no advance at {xp} XP ({owes})")


def _rolled_by(cmd: Advance, fighter: Fighter, asked_as: str, ctx: Context) -> bool:
    """Whether the advance of FIGHTER (at --threshold N) asks `asked_as` (`WARRIOR:XP:…`), as far as can be told
    before any roll."""
    warrior, xp = loose_key(asked_as).split(":")[:2]
    return warrior in warriors_named(ctx.state, [fighter]) and (cmd.threshold is None or xp == str(cmd.threshold))


def _advance_fighter(ctx: Context, band: Warband, fighter: Fighter, threshold: int | None, names: dict[str, str]) -> None:
    """Roll one threshold (checked), or every threshold the warrior reached, lowest first."""
    tables = model.tables_for(ctx.options)
    due = model.pending_thresholds(ctx.state, fighter, tables)
    kind = model.advance_kind(fighter)
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
    # From version 8 what he owes is read again after each roll: a Talent! of a group of one makes the group
    # itself a hero, whose advances from there on are at the hero thresholds (seed 2.1, Experience 6), the
    # Talent!'s own roll being his advance at the threshold that made him. Version 7 went on through the
    # henchman thresholds due when the command began (a hero's roll at 7 XP), and left his hero ones owed.
    reread = threshold is None and since(ctx, "8")

    def owed() -> tuple[int, ...]:
        return model.pending_thresholds(ctx.state, ctx.state.fighters[fighter.id], tables) if reread else due

    reached = 0
    while later := [t for t in owed() if t > reached]:  # each roll goes higher: no threshold is rolled twice
        reached = later[0]
        roll_advance(ctx, band, ctx.state.fighters[fighter.id], reached, names)
