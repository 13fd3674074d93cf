"""Coreheim's commands: what a player asks the ledger to do, one Struct each (the handlers are in
`handlers`; the tags are recorded in every campaign, so they never change)."""

from __future__ import annotations

import msgspec

from ledger.decide import Command


class Hire(Command, frozen=True, kw_only=True, tag="coreheim.hire"):
    """Hire a hero (a hero type of the warband list: cost and starting XP from the list), a
    Hired Sword (by id: fee from the table), or a henchman group, animal or monster (`cost` per
    member, from the player's list). `free` for warriors an exploration result gives."""

    warband: str
    name: str
    type: str
    race: str = ""
    stats: dict[str, int] = {}
    cost: int | None = None
    group_size: int = 1
    free: bool = False


class Explore(Command, frozen=True, kw_only=True, tag="coreheim.explore"):
    warband: str
    extra_dice: int = 0  # scenario or Hired Sword dice beyond one per hero and the win
    discard: int = 0  # dice to drop before keeping (e.g. Bionic Eye)

    answer_keys = ("keep",)  # asked only when more than six dice are rolled


class Injuries(Command, frozen=True, kw_only=True, tag="coreheim.injuries"):
    warband: str


class Experience(Command, frozen=True, kw_only=True, tag="coreheim.experience"):
    warband: str
    scenario_xp: dict[str, int] = {}  # warrior -> XP the scenario gives
    henchman_deeds: list[str] = []  # groups that took out an enemy hero (only with henchman_deed_xp)


class Advance(Command, frozen=True, kw_only=True, tag="coreheim.advance"):
    """Roll the advances reached: every warrior's, one warrior's, or one threshold of one warrior."""

    warband: str
    fighter: str | None = None
    threshold: int | None = None
    names: dict[str, str] = {}  # henchman group -> name of the member Talent! promotes


class SellShards(Command, frozen=True, kw_only=True, tag="coreheim.sell-shards"):
    """Trading 1: sell wyrdstone shards (0 keeps them all)."""

    warband: str
    shards: int


class RareSearch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    hero: str
    item: str
    rarity: int | None = None  # for items the tables give no rarity


class Search(Command, frozen=True, kw_only=True, tag="coreheim.search"):
    warband: str
    searches: list[RareSearch] = []


class Sell(Command, frozen=True, kw_only=True, tag="coreheim.sell"):
    """Trading 2: sell an item for half its base price, rounded down."""

    warband: str
    item: str
    fighter: str | None = None  # None: from the stash
    price: int | None = None  # the base price, for items the tables do not price


class Buy(Command, frozen=True, kw_only=True, tag="coreheim.buy"):
    warband: str
    item: str
    fighter: str | None = None  # None: into the stash; a henchman group buys one for each member
    price: int | None = None


class Upkeep(Command, frozen=True, kw_only=True, tag="coreheim.upkeep"):
    warband: str


class Reinforce(Command, frozen=True, kw_only=True, tag="coreheim.reinforce"):
    warband: str

    answer_keys = ("reinforce",)  # asked only when there is a henchman group to reinforce


class UnderdogSword(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Hired Sword one underdog point brings to the battle, and what he did in it."""

    name: str
    type: str  # a Hired Sword id (ogre-bodyguard…)
    race: str = ""
    stats: dict[str, int] = {}
    out_of_action: bool = False
    took_out: list[str] = []  # enemies he took out of action


class SpendUnderdog(Command, frozen=True, kw_only=True, tag="coreheim.underdog"):
    warband: str
    xp: dict[str, int] = {}  # warrior -> XP bought with underdog points
    sword: UnderdogSword | None = None  # bought with one point
