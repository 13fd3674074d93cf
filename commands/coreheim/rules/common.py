"""What every part of Coreheim's rules shares: the refusal, results, pending rolls and choices, characteristics, dice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union

import msgspec


class CoreheimRuleError(ValueError):
    """The rules refuse this: the message says why, in the players' words."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """Base for the values these functions return."""


class RollRequest(Result):
    id: str
    dice: str
    purpose: str


class ChoiceRequest(Result):
    id: str
    question: str


Pending = Union[RollRequest, ChoiceRequest]

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


def _check_faces(faces: Sequence[int], sides: int, what: str) -> None:
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise CoreheimRuleError(f"{what}: {face!r} is not a face of a D{sides}")


def d66_value(tens: int, units: int) -> int:
    """D66 reads two D6 as tens and units (3 then 5 is 35), never as a sum."""
    _check_faces((tens, units), 6, "D66")
    return tens * 10 + units


def passes_test(face: int, target: int) -> bool:
    """A characteristic test: D12 >= target; a natural 12 always passes, a 1 always fails."""
    _check_faces((face,), 12, "Characteristic test")
    return face == 12 or (face != 1 and face >= target)


def _show(stat: str, value: int | None) -> str:
    if value is None:
        return "-"
    if stat in ("WS", "BS", "I", "Ld"):
        return f"{value}+"
    if stat == "T":
        return f"{value:+d}"
    return str(value)
