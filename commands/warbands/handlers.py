"""Warbands commands and their handlers: the pure rules of `rules.py` run on the ledger.

Decisions (the rules module and shared/rules/warbands.md section 4 give the readings):
- A warband is enlisted with its type (a row of the Archetype Table) and the starting points
  (250, R24) in its treasury. Recruiting pays points from the treasury; once the warband has
  fought, what is left is its Experience Points (R25), and every purchase after that is paid in
  XP (R10; ordinary units and characters too unless `xp_buys_new_units` is off, U2).
- A unit is one fighter with `group_size` models and `cost` points per model; a character is
  one model whose `cost` is its points. Units and characters must be named uniquely per
  warband; in a battle a name both warbands use is written WARBAND/NAME.
- After a battle each warband does, in order: Recovery (U3), character Injuries (U4), Survival
  (R6, R7, R11, R12, R16: judged after both) and Experience (U1). Only the units and characters
  that fought are judged: one left out (`--absent`, or missing a game) keeps its eligibility
  and its count, its latest battle being the one before. A step is refused before the earlier
  ones, or twice; a warband may not spend XP, recruit or fight again until all are done. The
  phase is the kit's (`PHASE`): the guided `campaign post-game WARBAND` walks it, and what the
  players tell the ledger there is given as answers (`recovered:UNIT=N`, `injury:CHARACTER=EFFECT`,
  `xp=N`) or asked at a terminal.
- Spending XP (Veteran upgrades, Veteran recruits, Advancement rolls, new recruits) is each
  its own transaction, refused when it would break the 500-point cap (R3) or the XP pool.
"""

from __future__ import annotations

import shlex
from typing import Any

import msgspec

from commands.kit import Phase, PhaseStep, as_spelled, refusing, resolve
from commands.kit.versions import since
from commands.shared import (
    SHARED_HANDLERS,
    AwardXP,
    Correct,
    EnlistWarband,
    RecordBattle,
    RecruitFighter,
    SpendXP,
    battle_record,
    bearer_of,
    correct,
    enlist_warband,
    keywords_one_by_one,
    unique_id,
)
from ledger import events as ev
from ledger.decide import Command, Context, loose_key
from ledger.describe import plural
from ledger.errors import AnswerRefused, BadInput, NeedsDice, NotFound, RuleViolation
from ledger.state import Battle, CampaignState, Fighter, Warband
from ledger.text import possessive
from projections.battles import did_not_fight

from . import events as we
from . import model as m
from . import rules as r

# What an injury roll did, as the players tell it when the group has no injury table (U4), and its name
# (version 3 named a missed game otherwise: `_manual_injury`).
MANUAL_INJURIES = {"recovered": "Full Recovery", "dead": "Dead", "amnesia": "Amnesia", "misses-game": "Injury"}


def answer_choices(state: CampaignState) -> dict[str, list[str]]:
    """What a character's injury roll did, said by the players where no Character Injury Table rolls it, is one of
    MANUAL_INJURIES: an answer given ahead that is none of them is refused before the walk's first step."""
    return {"injury:CHARACTER": list(MANUAL_INJURIES)}

# --- commands ---------------------------------------------------------------------------------


class Enlist(Command, frozen=True, kw_only=True, tag="warbands.enlist"):
    name: str
    player: str
    type: str  # a warband type of the Archetype Table


class Recruit(Command, frozen=True, kw_only=True, tag="warbands.recruit"):
    warband: str
    name: str
    points: int  # a unit's points per model, a character's points
    models: int | None = None  # a unit's models; None: a character
    archetype: str | None = None  # a character's Archetype (R13)


class RecordWarbandsBattle(Command, frozen=True, kw_only=True, tag="warbands.battle"):
    participants: list[str]
    winner: str | None = None
    scenario: str = ""
    removed: dict[str, int] = {}  # unit -> models removed as casualties
    fled: dict[str, int] = {}  # unit -> models that fled the table
    down: list[str] = []  # characters removed as casualties
    absent: list[str] = []  # units and characters that did not fight


class Recovery(Command, frozen=True, kw_only=True, tag="warbands.recovery"):
    warband: str
    recovered: dict[str, int] = {}  # unit -> casualties recovered, when the group has no recovery table

    answer_keys = ("recovered:UNIT",)


class Injuries(Command, frozen=True, kw_only=True, tag="warbands.injuries"):
    warband: str
    outcomes: dict[str, str] = {}  # character -> recovered|dead|amnesia|misses-game, when there is no injury table

    answer_keys = ("injury:CHARACTER",)


class Survival(Command, frozen=True, kw_only=True, tag="warbands.survival"):
    warband: str


class Experience(Command, frozen=True, kw_only=True, tag="warbands.experience"):
    warband: str
    xp: int | None = None  # XP earned, when the group has no XP award table

    answer_keys = ("xp",)  # read from the answers, not asked: when the campaign has no XP award table


class Upgrade(Command, frozen=True, kw_only=True, tag="warbands.upgrade"):
    warband: str
    unit: str


