"""Pending decisions (`campaign answer`, `campaign pending`): no ledger die is shown before it is
stored, so a command that stops after drawing ledger dice leaves them in the stream, pending, and
the only ways on are to answer it (with those very dice) or to void it with a reason.

The attack of issue #7, scripted: a command draws ledger dice and stops for a choice; the player
reads the faces, burns the next roll number on something else and re-issues the command hoping
for new dice. Here the first step already records the dice, the burn is refused, and the command
issued again gets the same faces."""

from __future__ import annotations

import json
import uuid
from types import SimpleNamespace

import pytest

from ledger import campaigns, pending
from ledger.cli import app
from ledger.fold import void_records
from ledger.records import GENESIS, hash_body
from ledger.store import Store
from ledger.testing import CampaignRunner
from projections import sql
from projections.tables import READ_MODELS

R, S = "Reikland Rats", "Clan Skrit"
HUMAN = ["--stat", "M=4", "--stat", "A=1", "--stat", "W=1", "--stat", "T=0",
         "--stat", "WS=8", "--stat", "BS=8", "--stat", "I=8", "--stat", "Ld=7"]
# With this campaign id and the runner's fixed seed, the 7 exploration dice are these.
CAMPAIGN_ID = "0b0c0d0e-0000-4000-8000-000000000008"
FACES = "[3, 1, 1, 6, 6, 5, 2]"
KEEP = "6,6,5,3,2,1"
OPTIONS = "6,6,5,3,2,1 | 6,6,5,3,1,1 | 6,6,5,2,1,1 | 6,6,3,2,1,1 | 6,5,3,2,1,1"
EXPLORE = ["coreheim", "explore", R, "--extra-dice", "4", "--ledger"]
QUESTION = f"Reikland Rats rolled {FACES}: which 6 dice count (or fewer)?"
WAYS_OUT = (f"settle it with `campaign answer keep=CHOICE` ({OPTIONS}), "
            "or void it with `campaign void T8 --reason …`")
STOPPED = [
    f"  pending: {QUESTION} — answer keep={OPTIONS.replace(' | ', '|')}",
    f"  R0 exploration of Reikland Rats: 7D6 rolled {FACES} = 24 (ledger)",
]
EXPLORED = [
    f"  R1 exploration of Reikland Rats: 7D6 rolled {FACES} = 24 (ledger)",
    f"  Reikland Rats explored: kept [6, 6, 5, 3, 2, 1] of {FACES}, total 23 = 4 shards; multiple 6x2: Shrine",
]


def battle_fought(runner: CampaignRunner) -> CampaignRunner:
    """Coreheim, T1-T7: the Reikland Rats (Gunnar, captain; Hans, youngblood) beat Clan Skrit (Snikch,
    assassin), Gunnar taking Snikch out. Under CAMPAIGN_ID (monkeypatched), T8's exploration rolls FACES."""
    for args in (
        ["new", "League", "--ruleset", "coreheim"],
        ["warband", "add", R, "--player", "Ann", "--faction", "mercenaries", "--treasury", "500"],
        ["warband", "add", S, "--player", "Bob", "--faction", "skaven", "--treasury", "500"],
        ["coreheim", "hire", R, "Gunnar", "--type", "captain", "--race", "human", *HUMAN],
        ["coreheim", "hire", R, "Hans", "--type", "youngblood", "--race", "human", *HUMAN],
        ["coreheim", "hire", S, "Snikch", "--type", "assassin", "--race", "skaven", *HUMAN],
        ["battle", "record", "--warband", R, "--warband", S, "--winner", R, "--took-out", "Gunnar=Snikch"],
    ):
        result = runner(*args)
        assert result.exit_code == 0, result.output
    return runner


@pytest.fixture
def campaign(tmp_path, monkeypatch) -> CampaignRunner:
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID(CAMPAIGN_ID), UUID=uuid.UUID))
    return battle_fought(CampaignRunner("sqlite:///" + str(tmp_path / "c.db")))


def events(campaign) -> int:
    return json.loads(campaign("show", "--json").output)["events"]


def rolls(campaign) -> list[dict]:
    return [row for row in json.loads(campaign("log", "--json").output) if row["type"] == "dice.rolled"]


@pytest.fixture
def peeked(campaign) -> CampaignRunner:
    """The explore stopped for its choice: T8 holds its command, the question and the dice."""
    result = campaign(*EXPLORE)
    assert result.exit_code == 1
    return campaign


