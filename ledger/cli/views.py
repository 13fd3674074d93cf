"""Plain-text and JSON views shared by several commands."""

from __future__ import annotations

from typing import Any

import click

from ledger import rulesets
from ledger.describe import plural, role_words
from ledger.state import Battle, CampaignState
from ledger.text import shown
from projections.roster import campaign_row, fighter_rows, warband_row


def campaign_summary(state: CampaignState, battles: list[Battle] | None = None) -> dict[str, Any]:
    """The campaign's row; given its standing battles (`show`, `replay`), its warbands and battles too."""
    summary = campaign_row(state)
    if battles is not None:
        summary["warbands"] = [warband_row(state, w) for w in state.warbands]
        summary["battles"] = [
            {"battle": b.number, "participants": b.participants, "winner": b.winner, "scenario": b.scenario, "tx": b.tx}
            for b in battles
        ]
    return summary


def resources_held(row: dict[str, Any]) -> list[str]:
    """"wyrdstone shards 3": each resource of a warband row, worded like its treasury."""
    return [f"{shown(held['label'][:1].lower() + held['label'][1:])} {held['amount']}" for held in row["resources"]]


def print_campaign(state: CampaignState, battles: list[Battle]) -> None:
    click.echo(f"{shown(state.name)} — {state.ruleset} v{state.ruleset_version}")
    click.echo(f"{plural(state.position, 'event')} in {plural(state.transactions, 'transaction')}"
               f"{', ' + str(len(state.voided)) + ' voided' if state.voided else ''}; head {state.head}")
    for warband in state.warbands:
        row = warband_row(state, warband)
        rating = f", rating {row['rating']}" if row["rating"] is not None else ""
        click.echo(f"  {shown(row['name'])} ({shown(row['player'])}): {plural(row['fighters'], 'fighter')}, {rulesets.treasury_word(state)} {row['treasury']}, "
                   f"{''.join(held + ', ' for held in resources_held(row))}{plural(row['games'], 'game')}, "
                   f"{plural(row['wins'], 'win')}{rating}")
    for battle in battles:
        names = " vs ".join(shown(state.warbands[w].name) for w in battle.participants if w in state.warbands)
        winner = shown(state.warbands[battle.winner].name) if battle.winner in state.warbands else "draw"
        click.echo(f"  battle {battle.number}: {names} — {winner}")


def print_roster(state: CampaignState, warband: str) -> None:
    """The warband's roster, naming its faction, items and facts as its roster card does (`--json` keeps the ids)."""
    row = warband_row(state, warband)
    names = rulesets.row_names_of(state)
    rating = f"  rating {row['rating']}" if row["rating"] is not None else ""
    faction = rulesets.name_in(names, "faction", row["faction"])
    click.echo(f"{shown(row['name'])} ({shown(row['player'])}{', ' + shown(faction) if faction else ''})"
               f"  {rulesets.treasury_word(state)} {row['treasury']}{''.join('  ' + held for held in resources_held(row))}{rating}"
               f"  games {row['games']}  wins {row['wins']}")
    if row["stash"]:
        click.echo(f"  stash: {', '.join(shown(rulesets.name_in(names, 'item', item)) for item in row['stash'])}")
    terms = rulesets.get(state.ruleset).terms
    for f in fighter_rows(state, warband):
        size = f" x{f['group_size']}" if f["group_size"] > 1 else ""
        status = "" if f["status"] == "active" else f" [{f['status']}]"
        stats = " ".join(f"{k}{v}" if v != "-" else f"{k} -" for k, v in terms.profile(f["stats"]))
        missing = f"  misses {plural(f['missed_games'], 'game')}" if f["missed_games"] else ""
        click.echo(f"  {shown(f['name'])}{size} — {role_words(f['role'])}{status}  XP {f['xp']}  {stats}".rstrip() + missing)
        for label in ("keywords", "skills", "injuries", "equipment"):
            if f[label]:
                held = f[label] if label != "equipment" else [rulesets.name_in(names, "item", item) for item in f[label]]
                click.echo(f"      {label}: {', '.join(shown(text) for text in held)}")
        for label, text in terms.facts_of(f["ext"], names):  # what the ruleset keeps of him, as its roster cards show it
            click.echo(f"      {label[:1].lower() + label[1:]}: {shown(text)}")
