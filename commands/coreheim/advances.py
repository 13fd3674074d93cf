"""Rolling advances for thresholds reached: the hero table (also for Hired Swords and promoted
henchmen) and the henchman table with the group re-roll and Talent!.

Every roll is a D12 through `ctx.roll`, re-rolls included; every choice goes through
`ctx.choose` under a key that starts with the fighter's id and the threshold
("marksmen:2:group-reroll", "gunnar:24:stat", "gunnar:24:skill", "marksmen:2:skill-lists",
"marksmen:2:six-heroes"; the promoted hero's own roll uses "<group>:<threshold>:hero:…" and the
rest of the group's second roll "<group>:<threshold>:again:…").
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from commands.coreheim import events
from commands.coreheim import facts
from commands.coreheim import model
from commands.coreheim.outcomes import PIT_FIGHT, restate_deeds
from commands.kit import MoreDice, Rolled, resolve, since
from commands.coreheim import rules
from commands.coreheim.tables import AdvanceTable, CoreheimTables, StatAdvance
from commands.shared import unique_id
from ledger import events as ev
from ledger.decide import Context, Roll, written_as
from ledger.errors import AnswerRefused, BadInput
from ledger.state import Battle, CampaignState, Fighter, Warband
from ledger.text import as_spelled, possessive


GROUP_REROLL = ("keep", "re-roll")  # 2.4: a group's advance roll kept, or re-rolled once


def answer_choices(state: CampaignState) -> dict[str, list[str]]:
    """Every choice an advance's stat, a group's re-roll and a pit fight may offer in this campaign, whatever the dice:
    a stat of a row of the advance tables, keep or re-roll, won or lost. An answer given ahead that is none of them
    is refused before the roll."""
    tables = model.tables_for(state.options)
    stats = {stat for table in (tables.hero_advances, tables.henchman_advances) for row in table.rows
             if isinstance(row.advance, StatAdvance) for stat in row.advance.stats}
    return {"FIGHTER:XP:stat": sorted(stats, key=rules.STATS.index), "FIGHTER:XP:group-reroll": list(GROUP_REROLL),
            "HERO:pit-fight": list(PIT_FIGHT)}


def roll_advance(ctx: Context, band: Warband, fighter: Fighter, threshold: int, names: dict[str, str]) -> None:
    if fighter.role == model.HENCHMAN:
        henchman_advance(ctx, band, fighter, threshold, key=f"{fighter.id}:{threshold}", names=names,
                         talent_allowed=not model.talent_came_this_post_game(ctx.state, band, fighter))
    else:
        hero_advance(ctx, band, fighter, threshold, key=f"{fighter.id}:{threshold}")


def _stat_choice(ctx: Context, key: str, request: rules.ChoiceRequest, table: AdvanceTable) -> str:
    row = next(r for r in table.rows if r.id == request.id)
    return ctx.choose(f"{key}:stat", request.question, list(row.advance.stats))


def _roller(ctx: Context, fighter: Fighter, threshold: int, table: AdvanceTable, rolled: Rolled) -> Callable[[MoreDice], Roll]:
    """How an advance's rolls are named on the ledger: its first roll, then each re-roll."""
    def roll(need: MoreDice) -> Roll:
        label = "re-roll of the advance" if rolled.faces else "advance"
        return ctx.roll(table.die, purpose=f"{label} of {fighter.name} at {threshold} XP")

    return roll


def _faces(rolled: Rolled) -> list[int]:
    """The D12s of an advance as the rules read them: one face per roll, in the order rolled."""
    return [faces[0] for faces in rolled.faces.values()]


def hero_advance(ctx: Context, band: Warband, fighter: Fighter, threshold: int, key: str) -> None:
    tables = model.tables_for(ctx.options)
    rolled = Rolled()
    roll = _roller(ctx, fighter, threshold, tables.hero_advances, rolled)
    stat_choice: str | None = None
    no_skill = _no_skill(ctx, band, fighter, tables)

    def advance(dice: Rolled) -> rules.AdvanceResolution:
        return rules.resolve_hero_advance(
            _faces(dice), hero=fighter.name, characteristics=model.characteristics(fighter),
            race=model.race(ctx.state, fighter), stat_choice=stat_choice, no_skill=no_skill, tables=tables,
        )

    while not (resolution := resolve(ctx, advance, rolled, roll=roll)).complete:
        stat_choice = _stat_choice(ctx, key, resolution.pending[0], tables.hero_advances)
    _apply(ctx, band, fighter, threshold, key, resolution, tables)