def test_a_choice_after_ledger_dice_leaves_them_recorded_and_pending_before_they_are_shown(campaign):
    result = campaign(*EXPLORE)
    lines = result.output.splitlines()
    assert result.exit_code == 1
    assert lines[:2] == STOPPED
    assert lines[2].startswith("Recorded T8 (3 events). Head ")
    assert lines[3:] == [f"Error: {QUESTION} — its dice are recorded and T8 is pending: {WAYS_OUT}"]
    assert [(r["tx"], r["text"]) for r in rolls(campaign)] == [(8, STOPPED[1].strip())]
    assert campaign("pending").output == f"T8: {QUESTION}; {WAYS_OUT}\n"


def imports(campaign: CampaignRunner, folder) -> bool:
    """Does the campaign's exported trail import into a new store (each transaction decided again)?"""
    folder.mkdir()
    trail = str(folder / "trail.jsonl")
    return (campaign("export", "-o", trail).exit_code, CampaignRunner(f"sqlite:///{folder / 'c.db'}")("import", trail).exit_code) == (0, 0)


def test_an_answer_given_ahead_that_the_ledger_dice_do_not_offer_leaves_the_question_to_answer(campaign, tmp_path):
    """Given Gunnar's exploration typed with `--answer keep=6,6,5,5,3,2` ahead of its ledger dice, when the 7D6
    show one 5 only, then the answer is dropped and the question asked once the dice are stored: refused,
    it stayed with the pending decision ("an answer stands once given"), so only a void (and new dice) ended it."""
    unforeseen = campaign(*EXPLORE, "--answer", "keep=6,6,5,5,3,2")
    question = f"{QUESTION} ('6,6,5,5,3,2', given ahead, is not one of them)"
    assert (unforeseen.exit_code, unforeseen.output.splitlines()[:2]) == (1, [
        f"  pending: {question} — answer keep={OPTIONS.replace(' | ', '|')}", STOPPED[1]])
    assert unforeseen.output.splitlines()[3:] == [f"Error: {question} — its dice are recorded and T8 is pending: {WAYS_OUT}"]
    assert campaign("pending").output == f"T8: {question}; {WAYS_OUT}\n"
    assert campaign("replay", "--check").exit_code == 0  # decided again, it stops at that question
    assert imports(campaign, tmp_path / "pending")
    answered = campaign("answer", f"keep={KEEP}")
    assert (answered.exit_code, answered.output.splitlines()[:3]) == (0, [f"  T8 answered: keep={KEEP}", *EXPLORED])
    assert campaign("replay", "--check").exit_code == 0
    assert imports(campaign, tmp_path / "answered")


def test_the_burnt_roll_and_every_other_write_about_the_warband_are_refused(peeked):
    before = events(peeked)
    blocked = (f"Error: T8 (coreheim.explore) is pending, so nothing more can be recorded for {{}} until it is "
               f"settled: {QUESTION}; {WAYS_OUT}\n")
    burn = peeked("roll", "D12", "--ledger", "--for", "burn a die")
    assert (burn.exit_code, burn.output) == (1, blocked.format(R))  # a roll about no warband: about every one
    gold = peeked("treasury", R, "10", "--reason", "gold")
    assert (gold.exit_code, gold.output) == (1, blocked.format(R))
    assert events(peeked) == before


def test_the_command_issued_again_gets_the_same_faces_not_new_ones(peeked):
    before = events(peeked)
    again = peeked(*EXPLORE)
    assert (again.exit_code, again.output) == (
        1, f"Error: {QUESTION} — its dice are recorded and T8 is pending: {WAYS_OUT}\n"
    )
    assert events(peeked) == before
    answered = peeked(*EXPLORE, "--answer", f"keep={KEEP}")
    lines = answered.output.splitlines()
    assert answered.exit_code == 0, answered.output
    assert lines[:3] == [f"  T8 answered: keep={KEEP}", *EXPLORED]
    assert lines[-1].startswith("Recorded T9, T10 (")


