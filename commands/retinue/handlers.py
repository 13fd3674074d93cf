"""Retinue's handlers: the pure rules of `rules.py` run on the ledger.

Each step of the post-game (`phase.py`) begins and finishes through the kit's `Phase`. Purchases
(`retinue.buy`) are taken whenever the fighter can pay ("if you have the XP, you can spend it"; from
1.5.0 the "did not go Out of Action" +1 only once the Doom Table is rolled, E5);
the guided post-game offers them before its last step. Every refusal of the rules
(`RetinueRuleError`) reaches the player as a RuleViolation in one place, the handler table.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import msgspec

from commands.kit import as_spelled, possessive_since, refusing, since
from commands.shared import (
    SHARED_HANDLERS,
    AwardXP,
    Correct,
    RecordBattle,
    RecruitFighter,
    SpendXP,
    active_fighter,
    battle_record,
    correct_keywords_one_by_one,
    unique_id,
)
from ledger import events as ev
from ledger.decide import Command, Context, written_as
from ledger.describe import plural
from ledger.errors import BadInput, RuleViolation
from ledger.state import Battle, CampaignState, Fighter, Warband
from ledger.text import possessive
from projections.battles import fought, out_of_action

from . import rules as r
from .commands import BattlePass, Buy, Casualties, Doom, PostGamePass, Recruit, ScenarioPass, SpendingDone
from .events import OutcomeRolled, outcomes_of
from .options import data_for, options_for
from .phase import PHASE
from .tables import ATTRIBUTES, RetinueData

LEADER_ROLE = "leader"

# --- the campaign's data and the rules' view of the state ---------------------------------------


def rules_fighter(fighter: Fighter) -> r.Fighter:
    return r.Fighter(id=fighter.id, name=fighter.name, stats=dict(fighter.stats), keywords=tuple(fighter.keywords),
                     feats=tuple(fighter.skills), xp=fighter.xp)


def begin(ctx: Context, warband: str, step: str) -> tuple[Warband, Battle]:
    """The warband and its latest battle, once it is this step's turn (E2: passes in order)."""
    band = ctx.state.warband(warband)
    return band, PHASE.begin(ctx.state, band, step)


def finish(ctx: Context, band: Warband, battle: Battle, step: str) -> None:
    PHASE.finish(ctx, band, battle, step)


def emit_awards(ctx: Context, band: Warband, awards: list[r.Award]) -> None:
    for award in awards:
        ctx.emit(ev.XPAwarded(warband=band.id, fighter=award.fighter, amount=award.amount, reason=award.reason))


def is_leader(fighter: Fighter) -> bool:
    return fighter.role.casefold() == LEADER_ROLE or "leader" in {k.casefold() for k in fighter.keywords}


# --- handlers -----------------------------------------------------------------------------------


def spelled(name: str | None, known: Iterable[str], unknown: str) -> str | None:
    """The data's own spelling of `name` whatever its case (None stays None); `unknown` refuses one
    the data does not have."""
    if name is None:
        return None
    found = as_spelled(name, known)
    if found is None:
        raise BadInput(unknown)
    return found


