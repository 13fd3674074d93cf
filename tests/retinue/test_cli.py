"""`campaign retinue …` and the guided `campaign post-game` for a retinue, as a user types them:
exact output lines and exit codes (the last line of a recorded command, with its head hash, is left out)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from commands.retinue import RULESET
from ledger.cli import app
from ledger.rulesets import register
from ledger.testing import CampaignRunner
from tests.audit.test_independent_verifier_demos import independent


@pytest.fixture
def hawks(cli):
    return after_the_battle(cli)


def after_the_battle(cli, *recorded: str):
    """Hawks (Kestrel, Vampire Warrior of Blood, Leader; Finch, Human Scout) and Wolves (Lupa,
    Dwarf, Leader), after a battle where Kestrel put Lupa Out of Action and Finch went down;
    `recorded`: more options of `battle record` (its --scenario)."""
    for args in (["new", "R", "--ruleset", "retinue"], ["warband", "add", "Hawks", "--player", "Ann"],
                 ["warband", "add", "Wolves", "--player", "Bob"],
                 ["retinue", "recruit", "Hawks", "Kestrel", "--ancestry", "Vampire", "--archetype", "Warrior",
                  "--domain", "Blood", "--leader"],
                 ["retinue", "recruit", "Hawks", "Finch", "--ancestry", "Human", "--archetype", "Scout"],
                 ["retinue", "recruit", "Wolves", "Lupa", "--ancestry", "Dwarf", "--leader"],
                 ["battle", "record", "--warband", "Hawks", "--warband", "Wolves", "--took-out", "Kestrel=Lupa",
                  "--ooa", "Lupa", "--ooa", "Finch", *recorded]):
        assert cli(*args).exit_code == 0, args
    return cli


def lines(result):
    assert result.exit_code == 0, result.output
    return result.output.splitlines()[:-1]


def output_lines(result):
    """Every line of a command that ended well but those naming the transactions it recorded (their head hashes)."""
    assert result.exit_code == 0, result.output
    return [line for line in result.output.splitlines() if not line.startswith("Recorded T")]


def refused(result, code, message):
    assert (result.exit_code, result.output) == (code, f"Error: {message}\n")
    return True


def test_recruit_takes_the_ancestry_baselines(cli):
    cli("new", "R", "--ruleset", "retinue")
    cli("warband", "add", "Hawks", "--player", "Ann")
    assert lines(cli("retinue", "recruit", "Hawks", "Wren", "--ancestry", "Human", "--domain", "Storm", "--stat", "Sa=4")) == [
        "  Wren, fighter, joins Hawks"]
    shown = cli("fighter", "show", "Wren").output.splitlines()
    assert shown[1:3] == ["  XP 0  games 0  Wi2 Sa4 Mt3 Sk3 W2 M3 Df3 CC3 RC3", "  keywords: Human, Storm"]


@pytest.mark.parametrize(("args", "code", "message"), [
    (["--ancestry", "Elf"], 2, "no ancestry 'Elf' in this campaign's data (Human, Dwarf, Vampire, Thrall)"),
    (["--ancestry", "Human", "--domain", "Fire"], 2, "no domain 'Fire' in this campaign's data (Blood, Storm)"),
    (["--ancestry", "Human", "--stat", "CC=7"], 1, "S6: attributes run from 1 to 6, not CC 7"),
    (["--ancestry", "Human", "--stat", "Luck=2"], 2, "no attribute Luck (attributes: Wi, Sa, Mt, Sk, W, M, Df, CC, RC)"),
])
def test_recruit_refusals(cli, args, code, message):
    cli("new", "R", "--ruleset", "retinue")
    cli("warband", "add", "Hawks", "--player", "Ann")
    assert refused(cli("retinue", "recruit", "Hawks", "Wren", *args), code, message)


def test_the_shared_commands_that_would_step_around_the_rules_are_refused(hawks):
    assert refused(hawks("xp", "award", "Kestrel", "3", "--reason", "bravery"), 1,
                   "E2: a retinue's XP is awarded in the three passes (campaign post-game WARBAND); "
                   "an arbiter's correction is `campaign correct`")
    assert refused(hawks("xp", "spend", "Kestrel", "3", "--on", "a feat"), 1,
                   "S1: a retinue's XP is spent on an advancement: campaign retinue buy WARBAND FIGHTER ADVANCEMENT")
    assert refused(hawks("fighter", "add", "Hawks", "Ibis", "--role", "fighter"), 1,
                   "a retinue fighter is recruited with its ancestry: campaign retinue recruit WARBAND NAME --ancestry …")


def test_each_step_as_its_own_command(hawks):
    assert refused(hawks("retinue", "casualty", "Hawks", "--dice", "6"), 1,
                   "E2: Hawks must do the battle pass before it can roll on the Casualty Table (post-game of battle 1)")
    assert lines(hawks("retinue", "battle-pass", "Hawks")) == [
        "  Kestrel gains 1 XP (battle pass: did not go Out of Action)",
        "  Kestrel gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
        "  Hawks: post-game step Battle pass done for battle 1",
    ]
    assert lines(hawks("retinue", "scenario-pass", "Hawks", "--award", "Finch=2", "--for", "lit the beacon")) == [
        "  Finch gains 2 XP (scenario pass: lit the beacon)",
        "  Hawks: post-game step Scenario pass done for battle 1",
    ]
    # An outcome not named is asked for with the command's own --outcome (it has no --answer).
    assert refused(hawks("retinue", "casualty", "Hawks", "--dice", "6"), 2,
                   "Finch rolled 6 on the Casualty Table: the outcome: answer with --outcome finch=CHOICE "
                   "(one of: Slain, Captured, Hardy, Recovered, or another name)")
    assert lines(hawks("retinue", "casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Hardy")) == [
        "  R0 Finch's Casualty Table: D6 rolled [6] = 6 (table)",
        "  Finch's Casualty Table: 6 — Hardy (named by the player)",
        "  Hawks: post-game step Casualty Table done for battle 1",
    ]
    assert refused(hawks("retinue", "doom", "Hawks", "--fighter", "Kestrel", "--dice", "3,4"), 2,
                   "Kestrel rolled 7 on the Doom Table: the outcome: answer with --outcome kestrel=CHOICE "
                   "(one of: Slain, Captured, Miraculous, Spared, or another name)")
    assert lines(hawks("retinue", "doom", "Hawks", "--fighter", "Kestrel", "--dice", "3,4", "--outcome", "kestrel=Spared")) == [
        "  R1 Kestrel's Doom Table: 2D6 rolled [3, 4] = 7 (table)",
        "  Kestrel's Doom Table: 7 — Spared (named by the player)",
        "  Hawks: post-game step Doom Table done for battle 1",
    ]
    assert lines(hawks("retinue", "post-game-pass", "Hawks", "--bonus", "Kestrel=survival roll")) == [
        "  Finch gains 1 XP (post-game pass: Hardy, Casualty Table)",
        "  Kestrel gains 1 XP (post-game pass: survival roll)",
        "  Hawks: post-game step Post-game pass done for battle 1",
    ]
    assert refused(hawks("retinue", "buy", "Hawks", "Kestrel", "CC"), 1,
                   "S1, S3: Kestrel has 4 XP; CC +1 costs 12, 14 for a Vampire: 10 XP short")
    assert refused(hawks("retinue", "buy", "Hawks", "Kestrel", "luck"), 2,
                   "S2: no advancement 'luck' (advancements: feat, Wi, Sa, Mt, Sk, W, caster, M, Df, CC, RC, feat-outside)")
    assert lines(hawks("retinue", "buy", "Hawks", "Finch", "feat", "--feat", "Fleet")) == [
        "  Finch spends 3 XP on Feat", "  Finch learns Fleet"]
    assert refused(hawks("battle", "record", "--warband", "Hawks", "--warband", "Wolves"), 1,
                   "Hawks has not finished the post-game of battle 1: next, finish spending (campaign post-game Hawks)")
    assert lines(hawks("retinue", "spending-done", "Hawks")) == ["  Hawks: post-game step Spending done for battle 1"]


NEXT = "then run `campaign post-game Hawks` again."
# The walk's post-game pass with Finch's survival +1, stopping before Spending (buying comes first).
FINCH_SURVIVES_THEN_STOPS = [
    "== Post-game pass: Hardy, Miraculous, survival rolls (E5, E7)",
    "  Finch gains 1 XP (post-game pass: survival roll or scenario result)",
    "  Hawks: post-game step Post-game pass done for battle 1",
    "== Spending: advancements bought (S1-S9)",
    "Before this step: buy advancements first (`campaign retinue buy WARBAND FIGHTER ADVANCEMENT`)?",
    "Stopped before Spending: run `campaign post-game Hawks` again to carry on, or with --go-on to go past the "
    "steps that close buying, selling or hiring."]
# Without a terminal, each run of the walk in turn: given the runs before it, when `post-game Hawks` is run
# with these options, then its exit code and its lines ("Recorded T…" left out). A pick not answered stops
# the walk before its step is written, naming the key to give (it was taken as "none": a Doom roll or an
# award lost); one the run begins with is an error, nothing written.
WALK_WITHOUT_A_TERMINAL = [
    ([], 0, ["== Battle pass: not Out of Action, enemies put Out of Action (E3, E4)",
             "  Kestrel gains 1 XP (battle pass: did not go Out of Action)",
             "  Kestrel gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
             "  Hawks: post-game step Battle pass done for battle 1",
             "== Scenario pass: the XP the scenario states for each fighter (E6)",
             "Next step: Scenario pass — Which fighter of battle 1 does the scenario award XP? (E6: each award names one "
             f"fighter): answer with --answer scenario-award:1=CHOICE (one of: none, Kestrel, Finch); {NEXT}"]),
    ([], 2, ["== Scenario pass: the XP the scenario states for each fighter (E6)",
             "Error: Which fighter of battle 1 does the scenario award XP? (E6: each award names one fighter): answer with "
             "--answer scenario-award:1=CHOICE (one of: none, Kestrel, Finch)"]),
    (["--answer", "scenario-award:1=none"], 0, [
        "== Scenario pass: the XP the scenario states for each fighter (E6)",
        "  Hawks: post-game step Scenario pass done for battle 1",
        "== Casualty Table: a D6 for each fighter that went Out of Action",
        "Next step: Casualty Table — Finch's Casualty Table needs D6 (1 more die): pass them with --dice, or use --ledger; "
        f"{NEXT}"]),
    (["--dice", "2", "--answer", "casualty:finch=Recovered"], 0, [
        "== Casualty Table: a D6 for each fighter that went Out of Action",
        "  R0 Finch's Casualty Table: D6 rolled [2] = 2 (table)",
        "  Finch's Casualty Table: 2 — Recovered (named by the player)",
        "  Hawks: post-game step Casualty Table done for battle 1",
        "== Doom Table: 2D6",
        "Next step: Doom Table — Which fighter of battle 1 rolls on the Doom Table?: answer with --answer "
        f"doom-roll:1=CHOICE (one of: none, Kestrel, Finch); {NEXT}"]),
    (["--answer", "doom-roll:1=Kestrel"], 2, [
        "== Doom Table: 2D6",
        "Error: Which other fighter of battle 1 rolls on the Doom Table?: answer with --answer doom-roll:2=CHOICE "
        "(one of: none, Finch)"]),
    (["--answer", "doom-roll:1=none"], 0, [
        "== Doom Table: 2D6",
        "  Hawks: post-game step Doom Table done for battle 1",
        "== Post-game pass: Hardy, Miraculous, survival rolls (E5, E7)",
        "Next step: Post-game pass — Which surviving fighter of battle 1 gains +1 from a survival roll or scenario "
        f"result?: answer with --answer bonus:1=CHOICE (one of: none, Kestrel, Finch); {NEXT}"]),
    (["--answer", "bonus:1=Finch", "--answer", "bonus:2=none"], 0, FINCH_SURVIVES_THEN_STOPS),
    ([], 0, ["== Spending: advancements bought (S1-S9)", "  Hawks: post-game step Spending done for battle 1",
             "Post-game sequence complete."]),
]


def test_the_guided_post_game_without_a_terminal_stops_at_a_pick_not_answered(hawks):
    for options, code, said in WALK_WITHOUT_A_TERMINAL:
        before = hawks("log").output
        walked = hawks("post-game", "Hawks", *options)
        assert (walked.exit_code, [line for line in walked.output.splitlines() if not line.startswith("Recorded T")]) == (
            code, said), options
        if code:
            assert hawks("log").output == before, options  # refused: nothing written
    assert hawks("replay", "--check").exit_code == 0


def test_an_answer_names_any_outcome_as_the_command_line_does(hawks):
    """A3 by name: "any other outcome is recorded and changes nothing", whether named with --outcome
    or answered (a reroll can restate an outcome only by an answer): it was refused unless offered."""
    hawks("retinue", "battle-pass", "Hawks")
    hawks("retinue", "scenario-pass", "Hawks")
    asked = hawks("retinue", "casualty", "Hawks", "--dice", "3")
    assert refused(asked, 2, "Finch rolled 3 on the Casualty Table: the outcome: answer with --outcome finch=CHOICE "
                             "(one of: Slain, Captured, Hardy, Recovered, or another name)")
    blank = hawks("post-game", "Hawks", "--step", "casualty", "--dice", "3", "--answer", "casualty:finch= ")
    assert (blank.exit_code, blank.output.splitlines()[-1]) == (2, (
        "Error: Finch rolled 3 on the Casualty Table: the outcome: '' names nothing: give one of Slain, Captured, "
        "Hardy, Recovered, or another name"))
    walked = hawks("post-game", "Hawks", "--step", "casualty", "--dice", "3", "--answer", "casualty:finch=Lasting Wound")
    assert walked.output.splitlines()[1:3] == ["  R0 Finch's Casualty Table: D6 rolled [3] = 3 (table)",
                                               "  Finch's Casualty Table: 3 — Lasting Wound (named by the player)"]
    assert lines(hawks("reroll", "R0", "--reason", "cocked die", "--dice", "5", "--answer", "casualty:finch=hardy"))[-3:] == [
        "  R1 Finch's Casualty Table: D6 rolled [5] = 5 (table)",
        "  Finch's Casualty Table: 5 — Hardy (named by the player)",
        "  Hawks: post-game step Casualty Table done for battle 1"]
    assert hawks("replay", "--check").exit_code == 0


LOOSELY = ("A3: did you mean {meant}? '{typed}' is no {table} Table outcome the rules know: named so, it is recorded "
           "as the group's own and changes nothing (name {meant}, or an outcome of the group's own in words of its own)")


@pytest.mark.parametrize(("step", "meant", "typed", "table"), [
    (["casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Dead"], "Slain", "Dead", "Casualty"),
    (["casualty", "Hawks", "--dice", "6", "--outcome", "finch=slian"], "Slain", "slian", "Casualty"),
    (["casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Prisoner"], "Captured", "Prisoner", "Casualty"),
    (["casualty", "Hawks", "--ledger", "--outcome", "Finch=Hard"], "Hardy", "Hard", "Casualty"),
    (["post-game", "Hawks", "--step", "casualty", "--dice", "6", "--answer", "casualty:finch=killed"], "Slain", "killed",
     "Casualty"),
])
def test_an_outcome_named_loosely_for_a_known_one_is_refused_saying_which(hawks, step, meant, typed, table):
    """A3 by name (1.8.0): Slain, Captured, Hardy and Miraculous are known by name, and any other name is the
    group's own, recorded and changing nothing: 'Dead' was recorded as 'Dead (named by the player)', and Finch
    lived on. A name close to a known one, or a common word for it, is refused before the die, naming it (exit 2,
    nothing written); names of the group's own ('Lasting Wound') are recorded as before."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    assert hawks("retinue", "scenario-pass", "Hawks").exit_code == 0
    before = hawks("log").output
    result = hawks(*step) if step[0] == "post-game" else hawks("retinue", *step)
    assert (result.exit_code, result.output.splitlines()[-1]) == (
        2, "Error: " + LOOSELY.format(meant=meant, typed=typed, table=table))
    assert hawks("log").output == before
    assert lines(hawks("retinue", "casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Lasting Wound"))[1] == (
        "  Finch's Casualty Table: 6 — Lasting Wound (named by the player)")


