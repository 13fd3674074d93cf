"""Dice expressions, face checks and the ledger's dice derivation, from DESIGN.md's definitions."""

import hashlib
import hmac

import pytest

from ledger import dice as d
from ledger.errors import BadInput


@pytest.mark.parametrize(
    ("text", "die_sides", "faces", "value", "kept"),
    [
        ("D6", [6], [4], 4, []),
        ("2D6", [6, 6], [3, 5], 8, []),
        ("D3", [6], [1], 1, []),  # a D6 halved up: 1-2 → 1, 3-4 → 2, 5-6 → 3
        ("D3", [6], [2], 1, []),
        ("D3", [6], [3], 2, []),
        ("D3", [6], [6], 3, []),
        ("D66", [6, 6], [3, 5], 35, []),  # tens first
        ("D66", [6, 6], [6, 1], 61, []),
        ("D12", [12], [12], 12, []),
        ("D20", [20], [1], 1, []),
        ("7D6 keep 6 highest", [6] * 7, [1, 6, 2, 6, 3, 4, 5], 26, [1, 2, 3, 4, 5, 6]),
        ("3D6kh2", [6, 6, 6], [4, 4, 4], 8, [0, 1]),  # ties keep the earlier dice
    ],
)
def test_expression_evaluates_faces(text, die_sides, faces, value, kept):
    expression = d.parse_expression(text)
    assert expression.die_sides == die_sides
    assert expression.evaluate(faces) == (value, kept)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [("d6", "D6"), ("2d6", "2D6"), ("7D6kh6", "7D6 keep 6 highest"), (" D66 ", "D66"), ("1D20", "D20")],
)
def test_expressions_are_written_one_way(text, canonical):
    assert str(d.parse_expression(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "'' is not a dice expression (try D6, 2D6, D66, D3, 7D6 keep 6 highest)"),
        ("2D", "'2D' is not a dice expression (try D6, 2D6, D66, D3, 7D6 keep 6 highest)"),
        ("0D6", "'0D6': roll between 1 and 100 dice"),
        ("D1", "'D1': a die has between 2 and 1000 sides"),
        ("2D6 keep 3 highest", "'2D6 keep 3 highest': can keep between 1 and 2 dice"),
    ],
)
def test_bad_expressions_are_refused(text, message):
    with pytest.raises(BadInput) as refused:
        d.parse_expression(text)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("faces", "sides", "message"),
    [
        ([7], [6], "injury: the die of the D6 roll shows 7, not 1-6"),
        ([3, 0], [6, 6], "injury: the 2nd die of the 2D6 roll shows 0, not 1-6"),
        ([3], [6, 6], "injury: 2 dice needed, 1 given"),
    ],
)
def test_faces_are_checked_against_their_dice(faces, sides, message):
    with pytest.raises(BadInput) as refused:
        d.check_faces(faces, sides, "injury")
    assert str(refused.value) == message


def test_parse_faces_accepts_commas_and_spaces_and_names_a_bad_token():
    assert d.parse_faces("3,5 6") == [3, 5, 6]
    with pytest.raises(BadInput, match="^--dice: the 2nd value 'x' is not a whole number$"):
        d.parse_faces("3,x")
    with pytest.raises(BadInput, match="^the 3rd value 'x' is not a whole number$"):  # typed at a prompt
        d.parse_faces("3 5,x", given_as="")


def reference_face(seed: bytes, campaign: str, n: int, j: int, sides: int) -> int:
    """DESIGN.md's definition, written out independently of ledger.dice."""
    a = 0
    while True:
        block = hmac.new(seed, f"{campaign}:{n}:{j}:{a}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(block[:8], "big")
        if x < (2**64 // sides) * sides:
            return x % sides + 1
        a += 1


def test_ledger_faces_follow_the_published_derivation():
    seed = bytes(range(32))
    campaign = "3f0c8a52-1d7e-4b5a-9c1e-2a4b6c8d0e1f"
    for n in range(20):
        for sides in (3, 6, 12, 20):
            assert d.ledger_faces(seed, campaign, n, [sides, sides]) == [
                reference_face(seed, campaign, n, 0, sides),
                reference_face(seed, campaign, n, 1, sides),
            ]


def test_rejection_sampling_skips_attempts_at_or_above_the_limit(monkeypatch):
    # Sides 3: the limit is (2**64 // 3) * 3; force attempt 0 to land above it.
    blocks = iter([(2**64 - 1).to_bytes(8, "big") + bytes(24), (10).to_bytes(8, "big") + bytes(24)])

    class FakeHmac:
        def __init__(self, *args, **kwargs):
            self.block = next(blocks)

        def digest(self):
            return self.block

    monkeypatch.setattr(d.hmac, "new", FakeHmac)
    assert d.ledger_face(b"k", "c", 0, 0, 3) == 10 % 3 + 1


def test_commitment_is_sha256_of_the_seed():
    assert d.commitment(b"\x00" * 32) == hashlib.sha256(b"\x00" * 32).hexdigest()


def test_fisher_yates_from_the_last_position_down():
    # 4 cards: position 3 swaps with die of 4 sides, then 2 with D3, then 1 with D2.
    assert d.shuffle_die_sides(4) == [4, 3, 2]
    # faces [1, 3, 1]: swap 3<->0 → D B C A; swap 2<->2 → same; swap 1<->0 → B D C A
    assert d.shuffled(["A", "B", "C", "D"], [1, 3, 1]) == ["B", "D", "C", "A"]
