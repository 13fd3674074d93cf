"""How a recorded reason is said in the log (rows formats 4 and 5): the ids the campaign's tables know by their
names (a one-word id where the ruleset's reasons cite one, format 5), never in parentheses twice, and what a person typed as typed. The recorded reasons are not
changed: each case gives the event as its ruleset records it and the line before and after."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from commands.speedheim.events import HeroSlots
from commands.warbands.events import AbilitiesLost
from ledger import audit, rulesets
from ledger import describe as describe_module
from ledger import events as ev
from ledger.campaigns import Ledger
from ledger.cli import main
from ledger.describe import describe, reason_said, typed_reasons
from ledger.state import CampaignState, Fighter, Warband
from ledger.store import Store
from projections import history
from projections.history import void_annotations
from projections.tables import all_rows

RATS = "reikland-rats"


def campaign_of(clock, ruleset: str) -> CampaignState:
    """A new campaign of the ruleset with the Reikland Rats and Gunnar in its state (described, not decided)."""
    ledger = Ledger(Store("memory://"), clock=clock)
    state = ledger.start("Test League", ruleset, {}, actor="Ann").state
    state.warbands[RATS] = Warband(id=RATS, name="Reikland Rats", player="Ann")
    state.fighters["gunnar"] = Fighter(id="gunnar", warband=RATS, name="Gunnar", role="leader")
    return state


def _xp(reason: str, **more) -> ev.XPAwarded:
    return ev.XPAwarded(warband=RATS, fighter="gunnar", amount=1, reason=reason, **more)


def _gold(delta: int, reason: str) -> ev.TreasuryChanged:
    return ev.TreasuryChanged(warband=RATS, delta=delta, reason=reason)


# ruleset, the event as recorded, its line before (format 3), its line now
CASES = [
    ("coreheim", _gold(-11, "bought power-scroll"),
     "Reikland Rats treasury -11 (bought power-scroll)", "Reikland Rats treasury -11 (bought Power Scroll)"),
    ("coreheim", _gold(4, "sold dwarven-ale (half of 9 gc)"),
     "Reikland Rats treasury +4 (sold dwarven-ale (half of 9 gc))", "Reikland Rats treasury +4 (sold Dwarven Ale, half of 9 gc)"),
    ("coreheim", _xp("survived the battle (battle 1)"),
     "Gunnar gains 1 XP (survived the battle (battle 1))", "Gunnar gains 1 XP (survived the battle, battle 1)"),
    ("coreheim", _xp("serious injury: Seen It All (hero-injury:66)"),  # a row cited is no id of a row's name
     "Gunnar gains 1 XP (serious injury: Seen It All (hero-injury:66))", "Gunnar gains 1 XP (serious injury: Seen It All, hero-injury:66)"),
    # an id that is its name in lower case is named where the reason cites an id ("bought sword", beside "Gunnar
    # gains Sword"; format 4 kept it), and is a word elsewhere ("captured" is also a serious injury's id)
    ("coreheim", _gold(-7, "bought sword"), "Reikland Rats treasury -7 (bought sword)", "Reikland Rats treasury -7 (bought Sword)"),
    ("coreheim", _gold(6, "sold sword x2 (half of 7 gc)"),
     "Reikland Rats treasury +6 (sold sword x2 (half of 7 gc))", "Reikland Rats treasury +6 (sold Sword x2, half of 7 gc)"),
    ("coreheim", ev.FighterCaptured(warband=RATS, fighter="gunnar", reason="captured by Clan Skrit"),
     "Gunnar is captured (captured by Clan Skrit)", "Gunnar is captured (captured by Clan Skrit)"),
    ("trench-crusade", _xp("battle 1: glorious-deed"),
     "Gunnar gains 1 XP (battle 1: glorious-deed)", "Gunnar gains 1 XP (battle 1: Glorious Deed)"),
    ("trench-crusade", _xp("battle 1: warband-deed-leader"),
     "Gunnar gains 1 XP (battle 1: warband-deed-leader)", "Gunnar gains 1 XP (battle 1: Warband Glorious Deed)"),
    ("trench-crusade", _xp("battle 1: survived"), "Gunnar gains 1 XP (battle 1: survived)", "Gunnar gains 1 XP (battle 1: survived)"),
    ("trench-crusade", _xp("battle 2: survived (capped: at most 7 XP as trench-pilgrims/communicant)", requested=3),
     "Gunnar gains 1 XP, capped from 3 (battle 2: survived (capped: at most 7 XP as trench-pilgrims/communicant))",
     "Gunnar gains 1 XP, capped from 3 (battle 2: survived, capped: at most 7 XP as Communicant)"),
    ("retinue", _xp("post-game pass: Hardy (Casualty Table)"),
     "Gunnar gains 1 XP (post-game pass: Hardy (Casualty Table))", "Gunnar gains 1 XP (post-game pass: Hardy, Casualty Table)"),
    ("warbands", AbilitiesLost(warband=RATS, fighter="gunnar", abilities=["Intellectual Advancement 1"], reason="Amnesia (amnesia)"),
     "Gunnar loses Intellectual Advancement 1 (Amnesia (amnesia))", "Gunnar loses Intellectual Advancement 1 (Amnesia)"),
    ("warbands", _gold(-50, "starting points: recruited Hans (50 points)"),
     "Reikland Rats XP pool -50 (starting points: recruited Hans (50 points))",
     "Reikland Rats XP pool -50 (starting points: recruited Hans, 50 points)"),
    # an aside inside the reason, not at its end, is no second pair of parentheses around it
    ("speedheim", ev.StatChanged(warband=RATS, fighter="gunnar", stat="Def", delta=-1, reason="Improvement (free), card 09"),
     "Gunnar Def -1 (Improvement (free), card 09)", "Gunnar Def -1 (Improvement (free), card 09)"),
    ("speedheim", HeroSlots(warband=RATS, slots=4, reason="bought"), "Reikland Rats has 4 hero slots (bought)",
     "Reikland Rats has 4 hero slots (bought)"),
    ("freeform", ev.TransactionVoided(target=8, because_of=6, reason="no longer follows once T6 is voided: no warband "
                                                                       "'Clan Skrittle' in this campaign (warbands: none yet)"),
     "T8 voided too (no longer follows once T6 is voided: no warband 'Clan Skrittle' in this campaign (warbands: none yet))",
     "T8 voided too (no longer follows once T6 is voided: no warband 'Clan Skrittle' in this campaign, warbands: none yet)"),
]


@pytest.mark.parametrize("ruleset, event, before, now", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_a_recorded_reason_is_said_by_the_names_of_the_tables_and_in_parentheses_once(clock, ruleset, event, before, now):
    state = campaign_of(clock, ruleset)
    assert before.endswith(f" ({event.reason})")  # format 3 put the reason, as recorded, in parentheses
    assert describe(event, state) == now


def test_a_roll_is_said_for_what_the_tables_name_it(clock):
    """A roll's recorded purpose names an item by its id ("Otto looks for power-scroll"), as the search line says
    it by its name since format 3 ("looks for Power Scroll")."""
    state = campaign_of(clock, "coreheim")
    rolls = [ev.DiceRolled(roll=1, expression="2D6", purpose="Gunnar looks for power-scroll", faces=[4, 4], value=8,
                           source="table"),
             ev.DiceRolled(roll=2, expression="D6", purpose="price of power-scroll", faces=[4], value=4, source="table"),
             # a one-word id too (were "looks for lance", "price of telescope")
             ev.DiceRolled(roll=3, expression="2D6", purpose="Gunnar looks for lance", faces=[4, 4], value=8, source="table"),
             ev.DiceRolled(roll=4, expression="2D6", purpose="price of telescope", faces=[4, 4], value=8, source="table")]
    assert [describe(roll, state) for roll in rolls] == ["R1 Gunnar looks for Power Scroll: 2D6 rolled [4, 4] = 8 (table)",
                                                         "R2 price of Power Scroll: D6 rolled [4] = 4 (table)",
                                                         "R3 Gunnar looks for Lance: 2D6 rolled [4, 4] = 8 (table)",
                                                         "R4 price of Telescope: 2D6 rolled [4, 4] = 8 (table)"]


@pytest.mark.parametrize("reason, typed, said", [
    # typed alone: as typed, its ids and its aside too
    ("bought power-scroll (twice)", {"bought power-scroll (twice)"}, "bought power-scroll (twice)"),
    # typed, then what the rules added: only the rules' part is worded
    ("story (capped: at most 7 XP as house/war-prophet)", {"story"}, "story, capped: at most 7 XP as War Prophet"),
    ("correction: glorious-deed", {"glorious-deed"}, "correction: glorious-deed"),
    ("bought sword", {"bought sword"}, "bought sword"),  # after the words that cite an id, too
    ("(glorious-deed)", (), "Glorious Deed"),
])
def test_what_a_person_typed_in_a_reason_stays_as_typed(reason, typed, said):
    names = {"power-scroll": "Power Scroll", "house/war-prophet": "War Prophet", "glorious-deed": "Glorious Deed",
             "sword": "Sword"}
    assert reason_said(reason, names, typed, cited_after=("bought ",)) == said


def test_a_reason_typed_with_reason_reads_as_typed_in_the_output_and_the_log(tmp_path):
    """`campaign treasury … --reason` in a Coreheim campaign, whose tables name "power-scroll": the line says
    the typed words, in the command's output and in the log, and the void's typed reason and a roll's typed
    purpose (`--for`) too."""
    runner = CliRunner()
    base = ["--store", f"sqlite:///{tmp_path / 'c.db'}"]

    def run(*args: str) -> str:
        result = runner.invoke(main, [*base, *args])
        assert result.exit_code == 0, result.output
        return result.output

    run("new", "Typed", "--ruleset", "coreheim")
    run("warband", "add", "Reikland Rats", "--player", "Ann", "--faction", "mercenaries")
    assert run("treasury", "Reikland Rats", "-11", "--reason", "bought power-scroll (from Bob)").splitlines()[0] == (
        "  Reikland Rats treasury -11 (bought power-scroll (from Bob))")
    assert run("void", "T3", "--reason", "power-scroll (not bought)").splitlines()[0] == "  T3 voided (power-scroll (not bought))"
    assert run("roll", "D6", "--for", "price of power-scroll", "--dice", "4").splitlines()[0] == (
        "  R0 price of power-scroll: D6 rolled [4] = 4 (table)")
    assert run("log", "--tail", "3").splitlines()[:2] == [  # then the roll and the head
        "    8 T3    arbiter    Reikland Rats treasury -11 (bought power-scroll (from Bob))  "
        "[VOIDED by T4 (arbiter): power-scroll (not bought)]",
        "   10 T4    arbiter    T3 voided (power-scroll (not bought))",
    ]


GOLDEN = Path(__file__).parents[1] / "golden"


@pytest.mark.parametrize("trail", ["demo-warbands", "demo-speedheim", "demo-retinue", "demo-freeform", "demo-coreheim"])
def test_the_reasons_a_person_typed_are_looked_for_only_where_a_reason_is_worded_with_names(trail, monkeypatch):
    """A log of thousands of transactions words few reasons that what a person typed could change (where the
    ruleset names no rows, only those that end in an aside): each transaction's command is searched for the
    reasons typed in it (`typed_reasons`) only when one is, and the rows are those of a search of every command."""
    chain = audit.read_trail((GOLDEN / f"{trail}.jsonl").read_bytes(), void_annotations)
    records = list(chain.records)
    searched: list[ev.Event] = []
    monkeypatch.setattr(describe_module, "typed_reasons",
                        lambda opened: searched.append(opened) or typed_reasons(opened))
    rows = all_rows(records)
    if rulesets.get(chain.ruleset["id"]).row_names is None:  # only a reason's aside is worded: 7 of 54 (warbands)
        assert len(searched) < len({record.tx for record in records}) / 5
    monkeypatch.setattr(history, "TypedReasons", typed_reasons)  # every command searched, as before
    assert all_rows(records) == rows


def test_a_reason_worded_again_is_worded_by_what_was_typed_in_its_own_transaction(clock):
    """A log words the same reasons over and over, kept once worded (`ledger.describe._Worded`): the same recorded
    reason, typed by a person in one transaction and recorded by the rules in another, reads as each says it,
    in any order."""
    state = campaign_of(clock, "coreheim")
    bought = _gold(-11, "bought power-scroll")
    by_rules, as_typed = "Reikland Rats treasury -11 (bought Power Scroll)", "Reikland Rats treasury -11 (bought power-scroll)"
    assert [describe(bought, state), describe(bought, state, {"bought power-scroll"}), describe(bought, state),
            describe(bought, state, {"bought power-scroll"})] == [by_rules, as_typed, by_rules, as_typed]
