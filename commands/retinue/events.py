"""Retinue's own event, and its typed fold.

Everything else is a shared fact: `xp.awarded` (its reason starts with the pass, E2), `xp.spent`
(paid before the advancement applies, S1), `stat.changed`, `skill.learned` (feats, and the spell
a Caster learns), `keyword.gained` (Caster), `fighter.died` (Slain), `fighter.captured`,
`injury.suffered` and `post-game.step-done`.

`retinue.outcome` exists because no shared event records the result of a Casualty or Doom Table
roll by name: the post-game pass reads it (Hardy +1, Miraculous +2, a Slain fighter nothing: E5,
E7), and most outcomes (Hardy, Miraculous, a recovery) have no other shared consequence.
"""

from __future__ import annotations

import msgspec

from commands.kit import Facts, Folds, RulesetFacts
from ledger import events as ev
from ledger.describe import fighter_name
from ledger.state import CampaignState
from ledger.text import possessive

from .rules import Outcome


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
        whose = possessive(fighter_name(state, self.fighter))
        return f"{whose} {self.table.capitalize()} Table: {self.result} — {self.outcome} ({source})"


class BattleOutcomes(msgspec.Struct, kw_only=True):
    battle: int
    outcomes: list[Outcome] = []


class RetinueFacts(RulesetFacts, kw_only=True):
    # warband id -> the Casualty and Doom outcomes of its latest battle
    outcomes: dict[str, BattleOutcomes] = {}


FACTS = Facts("retinue", RetinueFacts)
FOLDS = Folds(FACTS)


@FOLDS.on(OutcomeRolled)
def _outcome(facts: RetinueFacts, event: OutcomeRolled, state: CampaignState) -> None:
    kept = facts.outcomes.get(event.warband)
    if kept is None or kept.battle != event.battle:
        kept = facts.outcomes[event.warband] = BattleOutcomes(battle=event.battle)
    kept.outcomes.append(Outcome(fighter=event.fighter, table=event.table, outcome=event.outcome, kind=event.kind))  # type: ignore[arg-type]


def outcomes_of(state: CampaignState, warband: str, battle: int) -> list[Outcome]:
    kept = FACTS.of(state).outcomes.get(warband)
    return list(kept.outcomes) if kept is not None and kept.battle == battle else []