def recruit(cmd: Recruit, ctx: Context) -> None:
    """A fighter with its ancestry, archetype and domain as keywords (S4, S5, S7, S8 read them);
    S9's limits apply at recruitment too."""
    data = data_for(ctx.state)
    band = ctx.state.warband(cmd.warband)
    if not cmd.name.strip() or cmd.cost < 0:
        raise BadInput("a fighter needs a name, and a cost of 0 or more")
    ancestry_name, archetype, domain = (
        spelled(name, known, f"no {kind} '{name}' in this campaign's data ({', '.join(known)})")
        for kind, name, known in (("ancestry", cmd.ancestry, data.ancestries), ("archetype", cmd.archetype, data.archetypes),
                                  ("domain", cmd.domain, data.domains)))
    given = {spelled(a, ATTRIBUTES, f"no attribute {a} (attributes: {', '.join(ATTRIBUTES)})"): v for a, v in cmd.stats.items()}
    if len(given) < len(cmd.stats):
        raise BadInput(f"an attribute is given twice: {', '.join(cmd.stats)}")
    ancestry = data.ancestries[ancestry_name]
    stats = {a: given.get(a, ancestry.baselines[a]) for a in ATTRIBUTES}
    out_of_range = [f"{a} {v}" for a, v in stats.items() if not 1 <= v <= 6]
    if out_of_range:
        raise RuleViolation(f"S6: attributes run from 1 to 6, not {', '.join(out_of_range)}")
    given_keywords = list(cmd.keywords)
    if since(ctx, "1.4.0"):
        given_keywords = [keyword.strip() for keyword in given_keywords if keyword.strip()]  # " Warrior" was a keyword
        _refuse_keywords_with_options_of_their_own(given_keywords, data)
    keywords = list(dict.fromkeys([ancestry_name, *ancestry.keywords, *filter(None, (archetype, domain)), *given_keywords]))
    if any(f.name.casefold() == cmd.name.strip().casefold() for f in ctx.state.fighters_of(band.id)):
        raise RuleViolation(f"{band.name} already has a fighter called {cmd.name}")
    leads = cmd.leader or "leader" in {k.casefold() for k in keywords}
    if since(ctx, "1.2.0") and leads and (leader := next((f for f in ctx.state.fighters_of(band.id) if is_leader(f)), None)):
        raise RuleViolation(f"{band.name} is led by {leader.name}: a retinue has one Leader (\"the enemy Leader\", E3)")
    newcomer = r.Fighter(id="", name=cmd.name.strip(), stats=stats, keywords=tuple(keywords))
    r.check_caster_limits([rules_fighter(f) for f in ctx.state.fighters_of(band.id)] + [newcomer])
    if cmd.paid and cmd.cost > band.treasury:
        raise RuleViolation(f"{band.name} has {band.treasury} in the treasury; {cmd.name} costs {cmd.cost}")
    fighter_id = unique_id(cmd.name, ctx.state.fighters)
    ctx.emit(ev.FighterRecruited(warband=band.id, fighter=fighter_id, name=newcomer.name,
                                 role=LEADER_ROLE if cmd.leader else "fighter", stats=stats, keywords=keywords, cost=cmd.cost))
    if cmd.paid and cmd.cost:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-cmd.cost, reason=f"recruited {newcomer.name}"))


def _refuse_keywords_with_options_of_their_own(keywords: Iterable[str], data: RetinueData) -> None:
    """1.4.0: an ancestry, Archetype or Domain is given by its own option, once. As a keyword it made a
    second one (`--ancestry Human --keyword Dwarf`), and the baselines S7 reads, or the casting
    attribute S8 reads, then hung on the order of the keywords; 1.3.0 took it."""
    for keyword in keywords:
        for kind, known, option in (("an ancestry", data.ancestries, "--ancestry"), ("an Archetype", data.archetypes, "--archetype"),
                                    ("a Domain", data.domains, "--domain")):
            if as_spelled(keyword, list(known)) is not None:
                raise BadInput(f"--keyword {keyword} is {kind}: a fighter has one, given with {option}")


def record_battle(cmd: RecordBattle, ctx: Context) -> None:
    """The shared battle record, refused while a warband that fought has a post-game unfinished."""
    PHASE.refuse_unfinished(ctx.state, [ctx.state.warband(ref).id for ref in cmd.participants])
    ctx.emit(battle_record(cmd, ctx))


def enemy_key(victim: str, state: CampaignState) -> str:
    """A `--took-out` enemy: a fighter's id, or the name of one the ledger does not track, whatever its case."""
    return victim if victim in state.fighters else victim.casefold()


def takers_of(battle: Battle, state: CampaignState) -> dict[str, list[str]]:
    """Each enemy taken out in the battle -> the fighters of any side credited with it, each once."""
    takers: dict[str, list[str]] = {}
    for deed in battle.deeds:
        for victim in dict.fromkeys(enemy_key(v, state) for v in deed.took_out):
            takers.setdefault(victim, []).append(deed.fighter)
    return takers