def henchman_advance(
    ctx: Context, band: Warband, group: Fighter, threshold: int, key: str, names: dict[str, str], talent_allowed: bool = True
) -> None:
    tables = model.tables_for(ctx.options)
    rolled = Rolled()
    roll = _roller(ctx, group, threshold, tables.henchman_advances, rolled)
    stat_choice: str | None = None
    group_rerolls: int | None = None  # the face the group chose to re-roll
    offered = False
    # From version 9 the group is offered its re-roll of the result that stands, after any re-roll the rules forced
    # (a repeated characteristic, one past a maximum). Version 8 offered it only when the first roll stood.
    after_forced_rerolls = since(ctx, "9")

    def advance(dice: Rolled) -> rules.AdvanceResolution:
        return rules.resolve_henchman_advance(
            _faces(dice), group=group.name, group_size=group.group_size, characteristics=model.characteristics(group),
            race=model.race(ctx.state, group), advanced_stats=model.warrior(ctx.state, group).advanced_stats,
            group_rerolls=group_rerolls, talent_allowed=talent_allowed,
            may_repeat_stats="Twitchy" in group.skills + group.keywords, stat_choice=stat_choice, tables=tables,
        )

    while True:
        group = ctx.state.fighters[group.id]
        resolution = resolve(ctx, advance, rolled, roll=roll)
        faces = _faces(rolled)
        stands = (
            (resolution.complete and resolution.rolls and resolution.rolls[-1].outcome == "applied")
            or any(isinstance(p, rules.ChoiceRequest) for p in resolution.pending)
        )
        if stands and (len(faces) == 1 or after_forced_rerolls) and not offered and group.group_size >= 2:
            # 2.4: a group of two or more may re-roll each advance once; the second result stands.
            offered = True
            row = next(r for r in tables.henchman_advances.rows if r.min <= faces[-1] <= r.max)
            answer = ctx.choose(f"{key}:group-reroll", f"{group.name} rolled {faces[-1]} ({row.name}): keep it or re-roll once?",
                                list(GROUP_REROLL))
            if answer == GROUP_REROLL[1]:
                group_rerolls, stat_choice = len(faces) - 1, None
                continue
        if resolution.complete:
            if not isinstance(resolution.advance, rules.Talent):
                break
            if _talent(ctx, band, group, threshold, key, names, resolution, tables):
                return
            talent_allowed = False  # six heroes, and the player re-rolls rather than sack one
            continue
        stat_choice = _stat_choice(ctx, key, resolution.pending[0], tables.henchman_advances)
    _apply(ctx, band, group, threshold, key, resolution, tables)


def _rows(resolution: rules.AdvanceResolution) -> list[str]:
    return [roll.row_id for roll in resolution.rolls]


def _apply(
    ctx: Context, band: Warband, fighter: Fighter, threshold: int, key: str,
    resolution: rules.AdvanceResolution, tables: CoreheimTables,
) -> None:
    row = resolution.rolls[-1].row_id if resolution.rolls else ""
    reason = f"advance at {threshold} XP"
    match resolution.advance:
        case rules.StatImproved(stat=stat, delta=delta, old=old, new=new):
            ctx.emit(
                events.AdvanceRolled(warband=band.id, fighter=fighter.id, threshold=threshold, rows=_rows(resolution),
                                 result=f"{stat} {old} -> {new}", stat=stat),
                ev.StatChanged(warband=band.id, fighter=fighter.id, stat=stat, delta=delta, reason=reason, row=row),
            )
        case rules.NewSkill():
            lists = model.skill_lists(ctx.state, fighter, band, tables)
            if not lists:
                ctx.emit(
                    events.AdvanceRolled(warband=band.id, fighter=fighter.id, threshold=threshold, rows=_rows(resolution),
                                     result="new skill"),
                    ev.NoteRecorded(text=f"pending decision: {fighter.name} learns a skill from his own entry's list "
                                         f"({row}); the warband lists do not give it", warband=band.id, fighter=fighter.id),
                )
                return
            skill, source = _skill(ctx, band, fighter, key, lists, tables)
            ctx.emit(
                events.AdvanceRolled(warband=band.id, fighter=fighter.id, threshold=threshold, rows=_rows(resolution),
                                 result=f"new skill: {skill}"),
                ev.SkillLearned(warband=band.id, fighter=fighter.id, skill=skill, reason=f"{reason} ({source} list)", row=row),
            )
        case rules.NoAdvancePossible(reason=why):
            ctx.emit(events.AdvanceRolled(warband=band.id, fighter=fighter.id, threshold=threshold, rows=[],
                                      result=f"no advance possible: {why}"))


