"""The post-game of a retinue's latest battle, declared with the kit's `Phase`: the three award
passes in order, the Casualty and Doom Tables between the scenario and post-game passes (E2, E7),
then spending, closed by `retinue.spending-done`. Each step is one command, refused out of order
or twice; a warband's next battle waits until the phase is finished, so no pass is dropped.

The guided walk (`campaign post-game WARBAND`) builds each step's command; with no one to ask (no
terminal) it takes the answers given ahead (`--answer scenario-award:1=Wren --answer
scenario-award:1:xp=2`, `doom-roll:1=Kestrel`, `bonus:1=Wren`, `none` for nobody (more)). A pick not
answered stops the walk before its step is written, naming the key to give: who gains scenario XP,
who rolls on the Doom Table and who gains a survival +1 are the player's to say, and taking `none`
for him lost a Doom roll, or an award, that only a void gave back (as Coreheim's search asks
`--answer HERO:search=nothing`). The picks are asked only while fighters
are left to pick and none was answered `none`: a numbered answer beyond them is refused (they are
the steps' `asks`, not the commands' answer keys, so nothing takes one that is not asked), but for
`none`, which says what the walk does anyway (a script may end its picks with `doom-roll:3=none`
not knowing how many fighters are left): the walk says it unused. Outcomes
named by the player (A3 "by-name") are asked while deciding, so `post-game --answer
casualty:kestrel=Hardy` gives them. Purchases are commands of their own, offered before the last step.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from commands.kit import Phase, PhaseMessages, PhaseStep
from commands.kit.versions import plays
from ledger.decide import BuildAsk
from ledger.state import Battle, CampaignState
from projections.battles import fought

from .commands import BattlePass, Bonus, Casualties, Doom, PostGamePass, ScenarioPass, SpendingDone
from .rules import ScenarioAward, check_scenario_xp

NONE = "none"


def _pick_fighters(left: list[str], ask: BuildAsk, prompt: str, key: str, then: str, *, once: bool = True) -> Iterator[str]:
    """The fighters the player picks among `left`, one at a time (what follows a pick is asked before
    the next): the n-th answered ahead as `KEY:n` (`--answer doom-roll:1=Kestrel`). The first is asked
    with `prompt`, each next one with `then`, so that the question asked again after a pick says what
    it wants next (none: no more). `once`: a fighter picked is not offered again (one Doom roll, one
    scenario award each); else it is, for a fighter the rules let gain more than one."""
    for number in itertools.count(1):
        if not left or (name := ask(prompt if number == 1 else then, [NONE, *left], key=f"{key}:{number}")) == NONE:
            return
        if once:
            left.remove(name)
        yield name


def scenario_of(battle: Battle | None) -> str:
    """The scenario a scenario pass names, in the walk's questions and as the reason an award records
    when the player gives none (`scenario-pass` without --for): the battle's, else "the scenario".
    One default for both ways: it is written into the command recorded, so recorded ones keep theirs."""
    return (battle.scenario if battle else "") or "the scenario"


def _offered(state: CampaignState, warband: str, battle: Battle | None, version: str, *,
             surviving: bool = False) -> tuple[list[str], str]:
    """The fighters a step offers, and what its question calls them: the active ones, or with `surviving`
    every one not dead, Captured (or retired by a correction) too: E7's "surviving fighter", as the
    post-game pass takes him (E5 denies post-game XP to the Slain alone, and the seed counts Captured
    among that pass's results, "casualty, Captured, and Doom awards"). From `version` on, only those who
    fought the battle (E6 from 1.3.0, E7 from 1.5.0: one recruited since, or absent, earns none of its
    XP, nor rolls on its Doom Table), called fighters "of battle N" to say why the others are not offered."""
    fighters = [f for f in state.fighters_of(warband, active_only=False) if f.active or (surviving and f.status != "dead")]
    if battle is None or not plays(state, version):
        return [f.name for f in fighters], "fighter"
    played = {deed.fighter for deed in fought(battle, warband, state)}
    return [f.name for f in fighters if f.id in played], f"fighter of battle {battle.number}"


def build_scenario_pass(state: CampaignState, warband: str, ask: BuildAsk) -> ScenarioPass:
    band = state.warbands[warband]
    battle = PHASE.latest_battle(state, band)
    scenario = scenario_of(battle)
    offered, fighter = _offered(state, warband, battle, "1.3.0")
    awards = []
    picked = _pick_fighters(offered, ask,
                            f"Which {fighter} does {scenario} award XP? (E6: each award names one fighter)",
                            "scenario-award", then=f"Which other {fighter} does {scenario} award XP?")
    for number, name in enumerate(picked, start=1):
        # Any amount the scenario states (E6), as `scenario-pass --award` takes: no list of choices.
        amount = ask.number(f"How much XP does {scenario} award {name}?", key=f"scenario-award:{number}:xp",
                            check=check_scenario_xp)
        awards.append(ScenarioAward(fighter=name, amount=amount, reason=scenario))
    return ScenarioPass(warband=band.name, awards=awards)


def build_doom(state: CampaignState, warband: str, ask: BuildAsk) -> Doom:
    offered, fighter = _offered(state, warband, PHASE.latest_battle(state, state.warbands[warband]), "1.5.0")
    return Doom(warband=state.warbands[warband].name,
                fighters=list(_pick_fighters(offered, ask, f"Which {fighter} rolls on the Doom Table?", "doom-roll",
                                             then=f"Which other {fighter} rolls on the Doom Table?")))


def build_post_game_pass(state: CampaignState, warband: str, ask: BuildAsk) -> PostGamePass:
    offered, fighter = _offered(state, warband, PHASE.latest_battle(state, state.warbands[warband]), "1.5.0", surviving=True)
    prompt = f"Which surviving {fighter} gains +1 from a survival roll or scenario result?"
    # E7: each such result grants +1 to "one named or selected surviving fighter", and two results may
    # name the same one (as `post-game-pass --bonus` takes): a fighter picked is offered again.
    bonus = [Bonus(fighter=name, reason="survival roll or scenario result")
             for name in _pick_fighters(offered, ask, prompt, "bonus", once=False,
                                        then=f"Which surviving {fighter} gains +1 from another survival roll or scenario result?")]
    return PostGamePass(warband=state.warbands[warband].name, bonus=bonus)


PHASE = Phase(
    steps=[
        PhaseStep("battle-pass", "do the battle pass", "Battle pass", guide="not Out of Action, enemies put Out of Action (E3, E4)",
                  build=lambda state, warband, ask: BattlePass(warband=state.warbands[warband].name)),
        PhaseStep("scenario-pass", "do the scenario pass", "Scenario pass", guide="the XP the scenario states for each fighter (E6)",
                  build=build_scenario_pass, asks=("scenario-award:N", "scenario-award:N:xp"), no_more=NONE),
        PhaseStep("casualty", "roll on the Casualty Table", "Casualty Table", guide="a D6 for each fighter that went Out of Action",
                  build=lambda state, warband, ask: Casualties(warband=state.warbands[warband].name)),
        PhaseStep("doom", "roll on the Doom Table", "Doom Table", guide="2D6", build=build_doom,
                  asks=("doom-roll:N",), no_more=NONE),
        PhaseStep("post-game-pass", "do the post-game pass", "Post-game pass", guide="Hardy, Miraculous, survival rolls (E5, E7)",
                  build=build_post_game_pass, asks=("bonus:N",), no_more=NONE),
        PhaseStep("spending", "finish spending", "Spending", guide="advancements bought (S1-S9)",
                  build=lambda state, warband, ask: SpendingDone(warband=state.warbands[warband].name),
                  before="buy advancements first (`campaign retinue buy WARBAND FIGHTER ADVANCEMENT`)?"),
    ],
    messages=PhaseMessages(
        already_done="{band} cannot {step} again: it is done for battle {battle}",
        not_yet="E2: {band} must {first} before it can {step} (post-game of battle {battle})",
        unfinished="{band} has not finished the post-game of battle {battle}: next, {first} (campaign post-game {quoted})",
    ),
)
