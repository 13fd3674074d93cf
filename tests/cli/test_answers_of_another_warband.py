"""An --answer whose key names a fighter of another warband than the one the command is about is refused, as a
command refuses another warband's fighter it is given: exit 2, nothing written. Each command documenting such a
key took it and left it unused (exit 0), its fighter being one of the campaign.

Each case is played where the sample campaign of fixtures/ (`campaign demo`) first gives the command: the step is
typed with the answer added and refused, then as the sample writes it, which the rules accept. (Warhammer Warbands'
and Retinue's commands have no --answer: their own options name the fighter; their post-game walk refuses such a
key as no question of the walk.)"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from ledger import campaigns
from ledger.cli.demo import fixture_campaigns, fixture_step
from ledger.testing import CampaignRunner

ROWS = [  # (ruleset, command, answer) -> refusal
    ("coreheim", "injuries", "snikch:out=1", "no fighter 'Snikch' in Reikland Rats: Snikch is in Clan Skrit"),
    ("coreheim", "advance", "gunnar:6:stat=WS", "no fighter 'Gunnar' in Clan Skrit: Gunnar is in Reikland Rats"),
    ("coreheim", "upkeep", "snikch:upkeep=pay", "no fighter 'Snikch' in Reikland Rats: Snikch is in Clan Skrit"),
    ("coreheim", "reinforce", "Snikch:recruits=1", "no fighter 'Snikch' in Reikland Rats: Snikch is in Clan Skrit"),
    ("speedheim", "incapacitate", "skab.rat.1.mel-rgd=Mel", "no fighter 'Skab' in Sellswords: Skab is in Clan Skrittle"),
    ("speedheim", "promotions", "promote.gunnar=Hilde", "no fighter 'Gunnar' in Clan Skrittle: Gunnar is in Sellswords"),
    ("speedheim", "scars", "gunnar.pit-fight=won", "no fighter 'Gunnar' in Clan Skrittle: Gunnar is in Sellswords"),
    ("speedheim", "improvement", "gunnar.free.1.keep=first", "no fighter 'Gunnar' in Clan Skrittle: Gunnar is in Sellswords"),
    ("speedheim", "learn", "gunnar.learn=Cleave", "no fighter 'Gunnar' in Clan Skrittle: Gunnar is in Sellswords"),
    ("speedheim", "buy-attempt", "hilde.gold.1.mel-rgd=Mel", "no fighter 'Hilde' in Clan Skrittle: Hilde is in Sellswords"),
]


def sample_steps(ruleset: str, campaign: CampaignRunner) -> Iterator[list[str]]:
    """The ruleset's sample campaign started in `campaign`, then each of its steps that succeeds, to be typed
    (a step a caller does not type itself is played when the next is asked for)."""
    sample = fixture_campaigns()[ruleset]
    options = [arg for key, value in sample.get("options", {}).items() for arg in ("--option", f"{key}={value}")]
    assert campaign("new", sample["name"], "--ruleset", ruleset, *options).exit_code == 0
    for step in sample["steps"]:
        args, refused = fixture_step(step)
        if refused is None:
            yield args
        done = campaign(*args)
        assert (done.exit_code == 0) == (refused is None), (args, done.output)


@pytest.fixture(scope="module")
def refused_in_the_sample(tmp_path_factory):
    """`refused_in_the_sample(ruleset)`: for each row of the ruleset, what its command said, typed with the row's
    answer where the sample first gives it, and whether the campaign was left as it was (one sample built a module)."""

    @functools.cache
    def played(ruleset: str) -> dict[str, tuple[int, str, bool]]:
        campaign = CampaignRunner("sqlite:///" + str(tmp_path_factory.mktemp(ruleset) / "campaign.db"))
        answers = {command: answer for of, command, answer, _ in ROWS if of == ruleset}
        said: dict[str, tuple[int, str, bool]] = {}
        for args in sample_steps(ruleset, campaign):
            if said.keys() == answers.keys():  # the last one's step played as written
                break
            if args[0] == ruleset and args[1] in answers and args[1] not in said:
                before = campaign("list").output
                typed = campaign(*args, "--answer", answers[args[1]])
                said[args[1]] = (typed.exit_code, typed.output, campaign("list").output == before)
        return said

    return played


@pytest.mark.parametrize(("ruleset", "command", "answer", "refusal"), ROWS, ids=[f"{r}-{c}" for r, c, _, _ in ROWS])
def test_an_answer_naming_another_warbands_fighter_is_refused(refused_in_the_sample, ruleset, command, answer, refusal):
    """Given the sample campaign where it first plays `command` for one warband, when an answer keyed by a fighter
    of the other warband is added, then it is refused naming the warband he is in, and nothing is written (the
    step as the sample writes it is then accepted)."""
    key = answer.split("=")[0]
    assert refused_in_the_sample(ruleset)[command] == (2, f"Error: --answer {key}: {refusal}\n", True)


def played_through(ruleset: str, campaign: CampaignRunner, step: list[str]) -> None:
    """The ruleset's sample campaign played in `campaign` up to the first step beginning with `step`, that one included."""
    for args in sample_steps(ruleset, campaign):
        if args[: len(step)] == step:
            break
    assert campaign(*args).exit_code == 0