class VeteranRecruits(Command, frozen=True, kw_only=True, tag="warbands.veteran-recruits"):
    warband: str
    unit: str
    models: int


class Advance(Command, frozen=True, kw_only=True, tag="warbands.advance"):
    warband: str
    character: str
    useless: list[str] = []  # abilities useless to this character: rolled again if they come up (R19)


# --- the post-game order (shared/rules/warbands.md section 4) ---------------------------------------------


def _unasked(command: type[Command], rows: tuple[Any, ...], why: str) -> dict[str, str]:
    """A step's `PhaseStep.unasked`: the questions of its `command`, each with `why`, where the campaign's table
    (its `rows`) decides them; the walk neither lists them nor takes an answer for one (the table rolls over it)."""
    return dict.fromkeys(command.answer_keys, f"this campaign {why}") if rows else {}


PHASE = Phase(steps=[
    PhaseStep("recovery", "roll Recovery", "Recovery", guide="each unit's casualties that recover (survival counts after it)",
              build=lambda state, band, ask: Recovery(warband=band),
              unasked=lambda state: _unasked(Recovery, m.tables_of(state).recovery.rows,
                                             "rolls each unit's Recovery on its table")),
    PhaseStep("injuries", "roll character Injuries", "Injuries", guide="each character removed as a casualty",
              build=lambda state, band, ask: Injuries(warband=band),
              unasked=lambda state: _unasked(Injuries, m.tables_of(state).character_injury.rows,
                                             "rolls each character's injury on its Character Injury Table")),
    PhaseStep("survival", "judge survival", "Survival",
              guide="Veteran eligibility or loss for units, battles survived for characters",
              build=lambda state, band, ask: Survival(warband=band)),
    PhaseStep("experience", "award Experience", "Experience", guide="the XP the battle earned",
              build=lambda state, band, ask: Experience(warband=band),
              unasked=lambda state: _unasked(Experience, m.tables_of(state).xp_awards.rows, "awards XP from its table")),
])


def casualties_of(state: CampaignState, band: Warband, battle: Battle) -> we.CasualtiesRecorded:
    """The warband's side of the battle whose post-game is being done."""
    record = we.FACTS.of(state).last_battle.get(band.id)
    if record is None or record.battle != battle.number:
        raise RuleViolation(f"battle {battle.number} was not recorded with `campaign warbands battle`: "
                            f"{possessive(band.name)} units have no casualties to recover")
    return record


def _begin(state: CampaignState, band: Warband, step: str) -> we.CasualtiesRecorded:
    return casualties_of(state, band, PHASE.begin(state, band, step))


def _post_game_finished(state: CampaignState, band: Warband, doing: str) -> None:
    step = PHASE.next_step(state, band)
    if step is not None:
        raise RuleViolation(f"{band.name} must finish its post-game (next: {PHASE.step_names[step]}) before {doing}")


# --- enlisting and recruiting ----------------------------------------------------------------------


def enlist(cmd: Enlist, ctx: Context) -> None:
    """A new warband: its type, and the starting points (R24) in its treasury."""
    options = m.campaign_options(ctx.state)
    enlist_warband(EnlistWarband(name=cmd.name, player=cmd.player, faction=m.warband_type(cmd.type),
                                 treasury=options.starting_points), ctx)


def recruit(cmd: Recruit, ctx: Context) -> None:
    """R3, R13, R15, R24, U2: a unit or a character joins, paid from the starting points or XP."""
    state, options = ctx.state, m.campaign_options(ctx.state)
    band = state.warband(cmd.warband)
    name = cmd.name.strip()
    if not name:
        raise BadInput("a unit or character needs a name")
    if cmd.points < 0 or (cmd.models is not None and cmd.models < 1):
        raise BadInput("points cannot be negative and a unit has at least 1 model")
    if (cmd.models is None) == (cmd.archetype is None):
        raise BadInput("a unit is recruited with its models, a character with his Archetype (one of the two)")
    cost = cmd.points * (cmd.models or 1)
    now = m.points(state, band.id)
    if m.founded(band):
        _post_game_finished(state, band, f"recruiting {name}")
        if not options.xp_buys_new_units:
            raise RuleViolation("in this campaign Experience Points do not buy new units or characters (xp_buys_new_units)")
        r.check_points_cap(now, cost, options.points_cap, f"recruiting {name}")
        r.check_xp(band.treasury, cost, name)
    else:
        r.check_starting_size(now, cost, options.starting_points, f"recruiting {name}")
        r.check_points_cap(now, cost, options.points_cap, f"recruiting {name}")
    # From version 2 a name stays its bearer's whatever became of him (commands, answers and the
    # history name him by it); version 1 looked only at those still in the warband.
    if (bearer := bearer_of(state, band.id, name, ever=since(ctx, "2"))) is not None:
        was = "" if bearer.active else f" ({bearer.status}): a name stays its bearer's, choose another"
        raise RuleViolation(f"{band.name} already has a unit or character called {name}{was}")
    fighter = unique_id(name, state.fighters)
    if cmd.archetype is not None:
        tables = m.tables_of(state)
        names = [a.name for a in tables.archetypes.archetypes]
        archetype = as_spelled(cmd.archetype.strip(), names) or cmd.archetype
        r.check_archetype(band.faction, archetype, tables.allowed_archetypes(band.faction), names)
    ctx.emit(ev.FighterRecruited(warband=band.id, fighter=fighter, name=name,
                                 role=we.UNIT if cmd.models is not None else we.CHARACTER,
                                 cost=cmd.points, group_size=cmd.models or 1))
    if cmd.archetype is not None:
        starting = tables.archetype(archetype).starting_ability
        ctx.emit(we.ArchetypeChosen(warband=band.id, fighter=fighter, archetype=archetype, starting_ability=starting),
                 ev.SkillLearned(warband=band.id, fighter=fighter, skill=starting, reason="Starting Ability"))
    if cost:
        spent = "XP" if m.founded(band) else "starting points"
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-cost, reason=f"{spent}: recruited {name} ({_counted(ctx, cost, 'point')})"))


