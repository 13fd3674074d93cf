"""A reroll re-decides its transaction with new dice for the disputed roll only: the other rolls
are copied under new roll numbers and say which roll they copy, so that ledger dice stay
verifiable once the seed is revealed — by `campaign verify` and by the independent verifier."""

import json
import subprocess
import sys
import uuid
from pathlib import Path
from types import SimpleNamespace

from click.testing import CliRunner

from commands.shared import SHARED_HANDLERS, EnlistWarband
from ledger import audit, campaigns, dice
from ledger import events as ev
from ledger.campaigns import Ledger
from ledger.cli import main
from ledger.decide import Command, Context, TableDice
from ledger.errors import LedgerError
from ledger.rulesets import Ruleset, register
from ledger.store import Store
from ledger.testing import LedgerHarness

VERIFIER = Path(__file__).resolve().parent.parent / "independent_verifier.py"


class TwoRolls(Command, frozen=True, kw_only=True, tag="test-two-rolls.search"):
    warband: str


def search(cmd: TwoRolls, ctx: Context) -> None:
    found = ctx.roll("D6", purpose="where to look").value + ctx.roll("D6", purpose="what is found").value
    ctx.emit(ev.TreasuryChanged(warband=ctx.state.warband(cmd.warband).id, delta=found, reason="search"))


register(Ruleset(id="test-two-rolls", version="1", title="two rolls", handlers={**SHARED_HANDLERS, TwoRolls: search}))


def test_a_rerolled_second_roll_keeps_the_first_as_a_copy_and_verifies(tmp_path):
    url = "sqlite:///" + str(tmp_path / "c.db")
    runner = CliRunner()

    def campaign(*args):
        return runner.invoke(main, ["--store", url, *args], catch_exceptions=False)

    campaign("new", "Search", "--ruleset", "test-two-rolls")
    campaign("warband", "add", "Rats", "--player", "Ann")
    store = Store(url)
    ledger = Ledger(store)
    cid = ledger.find(None)
    first = ledger.execute(cid, TwoRolls(warband="Rats"), actor="arbiter")  # ledger dice R0, R1
    store.close()
    r0, r1 = [r.event for r in first.records if isinstance(r.event, ev.DiceRolled)]

    assert campaign("reroll", "R1", "--reason", "cocked die", "--ledger").exit_code == 0
    log = json.loads(campaign("log", "--json").output)
    rolls = [row for row in log if row["type"] == "dice.rolled" and not row["voided"]]
    assert [row["text"] for row in rolls][0] == f"R2 where to look: D6 rolled {r0.faces} = {r0.value} (ledger)"
    assert rolls[1]["text"].startswith("R3 what is found: D6 rolled ")

    trail = tmp_path / "trail.jsonl"
    campaign("seed", "reveal")
    assert campaign("verify").exit_code == 0
    assert campaign("export", "-o", str(trail)).exit_code == 0
    lines = [json.loads(line) for line in trail.read_text().splitlines()]
    copied = next(line for line in lines if line.get("type") == "dice.rolled" and line["payload"]["roll"] == 2)
    assert copied["payload"]["copy_of"] == 0 and copied["payload"]["faces"] == r0.faces
    checked = subprocess.run([sys.executable, "-I", "-S", str(VERIFIER), str(trail)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout

    # A copy whose dice differ from the roll it names is refused by both verifiers.
    copied["payload"]["faces"] = [r0.faces[0] % 6 + 1]
    copied["payload"]["value"] = copied["payload"]["faces"][0]
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    refused = subprocess.run([sys.executable, "-I", "-S", str(VERIFIER), str(forged)], capture_output=True, text=True)
    assert refused.returncode == 1
    assert campaign("verify", str(forged)).exit_code == 3


def test_a_rerolled_first_roll_hands_back_the_later_undisputed_roll_unchanged():
    """README: "A reroll re-rolls only the disputed roll" — the roll after the disputed one is a
    copy of the recorded one, not a new roll (issue 9, item 2)."""
    table = LedgerHarness("test-two-rolls")
    table.do(EnlistWarband(name="Rats", player="Ann"))
    table.do(TwoRolls(warband="Rats"), [3, 4])  # R0 = 3, R1 = 4
    rolled = table.ledger.reroll(table.cid, "R0", reason="cocked die", actor="arbiter", dice=TableDice([6]))
    rolls = [r.event for r in rolled.records if isinstance(r.event, ev.DiceRolled)]
    assert [(r.roll, r.purpose, r.faces, r.copy_of) for r in rolls] == [
        (2, "where to look", [6], None),
        (3, "what is found", [4], 1),
    ]


class AskBetween(Command, frozen=True, kw_only=True, tag="test-ask-between.search"):
    warband: str


def search_asking(cmd: AskBetween, ctx: Context) -> None:
    """Three rolls, with a question after the second whose key names its value: a reroll of the second
    that shows another face asks it anew, after its new die."""
    ctx.roll("D6", purpose="first")
    second = ctx.roll("D6", purpose="second")
    ctx.choose(f"pick-{second.value}", "which way", ["left", "right"])
    ctx.roll("D6", purpose="third")


register(Ruleset(id="test-ask-between", version="1", title="a question between rolls",
                 handlers={**SHARED_HANDLERS, AskBetween: search_asking}))


def test_a_reroll_that_stops_at_a_question_keeps_the_undisputed_rolls_after_it(monkeypatch):
    """README: a disputed roll never re-rolls an undisputed one. A reroll whose new die led to a question
    was stored pending with the rolls made so far; its answer then rolled the third die anew."""
    # With this seed and campaign id the ledger's new second die shows 4
    monkeypatch.setattr(dice, "new_seed", lambda: bytes(32))
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID("0b0c0d0e-0000-4000-8000-0000000000a1"),
                                                          UUID=uuid.UUID))
    table = LedgerHarness("test-ask-between")
    table.do(EnlistWarband(name="Rats", player="Ann"))
    table.do(AskBetween(warband="Rats", answers={"pick-2": "left"}), [1, 2, 3])  # R0 1, R1 2, R2 3
    try:
        table.ledger.reroll(table.cid, "R1", reason="cocked die", actor="arbiter")  # ledger dice
    except LedgerError as pending:
        assert "campaign answer pick-4=CHOICE" in str(pending)
    else:
        raise AssertionError("the reroll asks its new question")
    answered = table.ledger.answer(table.cid, {"pick-4": "right"}, actor="arbiter")
    rolls = [r.event for r in answered.records if isinstance(r.event, ev.DiceRolled)]
    # Then the first and third dice are R0's and R2's, the second the reroll's new die, R4
    assert [(r.purpose, r.copy_of) for r in rolls] == [("first", 0), ("second", 4), ("third", 2)]
    assert rolls[2].faces == [3]
    assert table.ledger.check(table.cid)[1] == []
    assert audit.verify_store(table.ledger.store, table.cid).count == table.state.position  # the copies verify