def _learnable(
    ctx: Context, band: Warband, fighter: Fighter, lists: tuple[str, ...], tables: CoreheimTables
) -> tuple[list[str], Callable[[str], str]]:
    """The skills of his lists the hero may learn, and the rules' check of one (which says why not,
    or which list it comes from)."""
    listing = model.band_list(band, tables)[0]
    others = {f.name: f.skills for f in ctx.state.fighters_of(band.id) if f.id != fighter.id}
    casual = model.campaign_options(ctx.options).mode == "casual"

    def check(skill: str) -> str:
        return rules.check_new_skill(skill, hero=fighter.name, skill_lists=lists, known_skills=fighter.skills,
                                     warband=listing.id, warband_skills=others, casual=casual, tables=tables)

    allowed = []
    for skill in dict.fromkeys(s for sl in tables.skills.lists if sl.id in lists for s in sl.skills):
        try:
            check(skill)
        except rules.CoreheimRuleError:
            continue
        allowed.append(skill)
    return allowed, check


def _no_skill(ctx: Context, band: Warband, fighter: Fighter, tables: CoreheimTables) -> str | None:
    """Why the hero can learn no skill, when his lists leave him none (version 7): a new skill is then
    re-rolled as an advance that cannot apply ("When no row of the table could ever apply, the advance
    is lost instead of re-rolling forever", rules). Version 6 asked which skill among none, a refusal
    no answer could lift."""
    lists = model.skill_lists(ctx.state, fighter, band, tables)
    if not since(ctx, "7") or not lists or _learnable(ctx, band, fighter, lists, tables)[0]:
        return None
    return f"{fighter.name} has no skill left to learn from {', '.join(lists)}"


def _skill(
    ctx: Context, band: Warband, fighter: Fighter, key: str, lists: tuple[str, ...], tables: CoreheimTables
) -> tuple[str, str]:
    """The skill the player picks, checked by the rules (so a refusal says why)."""
    allowed, check = _learnable(ctx, band, fighter, lists, tables)
    answer_key = f"{key}:skill"
    given = ctx.answers.get(answer_key)
    # Answered now, a skill named in another case ("blaze") is the choice's to spell, and one given ahead of ledger
    # dice its to drop and ask once they are stored: checked here, it was refused, and with ledger dice it stayed
    # with the pending decision. A recorded answer is checked as it was; one given now that he cannot learn is bad
    # input (exit 2), as any answer the choices refuse is, saying why.
    if given is not None and not (ctx.answered_now(answer_key) and (as_spelled(given, allowed) or ctx.dealt_ledger_faces())):
        try:
            check(given)
        except rules.CoreheimRuleError as refused:
            if not ctx.answered_now(answer_key):
                raise
            raise AnswerRefused(str(refused), [answer_key]) from None
    skill = ctx.choose(answer_key, f"{fighter.name} learns a skill ({', '.join(lists)})", allowed)
    return skill, check(skill)


def _promoted_name(ctx: Context, band: Warband, group: Fighter, given: str | None) -> str:
    """The name of the member Talent! promotes: the one given with --name, else "GROUP (promoted)".
    From version 2 names stay unique in the warband (v1 gave every promotion of a group the same
    name): a given name already used is refused, and the default is numbered, "GROUP (promoted 2)"."""
    if not since(ctx, "2"):
        return given or f"{group.name} (promoted)"
    taken = _names_taken(ctx, band)
    if given is not None:
        _refuse_name_taken(band, group, given, taken)
        return given
    name, number = f"{group.name} (promoted)", 1
    while name.lower() in taken:
        number += 1
        name = f"{group.name} (promoted {number})"
    return name


def _names_taken(ctx: Context, band: Warband) -> set[str]:
    return {f.name.lower() for f in ctx.state.fighters_of(band.id, active_only=False)}


