"""Coreheim's commands: what a player asks the ledger to do, one Struct each (the handlers are in
`handlers`; the tags are recorded in every campaign, so they never change)."""

from __future__ import annotations

import msgspec

from ledger.decide import Command


class Hire(Command, frozen=True, kw_only=True, tag="coreheim.hire"):
    """Hire a hero or henchman type of the warband list (cost, starting XP, race and profile from
    the list; `stats` and `race` replace the list's), a Hired Sword (by id: fee from the table),
    or a henchman group, animal or monster the list does not print (`cost` per member and the
    whole profile from the player). `free` for warriors an exploration result gives."""

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

    # Asked depending on the dice: which six count, which multiple, who a result picks, and a
    # multiple's own questions (`multiples:1x2:search`, `multiples:6x3:slot`: the table's ids).
    answer_keys = ("keep", "multiple", "hero", "map-holder", "warrior", "multiples:MULTIPLE:QUESTION")


class Injuries(Command, frozen=True, kw_only=True, tag="coreheim.injuries"):
    warband: str

    answer_keys = ("GROUP:out", "HERO:pit-fight", "HERO:captor", "new-leader")  # the last three depend on the dice


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

    # Per warrior and threshold, depending on the dice (a promoted hero's own advance adds ":hero").
    answer_keys = ("FIGHTER:XP:stat", "FIGHTER:XP:skill", "FIGHTER:XP:group-reroll", "FIGHTER:XP:six-heroes",
                   "FIGHTER:XP:skill-lists")


class SellShards(Command, frozen=True, kw_only=True, tag="coreheim.sell-shards"):
    """Trading 1: sell wyrdstone shards (0 keeps them all)."""

    warband: str
    shards: int

    answer_keys = ("shards",)  # the guided post-game's question, once the exploration has found shards


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

    answer_keys = ("map-holder",)  # a Mordheim Map put in the stash: the hero whose fate its D6 decides


class Upkeep(Command, frozen=True, kw_only=True, tag="coreheim.upkeep"):
    warband: str

    answer_keys = ("SWORD:upkeep",)


class Reinforce(Command, frozen=True, kw_only=True, tag="coreheim.reinforce"):
    """Trading 7. `prices`: the base price of each item of a group being reinforced that the tables
    do not price (a recruit carries his group's gear, bought with him, from version 4)."""

    warband: str
    prices: dict[str, int] = {}

    added_later = ("prices",)

    answer_keys = ("reinforce", "GROUP:recruits")  # asked only when there is a henchman group to reinforce


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