def _counted(ctx: Context, count: int, word: str) -> str:
    """`count` of `word` in a stored reason: from version 6 one is singular ("1 Veteran recruit", "1 point");
    version 5 put every count in the plural ("1 Veteran recruits", "1 points")."""
    return plural(count, word) if since(ctx, "6") else f"{count} {word}s"


# --- the battle ------------------------------------------------------------------------------------


def _fighter_in(state: CampaignState, warbands: list[str], ref: str) -> Fighter:
    """A fighter of one of the warbands, by id, name, or WARBAND/NAME (a name with a "/" that does
    not start with a warband's name is a name)."""
    band_ref, _, name = ref.rpartition("/")
    try:
        bands = [state.warband(band_ref).id] if band_ref else warbands
    except NotFound:
        bands, name = warbands, ref
    found = [f for w in bands for f in state.fighters_of(w) if ref.lower() in (f.id, f.name.lower()) or
             name.lower() in (f.id, f.name.lower())]
    if not found:
        raise NotFound(f"no unit or character '{ref}' in {' or '.join(state.warbands[w].name for w in bands)}")
    if len(found) > 1:
        raise BadInput(f"'{ref}' is in several warbands: write WARBAND/{ref}")
    return found[0]


def _by_fighter(ctx: Context, warbands: list[str], given: dict[str, Any], option: str) -> dict[str, Any]:
    """What the players gave for each unit or character (UNIT=N), by the fighter it names. From
    version 3 one named twice in another case ("Swordsmen", "swordsmen") is refused as the same
    name twice is; version 2 kept the last and dropped the other without a word."""
    by_fighter: dict[str, Any] = {}
    for ref, value in given.items():
        fighter = _fighter_in(ctx.state, warbands, ref)
        if fighter.id in by_fighter and since(ctx, "3"):
            raise BadInput(f"{option} {fighter.name} is given twice")
        by_fighter[fighter.id] = value
    return by_fighter


def record_battle(cmd: RecordWarbandsBattle, ctx: Context) -> None:
    """Step 1 of the post-battle sequence: who fought, each unit's starting numbers and losses,
    the characters removed as casualties."""
    state = ctx.state
    bands = [state.warband(ref) for ref in cmd.participants]
    ids = [b.id for b in bands]
    PHASE.refuse_unfinished(state, ids)
    absent = {_fighter_in(state, ids, ref).id for ref in cmd.absent}
    removed = _by_fighter(ctx, ids, cmd.removed, "--removed")
    fled = _by_fighter(ctx, ids, cmd.fled, "--fled")
    down = {_fighter_in(state, ids, ref).id for ref in cmd.down}
    for option, named in (("--removed", removed), ("--fled", fled), ("--down", down)):
        if both := [fighter_id for fighter_id in named if fighter_id in absent]:  # always refused: bad input, no version
            raise BadInput(f"{state.fighters[both[0]].name} is given both --absent and {option}: a model left out did not "
                           "fight in this battle")
    fought = [f for w in ids for f in state.fighters_of(w) if f.id not in absent and not f.missed_games]
    fought_ids = {f.id for f in fought}
    for fighter_id in [*removed, *fled, *down]:
        fighter = state.fighters[fighter_id]
        if fighter_id not in fought_ids:
            raise RuleViolation(did_not_fight(fighter))
    for fighter_id in [*removed, *fled]:
        unit = state.fighters[fighter_id]
        if unit.role != we.UNIT:
            raise BadInput(f"{unit.name} is a character: a character removed as a casualty is --down")
        if min(removed.get(fighter_id, 0), fled.get(fighter_id, 0)) < 0:
            raise BadInput(f"{unit.name}: models removed or fled cannot be negative")
        lost = removed.get(fighter_id, 0) + fled.get(fighter_id, 0)
        if lost > unit.group_size:
            raise BadInput(f"{unit.name} has {plural(unit.group_size, 'model')}: it cannot lose {lost}")
    for fighter_id in down:
        if state.fighters[fighter_id].role != we.CHARACTER:
            raise BadInput(f"{state.fighters[fighter_id].name} is a unit: give its casualties with --removed or --fled")
    deeds = [ev.Deed(fighter=f.id, out_of_action=f.id in down or (
        f.role == we.UNIT and removed.get(f.id, 0) + fled.get(f.id, 0) == f.group_size)) for f in fought]
    battle = battle_record(RecordBattle(participants=ids, winner=cmd.winner, scenario=cmd.scenario, deeds=deeds), ctx)
    ctx.emit(battle)
    for band in bands:
        result = "draw" if battle.winner is None else "win" if battle.winner == band.id else "loss"
        mine = [f for f in fought if f.warband == band.id]
        ctx.emit(we.CasualtiesRecorded(
            warband=band.id, battle=battle.battle, result=result,
            units=[we.UnitCasualties(fighter=f.id, starting=f.group_size, removed=removed.get(f.id, 0), fled=fled.get(f.id, 0))
                   for f in mine if f.role == we.UNIT],
            characters=[f.id for f in mine if f.role == we.CHARACTER],
            characters_down=[f.id for f in mine if f.id in down]))