def test_campaign_answer_completes_the_decision_with_its_recorded_dice(peeked):
    answered = peeked("answer", f"keep={KEEP}")
    assert answered.exit_code == 0, answered.output
    assert answered.output.splitlines()[:3] == [f"  T8 answered: keep={KEEP}", *EXPLORED]
    copied = rolls(peeked)[-1]
    assert (copied["tx"], copied["text"]) == (10, EXPLORED[0].strip())
    trail = [json.loads(line) for line in peeked("export").output.splitlines()]
    assert [(e["position"], e["payload"]["roll"], e["payload"].get("copy_of")) for e in trail
            if e.get("type") == "dice.rolled"] == [(28, 0, None), (32, 1, 0)]
    assert peeked("pending").output == "No decision is pending.\n"
    assert peeked("replay", "--check").output == "Re-decided 7 transactions from their commands and dice: all match.\n"
    assert peeked("verify").exit_code == 0


def test_a_lone_choice_answers_the_question_the_decision_waits_for(peeked):
    answered = peeked("answer", KEEP)
    assert answered.exit_code == 0, answered.output
    assert answered.output.splitlines()[:3] == [f"  T8 answered: keep={KEEP}", *EXPLORED]


@pytest.mark.parametrize("given", [[f"keep={KEEP}", "bogus=1"], ["bogus=1"]])
def test_an_answer_no_question_of_the_command_asks_is_refused_and_nothing_is_recorded(peeked, given):
    # alone, it left the decision waiting as before: it was stored with the dice, and in every later command
    before = events(peeked)
    refused = peeked("answer", *given)
    assert refused.exit_code == 2
    assert refused.output.startswith("Error: --answer bogus: not a question of coreheim.explore (its keys: keep")
    assert events(peeked) == before
    assert peeked("pending").output == f"T8: {QUESTION}; {WAYS_OUT}\n"


def test_an_answer_that_leads_to_another_question_is_kept_with_the_dice_for_the_next_answer(peeked):
    # Keeping both pairs (6,6 and 1,1) leaves two multiples: the decision asks which one counts
    first = peeked("answer", "6,6,5,3,1,1")
    assert first.exit_code == 1, first.output
    assert first.output.splitlines()[-1].startswith(
        "Error: Reikland Rats rolled several multiples, 1x2 (Well), 6x2 (Shrine): which one counts? — its dice are "
        "recorded and T10 is pending: settle it with `campaign answer multiple=CHOICE` (1x2 | 6x2)")
    assert peeked("pending").output.startswith("T10: Reikland Rats rolled several multiples")
    # The next answer adds to the first: it was lost, and the decision asked again which dice count
    second = peeked("answer", "6x2")
    assert second.exit_code == 0, second.output
    assert "  Reikland Rats explored: kept [6, 6, 5, 3, 1, 1] of [3, 1, 1, 6, 6, 5, 2], total 22 = 4 shards; " \
           "multiple 6x2: Shrine" in second.output.splitlines()
    assert peeked("pending").output == "No decision is pending.\n"
    assert peeked("replay", "--check").output.endswith("all match.\n")
    # A roll of either decision answered since is rerolled by the copy the command was decided with
    for roll, decision, answered in (("R0", "T8", "T9"), ("R1", "T10", "T11")):
        refused = peeked("reroll", roll, "--reason", "cocked")
        assert refused.output == (f"Error: {roll} was rolled for {decision}, a decision answered in {answered}: "
                                  "reroll R2, the copy it was decided with\n")


def test_an_answer_once_given_stands_the_same_one_again_adds_nothing(peeked):
    """Answering `keep` again once the next question was shown chose again knowing it (and answers
    racing each other were each taken, the last winning): it is refused, and nothing is written."""
    assert peeked("answer", "6,6,5,3,1,1").exit_code == 1
    before = events(peeked)
    changed = peeked("answer", "keep=6,6,5,3,2,1")
    assert (changed.exit_code, changed.output) == (2, (
        "Error: T10 already holds the answer keep=6,6,5,3,1,1, given before: an answer stands once given "
        "(void T10 to drop the decision)\n"))
    assert events(peeked) == before
    walked = peeked(*EXPLORE, "--answer", "keep=6,6,5,3,1,1", "--answer", "multiple=6x2")
    assert walked.exit_code == 0, walked.output
    assert peeked("pending").output == "No decision is pending.\n"


