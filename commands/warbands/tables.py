"""Warbands tables: the data the seed refers to but does not print, as checked msgspec Structs.

Loaded by the kit's `Tables`: one JSON file per table in ``data/`` named as the table
(``data/archetype-table.json``). A campaign replaces whole tables with its own (``campaign new
--ruleset warbands --tables FILE``, kept in the pinned options under ``tables``); every
replacement is checked exactly as the defaults are, and a bad one is refused with the table's
name and what is wrong.

What the defaults hold (shared/rules/warbands.md, section 5):
- ``archetype-table`` (U6): the seed's 28 warband types in its order. The seed lost the
  table's column alignment, so only the number of Archetypes per type survives
  (``SEED_ROW_SIZES``, which no house rule can change); a type's ``archetypes`` is null until
  the group supplies the cells, and then must have exactly the seed's number of them.
- ``archetypes`` (U5, U6): per Archetype its Starting Ability and its Advancement Table
  (die, rows). Only the Intellectual's Starting Ability is printed in the seed; the other
  names are placeholders (``known: false``) and each table is a D6 of six unnamed results.
- ``recovery`` (U3), ``character-injury`` (U4), ``xp-awards`` (U1): empty, meaning the
  players tell the ledger the result (models recovered, the injury's effect, XP earned).
"""

from __future__ import annotations

import itertools
from typing import Any, Literal

import msgspec

from commands.kit import Tables, TableError
from ledger.dice import parse_expression
from ledger.errors import BadInput
from ledger.text import possessive

ARCHETYPES = ("Barbarian", "Intellectual", "Intimidator", "Magician", "Noble", "Psychopath", "Trickster", "Veteran")

# The Archetype Table (seed p. 17): how many X each warband type's row has, in the seed's order.
SEED_ROW_SIZES: dict[str, int] = {
    "Beasts of Chaos": 6, "Bretonnia": 4, "Chaos Dwarfs": 5, "Dark Elves": 5, "Dogs of War": 5,
    "Dwarfs": 4, "Empire": 6, "High Elves": 5, "Hordes of Chaos": 5, "Lizardmen": 4,
    "Ogre Kingdoms": 5, "Orcs & Goblins": 5, "Skaven": 5, "Tomb Kings": 4, "Vampire Counts": 4,
    "Wood Elves": 5, "Archaon's Horde": 5, "Army of Middenland": 6, "Army of Sylvania": 4,
    "Cult of Slaanesh": 5, "Daemonic Legions": 4, "Errantry War": 4, "Grimgor's 'Ardboyz": 5,
    "High Elf Sea Patrol": 5, "Skaven Clan Eshin": 6, "Slayer Army of Karak Kadrin": 4,
    "Bubonic Court of Nurglitch": 4, "Red Host of Tehenhauin": 4,
}


