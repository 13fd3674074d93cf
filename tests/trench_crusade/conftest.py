"""A Trench Crusade campaign in memory, driven through the ledger command by command.

`table` gives a fresh campaign; its methods set up the usual warbands and battles, run a
command with table dice and return the events it produced (without the `command.recorded`
event that opens every transaction), or the refusal's message.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from commands.shared import AwardXP, Correct, EnlistWarband
from commands.trench_crusade.commands import (
    Advancement,
    AdvanceRoll,
    Experience,
    Promotions,
    Quartermaster,
    RecordTrenchBattle,
    Recruit,
    Reinforcements,
    Roster,
    Trauma,
)
from commands.trench_crusade import RULESET
from commands.trench_crusade.model import advancements_due
from commands.trench_crusade.phase import PHASE
from ledger import events as ev
from ledger.decide import Command
from ledger.rulesets import register
from ledger.state import CampaignState
from ledger.testing import CampaignRunner, LedgerHarness


class Table(LedgerHarness):
    def __init__(self, options: dict[str, Any], *, version: str | None = None):
        super().__init__("trench-crusade", options, version=version)

    # --- the usual campaign -------------------------------------------------------------------

    def pilgrims(self, *, elites: Sequence[str] = (), troops: Sequence[str] = ("Anna", "Bert")) -> None:
        """Pilgrims: Gaius (ELITE LEADER), more ELITE if asked, Trench Pilgrim Troops, and Carl,
        an Ecclesiastic Prisoner, who can never be Promoted."""
        self.do(EnlistWarband(name="Pilgrims", player="Ann", faction="Trench Pilgrims", treasury=700))
        self.do(Recruit(warband="Pilgrims", name="Gaius", model="War Prophet", elite=True, keywords=["LEADER"], paid=False))
        for name in elites:
            self.do(Recruit(warband="Pilgrims", name=name, model="Sniper Priest", elite=True, paid=False))
        for name in troops:
            self.do(Recruit(warband="Pilgrims", name=name, model="Trench Pilgrim", paid=False))
        self.do(Recruit(warband="Pilgrims", name="Carl", model="Ecclesiastic Prisoners", paid=False))

    def legion(self) -> None:
        self.do(EnlistWarband(name="Legion", player="Bob", faction="heretic-legions", treasury=700))
        self.do(Recruit(warband="Legion", name="Baal", model="Heretic Priest", elite=True, keywords=["LEADER"], paid=False))

    def battle_command(
        self,
        *,
        deeds: dict[str, list[str]] | None = None,
        warband_deeds: dict[str, list[str]] | None = None,
        ooa: Sequence[str] = (),
        winner: str | None = "Pilgrims",
        scenario: str = "trench-warfare",
    ) -> RecordTrenchBattle:
        """Pilgrims against Legion, every active model fighting but those missing a game for an injury."""
        state = self.state
        fighters = [f for band in ("pilgrims", "legion") for f in state.fighters_of(band) if not f.missed_games]
        return RecordTrenchBattle(
            participants=["Pilgrims", "Legion"],
            scenario=scenario,
            winner=winner,
            deeds=[
                ev.Deed(fighter=f.name, out_of_action=f.name in ooa, glorious_deeds=(deeds or {}).get(f.name, []))
                for f in fighters
            ],
            warband_deeds=warband_deeds or {},
        )

    def battle(self, **battle: Any) -> list[ev.Event]:
        """Records `battle_command(**battle)`."""
        return self.do(self.battle_command(**battle))

    def promotions_for(self, deeds: dict[str, list[str]], dice: Sequence[int], *,
                       warband_deeds: dict[str, list[str]] | None = None, **promotions: Any) -> list[ev.Event]:
        """A battle with these deeds and no casualties, its Trauma step, then Promotions."""
        self.battle(deeds=deeds, warband_deeds=warband_deeds)
        self.do(Trauma(warband="Pilgrims"))
        return self.do(Promotions(warband="Pilgrims", **promotions), dice)

    def finish_phase(self, warband: str, *, promotions: Sequence[int] = (), advancement: Sequence[int] = ()) -> None:
        """The steps left of the warband's Campaign Phase, so that it may fight again, with the
        table dice of the steps that roll: the Promotion Dice spread evenly, each Advancement Roll
        owed on Melee & Strength and Wildcard keeping Wildcard, Reinforcements instead of
        Exploration (it rolls no dice), and Quartermaster and Roster with nothing bought. Trauma is given no dice: a test with casualties does it itself."""
        dice = {"promotions": promotions, "advancement": advancement}
        band = self.state.warband(warband).id
        while (step := PHASE.next_step(self.state, self.state.warbands[band])) is not None:
            self.do(PHASE_COMMANDS[step](self.state, band), dice.get(step, ()))

    def finish_phases(self, *, promotions: Sequence[int] = ()) -> None:
        """Both warbands finish the latest battle's Campaign Phase (`finish_phase`), so that they may
        fight again: the Pilgrims' Promotion Dice are these, and an Advancement Roll owed (one per
        warband at most, in these tests) rolls double 1s on both tables."""
        self.finish_phase("Pilgrims", promotions=promotions, advancement=[1, 1, 1, 1])
        self.finish_phase("Legion", advancement=[1, 1, 1, 1])

    def learn_show_off(self, fighter: str) -> None:
        """The Pilgrims' ELITE learns Show Off: an arbiter's 2 XP reach the first circle, and its
        Advancement Roll is double 1s on Melee & Strength and 4+4 = 8 on Wildcard (Show Off), kept."""
        self.do(AwardXP(warband="Pilgrims", fighter=fighter, amount=2, reason="test setup"))
        self.do(Advancement(warband="Pilgrims", rolls=[AdvanceRoll(fighter=fighter, tables=["melee-strength", "wildcard"],
                                                                   keep="wildcard")]), [1, 1, 4, 4])

    def give_xp(self, fighter: str, amount: int) -> None:
        """An arbiter's correction: the only way a Troop can hold XP."""
        self.do(Correct(warband="Pilgrims", fighter=fighter, reason="test setup", xp=amount))


def owed_advancement_rolls(state: CampaignState, band: str) -> Advancement:
    owed = advancements_due(state, state.warbands[band])
    return Advancement(warband=band, rolls=[
        AdvanceRoll(fighter=fighter, tables=["melee-strength", "wildcard"], keep="wildcard")
        for fighter, count in owed.items() for _ in range(count)
    ])


PHASE_COMMANDS: dict[str, Callable[[CampaignState, str], Command]] = {
    "trauma": lambda state, band: Trauma(warband=band),
    "promotions": lambda state, band: Promotions(warband=band, even=True),
    "experience": lambda state, band: Experience(warband=band),
    "advancement": owed_advancement_rolls,
    "exploration": lambda state, band: Reinforcements(warband=band),
    "quartermaster": lambda state, band: Quartermaster(warband=band),
    "roster": lambda state, band: Roster(warband=band),
}


@pytest.fixture
def table() -> Table:
    return Table({})


@pytest.fixture
def first_release() -> Table:
    """A campaign pinned to version 1.0.0, as one recorded before 1.1.0 existed."""
    newest = RULESET
    register(dataclasses.replace(newest, version="1.0.0", versions=("1.0.0",)))
    try:
        return Table({})
    finally:
        register(newest)


@pytest.fixture
def house_rules():
    """`house_rules(options)` gives a campaign started with these options."""
    return Table


@pytest.fixture
def cli(tmp_path) -> CampaignRunner:
    """`cli(*args)` runs `campaign --store <SQLite file in tmp_path> *args` with a fixed clock and seed."""
    return CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