def battle_pass(cmd: BattlePass, ctx: Context) -> None:
    band, battle = begin(ctx, cmd.warband, "battle-pass")
    state = ctx.state
    own = fought(battle, band.id, state)
    deeds = [r.BattleDeed(fighter=d.fighter, went_out_of_action=d.out_of_action) for d in own]
    # `took_out` holds enemies put Out of Action by a direct action the fighter resolved (E4); an
    # enemy removed by an indirect effect is Out of Action with no fighter credited.
    removals = []
    put_out = {d.fighter for d in battle.deeds if d.out_of_action}
    takers = takers_of(battle, state)
    for deed in own:
        for victim in deed.took_out:
            enemy = state.fighters.get(victim)
            if enemy is not None and victim not in put_out and since(ctx, "1.1.0"):
                continue  # E3: an enemy on a roster who did not go Out of Action (`--not-out`, or absent) earns nothing
            # 1.3.0, E4: "the fighter who resolves the attack … that causes the Out of Action earns the XP":
            # one fighter, and which one only the players know (not the order of --took-out).
            if since(ctx, "1.3.0") and len(credited := takers[enemy_key(victim, state)]) > 1:
                name = enemy.name if enemy else victim
                raise RuleViolation(
                    f"E4: {name} went Out of Action once in battle {battle.number}, and it is credited to "
                    f"{' and '.join(state.fighters[f].name for f in credited)}: only the fighter who resolved the final "
                    f"action earns it. Void the battle (campaign void T{battle.tx} --reason …) and record it again "
                    f"with one --took-out for {name}")
            removals.append(r.Removal(victim=enemy.name if enemy else victim, by=deed.fighter, direct=True,
                                      victim_is_leader=enemy is not None and is_leader(enemy)))
    emit_awards(ctx, band, r.battle_awards(deeds, removals))
    finish(ctx, band, battle, "battle-pass")


def scenario_pass(cmd: ScenarioPass, ctx: Context) -> None:
    band, battle = begin(ctx, cmd.warband, "scenario-pass")
    names = {f.id: f.name for f in ctx.state.fighters_of(band.id)}
    awards = [msgspec.structs.replace(a, fighter=_member_id(
        ctx.state, band, a.fighter, names, f"E6: scenario XP goes to a named fighter of the retinue, and '{a.fighter}' is "
                                           "not one (never retinue-wide unless the scenario names a specific fighter)"))
              for a in cmd.awards]
    _given_once(ctx, "--award", [a.fighter for a in awards])
    # 1.3.0, E6: scenario XP is the battle's: a fighter recruited since (or absent) had no part in its scenario.
    if since(ctx, "1.3.0") and (newcomer := _not_in(battle, band, ctx.state, [a.fighter for a in awards])):
        raise RuleViolation(f"E6: {names[newcomer]} did not fight in battle {battle.number} (recruited since, or "
                            "absent): scenario XP is earned in that battle's scenario")
    emit_awards(ctx, band, r.scenario_awards(awards, names))
    finish(ctx, band, battle, "scenario-pass")


def _not_in(battle: Battle, band: Warband, state: CampaignState, fighters: Iterable[str]) -> str | None:
    """The first of `fighters` (ids) of the warband who did not fight in `battle`: recruited since, or absent."""
    played = {deed.fighter for deed in fought(battle, band.id, state)}
    return next((fighter for fighter in fighters if fighter not in played), None)


def _fighter_id(state: CampaignState, band: Warband, ref: str) -> str:
    """The id of a fighter of the warband named by id or name (left as given when none is)."""
    return next((f.id for f in state.fighters_of(band.id, active_only=False) if ref.casefold() in (f.id, f.name.casefold())), ref)