def _refuse_name_taken(band: Warband, group: Fighter, given: str, taken: set[str]) -> None:
    if given.lower() in taken:
        raise BadInput(f"{band.name} already has a fighter called {given}: "
                       f"give the member {group.name} promotes another name (--name {group.name}=NAME)")


def refuse_names_unused_or_taken(ctx: Context, band: Warband, names: dict[str, str], fighter: Fighter | None) -> None:
    """Names given for the member a Talent! may promote (--name GROUP=NAME), refused before any roll (typed now): one
    for a warrior who is no henchman group, or (from version 5) for a group of one, which a Talent! makes a hero under
    its own name, for a group that owes no advance, or, with FIGHTER, for another group than his, as no Talent! would
    use it (it was accepted and ignored); and from version 2, when names stay
    unique, one a warrior of the warband has: refused at the Talent!, ledger dice were seen and the advances left
    pending with that name, which no answer changes; voided, they were rolled anew."""
    if not ctx.typed_now:
        return
    taken = _names_taken(ctx, band)
    for group_id, given in names.items():
        if (group := ctx.state.fighters.get(group_id)) is None:
            continue
        if group.role != model.HENCHMAN:
            raise BadInput(f"--name {group.name}={given}: {group.name} is not a henchman group; --name names the member "
                           f"a Talent! promotes from one")
        if group.group_size == 1 and since(ctx, "5"):
            raise BadInput(f"--name {group.name}={given}: {group.name} is a henchman group of one, whom a Talent! makes a "
                           f"hero under his own name")
        if fighter is not None and fighter.id != group.id:
            raise BadInput(f"--name {group.name}={given}: this advance rolls {possessive(fighter.name)} alone, so no "
                           f"Talent! of {possessive(group.name)}")
        if not model.pending_thresholds(ctx.state, group, model.tables_for(ctx.options)):
            raise BadInput(f"--name {group.name}={given}: {group.name} owes no advance now (at {group.xp} XP), so no "
                           f"Talent! to promote a member")
        if since(ctx, "2"):
            _refuse_name_taken(band, group, given, taken)


def _battle_the_whole_group_went_out_of(ctx: Context, band: Warband, group: Fighter) -> Battle | None:
    """The warband's latest battle, where every member the group has now was taken out of action
    (so the member Talent! promotes was too); None otherwise, or before version 3, where the new
    hero fought no battle yet and could look for rare items as a hero not taken out of action."""
    battle = ctx.state.latest_battle(band.id)
    counts = facts.of(ctx.state).warband(band.id).henchmen_out
    if not since(ctx, "3") or battle is None or counts is None or counts.battle != battle.number:
        return None
    return battle if counts.all_out(group) else None


def _lists_in_any_order(ctx: Context, key: str, pairs: list[str]) -> None:
    """The skill lists a Talent! picks, answered in any order: "speed+strength" is the pair offered as
    strength+speed (it was refused, as one that is not offered)."""
    typed = key if key in ctx.answers else written_as(key, ctx.answers)
    if typed is not None:
        named = sorted(part.strip().casefold() for part in ctx.answers[typed].split("+"))
        ctx.answers[typed] = next((pair for pair in pairs if sorted(pair.casefold().split("+")) == named), ctx.answers[typed])


def _answered_under_his_name(ctx: Context, his: str, key: str) -> None:
    """The new hero's own advance answered under his name (`marksmen-promoted:2:stat`: his roll is "advance
    of Marksmen (promoted) at 2 XP") is answered under the key the rules ask (`marksmen:2:hero:stat`), and
    recorded so: decided again, it reads the same answer. Typed now only (the walk takes it ahead, as the
    advances step may make him): a command recorded before reads its answers as it did."""
    for question in model.HERO_ADVANCE_QUESTIONS:
        named = f"{his}:{question}"
        typed = named if named in ctx.answers else written_as(named, ctx.answers)
        if typed is not None and f"{key}:{question}" not in ctx.answers:
            ctx.answers[f"{key}:{question}"] = ctx.answers.pop(typed)


