"""A roll's `copy_of` is checked as docs/audit-format.md says, by `campaign verify` and by the independent
verifier alike: forged copies that passed both (and import, and replay --check), each rehashed as a careful
forger would, are refused. A copy is only in a transaction that decides again one that a reroll, a cascade
or an answer handed back, and each recorded roll is handed back once."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from commands.shared import SHARED_HANDLERS
from ledger import events as ev
from ledger.campaigns import Ledger
from ledger.decide import Command, Context
from ledger.errors import LedgerError
from ledger.rulesets import Ruleset, register
from ledger.store import Store

VERIFIER = Path(__file__).resolve().parent.parent / "independent_verifier.py"
RECORD_KEYS = ("position", "type", "recorded_at", "actor", "tx", "payload", "prev_hash")


class ThreeLooks(Command, frozen=True, kw_only=True, tag="test-copies.look"):
    """Three rolls of one purpose: a reroll of the last hands the first two back as copies."""


def look(cmd: ThreeLooks, ctx: Context) -> None:
    found = sum(ctx.roll("D6", purpose="look").value for _ in range(3))
    ctx.emit(ev.NoteRecorded(text=f"found {found}"))


class LookThenAsk(Command, frozen=True, kw_only=True, tag="test-copies.look-then-ask"):
    """A roll, then a question: with ledger dice and no answer it is stored pending."""


def look_then_ask(cmd: LookThenAsk, ctx: Context) -> None:
    ctx.roll("D6", purpose="look")
    ctx.emit(ev.NoteRecorded(text=f"went {ctx.choose('way', 'which way', ['left', 'right'])}"))


register(Ruleset(id="test-copies", version="1", title="three looks",
                 handlers={**SHARED_HANDLERS, ThreeLooks: look, LookThenAsk: look_then_ask}))


def exported(cli, *commands: list[str]) -> list[dict]:
    for args in commands:
        result = cli(*args)
        assert result.exit_code == 0, (args, result.output)
    path = cli.folder / "trail.jsonl"
    assert cli("export", "-o", str(path), "--force").exit_code == 0
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def forged(cli, lines: list[dict]) -> Path:
    """The lines with their positions, hashes and trailer made whole again."""
    prev_hash = "0" * 64
    events = [line for line in lines if "kind" not in line]
    for position, line in enumerate(events, start=1):
        line["position"], line["prev_hash"] = position, prev_hash
        text = json.dumps({key: line[key] for key in RECORD_KEYS}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        line["hash"] = prev_hash = hashlib.sha256(text.encode("utf-8")).hexdigest()
    lines[-1].update(count=len(events), head=prev_hash)
    path = cli.folder / "forged.jsonl"
    path.write_text("".join(json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
                            for line in lines), encoding="utf-8")
    return path


def refused_by_both(cli, path: Path, problem: str) -> None:
    result = cli("verify", str(path))
    assert (result.exit_code, result.output.split(": ", 2)[-1]) == (3, problem + "\n")
    line = result.output.split(":")[1].strip()
    other = subprocess.run([sys.executable, "-I", "-S", str(VERIFIER), str(path)], capture_output=True, text=True)
    assert (other.returncode, other.stdout.split(":")[0]) == (1, f"FAIL {line}")


def rolls(lines: list[dict]) -> list[dict]:
    return [line["payload"] for line in lines if line.get("type") == "dice.rolled"]


def test_a_roll_after_a_plain_void_may_not_copy_the_voided_roll(cli):
    # A plain void decides its target again nowhere: the next command's fresh die copying the voided one
    # (its faces, "a copy") passed every check
    lines = exported(cli, ["new", "Alpha"], ["roll", "D20", "--for", "loot", "--ledger"], ["void", "T2", "--reason", "x"],
                     ["roll", "D20", "--for", "loot", "--ledger"])
    first, second = rolls(lines)
    second.update(faces=first["faces"], value=first["value"], copy_of=0)
    refused_by_both(cli, forged(cli, lines), "roll R1 copies R0, but T4 decides no transaction holding it again: only "
                                             "the transactions right after a void, reroll or answer keep dice")


def test_an_answer_of_a_decision_never_pending_is_refused(cli):
    lines = exported(cli, ["new", "Bravo"], ["roll", "D20", "--for", "loot", "--ledger"], ["roll", "D20", "--for", "loot", "--ledger"])
    at = next(i for i, line in enumerate(lines) if line.get("tx") == 3)
    for line in lines[at:-1]:
        line["tx"] += 1
    answer = {**lines[at], "tx": 3, "type": "command.recorded", "payload": {"command": "answer", "args": {"target": 2, "answers": {}}}}
    lines[at:at] = [answer, {**answer, "type": "decision.answered", "payload": {"target": 2}}]
    first, second = rolls(lines)
    second.update(faces=first["faces"], value=first["value"], copy_of=0)
    refused_by_both(cli, forged(cli, lines), "answers T2, which is no pending decision")


def test_a_roll_handed_back_twice_is_refused(cli, tmp_path):
    # Given three looks (R0-R2) and a reroll of the last: R3 and R4 copy R0 and R1, R5 is new
    cli("new", "Looks", "--ruleset", "test-copies")
    store = Store(cli.url())
    ledger = Ledger(store)
    ledger.execute(ledger.find(None), ThreeLooks(), actor="arbiter")
    store.close()
    lines = exported(cli, ["reroll", "R2", "--reason", "cocked die", "--ledger"])
    looks = rolls(lines)
    assert [(r["roll"], r.get("copy_of")) for r in looks] == [(0, None), (1, None), (2, None), (3, 0), (4, 1), (5, None)]
    # When R4 copies R0 as well (the better die, twice), the decision's events rewritten to match
    looks[4].update(faces=looks[0]["faces"], value=looks[0]["value"], copy_of=0)
    refused_by_both(cli, forged(cli, lines), "roll R4 copies R0 again: a roll is handed back once")


def test_an_answer_of_a_voided_pending_decision_is_refused(cli):
    # Given T2 stored pending (its ledger die R0) and answered (T3, its decision again in T4)
    cli("new", "Looks", "--ruleset", "test-copies")
    store = Store(cli.url())
    ledger = Ledger(store)
    campaign = ledger.find(None)
    try:
        ledger.execute(campaign, LookThenAsk(), actor="arbiter")
    except LedgerError:
        pass  # stored pending
    ledger.answer(campaign, {"way": "left"}, actor="arbiter")
    store.close()
    lines = exported(cli)
    # When a void of T2 is slipped in before its answer (the ledger refuses that answer: no pending decision)
    at = next(i for i, line in enumerate(lines) if line.get("tx") == 3)
    for line in lines[at:-1]:
        line["tx"] += 1
    void = {**lines[at], "tx": 3, "type": "command.recorded",
            "payload": {"command": "void", "args": {"target": 2, "cascade": False}, "reason": "x"}}
    lines[at:at] = [void, {**void, "type": "transaction.voided", "payload": {"target": 2, "reason": "x"}}]
    for line in lines[1:-1]:
        line["annotations"] = {"voided": {"reason": "x", "voided_at": void["recorded_at"], "voided_by": 3,
                                          "voided_by_actor": void["actor"]}} if line["tx"] == 2 else {}
    refused_by_both(cli, forged(cli, lines), "answers T2, which is no pending decision")


def looked_then_asked(cli, *before: Command) -> None:
    """The campaign Looks: the commands `before` recorded, then a look stored pending at its question (its ledger die)."""
    cli("new", "Looks", "--ruleset", "test-copies")
    store = Store(cli.url())
    ledger = Ledger(store)
    for command in before:
        ledger.execute(ledger.find(None), command, actor="arbiter")
    try:
        ledger.execute(ledger.find(None), LookThenAsk(), actor="arbiter")
    except LedgerError:
        pass  # stored pending
    store.close()


def test_a_pending_decision_its_command_does_not_stop_at_is_refused(cli):
    # Given T2 stored pending: its look, rolled by the ledger, and the question which way
    looked_then_asked(cli)
    lines = exported(cli)
    # When its command is rewritten as one that takes three dice (a pending decision was never decided again)
    opened = next(line for line in lines if line.get("tx") == 2 and line["type"] == "command.recorded")
    opened["payload"]["command"] = "test-copies.look"
    path = forged(cli, lines)
    assert cli("verify", str(path)).exit_code == 0  # the chain holds
    refused = cli("import", str(path), store="copy.db")
    assert (refused.exit_code, refused.output) == (3, (
        "Error: T2: a pending decision its command no longer stops at: now needs a roll of D6 for look that was "
        "never made — the rules in force at it do not produce the trail's events from its command and dice; "
        "nothing imported\n"))
    assert not (cli.folder / "copy.db").exists()


def test_a_pending_decision_leaving_transactions_nobody_handed_back_is_refused(cli):
    # Given T2 and T3 stored: three looks, then a look that stops pending at its question (a ledger die, R3)
    looked_then_asked(cli, ThreeLooks())
    lines = exported(cli)
    # When its decision.pending says a cascade left it T2 to decide again once answered, so that the answer may copy
    # T2's rolls: no void, reroll or answer handed T2 back
    waiting = next(line for line in lines if line.get("type") == "decision.pending")
    waiting["payload"]["leaves"] = [2]
    refused_by_both(cli, forged(cli, lines), "leaves T2 to its answer, but no void, reroll or answer just before it "
                                             "handed them back")
