"""A pending decision stores the question its command asked after its dice (DecisionPending: the answer
key, the choices, the question as worded). Re-deciding a history (`campaign import`, `replay --check`)
decides the pending command again with its recorded dice and compares: a trail whose pending roll was
forged to other faces a die can show, and rehashed, offers choices or shows numbers the dice no longer
give, and is refused. So is one whose pending decision holds up a warband its command does not concern
alone (DecisionPending's `warband`: that warband's commands wait, the others go on). So is one whose ledger roll was relabelled as table dice: the ledger stores a
decision pending only after drawing ledger dice (or cards), so with table dice its command would not
have stopped there.

The honest trails are the golden ones (tests/golden/pending-*.jsonl), each of which imports."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from ledger.testing import CampaignRunner

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
# Exploration of the Reikland Rats, T8: R0, 7D6 rolled by the ledger, asks which 6 count.
COREHEIM = "pending-coreheim-explore-open.jsonl"
COREHEIM_ROLLED = [3, 5, 5, 5, 2, 5, 4]
# Exploration of the Pilgrims, T12: R2, 3D6 rolled by the ledger, asks which die to re-roll (the
# choices are the dice's positions, whatever they show; the question shows the dice).
TRENCH = "pending-trench-crusade-exploration-open.jsonl"
TRENCH_ROLLED = [3, 6, 5]


def as_table_dice(rolled: list[int], faces: list[int]) -> Callable[[dict], None]:
    """An edit of the pending roll: `faces` typed in at the table (no epoch)."""

    def edit(payload: dict) -> None:
        assert payload["faces"] == rolled
        payload.update(faces=faces, value=sum(faces), source="table")
        payload.pop("epoch")

    return edit


def forged(golden: str, tx: int, edit: Callable[[dict], None], tmp_path: Path, trail_at, event_type: str = "dice.rolled") -> Path:
    """The golden trail with transaction `tx`'s roll (or other event) edited and every hash after it recomputed."""
    trail = trail_at(tmp_path / golden)
    trail.path.write_bytes((GOLDEN / golden).read_bytes())
    lines = trail.lines()
    (payload,) = [line["payload"] for line in lines if line.get("type") == event_type and line["tx"] == tx]
    edit(payload)
    trail.write(lines, rehash=True)
    return trail.path


COREHEIM_CHOICES = "keep=5,5,5,5,4,3|5,5,5,5,4,2|5,5,5,5,3,2|5,5,5,4,3,2"
FORGERIES = [
    pytest.param(COREHEIM, 8, as_table_dice(COREHEIM_ROLLED, [3, 5, 5, 5, 2, 5, 6]), (
        f"T8: its stored question offers {COREHEIM_CHOICES}, but deciding it again with its recorded dice offers "
        "keep=6,5,5,5,5,3|6,5,5,5,5,2|6,5,5,5,3,2|5,5,5,5,3,2"), id="a choice's die changed"),
    pytest.param(TRENCH, 12, as_table_dice(TRENCH_ROLLED, [3, 2, 5]), (
        "T12: its stored question reads “Exploration dice [3, 6, 5]: re-roll which die? (2 re-roll(s) left)”, but "
        "deciding it again with its recorded dice reads “Exploration dice [3, 2, 5]: re-roll which die? (2 re-roll(s) "
        "left)”"), id="a die the question shows changed"),
    pytest.param(COREHEIM, 8, as_table_dice(COREHEIM_ROLLED, COREHEIM_ROLLED), (
        "T8: stored pending, but its command, decided again with its recorded dice, draws no ledger die or card "
        "before it stops: only those make the ledger store a decision pending (a ledger roll relabelled as table "
        "dice?)"), id="the ledger roll relabelled as table dice"),
]


@pytest.mark.parametrize(("golden", "tx", "edit", "problem"), FORGERIES)
def test_a_trail_whose_pending_roll_was_forged_is_not_imported(tmp_path, trail_at, golden, tx, edit, problem):
    # Given a golden trail whose pending roll was edited, the chain recomputed
    trail = forged(golden, tx, edit, tmp_path, trail_at)
    # When it is imported
    result = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))("import", str(trail))
    # Then it is refused, naming the transaction and what differs, and nothing is written
    assert (result.exit_code, result.output) == (3, (
        f"Error: {problem} — the rules in force at it do not produce the trail's events from its command and dice; "
        "nothing imported\n"))
    assert not (tmp_path / "copy.db").exists()