def _member_id(state: CampaignState, band: Warband, ref: str, names: dict[str, str], unknown: str) -> str:
    """The id of the fighter of `names` (id -> name) that `ref` names; any other is refused with
    `unknown` as bad input, as an unknown fighter is everywhere (exit 2)."""
    fighter = _fighter_id(state, band, ref)
    if fighter not in names:
        raise BadInput(unknown)
    return fighter


# The names offered for a roll's outcome; any other is a group's own row (A3), recorded as named.
OUTCOME_CHOICES = ("Slain", "Captured", "Hardy", "Recovered")
DOOM_CHOICES = ("Slain", "Captured", "Miraculous", "Spared")


def _roll_outcome(ctx: Context, cmd: Casualties | Doom, band: Warband, battle: Battle, fighter: Fighter, table: str,
                  named: str | None) -> None:
    """One roll on the Casualty (D6) or Doom (2D6) Table, read from the data (A3 "data") or named
    by the player (A3 "by-name"), and its shared consequence."""
    options = options_for(ctx.state)
    rows = getattr(data_for(ctx.state), table)
    roll = ctx.roll(rows.dice, purpose=f"{possessive_since(ctx, '1.8.0', fighter.name)} {table.capitalize()} Table")
    if options.outcome_tables == "data":
        if named is not None:
            raise _read_from_data(table)
        row = rows.row_for(roll.value)
        outcome, kind, row_id = row.outcome, row.kind, f"{table} {roll.value}"
    else:
        choices = OUTCOME_CHOICES if table == "casualty" else DOOM_CHOICES
        key = f"{table}:{fighter.id}"
        # From 1.2.0 an answer for the key names the outcome over the command's own: a reroll's
        # --answer restates what the new roll gave (the one named with the old roll rode along).
        answered = since(ctx, "1.2.0") and ctx.given(key) is not None
        if named is not None and not answered and roll.anew and since(ctx, "1.6.0"):
            # 1.6.0: the outcome named was read off the disputed roll; the new roll's is asked for, and the command
            # is recorded without it so that, decided again, it asks too (a pending decision waits for it)
            recorded = ctx.recorded_as or cmd
            ctx.record_without(msgspec.structs.replace(recorded, outcomes={
                ref: outcome for ref, outcome in recorded.outcomes.items() if _fighter_id(ctx.state, band, ref) != fighter.id}))
            named = None
        if named is not None and not answered:
            # From 1.3.0 an outcome named on the command line is recorded as the rules spell it, as an answer is
            outcome = (as_spelled(named.strip(), choices) or named) if since(ctx, "1.3.0") else named
        else:
            outcome = ctx.choose(key, f"{fighter.name} rolled {roll.value} on the {table.capitalize()} Table: the outcome",
                                 choices, open_ended=True)
        kind, row_id = r.outcome_by_name(table, outcome, loosely_refused=since(ctx, "1.8.0")), ""  # type: ignore[arg-type]
    ctx.emit(OutcomeRolled(warband=band.id, fighter=fighter.id, battle=battle.number, table=table, roll=roll.number,
                           result=roll.value, outcome=outcome.strip(), kind=kind, row=row_id))
    reason = f"{outcome.strip()} on the {table.capitalize()} Table"
    if kind == "slain":
        ctx.emit(ev.FighterDied(warband=band.id, fighter=fighter.id, reason=reason, row=row_id))
    elif kind == "captured":
        ctx.emit(ev.FighterCaptured(warband=band.id, fighter=fighter.id, reason=reason, row=row_id))
    elif kind == "injury":
        ctx.emit(ev.InjurySuffered(warband=band.id, fighter=fighter.id, injury=outcome.strip(), row=row_id))


def _read_from_data(table: str) -> BadInput:
    return BadInput(f"A3: this campaign reads the {table.capitalize()} Table from its data: do not name the outcome")


