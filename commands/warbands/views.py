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


def ratings_of(state: CampaignState, records: Sequence[Record]) -> list[dict[str, Any]]:
    """Each warband's WBR at the start and after each battle it fought, by the battle's number in the
    campaign (`ratings --json`): `{"warband": ID, "start": WBR, "by_battle": {"1": WBR, "3": WBR}}`.
    After a battle is its rating just before its next one, post-game and purchases included (the
    latest is its rating now); a warband enlisted later, or one that sat a battle out, has no value
    for a battle it did not fight. Read from the rm_ratings rows of the campaign."""
    _final, rows = all_rows(records)
    latest: dict[str, dict[int, int]] = {band: {} for band in state.warbands}
    for values in rows[RATINGS.name]:
        row = dict(zip(RATINGS.column_names, values))
        latest[row["warband"]][row["games"]] = row["rating"]
    fought: dict[str, list[int]] = {}
    for battle in standing_battles(records):
        for band in battle.participants:
            fought.setdefault(band, []).append(battle.number)
    ratings = []
    for band, by_games in latest.items():
        series: list[int] = []
        for games in range(state.warbands[band].games + 1):
            series.append(by_games.get(games, series[-1] if series else 0))
        ratings.append({"warband": band, "start": series[0],
                        "by_battle": {str(number): wbr for number, wbr in zip(fought.get(band, []), series[1:])}})
    return ratings