class _Row(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Strict: a misspelt key in a group's table must be refused, not ignored."""


class ArchetypeRow(_Row, kw_only=True):
    type: str
    archetypes: tuple[str, ...] | None = None  # None: the cells are not known (U6)


class ArchetypeTable(_Row, kw_only=True):
    source: str = ""
    note: str = ""
    rows: tuple[ArchetypeRow, ...]


class AdvancementRow(_Row, kw_only=True):
    id: str
    low: int
    high: int
    ability: str
    known: bool = True  # False: a placeholder name, the group's own copy names it


class Archetype(_Row, kw_only=True):
    name: str
    starting_ability: str
    starting_known: bool = True
    die: str = "D6"  # the Advancement Table's die (U5)
    advancement: tuple[AdvancementRow, ...]


class ArchetypesTable(_Row, kw_only=True):
    source: str = ""
    note: str = ""
    archetypes: tuple[Archetype, ...]


class RecoveryRow(_Row, kw_only=True):
    """A casualty model recovers on `target` or more on the table's die."""

    id: str
    result: Literal["win", "draw", "loss", "any"] = "any"
    casualty: Literal["removed", "fled", "any"] = "any"
    target: int


class RecoveryTable(_Row, kw_only=True):
    source: str = ""
    note: str = ""
    die: str = "D6"
    rows: tuple[RecoveryRow, ...] = ()  # empty: the players say how many models recovered


InjuryEffect = Literal["recovered", "dead", "amnesia", "misses-game", "other"]


class InjuryRow(_Row, kw_only=True):
    id: str
    low: int
    high: int
    name: str
    effect: InjuryEffect
    missed_games: int = 0


class InjuryTable(_Row, kw_only=True):
    source: str = ""
    note: str = ""
    die: str = "D6"
    rows: tuple[InjuryRow, ...] = ()  # empty: the players say what the injury roll did


class XPAward(_Row, kw_only=True):
    id: str
    result: Literal["win", "draw", "loss", "any"]
    xp: int
    description: str = ""


class XPAwardsTable(_Row, kw_only=True):
    source: str = ""
    note: str = ""
    rows: tuple[XPAward, ...] = ()  # empty: XP is entered by hand


class WarbandsTables(msgspec.Struct, frozen=True, kw_only=True):
    archetype_table: ArchetypeTable
    archetypes: ArchetypesTable
    recovery: RecoveryTable
    character_injury: InjuryTable
    xp_awards: XPAwardsTable

    def archetype(self, name: str) -> Archetype:
        return next(a for a in self.archetypes.archetypes if a.name == name)

    def allowed_archetypes(self, warband_type: str) -> tuple[str, ...] | None:
        """The Archetypes the type may choose, or None when the group has not supplied its row."""
        return next(row.archetypes for row in self.archetype_table.rows if row.type == warband_type)


def die_results(expression: str, table: str) -> list[int]:
    """Every value the die can give, to check that a table's rows cover each exactly once (TableError:
    `check_playable` asks too, for a die no row is rolled on)."""
    try:
        parsed = parse_expression(expression)
    except BadInput as error:
        raise TableError(f"Warbands table {table!r}: {error}") from None
    sides = parsed.die_sides
    if len(sides) > 3:
        raise TableError(f"Warbands table {table!r}: {expression} rolls too many dice for a table")
    return sorted({parsed.evaluate(list(faces))[0] for faces in itertools.product(*(range(1, s + 1) for s in sides))})


def _check_rows_cover(table: str, label: str, rows: tuple[Any, ...], expression: str) -> None:
    for result in die_results(expression, table):
        matches = [row.id for row in rows if row.low <= result <= row.high]
        if len(matches) != 1:
            found = f"rows {matches}" if matches else "no row"
            problem = f"{table!r}: {label} result {result} on {expression} has {found}"
            # a row written high to low is why, when there is one: it holds none of the results the group meant
            raise ValueError(f"Warbands table {(_backwards(table, label, rows) or [problem])[0]}")


def _backwards(table: str, label: str, rows: tuple[Any, ...]) -> list[str]:
    """The rows whose low is above their high (6 to 3): such a row holds no result at all."""
    return [f"{table!r}: {label} row {row.id} runs backwards, from {row.low} down to {row.high}: "
            f"a row runs from its low result up to its high one (low {row.high}, high {row.low})"
            for row in rows if row.low > row.high]


def _unique(table: str, ids: list[str]) -> None:
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"Warbands table {table!r}: {', '.join(duplicates)} given more than once")


def _check_archetype_table(table: ArchetypeTable) -> None:
    types = [row.type for row in table.rows]
    _unique("archetype-table", types)
    missing = [t for t in SEED_ROW_SIZES if t not in types]
    unknown = [t for t in types if t not in SEED_ROW_SIZES]
    if missing or unknown:
        raise ValueError(
            "Warbands table 'archetype-table': the seed's 28 warband types, each once"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; not in the seed {', '.join(unknown)}" if unknown else "")
        )
    for row in table.rows:
        if row.archetypes is None:
            continue
        _unique("archetype-table", list(row.archetypes))
        strangers = [a for a in row.archetypes if a not in ARCHETYPES]
        if strangers:
            raise ValueError(f"Warbands table 'archetype-table': {row.type}: {', '.join(strangers)} is not an Archetype "
                             f"(Archetypes: {', '.join(ARCHETYPES)})")
        if len(row.archetypes) != SEED_ROW_SIZES[row.type]:
            raise ValueError(f"Warbands table 'archetype-table': {row.type} has {SEED_ROW_SIZES[row.type]} Archetypes "
                             f"in the seed's table, not {len(row.archetypes)}")


def _check_archetypes(table: ArchetypesTable) -> None:
    names = [a.name for a in table.archetypes]
    _unique("archetypes", names)
    if sorted(names) != sorted(ARCHETYPES):
        raise ValueError(f"Warbands table 'archetypes': one entry for each Archetype: {', '.join(ARCHETYPES)}")
    for archetype in table.archetypes:
        _unique("archetypes", [row.id for row in archetype.advancement])
        _check_rows_cover("archetypes", archetype.name, archetype.advancement, archetype.die)
        if archetype.starting_ability in {row.ability for row in archetype.advancement}:
            raise ValueError(f"Warbands table 'archetypes': {possessive(archetype.name)} Starting Ability is also on its "
                             "Advancement Table")


