"""A ruleset's own facts, typed, and the one way they are folded.

The core state (`ledger.state.CampaignState`) keeps what every game shares: warbands, fighters,
battles with who fought, deeds and casualties, XP, injuries, items. A ruleset keeps what only
its game has in one msgspec Struct of its own (`RulesetFacts`), held in the campaign state's
`ext` under the ruleset's id, so snapshots carry it. `Facts.of(state)` gives it typed (decoding
it once after a snapshot or a copy), and `Folds` is the fold: a table from each of the ruleset's
event types to the function `(facts, event, state)` that applies it, registered with `@FOLDS.on(EventType)`.
What the read models and the report show of a warband's or fighter's facts (its `ext`, which the
ruleset's `Terms` name) is the facts' `shown(holder)`, handed to the core as `Ruleset(shown_ext=FACTS.shown_ext)`.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

import msgspec

from ledger import events as ev
from ledger.state import CampaignState, Fighter, Warband

F = TypeVar("F", bound="RulesetFacts")
E = TypeVar("E", bound=ev.Event)


class RulesetFacts(msgspec.Struct, kw_only=True):
    """Base of a ruleset's facts: fields with defaults, mutable (folds update them in place)."""

    def shown(self, holder: Warband | Fighter) -> Mapping[str, Any]:
        """The warband's or fighter's facts as people see them (read models, report): none unless declared."""
        return {}


class Facts(Generic[F]):
    """Where a ruleset's facts live in the campaign state, and their type."""

    def __init__(self, key: str, facts_type: type[F]) -> None:
        self.key = key
        self.facts_type = facts_type
        self.decoder = msgspec.json.Decoder(facts_type)

    def of(self, state: CampaignState) -> F:
        held = state.ext.get(self.key)
        if not isinstance(held, self.facts_type):
            # A snapshot or a copy holds them as their JSON (CampaignState.ext): typed once, in place.
            held = self.facts_type() if held is None else self.decoder.decode(held)
            state.ext[self.key] = held  # type: ignore[assignment]  # the facts, where their JSON was
        return held

    def shown_ext(self, state: CampaignState, holder: Warband | Fighter) -> dict[str, Any]:
        """The `Ruleset.shown_ext` hook: what the holder still keeps in its `ext`, and its typed facts."""
        return {**holder.ext, **self.of(state).shown(holder)}


# (the ruleset's facts, the event, the whole campaign state) -> None: updates them in place
Fold = Callable[[Any, Any, CampaignState], None]


class Folds(Generic[F]):
    """A ruleset's `evolve`: each of its event types applied by one registered function, handed the
    ruleset's typed facts (None for a ruleset that keeps none), the event and the campaign state."""

    def __init__(self, facts: Facts[F] | None = None) -> None:
        self.facts = facts
        self.table: dict[type[ev.Event], Fold] = {}

    def on(self, event_type: type[E]) -> Callable[[Callable[[F, E, CampaignState], None]], Callable[[F, E, CampaignState], None]]:
        def register(fold: Callable[[F, E, CampaignState], None]) -> Callable[[F, E, CampaignState], None]:
            if event_type in self.table:
                raise ValueError(f"{event_type.__name__} is folded twice")
            self.table[event_type] = fold
            return fold

        return register

    def evolve(self, state: CampaignState, event: ev.Event) -> None:
        """The `Ruleset.evolve` hook: the core calls it for every event it does not fold itself."""
        fold = self.table.get(type(event))
        if fold is not None:
            fold(self.facts.of(state) if self.facts is not None else None, event, state)


def injuries_held(fighter: Fighter, passing: Mapping[str, int]) -> list[str]:
    """The injuries a fighter has now (`Ruleset.injuries_now`), where those `passing` (by name: the games each makes
    him miss) do nothing more than that: once he has missed its games an injury is healed and no roster lists it
    (a Speedheim Light Wound, a Trench Crusade Minor Wound: "misses the next game"). The games are missed in turn, so
    the earliest are healed first: he still has those whose games he has still to miss. Any other injury lasts."""
    missed = sum(passing.get(injury, 0) for injury in fighter.injuries) - fighter.missed_games
    held = []
    for injury in fighter.injuries:
        games = passing.get(injury, 0)
        if games and missed >= games:
            missed -= games
        else:
            held.append(injury)
    return held
