"""JSON may escape half of a UTF-16 surrogate pair alone (`"\\ud800"`): the standard library reads it
into a string that is not text, which no UTF-8 holds. A trail line, a house-rules file or an
--option value holding one is refused where the JSON is read, naming the file or line, with nothing
written (it was exit 70, a UnicodeEncodeError, when the string was hashed or stored)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ledger.testing import CampaignRunner

VERIFIER = Path(__file__).resolve().parent.parent / "independent_verifier.py"
LONE = "a string holds \\ud800, a lone UTF-16 surrogate (half of a pair), which is not a character"


@pytest.fixture
def trail_with_a_lone_surrogate(league, tmp_path):
    exported = tmp_path / "trail.jsonl"
    assert league("export", "-o", str(exported)).exit_code == 0
    lines = exported.read_bytes().split(b"\n")
    assert b'"actor":"arbiter"' in lines[1]
    lines[1] = lines[1].replace(b'"actor":"arbiter"', b'"actor":"a\\ud800"')
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"\n".join(lines))
    return damaged


def test_verify_names_the_line(league, trail_with_a_lone_surrogate):
    result = league("verify", str(trail_with_a_lone_surrogate))
    assert (result.exit_code, result.output) == (3, f"Error: line 2: does not decode: {LONE}\n")
    # the independent verifier too (it failed with a UnicodeEncodeError hashing the line)
    other = subprocess.run([sys.executable, "-I", "-S", str(VERIFIER), str(trail_with_a_lone_surrogate)],
                           capture_output=True, text=True)
    assert (other.returncode, other.stdout) == (1, "FAIL line 2: a string holds a lone UTF-16 surrogate\n")


def test_import_names_the_line_and_creates_no_store(tmp_path, trail_with_a_lone_surrogate):
    store = tmp_path / "imported.db"
    result = CampaignRunner(f"sqlite:///{store}")("import", str(trail_with_a_lone_surrogate))
    assert (result.exit_code, result.output) == (3, f"Error: line 2: does not decode: {LONE}\n")
    assert not store.exists()


def test_a_header_holding_one_is_refused_too(league, tmp_path):
    exported = tmp_path / "trail.jsonl"
    assert league("export", "-o", str(exported)).exit_code == 0
    exported.write_bytes(exported.read_bytes().replace(b'"name":"Test League"', b'"name":"Test \\udfffLeague"', 1))
    result = league("verify", str(exported))
    assert (result.exit_code, result.output) == (
        3, "Error: line 1: does not decode: a string holds \\udfff, a lone UTF-16 surrogate (half of a pair), "
           "which is not a character\n")


@pytest.mark.parametrize("option", ["--options-file", "--tables"])
@pytest.mark.parametrize("content", [b'{"decks": "led\\ud800ger"}', b'{"led\\ud800ger": 1}'], ids=["value", "key"])
def test_a_house_rules_file_names_the_file_and_creates_no_store(cli, db_path, tmp_path, option, content):
    house = tmp_path / "house.json"
    house.write_bytes(content)
    result = cli("new", "Spring", option, str(house))
    assert (result.exit_code, result.output) == (2, f"Error: {house}: not JSON the ledger takes ({LONE})\n")
    assert not db_path.exists()


def test_an_option_value_names_the_option_and_creates_no_store(cli, db_path):
    result = cli("new", "Spring", "--option", 'decks="led\\ud800ger"')
    assert (result.exit_code, result.output) == (2, f"Error: --option decks: {LONE}\n")
    assert not db_path.exists()


def test_a_whole_surrogate_pair_is_a_character_as_before(cli):
    result = cli("new", "Spring", "--option", 'decks="\\ud83d\\ude00"')
    assert (result.exit_code, result.output) == (
        2, "Error: freeform option decks: Invalid enum value '\U0001f600' (one of: ledger, physical)\n")
