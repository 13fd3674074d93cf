"""Bad input: each gets a one-line `Error: …` naming what is wrong, a non-zero exit, never a
traceback, and leaves the store byte-for-byte unchanged (no file created where there was none)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from ledger.cli import main
from ledger.testing import CampaignRunner


def refused(result, code: int, message: str) -> None:
    assert result.exit_code == code, result.output
    assert result.output.count("Error: ") == 1 and "Traceback" not in result.output, result.output
    assert message in result.output, result.output


# --- found by attacking (issue #13, item 2 and 3) ----------------------------------------------


HOUSE_RULE_FILES = {
    "a 10,000-digit integer": (b'{"x": ' + b"9" * 10_000 + b"}", "has 10000 digits; too large"),
    "invalid UTF-8": (b'{"x": "\xff\xfe"}', "not UTF-8 text (byte 7)"),
    "deep nesting": (b"[" * 100_000, "nested too deeply"),
    "binary garbage": (bytes(range(256)) * 4, "not UTF-8 text"),
    "empty": (b"", "not JSON the ledger takes (Expecting value"),
    "truncated": (b'{"tables": {"shards": ', "not JSON the ledger takes (Expecting value"),
    "a key twice": (b'{"dice": "ledger", "dice": "table"}', "key 'dice' appears twice"),
    "NaN": (b'{"x": NaN}', "NaN is not an integer"),
    "a fraction": (b'{"x": 1.5}', "1.5 is not an integer"),
    "not an object": (b"[1, 2]", "house rules must be a JSON object"),
    "wrong type": (b'{"dice": 7}', "option dice is 'table' or 'ledger', not 7"),
    "huge size": (b'{"x": "' + b"a" * 1_000_001 + b'"}', "larger than 1,000,000 bytes"),
}


@pytest.mark.parametrize("content, message", HOUSE_RULE_FILES.values(), ids=HOUSE_RULE_FILES.keys())
def test_a_bad_options_file_is_refused_and_creates_no_store(cli, db_path, tmp_path, content, message):
    house = tmp_path / "house.json"
    house.write_bytes(content)
    refused(cli("new", "Spring", "--options-file", str(house)), 2, message)
    assert not db_path.exists()


def test_a_bad_option_is_refused_and_creates_no_store(cli, db_path):
    refused(cli("new", "Spring", "--option", "dice=bogus"), 2, "option dice is 'table' or 'ledger', not 'bogus'")
    assert not db_path.exists()


@pytest.mark.parametrize("content, message", [
    (b"[" * 100_000 + b"\n", "line 1: does not decode: nested too deeply"),
    (b'{"kind": "header", "format": ' + b"1" * 5000 + b"}\n", "line 1: does not decode: the number 111111111111… has 5000 digits"),
], ids=["deep nesting", "a 5,000-digit integer"])
def test_an_import_that_does_not_decode_is_refused_and_creates_no_store(cli, db_path, tmp_path, content, message):
    trail = tmp_path / "trail.jsonl"
    trail.write_bytes(content)
    refused(cli("import", str(trail)), 3, message)
    assert not db_path.exists()


@pytest.mark.parametrize("args", [
    ["note", "\udcff"],
    ["xp", "award", "Gunnar", "1", "--reason", "bad \udcff byte"],
    ["warband", "add", "\udcffRats", "--player", "Ann"],
], ids=["note", "--reason", "name"])
def test_an_argument_that_is_not_utf8_is_refused(league, db_path, args, store_bytes):
    before = store_bytes()
    refused(league(*args), 2, "is not valid UTF-8 text")
    assert store_bytes() == before


@pytest.mark.parametrize("url, message", [
    ("postgresql://postgres@127.0.0.1:99999/x", "the port must be a number from 1 to 65535"),
    ("postgresql://postgres@127.0.0.1:port/x", "the port must be a number from 1 to 65535"),
    ("sqlite:///no/such/folder/x.db", "folder 'no/such/folder' does not exist"),
    ("mysql://localhost/x", "is not understood"),
])
def test_a_bad_store_url_is_refused(url, message):
    refused(CampaignRunner(url)("log"), 2, message)


def test_an_unforeseen_failure_is_one_error_line_with_its_own_exit_code(cli, monkeypatch):
    from ledger.cli import campaigns

    def broken(*args, **kwargs):
        raise TypeError("a bug")

    monkeypatch.setattr(campaigns.rulesets, "load_rulesets", broken)
    result = CliRunner().invoke(main, ["rulesets"], env={"CAMPAIGN_DEBUG": None})
    assert result.exit_code == 70
    assert result.output.startswith("Error: unexpected failure, a bug in campaign-ledger (TypeError: a bug)")
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_demo_step_that_fails_is_reported_not_passed_over(cli, monkeypatch):
    # click returns (not raises) the exit code of a failed command when not in standalone mode.
    from ledger.cli import demo

    broken = {"name": "Broken Demo", "ruleset": "freeform", "steps": [["xp", "award", "Nobody", "1", "--reason", "x"]]}
    monkeypatch.setattr(demo, "fixture_campaigns", lambda: {"freeform": broken})
    result = cli("demo")
    assert result.exit_code == 3
    assert result.output.endswith("Error: demo step `campaign xp award Nobody 1 --reason x` failed: "
                                  "Error: no fighter 'Nobody'\n"), result.output