def _talent(
    ctx: Context, band: Warband, group: Fighter, threshold: int, key: str, names: dict[str, str],
    resolution: rules.AdvanceResolution, tables: CoreheimTables,
) -> bool:
    """Talent!: one member becomes a hero with two skill lists and rolls once on the hero table;
    the rest of the group rolls again. False when the player re-rolls rather than sack a hero."""
    state = ctx.state
    listing, variant = model.band_list(band, tables)
    heroes = model.heroes(state, band)
    # A group of one is itself promoted, under its own name (version 5): version 4 named a
    # "GROUP (promoted)" in the log and questions who never came to be.
    alone = group.group_size == 1 and since(ctx, "5")
    name = group.name if alone else _promoted_name(ctx, band, group, names.get(group.id))
    sack: str | None = None
    if len(heroes) >= tables.warbands.max_heroes:
        picked = ctx.choose(f"{key}:six-heroes", f"{band.name} has {len(heroes)} heroes: sack one for {name}, or re-roll?",
                            ["re-roll", *(h.name for h in heroes if h.role != model.LEADER)])
        if picked == "re-roll":
            return False
        sack = picked
    fixed = set(next((v.promoted_extra_lists for v in listing.variants if v.id == variant), ()))
    optional = next((v.promoted_optional_lists for v in listing.variants if v.id == variant), ())
    open_lists = [sl.id for sl in tables.skills.lists
                  if (sl.id in {x for h in listing.hero_types for x in h.skill_lists} or sl.id in optional) and sl.id not in fixed]
    pairs = ["+".join(pair) for pair in combinations(open_lists, tables.warbands.talent_skill_list_count)]
    # Version 4's question ended in a colon, doubled where a refusal adds its own ("lists:: 'x' is
    # not one of"); a pending decision stores the question, so the colon goes from version 5.
    colon = "" if since(ctx, "5") else ":"
    _lists_in_any_order(ctx, f"{key}:skill-lists", pairs)
    chosen = ctx.choose(f"{key}:skill-lists", f"{name} picks {tables.warbands.talent_skill_list_count} skill lists{colon}",
                        pairs)
    promotion = rules.resolve_talent(
        group=group.name, group_size=group.group_size, new_hero=name, heroes_in_warband=len(heroes),
        warband=listing.id, variant=variant, chosen_skill_lists=chosen.split("+"), sack_hero=sack, tables=tables,
    )
    row = resolution.rolls[-1].row_id
    ctx.emit(events.AdvanceRolled(warband=band.id, fighter=group.id, threshold=threshold, rows=_rows(resolution),
                              result=f"Talent! {name} becomes a hero"))
    if sack is not None:
        sacked = next(h for h in heroes if h.name == sack)
        ctx.emit(ev.FighterRetired(warband=band.id, fighter=sacked.id, reason=f"sacked to make room for {name}"))
    profile = {"warrior_type": model.warrior(state, group).type, "race": model.race(state, group),
               "skill_lists": list(promotion.skill_lists), "advanced_to": threshold}
    if group.group_size == 1:
        hero_id = group.id
    else:
        went_out_in = _battle_the_whole_group_went_out_of(ctx, band, group)
        hero_id = unique_id(name, state.fighters)
        ctx.emit(
            events.GroupSizeChanged(warband=band.id, fighter=group.id, delta=-1, reason=f"{name} leaves the group: Talent!", row=row),
            ev.FighterRecruited(warband=band.id, fighter=hero_id, name=name, role=model.HENCHMAN, stats=dict(group.stats),
                                equipment=list(group.equipment), cost=group.cost, xp=group.xp),
        )
        if went_out_in is not None:  # "Heroes not taken out of action can look for rare items" (seed 002, Trading)
            restate_deeds(ctx, band.id, went_out_in, hero_id, joins=True, out_of_action=True)
    ctx.emit(
        ev.FighterPromoted(warband=band.id, fighter=hero_id, role=model.HERO, reason=f"Talent! ({row})"),
        events.WarriorProfile(warband=band.id, fighter=hero_id, **profile),
    )
    if ctx.typed_now and hero_id != group.id:
        _answered_under_his_name(ctx, f"{hero_id}:{threshold}", f"{key}:hero")
    hero_advance(ctx, band, state.fighters[hero_id], threshold, key=f"{key}:hero")
    if promotion.group_rolls_again:
        henchman_advance(ctx, band, state.fighters[group.id], threshold, f"{key}:again", names, talent_allowed=False)
    return True
