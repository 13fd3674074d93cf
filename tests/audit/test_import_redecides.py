"""`campaign import` re-decides every transaction (issue #7, attack 4): a trail whose chain was
recomputed after a forgery verifies as a chain, but the rules do not produce its events from its
commands and dice, so it is refused, naming the first such transaction, and nothing is written."""

from __future__ import annotations

import json

import pytest

from ledger.keyfile import KEYS_ENV
from ledger.testing import CampaignRunner
from tests.cli.test_answer import R, battle_fought



def event_lines(trail) -> list[dict]:
    return [line for line in trail.lines() if "kind" not in line]


def refused_import(played, trail) -> tuple[int, str]:
    result = played("import", str(trail.path), store="copy.db")
    assert not (played.folder / "copy.db").exists(), result.output
    return result.exit_code, result.output


def test_a_treasury_change_slipped_into_a_transaction_is_refused(played, trail):
    lines = trail.lines()
    enlisted = next(i for i, line in enumerate(lines) if line.get("type") == "warband.enlisted")
    forged = {**lines[enlisted], "type": "treasury.changed",
              "payload": {"warband": "rattenfanger", "delta": -1000000, "reason": "fine"}}
    lines.insert(enlisted + 1, forged)
    for position, line in enumerate((line for line in lines if "kind" not in line), start=1):
        line["position"] = position
    lines[-1]["count"] += 1
    trail.write(lines, rehash=True)
    assert played("verify", str(trail.path)).exit_code == 0  # the chain itself holds
    assert refused_import(played, trail) == (3, (
        "Error: T2: would now produce 2 events instead of 3 — the rules in force at it do not produce the "
        "trail's events from its command and dice; nothing imported\n"
    ))


def test_a_note_appended_without_a_command_is_refused(played, trail):
    lines = trail.lines()
    last = event_lines(trail)[-1]
    lines.insert(-1, {**last, "position": last["position"] + 1, "tx": last["tx"] + 1, "type": "note.recorded",
                      "payload": {"text": "Ann owes Bob 500 crowns"}})
    lines[-1]["count"] += 1
    trail.write(lines, rehash=True)
    assert played("verify", str(trail.path)).exit_code == 0
    assert refused_import(played, trail) == (3, (
        "Error: T11: opens with note.recorded, not with the command.recorded of a command — the rules in force "
        "at it do not produce the trail's events from its command and dice; nothing imported\n"
    ))


@pytest.mark.parametrize(("given", "pinned", "problem"), [
    ({"decks": "ledger"}, {"decks": "physical"}, "pins decks='physical', not the options its command gives"),
    ({"points_cap": True}, {"decks": "ledger", "points_cap": 1}, "pins points_cap=1, not the options its command gives"),
])
def test_a_start_pinning_an_option_other_than_its_command_gave_is_refused(played, trail, given, pinned, problem):
    # `campaign new --option decks=ledger` pinning decks=physical (or true pinned as 1, which Python holds
    # equal), the header saying the same and the chain recomputed, was imported and played under
    lines = trail.lines()
    started = next(line for line in lines if line.get("type") == "command.recorded")
    started["payload"]["args"]["options"] = given
    pinned_event = next(line for line in lines if line.get("type") == "ruleset.pinned")
    pinned_event["payload"]["options"] = lines[0]["ruleset"]["options"] = pinned
    trail.write(lines, rehash=True)
    assert played("verify", str(trail.path)).exit_code == 0  # the chain itself holds
    assert refused_import(played, trail) == (3, (
        f"Error: T1: {problem} — the rules in force at it do not produce the trail's events from its command "
        "and dice; nothing imported\n"))


