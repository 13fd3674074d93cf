"""Bad input: each gets a one-line `Error: …` naming what is wrong, a non-zero exit, never a
traceback, and leaves the store byte-for-byte unchanged (no file created where there was none)."""

from __future__ import annotations

import json
import os

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
    "wrong type": (b'{"dice": 7}', "freeform option dice: Expected `str`, got `int` (one of: table, ledger)"),
    "huge size": (b'{"x": "' + b"a" * 1_000_001 + b'"}', "larger than 1,000,000 bytes"),
}


@pytest.mark.parametrize("content, message", HOUSE_RULE_FILES.values(), ids=HOUSE_RULE_FILES.keys())
def test_a_bad_options_file_is_refused_and_creates_no_store(cli, db_path, tmp_path, content, message):
    house = tmp_path / "house.json"
    house.write_bytes(content)
    refused(cli("new", "Spring", "--options-file", str(house)), 2, message)
    assert not db_path.exists()


def test_a_bad_option_is_refused_and_creates_no_store(cli, db_path):
    refused(cli("new", "Spring", "--option", "dice=bogus"), 2, "freeform option dice: Invalid enum value 'bogus'")
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


# --- house-rule tables ---------------------------------------------------------------------------------


def hero_injury(change) -> bytes:
    from importlib import resources

    table = json.loads((resources.files("commands.coreheim") / "data" / "hero_injury.json").read_text(encoding="utf-8"))
    change(table["rows"])
    return json.dumps({"tables": {"hero_injury": table}}).encode()


@pytest.mark.parametrize("content, message", [
    (hero_injury(lambda rows: rows.pop(1)), "Error: hero_injury: rows must cover each D66 value 11-66 exactly once\n"),
    (hero_injury(lambda rows: rows[1].update(d66=[14, 15])), "Error: hero_injury: rows must cover each D66 value 11-66 exactly once\n"),
    (hero_injury(lambda rows: rows[1].update(d66="15")),
     "Error: Coreheim table 'hero_injury' is invalid: Expected `array`, got `str` - at `$.rows[1].d66`\n"),
], ids=["a range missing", "ranges overlapping", "a wrong type"])
def test_a_bad_house_rule_table_is_refused_and_creates_no_store(cli, db_path, tmp_path, content, message):
    house = tmp_path / "house.json"
    house.write_bytes(content)
    result = cli("new", "Feud", "--ruleset", "coreheim", "--options-file", str(house))
    assert (result.exit_code, result.output) == (2, message)
    assert not db_path.exists()


# --- import files ----------------------------------------------------------------------------------------


def trail_lines(league, tmp_path) -> list[dict]:
    exported = tmp_path / "good.jsonl"
    assert league("export", "-o", str(exported)).exit_code == 0
    return [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]


def as_bytes(lines: list[dict]) -> bytes:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines).encode()


def edited(change):
    def edit(lines: list[dict]) -> bytes:
        change(lines)
        return as_bytes(lines)
    return edit


IMPORT_DEFECTS = {
    "empty": (lambda lines: b"", 2, "Error: the trail is empty"),
    "truncated": (lambda lines: as_bytes(lines)[:-40], 3, "Error: line "),
    "not UTF-8": (lambda lines: as_bytes(lines).replace(b'Reikland', b'Reik\xffland', 1), 3, "does not decode: not UTF-8 text"),
    "not JSON": (lambda lines: b"hello\n", 3, "Error: line 1: does not decode: Expecting value"),
    "a key twice": (lambda lines: as_bytes(lines).replace(b'{"actor":', b'{"actor": "x", "actor":', 1), 3, "appears twice"),
    "NaN": (lambda lines: as_bytes(lines).replace(b'"treasury": 500', b'"treasury": NaN', 1), 3, "NaN is not an integer"),
    "a huge number": (lambda lines: as_bytes(lines).replace(b'"treasury": 500', b'"treasury": 1' + b"0" * 30, 1), 3, "digits; too large"),
    "deep nesting": (lambda lines: b"[" * 50_000 + b"\n", 3, "nested too deeply"),
    "deep nesting in an event line": (lambda lines: as_bytes(lines).replace(
        b'"payload": {', b'"payload": {"x": ' + b"[" * 200_000 + b"]" * 200_000 + b", ", 1), 3,
        "Error: line 2: does not decode: nested too deeply"),
    "a wrong type": (edited(lambda lines: lines[6]["payload"].update(treasury="500")), 3, "Error: line 7: "),
    "an unknown event type": (edited(lambda lines: lines[6].update(type="no.such.event")), 3, "Error: line 7: "),
    "a future format version": (edited(lambda lines: lines[0].update(format=99)), 3, "Error: line 1: "),
    "a gap in positions": (edited(lambda lines: lines.pop(5)), 3, "where position 5 was expected"),
    "a repeated position": (edited(lambda lines: lines.insert(5, lines[5])), 3, "Error: line 7: "),
}