def test_a_pending_outcome_answered_loosely_is_refused_and_waits_on(hawks):
    """With ledger dice the die is stored and the outcome asked for (`campaign answer`): 'Dead' there is refused as
    on the command line (exit 2), the decision still pending with its die, and 'Slain' settles it."""
    for step in (["battle-pass", "Hawks"], ["scenario-pass", "Hawks"]):
        assert hawks("retinue", *step).exit_code == 0
    assert hawks("retinue", "casualty", "Hawks", "--ledger").exit_code == 1  # pending: the outcome is asked for
    assert refused(hawks("answer", "casualty:finch=Dead"), 2,
                   LOOSELY.format(meant="Slain", typed="Dead", table="Casualty"))
    answered = output_lines(hawks("answer", "casualty:finch=Slain"))
    assert answered[0] == "  T10 answered: casualty:finch=Slain" and "  Finch is dead (Slain on the Casualty Table)" in answered


def test_on_1_7_0_an_outcome_named_loosely_is_recorded_as_named(cli):
    """1.7.0 took 'Dead' as the group's own outcome, which changes nothing: a campaign on it decides so still."""
    newest = RULESET
    register(dataclasses.replace(newest, version="1.7.0", versions=newest.versions[:newest.versions.index("1.7.0") + 1]))
    try:
        campaign = after_the_battle(cli)
    finally:
        register(newest)
    for step in (["battle-pass", "Hawks"], ["scenario-pass", "Hawks"]):
        assert campaign("retinue", *step).exit_code == 0
    assert lines(campaign("retinue", "casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Dead")) == [
        "  R0 Finch's Casualty Table: D6 rolled [6] = 6 (table)",
        "  Finch's Casualty Table: 6 — Dead (named by the player)",
        "  Hawks: post-game step Casualty Table done for battle 1"]
    assert [line for line in campaign("roster", "Hawks").output.splitlines() if "Finch" in line] == [
        "  Finch — fighter  XP 0  Wi2 Sa2 Mt3 Sk3 W2 M3 Df3 CC3 RC3"]  # not [dead]
    assert campaign("replay", "--check").exit_code == 0


