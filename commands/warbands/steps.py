"""The guided post-game (`campaign post-game WARBAND`) for Warbands, in the order of
shared/rules/warbands.md section 4: Recovery, Injuries, Survival, Experience (the battle
itself is step 1, `campaign warbands battle`; spending XP, step 6, is open once these are done).

Each step is one command; whether it is done is read from the `post-game.step-done` events of
the warband's latest battle, so the walk resumes where it stopped. The counts and outcomes the
players tell the ledger (models recovered, an injury's effect when the group has no table) are
asked while deciding, or given as `--answer recovered:UNIT=N`, `--answer injury:CHARACTER=EFFECT`;
XP earned without an award table is `--answer xp=N`.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.decide import AskChoice, Command
from ledger.rulesets import Step
from ledger.state import CampaignState

from .handlers import STEPS, Experience, Injuries, Recovery, Survival, next_step

TITLES = {
    "recovery": "Recovery: each unit's casualties that recover (survival counts after it)",
    "injuries": "Injuries: each character removed as a casualty",
    "survival": "Survival: Veteran eligibility or loss for units, battles survived for characters",
    "experience": "Experience: the XP the battle earned",
}
BUILD: dict[str, Callable[[str], Command]] = {
    "recovery": lambda band: Recovery(warband=band),
    "injuries": lambda band: Injuries(warband=band),
    "survival": lambda band: Survival(warband=band),
    "experience": lambda band: Experience(warband=band),
}


def _done(step: str) -> Callable[[CampaignState, str], bool]:
    def done(state: CampaignState, warband: str) -> bool:
        due = next_step(state, state.warbands[warband])
        return due is None or STEPS.index(due) > STEPS.index(step)

    return done


def _build(step: str) -> Callable[[CampaignState, str, AskChoice], Command]:
    def build(state: CampaignState, warband: str, ask: AskChoice) -> Command:
        return BUILD[step](warband)

    return build


def post_game(state: CampaignState, warband: str) -> list[Step]:
    return [Step(key=step, title=TITLES[step], done=_done(step), build=_build(step)) for step in STEPS]
