"""Dice expressions, table faces, verifiable ledger dice and shuffles — parsed and derived in one place.

Expressions: `D3`, `D6`, `2D6`, `D12`, `D20`, `D66`, `NDs`, and keep-highest `7D6 keep 6 highest`
(also written `7D6kh6`). A D3 is a D6 halved up: the face typed or derived is the D6's. A D66 is
two D6, tens first. Ledger dice follow DESIGN.md exactly:
die j of roll n, attempt a: block = HMAC-SHA256(seed, f"{campaign_id}:{n}:{j}:{a}"),
x = first 8 bytes big-endian; accept x < (2**64 // s) * s; face = x % s + 1.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import re
import secrets

import msgspec

from ledger.errors import BadInput
from ledger.text import ordinal, whole_number

_EXPRESSION = re.compile(
    r"^\s*(?P<count>\d*)\s*[dD]\s*(?P<sides>\d+)\s*"
    r"(?:(?:keep\s+(?P<keep>\d+)\s+highest)|(?:kh\s*(?P<kh>\d+)))?\s*$"
)


class DiceExpression(msgspec.Struct, frozen=True):
    count: int
    sides: int  # 66 for a D66, 3 for a D3
    keep: int | None = None

    @property
    def die_sides(self) -> list[int]:
        """The physical dice to roll, in order: a D66 is two D6 and a D3 one D6."""
        if self.sides == 66:
            return [6, 6] * self.count
        if self.sides == 3:
            return [6] * self.count
        return [self.sides] * self.count

    def evaluate(self, faces: list[int]) -> tuple[int, list[int]]:
        """(value, indexes of the faces kept) for the given physical faces."""
        if self.sides == 66:
            values = [faces[i] * 10 + faces[i + 1] for i in range(0, len(faces), 2)]
        elif self.sides == 3:
            values = [(face + 1) // 2 for face in faces]
        else:
            values = list(faces)
        if self.keep is None:
            return sum(values), []
        # Highest first; equal values keep the earlier die, so the choice is reproducible.
        ranked = sorted(range(len(values)), key=lambda i: (-values[i], i))[: self.keep]
        kept = sorted(ranked)
        return sum(values[i] for i in kept), kept

    def __str__(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        text = f"{count}D{self.sides}"
        return f"{text} keep {self.keep} highest" if self.keep is not None else text


def lowest_value(expression: str) -> int:
    """The least a roll of `expression` can give (2 for 2D6, 11 for D66)."""
    parsed = parse_expression(expression)
    return parsed.evaluate([1] * len(parsed.die_sides))[0]


MOST_DICE = 100  # the most dice one roll takes


@functools.lru_cache(maxsize=1024)  # a campaign rolls the same few expressions again and again
def parse_expression(text: str) -> DiceExpression:
    match = _EXPRESSION.match(text)
    if not match:
        raise BadInput(f"'{text}' is not a dice expression (try D6, 2D6, D66, D3, 7D6 keep 6 highest)")
    count = int(match["count"] or 1)
    sides = int(match["sides"])
    keep_text = match["keep"] or match["kh"]
    keep = int(keep_text) if keep_text else None
    if count < 1 or count > MOST_DICE:
        raise BadInput(f"'{text}': roll between 1 and {MOST_DICE} dice")
    if sides < 2 or sides > 1000:
        raise BadInput(f"'{text}': a die has between 2 and 1000 sides")
    if keep is not None and not 1 <= keep <= count:
        raise BadInput(f"'{text}': can keep between 1 and {count} dice")
    return DiceExpression(count=count, sides=sides, keep=keep)


def check_faces(faces: list[int], die_sides: list[int], purpose: str, expression: str | None = None) -> None:
    """Refuse faces that cannot come from these dice, naming the die by its place in the roll (of
    `expression`, else of the dice): "the 1st die of the 2D6 roll shows 0, not 1-6" ("die 1" was read as roll 1)."""
    if len(faces) != len(die_sides):
        raise BadInput(f"{purpose}: {len(die_sides)} dice needed, {len(faces)} given")
    roll = expression or _dice_named(die_sides)
    for index, (face, sides) in enumerate(zip(faces, die_sides), start=1):
        if not 1 <= face <= sides:
            die = f"the {ordinal(index)} die" if len(faces) > 1 else "the die"
            raise BadInput(f"{purpose}: {die} of the {roll} roll shows {face}, not 1-{sides}")


def _dice_named(die_sides: list[int]) -> str:
    """[6, 6] as 2D6, [6] as D6, [6, 12] as D6+D12."""
    if len(set(die_sides)) == 1:
        return f"{len(die_sides) if len(die_sides) > 1 else ''}D{die_sides[0]}"
    return "+".join(f"D{sides}" for sides in die_sides)


def parse_faces(text: str, given_as: str = "--dice") -> list[int]:
    """`3,5 6` → [3, 5, 6]; a word is refused with its place in the list (not a die's: the list may
    hold several rolls), naming the option it was `given_as` (empty: typed at a prompt)."""
    faces: list[int] = []
    said = f"{given_as}: " if given_as else ""
    for token in re.split(r"[,\s]+", text.strip()):
        if not token:
            continue
        value = f"the {ordinal(len(faces) + 1)} value"
        if not token.isdecimal():
            wrong = "is below 1: a die shows 1 or more" if token[:1] == "-" and token[1:].isdecimal() else "is not a whole number"
            raise BadInput(f"{said}{value} '{token}' {wrong}")
        if (face := whole_number(token)) is None:
            raise BadInput(f"{said}{value} has {len(token)} digits, more than any die shows")
        faces.append(face)
    return faces


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def ledger_face(seed: bytes, campaign_id: str, roll: int, die: int, sides: int) -> int:
    limit = (2**64 // sides) * sides
    attempt = 0
    while True:
        message = f"{campaign_id}:{roll}:{die}:{attempt}".encode()
        block = hmac.new(seed, message, hashlib.sha256).digest()
        x = int.from_bytes(block[:8], "big")
        if x < limit:
            return x % sides + 1
        attempt += 1


def ledger_faces(seed: bytes, campaign_id: str, roll: int, die_sides: list[int]) -> list[int]:
    return [ledger_face(seed, campaign_id, roll, j, sides) for j, sides in enumerate(die_sides)]


def shuffle_die_sides(card_count: int) -> list[int]:
    """Fisher–Yates from the last position down: position i swaps with a die of i+1 sides."""
    return [i + 1 for i in range(card_count - 1, 0, -1)]


def shuffled(cards: list[str], faces: list[int]) -> list[str]:
    order = list(cards)
    for face, i in zip(faces, range(len(order) - 1, 0, -1)):
        j = face - 1
        order[i], order[j] = order[j], order[i]
    return order