def test_a_forged_void_that_is_not_what_the_ledger_plans_is_refused(played, trail):
    lines = trail.lines()
    void = next(line for line in lines if line.get("type") == "transaction.voided")
    void["payload"]["target"] = 1  # the campaign's start, which no void may touch
    command = next(line for line in lines if line.get("tx") == void["tx"] and line["type"] == "command.recorded")
    command["payload"]["args"]["target"] = 1
    note = next(line["annotations"]["voided"] for line in lines if line.get("tx") == 3)
    for line in lines:  # the annotations follow the forged void, as a careful forger would make them
        if line.get("tx") == 3:
            del line["annotations"]["voided"]
        if line.get("tx") == 1:
            line["annotations"]["voided"] = note
    trail.write(lines, rehash=True)
    assert refused_import(played, trail) == (3, (
        "Error: T6: voids T1, which the ledger refuses now: T1 (campaign.new) belongs to the ledger itself and "
        "cannot be voided — the rules in force at it do not produce the trail's events from its command and dice; "
        "nothing imported\n"
    ))


def test_an_unrevealed_ledger_die_changed_is_refused_where_its_seed_is_kept(played, trail):
    lines = trail.lines()
    later = next(line for line in lines if line.get("payload", {}).get("purpose") == "later")
    old = later["payload"]["faces"][0]
    new = 1 if old != 1 else 2
    later["payload"]["faces"], later["payload"]["value"] = [new], new
    trail.write(lines, rehash=True)
    assert played("verify", str(trail.path)).exit_code == 0  # epoch 1 is not revealed: no one else can tell yet
    assert refused_import(played, trail) == (3, (
        f"Error: line {later['position'] + 1}: ledger roll R4 shows [{new}], but the seed of epoch 1 kept here "
        f"gives [{old}]; nothing imported\n"
    ))


@pytest.fixture
def explored(tmp_path) -> CampaignRunner:
    """Coreheim: Reikland Rats explored with table dice 3,3,6 and 4 (the chart's follow-up D6)."""
    runner = battle_fought(CampaignRunner("sqlite:///" + str(tmp_path / "c.db")))
    for args in (
        ["coreheim", "explore", R, "--dice", "3,3,6,4"],
        ["correct", R, "Hans", "--xp", "2", "--reason", "forgot his XP last game"],
    ):
        result = runner(*args)
        assert result.exit_code == 0, result.output
    return runner


def rewrite(path, edit) -> None:
    """Edit the event lines of a trail, then recompute every hash as a careful forger would."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    edit(lines)
    prev = "0" * 64
    from hashlib import sha256
    for line in lines:
        if "kind" not in line:
            line["prev_hash"] = prev
            record = {k: line[k] for k in ("position", "type", "recorded_at", "actor", "tx", "payload", "prev_hash")}
            line["hash"] = prev = sha256(json.dumps(record, sort_keys=True, separators=(",", ":"),
                                                    ensure_ascii=False).encode()).hexdigest()
        elif line["kind"] == "trailer":
            line["head"] = prev
    path.write_text("".join(json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
                            for line in lines), encoding="utf-8")


def test_a_table_die_changed_from_4_to_6_is_refused(explored, tmp_path):
    trail = tmp_path / "trail.jsonl"
    explored("export", "-o", str(trail))

    def four_to_six(lines):
        follow_up = next(line for line in lines if line.get("type") == "dice.rolled" and line["payload"]["faces"] == [4])
        follow_up["payload"]["faces"], follow_up["payload"]["value"] = [6], 6

    rewrite(trail, four_to_six)
    assert explored("verify", str(trail)).exit_code == 0
    result = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))("import", str(trail))
    assert result.exit_code == 3
    assert result.output.startswith("Error: T8: event ")
    assert result.output.endswith("— the rules in force at it do not produce the trail's events from its command "
                                  "and dice; nothing imported\n")
    assert not (tmp_path / "copy.db").exists()


def test_an_honest_trail_with_an_arbiter_correction_imports_as_commands(explored, tmp_path, monkeypatch):
    trail = tmp_path / "trail.jsonl"
    explored("export", "-o", str(trail))
    monkeypatch.setenv(KEYS_ENV, str(tmp_path / "elsewhere.json"))
    copy = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))
    assert copy("import", str(trail)).exit_code == 0
    assert copy("replay", "--check").output == "Re-decided 8 transactions from their commands and dice: all match.\n"
    assert copy("show", "--json").output == explored("show", "--json").output