@pytest.mark.parametrize("defect, code, message", IMPORT_DEFECTS.values(), ids=IMPORT_DEFECTS.keys())
def test_a_defective_import_file_is_refused_and_changes_nothing(league, tmp_path, defect, code, message):
    trail = tmp_path / "trail.jsonl"
    trail.write_bytes(defect(trail_lines(league, tmp_path)))
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    result = CampaignRunner(f"sqlite:///{fresh / 'copy.db'}")("import", str(trail))
    refused(result, code, message)
    assert list(fresh.iterdir()) == []  # no file created where there was none


# --- commands refused: the store unchanged ------------------------------------------------------------


@pytest.mark.parametrize("args, code, message", [
    (["xp", "award", "Nobody", "1", "--reason", "x"], 2, "Error: no fighter 'Nobody'"),
    (["warband", "show", "Nobody"], 2, "Error: no warband 'Nobody'"),
    (["roll", "2D6", "--for", "x", "--dice", "3,7"], 2, "Error: "),
    (["roll", "2D6", "--for", "x", "--dice", "3"], 2, "Error: "),
    (["roll", "9999D6", "--for", "x", "--ledger"], 2, "Error: "),
    (["xp", "spend", "Gunnar", "50", "--on", "WS"], 1, "Error: Gunnar has 0 XP"),
    (["xp", "award", "Gunnar", "lots", "--reason", "x"], 2, "Error: Invalid value for 'AMOUNT'"),
    (["void", "T999", "--reason", "x"], 2, "Error: "),
    (["reroll", "R0", "--reason", "x"], 2, "Error: "),
    (["warband", "add", "Reikland Rats", "--player", "Ann"], 2, "Error: "),
    (["--campaign", "Nope", "log"], 2, "Error: no campaign 'Nope'"),
    (["treasury", "Reikland Rats", "9007199254740993", "--reason", "x"], 2, "too large"),
])
def test_a_refused_command_leaves_the_store_byte_for_byte_unchanged(league, store_bytes, args, code, message):
    before = store_bytes()
    refused(league(*args), code, message)
    assert store_bytes() == before


def test_a_real_process_given_a_byte_that_is_not_utf8_says_so(league, processes, store_bytes):
    # As typed in a shell: campaign note "$(printf '\xff')" (Python hands the byte over as U+DCFF).
    before = store_bytes()
    code, out, err = processes.run("--store", league.store, "note", os.fsdecode(b"\xff"))
    assert (code, out, err) == (2, "", "Error: argument '\\udcff' is not valid UTF-8 text\n")
    assert store_bytes() == before


def test_a_bug_while_starting_a_campaign_leaves_no_file_either(cli, db_path, monkeypatch):
    from ledger.campaigns import Ledger

    def broken(*args, **kwargs):
        raise KeyError("a bug")

    monkeypatch.setattr(Ledger, "start", broken)
    result = CliRunner().invoke(main, ["--store", cli.store, "new", "Spring"], env={"CAMPAIGN_DEBUG": None})
    assert result.exit_code == 70 and result.output.startswith("Error: unexpected failure, a bug")
    assert not db_path.exists()
