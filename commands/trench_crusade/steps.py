"""The guided Campaign Phase (`campaign post-game WARBAND`) for Trench Crusade.

Steps in the rules' order: Trauma, Promotions, Experience, Advancement Rolls, Exploration
(the optional Reinforcements is taken in Exploration's place with `trench-crusade
reinforcements`, which counts as Exploration done), Quartermaster, Roster. The Quartermaster
step's activities (retire, recruit, buy, sell, give, stow) are commands of their own, done
before the step: at a terminal the walk offers to stop there for them; the step itself and
the Roster step are a confirmation each. Each step builds one command; whether it is done is read from the events of the
warband's latest battle (`post-game.step-done`, and the Advancement Rolls still owed), so the
sequence resumes where it stopped. The same steps decide whether a warband may fight again
(`next_step`): a battle is refused until its latest battle's phase is finished. With no one to
ask (no terminal), choices with a sensible default (accept the even spread, roll each model's
dice together, no extra dice, no re-rolls) take it; choices the command itself asks while
deciding (the table to explore, which LEADER gains a warband deed's XP) are left to it, so
`post-game --answer table=rare` gives them; the skill tables of an Advancement Roll need a
terminal or `campaign trench-crusade advance`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ledger.decide import AskChoice
from ledger.errors import NeedsDice, RuleViolation
from ledger.rulesets import Step, steps_done
from ledger.state import CampaignState

from . import rules as r
from .handlers import (
    INSTEAD_OF,
    Advancement,
    AdvanceRoll,
    Experience,
    QUARTERMASTER,
    ROSTER,
    Exploration,
    Promotions,
    Quartermaster,
    Roster,
    Trauma,
    advancements_due,
    head_wound_promotion,
    latest_battle,
    roster_of,
    tables_for,
)
from .tables import TrenchCrusadeTables


def offer(ask: AskChoice, prompt: str, options: Sequence[str], default: str | None) -> str | None:
    """Ask a choice; with no one to ask, the default is the answer (None: the command asks
    while deciding, where `post-game --answer KEY=CHOICE` can give it)."""
    try:
        return ask(prompt, options)
    except NeedsDice:
        return default


def recorded(step: str):
    """Done once the step, or the step taken in its place (Reinforcements for Exploration), is
    recorded for the warband's latest battle."""
    stands_for = {step, *(other for other, place in INSTEAD_OF.items() if place == step)}

    def done(state: CampaignState, warband: str) -> bool:
        band = state.warbands[warband]
        try:
            battle = latest_battle(state, band)
        except RuleViolation:
            return False
        return not stands_for.isdisjoint(steps_done(state, warband, battle.number))

    return done


def advancement_done(state: CampaignState, warband: str) -> bool:
    return recorded("experience")(state, warband) and not advancements_due(state, state.warbands[warband])


def _more_dice(ask: AskChoice, tables: TrenchCrusadeTables) -> dict[str, int]:
    """Extra Promotion Dice from Skills or Glory Items, each with its source."""
    sources = {row.id: row for row in tables.promotion_dice_sources.rows}
    extra: dict[str, int] = {}
    while True:
        left = [source for source in sources if source not in extra]
        if not left:
            return extra
        source = offer(ask, "Extra Promotion Dice from a Skill or Glory Item?", ["none", *left], "none")
        if source == "none":
            return extra
        row = sources[source]
        counts = [str(row.dice_each * n) for n in range(1, 7)]
        extra[source] = int(ask(f"How many dice does {row.name} add ({row.dice_each} per {row.per})?", counts))


def _assignment_table(names: dict[str, str], assignment: dict[str, int], pool: r.PromotionPool) -> str:
    width = max(len(name) for name in names.values())
    rows = "\n".join(f"  {names[f].ljust(width)}  {assignment.get(f, 0)}" for f in names)
    made_of = f"1 + {pool.glorious_deeds} Glorious Deeds" + "".join(f" + {e.dice} {e.source_id}" for e in pool.extra)
    return f"Promotion Dice: {pool.size} ({made_of})\n{rows}\n"


