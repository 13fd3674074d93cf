"""One protocol for rules that need more dice than they were given, one face check, one D66.

Rules are pure: they take the dice rolled so far (`Rolled`) and either return their result or
raise `MoreDice` naming the roll they need next (its key, expression and purpose). `resolve`
drives such a rule on a handler's context: it rolls what is asked, adds it, and calls the rule
again until it answers. A test drives the same rule without a ledger by handing it `Rolled`
faces directly. The key lets a rule ask for rolls in any order (one per fighter, one per step
of a chart); a rule with one sequence of rolls uses `Rolled.next`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

import msgspec

from ledger import dice as core_dice
from ledger.decide import Context, Roll
from ledger.errors import BadInput

R = TypeVar("R")


class MoreDice(Exception):
    """The rule needs the roll `key` (`expression`, for `purpose`) before it can answer."""

    def __init__(self, key: str, expression: str, purpose: str) -> None:
        super().__init__(f"{purpose} needs {expression}")
        self.key = key
        self.expression = expression
        self.purpose = purpose


class Rolled(msgspec.Struct):
    """The faces rolled so far, by key (insertion order is the order rolled)."""

    faces: dict[str, list[int]] = msgspec.field(default_factory=dict)
    numbers: dict[str, int] = msgspec.field(default_factory=dict)  # the ledger's roll number of each roll `resolve` made

    def get(self, key: str, expression: str, purpose: str) -> list[int]:
        """The faces of roll `key`, checked against `expression`; MoreDice when not rolled yet."""
        if key not in self.faces:
            raise MoreDice(key, expression, purpose)
        faces = self.faces[key]
        check_faces(faces, expression, purpose)
        return faces

    def next(self, index: int, expression: str, purpose: str) -> list[int]:
        """The `index`-th roll of a rule that rolls one after another (keys "0", "1", …)."""
        return self.get(str(index), expression, purpose)

    def add(self, key: str, faces: Sequence[int], number: int | None = None) -> None:
        self.faces[key] = list(faces)
        if number is not None:
            self.numbers[key] = number

    @classmethod
    def of(cls, faces: Mapping[str, Sequence[int]] | Sequence[Sequence[int]]) -> Rolled:
        """For tests: `Rolled.of([[3], [6, 1]])` or `Rolled.of({"injury:gunnar": [6, 1]})`."""
        items = faces.items() if isinstance(faces, Mapping) else ((str(i), f) for i, f in enumerate(faces))
        return cls({key: list(f) for key, f in items})


def resolve(
    ctx: Context, rule: Callable[[Rolled], R], rolled: Rolled | None = None, *,
    roll: Callable[[MoreDice], Roll] | None = None,
) -> R:
    """Call `rule` with the dice rolled so far, rolling (and recording) each roll it asks for.

    `rolled` carries the faces over from an earlier call, for a rule that also waits for a player's
    choice: the handler asks it and resolves again with the same `rolled`. `roll(need)` rolls what
    the rule asks (its faces are what the rule reads), for a handler that names the roll better than
    the rule can (whose warband, which threshold) or reads its faces otherwise (a D3 from the D6
    rolled); by default `ctx.roll(need.expression, purpose=need.purpose)`."""
    rolled = rolled if rolled is not None else Rolled()
    while True:
        try:
            return rule(rolled)
        except MoreDice as need:
            if need.key in rolled.faces:
                raise  # a rule asking again for a roll it was given would loop for ever
            made = roll(need) if roll is not None else ctx.roll(need.expression, purpose=need.purpose)
            rolled.add(need.key, made.faces, made.number)


def check_faces(faces: Sequence[int], dice: str | int, purpose: str) -> None:
    """The one face check: `dice` is an expression ("2D6", "D66": one face per die, each on its die)
    or a number of sides (any number of faces, each on such a die). BadInput names the die otherwise."""
    sides = core_dice.parse_expression(dice).die_sides if isinstance(dice, str) else [dice] * len(faces)
    if any(not isinstance(face, int) or isinstance(face, bool) for face in faces):
        raise BadInput(f"{purpose}: faces are whole numbers, not {list(faces)}")
    core_dice.check_faces(list(faces), sides, purpose, dice if isinstance(dice, str) else None)


def d66(faces: Sequence[int]) -> int:
    """Two D6 read as tens then units (3 then 5 is 35, never a sum): 11 … 66."""
    check_faces(faces, "D66", "D66")
    tens, units = faces
    return tens * 10 + units


def value_of(expression: str, faces: Sequence[int]) -> int:
    """What the faces of `expression` count as (the sum, D3 halved up, D66 as 11 … 66, kept dice)."""
    return core_dice.parse_expression(expression).evaluate(list(faces))[0]
