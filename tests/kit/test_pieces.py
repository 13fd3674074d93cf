"""The kit's pieces on their own: a phase with a step taken instead of another, a step its command
checks and a gate; the options read back from campaigns recorded before options were typed; the
table loader's file names and house rules given as JSON text; the one face check and D66; resolve
and the roll numbers it keeps."""

from __future__ import annotations

import msgspec
import pytest

from commands.kit import (
    MoreDice, Options, Phase, PhaseMessages, PhaseStep, Rolled, TableError, Tables, check_faces, d66, options_of, resolve,
)
from ledger import events as ev
from ledger.decide import Context, Roll, TableDice
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Warband, evolve

PHASE = Phase(
    steps=[
        PhaseStep("trauma", "Trauma"),
        PhaseStep("advancement", "Advancement", checked_by_command=True,
                  done=lambda state, band: PHASE.is_done(state, band, "trauma") and not band.ext.get("owed")),
        PhaseStep("exploration", "Exploration"),
        PhaseStep("reinforcements", "Reinforcements", instead_of="exploration"),
        PhaseStep("roster", "Roster"),
    ],
    messages=PhaseMessages(not_yet="{band} must do {first} first (the phase goes {order})"),
    gate=lambda state, band, step: (_ for _ in ()).throw(RuleViolation("captive")) if band.ext.get("captive") else None,
)


def campaign(*steps: str, **ext: object) -> tuple[CampaignState, Warband]:
    state = CampaignState()
    for event in (ev.WarbandEnlisted(warband="rats", name="Rats", player="Ann"),
                  ev.BattleRecorded(battle=1, participants=["rats"]),
                  *(ev.PostGameStepDone(warband="rats", battle=1, step=step) for step in steps)):
        evolve(state, event)
    band = state.warbands["rats"]
    band.ext.update(ext)
    return state, band


def test_a_step_taken_instead_of_another_takes_its_place_and_shuts_it_out():
    state, band = campaign("trauma", "reinforcements")
    assert PHASE.is_done(state, band, "exploration")
    assert PHASE.next_step(state, band) == "roster"
    with pytest.raises(RuleViolation, match="Rats has done 'Reinforcements' for battle 1, taken instead of 'Exploration'"):
        PHASE.begin(state, band, "exploration")


def test_the_order_names_every_step_of_the_phase_those_commands_check_included():
    # A player reads the order as the whole phase: a step its command checks (Advancement) is
    # still one of its steps, though `begin` does not enforce it.
    state, band = campaign()
    with pytest.raises(RuleViolation) as refused:
        PHASE.begin(state, band, "exploration")
    assert str(refused.value) == "Rats must do Trauma first (the phase goes Trauma, Advancement, Exploration, Roster)"


def test_a_step_its_command_checks_still_holds_the_next_battle():
    state, band = campaign("trauma", owed=1)
    assert PHASE.begin(state, band, "exploration").number == 1  # not in the enforced order
    with pytest.raises(RuleViolation, match=r"next: Advancement"):
        PHASE.refuse_unfinished(state, ["rats"])


def test_the_gate_runs_after_the_order():
    state, band = campaign("trauma", captive=True)
    with pytest.raises(RuleViolation, match="captive"):
        PHASE.begin(state, band, "exploration")


def test_a_phase_declared_inconsistently_is_refused():
    with pytest.raises(ValueError, match="taken instead of nowhere"):
        Phase(steps=[PhaseStep("a", "A", instead_of="nowhere")])


class Odd(Options, frozen=True, kw_only=True):
    mode: str = "complex"
    bonus: int = 1


def test_options_recorded_before_they_were_typed_read_leniently():
    recorded = {"exploration": "weird", "bonus": "two", "mode": "casual", "dice": "ledger"}
    assert options_of(recorded, Odd) == Odd(dice="ledger", mode="casual", bonus=1)


class Pair(msgspec.Struct, frozen=True, kw_only=True):
    injury: dict[str, int]
    hero_injury: dict[str, int]


@pytest.fixture
def pair_package(tmp_path, monkeypatch):
    """A package with a Pair's data files, one named as its table, one as its field."""
    package = tmp_path / "kit_tables_example"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "data" / "injury.json").write_text('{"a": 1}')
    (package / "data" / "hero_injury.json").write_text('{"b": 2}')
    monkeypatch.syspath_prepend(str(tmp_path))
    return "kit_tables_example"


PAIR_NAMES = {"injury": "injury", "hero-injury": "hero_injury"}