def build_promotions(state: CampaignState, warband: str, ask: AskChoice) -> Promotions:
    band = state.warbands[warband]
    tables = tables_for(state)
    roster = roster_of(state, band, tables)
    if r.promotion_step_skipped(roster):
        return Promotions(warband=band.name)
    extra = _more_dice(ask, tables)
    deeds = latest_battle(state, band).record.deeds
    pool = r.promotion_pool(deeds, [r.ExtraPromotionDice(source_id=s, dice=n) for s, n in extra.items()], tables)
    eligibility = r.promotion_eligibility(roster, band.faction, tables, head_wound_elite=head_wound_promotion(state))
    names = {f.fighter_id: f.name for f in eligibility.eligible}
    if not names:
        return Promotions(warband=band.name, even=True, extra=extra)
    even = r.even_spread(list(names), pool.size)
    assignment, refusal = even, ""
    while True:
        prompt = f"{refusal}{_assignment_table(names, assignment, pool)}Accept this assignment?"
        if offer(ask, prompt, ["accept", "edit"], "accept") == "accept":
            break
        edited = {f: int(ask(f"Promotion Dice for {name}", [str(n) for n in range(pool.size + 1)])) for f, name in names.items()}
        try:
            r.validate_assignment(edited, eligibility, pool.size)
            assignment, refusal = edited, ""
        except r.TrenchCrusadeRuleError as error:
            refusal = f"Not allowed: {error}\n"
    default_order = r.dice_in_fighter_order(assignment, [f for f in names if assignment.get(f)])
    order: list[str] = []  # empty: the default, each model's dice together
    shown = ", ".join(names[f] for f in default_order)
    if offer(ask, f"Roll in this order: {shown}?", ["accept", "edit"], "accept") == "edit":
        left = dict(assignment)
        for die in range(1, len(default_order) + 1):
            holders = {names[f]: f for f, n in left.items() if n}
            picked = ask(f"Promotion Die {die} of {len(default_order)}: roll for which model?", list(holders))
            left[holders[picked]] -= 1
            order.append(picked)
    if assignment == even:
        return Promotions(warband=band.name, even=True, order=order, extra=extra)
    return Promotions(warband=band.name, assign={names[f]: n for f, n in assignment.items() if n}, order=order, extra=extra)


def build_experience(state: CampaignState, warband: str, ask: AskChoice) -> Experience:
    band = state.warbands[warband]
    tables = tables_for(state)
    record = latest_battle(state, band).record
    warband_deeds = {deed.id for deed in tables.glorious_deeds.deeds if deed.warband_level}
    leaders = r.warband_deed_leaders(roster_of(state, band, tables), record)
    if len(leaders) > 1 and any(deed.deed_id in warband_deeds for deed in record.deeds):
        prompt = "Which ELITE LEADER gains the XP of the warband's Glorious Deed?"
        return Experience(warband=band.name, leader=offer(ask, prompt, [f.name for f in leaders], None))
    return Experience(warband=band.name)


def build_advancement(state: CampaignState, warband: str, ask: AskChoice) -> Advancement:
    band = state.warbands[warband]
    skill_tables = [table.id for table in tables_for(state).advancement_skills.tables]
    rolls = []
    for fighter_id, due in advancements_due(state, band).items():
        name = state.fighters[fighter_id].name
        for number in range(1, due + 1):
            first = ask(f"{name}, Advancement Roll {number} of {due}: first skill table", skill_tables)
            second = ask(f"{name}, Advancement Roll {number} of {due}: second skill table",
                         [t for t in skill_tables if t != first])
            rolls.append(AdvanceRoll(fighter=name, tables=[first, second]))
    return Advancement(warband=band.name, rolls=rolls)


def build_exploration(state: CampaignState, warband: str, ask: AskChoice) -> Exploration:
    band = state.warbands[warband]
    tables = tables_for(state)
    stage = r.exploration_stage(band.games, tables)
    table = stage.tables[0] if len(stage.tables) == 1 else offer(ask, f"Explore which table after {band.games} games?", list(stage.tables), None)
    rerolls = offer(ask, "Re-roll Exploration dice once you have seen them?", ["no", "yes"], "no")
    return Exploration(warband=band.name, table=table, rerolls=None if rerolls == "yes" else [])


STEPS = (
    Step("trauma", "Trauma: Survival Rolls for Troops, the Trauma Table for ELITE",
         recorded("trauma"), lambda state, warband, ask: Trauma(warband=state.warbands[warband].name)),
    Step("promotions", "Promotions: the Promotion Dice pool", recorded("promotions"), build_promotions),
    Step("experience", "Experience: XP for the ELITE", recorded("experience"), build_experience),
    Step("advancement", "Advancement Rolls", advancement_done, build_advancement),
    Step("exploration", "Exploration (or Reinforcements instead)", recorded("exploration"), build_exploration,
         before="take Reinforcements instead (`campaign trench-crusade reinforcements`: the Arsenal is "
                "discarded, the Strongbox set to 0, no Exploration)?"),
    Step(QUARTERMASTER, "Quartermaster: done buying, selling, recruiting, retiring and allocating",
         recorded(QUARTERMASTER), lambda state, warband, ask: Quartermaster(warband=state.warbands[warband].name),
         before="retire, recruit, buy, sell or allocate Battlekit first (`campaign trench-crusade "
                "retire|recruit|buy|sell|give|stow`)?"),
    Step(ROSTER, "Roster: the roster is up to date", recorded(ROSTER),
         lambda state, warband, ask: Roster(warband=state.warbands[warband].name)),
)


def post_game(state: CampaignState, warband: str) -> Sequence[Step]:
    return STEPS


def next_step(state: CampaignState, warband: str) -> Step | None:
    """The first step of the Campaign Phase of the warband's latest battle not yet done (None: the
    phase is finished, or the warband has not fought yet)."""
    band = state.warbands[warband]
    try:
        latest_battle(state, band)
    except RuleViolation:
        return None
    return next((step for step in STEPS if not step.done(state, warband)), None)