def test_a_groups_own_data_files_are_checked_and_turned_into_house_rules(cli, tmp_path):
    """A4: the group's files, named after what they hold, checked with the sample set for the rest."""
    elf = {"Elf": {"baselines": {"Wi": 3, "Sa": 3, "Mt": 2, "Sk": 4, "W": 2, "M": 4, "Df": 2, "CC": 3, "RC": 4}}}
    ancestries = tmp_path / "ancestries.json"
    ancestries.write_text(json.dumps(elf), encoding="utf-8")
    made = cli("retinue", "data", str(ancestries))
    assert made.exit_code == 0 and json.loads(made.output) == {"tables": {"ancestries": elf}}
    house = tmp_path / "group.json"
    house.write_text(made.output, encoding="utf-8")
    assert cli("new", "R", "--ruleset", "retinue", "--options-file", str(house)).exit_code == 0
    cli("warband", "add", "Hawks", "--player", "Ann")
    assert lines(cli("retinue", "recruit", "Hawks", "Sylph", "--ancestry", "Elf")) == ["  Sylph, fighter, joins Hawks"]


@pytest.mark.parametrize(("name", "content", "message"), [
    ("ancestries.json", '{"Elf": {"baselines": {"Wi": 9}}}', "Retinue table 'ancestries' is invalid: Elf: no value for Sa, Mt, Sk, W, M, Df, CC, RC"),
    ("doom.json", '{"dice": "2D6", "rows": [{"low": 2, "high": 12, "outcome": "Spared", "kind": "lucky"}]}',
     "Retinue table 'doom' is invalid: Invalid enum value 'lucky' - at `$.rows[0].kind`"),
    ("spells.json", "{}", "{path}: a retinue data file is named after what it holds (ancestries.json, archetypes.json, "
                          "domains.json, feats.json, casualty.json, doom.json)"),
    ("feats.json", "{not json", "{path}: not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
])
def test_a_bad_data_file_is_refused_with_what_is_wrong(cli, tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    assert refused(cli("retinue", "data", str(path)), 2, message.format(path=path))


def test_at_a_terminal_the_guided_post_game_asks_and_walks_every_step(hawks, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    answers = ["Finch", "two", "0", "7", "none",  # scenario pass: Finch gets 7 (asked again until E6 takes it), nobody else
               "6", "Hardy",  # Finch's Casualty Table: the die, then the outcome named (A3)
               "none",  # nobody rolls on the Doom Table
               "none",  # no survival-roll bonus
               "go on"]  # no purchase before closing the spending step
    walked = hawks("post-game", "Hawks", input="\n".join(answers) + "\n")
    assert walked.exit_code == 0, walked.output
    said = [line for line in walked.output.splitlines() if not line.startswith("Recorded T")]
    assert said == [
        "== Battle pass: not Out of Action, enemies put Out of Action (E3, E4)",
        "  Kestrel gains 1 XP (battle pass: did not go Out of Action)",
        "  Kestrel gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
        "  Hawks: post-game step Battle pass done for battle 1",
        "== Scenario pass: the XP the scenario states for each fighter (E6)",
        "Which fighter of battle 1 does the scenario award XP? (E6: each award names one fighter)",  # by number or name
        "  1) none", "  2) Kestrel", "  3) Finch",
        "Choose by number or name [none]: Finch",
        "How much XP does the scenario award Finch?: two",
        "  How much XP does the scenario award Finch?: 'two' is not a whole number",
        "How much XP does the scenario award Finch?: 0",
        "  E6: a scenario award is a positive amount of XP, not 0",
        "How much XP does the scenario award Finch?: 7",
        "Which other fighter of battle 1 does the scenario award XP?",
        "  1) none", "  2) Kestrel",
        "Choose by number or name [none]: none",
        "  Finch gains 7 XP (scenario pass: the scenario)",
        "  Hawks: post-game step Scenario pass done for battle 1",
        "== Casualty Table: a D6 for each fighter that went Out of Action",
        "Finch's Casualty Table (D6) — enter 1 face (D6): 6",
        "Finch rolled 6 on the Casualty Table: the outcome",
        "  1) Slain", "  2) Captured", "  3) Hardy", "  4) Recovered",
        "Choose by number or name: Hardy",
        "  R0 Finch's Casualty Table: D6 rolled [6] = 6 (table)",
        "  Finch's Casualty Table: 6 — Hardy (named by the player)",
        "  Hawks: post-game step Casualty Table done for battle 1",
        "== Doom Table: 2D6",
        "Which fighter of battle 1 rolls on the Doom Table?",
        "  1) none", "  2) Kestrel", "  3) Finch",
        "Choose by number or name [none]: none",
        "  Hawks: post-game step Doom Table done for battle 1",
        "== Post-game pass: Hardy, Miraculous, survival rolls (E5, E7)",
        "Which surviving fighter of battle 1 gains +1 from a survival roll or scenario result?",
        "  1) none", "  2) Kestrel", "  3) Finch",
        "Choose by number or name [none]: none",
        "  Finch gains 1 XP (post-game pass: Hardy, Casualty Table)",
        "  Hawks: post-game step Post-game pass done for battle 1",
        "== Spending: advancements bought (S1-S9)",
        "Before this step: buy advancements first (`campaign retinue buy WARBAND FIGHTER ADVANCEMENT`)?",
        "  1) go on", "  2) stop here",
        "Choose by number or name [stop here]: go on",
        "  Hawks: post-game step Spending done for battle 1",
        "Post-game sequence complete.",
    ]


def test_a_walk_stopped_at_a_prompt_says_which_of_its_steps_are_recorded(hawks, monkeypatch):
    """End of input (what Ctrl-D gives; click turns Ctrl-C into the same) at the scenario pass's first
    question: the battle pass recorded before it stands, and the error says so rather than "nothing"."""
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    stopped = hawks("post-game", "Hawks", input="")
    assert (stopped.exit_code, stopped.stderr) == (
        1, "\nError: stopped at the prompt (Ctrl-C or end of input): nothing more was recorded; recorded before it: T8\n")
    said = stopped.stdout.splitlines()
    assert said[4].startswith("Recorded T8 (4 events). Head ")
    assert said[:4] + said[5:] == [
        "== Battle pass: not Out of Action, enemies put Out of Action (E3, E4)",
        "  Kestrel gains 1 XP (battle pass: did not go Out of Action)",
        "  Kestrel gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
        "  Hawks: post-game step Battle pass done for battle 1",
        "== Scenario pass: the XP the scenario states for each fighter (E6)",
        "Which fighter of battle 1 does the scenario award XP? (E6: each award names one fighter)",
        "  1) none", "  2) Kestrel", "  3) Finch",
        "Choose by number or name [none]: ",
    ]
    assert hawks("post-game", "Hawks", "--list").output.splitlines()[:2] == [
        "[x] battle-pass: Battle pass: not Out of Action, enemies put Out of Action (E3, E4)",
        "[ ] scenario-pass: Scenario pass: the XP the scenario states for each fighter (E6)"]


@pytest.mark.parametrize(("xp", "code", "said"), [
    ("6", 0, ["  Finch gains 6 XP (scenario pass: Horn Hunt)", "  Hawks: post-game step Scenario pass done for battle 1"]),
    ("40", 0, ["  Finch gains 40 XP (scenario pass: Horn Hunt)", "  Hawks: post-game step Scenario pass done for battle 1"]),
    ("0", 2, ["Error: E6: a scenario award is a positive amount of XP, not 0"]),
    ("-2", 2, ["Error: E6: a scenario award is a positive amount of XP, not -2"]),
])
def test_E6_the_walk_takes_the_amounts_scenario_pass_takes(cli, tmp_path, xp, code, said):
    """E6: "Each scenario states which fighters earn XP and how much": the seed bounds no award, and
    the walk's question took only 1 to 5 where `scenario-pass --award` took any. Given the same
    amount, both record it, or both refuse it in the same words and record nothing. An amount that is no
    award (0, -2) is bad input, as README says of a walk answer a later step refuses (exit 2); it was a
    rules refusal (exit 1)."""
    walk, direct = (after_the_battle(campaign, "--scenario", "Horn Hunt")
                    for campaign in (cli, CampaignRunner("sqlite:///" + str(tmp_path / "d.db"))))
    for campaign in (walk, direct):
        assert campaign("retinue", "battle-pass", "Hawks").exit_code == 0
    walked = walk("post-game", "Hawks", "--step", "scenario-pass", "--answer", "scenario-award:1=Finch",
                  "--answer", f"scenario-award:1:xp={xp}", "--answer", "scenario-award:2=none")
    done = direct("retinue", "scenario-pass", "Hawks", "--award", f"Finch={xp}")
    heading = "== Scenario pass: the XP the scenario states for each fighter (E6)"
    assert (walked.exit_code, walked.output.splitlines()[0]) == (code, heading)
    assert [line for line in walked.output.splitlines()[1:] if not line.startswith("Recorded T")] == said
    assert (done.exit_code, [line for line in done.output.splitlines() if not line.startswith("Recorded T")]) == (code, said)
    for campaign in (walk, direct):
        assert ("[x] scenario-pass" in campaign("post-game", "Hawks", "--list").output) == (code == 0)


def test_the_walks_xp_question_is_answered_with_a_whole_number(hawks):
    """Its answer is no choice of a list: --list says N; a word, or no answer, is bad input (exit 2)."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    assert hawks("post-game", "Hawks", "--list", "--answer", "scenario-award:1=Finch").output.splitlines()[2] == (
        "      --answer scenario-award:1:xp=N  How much XP does the scenario award Finch?")
    assert refused(hawks("post-game", "Hawks", "--json", "--answer", "scenario-award:1=Finch"), 2,
                   "How much XP does the scenario award Finch?: answer with --answer scenario-award:1:xp=N (a whole number)")
    assert refused(hawks("post-game", "Hawks", "--json", "--answer", "scenario-award:1=Finch", "--answer", "scenario-award:1:xp=two"),
                   2, "How much XP does the scenario award Finch?: 'two' is not a whole number")
    assert "[ ] scenario-pass" in hawks("post-game", "Hawks", "--list").output


@pytest.mark.parametrize(("given", "named"), [
    (["post-game", "Hawks", "--step", "scenario-pass", "--answer", "scenario-award:1=Finch",
      "--answer", "scenario-award:1:xp=999999999999999999999", "--answer", "scenario-award:2=none"],
     "How much XP does the scenario award Finch?"),
    (["retinue", "scenario-pass", "Hawks", "--award", "Finch=999999999999999999999"], "--award Finch"),
])
def test_an_award_past_the_ledgers_limit_is_refused_naming_the_answer_or_option(hawks, given, named):
    """Refused when sealed, the error named the recorded command's field: '999999999999999999999
    (command.recorded.args.awards[0].amount) is too large'. Now the question answered, or --award and
    its fighter, as a word for a number is; nothing written."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    head = json.loads(hawks("show", "--json").output)["head"]
    result = hawks(*given)
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f"Error: {named}: 999999999999999999999 is too large: the ledger records whole numbers up to 9007199254740991")
    assert json.loads(hawks("show", "--json").output)["head"] == head


@pytest.mark.parametrize("given", [["post-game", "Hawks", "--step", "scenario-pass", "--answer", "scenario-award:1=Finch",
                                    "--answer", "scenario-award:1:xp=2", "--answer", "scenario-award:2=none"],
                                   ["retinue", "scenario-pass", "Hawks", "--award", "Finch=2"]])
def test_an_award_given_no_reason_is_for_the_scenario_whichever_way_it_is_given(hawks, given):
    """A battle of no named scenario, and no --for: the walk recorded "the scenario", `scenario-pass`
    "scenario"; both record "the scenario" now."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    assert [line for line in lines(hawks(*given)) if line.startswith("  ")] == [
        "  Finch gains 2 XP (scenario pass: the scenario)", "  Hawks: post-game step Scenario pass done for battle 1"]


def test_an_award_recorded_for_scenario_still_replays_as_recorded(hawks):
    """The reason is written into the command recorded (its award's), not filled in when deciding: a
    scenario pass recorded with the old default, "scenario", re-decides to exactly what it recorded."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    assert lines(hawks("retinue", "scenario-pass", "Hawks", "--award", "Finch=2", "--for", "scenario"))[0] == (
        "  Finch gains 2 XP (scenario pass: scenario)")
    checked = hawks("replay", "--check")
    assert (checked.exit_code, checked.output) == (0, "Re-decided 8 transactions from their commands and dice: all match.\n")


def test_two_results_naming_one_fighter_give_it_plus_1_each(hawks):
    """E7: "Some Survival Roll or scenario results also grant +1 Experience to one named or selected
    surviving fighter": two results may name the same one."""
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "6", "--outcome", "Finch=Hardy"], ["doom"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert lines(hawks("retinue", "post-game-pass", "Hawks", "--bonus", "Kestrel=survival roll",
                       "--bonus", "Kestrel=held the bridge")) == [
        "  Finch gains 1 XP (post-game pass: Hardy, Casualty Table)",
        "  Kestrel gains 1 XP (post-game pass: survival roll)",
        "  Kestrel gains 1 XP (post-game pass: held the bridge)",
        "  Hawks: post-game step Post-game pass done for battle 1",
    ]


def test_the_walk_gives_a_second_bonus_to_a_fighter_named_by_two_results(hawks):
    """E7, as `post-game-pass --bonus` takes it (above): the walk refused Finch for bonus:2, once picked."""
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "6", "--outcome", "Finch=Recovered"], ["doom"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert hawks("post-game", "Hawks", "--list", "--answer", "bonus:1=Finch").output.splitlines()[5] == (
        "      --answer bonus:2=none|Kestrel|Finch  Which surviving fighter of battle 1 gains +1 from another survival roll or scenario result?")
    walked = hawks("post-game", "Hawks", "--step", "post-game-pass", "--answer", "bonus:1=Finch", "--answer", "bonus:2=Finch",
                   "--answer", "bonus:3=none")
    assert lines(walked) == [
        "== Post-game pass: Hardy, Miraculous, survival rolls (E5, E7)",
        "  Finch gains 1 XP (post-game pass: survival roll or scenario result)",
        "  Finch gains 1 XP (post-game pass: survival roll or scenario result)",
        "  Hawks: post-game step Post-game pass done for battle 1",
    ]


@pytest.mark.parametrize("given", [
    ["post-game", "Hawks", "--answer", "bonus:1=Finch", "--answer", "bonus:2=none"],
    ["retinue", "post-game-pass", "Hawks", "--bonus", "Finch=survival roll or scenario result"]])
def test_a_captured_fighter_gains_the_survival_bonus_either_way(hawks, given):
    """E7 "one named or selected surviving fighter": Finch, Captured on the Casualty Table, survived (E5 denies
    the Slain alone). `post-game-pass --bonus` took him and the walk did not offer him: now both do."""
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "2", "--outcome", "Finch=Captured"], ["doom"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert hawks("post-game", "Hawks", "--list").output.splitlines()[5] == (
        "      --answer bonus:1=none|Kestrel|Finch  Which surviving fighter of battle 1 gains +1 from a survival roll or "
        "scenario result?")
    assert [line for line in lines(hawks(*given)) if line.startswith("  ")] == [
        "  Finch gains 1 XP (post-game pass: survival roll or scenario result)",
        "  Hawks: post-game step Post-game pass done for battle 1"]


def test_a_purchase_asks_for_its_spell_and_reduction_by_buys_own_options(hawks):
    """`buy` has no --answer: what it needs is named with its --spell and --reduce."""
    assert hawks("correct", "Hawks", "Finch", "--xp", "30", "--reason", "arbiter").exit_code == 0
    assert lines(hawks("retinue", "buy", "Hawks", "Finch", "CC")) == ["  Finch spends 12 XP on CC +1", "  Finch CC +1 (advancement)"]
    assert refused(hawks("retinue", "buy", "Hawks", "Finch", "CC"), 2,
                   "Finch's CC goes beyond its ancestry baseline + 1: reduce which attribute?: answer with --reduce CHOICE "
                   "(one of: Wi, Sa, Mt, Sk, W, M, Df, RC)")


def grim_kept_in(cli, *kept_out: str):
    """Hawks (Kestrel, Leader; Finch) against Wolves (Lupa, Leader; Grim): Kestrel took Lupa out,
    Finch took Grim out, and `kept_out` says Grim was not Out of Action after all."""
    for args in (["warband", "add", "Hawks", "--player", "Ann"], ["warband", "add", "Wolves", "--player", "Bob"],
                 ["retinue", "recruit", "Hawks", "Kestrel", "--ancestry", "Human", "--leader"],
                 ["retinue", "recruit", "Hawks", "Finch", "--ancestry", "Human"],
                 ["retinue", "recruit", "Wolves", "Lupa", "--ancestry", "Dwarf", "--leader"],
                 ["retinue", "recruit", "Wolves", "Grim", "--ancestry", "Human"],
                 ["battle", "record", "--warband", "Hawks", "--warband", "Wolves", "--took-out", "Kestrel=Lupa",
                  "--took-out", "Finch=Grim", *kept_out]):
        assert cli(*args).exit_code == 0, args
    return lines(cli("retinue", "battle-pass", "Hawks"))


def test_E3_an_enemy_who_did_not_go_out_of_action_earns_its_taker_nothing(cli):
    """E3: "Put an enemy fighter Out of Action …": Grim, kept in (--not-out), was not put Out of
    Action, so Finch earns nothing for him (version 1.1.0). One not in the battle (--absent) cannot
    have been taken out: the battle is refused."""
    assert cli("new", "R", "--ruleset", "retinue").exit_code == 0
    assert grim_kept_in(cli, "--not-out", "Grim") == [
        "  Kestrel gains 1 XP (battle pass: did not go Out of Action)",
        "  Kestrel gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
        "  Finch gains 1 XP (battle pass: did not go Out of Action)",
        "  Hawks: post-game step Battle pass done for battle 1",
    ]
    absent = cli("battle", "record", "--warband", "Hawks", "--warband", "Wolves", "--took-out", "Finch=Grim",
                 "--absent", "Grim")
    assert (absent.exit_code, absent.output) == (2, "Error: Grim did not fight in this battle: Finch cannot have taken him out\n")


def test_a_campaign_started_under_1_0_0_credits_every_took_out_as_it_did(cli):
    newest = RULESET
    register(dataclasses.replace(newest, version="1.0.0", versions=("1.0.0",)))
    try:
        assert cli("new", "R", "--ruleset", "retinue").exit_code == 0
    finally:
        register(newest)
    assert grim_kept_in(cli, "--not-out", "Grim") == [
        "  Kestrel gains 1 XP (battle pass: did not go Out of Action)",
        "  Kestrel gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
        "  Finch gains 1 XP (battle pass: did not go Out of Action)",
        "  Finch gains 1 XP (battle pass: put Grim Out of Action)",
        "  Hawks: post-game step Battle pass done for battle 1",
    ]
    assert cli("replay", "--check").exit_code == 0


def test_under_whole_excess_a_second_reduce_takes_what_the_first_attribute_cannot(cli):
    """A1 whole-excess: Ox (Thrall, baseline Mt 2) raised from Mt 5 to 6 owes 3 points; M 3 takes 2
    "to a minimum of 1", and the third is asked with one more --reduce (1.3.0)."""
    for args in (["new", "R", "--ruleset", "retinue", "--option", "baseline_excess=whole-excess"],
                 ["warband", "add", "Hawks", "--player", "Ann"], ["retinue", "recruit", "Hawks", "Ox", "--ancestry", "Thrall"],
                 ["correct", "Hawks", "Ox", "--xp", "100", "--stat", "Mt=3", "--reason", "arbiter"]):
        assert cli(*args).exit_code == 0, args
    assert refused(cli("retinue", "buy", "Hawks", "Ox", "Mt", "--reduce", "M"), 2,
                   "Ox's M is down to 1, and 1 more point must come off another attribute (S7): reduce which attribute?: "
                   "answer with one more --reduce CHOICE (one of: Wi, Sa, Sk, Df, CC, RC)")
    assert lines(cli("retinue", "buy", "Hawks", "Ox", "Mt", "--reduce", "M", "--reduce", "Sk")) == [
        "  Ox spends 7 XP on Mt +1", "  Ox Mt +1 (advancement)",
        "  Ox M -2 (S7: Mt 6 is beyond the ancestry baseline 2 + 1)", "  Ox Sk -1 (S7: Mt 6 is beyond the ancestry baseline 2 + 1)"]


def test_feats_and_spells_are_named_whatever_their_case(hawks):
    """As the lists print them ("Cleave", "Gust") or as typed."""
    assert hawks("correct", "Hawks", "Finch", "--xp", "30", "--reason", "arbiter").exit_code == 0
    assert lines(hawks("retinue", "buy", "Hawks", "Finch", "feat-outside", "--feat", "cleave")) == [
        "  Finch spends 15 XP on Feat (outside Archetype or Domain)", "  Finch learns Cleave"]
    assert lines(hawks("retinue", "buy", "Hawks", "Finch", "feat", "--feat", "iron will")) == [
        "  Finch spends 3 XP on Feat", "  Finch learns Iron Will"]
    assert hawks("correct", "Hawks", "Kestrel", "--xp", "11", "--stat", "Wi=1", "--reason", "arbiter").exit_code == 0
    assert lines(hawks("retinue", "buy", "Hawks", "Kestrel", "caster", "--spell", "drain")) == [
        "  Kestrel spends 11 XP on Caster (9 + 2 for a Vampire)", "  Kestrel gains Caster", "  Kestrel learns Drain"]


def test_a_vampires_feat_outside_says_its_price_in_one_pair_of_brackets(hawks):
    """S3 on 1.7.0: the make-up of a Vampire's price goes inside the label's own brackets; the log and the
    history say it as recorded (1.6.0 recorded "Feat (outside Archetype or Domain) (15 + 2 for a Vampire)")."""
    assert hawks("correct", "Hawks", "Kestrel", "--xp", "17", "--reason", "arbiter").exit_code == 0
    bought = ["  Kestrel spends 17 XP on Feat (outside Archetype or Domain; 15 + 2 for a Vampire)", "  Kestrel learns Focus"]
    assert lines(hawks("retinue", "buy", "Hawks", "Kestrel", "feat-outside", "--feat", "Focus")) == bought
    assert hawks("history", "--fighter", "Kestrel").output.splitlines()[-2:] == [
        "   20 T9    arbiter    Kestrel spends 17 XP on Feat (outside Archetype or Domain; 15 + 2 for a Vampire)",
        "   21 T9    arbiter    Kestrel learns Focus"]


@pytest.mark.parametrize(("args", "message"), [
    (["buy", "Hawks", "Kestrel", "XX"], "S2: no advancement 'XX' (advancements: feat, Wi, Sa, Mt, Sk, W, caster, M, Df, CC, RC, "
                                        "feat-outside)"),
    (["buy", "Hawks", "Finch", "feat", "--feat", "Juggling"], "S4: no feat 'Juggling' on any feat list"),
    (["buy", "Hawks", "Finch", "feat-outside", "--feat", "Juggling"], "S5: no feat 'Juggling' on any feat list"),
    # a spell of no Domain, before S8 refuses Kestrel's Wi 3: it was a rules refusal (exit 1), 'not a spell of the Blood Domain'
    (["buy", "Hawks", "Kestrel", "caster", "--spell", "Nonsense"],
     "S8: no spell 'Nonsense' on any Domain's list (Blood: Crimson Bolt, Blood Ward, Drain; Storm: Lightning, Gust, Thunderclap)"),
    (["scenario-pass", "Hawks", "--award", "Lupa=2"], "E6: scenario XP goes to a named fighter of the retinue, and 'Lupa' "
                                                      "is not one (never retinue-wide unless the scenario names a specific fighter)"),
])
def test_an_unknown_name_is_bad_input(hawks, args, message):
    """README: a mistake in input — an unknown option, value or fighter — exits 2, as it does everywhere."""
    assert hawks("correct", "Hawks", "Finch", "--xp", "30", "--reason", "arbiter").exit_code == 0
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    assert refused(hawks("retinue", *args), 2, message)


def test_a_reason_or_an_outcome_left_blank_is_bad_input(hawks):
    """What the command leaves blank is told from it alone, as `--award Kestrel` (no '=') is and as the walk's blank
    answer is ('' names nothing): bad input (exit 2), nothing written; they were rules refusals (exit 1)."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    assert refused(hawks("retinue", "scenario-pass", "Hawks", "--award", "Kestrel=1", "--for", " "), 2,
                   "E6: say what the scenario awards Kestrel XP for")
    assert hawks("retinue", "scenario-pass", "Hawks").exit_code == 0
    for dice in (["--dice", "6"], ["--ledger"]):
        assert refused(hawks("retinue", "casualty", "Hawks", *dice, "--outcome", "Finch= "), 2,
                       "A3: name the Casualty Table outcome")
    for step in (["casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Recovered"], ["doom", "Hawks"]):
        assert hawks("retinue", *step).exit_code == 0, step
    assert refused(hawks("retinue", "post-game-pass", "Hawks", "--bonus", "Kestrel= "), 2,
                   "E7: say which survival roll or scenario result gives Kestrel +1")
    assert "[ ] post-game-pass" in hawks("post-game", "Hawks", "--list").output


def test_a_reduction_of_the_attribute_bought_is_bad_input(hawks):
    """S7: "select a different attribute on this fighter and reduce it": --reduce naming the attribute bought
    is no choice the question offers (exit 2), told once the price is paid, as every --reduce is; it was a
    rules refusal (exit 1). Finch's Mt 4 is his baseline 3 + 1, so Mt 5 owes a reduction."""
    assert hawks("correct", "Hawks", "Finch", "--xp", "14", "--reason", "arbiter").exit_code == 0
    assert lines(hawks("retinue", "buy", "Hawks", "Finch", "Mt")) == ["  Finch spends 7 XP on Mt +1", "  Finch Mt +1 (advancement)"]
    for reduce in ("Mt", "mt"):
        assert refused(hawks("retinue", "buy", "Hawks", "Finch", "Mt", "--reduce", reduce), 2,
                       "S7: name an attribute of Finch other than Mt to reduce (one of: Wi, Sa, Sk, W, M, Df, CC, RC)")


def test_a_reduction_of_an_attribute_already_at_1_is_bad_input_as_the_question_refuses_it(hawks):
    """S7 with A2 "refuse": "refused, name another". Finch's W is 1 and his Mt 4 is his baseline 3 + 1, so Mt 5 owes a
    reduction. The question does not offer W, so answering W is refused as no choice offered (exit 2); '--reduce W'
    was a rules refusal (exit 1), though the command and the state alone tell it, as a --reduce of the attribute
    bought is bad input. The words stay; nothing is written."""
    assert hawks("correct", "Hawks", "Finch", "--xp", "14", "--stat", "W=-1", "--reason", "arbiter").exit_code == 0
    assert lines(hawks("retinue", "buy", "Hawks", "Finch", "Mt")) == ["  Finch spends 7 XP on Mt +1", "  Finch Mt +1 (advancement)"]
    before = hawks("log").output
    for reduce in ("W", "w"):
        assert refused(hawks("retinue", "buy", "Hawks", "Finch", "Mt", "--reduce", reduce), 2,
                       "S7, A2: Finch's W is already 1: name another attribute (Wi, Sa, Sk, M, Df, CC, RC)")
    assert hawks("log").output == before


def test_a_survival_bonus_for_a_fighter_recruited_since_the_battle_is_refused(hawks):
    """E7 (1.5.0): the +1 goes to "one named or selected surviving fighter" of the battle; Wren joined after it."""
    assert hawks("retinue", "recruit", "Hawks", "Wren", "--ancestry", "Human").exit_code == 0
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "5", "--outcome", "Finch=Recovered"], ["doom"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert refused(hawks("retinue", "post-game-pass", "Hawks", "--bonus", "Wren=survival roll"), 1,
                   "E7: Wren did not fight in battle 1 (recruited since, or absent): a survival roll or scenario result "
                   "grants +1 to a fighter who survived that battle")
    assert hawks("fighter", "show", "Wren").output.splitlines()[1] == "  XP 0  games 0  Wi2 Sa2 Mt3 Sk3 W2 M3 Df3 CC3 RC3"


def test_a_fighter_recruited_since_the_battle_is_refused_the_doom_table(hawks):
    """E7 (1.5.0): the Doom Table follows the battle, for its fighters; Wren joined after it. Nothing is
    written: the step is still open for the battle's own fighters, and its roll is R1 (R0 the Casualty die)."""
    assert hawks("retinue", "recruit", "Hawks", "Wren", "--ancestry", "Human").exit_code == 0
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "5", "--outcome", "Finch=Recovered"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert refused(hawks("retinue", "doom", "Hawks", "--fighter", "Wren", "--dice", "6,6", "--outcome", "Wren=Miraculous"), 1,
                   "E7: Wren did not fight in battle 1 (recruited since, or absent): the Doom Table is rolled after that "
                   "battle, for a fighter who fought it")
    assert lines(hawks("retinue", "doom", "Hawks", "--fighter", "Kestrel", "--dice", "6,6", "--outcome", "Kestrel=Spared")) == [
        "  R1 Kestrel's Doom Table: 2D6 rolled [6, 6] = 12 (table)", "  Kestrel's Doom Table: 12 — Spared (named by the player)",
        "  Hawks: post-game step Doom Table done for battle 1"]


def test_the_did_not_go_out_of_action_award_is_spent_only_once_the_doom_table_is_rolled(hawks):
    """E5 (1.5.0): Slain on the Doom Table, Kestrel would give back its +1; until then it stays in the bank."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0  # Kestrel: 1 (not Out of Action) + 2 (Lupa, the Leader)
    assert hawks("correct", "Hawks", "Kestrel", "--xp", "2", "--reason", "arbiter").exit_code == 0
    assert refused(hawks("retinue", "buy", "Hawks", "Kestrel", "feat", "--feat", "Cleave"), 1,
                   "S1, S3, E5: Kestrel has 5 XP, 1 of it the 'did not go Out of Action' award, which a fighter Slain on "
                   "the Doom Table gives back: 4 XP to spend until the Doom Table is rolled; Feat costs 3, 5 for a Vampire: "
                   "1 XP short")
    for step in (["scenario-pass"], ["casualty", "--dice", "5", "--outcome", "Finch=Recovered"], ["doom"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert hawks("retinue", "buy", "Hawks", "Kestrel", "feat", "--feat", "Cleave").exit_code == 0
    assert hawks("fighter", "show", "Kestrel").output.splitlines()[1].startswith("  XP 0 ")


def test_an_unknown_fighter_given_a_survival_bonus_is_bad_input(hawks):
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "6", "--outcome", "Finch=Hardy"], ["doom"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert refused(hawks("retinue", "post-game-pass", "Hawks", "--bonus", "Lupa=survival roll"), 2,
                   "E7: 'Lupa' is not a fighter of the retinue")


def test_an_outcome_named_for_a_fighter_who_does_not_roll_names_him_and_what_to_do(hawks):
    """The Casualty Table is rolled for each fighter who went Out of Action ("Hardy (Casualty Table d6)"),
    the Doom Table ("Miraculous (Doom Table 2d6)") for the fighters named with --fighter: an outcome named
    for another fighter is refused by his name, saying why he does not roll and what to type instead; a
    name of nobody in the retinue is refused as an unknown fighter is everywhere. Nothing is rolled."""
    for step in (["battle-pass"], ["scenario-pass"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert refused(hawks("retinue", "casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Hardy", "--outcome", "kestrel=Hardy"),
                   2, "--outcome kestrel: Kestrel did not go Out of Action in battle 1, and the Casualty Table is rolled "
                      "for each fighter who did")
    assert refused(hawks("retinue", "casualty", "Hawks", "--dice", "6", "--outcome", "Lupa=Hardy"), 2,
                   "no fighter 'Lupa' in Hawks: Lupa is in Wolves")
    assert lines(hawks("retinue", "casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Hardy"))[0] == (
        "  R0 Finch's Casualty Table: D6 rolled [6] = 6 (table)")
    assert refused(hawks("retinue", "doom", "Hawks", "--dice", "6,6", "--outcome", "Kestrel=Miraculous"), 2,
                   "--outcome Kestrel: Kestrel is not named to roll on the Doom Table: name each fighter who rolls "
                   "with --fighter (--fighter Kestrel)")
    assert lines(hawks("retinue", "doom", "Hawks", "--fighter", "Kestrel", "--dice", "6,6", "--outcome", "Kestrel=Miraculous"))[0] == (
        "  R1 Kestrel's Doom Table: 2D6 rolled [6, 6] = 12 (table)")


def test_a_fighter_named_twice_in_another_case_is_given_twice_as_in_the_same_case(hawks):
    """E6 (1.6.0): "Scenario awards are per fighter": one award a fighter, and one outcome a roll, whatever
    the case he is typed in (1.5.0 awarded Finch 2 + 3 = 5 XP here, and kept the last outcome)."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    for second in ("Finch=3", "finch=3"):
        assert refused(hawks("retinue", "scenario-pass", "Hawks", "--award", "Finch=2", "--award", second), 2,
                       "--award Finch is given twice")
    assert hawks("retinue", "scenario-pass", "Hawks").exit_code == 0
    for second in ("Finch=Slain", "finch=Slain"):
        assert refused(hawks("retinue", "casualty", "Hawks", "--dice", "6", "--outcome", "Finch=Hardy", "--outcome", second), 2,
                       "--outcome Finch is given twice")


def kestrel_named_miraculous_on_a_12(hawks):
    """The post-game up to the Doom Table, where Kestrel rolls 12 (R1), named Miraculous."""
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "5", "--outcome", "Finch=Recovered"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    assert hawks("retinue", "doom", "Hawks", "--fighter", "Kestrel", "--dice", "6,6", "--outcome", "Kestrel=Miraculous").exit_code == 0


def test_a_rerolled_doom_roll_asks_for_the_outcome_of_the_new_roll(hawks):
    """A3 by name: the outcome is named with the roll; "Miraculous (Doom Table 2d6) +2". The 12 is disputed and
    rolled again, 7: the Miraculous named with the 12 is not the 7's (1.5.0 recorded "7 — Miraculous", +2 XP)."""
    kestrel_named_miraculous_on_a_12(hawks)
    assert refused(hawks("reroll", "R1", "--reason", "cocked die", "--dice", "3,4"), 2,
                   "Kestrel rolled 7 on the Doom Table: the outcome: answer with --answer doom:kestrel=CHOICE "
                   "(one of: Slain, Captured, Miraculous, Spared, or another name)")
    assert lines(hawks("reroll", "R1", "--reason", "cocked die", "--dice", "3,4", "--answer", "doom:kestrel=Spared"))[-3:] == [
        "  R2 Kestrel's Doom Table: 2D6 rolled [3, 4] = 7 (table)",
        "  Kestrel's Doom Table: 7 — Spared (named by the player)",
        "  Hawks: post-game step Doom Table done for battle 1"]
    assert hawks("replay", "--check").exit_code == 0


def test_a_doom_roll_rerolled_with_ledger_dice_waits_for_its_outcome_and_replays_as_recorded(hawks, tmp_path):
    """A3 by name, the new roll rolled by the ledger: its outcome is named once the roll is stored, so the
    reroll waits pending for it (no face shown before it is stored); the command is recorded without the
    outcome named with the 12, so replay --check and an import decide the pending step and its answer alike."""
    kestrel_named_miraculous_on_a_12(hawks)
    waiting = hawks("reroll", "R1", "--reason", "cocked die", "--ledger")
    assert (waiting.exit_code, waiting.output.splitlines()[-1].split(" — ")[-1]) == (1, (
        "its dice are recorded and T13 is pending: settle it with `campaign answer doom:kestrel=CHOICE` "
        "(Slain | Captured | Miraculous | Spared), or void it with `campaign void T13 --reason …`"))
    assert hawks("replay", "--check").exit_code == 0
    outcome, done = lines(hawks("answer", "doom:kestrel=Spared"))[-2:]
    assert (outcome.endswith(" — Spared (named by the player)"), done) == (True, "  Hawks: post-game step Doom Table done for battle 1")
    assert hawks("replay", "--check").exit_code == 0
    trail = tmp_path / "trail.jsonl"
    assert hawks("export", "--format", "jsonl", "--output", str(trail)).exit_code == 0
    imported = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))("import", str(trail))
    assert imported.exit_code == 0, imported.output