def test_a_rerolls_answer_naming_another_warbands_fighter_is_refused(campaign):
    """Given Clan Skrit's advances of the Coreheim sample (R11: Grok's at 2 XP), when the roll is rolled again with
    an answer for Gunnar's advance (a Reikland Rat), then it is refused as a command typed now refuses it, and
    nothing is written: the reroll took it and recorded the advance again without it (exit 0)."""
    played_through("coreheim", campaign, ["coreheim", "advance"])
    before = campaign("list").output
    said = campaign("reroll", "R11", "--reason", "cocked die", "--dice", "6", "--answer", "gunnar:2:stat=WS")
    assert (said.exit_code, said.output) == (
        2, "Error: --answer gunnar:2:stat: no fighter 'Gunnar' in Clan Skrit: Gunnar is in Reikland Rats\n")
    assert campaign("list").output == before


# Given Clan Skrit's advances of the Coreheim sample, a cascade from its injuries (T18: R9, Skulk's) decides Clan Skrit's
# experience (T20) and advances (T21) again, and no Reikland Rats' transaction: when it is given an answer for Gunnar's
# advance, then it is refused before anything is rolled, nothing written. Each took it, left it unused (exit 0).
CASCADES_OF_ONE_WARBAND = [
    ["void", "T18", "--reason", "wrong warband's dice", "--cascade", "--answer", "gunnar:6:stat=WS"],
    ["reroll", "R9", "--reason", "cocked die", "--dice", "4,5", "--cascade", "--answer", "gunnar:6:stat=WS"],
]


@pytest.mark.parametrize("cascade", CASCADES_OF_ONE_WARBAND, ids=["void", "reroll"])
def test_a_cascades_answer_naming_a_fighter_of_no_warband_it_decides_again_is_refused(campaign, cascade):
    played_through("coreheim", campaign, ["coreheim", "advance", "Clan Skrit"])
    before = campaign("list").output
    said = campaign(*cascade)
    assert (said.exit_code, said.output) == (
        2, "Error: --answer gunnar:6:stat: no fighter 'Gunnar' in Clan Skrit: Gunnar is in Reikland Rats\n")
    assert campaign("list").output == before


# Given the Speedheim sample through the Sellswords' Free Improvement Attempts of battle 1 (T28), rolling the Rat's
# Henchman Scars (R3, Clan Skrittle's T19) again with --cascade decides again Clan Skrittle's later steps (T20-T24) and
# the Sellswords' Free Improvement Attempts (T28: the deck has one card fewer drawn before them), and no Sellswords' Learn
# step. An answer is for a fighter of the warband of a transaction decided again that asks that question.
ANSWERS_TO_A_CASCADE_OF_TWO_WARBANDS = [  # answer -> (exit code, output's last line but the head: the campaign's id varies)
    ("gunnar.free.1.mel-rgd=Mel", (0, "Recorded T29, T30, T31, T32, T33, T34, T35, T36 (46 events)")),
    ("gunnar.learn=Cleave", (2, "Error: --answer gunnar.learn: no fighter 'Gunnar' in Clan Skrittle: Gunnar is in Sellswords")),
]


@pytest.mark.parametrize(("answer", "said"), ANSWERS_TO_A_CASCADE_OF_TWO_WARBANDS, ids=["improvement", "learn"])
def test_a_cascade_takes_an_answer_for_a_fighter_of_any_warband_it_decides_again(campaign, answer, said):
    played_through("speedheim", campaign, ["speedheim", "improvement", "Sellswords"])
    done = campaign("reroll", "R3", "--reason", "cocked die", "--dice", "5", "--cascade", "--answer", answer)
    assert (done.exit_code, done.output.splitlines()[-1].partition(". Head ")[0]) == said


# With this campaign id and the runner's fixed seed, Skulk's advance rolls a skill: the advances stop for his choice.
SKULK_CHOOSES = uuid.UUID("0b0c0d0e-0000-4000-8000-000000000010")


def test_a_pending_decisions_answer_naming_another_warbands_fighter_is_refused(campaign, monkeypatch):
    """Given Clan Skrit's advances of the Coreheim sample rolled with ledger dice and pending on Skulk's choice, when
    it is answered for Gunnar's advance (a Reikland Rat), then it is refused, nothing written: it was stored as the
    decision's answer, unused, and the decision stopped again at Skulk's question (exit 1)."""
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: SKULK_CHOOSES, UUID=uuid.UUID))
    for args in sample_steps("coreheim", campaign):
        if args[:2] == ["coreheim", "advance"]:
            break
    assert campaign("coreheim", "advance", "Clan Skrit", "--ledger").exit_code == 1  # pending: Skulk's question
    before = campaign("list").output
    said = campaign("answer", "gunnar:6:stat=WS")
    assert (said.exit_code, said.output) == (
        2, "Error: --answer gunnar:6:stat: no fighter 'Gunnar' in Clan Skrit: Gunnar is in Reikland Rats\n")
    assert campaign("list").output == before