def _refuse_named_outcomes_before_the_roll(ctx: Context, table: str, named: dict[str, str], rolling: list[Fighter]) -> None:
    """Typed now, an outcome named that its roll would refuse (A3 "data": none is named; by name, an empty one, or
    E7's Miraculous on the Casualty Table, Hardy on the Doom Table) is refused before a die is rolled: refused after
    the roll, ledger dice were seen and the decision left pending, a void away from a new roll. One an answer for the
    roll replaces (1.2.0) is not read; the answer, given now (the walk's `casualty:finch=Miraculous`), is checked
    likewise, as it stood with the pending decision. Recorded commands decide as they did."""
    if not ctx.typed_now:
        return
    by_name = options_for(ctx.state).outcome_tables != "data"
    if named and not by_name:
        raise _read_from_data(table)
    for fighter in rolling if by_name else ():
        key = f"{table}:{fighter.id}"
        answered = key if key in ctx.answers else written_as(key, ctx.answers)
        read = answered is not None and (since(ctx, "1.2.0") or fighter.id not in named)  # 1.1.0 read --outcome first
        if read and ctx.answered_now(key) and ctx.answers[answered].strip():  # one left empty is asked for
            r.outcome_by_name(table, ctx.answers[answered], loosely_refused=since(ctx, "1.8.0"))  # type: ignore[arg-type]
        elif fighter.id in named and not read:
            r.outcome_by_name(table, named[fighter.id], loosely_refused=since(ctx, "1.8.0"))  # type: ignore[arg-type]


def _given_once(ctx: Context, option: str, fighters: list[str]) -> None:
    """1.6.0: a fighter (by id) named twice to `option` — in another case, or by id and name — is refused as
    the same name twice is (`--award Finch=2 --award Finch=3`); 1.5.0 took both awards, and the last outcome."""
    twice = next((fighter for n, fighter in enumerate(fighters) if fighter in fighters[:n]), None)
    if twice is not None and since(ctx, "1.6.0"):
        raise BadInput(f"{option} {ctx.state.fighters[twice].name} is given twice")


def _named(ctx: Context, band: Warband, outcomes: dict[str, str], rolling: list[Fighter], why_not: str) -> dict[str, str]:
    """The outcomes named with --outcome, by fighter id. One named for a fighter of the warband who does
    not roll is refused by his name, with `why_not` (formatted with it) saying why and what to type."""
    named = []
    for ref, outcome in outcomes.items():
        fighter = ctx.state.fighter(_fighter_id(ctx.state, band, ref), band.id)
        if fighter.id not in {f.id for f in rolling}:
            raise BadInput(f"--outcome {ref}: {why_not.format(name=fighter.name)}")
        named.append((fighter.id, outcome))
    _given_once(ctx, "--outcome", [fighter for fighter, _ in named])
    return dict(named)


def casualties(cmd: Casualties, ctx: Context) -> None:
    """Every fighter of the warband that went Out of Action rolls on the Casualty Table (D6)."""
    band, battle = begin(ctx, cmd.warband, "casualty")
    rolling = [ctx.state.fighters[fighter] for fighter in out_of_action(battle, band.id, ctx.state)]
    named = _named(ctx, band, cmd.outcomes, rolling, f"{{name}} did not go Out of Action in battle {battle.number}, "
                   "and the Casualty Table is rolled for each fighter who did")
    _refuse_named_outcomes_before_the_roll(ctx, "casualty", named, rolling)
    for fighter in rolling:
        _roll_outcome(ctx, cmd, band, battle, fighter, "casualty", named.get(fighter.id))
    finish(ctx, band, battle, "casualty")


