"""Retinue's own event, and its fold.

Everything else is a shared fact: `xp.awarded` (its reason starts with the pass, E2), `xp.spent`
(paid before the advancement applies, S1), `stat.changed`, `skill.learned` (feats, and the spell
a Caster learns), `keyword.gained` (Caster), `fighter.died` (Slain), `fighter.captured`,
`injury.suffered` and `post-game.step-done`.

`retinue.outcome` exists because no shared event records the result of a Casualty or Doom Table
roll by name: the post-game pass reads it (Hardy +1, Miraculous +2, a Slain fighter nothing: E5,
E7), and most outcomes (Hardy, Miraculous, a recovery) have no other shared consequence.
"""

from __future__ import annotations

from typing import Any

from ledger import events as ev
from ledger.describe import fighter_name
from ledger.state import CampaignState

# Warband ext: the Casualty and Doom outcomes of its latest battle, {"battle": n, "results": [...]}.
OUTCOMES = "retinue_outcomes"


@ev.event_type
class OutcomeRolled(ev.Event, frozen=True, kw_only=True, tag="retinue.outcome"):
    warband: str
    fighter: str
    battle: int
    table: str  # casualty or doom
    roll: int  # the roll number whose value was read
    result: int
    outcome: str  # the outcome's name, e.g. Hardy
    kind: str  # what the ledger does with it: slain, captured, hardy, miraculous, injury, none
    row: str = ""  # the data table row read ("casualty 6"); empty when the outcome was named (A3)

    def describe(self, state: CampaignState) -> str:
        source = f"row {self.row}" if self.row else "named by the player"
        return f"{fighter_name(state, self.fighter)}'s {self.table.capitalize()} Table: {self.result} — {self.outcome} ({source})"


def outcomes_of(state: CampaignState, warband: str, battle: int) -> list[dict[str, Any]]:
    kept = state.warbands[warband].ext.get(OUTCOMES)
    return list(kept["results"]) if kept and kept["battle"] == battle else []


def evolve(state: CampaignState, event: ev.Event) -> None:
    """Fold this ruleset's event; like the shared fold it ignores an unknown warband."""
    if isinstance(event, OutcomeRolled) and (band := state.warbands.get(event.warband)):
        kept = band.ext.get(OUTCOMES)
        if not kept or kept["battle"] != event.battle:
            kept = band.ext[OUTCOMES] = {"battle": event.battle, "results": []}
        kept["results"].append({"fighter": event.fighter, "table": event.table, "outcome": event.outcome, "kind": event.kind})
