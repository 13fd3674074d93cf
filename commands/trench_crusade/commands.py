"""Trench Crusade's commands: what a player asks the ledger to do, one Struct each (the handlers are
in `handlers`; the tags are recorded in every campaign, so they never change)."""

from __future__ import annotations

import msgspec

from ledger import events as ev
from ledger.decide import Command

from .events import DUCATS

class Recruit(Command, frozen=True, kw_only=True, tag="trench-crusade.recruit"):
    warband: str
    name: str
    model: str  # the Faction List entry, e.g. "Trench Pilgrim"
    elite: bool = False
    keywords: list[str] = []
    equipment: list[str] = []
    cost: int = 0
    paid: bool = True


class RecordTrenchBattle(Command, frozen=True, kw_only=True, tag="trench-crusade.battle"):
    participants: list[str]
    scenario: str  # id or name of a scenario of the glorious-deeds table
    winner: str | None = None
    deeds: list[ev.Deed] = []  # every model of the Force, with its Glorious Deeds (ids or names)
    warband_deeds: dict[str, list[str]] = {}  # warband -> Glorious Deeds done with no doer
    attacker: str | None = None  # for scenarios whose deeds belong to one side


class Trauma(Command, frozen=True, kw_only=True, tag="trench-crusade.trauma"):
    warband: str


class Ransom(Command, frozen=True, kw_only=True, tag="trench-crusade.ransom"):
    warband: str
    fighter: str
    paid: int | None = None  # ducats paid; None: the ransom was not paid
    to: str | None = None  # the captor; needed only when several warbands fought


class Promotions(Command, frozen=True, kw_only=True, tag="trench-crusade.promotions"):
    warband: str
    assign: dict[str, int] = {}  # model -> Promotion Dice
    even: bool = False  # deal the pool evenly instead, in roster order
    order: list[str] = []  # one model per die, or each model once (all its dice together)
    extra: dict[str, int] = {}  # promotion-dice-sources row -> dice it adds


class Experience(Command, frozen=True, kw_only=True, tag="trench-crusade.experience"):
    warband: str
    leader: str | None = None  # the ELITE LEADER gaining a warband-level deed's XP

    answer_keys = ("leader",)  # asked when two ELITE LEADERs could gain a warband deed's XP


class AdvanceRoll(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    fighter: str
    tables: list[str]  # the two skill tables rolled on
    keep: str | None = None  # the table whose result is kept; asked after rolling if not given


class Advancement(Command, frozen=True, kw_only=True, tag="trench-crusade.advancement"):
    warband: str
    rolls: list[AdvanceRoll]

    answer_keys = ("keep-N",)  # the N-th roll's kept table, asked once its two results are rolled


class Reinforcements(Command, frozen=True, kw_only=True, tag="trench-crusade.reinforcements"):
    warband: str


class Retire(Command, frozen=True, kw_only=True, tag="trench-crusade.retire"):
    warband: str
    fighter: str


class BuyKit(Command, frozen=True, kw_only=True, tag="trench-crusade.buy"):
    warband: str
    item: str
    price: int  # as the faction Armoury or Glory Item table prices it
    currency: str = DUCATS  # or tce.GLORY_POINTS
    glory_item: bool = False  # a Glory Item: bought with Glory only
    elite_only: bool = False  # may sit in the Arsenal, but only an ELITE may be given it


class SellKit(Command, frozen=True, kw_only=True, tag="trench-crusade.sell"):
    warband: str
    item: str
    fighter: str | None = None  # the model carrying it; None: from the Arsenal
    price: int | None = None  # the price paid, for an item bought before the ledger knew prices
    currency: str | None = None  # the currency it was paid in, with `price` (default ducats)


class Allocate(Command, frozen=True, kw_only=True, tag="trench-crusade.allocate"):
    warband: str
    item: str
    fighter: str
    to_arsenal: bool = False  # False: from the Arsenal to the model; True: back to the Arsenal


class Quartermaster(Command, frozen=True, kw_only=True, tag="trench-crusade.quartermaster"):
    warband: str


class Roster(Command, frozen=True, kw_only=True, tag="trench-crusade.roster"):
    warband: str


class Exploration(Command, frozen=True, kw_only=True, tag="trench-crusade.exploration"):
    warband: str
    table: str | None = None  # chosen before rolling when the stage offers two
    skills: list[str] = []  # Exploration Skills the warband uses (ids of the exploration table)
    modifier: int = 0  # Allies, Equipment…: added to the Exploration Roll
    rerolls: list[int] | None = None  # dice (from 1) re-rolled; None: asked after rolling

    answer_keys = ("table", "reroll-N")  # the table when the stage offers two; the N-th re-roll, once the dice are seen


# --- tables and options ----------------------------------------------------------------------