def casualty_rerolled_by_the_ledger_after_the_doom_table(hawks):
    """Finch's Casualty roll (R0, named Recovered) and Kestrel's Doom roll after it (T11, R1: 7, named Spared), then
    R0 disputed and rolled again by the ledger with --cascade: the new roll's outcome is asked for (A3 by name), so
    the reroll stops pending as T13, T11 voided with T10."""
    for step in (["battle-pass"], ["scenario-pass"], ["casualty", "--dice", "5", "--outcome", "Finch=Recovered"],
                 ["doom", "--fighter", "Kestrel", "--dice", "3,4", "--outcome", "Kestrel=Spared"]):
        assert hawks("retinue", *step, "Hawks").exit_code == 0, step
    return hawks("reroll", "R0", "--reason", "fell", "--ledger", "--cascade")


def test_a_cascading_reroll_left_pending_decides_the_later_transactions_again_once_answered(hawks, tmp_path):
    """A cascade decides again after the new roll the later transactions it voids, each with its own recorded dice.
    Stopped pending, it left them voided: answering it decided the new roll alone, so the Doom Table step (T11, and in
    the demo two battles) was lost for good, and typed again any dice it rolled would be rolled anew. Now the reroll
    says they are decided again once it is answered, and the answer does so; meanwhile the campaign waits for it."""
    pending = casualty_rerolled_by_the_ledger_after_the_doom_table(hawks)
    assert pending.exit_code == 1
    assert ("  T11 voided too (no longer follows once T10 is voided: E2: Hawks must roll on the Casualty Table before it "
            "can roll on the Doom Table (post-game of battle 1); decided again after the new roll once its pending "
            "decision is answered)") in pending.output.splitlines()
    question = pending.output.splitlines()[-1].removeprefix("Error: ").split(" — ")[0]
    assert refused(hawks("retinue", "battle-pass", "Wolves"), 1, (
        f"T13 (retinue.casualty) is pending, so nothing more can be recorded for the campaign until it is settled: "
        f"{question}; settle it with `campaign answer casualty:finch=CHOICE` (Slain | Captured | Hardy | Recovered), "
        "or void it with `campaign void T13 --reason …`"))
    answered = output_lines(hawks("answer", "casualty:finch=Hardy"))
    assert answered[-4:] == [  # Kestrel's Doom roll decided again after the new roll, with its own dice
        "  Hawks: post-game step Casualty Table done for battle 1",
        "  R4 Kestrel's Doom Table: 2D6 rolled [3, 4] = 7 (table)",
        "  Kestrel's Doom Table: 7 — Spared (named by the player)",
        "  Hawks: post-game step Doom Table done for battle 1"]
    assert hawks("replay", "--check").exit_code == 0
    assert hawks("verify").exit_code == 0
    assert hawks("seed", "reveal").exit_code == 0
    trail = tmp_path / "trail.jsonl"
    assert hawks("export", "--format", "jsonl", "--output", str(trail)).exit_code == 0
    rolled = [json.loads(line)["payload"] for line in trail.read_text().splitlines() if '"dice.rolled"' in line]
    assert [roll.get("copy_of") for roll in rolled if roll["roll"] == 4] == [1]  # as the chain and a verifier check
    imported = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))("import", str(trail))
    assert imported.exit_code == 0, imported.output
    verified = independent(trail)
    assert verified.returncode == 0, verified.stdout