def doom(cmd: Doom, ctx: Context) -> None:
    """The named fighters of the warband, still in it (from 1.5.0: who fought the battle), roll on the Doom Table (2D6)."""
    band, battle = begin(ctx, cmd.warband, "doom")
    rolling = [active_fighter(ctx.state, ref, band.id) for ref in cmd.fighters]
    if len({f.id for f in rolling}) != len(rolling):
        raise BadInput("name each fighter rolling on the Doom Table once")
    # 1.5.0, E7: the Doom Table follows the battle, for its fighters: one recruited since, or absent, was in no danger.
    if since(ctx, "1.5.0") and (newcomer := _not_in(battle, band, ctx.state, [f.id for f in rolling])):
        raise RuleViolation(f"E7: {ctx.state.fighters[newcomer].name} did not fight in battle {battle.number} (recruited "
                            "since, or absent): the Doom Table is rolled after that battle, for a fighter who fought it")
    named = _named(ctx, band, cmd.outcomes, rolling,
                   "{name} is not named to roll on the Doom Table: name each fighter who rolls with --fighter (--fighter {name})")
    _refuse_named_outcomes_before_the_roll(ctx, "doom", named, rolling)
    for fighter in rolling:
        _roll_outcome(ctx, cmd, band, battle, fighter, "doom", named.get(fighter.id))
    finish(ctx, band, battle, "doom")


def post_game_pass(cmd: PostGamePass, ctx: Context) -> None:
    band, battle = begin(ctx, cmd.warband, "post-game-pass")
    state = ctx.state
    outcomes = outcomes_of(state, band.id, battle.number)
    members = state.fighters_of(band.id, active_only=False)
    names = {f.id: f.name for f in members}
    dead = [f.id for f in members if f.status == "dead"]
    bonus = [(_member_id(state, band, b.fighter, names, f"E7: '{b.fighter}' is not a fighter of the retinue"), b.reason)
             for b in cmd.bonus]
    # 1.5.0, E7: "+1 Experience to one named or selected surviving fighter": a survival roll or scenario
    # result of this battle, so one who survived it; a fighter recruited since, or absent, survived nothing.
    if since(ctx, "1.5.0") and (newcomer := _not_in(battle, band, state, [fighter for fighter, _ in bonus])):
        raise RuleViolation(f"E7: {names[newcomer]} did not fight in battle {battle.number} (recruited since, or absent): "
                            "a survival roll or scenario result grants +1 to a fighter who survived that battle")
    kept_in = [d.fighter for d in fought(battle, band.id, state) if not d.out_of_action] if since(ctx, "1.2.0") else []
    emit_awards(ctx, band, r.post_game_awards(outcomes, bonus, names, dead, kept_in))
    finish(ctx, band, battle, "post-game-pass")