def test_answers_a_walk_hands_along_for_later_steps_are_not_held_to_the_pending_decision(campaign):
    """The guided walk gives every step all its --answer: `shards` rode along with the exploration's
    pending decision, which never asks it, and was then held to its first value."""
    stopped = campaign("post-game", R, "--ledger", "--answer", "shards=0")  # the Well: send a hero down?
    assert (stopped.exit_code, stopped.output.splitlines()[-1]) == (1, (
        "Error: Send a hero down the well? — its dice are recorded and T8 is pending: settle it with "
        "`campaign answer multiples:1x2:search=CHOICE` (yes | no), or void it with `campaign void T8 --reason …`"))
    walked = campaign("post-game", R, "--ledger", "--answer", "multiples:1x2:search=no", "--answer", "shards=1")
    assert walked.exit_code == 0, walked.output
    assert "  Reikland Rats: post-game step Wyrdstone sale done for battle 1" in walked.output.splitlines()


def test_a_roll_of_an_answered_decision_is_rerolled_by_its_copy(peeked):
    assert peeked("answer", f"keep={KEEP}").exit_code == 0
    before = events(peeked)
    refused = peeked("reroll", "R0", "--reason", "cocked")
    assert (refused.exit_code, refused.output) == (
        1, "Error: R0 was rolled for T8, a decision answered in T9: reroll R1, the copy it was decided with\n")
    assert events(peeked) == before


def test_a_lone_choice_for_no_pending_decision_is_refused(peeked):
    before = events(peeked)
    refused = peeked("answer", "--decision", "T9", KEEP)
    assert (refused.exit_code, refused.output) == (2, "Error: T9 is not a pending decision (pending: T8)\n")
    assert events(peeked) == before


def test_an_answer_and_its_command_are_one_commit_with_their_read_model_rows(peeked, monkeypatch):
    """T9 (the answer) and T10 (the command decided again) are stored in one commit, and their
    read-model rows with them (each transaction's described with the state after it): nothing is
    left for after the commit, and the tables equal a rebuild."""
    def after_the_commit(*_args):
        raise AssertionError("the rows were left to after the commit")

    with monkeypatch.context() as patch:
        patch.setattr(sql, "update", after_the_commit)
        answered = peeked("answer", f"keep={KEEP}")
    assert (answered.exit_code, "Warning" in answered.output) == (0, False), answered.output
    store = Store(peeked.store)
    try:
        cid = store.campaign_ids()[0]
        records = list(store.records(cid))
        assert [r.tx for r in records[-8:]] == [9, 9, 10, 10, 10, 10, 10, 10]
        with sql.held_read_models(store, cid) as held:
            held.read()
        rebuilt = sql.rebuilt_sums(held.tracked, iter(records), void_records(records))
        assert sql.compare(held.stored, rebuilt) == sql.ReadModelCheck(records[-1].position, len(READ_MODELS), [])
    finally:
        store.close()


def test_other_warbands_go_on_while_a_decision_is_pending(peeked):
    award = peeked("xp", "award", "Snikch", "1", "--reason", "survived")
    assert award.exit_code == 0, award.output


def test_a_wrong_answer_is_refused_and_the_decision_stays_pending(peeked):
    before = events(peeked)
    wrong = peeked("answer", "keep=6,6,6,6,6,6")
    assert (wrong.exit_code, wrong.output) == (
        2, f"Error: {QUESTION}: '6,6,6,6,6,6' is not one of: {OPTIONS.replace(' | ', ', ')}\n"
    )
    assert events(peeked) == before
    nothing = peeked("answer")
    assert (nothing.exit_code, nothing.output) == (2, f"Error: T8 waits for: {QUESTION}; {WAYS_OUT}\n")


@pytest.mark.parametrize("decision", ["T", "Tx", "T²"])  # '²' is a digit to isdigit(), not to int()
def test_a_decision_that_is_not_a_transaction_is_refused(peeked, decision):
    before = events(peeked)
    refused = peeked("answer", "--decision", decision, f"keep={KEEP}")
    assert (refused.exit_code, refused.output) == (2, f"Error: --decision takes a transaction, e.g. T12, not '{decision}'\n")
    assert events(peeked) == before


def test_void_is_the_other_way_out_and_the_dice_stay_in_the_log(peeked):
    voided = peeked("void", "T8", "--reason", "we changed our minds")
    assert voided.exit_code == 0, voided.output
    assert peeked("pending").output == "No decision is pending.\n"
    fresh = peeked(*EXPLORE)
    assert "R1 exploration of Reikland Rats: 7D6 rolled" in fresh.output  # a new roll number: new dice
    assert [r["text"] for r in rolls(peeked)][0] == STOPPED[1].strip()


