"""Coreheim (`coreheim`): the whole post-game sequence of Coreheim v10 "D12", a community rework
of Mordheim (seed 002, section 2.1; data in shared/rules/coreheim.md).

Built on the ruleset kit (commands/README.md). Layers: `tables` (data files, house-rule
overrides) and `rules/` (pure functions, no I/O, a module per topic) are the game; `commands` are
what a player asks; `handlers/` (a module per part of the sequence, and the one handler table in
its `__init__`), `advances`, `outcomes` and `model` put it on the ledger; `events` are the facts
the shared vocabulary has no name for, and `facts` what the state keeps of them, typed; `phase`
declares the post-game sequence and the guided `campaign post-game WARBAND`; `views` what
`ratings` shows; `cli` is `campaign coreheim …`.

Decisions on top of those in `rules` (where the seed and the rules file are silent):
- A warband's faction names its warband list: `campaign warband add NAME --faction mercenaries`
  (or `mercenaries/marienburg` for a variant). Warriors join with `campaign coreheim hire`, which
  takes a hero's or henchman type's price, starting XP, profile and race, a Hired Sword's fee, and
  the list's limits from the tables (a stat or race given replaces the list's); a henchman,
  animal or monster the list does not print costs what the player says (`--cost`). The shared
  `fighter add` is refused in a Coreheim campaign.
- Steps run once per battle, in the seed's order (explore, injuries, experience, advances, then
  trading 1 wyrdstone, 3 rare items, 5 upkeep, 7 reinforce); trading 2 sell, 4 buy and 6 hire
  are open between them. Reinforcing is trading step 7 (its own section of the seed explains
  the D6 pool; the numbered trading list places it). A warband finishes its post-game before
  it fights again.
- Advances are their own step after experience, so one warrior's threshold can be rolled on
  its own (`campaign coreheim advance WARBAND FIGHTER --threshold 24`). Thresholds count from
  the XP up to which advances were rolled, which starts at the XP a warrior was hired with.
- A henchman group is one fighter with `group_size` members; deaths and Talent! take members
  away, reinforcing adds them. A group's item is one per member: buying costs the price per
  member, selling gives half of it per member, and a recruit pays for his (version 4).
- The leader of a battle's winning warband gets his +1 if he is the leader when experience
  is awarded (a successor who took over after the battle gets it instead of a dead leader).
- The leader lost (dead or captured) is succeeded by the hero with the best Ld target; ties
  are the player's choice (answer key `new-leader`). Hiring the list's leader type again
  makes him leader and returns the acting leader to hero.
- A captured hero's gear goes to the stash of the warband that took him out (the player names
  it when the battle does not say); the captive himself is a pending decision (a note).
- Not modelled, recorded by hand: Cabal Ritual, Daemon Soul, Smuggler, drugs' side effects,
  wizards' spells on a skill advance, a Hired Sword's own skill list (a note says so).
"""

from __future__ import annotations

from commands.coreheim import advances, facts, model, rules
from commands.coreheim.handlers import HANDLERS
from commands.coreheim.handlers.trading import RECRUITS_GEAR
from commands.coreheim.phase import PHASE
from ledger.rulesets import Ruleset, commands_in, register
from ledger.terms import Terms

RULESET = register(
    Ruleset(
        id="coreheim",
        version="11",
        versions=("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"),
        asks_again_after_a_reroll="11",  # a multiple or the dice kept, answered of the disputed dice (README, 11)
        title='Coreheim v10 "D12" (Mordheim rework): the post-game sequence',
        handlers=HANDLERS,
        evolve=facts.FOLDS.evolve,
        terms=Terms(
            rating="Warband rating",
            treasury="Gold crowns",
            resources={"shards": "Wyrdstone shards"},
            fighter_facts={"type": "Type", "race": "Race", "skill_lists": "Skill lists"},
            named_facts={"type": "warrior-type", "skill_lists": "skill-list", "race": "race"},
            stat_order=rules.STATS,  # v10's profile, as the warband lists print it
        ),
        default_options=model.DEFAULT_OPTIONS,
        check_options=model.check_options,
        post_game=PHASE.guided_steps,
        step_names=PHASE.step_names,
        rating=model.rating,
        answer_choices=advances.answer_choices,  # an answer ahead that no roll could take is refused before the roll
        row_names=model.row_names,  # the log's "Gunnar gains Power Scroll"
        # the trading's reasons and rolls ("bought sword", "sold sword x2 (half of 7 gc)", "price of telescope",
        # "Gunnar looks for lance", "the gear of 2 recruits for Marksmen: bow, dagger (7 gc each)"): their items said as
        # the line "Gunnar gains Sword" says them
        ids_cited_after=("bought ", "sold ", "price of ", "looks for ", RECRUITS_GEAR),
        shown_ext=facts.FACTS.shown_ext,
        starting_treasury=lambda state: model.tables_for(state.options).warbands.starting_gold,  # "Start: 500gc"
        register_commands=commands_in(f"{__package__}.cli"),
    )
)