@pytest.mark.parametrize("dice", [["--dice", "6"], ["--ledger"]])
def test_an_outcome_the_casualty_table_cannot_give_is_refused_before_its_die_is_rolled(hawks, dice):
    """E7: Miraculous is a Doom Table result. Refused after the roll, a ledger die was seen and the step left
    pending (T10), which a void ended, for a new roll; now nothing is rolled or written."""
    for step in ("battle-pass", "scenario-pass"):
        lines(hawks("retinue", step, "Hawks"))
    head = hawks("verify", "--json").output
    assert refused(hawks("retinue", "casualty", "Hawks", "--outcome", "Finch=Miraculous", *dice), 1,
                   "E7: Miraculous is a Doom Table result, not a Casualty Table one")
    assert hawks("verify", "--json").output == head


ASKED_UP_FRONT = "casualty:FIGHTER, doom-roll:1, doom:FIGHTER, bonus:1"  # the keys of the steps after the scenario pass


@pytest.mark.parametrize(("given", "message"), [
    # Both fighters picked: there is no third to pick
    (["scenario-award:1=Finch", "scenario-award:1:xp=2", "scenario-award:2=Kestrel", "scenario-award:2:xp=1",
      "scenario-award:3=Finch"],
     "--answer scenario-award:3: no open step of the post-game asks it (keys: scenario-award:1, scenario-award:1:xp, "
     f"scenario-award:2, scenario-award:2:xp, {ASKED_UP_FRONT})"),
    # `none` ends the picks; so does a pick not answered (without a terminal, none)
    (["scenario-award:1=none", "scenario-award:2=Finch", "scenario-award:2:xp=2"],
     "--answer scenario-award:2, scenario-award:2:xp: no open step of the post-game asks it "
     f"(keys: scenario-award:1, {ASKED_UP_FRONT})"),
    (["doom-roll:1=Kestrel", "doom-roll:2=Finch", "doom-roll:3=Kestrel"],
     "--answer doom-roll:3: no open step of the post-game asks it "
     "(keys: scenario-award:1, casualty:FIGHTER, doom-roll:1, doom-roll:2, doom:FIGHTER, bonus:1)"),
    (["bonus:1=Finch", "bonus:3=Kestrel"],  # a fighter may be picked again for bonus:2, but none was
     "--answer bonus:3: no open step of the post-game asks it (keys: scenario-award:1, casualty:FIGHTER, doom-roll:1, "
     "doom:FIGHTER, bonus:1, bonus:2)"),
    # `none` past the picks says no more, as the walk does (below); a fighter past it is still refused
    (["doom-roll:1=Kestrel", "doom-roll:2=Finch", "doom-roll:3=none", "doom-roll:4=Finch"],
     "--answer doom-roll:4: no open step of the post-game asks it "
     "(keys: scenario-award:1, casualty:FIGHTER, doom-roll:1, doom-roll:2, doom:FIGHTER, bonus:1)"),
    # ... and the XP of an award never asked, though `none`: it is no pick
    (["scenario-award:1=none", "scenario-award:2=none", "scenario-award:2:xp=none"],
     f"--answer scenario-award:2:xp: no open step of the post-game asks it (keys: scenario-award:1, {ASKED_UP_FRONT})"),
])
def test_a_numbered_answer_no_pick_asks_is_refused_before_anything_is_written(hawks, given, message):
    """The walk asks its numbered picks (KEY:n) only while fighters are left to pick and none was
    answered `none`: one given beyond them was dropped without a word (exit 0). Built ahead with the
    answers given, the builders ask before any dice, so it is refused before the first step."""
    head = hawks("verify", "--json").output
    answers = [option for answer in given for option in ("--answer", answer)]
    assert refused(hawks("post-game", "Hawks", *answers), 2, message)
    assert hawks("verify", "--json").output == head