@pytest.mark.parametrize("cascade", [[], ["--cascade"]])
def test_a_void_that_would_leave_a_pending_decision_stranded_is_refused(peeked, cascade):
    """Voiding the battle left the exploration waiting for it pending: its answer was refused (no
    battle to explore) and every write about the warband blocked, until someone thought of voiding it."""
    before = events(peeked)
    refused = peeked("void", "T7", "--reason", "the wrong game", *cascade)
    assert (refused.exit_code, refused.output) == (1, (
        "Error: voiding T7 would leave pending decisions that no longer follow from what stays:\n"
        "  T8: Reikland Rats has not fought a battle yet: there is no post-game to explore\n"
        "void them first: `campaign void T8 --reason …`\n"))
    assert events(peeked) == before
    assert peeked("void", "T8", "--reason", "its battle goes").exit_code == 0
    assert peeked("void", "T7", "--reason", "the wrong game").exit_code == 0
    assert peeked("replay", "--check").output.endswith("all match.\n")


def test_a_recorded_campaign_whose_void_stranded_a_pending_decision_still_imports(peeked, tmp_path):
    """An older ledger voided the battle and left the exploration waiting for it pending: the trail it
    exported (here the void appended and the chain hashed again, as that ledger wrote it) still imports
    and re-decides, though its pending decision no longer follows."""
    trail = tmp_path / "trail.jsonl"
    assert peeked("export", "-o", str(trail)).exit_code == 0
    header, *lines, trailer = (json.loads(line) for line in trail.read_text(encoding="utf-8").splitlines())
    last = lines[-1]
    void = {**last, "tx": last["tx"] + 1, "type": "command.recorded",
            "payload": {"command": "void", "args": {"target": 7, "cascade": False}, "reason": "the wrong game"}}
    voided = {**void, "type": "transaction.voided", "payload": {"target": 7, "reason": "the wrong game"}}
    for line in lines:
        if line["tx"] == 7:  # annotated as the export annotates a voided transaction
            line["annotations"] = {"voided": {"reason": "the wrong game", "voided_at": void["recorded_at"],
                                              "voided_by": void["tx"], "voided_by_actor": void["actor"]}}
    prev = GENESIS
    for position, line in enumerate([*lines, void, voided], start=1):
        line.update(position=position, prev_hash=prev)
        line["hash"] = prev = hash_body({k: v for k, v in line.items() if k not in ("hash", "annotations")})
    trailer.update(count=position, head=prev)
    trail.write_text("".join(json.dumps(line) + "\n" for line in [header, *lines, void, voided, trailer]), encoding="utf-8")
    copy = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))
    imported = copy("import", str(trail))
    assert imported.exit_code == 0, imported.output
    assert copy("replay", "--check").output.endswith("all match.\n")


def test_a_pending_decision_that_still_follows_is_no_obstacle_to_a_void(peeked):
    assert peeked("xp", "award", "Snikch", "1", "--reason", "survived").exit_code == 0  # T9
    assert peeked("void", "T9", "--reason", "a slip").exit_code == 0
    assert peeked("pending").output.startswith("T8: ")


def test_ctrl_c_at_the_prompt_leaves_the_dice_pending_and_the_same_command_asks_again(campaign, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    stopped = campaign(*EXPLORE, input="")  # end of input at the prompt, as Ctrl-C
    assert stopped.exit_code == 1
    assert stopped.stdout.splitlines()[:2] == STOPPED
    assert stopped.stderr == f"\nError: stopped at the prompt — its dice are recorded and T8 is pending: {WAYS_OUT}\n"
    again = campaign(*EXPLORE, input=f"{KEEP}\n")
    assert again.exit_code == 0, again.output
    assert EXPLORED[0] in again.output.splitlines()
    assert campaign("pending").output == "No decision is pending.\n"


def test_at_a_terminal_the_question_is_asked_once_the_dice_are_stored(campaign, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    result = campaign(*EXPLORE, input=f"{KEEP}\n")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[:2] == STOPPED and lines[2].startswith("Recorded T8 (3 events)")
    assert lines[3].startswith(QUESTION)
    assert EXPLORED[0] in lines


def test_table_dice_keep_todays_behaviour_a_refusal_writes_nothing(campaign):
    before = events(campaign)
    result = campaign("coreheim", "explore", R, "--extra-dice", "4", "--dice", "3,1,1,6,6,5,2")
    assert result.exit_code == 2  # an answer missing is bad input (README, exit codes)
    assert result.output.startswith(f"Error: {QUESTION}: answer with --answer keep=CHOICE")
    assert events(campaign) == before


def test_a_trail_with_a_pending_decision_and_its_answer_exports_and_imports(peeked, tmp_path):
    peeked("answer", f"keep={KEEP}")
    trail = tmp_path / "trail.jsonl"
    assert peeked("export", "-o", str(trail)).exit_code == 0
    copy = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))
    imported = copy("import", str(trail))
    assert imported.exit_code == 0, imported.output
    assert copy("show", "--json").output == peeked("show", "--json").output
    assert copy("replay", "--check").exit_code == 0


