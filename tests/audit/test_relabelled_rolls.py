"""A ledger roll relabelled as table dice, or given another purpose, in a trail rehashed to its end: nothing
in the trail binds a roll's source or purpose (a ledger die is derived from the campaign id, the roll's
number, the die and the attempt alone, docs/audit-format.md, Ledger dice), so `verify FILE` passes it and
says what it cannot check; a head noted earlier or an earlier export catches it."""

from __future__ import annotations


def relabelled(trail) -> None:
    """R3 (epoch 0, revealed) and R4 (epoch 1, not yet) made table dice that rolled 6, R4 rolled "for" another
    purpose, its command too, every hash recomputed."""
    lines = trail.lines()
    for line in lines:
        payload = line.get("payload", {})
        if line.get("type") == "dice.rolled" and payload["roll"] in (3, 4):
            payload.pop("epoch")
            payload.update(source="table", faces=[6], value=6)
        if (line.get("type") == "dice.rolled" and payload["roll"] == 4) or payload.get("args", {}).get("purpose") == "later":
            (payload["args"] if "args" in payload else payload)["purpose"] = "Ann's treasure"
    trail.write(lines, rehash=True)


def test_a_relabelled_ledger_roll_verifies_and_verify_says_what_a_trail_cannot_show(played, trail, campaign_id):
    relabelled(trail)
    result = played("verify", str(trail.path))
    assert (result.exit_code, result.output.splitlines()[:3]) == (0, [
        f"Hash chain intact: {trail.path}, campaign Demo ({campaign_id}), 25 events in 10 transactions.",
        "Ledger dice: 2 rolls re-derived from the revealed seed of epoch 0.",
        "Not checked (no trail can show it): what a person typed (commands, answers, table dice), that a roll shown "
        "as table dice was not the ledger's, what each roll was for (a ledger die is derived from its roll's number "
        "alone), and that no event was cut off the end; rewritten so and rehashed, a trail has another head: check it "
        "against a head noted earlier (--head HASH) or an earlier export (--extends OLD.jsonl)."])
    # import re-decides every transaction: the rules give the same events from the rewritten command and dice
    imported = played("import", str(trail.path), store="other.db")
    assert (imported.exit_code, played.show("other.db")["head"]) == (0, trail.lines()[-1]["head"]), imported.output


def test_a_relabelled_ledger_roll_is_caught_by_the_head_noted_or_the_export_made_before(played, trail, tmp_path):
    noted = played.show()["head"]
    earlier = tmp_path / "earlier.jsonl"
    earlier.write_bytes(trail.path.read_bytes())
    relabelled(trail)
    result = played("verify", str(trail.path), "--head", noted)
    assert (result.exit_code, result.output) == (3, (
        f"Error: the noted head {noted} is not in this chain: the history it ended was changed (unless it was noted "
        "wrong, or is another campaign's)\n"))
    result = played("verify", str(trail.path), "--extends", str(earlier))
    assert (result.exit_code, result.output) == (3, (
        f"Error: position 20: differs from {earlier} (line 21 here, line 21 there): the history was rewritten from "
        "there on, not extended\n"))