def test_none_for_a_pick_past_the_last_one_asked_is_left_unused(hawks):
    """`none` says "no more": given for a pick the walk never asks (both fighters picked, or `none` given
    already), it says what the walk does, so a script may end its picks with it not knowing how many
    fighters are left. It was refused ("no open step of the post-game asks it"); now the walk says it unused."""
    walked = hawks("post-game", "Hawks", "--answer", "scenario-award:1=Finch", "--answer", "scenario-award:1:xp=1",
                   "--answer", "scenario-award:2=Kestrel", "--answer", "scenario-award:2:xp=2",
                   "--answer", "scenario-award:3=none", "--answer", "scenario-award:4=none")
    assert output_lines(walked) == [
        "== Battle pass: not Out of Action, enemies put Out of Action (E3, E4)",
        "  Kestrel gains 1 XP (battle pass: did not go Out of Action)",
        "  Kestrel gains 2 XP (battle pass: put the enemy Leader Lupa Out of Action)",
        "  Hawks: post-game step Battle pass done for battle 1",
        "== Scenario pass: the XP the scenario states for each fighter (E6)",
        "  Finch gains 1 XP (scenario pass: the scenario)",
        "  Kestrel gains 2 XP (scenario pass: the scenario)",
        "  Hawks: post-game step Scenario pass done for battle 1",
        "== Casualty Table: a D6 for each fighter that went Out of Action",
        f"Next step: Casualty Table — Finch's Casualty Table needs D6 (1 more die): pass them with --dice, or use --ledger; {NEXT}",
        "Not used: scenario-award:3=none, scenario-award:4=none (the Scenario pass step did not ask them)"]
    assert hawks("retinue", "casualty", "Hawks", "--dice", "2", "--outcome", "Finch=Recovered").exit_code == 0
    walked = hawks("post-game", "Hawks", "--dice", "3,4,5,6", "--answer", "doom-roll:1=Kestrel", "--answer", "doom-roll:2=Finch",
                   "--answer", "doom-roll:3=none", "--answer", "doom:kestrel=Spared", "--answer", "doom:finch=Spared",
                   "--answer", "bonus:1=Finch", "--answer", "bonus:2=none", "--answer", "bonus:3=none")
    assert output_lines(walked) == [
        "== Doom Table: 2D6",
        "  R1 Kestrel's Doom Table: 2D6 rolled [3, 4] = 7 (table)",
        "  Kestrel's Doom Table: 7 — Spared (named by the player)",
        "  R2 Finch's Doom Table: 2D6 rolled [5, 6] = 11 (table)",
        "  Finch's Doom Table: 11 — Spared (named by the player)",
        "  Hawks: post-game step Doom Table done for battle 1",
        *FINCH_SURVIVES_THEN_STOPS,
        "Not used: doom-roll:3=none (the Doom Table step did not ask it); bonus:3=none (the Post-game pass step did not ask it)"]
    assert hawks("replay", "--check").exit_code == 0


