"""The guided post-game machinery, on a two-step ruleset made for this test: steps run in order,
each is one transaction, and an interrupted sequence carries on where it stopped."""

import json
import uuid
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from commands.shared import SHARED_HANDLERS
from ledger import campaigns
from ledger import events as ev
from ledger.cli import app
from ledger.decide import Command, Context, TableDice
from ledger.rulesets import Ruleset, Step, register, steps_done
from ledger.store import Store
from ledger.testing import CampaignRunner


class Loot(Command, frozen=True, kw_only=True, tag="test-postgame.loot"):
    warband: str


class Muster(Command, frozen=True, kw_only=True, tag="test-postgame.muster"):
    warband: str

    answer_keys = ("hero", "FIGHTER:oath")  # the oath is sworn only on a 6 (see muster)


def latest_battle(state, warband: str) -> int:
    battle = state.latest_battle(warband)
    return battle.number if battle is not None else 0


def loot(cmd: Loot, ctx: Context) -> None:
    face = ctx.roll("D6", purpose="loot").value
    ctx.emit(ev.TreasuryChanged(warband=cmd.warband, delta=face, reason="loot"))
    ctx.emit(ev.PostGameStepDone(warband=cmd.warband, step="loot", battle=latest_battle(ctx.state, cmd.warband)))


def muster(cmd: Muster, ctx: Context) -> None:
    names = [f.name for f in ctx.state.fighters_of(cmd.warband)]
    chosen = ctx.choose("hero", "Who gets 1 XP?", names)
    fighter = ctx.state.fighter(chosen, cmd.warband)
    ctx.emit(ev.XPAwarded(warband=cmd.warband, fighter=fighter.id, amount=1, reason="muster"))
    if fighter.role == "hero" and ctx.state.warbands[cmd.warband].treasury >= 6 and ctx.roll("D6", purpose="oath").value == 6:
        ctx.choose(f"{fighter.name.lower()}:oath", f"Does {fighter.name} swear the oath?", ["yes", "no"])
    ctx.emit(ev.PostGameStepDone(warband=cmd.warband, step="muster", battle=latest_battle(ctx.state, cmd.warband)))


def done(step: str):
    return lambda state, warband: step in steps_done(state, warband, latest_battle(state, warband))


def steps(state, warband):
    return [
        Step("loot", "Loot", done("loot"), lambda s, w, ask: Loot(warband=w)),
        Step("muster", "Muster", done("muster"), lambda s, w, ask: Muster(warband=w)),
    ]


register(Ruleset(id="test-postgame", version="1", title="post-game test", post_game=steps,
                 step_names={"loot": "Loot", "muster": "Muster"},  # what the walk's lines call the steps
                 handlers={**SHARED_HANDLERS, Loot: loot, Muster: muster}))


@pytest.fixture
def after_battle(campaign, monkeypatch):
    # A campaign id of its own, so that its ledger dice are known: R0 and R1 are 6s
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID("5eed0000-0000-4000-8000-00000000002b"),
                                                            UUID=uuid.UUID))
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


def test_without_a_terminal_the_walk_stops_at_the_first_question_it_was_not_given(after_battle):
    first = after_battle("post-game", "Rats", "--dice", "4")
    assert first.output.splitlines()[:3] == ["== Loot", "  R0 loot: D6 rolled [4] = 4 (table)", "  Rats treasury +4 (loot)"]
    assert first.output.splitlines()[-2:] == [
        "== Muster",
        "Next step: Muster — Who gets 1 XP?: answer with --answer hero=CHOICE (one of: Gunnar, Hans); "
        "then run `campaign post-game Rats` again.",
    ]
    assert first.exit_code == 0
    assert after_battle("post-game", "Rats", "--list").output == (
        "[x] loot: Loot\n"
        "[ ] muster: Muster\n"
        "      --answer hero=Gunnar|Hans  Who gets 1 XP?\n"
        "      may ask, depending on what comes up: FIGHTER:oath\n"
    )
    assert json.loads(after_battle("post-game", "Rats", "--list", "--json").output) == [
        {"key": "loot", "title": "Loot", "done": True, "questions": [], "may_ask": []},
        {"key": "muster", "title": "Muster", "done": False,
         "questions": [{"key": "hero", "prompt": "Who gets 1 XP?", "choices": ["Gunnar", "Hans"]}],
         "may_ask": ["FIGHTER:oath"]},
    ]
    refused = after_battle("post-game", "Rats")  # the first step of a run cannot go on: an error
    assert (refused.exit_code, refused.output) == (
        2, "== Muster\nError: Who gets 1 XP?: answer with --answer hero=CHOICE (one of: Gunnar, Hans)\n"
    )
    second = after_battle("post-game", "Rats", "--answer", "hero=Hans")
    assert second.output.splitlines()[1] == "  Hans gains 1 XP (muster)"
    assert second.output.splitlines()[-1] == "Post-game sequence complete."