# --- post-game steps ----------------------------------------------------------------------------------


def _recovery_target(rows: tuple[Any, ...], result: str, casualty: str) -> Any:
    """The most specific row for the battle's result and the kind of casualty."""
    for wanted in ((result, casualty), (result, "any"), ("any", casualty), ("any", "any")):
        for row in rows:
            if (row.result, row.casualty) == wanted:
                return row
    raise RuleViolation(f"the recovery table has no row for a {casualty} model after a {result}")


def _answer_key(ctx: Context, question: str, fighter: Fighter) -> str:
    """The key of the answer about `fighter`: `QUESTION:ID` as the ledger asks it, unless it was
    given under his name as a player writes it, in any case (`injury:Hans`, `recovered:Arrer Boyz`).
    An answer under the asked key comes first, so a recorded decision is decided again as it was.
    From version 5 two answers about him that differ are refused (version 4 took one and dropped the other)."""
    asked = f"{question}:{fighter.id}"

    def names_him(key: str) -> bool:
        return key.partition(":")[0] == question and key.partition(":")[2].casefold() in (fighter.id, fighter.name.casefold())

    if since(ctx, "5"):
        _refuse_differing_answers(ctx, fighter, question, [key for key in ctx.answers if key == asked or names_him(key)
                                                           or loose_key(key) == loose_key(asked)])
    if asked in ctx.answers:
        return asked
    return next((key for key in ctx.answers if names_him(key)), asked)


def _refuse_differing_answers(ctx: Context, fighter: Fighter, question: str, keys: list[str]) -> None:
    """`--answer injury:hans-2=dead --answer injury:Hans=amnesia` for one Hans answers his one question twice."""
    if len({ctx.answers[key].strip().casefold() for key in keys}) > 1:
        given = ", ".join(f"{key}={ctx.answers[key]}" for key in keys)
        raise BadInput(f"--answer {given}: {len(keys)} answers for the {question} question of {fighter.name} "
                       f"({ctx.state.warbands[fighter.warband].name}): give one")


def _casualty_kinds(casualties: we.UnitCasualties) -> list[tuple[str, int]]:
    """A unit's casualties by kind, those it has: removed first, each rolling on its own Recovery row."""
    return [(kind, count) for kind, count in (("removed", casualties.removed), ("fled", casualties.fled)) if count]


def _recovery_not_told(unit: Fighter) -> BadInput:
    return BadInput(f"this campaign rolls Recovery on its table: leave out --recovered {unit.name}")


