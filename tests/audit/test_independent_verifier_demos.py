"""The independent verifier (tests/independent_verifier.py, written from docs/audit-format.md alone)
re-derives every die and every shuffle of the demo campaigns once their seeds are revealed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ledger.cli.demo import fixture_campaigns
from ledger.testing import CampaignRunner

VERIFIER = Path(__file__).resolve().parent.parent / "independent_verifier.py"


def independent(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True, check=False)


def test_every_demo_campaign_verifies_independently_after_its_seed_is_revealed(tmp_path):
    campaign = CampaignRunner("sqlite:///" + str(tmp_path / "demo.db"))
    assert campaign("demo").exit_code == 0
    names = [fixture["name"] for fixture in fixture_campaigns().values()]
    rederived = shuffles = 0
    for name in names:
        # The demos roll table dice only: each also gets ledger dice and a ledger shuffle to re-derive.
        assert campaign("--campaign", name, "roll", "2D6", "--for", "a ledger roll", "--ledger").exit_code == 0
        drawn = campaign("--campaign", name, "draw", "cards", "--for", "a ledger shuffle", "--ledger")
        assert drawn.exit_code == 0 or "no deck 'cards'" in drawn.output
        assert campaign("--campaign", name, "seed", "reveal").exit_code == 0
        trail = tmp_path / f"{name}.jsonl"
        assert campaign("--campaign", name, "export", "-o", str(trail)).exit_code == 0
        result = independent(trail)
        assert result.returncode == 0, result.stdout
        assert ", 0 awaiting a seed, " in result.stdout
        rederived += int(result.stdout.split(", ")[2].split()[0])
        shuffles += int(result.stdout.split(", ")[-1].split()[0])
    assert rederived >= len(names) and shuffles >= 1


def test_a_shuffle_whose_order_was_forged_is_refused(played, trail):
    lines = trail.lines()
    shuffle = next(line for line in lines if line.get("type") == "deck.shuffled")
    cards = shuffle["payload"]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    # The card drawn next follows the forged order, as a careful forger would make it.
    drawn = next(line for line in lines if line.get("type") == "card.drawn")
    drawn["payload"]["card"] = cards[0]
    trail.write(lines, rehash=True)
    result = independent(trail.path)
    assert result.returncode == 1
    assert result.stdout.startswith(f"FAIL line {shuffle['position'] + 1}: shuffling 'cards' with R2's faces gives ")
    refused = played("import", str(trail.path), store="copy.db")
    assert refused.exit_code == 3  # re-deciding the draw (or a void planned over it) shuffles otherwise
    assert refused.output.endswith("the rules in force at it do not produce the trail's events from its command "
                                   "and dice; nothing imported\n")


@pytest.mark.parametrize("recorded_at", ["garbage", "2026-13-45T99:99:99.000000Z", "2026-01-01T00:00:00Z",
                                         "2026-01-01 00:00:00.000000Z", "2026-01-01T00:00:00.000000+00:00",
                                         "２０２６-01-01T00:00:00.000000Z", "2026-02-30T00:00:00.000000Z"])
def test_a_time_not_written_as_the_format_says_is_refused_by_both_verifiers(played, trail, recorded_at):
    """docs/audit-format.md: `recorded_at` is "UTC time of the transaction, YYYY-MM-DDTHH:MM:SS.ffffffZ";
    one re-hashed over "garbage" verified and imported, and showed in log, exports and void notes."""
    lines = trail.lines()
    lines[3]["recorded_at"] = recorded_at  # position 3, the chain re-hashed over it
    trail.write(lines, rehash=True)
    expected = "line 4: does not decode: 'recorded_at' must be a UTC time written YYYY-MM-DDTHH:MM:SS.ffffffZ"
    verified = played("verify", str(trail.path))
    assert (verified.exit_code, expected in verified.output) == (3, True), verified.output
    assert played("import", str(trail.path), store="copy.db").exit_code == 3
    assert not (played.folder / "copy.db").exists()
    result = independent(trail.path)
    assert (result.returncode, result.stdout) == (1, "FAIL line 4: recorded_at must be YYYY-MM-DDTHH:MM:SS.ffffffZ\n")
