"""The rules of the kit's example game, pure: no ledger, no I/O (see commands/README.md).

"A fighter taken out of action rolls a D6 on the Injury table. Badly hurt: roll again, and a
second Badly hurt means he misses a game." (The example's seed.)
"""

from __future__ import annotations

from typing import Literal

import msgspec

from commands.kit import Options, Rolled

Result = Literal["dead", "roll-again", "miss-game", "recovered"]


class InjuryRow(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    low: int
    high: int
    result: Result


class InjuryTable(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    die: str
    rows: list[InjuryRow]


class ExampleTables(msgspec.Struct, frozen=True, kw_only=True):
    injury: InjuryTable


class ExampleOptions(Options, frozen=True, kw_only=True):
    xp_per_enemy: int = 1  # house rule: XP for each enemy taken out of action
    tables: dict[str, object] = {}


def check_tables(tables: ExampleTables) -> None:
    """Rows must cover 1-6 once each, in order."""
    expected = 1
    for row in tables.injury.rows:
        if row.low != expected or row.high < row.low:
            raise ValueError(f"injury table: row {row.id} should start at {expected}")
        expected = row.high + 1
    if expected != 7:
        raise ValueError("injury table: the rows must end at 6")


def injury(fighter: str, rolled: Rolled, tables: ExampleTables) -> list[InjuryRow]:
    """The rows a fighter's injury rolls land on: one, or two after a Badly hurt."""
    rows: list[InjuryRow] = []
    while True:
        face = rolled.next(len(rows), tables.injury.die, f"injury of {fighter}")[0]
        row = next(r for r in tables.injury.rows if r.low <= face <= r.high)
        rows.append(row)
        if row.result != "roll-again" or len(rows) == 2:
            return rows


def experience(fought: bool, enemies_taken_out: int, options: ExampleOptions) -> int:
    return int(fought) + enemies_taken_out * options.xp_per_enemy
