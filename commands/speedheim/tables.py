"""Speedheim tables: the Improvement Deck, the d20 tables, the caps, the Scars and the Skill and
Spell lists, loaded from ``data/*.json`` into frozen msgspec Structs.

A campaign may replace whole tables as house rules (``--option tables='{"deck": {...}}'``): a
house-rule deck replaces the default v0.93 deck. Each replacement is checked against the same
Structs (msgspec's own error message) and for what the rules need (unique card ids, d20 ranges
covering 1–20 once, known hero and henchman halves).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from commands.kit.tables import TableError, Tables

# The hero half of a card (or a row of the Hero Improvement Table): the stat it improves.
HeroHalf = Literal["Wnd", "Atk", "Prc", "Inj", "Skill", "Def", "Mel/Rgd", "Agi", "Mrl"]
# The henchman half: promote at once, if the incapacitated unit was a Hero / a Leader, or blank.
HenchmanHalf = Literal["promote", "hero", "leader", ""]


class _Row(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Strict: a typo in a house rule must not pass silently."""


class Card(_Row, kw_only=True):
    id: str  # what a physical draw is entered as (`--card 07`) and what `card.drawn` records
    hero: HeroHalf
    henchman: HenchmanHalf = ""


class Deck(_Row, kw_only=True):
    source: str
    cards: tuple[Card, ...]


class HeroRow(_Row, kw_only=True):
    id: str
    low: int
    high: int
    hero: HeroHalf


class HenchmanRow(_Row, kw_only=True):
    id: str
    low: int
    high: int
    henchman: HenchmanHalf


class HeroD20(_Row, kw_only=True):
    source: str
    rows: tuple[HeroRow, ...]


class HenchmanD20(_Row, kw_only=True):
    source: str
    rows: tuple[HenchmanRow, ...]


class Caps(_Row, kw_only=True):
    source: str
    skills: int  # learned Skills (starting Skills and special rules excluded)
    max: dict[str, int]  # higher is better: never above
    min: dict[str, int]  # lower is better: never below


ScarEffect = Literal[
    "blight", "deathtouched", "skill", "major-wound", "miss-game", "none", "pit-fight", "attempt-advantage", "dead",
    "blight-worsens", "cured",
]


class ScarRow(_Row, kw_only=True):
    id: str
    low: int
    high: int
    name: str
    effect: ScarEffect = "none"
    skill: str = ""  # the special rule gained, for effect "skill"
    stat: str = ""  # the stat made 2 worse, for a Major Wound row


class Scars(_Row, kw_only=True):
    source: str
    hero: tuple[ScarRow, ...]
    henchman: tuple[ScarRow, ...]
    major_wound: tuple[ScarRow, ...]
    blight: tuple[ScarRow, ...]


class Loot(_Row, kw_only=True):
    source: str
    rows: tuple[ScarRow, ...]  # the Loot table each natural 20 of the income dice rolls on


class SkillLists(_Row, kw_only=True):
    source: str
    skills: dict[str, tuple[str, ...]]  # skill type (Melee, Ranged, …) -> learnable Skills
    spells: dict[str, tuple[str, ...]]  # Spellcasting skill -> its spells
    # An Arcane school's Basic spell, one of its spells, which its casters have innately (rules §2): none for Divine Magic
    basic: dict[str, str] = {}


class SpeedheimTables(msgspec.Struct, frozen=True, kw_only=True):
    deck: Deck
    hero_d20: HeroD20
    henchman_d20: HenchmanD20
    caps: Caps
    scars: Scars
    loot: Loot
    skills: SkillLists

    def card(self, card_id: str) -> Card:
        return next(card for card in self.deck.cards if card.id == card_id)


def _check_d20(name: str, rows: tuple[Any, ...]) -> None:
    faces = sorted(face for row in rows for face in range(row.low, row.high + 1))
    if faces != list(range(1, 21)):
        raise ValueError(f"Speedheim table {name!r}: its rows must cover each d20 face 1–20 exactly once")


def check_tables(tables: SpeedheimTables) -> None:
    ids = [card.id for card in tables.deck.cards]
    if not ids or len(set(ids)) != len(ids):
        raise ValueError("Speedheim table 'deck': needs at least one card, each with its own id")
    for name in ("hero_d20", "henchman_d20", "loot"):
        _check_d20(name, getattr(tables, name).rows)
    for part in ("hero", "henchman", "major_wound", "blight"):
        _check_d20(f"scars.{part}", getattr(tables.scars, part))


TABLES = Tables("Speedheim", SpeedheimTables, __package__, check=check_tables)
DEFAULT_TABLES = TABLES.defaults
__all__ = ["DEFAULT_TABLES", "TABLES", "SpeedheimTables", "TableError"]
