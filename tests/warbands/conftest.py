"""A Warbands campaign in memory, driven through the ledger command by command (given/when/then)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from commands.warbands import model, rules
from commands.warbands.handlers import (
    Enlist,
    Experience,
    Injuries,
    RecordWarbandsBattle,
    Recovery,
    Recruit,
    Survival,
)
from ledger import events as ev
from ledger.testing import CampaignRunner, LedgerHarness


class Table(LedgerHarness):
    def __init__(self, options: Mapping[str, Any] | None = None, *, version: str | None = None):
        super().__init__("warbands", options, version=version)

    def empire(self) -> None:
        """Reiklanders (Empire), 250 starting points: Swordsmen 10 x 6 = 60, Handgunners 5 x 8 = 40,
        Hans (Intellectual) 50 -> 150 points, 100 points left."""
        self.do(Enlist(name="Reiklanders", player="Ann", type="Empire"))
        self.do(Recruit(warband="Reiklanders", name="Swordsmen", points=6, models=10))
        self.do(Recruit(warband="Reiklanders", name="Handgunners", points=8, models=5))
        self.do(Recruit(warband="Reiklanders", name="Hans", points=50, archetype="Intellectual"))

    def orcs(self) -> None:
        """Da Boyz (Orcs & Goblins): Boyz 10 x 6 = 60, Grubnash (Psychopath) 60 -> 120 points."""
        self.do(Enlist(name="Da Boyz", player="Bob", type="Orcs & Goblins"))
        self.do(Recruit(warband="Da Boyz", name="Boyz", points=6, models=10))
        self.do(Recruit(warband="Da Boyz", name="Grubnash", points=60, archetype="Psychopath"))

    def battle(self, *, winner: str | None = "Reiklanders", **casualties: Any) -> list[ev.Event]:
        return self.do(RecordWarbandsBattle(participants=["Reiklanders", "Da Boyz"], winner=winner, **casualties))

    def post_game(self, warband: str, *, recovered: Mapping[str, int] | None = None,
                  outcomes: Mapping[str, str] | None = None, xp: int = 0,
                  recovery_dice: Sequence[int] = (), injury_dice: Sequence[int] = ()) -> None:
        self.do(Recovery(warband=warband, recovered=dict(recovered or {})), recovery_dice)
        self.do(Injuries(warband=warband, outcomes=dict(outcomes or {})), injury_dice)
        self.do(Survival(warband=warband))
        self.do(Experience(warband=warband, xp=xp))

    def quiet_battle(self, *, xp: int = 0, **casualties: Any) -> None:
        """A battle and both warbands' post-game, Reiklanders' casualties as given, none recovering."""
        self.battle(**casualties)
        self.post_game("Reiklanders", xp=xp,
                       recovered={unit: 0 for unit in {**casualties.get("removed", {}), **casualties.get("fled", {})}},
                       outcomes={c: "recovered" for c in casualties.get("down", [])})
        self.post_game("Da Boyz")

    def rating(self, warband: str = "reiklanders") -> int:
        return model.rating(self.state, warband)

    def xp(self, warband: str = "reiklanders") -> int:
        return self.state.warbands[warband].treasury

    def unit(self, name: str) -> rules.Unit:
        state = self.state
        return model.as_unit(state, state.fighter(name))

    def character(self, name: str) -> rules.Character:
        state = self.state
        return model.as_character(state, state.fighter(name))


def tags(events: Sequence[ev.Event]) -> list[str]:
    return [ev.tag_of(e) for e in events]


@pytest.fixture
def table() -> Table:
    t = Table()
    t.empire()
    t.orcs()
    return t


@pytest.fixture
def house_rules():
    return Table


@pytest.fixture
def cli(tmp_path) -> CampaignRunner:
    return CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
