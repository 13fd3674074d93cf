"""Retinue data (rules A3, A4): ancestries, archetypes, domains, feats, the Casualty and Doom tables.

The seed names these but does not print them, so they are data the group supplies. A small sample
set ships in ``data/*.json`` for the demo and the tests. A campaign replaces any of the files with
its own (the option ``tables``, e.g. from ``campaign new --options-file group.json``); every file is
decoded into the frozen Structs below and checked for what msgspec cannot see (attributes 1-6,
feats that exist, tables covering every result once), with an error naming the file and the fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from commands.kit import Tables

ATTRIBUTES = ("Wi", "Sa", "Mt", "Sk", "W", "M", "Df", "CC", "RC")
ATTRIBUTE_MIN, ATTRIBUTE_MAX = 1, 6

# What the ledger does with an outcome (E5, E7): Slain and Captured change the fighter's status,
# Hardy and Miraculous earn post-game XP, an injury is recorded, anything else is only recorded.
OutcomeKind = Literal["slain", "captured", "hardy", "miraculous", "injury", "none"]
# A3 until a group supplies a table: the outcome is entered by name, and these names are known.
KNOWN_OUTCOMES: Mapping[str, OutcomeKind] = {
    "slain": "slain", "captured": "captured", "hardy": "hardy", "miraculous": "miraculous",
}
# Words a player may type for a known outcome, which by name would be a group's own that changes nothing
# ("Dead" was recorded as "Dead (named by the player)", the fighter living on): from 1.8.0 refused, naming it.
OUTCOME_WORDS: Mapping[str, OutcomeKind] = {
    "dead": "slain", "death": "slain", "died": "slain", "killed": "slain", "kill": "slain", "slay": "slain",
    "deceased": "slain", "prisoner": "captured", "taken prisoner": "captured", "caught": "captured",
    "miracle": "miraculous",
}


class DataError(ValueError):
    """A data file (shipped or the group's) that makes no sense; the kit's loader reports it."""

    def __init__(self, name: str, fault: str) -> None:
        super().__init__(f"Retinue table '{name}' is invalid: {fault}")


class _Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Strict: a typo in a group's file must not pass silently."""


class Ancestry(_Data, frozen=True, kw_only=True):
    baselines: dict[str, int]  # attribute -> the ancestry's value (S7 reads these)
    keywords: tuple[str, ...] = ()  # granted by the ancestry, e.g. Vampire, Mortal


class Archetype(_Data, frozen=True, kw_only=True):
    feats: tuple[str, ...]


class Domain(_Data, frozen=True, kw_only=True):
    casting: Literal["Wi", "Sa"]  # the attribute that governs the Domain's casting roll (S8)
    spells: tuple[str, ...]
    feats: tuple[str, ...] = ()


class Prerequisite(_Data, frozen=True, kw_only=True):
    keywords: tuple[str, ...] = ()  # e.g. Caster
    attributes: dict[str, int] = {}  # attribute -> minimum value


class Feats(_Data, frozen=True, kw_only=True):
    universal: tuple[str, ...]
    prerequisites: dict[str, Prerequisite] = {}


class OutcomeRow(_Data, frozen=True, kw_only=True):
    low: int
    high: int
    outcome: str
    kind: OutcomeKind = "none"


class OutcomeTable(_Data, frozen=True, kw_only=True):
    dice: str
    rows: tuple[OutcomeRow, ...]

    def row_for(self, result: int) -> OutcomeRow:
        return next(row for row in self.rows if row.low <= result <= row.high)


class RetinueData(msgspec.Struct, frozen=True, kw_only=True):
    ancestries: dict[str, Ancestry]
    archetypes: dict[str, Archetype]
    domains: dict[str, Domain]
    feats: Feats
    casualty: OutcomeTable
    doom: OutcomeTable

    def ancestry_of(self, keywords: Any) -> str | None:
        return next((k for k in keywords if k in self.ancestries), None)

    def domain_of(self, keywords: Any) -> str | None:
        return next((k for k in keywords if k in self.domains), None)


# The results each table's dice can give, which its rows must cover exactly once.
TABLE_RESULTS = {"casualty": ("D6", range(1, 7)), "doom": ("2D6", range(2, 13))}
# Hardy is a Casualty Table result, Miraculous a Doom Table one (E7).
TABLE_KINDS = {"casualty": {"slain", "captured", "hardy", "injury", "none"},
               "doom": {"slain", "captured", "miraculous", "injury", "none"}}


def _check_attribute_values(name: str, where: str, values: Mapping[str, int], *, complete: bool) -> None:
    unknown = sorted(set(values) - set(ATTRIBUTES))
    if unknown:
        raise DataError(name, f"{where}: unknown attribute {', '.join(unknown)} (attributes: {', '.join(ATTRIBUTES)})")
    missing = [a for a in ATTRIBUTES if a not in values]
    if complete and missing:
        raise DataError(name, f"{where}: no value for {', '.join(missing)}")
    for attribute in (a for a in ATTRIBUTES if a in values):
        value = values[attribute]
        if not ATTRIBUTE_MIN <= value <= ATTRIBUTE_MAX:
            raise DataError(name, f"{where}: {attribute} {value} is outside {ATTRIBUTE_MIN}-{ATTRIBUTE_MAX}")


def check_outcome_table(name: str, table: OutcomeTable) -> None:
    dice, results = TABLE_RESULTS[name]
    if table.dice != dice:
        raise DataError(name, f"the {name.capitalize()} Table is rolled on {dice}, not {table.dice}")
    for result in results:
        rows = [row.outcome for row in table.rows if row.low <= result <= row.high]
        if len(rows) != 1:
            raise DataError(name, f"a roll of {result} gives {' and '.join(rows) if rows else 'no row'}; "
                            "every result needs exactly one row")
    for row in table.rows:
        if row.kind not in TABLE_KINDS[name]:
            raise DataError(name, f"row {row.outcome!r} is {row.kind}, which is not a {name.capitalize()} Table result")


def check_data(data: RetinueData) -> None:
    for name, ancestry in data.ancestries.items():
        _check_attribute_values("ancestries", name, ancestry.baselines, complete=True)
    listed = {*data.feats.universal}
    for holder in (*data.archetypes.values(), *data.domains.values()):
        listed.update(holder.feats)
    for feat, prerequisite in data.feats.prerequisites.items():
        if feat not in listed:
            raise DataError("feats", f"prerequisites for {feat!r}, which no feat list holds")
        _check_attribute_values("feats", feat, prerequisite.attributes, complete=False)
    names = [*data.ancestries, *data.archetypes, *data.domains]
    clashes = sorted({n for n in names if names.count(n) > 1})
    if clashes:
        raise DataError("ancestries", f"{', '.join(clashes)} is both an ancestry, archetype or domain: each is a keyword, so names must differ")
    for name in TABLE_RESULTS:
        check_outcome_table(name, getattr(data, name))


TABLES = Tables("Retinue", RetinueData, __package__, check=check_data)