def test_none_for_a_pick_that_a_step_before_it_took_away_is_left_unused(hawks):
    """Finch, slain on the Casualty Table in this run, is not there to pick: doom-roll:2=none (asked when the
    walk began) is not asked after all, and says what the walk does all the same: no more (a fighter for
    it is refused: below)."""
    for step in ("battle-pass", "scenario-pass"):
        assert hawks("retinue", step, "Hawks").exit_code == 0
    walked = hawks("post-game", "Hawks", "--dice", "1", "--answer", "casualty:finch=Slain",
                   "--answer", "doom-roll:1=Kestrel", "--answer", "doom-roll:2=none")
    assert output_lines(walked)[-3:] == [
        "== Doom Table: 2D6",
        f"Next step: Doom Table — Kestrel's Doom Table needs 2D6 (2 more dice): pass them with --dice, or use --ledger; {NEXT}",
        "Not used: doom-roll:1=Kestrel, doom-roll:2=none (the Doom Table step was not done)"]
    walked = hawks("post-game", "Hawks", "--step", "doom", "--dice", "3,4", "--answer", "doom-roll:1=Kestrel",
                   "--answer", "doom-roll:2=none", "--answer", "doom:kestrel=Spared")
    assert output_lines(walked) == [
        "== Doom Table: 2D6",
        "  R1 Kestrel's Doom Table: 2D6 rolled [3, 4] = 7 (table)",
        "  Kestrel's Doom Table: 7 — Spared (named by the player)",
        "  Hawks: post-game step Doom Table done for battle 1",
        "Not used: doom-roll:2=none (the Doom Table step did not ask it)"]


