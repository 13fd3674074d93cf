"""The Campaign Phase, declared: Trauma, Promotions, Experience, the Advancement Rolls owed,
Exploration (or Reinforcements in its place), Quartermaster and Roster, for the warband's latest
battle; and how the guided `campaign post-game WARBAND` builds each step's command.

The Quartermaster step's activities (retire, recruit, buy, sell, give, stow) are commands of their
own, done before the step: at a terminal the walk offers to stop there for them; the step itself
and the Roster step are a confirmation each. Whether a step is done is read from the events of the
warband's latest battle (`post-game.step-done`, and the Advancement Rolls still owed), so the walk
resumes where it stopped, and a battle is refused until its latest battle's phase is finished. With
no one to ask (no terminal), choices with a sensible default (accept the even spread, roll each
model's dice together, no extra dice, no re-rolls) take it; choices the command itself asks while
deciding (the table to explore, which LEADER gains a warband deed's XP) are left to it. Every
question is asked under an answer key (`post-game --list` shows them), so `post-game --answer
table=rare` or `--answer anna:1:first-table=ranged` gives it ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import wraps

from commands.kit import Phase, PhaseMessages, PhaseStep
from commands.kit.phase import BuildCommand
from ledger.decide import BuildAsk, Command
from ledger.errors import NeedsDice, RuleViolation
from ledger.state import CampaignState, Warband

from . import events, rules
from .commands import (
    Advancement,
    AdvanceRoll,
    Experience,
    Exploration,
    Promotions,
    Quartermaster,
    Roster,
    Trauma,
)
from .model import advancements_due, elite_at_phase_start, head_wound_promotion, latest_battle, roster_of, tables_for
from .tables import TrenchCrusadeTables

QUARTERMASTER, ROSTER, REINFORCEMENTS = "quartermaster", "roster", "reinforcements"


def offer(ask: BuildAsk, prompt: str, options: Sequence[str], default: str | None, key: str) -> str | None:
    """Ask a choice under its answer key; with no one to ask and no answer given, the default is
    the answer (None: the command asks while deciding)."""
    try:
        return ask(prompt, options, key=key)
    except NeedsDice:
        return default


def advancement_done(state: CampaignState, band: Warband) -> bool:
    return PHASE.is_done(state, band, "experience") and not advancements_due(state, band)


def settled_first(state: CampaignState, band: Warband, step: str) -> None:
    """What the rules settle before a step: a ransom before anything after Trauma, the Advancement
    Rolls owed before Exploration (or Reinforcements)."""
    captives = [f.name for f in state.fighters_of(band.id, active_only=False) if f.status == "captured"]
    title = PHASE.title(step)
    if step != "trauma" and captives:
        # The rules settle a ransom before the phase goes on; a captive left pending would also escape
        # the 6-ELITE count of the Promotions step and could return as a 7th ELITE.
        raise RuleViolation(
            f"{', '.join(captives)} {'is' if len(captives) == 1 else 'are'} Captured: settle the ransom "
            f"(trench-crusade ransom, paid or unpaid) before the {title} step"
        )
    if PHASE.place(step) == "exploration" and (owed := advancements_due(state, band)):
        names = ", ".join(state.fighters[f].name for f in owed)
        raise RuleViolation(f"{names} still {'has' if len(owed) == 1 else 'have'} an Advancement Roll to make before {title}")


def _more_dice(ask: BuildAsk, tables: TrenchCrusadeTables, roster: Sequence[rules.Fighter]) -> dict[str, int]:
    """Extra Promotion Dice from Skills or Glory Items, each with its source: a Skill's only when a
    model holds it, and at most as many as its holders add."""
    most = {row.id: rules.most_extra_dice(row, roster) for row in tables.promotion_dice_sources.rows}
    sources = {row.id: row for row in tables.promotion_dice_sources.rows if most[row.id] != 0}
    extra: dict[str, int] = {}
    while True:
        left = [source for source in sources if source not in extra]
        if not left:
            return extra
        source = offer(ask, "Extra Promotion Dice from a Skill or Glory Item?", ["none", *left], "none",
                       key=f"extra-dice:{len(extra) + 1}")
        if source == "none":
            return extra
        row = sources[source]
        counts = [str(row.dice_each * n) for n in range(1, 7) if most[source] is None or row.dice_each * n <= most[source]]
        extra[source] = int(ask(f"How many dice does {row.name} add ({row.dice_each} per {row.per})?", counts,
                                key=f"{source}:dice"))


def _assignment_table(names: dict[str, str], assignment: dict[str, int], pool: rules.PromotionPool) -> str:
    width = max(len(name) for name in names.values())
    rows = "\n".join(f"  {names[f].ljust(width)}  {assignment.get(f, 0)}" for f in names)
    made_of = events.pool_made_of(pool.base, pool.glorious_deeds, [(e.source_id, e.dice) for e in pool.extra])
    return f"Promotion Dice: {pool.size} ({made_of})\n{rows}\n"


def build_promotions(state: CampaignState, warband: str, ask: BuildAsk) -> Promotions:
    band = state.warbands[warband]
    tables = tables_for(state)
    roster = roster_of(state, band, tables)
    if rules.promotion_step_skipped(roster, elite_at_phase_start(state, band, roster)):
        return Promotions(warband=band.name)
    extra = _more_dice(ask, tables, roster)
    deeds = latest_battle(state, band).record.deeds
    pool = rules.promotion_pool(deeds, [rules.ExtraPromotionDice(source_id=s, dice=n) for s, n in extra.items()], tables)
    eligibility = rules.promotion_eligibility(roster, band.faction, tables, head_wound_elite=head_wound_promotion(state))
    names = {f.fighter_id: f.name for f in eligibility.eligible}
    if not names:
        return Promotions(warband=band.name, even=True, extra=extra)
    even = rules.even_spread(list(names), pool.size)
    assignment: dict[str, int] = even
    refused: rules.TrenchCrusadeRuleError | None = None
    key: str | None = "assignment"
    while True:
        refusal = f"Not allowed: {refused}\n" if refused else ""
        answer = offer(ask, f"{refusal}{_assignment_table(names, assignment, pool)}Accept this assignment?",
                       ["accept", "edit"], None, key=key)
        if answer is None and refused:  # no one to ask again, and the edit given ahead breaks the rules
            raise RuleViolation(f"the Promotion Dice given are not allowed: {refused}")
        if answer != "edit":
            break
        # Asked again after an edit only of the person at a terminal: `--answer assignment=edit` given
        # ahead would be taken again and again (with no one to ask, the edit given stands).
        key = None
        edited = {f: int(ask(f"Promotion Dice for {name}", [str(n) for n in range(pool.size + 1)], key=f"{f}:promotion-dice"))
                  for f, name in names.items()}
        try:
            rules.validate_assignment(edited, eligibility, pool.size)
            assignment, refused = edited, None
        except rules.TrenchCrusadeRuleError as error:
            refused = error
    default_order = rules.dice_in_fighter_order(assignment, [f for f in names if assignment.get(f)])
    order: list[str] = []  # empty: the default, each model's dice together
    shown = ", ".join(names[f] for f in default_order)
    if offer(ask, f"Roll in this order: {shown}?", ["accept", "edit"], "accept", key="order") == "edit":
        left = dict(assignment)
        for die in range(1, len(default_order) + 1):
            holders = {names[f]: f for f, n in left.items() if n}
            picked = ask(f"Promotion Die {die} of {len(default_order)}: roll for which model?", list(holders),
                         key=f"promotion-die:{die}")
            left[holders[picked]] -= 1
            order.append(picked)
    if assignment == even:
        return Promotions(warband=band.name, even=True, order=order, extra=extra)
    return Promotions(warband=band.name, assign={names[f]: n for f, n in assignment.items() if n}, order=order, extra=extra)


def build_experience(state: CampaignState, warband: str, ask: BuildAsk) -> Experience:
    band = state.warbands[warband]
    tables = tables_for(state)
    record = latest_battle(state, band).record
    warband_deeds = {deed.id for deed in tables.glorious_deeds.deeds if deed.warband_level}
    leaders = rules.warband_deed_leaders(roster_of(state, band, tables), record)
    if len(leaders) > 1 and any(deed.deed_id in warband_deeds for deed in record.deeds):
        prompt = "Which ELITE LEADER gains the XP of the warband's Glorious Deed?"
        return Experience(warband=band.name, leader=offer(ask, prompt, [f.name for f in leaders], None, key="deed-leader"))
    return Experience(warband=band.name)


def build_advancement(state: CampaignState, warband: str, ask: BuildAsk) -> Advancement:
    band = state.warbands[warband]
    skill_tables = [table.id for table in tables_for(state).advancement_skills.tables]
    rolls = []
    for fighter_id, due in advancements_due(state, band).items():
        name = state.fighters[fighter_id].name
        for number in range(1, due + 1):
            first = ask(f"{name}, Advancement Roll {number} of {due}: first skill table", skill_tables,
                        key=f"{fighter_id}:{number}:first-table")
            second = ask(f"{name}, Advancement Roll {number} of {due}: second skill table",
                         [t for t in skill_tables if t != first], key=f"{fighter_id}:{number}:second-table")
            rolls.append(AdvanceRoll(fighter=name, tables=[first, second]))
    return Advancement(warband=band.name, rolls=rolls)


def build_exploration(state: CampaignState, warband: str, ask: BuildAsk) -> Exploration:
    band = state.warbands[warband]
    tables = tables_for(state)
    stage = rules.exploration_stage(band.games, tables)
    table = stage.tables[0] if len(stage.tables) == 1 else offer(
        ask, f"Explore which table after {band.games} games?", list(stage.tables), None, key="table")
    rerolls = offer(ask, "Re-roll Exploration dice once you have seen them?", ["no", "yes"], "no", key="rerolls")
    return Exploration(warband=band.name, table=table, rerolls=None if rerolls == "yes" else [])


def _plain(command: type[Command]):
    def build(state: CampaignState, warband: str, ask: BuildAsk) -> Command:
        return command(warband=state.warbands[warband].name)

    return build


def _refusing(build: BuildCommand) -> BuildCommand:
    """A builder whose rules refuse (no Exploration stage for a warband that has not fought) says so
    as a refusal, as the handlers do: `post-game --list` and `--answer` then show the step unbuilt
    rather than crash."""

    @wraps(build)
    def refused_as_rule_violation(state: CampaignState, warband: str, ask: BuildAsk) -> Command:
        try:
            return build(state, warband, ask)
        except rules.TrenchCrusadeRuleError as error:
            raise RuleViolation(str(error)) from None

    return refused_as_rule_violation


PHASE = Phase(
    steps=[
        PhaseStep("trauma", "Trauma", build=_plain(Trauma),
                  guide="Survival Rolls for Troops, the Trauma Table for ELITE"),
        PhaseStep("promotions", "Promotions", build=_refusing(build_promotions), guide="the Promotion Dice pool"),
        PhaseStep("experience", "Experience", build=_refusing(build_experience), guide="XP for the ELITE"),
        # The rolls owed once Promotions and Experience have given ELITE models their XP.
        PhaseStep("advancement", "Advancement", "Advancement Rolls", build=_refusing(build_advancement),
                  done=advancement_done, checked_by_command=True,
                  asks_once_opened=("FIGHTER:N:first-table", "FIGHTER:N:second-table")),
        PhaseStep("exploration", "Exploration", build=_refusing(build_exploration),
                  guide="explore, or take Reinforcements instead",
                  before="take Reinforcements instead (`campaign trench-crusade reinforcements`: the Arsenal is "
                         "discarded, the Strongbox set to 0, no Exploration)?"),
        # Taken instead of Exploration, in its place in the order (rules §4: Reinforcements forfeits Exploration).
        PhaseStep(REINFORCEMENTS, "Reinforcements", instead_of="exploration"),
        PhaseStep(QUARTERMASTER, "Quartermaster", build=_plain(Quartermaster),
                  guide="done buying, selling, recruiting, retiring and allocating",
                  before="retire, recruit, buy, sell or allocate Battlekit first (`campaign trench-crusade "
                         "retire|recruit|buy|sell|give|stow`)?"),
        PhaseStep(ROSTER, "Roster", build=_plain(Roster), guide="the roster is up to date"),
    ],
    messages=PhaseMessages(
        no_battle="{band} has not fought a battle yet",
        already_done="{band} has already done the {step} step for battle {battle}",
        taken_instead="{band} has done the {taken} step for battle {battle}: "
                      "Reinforcements are taken instead of Exploration, not as well",
        not_yet="{band} must do the {first} step for battle {battle} first (the Campaign Phase goes {order})",
        unfinished="{band} has not finished the Campaign Phase of battle {battle}: next is {next} "
                   "(campaign post-game {quoted})",
    ),
    gate=settled_first,
)
