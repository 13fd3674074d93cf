"""What `campaign warbands status` and `ratings` show, read from the state and the records (the CLI
only prints it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.fold import standing_battles
from ledger.records import Record
from ledger.state import CampaignState
from projections.tables import RATINGS, all_rows

from . import model as m
from .handlers import PHASE


def status_of(state: CampaignState, warband: str) -> dict[str, Any]:
    band = state.warband(warband)
    return {
        "warband": band.id, "name": band.name, "type": band.faction, "points": m.points(state, band.id),
        "xp": band.treasury, "wbr": m.rating(state, band.id),
        "wbr_lines": [{"what": line.what, "points": line.points} for line in m.rating_lines(state, band.id)],
        "post_game_next": PHASE.next_step(state, band),
        "units": [{"name": f.name, "models": f.group_size, "points_per_model": f.cost, "veteran": m.veteran_level(f),
                   "eligible": m.as_unit(state, f).eligible} for f in m.units_of(state, band.id)],
        "characters": [{"name": f.name, "points": f.cost, "archetype": c.archetype, "starting_ability": c.starting_ability,
                        "abilities": list(c.abilities), "survived_since_ability": c.survived_since_ability}
                       for f in m.characters_of(state, band.id) for c in [m.as_character(state, f)]],
    }


def battles_of_each(records: Sequence[Record]) -> dict[str, list[int]]:
    """Each warband's battles (their numbers in the campaign), in the order fought: what the
    n-th value after the start of its `wbr_series` follows."""
    numbers: dict[str, list[int]] = {}
    for battle in standing_battles(records):
        for band in battle.participants:
            numbers.setdefault(band, []).append(battle.number)
    return numbers


def wbr_series(state: CampaignState, records: Sequence[Record]) -> dict[str, list[int]]:
    """Each warband's WBR at the start and after each of its battles (its rating just before the
    next battle, post-game and purchases included), from the rm_ratings rows of the campaign."""
    _final, rows = all_rows(records)
    latest: dict[str, dict[int, int]] = {band: {} for band in state.warbands}
    for values in rows[RATINGS.name]:
        row = dict(zip(RATINGS.column_names, values))
        latest[row["warband"]][row["games"]] = row["rating"]
    series: dict[str, list[int]] = {}
    for band, by_games in latest.items():
        series[band] = []
        for games in range(state.warbands[band].games + 1):
            series[band].append(by_games.get(games, series[band][-1] if series[band] else 0))
    return series
