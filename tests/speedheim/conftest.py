"""A Speedheim campaign in memory, driven through the ledger command by command.

`table` gives a fresh campaign with a physical deck (each card named, as players draw them at the
table), so that draws are given like dice; `house_rules(options)` one with other options. Its
methods set up two warbands and return the events a command produced, or the refusal's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from commands.shared import EnlistWarband
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from ledger import events as ev
from ledger.decide import Command, TableDice
from ledger.errors import LedgerError
from ledger.testing import CampaignRunner, LedgerHarness

# Sellswords Captain and Infantry (shared/rules/speedheim.md §2).
CAPTAIN = {"Mov": 6, "Mel": 12, "Rgd": 12, "Def": 17, "Agi": 8, "Mrl": 7, "Atk": 1, "Wnd": 1, "Inj": 0, "Prc": 0}
INFANTRY = {"Mov": 6, "Mel": 14, "Rgd": 14, "Def": 18, "Agi": 10, "Mrl": 10, "Atk": 1, "Wnd": 1, "Inj": 0, "Prc": 0}


class Table(LedgerHarness):
    def __init__(self, options: dict[str, Any], *, version: str | None = None):
        super().__init__("speedheim", {"decks": "physical", **options}, version=version)

    def do(self, command: Command, dice: Sequence[int] = (), cards: Sequence[str] = ()) -> list[ev.Event]:
        outcome = self.ledger.execute(self.cid, command, actor=self.actor, dice=TableDice(list(dice), cards=list(cards)))
        return [record.event for record in outcome.records[1:]]

    def refusal(self, command: Command, dice: Sequence[int] = (), cards: Sequence[str] = ()) -> str:
        before = self.state.position
        try:
            self.do(command, dice, cards)
        except LedgerError as refused:
            message = str(refused)
        else:
            raise AssertionError(f"{type(command).__name__} was done, not refused")
        assert self.state.position == before, "a refusal writes nothing"
        return message

    def warbands(self) -> None:
        """Sellswords: Gunnar (leader, Melee and Defence skills), Hilde (hero), Ivo (henchman); Skaven:
        Skab (leader), Rikk (hero), Rat and Hound (henchmen, the Hound an Animal)."""
        self.do(EnlistWarband(name="Sellswords", player="Ann", treasury=500))
        self.do(h.Recruit(warband="Sellswords", name="Gunnar", role="leader", stats=CAPTAIN, keywords=["Leader"],
                          skill_types=["Melee", "Defence"], paid=False))
        self.do(h.Recruit(warband="Sellswords", name="Hilde", role="hero", stats=CAPTAIN, paid=False))
        self.do(h.Recruit(warband="Sellswords", name="Ivo", role="henchman", stats=INFANTRY, skill_types=["Defence"], paid=False))
        self.do(EnlistWarband(name="Skaven", player="Bob", treasury=500))
        self.do(h.Recruit(warband="Skaven", name="Skab", role="leader", stats=CAPTAIN, keywords=["Leader"], paid=False))
        self.do(h.Recruit(warband="Skaven", name="Rikk", role="hero", stats=CAPTAIN, paid=False))
        self.do(h.Recruit(warband="Skaven", name="Rat", role="henchman", stats=INFANTRY, paid=False))
        self.do(h.Recruit(warband="Skaven", name="Hound", role="henchman", stats=INFANTRY, keywords=["Animal"], paid=False))

    def incap(self, fighter: str, victim: str, dice: Sequence[int] = (), cards: Sequence[str] = (), **answers: str) -> list[ev.Event]:
        band = "Sellswords" if fighter in ("Gunnar", "Hilde", "Ivo") else "Skaven"
        return self.do(h.Incapacitate(warband=band, fighter=fighter, victim=victim, answers=answers), dice, cards)

    def battle(self, winner: str | None = "Sellswords", incaps: Sequence[tuple[str | None, str]] = (),
               dice: Sequence[int] = (), cards: Sequence[str] = ()) -> list[ev.Event]:
        return self.do(h.RecordSpeedheimBattle(participants=["Sellswords", "Skaven"], winner=winner,
                                               incapacitations=[h.Incap(fighter=f, victim=v) for f, v in incaps]),
                       dice, cards)

    def stat(self, fighter: str, stat: str) -> int:
        return self.state.fighter(fighter).stats[stat]


def of(events: list[ev.Event], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


POST_GAME = {"income": pg.Income, "promotions": pg.Promotions, "scars": pg.Scars, "improvement": pg.FreeAttempts,
             "spend-gold": pg.SpendGold}


@pytest.fixture
def table() -> Table:
    campaign = Table({})
    campaign.warbands()
    return campaign


@pytest.fixture
def house_rules():
    def make(options: dict[str, Any]) -> Table:
        campaign = Table(options)
        campaign.warbands()
        return campaign

    return make


@pytest.fixture
def campaign(tmp_path) -> CampaignRunner:
    """The real `campaign` command on a SQLite file, with a fixed clock and dice seed."""
    return CampaignRunner("sqlite:///" + str(tmp_path / "campaign.db"))