def test_one_run_answers_every_step_and_json_answers_each_step(after_battle):
    """Issue 9, items 9 and 11: with --ledger and the answers the list names, one run does it all."""
    done = after_battle("post-game", "Rats", "--ledger", "--answer", "hero=Gunnar", "--json")
    assert done.exit_code == 0, done.output
    steps = [json.loads(line) for line in done.output.splitlines()]
    assert [[e["type"] for e in step["events"]][1:] for step in steps] == [
        ["dice.rolled", "treasury.changed", "post-game.step-done"],
        ["xp.awarded", "post-game.step-done"],  # Gunnar leads: he swears no oath
    ]
    assert steps[1]["head"] == json.loads(after_battle("show", "--json").output)["head"]


def recorded_commands(campaign) -> list[tuple[str, dict]]:
    """Each post-game step's command as its transaction records it: (command, answers)."""
    lines = [json.loads(line) for line in campaign("export", "--format", "jsonl").output.splitlines()]
    return [(line["payload"]["command"], line["payload"]["args"]["answers"]) for line in lines
            if line.get("type") == "command.recorded" and line["payload"]["command"].startswith("test-postgame.")]


def test_each_step_records_only_the_answers_it_asks(after_battle):
    """Given every answer of the walk up front, when it runs, then the loot (which asks nothing)
    records none, and the muster records the hero it asked: not the oath, which Hans is not asked
    (the Rats hold 4 crowns, fewer than the 6 that roll for it)."""
    walked = after_battle("post-game", "Rats", "--dice", "4", "--answer", "hero=Hans", "--answer", "hans:oath=yes")
    assert walked.exit_code == 0, walked.output
    assert recorded_commands(after_battle) == [("test-postgame.loot", {}), ("test-postgame.muster", {"hero": "Hans"})]
    assert walked.output.splitlines()[-2:] == [  # the oath, left unused by the dice, is named
        "Post-game sequence complete.",
        "Not used: hans:oath=yes (the Muster step did not ask it)",
    ]
    assert after_battle("replay", "--check").output == "Re-decided 7 transactions from their commands and dice: all match.\n"


def test_a_completed_walk_names_every_answer_no_step_took_but_not_with_json(after_battle):
    """Given the loot's 4 (too few crowns for Hans's oath), when the walk goes through both steps,
    then the answers no recorded step took are named after its end, as a walk stopped early names them;
    with --json its lines are the steps' alone."""
    walked = after_battle("post-game", "Rats", "--dice", "4", "--answer", "hero=Gunnar", "--answer", "hans:oath=yes",
                          "--answer", "gunnar:oath=no")
    assert (walked.exit_code, walked.output) == (0, (
        "== Loot\n"
        "  R0 loot: D6 rolled [4] = 4 (table)\n"
        "  Rats treasury +4 (loot)\n"
        "  Rats: post-game step Loot done for battle 1\n"
        "Recorded T7 (4 events). Head 5fa52f47e165ab46\n"
        "== Muster\n"
        "  Gunnar gains 1 XP (muster)\n"
        "  Rats: post-game step Muster done for battle 1\n"
        "Recorded T8 (3 events). Head b1d5d9d05463ef22\n"
        "Post-game sequence complete.\n"
        "Not used: hans:oath=yes, gunnar:oath=no (the Muster step did not ask them)\n"))
    after_battle("void", "T8", "--reason", "walked again with --json")
    as_json = after_battle("post-game", "Rats", "--step", "muster", "--json", "--answer", "hero=Gunnar",
                           "--answer", "hans:oath=yes")
    assert as_json.exit_code == 0, as_json.output
    assert [[e["type"] for e in json.loads(line)["events"]][1:] for line in as_json.output.splitlines()] == [
        ["xp.awarded", "post-game.step-done"]]  # the muster's line alone


