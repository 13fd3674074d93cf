"""The canonical form is the json.dumps call docs/audit-format.md names, byte for byte, however it is
computed; and the strict reader's fast path reads exactly what the standard library reads, or
leaves the input to it (which names the fault)."""

import json
import re
import sys

import pytest

from ledger.records import canonical
from ledger.trail_json import Malformed, is_hex, strict_json


def by_the_standard_library(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def test_every_character_is_written_as_json_dumps_writes_it():
    text = "".join(chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)
    record = {"payload": {"note": text, "é": [1, -2, 2**53 - 1], "a": None, "B": True}, "position": 1}
    assert canonical(record) == by_the_standard_library(record)


def test_keys_that_are_not_strings_are_written_as_json_dumps_writes_them():
    assert canonical({2: "b", 10: "a"}) == by_the_standard_library({2: "b", 10: "a"})


@pytest.mark.parametrize(
    ("line", "fault"),
    [
        (b'{"a":1,"a":2}', "key 'a' appears twice"),
        (b'{"a":1.0}', "1.0 is not an integer"),
        (b'{"a":1e5}', "1e5 is not an integer"),
        (b'{"a":NaN}', "NaN is not an integer"),
        (b'{"a":123456789012345678901}', "has 21 digits; too large"),
    ],
)
def test_what_the_trail_refuses_is_refused_with_the_same_words(line, fault):
    with pytest.raises(Malformed, match=fault):
        strict_json(line)
    with pytest.raises(Malformed, match=fault):
        strict_json(line.decode())


@pytest.mark.parametrize(
    "line",
    [b'{"b":1,"a":[1,2,{"c":"\\u00e9"}]}', b'{ "a" : 1 }', b'{"a":"\\ud83d\\ude00"}', b'{"n":12345678901234567890}'],
)
def test_what_the_trail_accepts_reads_as_the_standard_library_reads_it(line):
    assert strict_json(line) == json.loads(line)


HEX_OR_NOT = ["0" * 64, "0123456789abcdef" * 4, "F" * 64, "0" * 63, "0" * 65, " " + "0" * 63, "0" * 62 + " 0",
              "0" * 63 + "\n", "\u0660" * 64, "\uff10" * 64, "0x" + "0" * 62, "g" * 64, "", b"0" * 64, None, 64]


@pytest.mark.parametrize("text", HEX_OR_NOT, ids=repr)
@pytest.mark.parametrize("length", [63, 64])
def test_a_hash_is_lowercase_hex_digits_and_nothing_else(text, length):
    """is_hex reads an even length back through its bytes: it answers as the pattern does, for
    spaces between the digits (which bytes.fromhex skips), capitals, other scripts' digits."""
    assert is_hex(text, length) is (isinstance(text, str) and len(text) == length
                                    and re.fullmatch("[0-9a-f]*", text) is not None)