def test_two_decisions_asking_the_same_key_are_each_settled_by_the_command_their_advice_gives(tmp_path, monkeypatch):
    """Two Advancement Rolls pending, each asking keep-1: `campaign answer keep-1=…` alone cannot tell
    which is meant, so the advice names the decision; once one is settled, the other's needs no name."""
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID(CAMPAIGN_ID), UUID=uuid.UUID))
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (["new", "League", "--ruleset", "trench-crusade"],
                 ["warband", "add", "Pilgrims", "--player", "Ann", "--faction", "trench-pilgrims"],
                 ["warband", "add", "Legion", "--player", "Bob", "--faction", "heretic-legions"],
                 ["trench-crusade", "recruit", "Pilgrims", "Gaius", "--model", "War Prophet", "--elite", "--free"],
                 ["trench-crusade", "recruit", "Legion", "Baal", "--model", "Heretic Priest", "--elite", "--free"],
                 ["xp", "award", "Gaius", "2", "--reason", "a circle box"],
                 ["xp", "award", "Baal", "2", "--reason", "a circle box"]):
        assert runner(*args).exit_code == 0, args
    gaius = "Gaius may learn 'Tis But a Scratch (wildcard) or Gunslinger (ranged): keep which?"
    first = runner("trench-crusade", "advance", "Pilgrims", "--roll", "Gaius=wildcard,ranged", "--ledger")
    assert (first.exit_code, first.output.splitlines()[-1]) == (1, (
        f"Error: {gaius} — its dice are recorded and T8 is pending: settle it with `campaign answer keep-1=CHOICE` "
        "(wildcard | ranged), or void it with `campaign void T8 --reason …`"))
    baal = "Baal may learn Show Off (wildcard) or Point Blank (ranged): keep which?"
    second = runner("trench-crusade", "advance", "Legion", "--roll", "Baal=wildcard,ranged", "--ledger")
    assert (second.exit_code, second.output.splitlines()[-1]) == (1, (
        f"Error: {baal} — its dice are recorded and T9 is pending: settle it with "
        "`campaign answer keep-1=CHOICE --decision T9` (wildcard | ranged), or void it with `campaign void T9 --reason …`"))
    assert runner("pending").output == (
        f"T8: {gaius}; settle it with `campaign answer keep-1=CHOICE --decision T8` (wildcard | ranged), "
        "or void it with `campaign void T8 --reason …`\n"
        f"T9: {baal}; settle it with `campaign answer keep-1=CHOICE --decision T9` (wildcard | ranged), "
        "or void it with `campaign void T9 --reason …`\n")
    before = events(runner)
    refused = runner("answer", "keep-1=ranged")
    assert (refused.exit_code, refused.output) == (
        2, "Error: several decisions are pending (T8, T9): name one with --decision T<number>\n")
    assert events(runner) == before
    settled = runner("answer", "keep-1=ranged", "--decision", "T9")
    assert settled.exit_code == 0, settled.output
    assert runner("pending").output == (f"T8: {gaius}; settle it with `campaign answer keep-1=CHOICE` (wildcard | ranged), "
                                        "or void it with `campaign void T8 --reason …`\n")
    assert runner("answer", "keep-1=wildcard").exit_code == 0


# --- an answer nobody asked: refused as the command typed with it refuses it -------------------------------------

