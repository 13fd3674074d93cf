"""The guided post-game (`campaign post-game WARBAND`) for a retinue: the three award passes in
order, the Casualty and Doom Tables between the scenario and post-game passes (E2, E7), then
spending. Each step builds one command; whether it is done is read from the shared
`post-game.step-done` events of the warband's latest battle, so the walk resumes where it
stopped. With no one to ask (no terminal) the defaults are taken: no scenario award, nobody on
the Doom Table, no survival-roll bonus; outcomes named by the player (A3 "by-name") are asked
while deciding, so `post-game --answer casualty:kestrel=Hardy` gives them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from ledger.decide import AskChoice, Command
from ledger.errors import NeedsDice
from ledger.rulesets import Step, steps_done
from ledger.state import CampaignState

from . import handlers as h

NONE = "none"


def _offer(ask: AskChoice, prompt: str, options: Sequence[str]) -> str:
    """Ask; with no one to ask the answer is `none`."""
    try:
        return ask(prompt, [NONE, *options])
    except NeedsDice:
        return NONE


def _pick_fighters(state: CampaignState, warband: str, ask: AskChoice, prompt: str) -> Iterator[str]:
    """The fighters the player picks, one at a time (what follows a pick is asked before the next)."""
    left = [f.name for f in state.fighters_of(warband)]
    while left and (name := _offer(ask, prompt, left)) != NONE:
        left.remove(name)
        yield name


def build_scenario_pass(state: CampaignState, warband: str, ask: AskChoice) -> h.ScenarioPass:
    band = state.warbands[warband]
    scenario = h.latest_battle(state, band).scenario or "the scenario"
    awards = []
    for name in _pick_fighters(state, warband, ask, f"Which fighter does {scenario} award XP (E6: named fighters only)?"):
        amount = int(ask(f"How much XP does {scenario} award {name}?", [str(n) for n in range(1, 6)]))
        awards.append(h.r.ScenarioAward(fighter=name, amount=amount, reason=scenario))
    return h.ScenarioPass(warband=band.name, awards=awards)


def build_doom(state: CampaignState, warband: str, ask: AskChoice) -> h.Doom:
    return h.Doom(warband=state.warbands[warband].name,
                  fighters=list(_pick_fighters(state, warband, ask, "Which fighter rolls on the Doom Table?")))


def build_post_game_pass(state: CampaignState, warband: str, ask: AskChoice) -> h.PostGamePass:
    prompt = "Which surviving fighter gains +1 from a survival roll or scenario result?"
    bonus = [h.Bonus(fighter=name, reason="survival roll or scenario result")
             for name in _pick_fighters(state, warband, ask, prompt)]
    return h.PostGamePass(warband=state.warbands[warband].name, bonus=bonus)


def _plain(command: Callable[..., Command]) -> Callable[[CampaignState, str, AskChoice], Command]:
    return lambda state, warband, ask: command(warband=state.warbands[warband].name)


def _done(step: str) -> Callable[[CampaignState, str], bool]:
    """Done once recorded for the warband's latest battle."""

    def done(state: CampaignState, warband: str) -> bool:
        battle = next((b for b in reversed(state.battles) if warband in b.participants), None)
        return battle is not None and step in steps_done(state, warband, battle.number)

    return done


STEPS = (
    Step("battle-pass", "Battle pass: not Out of Action, enemies put Out of Action (E3, E4)", _done("battle-pass"),
         _plain(h.BattlePass)),
    Step("scenario-pass", "Scenario pass: XP the scenario gives named fighters (E6)", _done("scenario-pass"),
         build_scenario_pass),
    Step("casualty", "Casualty Table (D6) for each fighter that went Out of Action", _done("casualty"),
         _plain(h.Casualties)),
    Step("doom", "Doom Table (2D6)", _done("doom"), build_doom),
    Step("post-game-pass", "Post-game pass: Hardy, Miraculous, survival rolls (E5, E7)", _done("post-game-pass"),
         build_post_game_pass),
    Step("spending", "Spending: advancements bought (S1-S9)", _done("spending"), _plain(h.SpendingDone),
         before="buy advancements first (`campaign retinue buy WARBAND FIGHTER ADVANCEMENT`)?"),
)


def post_game(state: CampaignState, warband: str) -> Sequence[Step]:
    return STEPS
