"""How a ruleset names things for people: its rating, its money, its own resources, its stats.

The report, the roster sheets and the Markdown chronicle read these instead of knowing rulesets
by id, so a new ruleset shows its own words by declaring them (and gets plain ones if it does not).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec


class Terms(msgspec.Struct, frozen=True):
    rating: str = "Rating"  # the warband rating's name, e.g. "Warband rating", "WBR"
    treasury: str = "Treasury"  # what the treasury holds, e.g. "Gold crowns", "Ducats"
    # What the log's and the roster's lines call the treasury: "XP pool" where it holds experience (Warbands' R25).
    treasury_word: str = "treasury"
    # The warband's own resources: key of its read-model `ext` -> label, e.g. {"glory": "Glory"}.
    # None (not declared) shows every whole-number fact of `ext`, named after its key.
    resources: Mapping[str, str] | None = None
    # Fighter facts worth a line on a roster card: key of the fighter's `ext` -> label.
    fighter_facts: Mapping[str, str] = msgspec.field(default_factory=dict)
    # Those of the fighter facts that count something: a count of none is not shown, as one never counted.
    counts: tuple[str, ...] = ()
    # Those of the fighter facts that hold ids of rows of the campaign's tables: key -> the kind of row
    # (`Ruleset.row_names`), so that a card shows "Ogre Bodyguard" where the facts keep "ogre-bodyguard".
    named_facts: Mapping[str, str] = msgspec.field(default_factory=dict)
    # Characteristics in the order the game's profiles print them; others follow alphabetically.
    stat_order: tuple[str, ...] = ()

    def resources_of(self, ext: Mapping[str, Any]) -> list[tuple[str, int]]:
        """(label, amount) of each resource the warband's `ext` holds."""
        return [(label, amount) for _key, label, amount in self.resources_in(ext)]

    def resources_in(self, ext: Mapping[str, Any]) -> list[tuple[str, str, int]]:
        """(key, label, amount) of each resource the warband's `ext` holds: declared ones, 0 when not kept yet."""
        if self.resources is None:
            return [
                (key, humanize(key), value)
                for key, value in sorted(ext.items())
                if isinstance(value, int) and not isinstance(value, bool)
            ]
        return [(key, label, ext.get(key, 0)) for key, label in self.resources.items()]

    def facts_of(self, ext: Mapping[str, Any], names: Mapping[str, Mapping[str, str]] | None = None) -> list[tuple[str, str]]:
        """(label, text) of each declared fighter fact present in its `ext`; a `named_facts` one under the
        names `names` (`Ruleset.row_names`) gives its rows, an id they do not know as kept."""

        def text(key: str, value: Any) -> str:
            own = (names or {}).get(self.named_facts.get(key, ""), {})
            return ", ".join(own.get(str(v), str(v)) for v in (value if isinstance(value, list) else [value]))

        return [
            (label, text(key, value))
            for key, label in self.fighter_facts.items()
            if (value := ext.get(key)) not in (None, "", []) and not (key in self.counts and value == 0)
        ]

    def profile(self, stats: Mapping[str, int]) -> list[tuple[str, str]]:
        """A fighter's profile as people read it: every characteristic the game prints, "-" for one he
        lacks (an Ogre's BS), in `ordered_stats`' order; nothing for a fighter with no profile."""
        if not stats:
            return []
        lacking = [(name, "-") for name in self.stat_order if name not in stats]
        shown = [(name, str(value)) for name, value in self.ordered_stats(stats)] + lacking
        order = {name: place for place, name in enumerate(self.stat_order)}
        return sorted(shown, key=lambda item: order.get(item[0], len(order)))

    def ordered_stats(self, stats: Mapping[str, int]) -> list[tuple[str, int]]:
        known = [(name, stats[name]) for name in self.stat_order if name in stats]
        rest = sorted((name, value) for name, value in stats.items() if name not in self.stat_order)
        return known + rest


def humanize(key: str) -> str:
    """`promotion_streak` -> `Promotion streak`."""
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]