POST_GAME = [["coreheim", "explore", R, "--dice", "1,2,3"], ["coreheim", "injuries", R], ["coreheim", "experience", R]]
ADVANCE = ["coreheim", "advance", R, "--ledger"]
NOT_OWED = {  # an answer for an advance nobody owes -> the refusal of the advance typed with it
    "gunnar:4:skill=Blaze": "--answer gunnar:4:skill: not asked: Gunnar owes no advance at 4 XP (none owed now, at 23 XP)",
    "hans:9:stat=WS": "--answer hans:9:stat: not asked: Hans owes no advance at 9 XP (owed: 2 and 4 XP)",
}
# What Hans learns at 4 XP (the skill lists of a youngblood of the Reikland mercenaries).
SKILLS = ("Blaze | Militiaman | Sidestep | Swashbuckler | Swordsman | Veteran | Weapons Training | Arms Expert | "
          "Crack Shot | Gunslinger | Gunnery Drill | Quick Shot | Tilean Marksman | Yeoman | Alley Cat | Dodge | Leap | "
          "Whirlwind | Sprint | Wall Runner")


@pytest.fixture
def advances_due(campaign) -> CampaignRunner:
    """The Rats' post-game of battle 1 through Experience (R0: the exploration's 1, 2, 3), and Hans awarded 3 XP: he
    owes his advances at 2 and 4 XP (with ledger dice, T12 rolls 1 at 2 XP, then 12 at 4 XP: a skill, asked)."""
    for args in [*POST_GAME, ["xp", "award", "Hans", "3", "--reason", "a test"]]:
        assert campaign(*args).exit_code == 0, args
    return campaign


@pytest.mark.parametrize("given", list(NOT_OWED))
def test_the_advance_typed_with_an_answer_for_an_advance_nobody_owes_refuses_it(advances_due, given):
    before = events(advances_due)
    refused = advances_due(*ADVANCE, "--answer", given)
    assert (refused.exit_code, refused.output) == (2, f"Error: {NOT_OWED[given]}\n")
    assert events(advances_due) == before


@pytest.mark.parametrize("given", list(NOT_OWED))
@pytest.mark.parametrize("how", ["answer", "command again"])
def test_a_pending_decisions_answer_for_a_question_it_does_not_ask_is_refused_as_its_command_refuses_it(
        advances_due, given, how):
    """Given the Rats' advances stopped at Hans's skill at 4 XP (T12 pending, asking hans:4:skill), when an answer
    for an advance nobody owes is given to it, then it is refused in the words of the advance typed with it, exit 2,
    nothing written: it was recorded with the decision (T13 answered, T14 pending again, exit 1), and stood."""
    stopped = advances_due(*ADVANCE)
    assert (stopped.exit_code, stopped.output.splitlines()[-1]) == (1, (
        f"Error: Hans learns a skill (combat, shooting, speed) — its dice are recorded and T12 is pending: settle it "
        f"with `campaign answer hans:4:skill=CHOICE` ({SKILLS}), or void it with `campaign void T12 --reason …`"))
    before, waiting = events(advances_due), advances_due("pending").output
    refused = advances_due(*(["answer", given] if how == "answer" else [*ADVANCE, "--answer", given]))
    assert (refused.exit_code, refused.output) == (2, f"Error: {NOT_OWED[given]}\n")
    assert (events(advances_due), advances_due("pending").output) == (before, waiting)
    answered = advances_due("answer", "hans:4:skill=Dodge")
    assert answered.exit_code == 0, answered.output


def test_answers_a_completed_decision_did_not_ask_are_named_not_used_as_the_walk_names_them(advances_due):
    """Given the Rats' advances stopped at Hans's skill at 4 XP (T12 pending), when it is answered with that skill and
    a skill and a stat for his advance at 2 XP, whose roll (a 1) gave a characteristic, then it is completed and the
    two the dice did not ask are named on a 'Not used:' line, as the post-game walk names such answers; they were
    recorded with the decision with no word. Nothing recorded changes."""
    assert advances_due(*ADVANCE).exit_code == 1
    answered = advances_due("answer", "hans:4:skill=Dodge", "hans:2:skill=Blaze", "hans:2:stat=WS")
    assert answered.exit_code == 0, answered.output
    assert answered.output.splitlines()[0] == "  T12 answered: hans:4:skill=Dodge, hans:2:skill=Blaze, hans:2:stat=WS"
    assert answered.output.splitlines()[-2][:len("Recorded T13, T14")] == "Recorded T13, T14"
    assert answered.output.splitlines()[-1] == "Not used: hans:2:skill=Blaze, hans:2:stat=WS (T12 did not ask them)"