def buy(cmd: Buy, ctx: Context) -> None:
    """S1: the price leaves the bank (`xp.spent`) before the advancement applies."""
    state = ctx.state
    options = options_for(state)
    data = data_for(state)
    band = state.warband(cmd.warband)
    fighter = rules_fighter(active_fighter(state, cmd.fighter, band.id))
    if since(ctx, "1.5.0"):
        fighter = msgspec.structs.replace(fighter, held=_held_until_the_doom_table(state, band, fighter.id))
    bought = r.ADVANCEMENTS[spelled(cmd.advancement, r.ADVANCEMENTS,
                                    f"S2: no advancement '{cmd.advancement}' (advancements: {', '.join(r.ADVANCEMENTS)})")]
    if since(ctx, "1.2.0"):
        _for_this_advancement(cmd, bought)
    if cmd.also_reduce and not since(ctx, "1.3.0"):
        raise BadInput(f"one --reduce: this campaign plays retinue {ctx.version}, where a purchase reduces one attribute")
    reductions = [spelled(a, ATTRIBUTES, f"--reduce {a}: not an attribute ({', '.join(ATTRIBUTES)})")
                  for a in (cmd.reduce, *cmd.also_reduce) if a is not None]
    applied: list[ev.Event] = []
    if bought.attribute is not None:
        owed = r.reduction_owed(fighter, bought.attribute, data, options.baseline_excess)
        applied.append(ev.StatChanged(warband=band.id, fighter=fighter.id, stat=bought.attribute, delta=1,
                                      reason=f"advancement: {bought.label}"))
        if owed:
            applied += _reduce(ctx, band, fighter, bought, bought.attribute, owed, reductions)
        elif reductions:
            raise BadInput(f"S7: {bought.label} stays within {possessive(fighter.name)} ancestry baseline + 1: "
                           "nothing to reduce")
    elif bought.id == "caster":
        # A spell of no Domain is an unknown name (exit 2), refused before the rules; one of another Domain, S8 refuses.
        lists = {name: domain.spells for name, domain in data.domains.items()}
        listed = "; ".join(f"{name}: {', '.join(spells)}" for name, spells in lists.items())
        given = spelled(cmd.spell, [s for spells in lists.values() for s in spells],
                        f"S8: no spell '{cmd.spell}' on any Domain's list ({listed})")
        domain = r.check_caster(fighter, [rules_fighter(f) for f in state.fighters_of(band.id)], data)
        spells = data.domains[domain].spells
        if cmd.spell is None:
            r.check_affordable(fighter, bought)
            spell = ctx.choose("spell", f"{possessive(fighter.name)} spell from the {domain} Domain", spells)
        else:
            spell = given  # as the data spells it; check_spell refuses one not of the Domain
        r.check_spell(domain, spell, data)
        applied.append(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=r.CASTER, reason="advancement: Caster"))
        applied.append(ev.SkillLearned(warband=band.id, fighter=fighter.id, skill=spell,
                                       reason=f"Caster: a spell of the {domain} Domain, chosen at purchase", row=f"spell:{domain}"))
    else:
        if not cmd.feat:
            raise BadInput(f"name the feat with --feat for {bought.label}")
        rule = "S4" if bought.id == "feat" else "S5"
        feat = spelled(cmd.feat, {f for feats in r.feat_lists(data).values() for f in feats},
                       f"{rule}: no feat '{cmd.feat}' on any feat list")
        if bought.id == "feat":
            source = r.check_feat(fighter, feat, data)
            reason = f"advancement: Feat from the {source} list"
        else:
            source = r.check_feat_outside(fighter, feat, data)
            reason = f"advancement: Feat outside Archetype or Domain, from the {source} list (no {source} keyword)"
        applied.append(ev.SkillLearned(warband=band.id, fighter=fighter.id, skill=feat, reason=reason, row=f"feat:{source}"))
    if bought.id != "caster" and cmd.spell is not None:
        raise BadInput("a spell is chosen only when buying Caster")
    cost = r.check_affordable(fighter, bought)
    on = r.spent_on(bought, cost, brackets_once=since(ctx, "1.7.0"))
    ctx.emit(ev.XPSpent(warband=band.id, fighter=fighter.id, amount=cost, on=on), *applied)


def _held_until_the_doom_table(state: CampaignState, band: Warband, fighter: str) -> int:
    """1.5.0, E5: the "did not go Out of Action" award the fighter got in the battle pass of the latest
    battle, while the Doom Table is still to be rolled: Slain there, the post-game pass takes it back,
    so spending it first left the bank below 0 (1.4.0 let it be spent)."""
    if not PHASE.is_done(state, band, "battle-pass") or PHASE.is_done(state, band, "doom"):
        return 0
    battle = PHASE.latest_battle(state, band)
    kept_in = any(deed.fighter == fighter and not deed.out_of_action for deed in fought(battle, band.id, state))
    return r.NOT_OUT_OF_ACTION_XP if kept_in else 0


