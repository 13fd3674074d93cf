"""The dice of a pending transaction (a command stopped half-way after drawing its dice, waiting for
`campaign answer` or a void) are checked like any recorded roll's: a pending transaction is never
decided again itself, and its command, decided again with its dice, may stop where they are asked
for whatever they show, so only the check of every recorded roll on its own (its faces possible
for its expression, its value what they count to) sees a forged one. Here its roll is rewritten as
table dice (faces typed in, which no seed re-derives) and every later hash recomputed, as a careful
forger would: `campaign import` of such a trail, and `replay --check` of such a store, refuse it.

Faces a die can show, though not the ones rolled, cannot be refused on their own: the ledger never knew
a table die's real faces. Where the pending decision tells them (its stored question, or a ledger roll
made table dice), test_pending_question_forgeries refuses them."""

from __future__ import annotations

import json
import uuid
from types import SimpleNamespace

import pytest

from ledger import campaigns
from ledger.testing import CampaignRunner
from tests.cli.test_answer import CAMPAIGN_ID, R, battle_fought

# With CAMPAIGN_ID and the runner's fixed seed, T8's exploration rolls R0, 7D6 showing these
# (at position 28, line 29 of the trail), and stops pending: which 6 dice count?
ROLLED = [3, 1, 1, 6, 6, 5, 2]
IMPOSSIBLE = [
    pytest.param([3, 1, 1, 6, 9, 5, 2], "faces [3, 1, 1, 6, 9, 5, 2] cannot come from 7D6", id="a 9 on a D6"),
    pytest.param([3, 1, 1, 6, 0, 5, 2], "faces [3, 1, 1, 6, 0, 5, 2] cannot come from 7D6", id="a 0"),
    pytest.param([3, 1, 1, 6, 6, 5], "faces [3, 1, 1, 6, 6, 5] cannot come from 7D6", id="six faces for 7D6"),
]


@pytest.fixture
def pending(tmp_path, monkeypatch) -> CampaignRunner:
    """Battle 1 recorded, then T8: the Reikland Rats' exploration, pending with its dice."""
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID(CAMPAIGN_ID), UUID=uuid.UUID))
    runner = battle_fought(CampaignRunner("sqlite:///" + str(tmp_path / "c.db")))
    stopped = runner("coreheim", "explore", R, "--extra-dice", "4", "--ledger")
    assert stopped.exit_code == 1 and "T8 is pending" in stopped.output
    return runner


def as_table_dice(faces: list[int], value: int = 24):
    """An edit of the pending roll: these faces, typed in at the table (no epoch)."""

    def edit(payload: dict) -> None:
        assert payload["faces"] == ROLLED
        payload.update(faces=faces, value=value, source="table")
        payload.pop("epoch")

    return edit


def forged_trail(pending, tmp_path, trail_at, edit):
    trail = trail_at(tmp_path / "trail.jsonl")
    assert pending("export", "-o", str(trail.path)).exit_code == 0
    lines = trail.lines()
    edit(next(line["payload"] for line in lines if line.get("type") == "dice.rolled" and line["tx"] == 8))
    trail.write(lines, rehash=True)
    return trail


@pytest.mark.parametrize(("faces", "problem"), IMPOSSIBLE)
def test_a_trail_whose_pending_table_dice_no_die_shows_is_not_imported(pending, tmp_path, trail_at, faces, problem):
    # Given the trail with the pending roll's faces forged and the chain recomputed
    trail = forged_trail(pending, tmp_path, trail_at, as_table_dice(faces))
    # When it is imported
    result = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))("import", str(trail.path))
    # Then it is refused at the roll's line, naming its faces, and nothing is written
    assert (result.exit_code, result.output) == (3, f"Error: line 29: roll R0: {problem}\n")
    assert not (tmp_path / "copy.db").exists()


@pytest.mark.parametrize(("faces", "problem"), IMPOSSIBLE)
def test_replay_check_refuses_a_store_whose_pending_table_dice_no_die_shows(pending, tmp_path, database_at, faces,
                                                                            problem):
    # Given the store's pending roll forged in the database, every later hash recomputed
    database_at(tmp_path / "c.db").forge(28, as_table_dice(faces))
    # When the history is re-decided
    result = pending("replay", "--check")
    # Then the roll is named by its event, with its faces (it was "all match", exit 0)
    assert (result.exit_code, result.output) == (1, (
        f"T8: E28 roll R0: {problem}\n"
        "Re-decided 6 transactions from their commands and dice: 1 differ.\n"))


def test_replay_check_refuses_pending_dice_that_do_not_count_to_their_value(pending, tmp_path, database_at):
    # Given the pending roll's faces raised to seven 6s, its value left as it was
    database_at(tmp_path / "c.db").forge(28, as_table_dice([6] * 7))
    # When the history is re-decided, then the roll's count is named
    result = pending("replay", "--check")
    assert (result.exit_code, result.output) == (1, (
        "T8: E28 roll R0: 7D6 showing [6, 6, 6, 6, 6, 6, 6] counts as 42 (kept []), not 24 (kept [])\n"
        "Re-decided 6 transactions from their commands and dice: 1 differ.\n"))


def test_replay_check_refuses_a_decided_roll_no_die_shows_though_the_rules_decide_it_alike(tmp_path, database_at):
    # Given a table roll of 2D6 forged to show a 9, its value made to match: the roll command decides
    # the same events from those faces
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    assert runner("new", "Alpha").exit_code == 0
    assert runner("roll", "2D6", "--for", "injury", "--dice", "3,5").exit_code == 0
    rolled = [row["position"] for row in json.loads(runner("log", "--json").output) if row["type"] == "dice.rolled"]

    def nine(payload: dict) -> None:
        payload.update(faces=[3, 9], value=12)

    database_at(tmp_path / "c.db").forge(rolled[0], nine)
    # When the history is re-decided, then the same check names it
    result = runner("replay", "--check")
    assert (result.exit_code, result.output) == (1, (
        f"T2: E{rolled[0]} roll R0: faces [3, 9] cannot come from 2D6\n"
        "Re-decided 0 transactions from their commands and dice: 1 differ.\n"))
