"""What a battle's fighters (and warbands) did, a sentence each: the report's battles and the CLI's
`campaign history` say them alike, from rm_battles rows or the same dicts made from the events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ledger import events as ev
from ledger import rulesets
from ledger.records import Record
from ledger.state import CampaignState


def full_stop(text: str) -> str:
    """`text` ending as a sentence does: "Into the Trenches!" keeps its own mark rather than gaining a full stop."""
    return text if text[-1] in ".!?…" else text + "."


@dataclass(frozen=True)
class BattleWords:
    """How the chronicle words what a battle recorded by a table row's id (a glorious deed, its
    scenario): under the name the campaign's tables give it (the ruleset's `row_names`), or as recorded
    when they do not know it (a freeform deed or scenario, typed as people said it; an id a house-rule
    table dropped). And the deeds a warband did with no doer (the ruleset's `warband_deeds`), which the
    rm_battles rows do not hold: they are read from the events of the battle's transaction, so the
    stored rows stay what a rebuild makes."""

    names: Mapping[str, Mapping[str, str]]  # kind ("deed", "scenario") -> id -> name
    by_warbands: Mapping[int, list[tuple[str, str]]] = field(default_factory=dict)  # tx -> (warband id, deed id)

    @classmethod
    def of(cls, ruleset: rulesets.Ruleset, state: CampaignState, records: Sequence[Record]) -> BattleWords:
        names = rulesets.row_names_of(state)
        by_warbands: dict[int, list[tuple[str, str]]] = {}
        if ruleset.warband_deeds is not None:
            for record in records:
                if done := ruleset.warband_deeds(record.event):
                    by_warbands.setdefault(record.tx, []).extend(done)
        return cls(names, by_warbands)

    def named(self, kind: str, recorded: str) -> str:
        return rulesets.name_in(self.names, kind, recorded)

    def deed_line(self, who: str, deed: str) -> str:
        return full_stop(f"{who}: glorious deed {self.named('deed', deed)}")


def fighter_lines(deed: Mapping[str, Any], names: Mapping[str, str], words: BattleWords,
                  taken_by_someone: Collection[str] = ()) -> list[str]:
    """What one fighter did in the battle, a sentence each; that he was taken out of action only where no
    one's deed (`taken_by_someone`) says who took him out."""
    who = names.get(deed["fighter"], deed["fighter"])
    lines = []
    if deed["took_out"]:
        # A name twice is two of a group (two members of a henchman unit): "Fang ×2", not "Fang, Fang".
        taken = Counter(deed["took_out"])
        lines.append(f"{who} took out {', '.join(names.get(t, t) + (f' ×{n}' if n > 1 else '') for t, n in taken.items())}.")
    if deed["out_of_action"] and deed["fighter"] not in taken_by_someone:
        lines.append(f"{who} was taken out of action.")
    lines += [words.deed_line(who, glorious) for glorious in deed.get("glorious_deeds", [])]
    if deed.get("notes"):
        lines.append(f"{who}: {deed['notes']}")
    return lines


def battle_deed_lines(battle: Mapping[str, Any], names: Mapping[str, str], words: BattleWords,
                      owners: Mapping[str, str], about: str | None = None) -> list[str]:
    """A battle's deeds (an rm_battles row, or `battle_row`'s), each warband's lines together in the
    participants' order: its fighters' deeds, then its own deeds with no doer; a fighter of no
    participant (`owners` does not place it) comes after them. `about` (a fighter's id): only what he
    did and what was done to him."""
    lines_of: dict[str | None, list[str]] = {warband: [] for warband in battle["participants"]}
    taken_by_someone = {taken for deed in battle["deeds"] for taken in deed["took_out"]}
    for deed in battle["deeds"]:
        if about is not None and about != deed["fighter"]:
            if about not in deed["took_out"]:
                continue
            deed = {"fighter": deed["fighter"], "took_out": [about], "out_of_action": False}
        side = owners.get(deed["fighter"])
        lines_of.setdefault(side if side in lines_of else None, []).extend(
            fighter_lines(deed, names, words, taken_by_someone))
    for warband, glorious in words.by_warbands.get(battle["tx"], []) if about is None else ():
        lines_of.setdefault(warband, []).append(words.deed_line(names.get(warband, warband), glorious))
    return [line for lines in lines_of.values() for line in lines]


def battle_row(record: Record) -> dict[str, Any]:
    """What battle_deed_lines reads of a `battle.recorded` record, as its rm_battles row holds it."""
    event = record.event
    assert isinstance(event, ev.BattleRecorded)
    return {"tx": record.tx, "participants": event.participants, "deeds": msgspec.to_builtins(event.deeds)}