def test_an_answer_the_decision_stops_before_asking_is_kept_with_it_and_named_once_it_is_completed(advances_due):
    """The advance at 2 XP answered alone: T12 stops again at Hans's skill at 4 XP, the answer kept with it (it may yet
    be asked, for all the command tells); completed, the decision names it not used."""
    assert advances_due(*ADVANCE).exit_code == 1
    stopped = advances_due("answer", "hans:2:skill=Blaze")
    assert (stopped.exit_code, "Not used" in stopped.output) == (1, False)
    answered = advances_due("answer", "hans:4:skill=Dodge")
    assert (answered.exit_code, answered.output.splitlines()[-1]) == (0, "Not used: hans:2:skill=Blaze (T14 did not ask it)")


def test_a_pending_decision_recorded_with_an_answer_it_does_not_ask_replays_and_is_answered(advances_due, monkeypatch,
                                                                                               tmp_path):
    """Given a campaign that recorded such an answer with a pending decision (as before it was refused), its
    transactions decide again as recorded (replay, import), and the question it waits for is answered."""
    assert advances_due(*ADVANCE).exit_code == 1
    with monkeypatch.context() as before_the_check:
        before_the_check.setattr(pending, "refused_before_rolls", lambda *_args: None)
        taken = advances_due("answer", "gunnar:4:skill=Blaze")
    assert (taken.exit_code, taken.output.splitlines()[0]) == (1, "  T12 answered: gunnar:4:skill=Blaze")
    assert advances_due("replay", "--check").output.endswith("all match.\n")
    assert imports(advances_due, tmp_path / "pending")
    answered = advances_due("answer", "hans:4:skill=Dodge")
    assert answered.exit_code == 0, answered.output
    assert advances_due("replay", "--check").output.endswith("all match.\n")
    assert imports(advances_due, tmp_path / "answered")


def test_a_cascades_answer_no_transaction_decided_again_asks_is_refused_as_the_reroll_alone_refuses_it(campaign):
    """Given the Rats' exploration with table dice (R0: 1, 2, 3: all three count, no dice to keep are asked), when R0
    is rolled again with `--answer keep=9`, then it is refused, exit 2, nothing written, in the same words with
    --cascade (the Injuries and Experience after it decided again) as without: the cascade took it silently, exit 0."""
    assert campaign(*POST_GAME[0]).exit_code == 0
    reroll = ["reroll", "R0", "--reason", "cocked", "--dice", "4,5,6", "--answer", "keep=9"]
    alone = campaign(*reroll)
    assert (alone.exit_code, alone.output) == (2, (
        "Error: --answer keep: not asked: 3 dice for Reikland Rats, all of which count (the dice to keep are asked "
        "only when more than 6 are rolled, or some are discarded)\n"))
    for args in POST_GAME[1:]:
        assert campaign(*args).exit_code == 0, args
    before = events(campaign)
    cascaded = campaign(*reroll, "--cascade")
    assert (cascaded.exit_code, cascaded.output) == (2, alone.output)
    assert events(campaign) == before


def test_a_cascades_answer_one_transaction_will_not_ask_is_for_another_that_asks_it(advances_due):
    """Given Hans's advance at 2 XP (T12) and then his at 4 XP (T13, a skill: Blaze), each rolled alone with table
    dice, when the exploration before them (R0) is rolled again with --cascade and `--answer hans:4:skill=Dodge`,
    then the advance at 2 XP, which tells it will not ask it, does not refuse it: the one at 4 XP takes it."""
    at_2 = ["coreheim", "advance", R, "Hans", "--threshold", "2", "--dice", "1"]
    refused = advances_due(*at_2, "--answer", "hans:4:skill=Dodge")
    assert (refused.exit_code, refused.output) == (2, (
        "Error: --answer hans:4:skill: not asked: `campaign coreheim advance 'Reikland Rats' Hans --threshold 2` rolls "
        "Hans' advance at 2 XP alone: give it to the advance that rolls it (`campaign coreheim advance 'Reikland Rats'` "
        "rolls every one owed)\n"))
    for args in (at_2, ["coreheim", "advance", R, "Hans", "--threshold", "4", "--dice", "12", "--answer", "hans:4:skill=Blaze"]):
        done = advances_due(*args)
        assert done.exit_code == 0, done.output
    cascaded = advances_due("reroll", "R0", "--reason", "cocked", "--dice", "4,5,6", "--cascade",
                            "--answer", "hans:4:skill=Dodge")
    assert cascaded.exit_code == 0, cascaded.output
    assert "  Hans learns Dodge" in cascaded.output.splitlines()
