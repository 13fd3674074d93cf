"""`campaign verify NEW.jsonl --extends OLD.jsonl` proves an append-only history between two exports
(issue #7, "What must hold" 5), and `campaign log` shows the head after each battle to note."""

from __future__ import annotations

import json

from ledger.testing import CampaignRunner


def newer_trail(played, trail, tmp_path):
    """The played campaign exported again after one more roll, as a TrailFile."""
    assert played("roll", "D6", "--for", "after the export", "--dice", "4").exit_code == 0
    newer = type(trail)(tmp_path / "newer.jsonl")
    assert played("export", "-o", str(newer.path)).exit_code == 0
    return newer


def test_a_later_export_extends_an_earlier_one(played, trail, tmp_path):
    newer = newer_trail(played, trail, tmp_path)
    result = played("verify", str(newer.path), "--extends", str(trail.path))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-2] == (
        f"Extends {trail.path}: its 25 events are the first 25 here; 2 events added since."
    )
    stored = played("verify", "--extends", str(trail.path), "--json")
    assert json.loads(stored.output)["extends"] == {"trail": str(trail.path), "events": 25, "added": 2}


def test_a_chain_recomputed_from_an_early_position_fails_there(played, trail, tmp_path):
    newer = newer_trail(played, trail, tmp_path)
    lines = newer.lines()
    enlisted = next(line for line in lines if line.get("type") == "warband.enlisted")
    enlisted["payload"]["treasury"] = 1000
    newer.write(lines, rehash=True)
    assert played("verify", str(newer.path)).exit_code == 0  # on its own the recomputed chain holds
    result = played("verify", str(newer.path), "--extends", str(trail.path))
    assert (result.exit_code, result.output) == (3, (
        f"Error: position {enlisted['position']}: differs from {trail.path} (line {enlisted['position'] + 1} here, "
        f"line {enlisted['position'] + 1} there): the history was rewritten from there on, not extended\n"
    ))


def test_an_older_trail_is_not_extended_by_a_shorter_one(played, trail, tmp_path):
    newer = newer_trail(played, trail, tmp_path)
    result = played("verify", str(trail.path), "--extends", str(newer.path))
    assert (result.exit_code, result.output) == (3, (
        f"Error: position 26: {newer.path} goes on to position 27; events were removed since, not added\n"
    ))


def test_a_damaged_trail_of_the_two_is_named(played, trail, tmp_path):
    newer = newer_trail(played, trail, tmp_path)
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"".join(trail.path.read_bytes().splitlines(keepends=True)[:20]))
    expected = f"Error: {cut}: line 21: the trailer line is missing (the trail was cut short)\n"
    for args in ([str(newer.path), "--extends", str(cut)], [str(cut), "--extends", str(newer.path)]):
        result = played("verify", *args)
        assert (result.exit_code, result.output) == (3, expected)


def test_the_log_shows_the_head_after_each_battle(tmp_path):
    campaign = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (["new", "League"], ["warband", "add", "Rats", "--player", "Ann"],
                 ["warband", "add", "Skaven", "--player", "Bob"],
                 ["battle", "record", "--warband", "Rats", "--warband", "Skaven", "--winner", "Rats"],
                 ["note", "a long night in the tavern"],
                 ["battle", "record", "--warband", "Rats", "--warband", "Skaven", "--winner", "Skaven"]):
        assert campaign(*args).exit_code == 0
    after_first = json.loads(campaign("replay", "--battle", "1", "--json").output)["head"]
    lines = campaign("log").output.splitlines()
    noted = lines.index(f"      Head after battle 1: {after_first}")
    assert "note: a long night in the tavern" in lines[noted - 1]
    assert "battle 2" in lines[noted + 1]
    assert campaign("verify", "--head", after_first[:12]).output.splitlines()[-2] == (
        "Head noted at position 12; 2 events were added since."
    )