def test_tables_load_by_table_name_or_field_and_take_json_text(pair_package):
    tables = Tables("Pair", Pair, pair_package, names=PAIR_NAMES)
    assert tables.defaults == Pair(injury={"a": 1}, hero_injury={"b": 2})
    assert tables.with_house_rules({"hero-injury": b'{"c": 3}'}).hero_injury == {"c": 3}
    assert tables.with_house_rules({}) is tables.defaults
    with pytest.raises(TableError, match="Pair table 'injury' is invalid: JSON is malformed"):
        tables.with_house_rules({"injury": "{oops"})
    with pytest.raises(TableError, match="Pair table 'injury' is invalid: Expected `int`, got `str`"):
        tables.for_options({"tables": {"injury": {"a": "x"}}})


def test_one_table_is_read_alone_unless_the_campaign_replaces_a_table(pair_package):
    checked = []
    tables = Tables("Pair", Pair, pair_package, names=PAIR_NAMES, check=checked.append)
    # Without house rules, one table is its default, read without decoding and checking the set
    assert tables.table("hero-injury", {}) == {"b": 2}
    assert tables.table("injury", {"tables": {}}) == {"a": 1}
    assert checked == []
    # The set read later holds the same tables, and is checked whole
    assert tables.defaults.hero_injury is tables.table("hero-injury", {})
    assert checked == [tables.defaults]
    # A campaign's house rules give its own table, checked with the others
    house = {"tables": {"injury": {"a": 5}}}
    assert (tables.table("injury", house), tables.table("hero-injury", house)) == ({"a": 5}, {"b": 2})
    assert checked[-1] == Pair(injury={"a": 5}, hero_injury={"b": 2})
    with pytest.raises(TableError, match="Pair table 'injury' is invalid"):
        tables.table("hero-injury", {"tables": {"injury": {"a": "x"}}})


@pytest.mark.parametrize("faces, dice, message", [
    ([7], 6, "Survival: the die of the D6 roll shows 7, not 1-6"),
    ([3, 0], "D66", "Survival: the 2nd die of the D66 roll shows 0, not 1-6"),
    ([1], "2D6", "Survival: 2 dice needed, 1 given"),
    ([True], 6, "Survival: faces are whole numbers, not [True]"),
])
def test_the_one_face_check(faces, dice, message):
    with pytest.raises(BadInput) as refused:
        check_faces(faces, dice, "Survival")
    assert str(refused.value) == message


def test_d66_reads_tens_then_units():
    assert (d66([3, 5]), d66([5, 3])) == (35, 53)


def test_resolve_rolls_what_the_rule_asks_for_and_keeps_each_rolls_number():
    # Given a campaign that has rolled 7 dice already, and a rule asking for a D6, then another unless it shows 6
    state = CampaignState(rolls=7)
    ctx = Context(state, dice=TableDice(given=[2, 5]), shuffle_dice=None, answers={}, ask=None,
                  ruleset_evolve=None, decks={}, options={})

    def rule(rolled: Rolled) -> list[int]:
        first = rolled.next(0, "D6", "first")[0]
        return [first] if first == 6 else [first, rolled.next(1, "D6", "second")[0]]

    rolled = Rolled()
    # When resolve drives it
    assert resolve(ctx, rule, rolled) == [2, 5]
    # Then each roll was recorded in order, and the Rolled names the ledger's roll number of each
    assert [(e.roll, e.purpose, e.faces) for e in ctx.events] == [(7, "first", [2]), (8, "second", [5])]
    assert rolled.numbers == {"0": 7, "1": 8}


def test_resolve_rolls_what_the_rule_asks_with_the_handlers_roll_and_keeps_the_faces_for_a_choice():
    asked: list[tuple[str, str, str]] = []

    def roll(need: MoreDice) -> Roll:  # the handler's: names the roll its own way, reads a D3 off a D6
        asked.append((need.key, need.expression, need.purpose))
        faces = [3] if need.expression == "D3" else [6]
        return Roll(number=len(asked) - 1, faces=faces, value=faces[0], kept=faces)

    def rule(rolled: Rolled) -> int:
        return rolled.next(0, "D3", "bonus")[0] + rolled.next(1, "D6", "survival")[0]

    rolled = Rolled()
    assert resolve(None, rule, rolled, roll=roll) == 9  # type: ignore[arg-type]  # no ledger: the handler rolls
    assert asked == [("0", "D3", "bonus"), ("1", "D6", "survival")]
    # Resolved again with the same faces (after a player's choice), nothing more is rolled
    assert resolve(None, rule, rolled, roll=roll) == 9 and len(asked) == 2  # type: ignore[arg-type]