def check_tables(tables: WarbandsTables) -> None:
    """What the schemas cannot say: the seed's row sizes, dice covered, ids once (ValueError; a die that
    rolls nothing: TableError)."""
    _check_archetype_table(tables.archetype_table)
    _check_archetypes(tables.archetypes)
    die_results(tables.recovery.die, "recovery")
    _unique("recovery", [row.id for row in tables.recovery.rows])
    _unique("character-injury", [row.id for row in tables.character_injury.rows])
    if tables.character_injury.rows:
        _check_rows_cover("character-injury", "injury", tables.character_injury.rows, tables.character_injury.die)
    _unique("xp-awards", [row.id for row in tables.xp_awards.rows])


RESULTS, CASUALTIES = ("win", "draw", "loss"), ("removed", "fled")


def check_playable(tables: WarbandsTables) -> None:
    """What a group's tables must also get right for a campaign to be played to its end (TableError):
    a Recovery row for every battle result and kind of casualty, each (result, casualty) pair once, a
    target the die can roll; an injury die that rolls (with no rows too), injury rows within what the die
    rolls, a misses-game injury that misses a game, and no missed game on a row that records no injury;
    no injury or Advancement row that runs backwards (6 to 3: `check_tables` refuses it only where it leaves
    a result without a row); no negative XP award.

    Checked when a campaign starts (`model.check_options`), not with every read of the tables
    (`check_tables`): a campaign recorded with such tables before this check keeps opening, importing
    and replaying (an import compares the options its start pinned, which an earlier ledger took)."""
    problems = [*_recovery_problems(tables.recovery), *_injury_problems(tables.character_injury),
                *(problem for archetype in tables.archetypes.archetypes
                  for problem in _backwards("archetypes", archetype.name, archetype.advancement)),
                *(f"'xp-awards': row {row.id}: xp cannot be negative ({row.xp})" for row in tables.xp_awards.rows if row.xp < 0)]
    if problems:
        raise TableError(f"Warbands table {problems[0]}")


def _recovery_problems(table: RecoveryTable) -> list[str]:
    if not table.rows:
        return []  # the players say how many recovered
    results = die_results(table.die, "recovery")
    problems = [f"'recovery': row {row.id}: target {row.target} is not a result of {table.die} ({results[0]} to {results[-1]})"
                for row in table.rows if row.target not in results]
    pairs: dict[tuple[str, str], list[str]] = {}
    for row in table.rows:
        pairs.setdefault((row.result, row.casualty), []).append(row.id)
    problems += [f"'recovery': rows {', '.join(ids)} give the same pair, result {result} and casualty {casualty}: give each pair once"
                 for (result, casualty), ids in pairs.items() if len(ids) > 1]
    problems += [f"'recovery': no row for a {casualty} model after a {result} "
                 f"(result {result} or any, casualty {casualty} or any)"
                 for result in RESULTS for casualty in CASUALTIES
                 if not any((r, c) in pairs for r in (result, "any") for c in (casualty, "any"))]
    return problems


def _injury_problems(table: InjuryTable) -> list[str]:
    results = die_results(table.die, "character-injury")  # a die that rolls nothing (D0, banana) is refused without rows too
    if not table.rows:
        return []  # the players say what the injury roll did
    problems = _backwards("character-injury", "injury", table.rows)
    problems += [f"'character-injury': row {row.id}: {row.low} to {row.high} reaches past what {table.die} rolls "
                 f"({results[0]} to {results[-1]})" for row in table.rows if row.low < results[0] or row.high > results[-1]]
    for row in table.rows:
        if row.missed_games < 0:
            problems.append(f"'character-injury': row {row.id}: missed_games cannot be negative ({row.missed_games})")
        elif row.effect == "misses-game" and not row.missed_games:
            problems.append(f"'character-injury': row {row.id}: a misses-game row gives the games missed (missed_games 1 or more)")
        elif row.effect in ("recovered", "dead") and row.missed_games:
            problems.append(f"'character-injury': row {row.id}: a {row.effect} row misses no game (missed_games {row.missed_games})")
    return problems


TABLES = Tables("Warbands", WarbandsTables, __package__, check=check_tables, names={
    "archetype-table": "archetype_table", "archetypes": "archetypes", "recovery": "recovery",
    "character-injury": "character_injury", "xp-awards": "xp_awards"})