def _reduce(ctx: Context, band: Warband, fighter: r.Fighter, bought: r.Advancement, raised: str, owed: int,
            named: list[str]) -> list[ev.Event]:
    """S7: `owed` points off other attributes, "to a minimum of 1", each attribute `named` in turn or
    asked for. From 1.3.0 an attribute brought down to 1 leaves the rest of the points to the next
    (A2 decides one already at 1); 1.2.0 dropped them."""
    options = options_for(ctx.state)
    base = r.baseline(fighter, raised, data_for(ctx.state))
    why = f"S7: {raised} {fighter.stats[raised] + 1} is beyond the ancestry baseline {base} + 1"
    reduced: list[ev.Event] = []
    r.check_affordable(fighter, bought)  # the shortfall first: no question, nor a refused --reduce, for what cannot be paid
    key, question = "reduce", (f"{possessive(fighter.name)} {raised} goes beyond its ancestry baseline + 1: "
                               "reduce which attribute?")
    for turn in itertools.count():
        if turn < len(named):
            attribute = named[turn]
        else:
            offered = (r.offered_to_reduce(fighter, raised, options.reduce_at_one) if since(ctx, "1.3.0") else
                       r.reducible(fighter, raised, options.reduce_at_one) or [a for a in ATTRIBUTES if a != raised])
            attribute = ctx.choose(key, question, offered)
        delta = r.reduction(fighter, raised, attribute, owed, options.reduce_at_one)
        if not delta:
            whose = possessive_since(ctx, "1.8.0", fighter.name)
            reduced.append(ev.NoteRecorded(text=f"{why}; {whose} {attribute} is already 1: no effect (A2)",
                                           warband=band.id, fighter=fighter.id))
            break
        reduced.append(ev.StatChanged(warband=band.id, fighter=fighter.id, stat=attribute, delta=delta, reason=why))
        owed += delta
        if not owed or not since(ctx, "1.3.0"):
            break
        fighter = msgspec.structs.replace(fighter, stats={**fighter.stats, attribute: fighter.stats[attribute] + delta})
        key = f"reduce:{turn + 2}"  # the second attribute named, the third …
        question = (f"{possessive(fighter.name)} {attribute} is down to 1, and {plural(owed, 'more point')} must come "
                    "off another attribute (S7): reduce which attribute?")
    if stray := named[turn + 1:]:
        raise BadInput(f"--reduce {', '.join(stray)}: nothing is left to reduce")
    return reduced


def _for_this_advancement(cmd: Buy, bought: r.Advancement) -> None:
    """1.2.0: an option the advancement bought does not read is refused, not dropped (`M --feat Tough`
    spent 10 XP on M +1: a slip in ADVANCEMENT bought something else)."""
    reads = {"--feat": bought.id in ("feat", "feat-outside"), "--reduce": bought.attribute is not None,
             "--spell": bought.id == "caster"}
    given = {"--feat": cmd.feat, "--reduce": cmd.reduce or cmd.also_reduce or None, "--spell": cmd.spell}
    if stray := [option for option, value in given.items() if value is not None and not reads[option]]:
        raise BadInput(f"{', '.join(stray)}: not read when buying {bought.label}")


def refuse_bare_xp_and_recruits(cmd: Command, ctx: Context) -> None:
    """The shared `xp award`, `xp spend` and `fighter add` would step around the passes (E2), the
    prices (S1-S3) and the ancestry every attribute rule reads (S7): a retinue uses its own."""
    instead = {
        AwardXP: "E2: a retinue's XP is awarded in the three passes (campaign post-game WARBAND); "
                 "an arbiter's correction is `campaign correct`",
        SpendXP: "S1: a retinue's XP is spent on an advancement: campaign retinue buy WARBAND FIGHTER ADVANCEMENT",
        RecruitFighter: "a retinue fighter is recruited with its ancestry: campaign retinue recruit WARBAND NAME --ancestry …",
    }
    raise RuleViolation(instead[type(cmd)])


def spending_done(cmd: SpendingDone, ctx: Context) -> None:
    band, battle = begin(ctx, cmd.warband, "spending")
    finish(ctx, band, battle, "spending")


HANDLERS = refusing(r.RetinueRuleError, {
    **SHARED_HANDLERS,
    RecordBattle: record_battle,
    AwardXP: refuse_bare_xp_and_recruits,
    SpendXP: refuse_bare_xp_and_recruits,
    RecruitFighter: refuse_bare_xp_and_recruits,
    # No keyword of the rules or the sample data (ancestries, archetypes, domains, Caster) holds a comma.
    Correct: correct_keywords_one_by_one,
    Recruit: recruit,
    BattlePass: battle_pass,
    ScenarioPass: scenario_pass,
    Casualties: casualties,
    Doom: doom,
    PostGamePass: post_game_pass,
    Buy: buy,
    SpendingDone: spending_done,
})
