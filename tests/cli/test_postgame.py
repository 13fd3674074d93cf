"""The guided post-game machinery, on a two-step ruleset made for this test: steps run in order,
each is one transaction, and an interrupted sequence carries on where it stopped."""

import json

import pytest

from commands.shared import SHARED_HANDLERS
from ledger import events as ev
from ledger.cli import app
from ledger.decide import Command, Context
from ledger.rulesets import Ruleset, Step, register, steps_done


class Loot(Command, frozen=True, kw_only=True, tag="test-postgame.loot"):
    warband: str


class Muster(Command, frozen=True, kw_only=True, tag="test-postgame.muster"):
    warband: str


def latest_battle(state, warband: str) -> int:
    return max((b.number for b in state.battles if warband in b.participants), default=0)


def loot(cmd: Loot, ctx: Context) -> None:
    face = ctx.roll("D6", purpose="loot").value
    ctx.emit(ev.TreasuryChanged(warband=cmd.warband, delta=face, reason="loot"))
    ctx.emit(ev.PostGameStepDone(warband=cmd.warband, step="loot", battle=latest_battle(ctx.state, cmd.warband)))


def muster(cmd: Muster, ctx: Context) -> None:
    names = [f.name for f in ctx.state.fighters_of(cmd.warband)]
    chosen = ctx.choose("hero", "Who gets 1 XP?", names)
    fighter = ctx.state.fighter(chosen, cmd.warband)
    ctx.emit(ev.XPAwarded(warband=cmd.warband, fighter=fighter.id, amount=1, reason="muster"))
    ctx.emit(ev.PostGameStepDone(warband=cmd.warband, step="muster", battle=latest_battle(ctx.state, cmd.warband)))


def done(step: str):
    return lambda state, warband: step in steps_done(state, warband, latest_battle(state, warband))


def steps(state, warband):
    return [
        Step("loot", "Loot", done("loot"), lambda s, w, ask: Loot(warband=w)),
        Step("muster", "Muster", done("muster"), lambda s, w, ask: Muster(warband=w)),
    ]


register(Ruleset(id="test-postgame", version="1", title="post-game test", post_game=steps,
                 handlers={**SHARED_HANDLERS, Loot: loot, Muster: muster}))


@pytest.fixture
def after_battle(campaign):
    for args in (
        ["new", "PG", "--ruleset", "test-postgame"],
        ["warband", "add", "Rats", "--player", "Ann"],
        ["warband", "add", "Orcs", "--player", "Bob"],
        ["fighter", "add", "Rats", "Gunnar", "--role", "leader"],
        ["fighter", "add", "Rats", "Hans", "--role", "hero"],
        ["battle", "record", "--warband", "Rats", "--warband", "Orcs", "--winner", "Rats"],
    ):
        assert campaign(*args).exit_code == 0
    return campaign


def test_without_a_terminal_each_run_does_the_next_step(after_battle):
    first = after_battle("post-game", "Rats", "--dice", "4")
    assert first.output.splitlines()[:3] == ["== Loot", "  R0 loot: D6 rolled [4] = 4 (table)", "  Rats treasury +4: loot"]
    assert first.output.splitlines()[-1] == "Next step: muster (run `campaign post-game Rats` again with its dice)."
    assert after_battle("post-game", "Rats", "--list").output == "[x] loot: Loot\n[ ] muster: Muster\n"
    assert json.loads(after_battle("post-game", "Rats", "--list", "--json").output) == [
        {"key": "loot", "title": "Loot", "done": True},
        {"key": "muster", "title": "Muster", "done": False},
    ]
    refused = after_battle("post-game", "Rats")
    assert (refused.exit_code, refused.output) == (
        2, "== Muster\nError: Who gets 1 XP?: answer with --answer hero=CHOICE (one of: Gunnar, Hans)\n"
    )
    second = after_battle("post-game", "Rats", "--answer", "hero=Hans")
    assert second.output.splitlines()[1] == "  Hans gains 1 XP: muster"
    assert second.output.splitlines()[-1] == "Post-game sequence complete."


def test_at_a_terminal_it_asks_and_resumes_after_an_interruption(after_battle, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    interrupted = after_battle("post-game", "Rats", input="5\n")  # the input ends before the choice
    assert "  R0 loot: D6 rolled [5] = 5 (table)" in interrupted.output
    assert interrupted.exit_code == 1  # click's Abort on end of input
    resumed = after_battle("post-game", "Rats", input="Gunnar\n")
    assert resumed.output.startswith("== Muster\nWho gets 1 XP? (Gunnar, Hans): Gunnar\n  Gunnar gains 1 XP: muster\n")
    assert after_battle("post-game", "Rats", "--list").output == "[x] loot: Loot\n[x] muster: Muster\n"


def test_step_by_key_and_unknown_step(after_battle):
    assert after_battle("post-game", "Rats", "--step", "muster", "--answer", "hero=Gunnar").exit_code == 0
    assert after_battle("post-game", "Rats", "--list").output == "[ ] loot: Loot\n[x] muster: Muster\n"
    assert after_battle("post-game", "Rats", "--step", "trade").output == "Error: no step 'trade' (steps: loot, muster)\n"


def test_freeform_has_no_guided_sequence_and_says_what_to_use_instead(two_warbands):
    before = two_warbands("verify", "--json").output
    said = two_warbands("post-game", "Reikland Rats")
    assert (said.exit_code, said.output) == (0, (
        "Freeform (shared commands only) has no post-battle sequence to walk: record what happened to Reikland Rats "
        "with the shared commands — `campaign xp award`, `campaign roll`, `campaign item gain|lose`, "
        "`campaign treasury`, `campaign correct` and `campaign note`.\n"
    ))
    assert two_warbands("verify", "--json").output == before