def recovery(cmd: Recovery, ctx: Context) -> None:
    """U3, R7: each unit's casualties that recover, rolled on the group's table or as told."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = _begin(state, band, "recovery")
    table = m.tables_of(state).recovery
    told = _by_fighter(ctx, [band.id], cmd.recovered, "--recovered")
    for unit_id in told:
        if not any(u.fighter == unit_id and u.removed + u.fled for u in battle.units):
            raise BadInput(f"{state.fighters[unit_id].name} had no casualties in battle {battle.battle}")
    if table.rows and ctx.typed_now:
        # Refused before the first unit rolls what no die decides: refused after it, ledger dice would leave the
        # Recovery pending, and voided, the next one would roll it anew. A recorded one decides as it did.
        if told:
            raise _recovery_not_told(state.fighters[next(iter(told))])
        for casualties in battle.units:
            for kind, _count in _casualty_kinds(casualties):
                _recovery_target(table.rows, battle.result, kind)
            if casualties.removed + casualties.fled:  # the walk's answer, as --recovered: it was rolled over, "Not used"
                unit = state.fighters[casualties.fighter]
                ctx.not_asked(_answer_key(ctx, "recovered", unit), f"this campaign rolls the Recovery of {unit.name} on its table")
    for casualties in battle.units:
        unit = state.fighters[casualties.fighter]
        lost = casualties.removed + casualties.fled
        rows = []
        if not lost:
            recovered = 0
        elif table.rows:
            if unit.id in told:
                raise _recovery_not_told(unit)
            recovered = 0
            for kind, count in _casualty_kinds(casualties):
                row = _recovery_target(table.rows, battle.result, kind)
                rows.append(row.id)
                for n in range(count):
                    roll = ctx.roll(table.die, f"Recovery of {unit.name}, {kind} model {n + 1} of {count} ({row.target}+)")
                    recovered += roll.value >= row.target
        elif unit.id in told:
            recovered = told[unit.id]
        else:
            recovered = int(ctx.choose(_answer_key(ctx, "recovered", unit), f"{unit.name}: how many of its {plural(lost, 'casualty')} recovered?",
                                       [str(n) for n in range(lost + 1)]))
        survivors = r.survivors_after_recovery(casualties.starting, lost, recovered)
        ctx.emit(we.UnitRecovered(warband=band.id, fighter=unit.id, battle=battle.battle, starting=casualties.starting,
                                  casualties=lost, recovered=recovered, survivors=survivors, row="+".join(rows)))
        if survivors == 0:
            ctx.emit(ev.FighterDied(warband=band.id, fighter=unit.id, reason="wiped out: no model recovered"))
    PHASE.finish(ctx, band, battle.battle, "recovery")


def injuries(cmd: Injuries, ctx: Context) -> None:
    """U4, R18: each character removed as a casualty rolls on the Character Injury Table (or the
    players say what the roll did); death and amnesia take his Archetype Abilities with them."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = _begin(state, band, "injuries")
    table = m.tables_of(state).character_injury
    told = _by_fighter(ctx, [band.id], cmd.outcomes, "--outcome")
    for fighter_id, effect in told.items():
        if fighter_id not in battle.characters_down:
            raise BadInput(f"{state.fighters[fighter_id].name} was not removed as a casualty in battle {battle.battle}")
        if table.rows:
            raise BadInput(f"this campaign rolls on its Character Injury Table: leave out the outcome for {state.fighters[fighter_id].name}")
        if effect not in MANUAL_INJURIES:
            raise BadInput(f"an injury's outcome is one of: {', '.join(MANUAL_INJURIES)}; not {effect!r}")
        if ctx.typed_now:  # one recorded so before this refusal decides again as it did: the outcome taken
            _refuse_an_answer_beside_the_outcome(ctx, state.fighters[fighter_id], effect)
    for fighter_id in battle.characters_down if table.rows else ():  # the walk's answer, as --outcome: rolled over
        hero = state.fighters[fighter_id]
        ctx.not_asked(_answer_key(ctx, "injury", hero),
                      f"this campaign rolls {possessive(hero.name)} injury on its Character Injury Table")
    for fighter_id in battle.characters_down:
        hero = state.fighters[fighter_id]
        if table.rows:
            value = ctx.roll(table.die, f"Character Injury of {hero.name}").value
            row = next(x for x in table.rows if x.low <= value <= x.high)
            effect, name, row_id, missed = row.effect, row.name, row.id, row.missed_games
        else:
            effect = told.get(fighter_id) or ctx.choose(_answer_key(ctx, "injury", hero), f"{hero.name}: what did the injury roll do?",
                                                        list(MANUAL_INJURIES))
            name, row_id, missed = _manual_injury(ctx, effect), "", 1 if effect == "misses-game" else 0
        # From version 4 what became of him is said by the row's name whatever it did (version 3 named
        # neither a death's row nor a recovery, which left only the dice in the log)
        if effect == "dead":
            reason = f"Character Injury: {name}" if since(ctx, "4") else "Character Injury"
            ctx.emit(ev.FighterDied(warband=band.id, fighter=hero.id, reason=reason, row=row_id))
        elif effect != "recovered":
            ctx.emit(ev.InjurySuffered(warband=band.id, fighter=hero.id, injury=name, row=row_id, missed_games=missed))
        elif since(ctx, "4"):
            ctx.emit(we.InjuryRecovered(warband=band.id, fighter=hero.id, injury=name, row=row_id))
        if effect == "amnesia" and (lost := r.amnesia(m.as_character(state, hero))):
            ctx.emit(we.AbilitiesLost(warband=band.id, fighter=hero.id, abilities=list(lost), reason=f"{name} (amnesia)"))
    PHASE.finish(ctx, band, battle.battle, "injuries")


def _refuse_an_answer_beside_the_outcome(ctx: Context, hero: Fighter, outcome: str) -> None:
    """`--outcome Hans=dead` with `--answer injury:Hans=amnesia` says twice what his injury roll did: the outcome
    was taken and the answer dropped without a word."""
    key = _answer_key(ctx, "injury", hero)
    if key in ctx.answers and ctx.answers[key].strip().casefold() != outcome.casefold():
        raise AnswerRefused(f"--outcome {hero.name}={outcome} and --answer {key}={ctx.answers[key]}: two outcomes of "
                            f"{possessive(hero.name)} injury ({ctx.state.warbands[hero.warband].name}): give one", [key])