@pytest.mark.parametrize(("golden", "tx", "edit", "problem"), FORGERIES)
def test_replay_check_refuses_a_store_whose_pending_roll_was_forged(tmp_path, trail_at, database_at, golden, tx, edit,
                                                                   problem):
    # Given the golden campaign imported, then its pending roll forged in the database, every later hash recomputed
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    assert runner("import", str(GOLDEN / golden)).exit_code == 0
    (position,) = [line["position"] for line in trail_at(GOLDEN / golden).lines()
                   if line.get("type") == "dice.rolled" and line["tx"] == tx]
    database_at(tmp_path / "c.db").forge(position, edit)
    # When the history is re-decided
    result = runner("replay", "--check")
    # Then the pending decision is named with what differs
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == problem


def worded_with_the_dice_to_choose_from(pending: dict) -> None:
    """The Pilgrims' question as a ledger might have worded it, with a number more: the dice it shows are the same."""
    assert pending["prompt"] == "Exploration dice [3, 6, 5]: re-roll which die? (2 re-roll(s) left)"
    pending["prompt"] = "Exploration dice [3, 6, 5]: re-roll which die (1-3)? (2 re-roll(s) left)"


def test_a_question_worded_otherwise_imports_whatever_numbers_its_wording_shows(tmp_path, trail_at):
    # Given a trail whose pending question was worded otherwise when it was stored, with numbers today's does not show
    trail = forged(TRENCH, 12, worded_with_the_dice_to_choose_from, tmp_path, trail_at, "decision.pending")
    # When it is imported, then it is: what its dice decide (its key and choices) is the same
    result = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))("import", str(trail))
    assert result.exit_code == 0, result.output


def held_up_for_clan_skrit(pending: dict) -> None:
    """The Reikland Rats' pending exploration made to hold up Clan Skrit instead: the Rats' commands would go on."""
    assert pending["warband"] == "reikland-rats"
    pending["warband"] = "clan-skrit"


def test_a_pending_decision_forged_to_hold_up_another_warband_is_not_imported(tmp_path, trail_at):
    # Given the golden trail whose pending decision names another warband as the one it holds up, rehashed
    trail = forged(COREHEIM, 8, held_up_for_clan_skrit, tmp_path, trail_at, "decision.pending")
    # When it is imported
    result = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))("import", str(trail))
    # Then it is refused, naming the transaction and both warbands, and nothing is written
    assert (result.exit_code, result.output) == (3, (
        "Error: T8: its stored decision holds up Clan Skrit alone, but its command concerns Reikland Rats, so that is "
        "what the ledger holds up for it — the rules in force at it do not produce the trail's events from its command "
        "and dice; nothing imported\n"))
    assert not (tmp_path / "copy.db").exists()


def test_replay_check_refuses_a_store_whose_pending_decision_holds_up_another_warband(tmp_path, trail_at, database_at):
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    assert runner("import", str(GOLDEN / COREHEIM)).exit_code == 0
    (position,) = [line["position"] for line in trail_at(GOLDEN / COREHEIM).lines() if line.get("type") == "decision.pending"]
    database_at(tmp_path / "c.db").forge(position, held_up_for_clan_skrit)
    result = runner("replay", "--check")
    assert (result.exit_code, result.output.splitlines()[0]) == (1, (
        "T8: its stored decision holds up Clan Skrit alone, but its command concerns Reikland Rats, so that is what the "
        "ledger holds up for it"))


@pytest.mark.parametrize("golden", sorted(path.name for path in GOLDEN.glob("*pending-*.jsonl")))
def test_an_honest_trail_with_pending_decisions_imports(tmp_path, golden):
    # Given a golden trail holding pending decisions, when it is imported, then it is, and its history checks
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    imported = runner("import", str(GOLDEN / golden))
    assert imported.exit_code == 0, imported.output
    checked = runner("replay", "--check")
    assert (checked.exit_code, checked.output.endswith("all match.\n")) == (0, True)
