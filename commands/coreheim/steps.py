"""The guided post-game sequence (`campaign post-game WARBAND`): one Step per once-a-battle step,
each `done` from the events alone, so the walk resumes where it stopped.

The trading actions that take free input (sell or buy an item at a price, hire a warrior with
his profile) are not steps: they are done with their own commands in their place in the
trading order (see `handlers`); each step's title says what may be done before it, and at a
terminal the walk offers to stop before that step so the player can do it.
"""

from __future__ import annotations

from collections.abc import Sequence

from commands.coreheim import events as ce
from commands.coreheim import handlers as h
from commands.coreheim import model as m
from ledger.decide import AskChoice, Command
from ledger.rulesets import Step
from ledger.state import CampaignState

NOTHING = "nothing"


def _done(key: str):
    def done(state: CampaignState, warband: str) -> bool:
        return m.step_done(state, state.warbands[warband], key)

    return done


def _sell_shards(state: CampaignState, warband: str, ask: AskChoice) -> Command:
    band = state.warbands[warband]
    tables = m.tables_for(state.options)
    most = min(band.ext.get(ce.SHARDS, 0), max(row.shards for row in tables.wyrdstone_sale.rows))
    shards = int(ask(f"{band.name} holds {band.ext.get(ce.SHARDS, 0)} shards: how many to sell?",
                     [str(n) for n in range(most + 1)])) if most else 0
    return h.SellShards(warband=warband, shards=shards)


def _search(state: CampaignState, warband: str, ask: AskChoice) -> Command:
    """Each hero not taken out of action may look for an item whose rarity the tables give."""
    band = state.warbands[warband]
    tables = m.tables_for(state.options)
    battle = m.latest_battle(state, band)
    rare = [item.id for item in tables.equipment.items if item.rarity is not None]
    searches = []
    for hero in m.heroes(state, band):
        if battle is not None and m.was_out_of_action(band, battle, hero):
            continue
        wanted = ask(f"Which rare item does {hero.name} look for?", [NOTHING, *rare])
        if wanted != NOTHING:
            searches.append(h.RareSearch(hero=hero.name, item=wanted))
    return h.Search(warband=warband, searches=searches)


def _plain(command: type[Command]):
    def build(state: CampaignState, warband: str, ask: AskChoice) -> Command:
        return command(warband=warband)

    return build


STEP_BUILDS = {
    "explore": ("Exploration: a D6 per hero, +1 for a win; keep six, find shards and multiples", _plain(h.Explore)),
    "injuries": ("Injuries: first a D12 per henchman, mount or Hired Sword out of action, then a D66 per hero", _plain(h.Injuries)),
    "experience": ("Experience: +1 for surviving, +1 per enemy a hero took out, +1 to a winning leader",
                   _plain(h.Experience)),
    "advances": ("Advances: one roll per threshold reached (D12), maximums respected, Talent!", _plain(h.Advance)),
    "sell-shards": ("Trading 1: sell wyrdstone shards", _sell_shards),
    "search": ("Trading 3: heroes not taken out of action look for rare items (sell equipment first with "
               "`campaign coreheim sell`)", _search),
    "upkeep": ("Trading 5: Hired Sword upkeep (buy equipment first with `campaign coreheim buy`)", _plain(h.Upkeep)),
    "reinforce": ("Trading 7: reinforce henchman groups (hire first with `campaign coreheim hire`)", _plain(h.Reinforce)),
}

# The trading actions of free input that come before a step: once the step is done their window is
# closed, so at a terminal the walk offers to stop here for them.
BEFORE = {
    "search": "anything to sell first (trading 2, `campaign coreheim sell`)?",
    "upkeep": "anything to buy first (trading 4, `campaign coreheim buy`)?",
    "reinforce": "anyone to hire first (trading 6, `campaign coreheim hire`)?",
}


def post_game(state: CampaignState, warband: str) -> Sequence[Step]:
    return [Step(key=key, title=title, done=_done(key), build=build, before=BEFORE.get(key, ""))
            for key, (title, build) in STEP_BUILDS.items()]
