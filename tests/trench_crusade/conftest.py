"""A Trench Crusade campaign in memory, driven through the ledger command by command.

`table` gives a fresh campaign; its methods set up the usual warbands and battles, run a
command with table dice and return the events it produced (without the `command.recorded`
event that opens every transaction), or the refusal's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from commands.shared import Correct, EnlistWarband
from commands.trench_crusade.handlers import Promotions, RecordTrenchBattle, Recruit, Trauma
from ledger import events as ev
from ledger.testing import CampaignRunner, LedgerHarness


class Table(LedgerHarness):
    def __init__(self, options: dict[str, Any]):
        super().__init__("trench-crusade", options)

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

    def battle(
        self,
        *,
        deeds: dict[str, list[str]] | None = None,
        warband_deeds: dict[str, list[str]] | None = None,
        ooa: Sequence[str] = (),
        winner: str | None = "Pilgrims",
        scenario: str = "trench-warfare",
    ) -> list[ev.Event]:
        """Pilgrims against Legion, every active model fighting."""
        state = self.state
        fighters = [f for band in ("pilgrims", "legion") for f in state.fighters_of(band)]
        return self.do(
            RecordTrenchBattle(
                participants=["Pilgrims", "Legion"],
                scenario=scenario,
                winner=winner,
                deeds=[
                    ev.Deed(fighter=f.name, out_of_action=f.name in ooa, glorious_deeds=(deeds or {}).get(f.name, []))
                    for f in fighters
                ],
                warband_deeds=warband_deeds or {},
            )
        )

    def promotions_for(self, deeds: dict[str, list[str]], dice: Sequence[int], *,
                       warband_deeds: dict[str, list[str]] | None = None, **promotions: Any) -> list[ev.Event]:
        """A battle with these deeds and no casualties, its Trauma step, then Promotions."""
        self.battle(deeds=deeds, warband_deeds=warband_deeds)
        self.do(Trauma(warband="Pilgrims"))
        return self.do(Promotions(warband="Pilgrims", **promotions), dice)

    def give_xp(self, fighter: str, amount: int) -> None:
        """An arbiter's correction: the only way a Troop can hold XP."""
        self.do(Correct(warband="Pilgrims", fighter=fighter, reason="test setup", xp=amount))


@pytest.fixture
def table() -> Table:
    return Table({})


@pytest.fixture
def house_rules():
    """`house_rules(options)` gives a campaign started with these options."""
    return Table


@pytest.fixture
def cli(tmp_path) -> CampaignRunner:
    """`cli(*args)` runs `campaign --store <SQLite file in tmp_path> *args` with a fixed clock and seed."""
    return CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