def test_a_pick_that_a_step_before_it_took_away_is_refused_before_its_step_is_written(hawks):
    """Finch, slain on the Casualty Table in this run, is no longer there to pick for the Doom Table:
    doom-roll:2 (asked when the walk began) is not asked after all. Only once the casualty step is
    recorded can that be known: the walk ends there, saying so, and records nothing of the Doom Table."""
    for step in ("battle-pass", "scenario-pass"):
        assert hawks("retinue", step, "Hawks").exit_code == 0
    walked = hawks("post-game", "Hawks", "--dice", "1", "--answer", "casualty:finch=Slain",
                   "--answer", "doom-roll:1=Kestrel", "--answer", "doom-roll:2=Finch")
    said = walked.output.splitlines()
    assert walked.exit_code == 2 and said[5].startswith("Recorded T10 (5 events). Head ")
    assert said[:5] + said[6:] == [
        "== Casualty Table: a D6 for each fighter that went Out of Action",
        "  R0 Finch's Casualty Table: D6 rolled [1] = 1 (table)",
        "  Finch's Casualty Table: 1 — Slain (named by the player)",
        "  Finch is dead (Slain on the Casualty Table)",
        "  Hawks: post-game step Casualty Table done for battle 1",
        "== Doom Table: 2D6",
        "Error: --answer doom-roll:2: the Doom Table step did not ask it after all, once the steps before it were recorded "
        "(of the answers given it asked doom-roll:1); nothing of the step was recorded",
        "Not used: doom-roll:1=Kestrel (the Doom Table step was not done)",  # doom-roll:2, refused, is named by the error
    ]
    assert hawks("post-game", "Hawks", "--list").output.splitlines()[2:4] == [
        "[x] casualty: Casualty Table: a D6 for each fighter that went Out of Action",
        "[ ] doom: Doom Table: 2D6"]


def test_the_walks_picks_are_listed_as_keys_it_may_ask(hawks):
    """The picks are the walk's questions (the steps' `asks`), not the commands': --list still names them."""
    assert [line for line in hawks("post-game", "Hawks", "--list").output.splitlines() if "may ask" in line] == [
        "      may ask, depending on what comes up: scenario-award:N, scenario-award:N:xp",
        "      may ask, depending on what comes up: casualty:FIGHTER",
        "      may ask, depending on what comes up: doom:FIGHTER, doom-roll:N",
        "      may ask, depending on what comes up: bonus:N",
    ]


WHO_IS_AWARDED = "Which fighter of battle 1 does the scenario award XP? (E6: each award names one fighter)"


@pytest.mark.parametrize(("answers", "message"), [
    # both answers of one step wrong: named together (the XP's was said only once Bob's pick was put right, Bob's
    # pick as an answer no step asks, its question hidden behind the XP's)
    (["scenario-award:1=Finch", "scenario-award:1:xp=two", "scenario-award:2=Bob"],
     "How much XP does the scenario award Finch?: 'two' is not a whole number; "
     "Which other fighter of battle 1 does the scenario award XP?: 'Bob' is not one of: none, Kestrel"),
    # an answer whose question a wrong one hides is not blamed alone: the wrong one is named first (it said only
    # "--answer scenario-award:1:xp: no open step of the post-game asks it")
    (["scenario-award:1=Nobody", "scenario-award:1:xp=2"],
     f"{WHO_IS_AWARDED}: 'Nobody' is not one of: none, Kestrel, Finch; --answer scenario-award:1:xp: no open step of "
     "the post-game asks it with those answers (keys: scenario-award:1, casualty:FIGHTER, doom-roll:1, doom:FIGHTER, "
     "bonus:1)"),
])
def test_the_walk_names_every_wrong_answer_at_once(hawks, answers, message):
    """Given answers for the scenario pass, two of them wrong, when the walk runs, then one Error line names them both
    (exit 2, nothing written): each was refused alone, so a second run told of the second."""
    assert hawks("retinue", "battle-pass", "Hawks").exit_code == 0
    before = hawks("log", "--json", "--all").output
    given = [arg for answer in answers for arg in ("--answer", answer)]
    assert refused(hawks("post-game", "Hawks", "--json", *given), 2, message)
    assert hawks("log", "--json", "--all").output == before


def test_the_listing_names_every_wrong_answer_at_once(hawks):
    """Given two wrong answers, when the walk is listed, then it says so, naming both (exit 2): it listed the steps
    as if neither had been given, and the scenario pass's questions not at all."""
    assert refused(hawks("post-game", "Hawks", "--list", "--answer", "scenario-award:1=Finch", "--answer",
                         "scenario-award:1:xp=two", "--answer", "bonus:1=Lupa"), 2,
                   "How much XP does the scenario award Finch?: 'two' is not a whole number; Which surviving fighter of "
                   "battle 1 gains +1 from a survival roll or scenario result?: 'Lupa' is not one of: none, Kestrel, Finch")