def test_a_step_recorded_with_answers_it_never_asked_still_replays_and_imports(after_battle, tmp_path):
    """Walks before the fix recorded every --answer in every step's command: such a trail re-decides
    as recorded (replay --check, import) and keeps its extra answers."""
    ledger = campaigns.Ledger(Store(after_battle.store))
    cid = uuid.UUID(json.loads(after_battle("show", "--json").output)["campaign_id"])
    every_answer = {"hero": "Hans", "hans:oath": "yes"}
    for command, dice in ((Loot(warband="rats", answers=every_answer), [4]), (Muster(warband="rats", answers=every_answer), [])):
        ledger.execute(cid, command, actor="arbiter", dice=TableDice(dice), answered_now=())  # as the walk did
    assert recorded_commands(after_battle) == [("test-postgame.loot", every_answer), ("test-postgame.muster", every_answer)]
    assert after_battle("replay", "--check").output == "Re-decided 7 transactions from their commands and dice: all match.\n"
    trail = tmp_path / "trail.jsonl"
    assert after_battle("export", "-o", str(trail)).exit_code == 0
    copy = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))
    imported = copy("import", str(trail))
    assert imported.exit_code == 0, imported.output
    assert json.loads(copy("show", "--json").output)["head"] == json.loads(after_battle("show", "--json").output)["head"]


def test_a_walk_stopped_for_dice_names_the_answers_it_did_not_use(after_battle):
    """Given the loot's 6 (the Rats then hold 6 crowns, so Hans, a hero, rolls for the oath), when the walk
    stops at the muster for the oath's die, then it names the answers given for it: the next run, which
    begins with the muster, takes only those it is given again."""
    walked = after_battle("post-game", "Rats", "--dice", "6", "--answer", "hero=Hans", "--answer", "hans:oath=yes")
    assert (walked.exit_code, walked.output.splitlines()[-3:]) == (0, [
        "== Muster",
        "Next step: Muster — oath needs D6 (1 more die): pass them with --dice, or use --ledger; "
        "then run `campaign post-game Rats` again.",
        "Not used: hero=Hans, hans:oath=yes (the Muster step was not done)",
    ])
    again = after_battle("post-game", "Rats", "--dice", "6", "--answer", "hero=Hans", "--answer", "hans:oath=yes")
    assert (again.exit_code, again.output.splitlines()[-1]) == (0, "Post-game sequence complete.")


def test_a_walk_ended_by_a_refused_step_names_the_answers_it_did_not_use_below_the_error(after_battle):
    """The answer the error refuses is named by the error alone: given again, it would be refused again."""
    walked = after_battle("post-game", "Rats", "--dice", "4", "--answer", "hero=Nobody", "--answer", "hans:oath=yes")
    assert (walked.exit_code, walked.output.splitlines()[-3:]) == (2, [
        "== Muster",
        "Error: Who gets 1 XP?: 'Nobody' is not one of: Gunnar, Hans",
        "Not used: hans:oath=yes (the Muster step was not done)",
    ])
    alone = after_battle("post-game", "Rats", "--answer", "hero=Nobody")
    assert (alone.exit_code, alone.output) == (2, "== Muster\nError: Who gets 1 XP?: 'Nobody' is not one of: Gunnar, Hans\n")


def test_a_walk_that_recorded_nothing_names_no_answer_unused(after_battle):
    """Refused at its first step, the walk recorded nothing: run again, it takes every answer again."""
    refused = after_battle("post-game", "Rats", "--answer", "hero=Hans")
    assert (refused.exit_code, refused.output) == (
        2, "== Loot\nError: loot needs D6 (1 more die): pass them with --dice, or use --ledger\n")