def _manual_injury(ctx: Context, effect: str) -> str:
    """The name of an injury's effect as the players told it (version 3: a missed game was "Injured,
    misses a game", and the missed game was then said again)."""
    return MANUAL_INJURIES[effect] if effect != "misses-game" or since(ctx, "4") else "Injured, misses a game"


def survival(cmd: Survival, ctx: Context) -> None:
    """R6, R11, R12 for each unit that fought (survivors after Recovery, R7); R16 for each
    character still alive after Injuries."""
    state, options = ctx.state, m.campaign_options(ctx.state)
    band = state.warband(cmd.warband)
    battle = _begin(state, band, "survival")
    for casualties in battle.units:
        fighter = state.fighters[casualties.fighter]
        if not fighter.active:
            continue
        unit = m.as_unit(state, fighter)
        outcome = r.veteran_after_battle(unit, casualties.starting, unit.models, options.veteran_eligibility)
        judged = f"{unit.models} of {casualties.starting} survived battle {battle.battle}"
        if outcome.lost_status:
            ctx.emit(ev.KeywordLost(warband=band.id, fighter=fighter.id, keyword=we.veteran_keyword(unit.veteran),
                                    reason=f"lost 50% or more: {judged}"))
        if outcome.banked and since(ctx, "3"):  # version 2 said "eligible … 5 of 10 survived", as if earned by it
            judged = f"keeps its banked eligibility ({judged})"
        ctx.emit(we.VeteranEligibility(warband=band.id, fighter=fighter.id, eligible=outcome.eligible,
                                       battle=battle.battle, reason=judged))
    for fighter_id in battle.characters:
        fighter = state.fighters[fighter_id]
        if fighter.active:
            count = r.survived_battle(m.as_character(state, fighter), True).survived_since_ability
            ctx.emit(we.BattleSurvived(warband=band.id, fighter=fighter.id, battle=battle.battle, survived_since_ability=count))
    PHASE.finish(ctx, band, battle.battle, "survival")


def experience(cmd: Experience, ctx: Context) -> None:
    """U1: the XP the battle earned, from the group's award table or as told."""
    state = ctx.state
    band = state.warband(cmd.warband)
    battle = _begin(state, band, "experience")
    table = m.tables_of(state).xp_awards
    if table.rows:
        if cmd.xp is not None:
            raise BadInput("this campaign awards XP from its table: leave out --xp (add more with `campaign treasury`)")
        for row in table.rows:
            if row.result in (battle.result, "any") and row.xp:
                ctx.emit(ev.TreasuryChanged(warband=band.id, delta=row.xp, row=row.id,
                                            reason=f"XP for battle {battle.battle}: {row.description or row.id}"))
    else:
        told = cmd.xp if cmd.xp is not None else ctx.given("xp")
        if told is None:  # an answer not given (exit 2), which the guided walk stops for: not a refusal
            # Said for both ways in: the step's command takes --xp, the guided walk --answer (it said "--xp N (or
            # --answer xp=N)", and each refused the other's option)
            named = shlex.quote(band.name)
            raise NeedsDice(f"{band.name}: the campaign has no XP award table: give the XP earned in battle {battle.battle} "
                            f"(`campaign warbands experience {named} --xp N`, or `campaign post-game {named} --answer xp=N`)")
        answered = [] if cmd.xp is not None else ["xp"]  # what a refusal refuses: --xp, or the answer
        try:
            xp = int(told)
        except ValueError:
            raise AnswerRefused(f"XP earned is a whole number, not {told!r}", answered) from None
        if xp < 0:
            raise AnswerRefused(f"XP earned cannot be negative ({xp})", answered)
        if xp:
            ctx.emit(ev.TreasuryChanged(warband=band.id, delta=xp, reason=f"XP for battle {battle.battle}"))
    PHASE.finish(ctx, band, battle.battle, "experience")


# --- spending XP -----------------------------------------------------------------------------------


def upgrade(cmd: Upgrade, ctx: Context) -> None:
    """R8: the next Veteran level for 10 XP, using up the eligibility of one battle."""
    state = ctx.state
    band = state.warband(cmd.warband)
    _post_game_finished(state, band, "spending XP")
    fighter = m.warband_unit(state, band, cmd.unit)
    level = r.veteran_upgrade(m.as_unit(state, fighter), band.treasury)
    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-r.VETERAN_UPGRADE_XP, reason=f"XP: +{level} Veteran Status for {fighter.name}"))
    if level > 1:
        ctx.emit(ev.KeywordLost(warband=band.id, fighter=fighter.id, keyword=we.veteran_keyword(level - 1), reason=f"upgraded to +{level}"))
    ctx.emit(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=we.veteran_keyword(level), reason="10 XP"),
             we.VeteranEligibility(warband=band.id, fighter=fighter.id, eligible=False, reason=f"used for +{level}"))


