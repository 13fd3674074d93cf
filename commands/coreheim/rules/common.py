"""What every part of Coreheim's rules shares: the refusal, results, pending rolls and choices, characteristics, dice."""

from __future__ import annotations


import msgspec

from commands.kit import check_faces


class CoreheimRuleError(ValueError):
    """The rules refuse this: the message says why, in the players' words."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """Base for the values these functions return."""


class ChoiceRequest(Result):
    id: str
    question: str


Pending = ChoiceRequest  # a rule that needs more dice raises the kit's MoreDice instead

STATS = ("M", "A", "W", "T", "WS", "BS", "I", "Ld")
HIGHER_IS_BETTER = frozenset({"M", "A", "W"})


class Characteristics(Result):
    """A profile in v10 terms: WS/BS/I/Ld are D12 targets (6 means 6+), T is a modifier."""

    M: int | None
    A: int | None
    W: int | None
    T: int | None
    WS: int | None
    BS: int | None
    I: int | None  # noqa: E741 - the game's own abbreviation for Initiative
    Ld: int | None




def passes_test(face: int, target: int) -> bool:
    """A characteristic test: D12 >= target; a natural 12 always passes, a 1 always fails."""
    check_faces((face,), 12, "Characteristic test")
    return face == 12 or (face != 1 and face >= target)


def _show(stat: str, value: int | None) -> str:
    if value is None:
        return "-"
    if stat in ("WS", "BS", "I", "Ld"):
        return f"{value}+"
    if stat == "T":
        return f"{value:+d}"
    return str(value)