def test_a_walk_stopped_at_a_prompt_names_the_answers_it_did_not_use(after_battle, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    stopped = after_battle("post-game", "Rats", "--answer", "hans:oath=yes", input="5\n")  # no choice for the muster
    assert stopped.exit_code == 1
    assert stopped.stderr == (
        "\nError: stopped at the prompt (Ctrl-C or end of input): nothing more was recorded; recorded before it: T7\n"
        "Not used: hans:oath=yes (the Muster step was not done)\n")


def test_an_answer_no_open_step_asks_is_refused_before_anything_is_written(after_battle):
    before = after_battle("log", "--json", "--all").output
    refused = after_battle("post-game", "Rats", "--dice", "4", "--answer", "heroe=Hans")
    assert (refused.exit_code, refused.output) == (
        2, "Error: --answer heroe: no open step of the post-game asks it (keys: hero, FIGHTER:oath)\n"
    )
    # A documented key, asked only on some dice, is accepted (and left unused when not asked).
    accepted = after_battle("post-game", "Rats", "--dice", "4", "--answer", "hero=Hans", "--answer", "hans:oath=yes")
    assert accepted.exit_code == 0, accepted.output
    assert after_battle("log", "--json", "--all").output != before


def test_an_answer_given_ahead_that_ledger_dice_do_not_offer_leaves_its_question_pending(after_battle):
    """Given the Rats' loot (R0, a 6) and Hans's oath die at the muster (R1, a 6: the oath is asked),
    when the walk rolls them with --ledger and is told ahead `hans:oath=maybe`, then the muster is
    stored pending with its die and its question, the answer given ahead dropped, and the walk stops
    there naming the answer to give (refused, the answer stayed with the pending decision: only a void
    ended it, and the next try rolled a new die); the loot stays recorded."""
    walked = after_battle("post-game", "Rats", "--ledger", "--answer", "hero=Hans", "--answer", "hans:oath=maybe")
    assert walked.exit_code == 0, walked.output
    question = "Does Hans swear the oath? ('maybe', given ahead, is not one of them)"
    assert walked.output.splitlines()[-5:] == [
        f"  pending: {question} — answer hans:oath=yes|no",
        "  R1 oath: D6 rolled [6] = 6 (ledger)",
        "Recorded T8 (3 events). Head fa005f8bee7aee53",
        f"Next step: Muster — {question} — its dice are recorded and T8 is pending: settle it with "
        "`campaign answer hans:oath=CHOICE` (yes | no), or void it with `campaign void T8 --reason …`; then run "
        "`campaign post-game Rats` again.",
        "Not used: hans:oath=maybe (the Muster step was not done)",
    ]
    assert after_battle("post-game", "Rats", "--list").output.splitlines()[0] == "[x] loot: Loot"
    assert after_battle("answer", "hans:oath=yes").exit_code == 0


LATER_STEPS = "a later step that rolls is given its own when the walk reaches it"


@pytest.mark.parametrize(("before", "dice", "refusal"), [
    # the first step rolls none (it said 'give them to a step that rolls', which the walk's --dice cannot do)
    (["--dice", "4"], "3", "== Muster\nError: --dice 3: the Muster step rolls no dice, and the walk's --dice are its "
                           f"first step's alone: leave them out ({LATER_STEPS})\n"),
    # more than the first step rolls (it said '3 dice given but only 1 used by the Loot step: check --dice')
    ([], "4,5,6", "== Loot\nError: --dice 4,5,6: the Loot step rolls 1 die (4), and the walk's --dice are its first "
                  f"step's alone: 5,6 left over ({LATER_STEPS})\n"),
])
def test_dice_the_walks_first_step_does_not_roll_are_refused_naming_them(after_battle, before, dice, refusal):
    """The walk's --dice are its first step's alone: those it leaves over, or all where it rolls none, are refused
    saying which and that no later step takes them, exit 2, nothing written."""
    if before:
        after_battle("post-game", "Rats", *before)
    logged = after_battle("log", "--json", "--all").output
    refused = after_battle("post-game", "Rats", "--dice", dice, "--answer", "hero=Hans")
    assert (refused.exit_code, refused.output) == (2, refusal)
    assert after_battle("log", "--json", "--all").output == logged


def test_at_a_terminal_it_asks_and_resumes_after_an_interruption(after_battle, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    interrupted = after_battle("post-game", "Rats", input="5\n")  # the input ends before the choice
    assert "  R0 loot: D6 rolled [5] = 5 (table)" in interrupted.output
    assert interrupted.exit_code == 1  # click's Abort on end of input
    resumed = after_battle("post-game", "Rats", input="1\n")  # a choice picked by its number
    assert resumed.output.startswith(
        "== Muster\nWho gets 1 XP?\n  1) Gunnar\n  2) Hans\nChoose by number or name: 1\n  Gunnar gains 1 XP (muster)\n"
    )
    assert after_battle("post-game", "Rats", "--list").output == "[x] loot: Loot\n[x] muster: Muster\n"


def loot_until_ten(state, warband):
    """One step whose command may leave it open: it is done once the treasury holds 10 crowns or more."""
    return [Step("loot", "Loot", lambda s, w: s.warbands[w].treasury >= 10, lambda s, w, ask: Loot(warband=w))]


register(Ruleset(id="test-postgame-open", version="1", title="post-game test: a step left open", post_game=loot_until_ten,
                 handlers={**SHARED_HANDLERS, Loot: loot}))


def test_a_step_its_command_left_open_is_done_once_more_under_its_title_said_once(campaign):
    """Given a step that one loot of 4 leaves open, when the walk runs, then it does it once more, saying why
    under a line of its own rather than its title again (`== Loot` came twice), and goes no further."""
    for args in (["new", "PG", "--ruleset", "test-postgame-open"], ["warband", "add", "Rats", "--player", "Ann"],
                 ["warband", "add", "Orcs", "--player", "Bob"],
                 ["battle", "record", "--warband", "Rats", "--warband", "Orcs", "--winner", "Rats"]):
        assert campaign(*args).exit_code == 0
    walked = campaign("post-game", "Rats", "--dice", "4")
    assert (walked.exit_code, [line.split(". Head ")[0] for line in walked.output.splitlines()]) == (0, [
        "== Loot",
        "  R0 loot: D6 rolled [4] = 4 (table)",
        "  Rats treasury +4 (loot)",
        "  Rats: post-game step loot done for battle 1",
        "Recorded T5 (4 events)",
        "== loot once more: its command left some of it to do",
        "Next step: loot — loot needs D6 (1 more die): pass them with --dice, or use --ledger; "
        "then run `campaign post-game Rats` again.",
    ])


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


@pytest.mark.parametrize(
    ("options", "typed", "picked"),
    [
        (["yes", "no"], "y\n", "yes"),  # yes/no read as yes or no
        (["no", "yes"], "n\n", "no"),
        (["yes", "no"], "\n", "no"),  # Enter: no, the answer that changes nothing
        (["nothing", "lance", "sword"], "3\n", "sword"),  # by number
        (["nothing", "lance", "sword"], "lance\n", "lance"),  # by name
        (["nothing", "lance", "sword"], "\n", "nothing"),  # Enter: the choice that changes nothing
        (["nothing", "lance"], "7\nlance\n", "lance"),  # asked again after a choice that is not one
        (["0", "1", "2"], "2\n", "2"),  # numbers are their own names
    ],
)
def test_at_a_terminal_choices_are_picked_by_number_or_name(options, typed, picked):
    """Issue 9, item 12."""
    with CliRunner().isolation(input=typed):
        assert app.ask_choice("Which?", options) == picked


def test_what_is_typed_that_is_no_choice_is_shown_escaped_and_asked_again():
    typed = "²\n" + "9" * 5000 + "\n\x00\n2\n"  # int() fails on '²' and on more than 4300 digits
    with CliRunner().isolation(input=typed) as (_, errors, _):
        assert app.ask_choice("Who?", ["Gunnar", "Hans"]) == "Hans"
        assert errors.getvalue().decode().splitlines() == [
            "  '²' is not one of the choices", f"  '{'9' * 5000}' is not one of the choices",
            "  '\\u0000' is not one of the choices"]


def test_a_choice_without_a_safe_default_waits_for_one():
    with CliRunner().isolation(input="\n2\n"):
        assert app.ask_choice("Who?", ["Gunnar", "Hans"]) == "Hans"