def veteran_recruits(cmd: VeteranRecruits, ctx: Context) -> None:
    """R10: recruits for a Veteran unit, at their points in XP, within the cap (R3)."""
    state, options = ctx.state, m.campaign_options(ctx.state)
    band = state.warband(cmd.warband)
    _post_game_finished(state, band, "spending XP")
    fighter = m.warband_unit(state, band, cmd.unit)
    cost = r.veteran_recruits_cost(m.as_unit(state, fighter), cmd.models, band.treasury, m.points(state, band.id), options.points_cap)
    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-cost, reason=f"XP: {_counted(ctx, cmd.models, 'Veteran recruit')} for {fighter.name}"),
             we.RecruitsJoined(warband=band.id, fighter=fighter.id, models=cmd.models))


def advance(cmd: Advance, ctx: Context) -> None:
    """R16, R17, R19, U5, U9: 25 XP for a roll on the Archetype's Advancement Table, rolled again
    for an ability already held or declared useless, until one is gained. From version 6 a useless
    ability stands when the warband cannot pay `useless_reroll_xp` for its reroll (the seed: he "may
    reroll"); version 5 refused the command after the roll, so ledger dice left it pending and,
    once it was voided, the next attempt rolled new dice: a reroll for free."""
    state, options = ctx.state, m.campaign_options(ctx.state)
    band = state.warband(cmd.warband)
    _post_game_finished(state, band, "spending XP")
    fighter = m.warband_character(state, band, cmd.character)
    hero = m.as_character(state, fighter)
    r.check_advancement(hero, band.treasury)
    archetype = m.tables_of(state).archetype(hero.archetype)
    rows = {value: (row.id, row.ability) for row in archetype.advancement for value in range(row.low, row.high + 1)}
    on_table = {a for _id, a in rows.values()}
    useless = [as_spelled(u, on_table) or u for u in cmd.useless]
    unknown = [u for u in useless if u not in on_table]
    if unknown:
        raise BadInput(f"{', '.join(unknown)} is not on the {hero.archetype} Advancement Table")
    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-r.ADVANCEMENT_XP, reason=f"XP: Advancement roll for {hero.name}"))
    reroll_xp = options.useless_reroll_xp
    affordable = ctx.state.warbands[band.id].treasury // reroll_xp if reroll_xp and since(ctx, "6") else None
    first_roll = ctx.state.rolls
    results = resolve(ctx, lambda rolled: r.advancement_roll(hero, archetype.die, rows, rolled, useless, affordable))
    numbers = range(first_roll, first_roll + len(results))
    for result in results:
        if result.outcome == "useless-rerolled" and reroll_xp:
            # refuses on version 5 alone: from 6 only the rerolls the warband can pay are made
            r.check_xp(ctx.state.warbands[band.id].treasury, reroll_xp, "rerolling a useless ability")
            ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-reroll_xp,
                                        reason=f"XP: rerolling {result.ability}, useless to {hero.name}"))
    gained = results[-1]
    stands = (f"useless to him, and a reroll costs {reroll_xp} XP the warband does not have: it stands"
              if gained.outcome == "useless-stands" else "")
    ctx.emit(we.AdvancementRolled(warband=band.id, fighter=fighter.id, archetype=hero.archetype, ability=gained.ability,
                                  reason=stands,
                                  reads=[we.AdvancementRead(roll=n, value=x.value, row=x.row, ability=x.ability, outcome=x.outcome)
                                         for n, x in zip(numbers, results)]),
             ev.SkillLearned(warband=band.id, fighter=fighter.id, skill=gained.ability,
                             reason=f"{hero.archetype} Advancement Table", row=gained.row))


# --- the shared commands this ruleset does otherwise -------------------------------------------------

VETERAN_KEYWORDS = tuple(we.veteran_keyword(level) for level in range(1, r.MAX_VETERAN_LEVEL + 1))


# R25: a warband's Experience Points are its treasury, which the log and the roster call its XP pool.
XP_OF_THE_WARBAND = ("Experience Points belong to the warband, not a model: they are its XP pool "
                     "(campaign warbands experience, or campaign treasury WARBAND N --reason …)")


def correct_keywords(cmd: Correct, ctx: Context) -> None:
    """`correct` in a Warbands campaign: typed now it gives a model no XP, which belongs to the warband (refused as `xp
    award` is; one recorded so decides again as recorded). From version 6 no keyword names an Archetype (`_refuse_an_archetype`).
    From version 3 a keyword that names Veteran Status must be one of its levels, "Veteran +1" to "+3 …
    (the highest level of Veteran Status)", spelt as the rules read it ("veteran+2" is recorded as
    "Veteran +2"), given to a unit (characters never hold it), and replaces the level the unit held.
    Version 2 recorded "Veteran +4" or "Veteran +one" as given, and the rules could not read them.
    Keywords typed several to an option are read one by one (`keywords_one_by_one`): no Warbands
    keyword holds a comma."""
    if cmd.xp and ctx.typed_now:
        _use_instead(XP_OF_THE_WARBAND)(cmd, ctx)
    cmd = keywords_one_by_one(cmd, ctx)
    if since(ctx, "6"):
        _refuse_an_archetype(cmd, ctx)
    if since(ctx, "3"):
        levels = [_veteran_level_named(keyword) for keyword in cmd.add_keywords]
        given = [level for level in levels if level is not None]
        if given:
            fighter = ctx.state.fighter(cmd.fighter, ctx.state.warband(cmd.warband).id)
            if fighter.role != we.UNIT:
                raise BadInput(f"{fighter.name} is a character: only units hold Veteran Status")
            if len(given) > 1:
                raise BadInput(f"one Veteran Status at a time, not {', '.join(given)}")
            held = [k for k in fighter.keywords if k in VETERAN_KEYWORDS and k != given[0]]
            cmd = msgspec.structs.replace(cmd, add_keywords=[level or keyword for level, keyword in zip(levels, cmd.add_keywords)],
                                          remove_keywords=list(dict.fromkeys([*cmd.remove_keywords, *held])))
    correct(cmd, ctx)


def _refuse_an_archetype(cmd: Correct, ctx: Context) -> None:
    """R14: "A character's Archetype can never change over the course of the campaign": it is chosen when he
    is recruited (`warbands.archetype`), and a keyword that names an Archetype would give him a second one on
    the roster, or a unit one, which only characters have. Version 5 recorded it as a plain keyword."""
    state = ctx.state
    fighter = state.fighter(cmd.fighter, state.warband(cmd.warband).id)
    names = [a.name for a in m.tables_of(state).archetypes.archetypes]
    # a unit's "Veteran" is Veteran Status, which `_veteran_level_named` reads
    keywords = [k for k in cmd.add_keywords if fighter.role == we.CHARACTER or not _names_veteran_status(k)]
    named = next((archetype for keyword in keywords if (archetype := as_spelled(keyword.strip(), names))), None)
    if named is None:
        return
    if fighter.role != we.CHARACTER:
        raise BadInput(f"{fighter.name} is a unit: only a character has an Archetype, chosen when he is recruited "
                       f"(campaign warbands recruit {state.warbands[fighter.warband].name} NAME --points N --archetype {named})")
    held = m.as_character(state, fighter).archetype
    if named == held:
        raise BadInput(f"{fighter.name} is {we.an_archetype(held)} already: a character's Archetype is recorded when he is "
                       "recruited, not as a keyword")
    raise BadInput(f"{fighter.name} is {we.an_archetype(held)}, and a character's Archetype can never change: not "
                   f"{we.an_archetype(named)} as well. "
                   f"If he was recruited as the wrong Archetype, void his recruitment and recruit him again with --archetype {named}")


def _veteran_level_named(keyword: str) -> str | None:
    """The level a keyword names as the rules spell it ("veteran+2", "Veteran 2": Veteran +2), None
    for a keyword that is no Veteran Status; BadInput for one that names a level the rules lack."""
    if not _names_veteran_status(keyword):
        return None
    spaceless = "".join(keyword.split()).casefold()
    level = next((k for k in VETERAN_KEYWORDS if "".join(k.split()).casefold() in (spaceless, spaceless.replace("veteran", "veteran+", 1))), None)
    if level is None:
        raise BadInput(f"'{keyword}' is no Veteran Status: its levels are {', '.join(VETERAN_KEYWORDS)} (the highest)")
    return level


def _names_veteran_status(keyword: str) -> bool:
    """"Veteran +2", "veteran+5", "Veteran": a keyword about Veteran Status, a level of it or not."""
    return "".join(keyword.split()).casefold().startswith("veteran")


def _use_instead(instead: str):
    def refuse(cmd: Command, ctx: Context) -> None:
        raise RuleViolation(f"in a Warbands campaign {instead}")

    return refuse


HANDLERS = {
    **SHARED_HANDLERS,
    EnlistWarband: _use_instead("a warband is enlisted with its type: campaign warbands enlist NAME --player P --type TYPE"),
    RecruitFighter: _use_instead("units and characters join with campaign warbands recruit"),
    RecordBattle: _use_instead("battles are recorded with campaign warbands battle (each unit's casualties)"),
    AwardXP: _use_instead(XP_OF_THE_WARBAND),
    SpendXP: _use_instead("XP is spent by buying something: campaign warbands upgrade | veteran-recruits | advance | recruit"),
    Correct: correct_keywords,
    **refusing(r.WarbandsRuleError, {
        Enlist: enlist,
        Recruit: recruit,
        RecordWarbandsBattle: record_battle,
        Recovery: recovery,
        Injuries: injuries,
        Survival: survival,
        Experience: experience,
        Upgrade: upgrade,
        VeteranRecruits: veteran_recruits,
        Advance: advance,
    }),
}
