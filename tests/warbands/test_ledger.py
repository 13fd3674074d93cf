"""The Warbands rules on the ledger, given/when/then: given the commands done so far, when this
command with these table dice, then these events (or this refusal, with nothing written)."""

from __future__ import annotations

import uuid
from unittest import mock

import pytest

from commands.warbands.handlers import (
    Advance,
    Enlist,
    Experience,
    Injuries,
    RecordWarbandsBattle,
    Recovery,
    Recruit,
    Survival,
    Upgrade,
    VeteranRecruits,
)
from commands.shared import AwardXP, ChangeTreasury, Correct, EnlistWarband, UpgradeRules
from commands.warbands.events import AdvancementRead, AdvancementRolled, UnitRecovered
from ledger import dice
from ledger import events as ev
from ledger import rulesets
from ledger.decide import TableDice
from ledger.deciding import decide
from ledger.describe import describe
from ledger.errors import BadInput, NeedsDice, RuleViolation
from ledger.pending import PendingDecision
from ledger.testing import FIXED_SEED

from commands.warbands import model
from commands.warbands.views import status_of

from .conftest import Table, tags


def lines(table: Table, events) -> list[str]:
    return [describe(e, table.state) for e in events if describe(e, table.state)]


# --- R24, R25, R3: the start and the cap ---------------------------------------------------------------

def test_R24_R25_starting_points_pay_for_the_warband_and_the_rest_is_xp(table):
    # Reiklanders spent 150 of 250: "Starting points not spent convert into XP one for one".
    assert table.xp() == 100
    t = Table()
    t.do(Enlist(name="Ostlanders", player="Cy", type="empire"))
    t.do(Recruit(warband="Ostlanders", name="Halberdiers", points=9, models=27))  # 243 points
    assert t.xp("ostlanders") == 7
    assert t.refusal(Recruit(warband="Ostlanders", name="Dog", points=8, models=1)) == (
        "recruiting Dog would make the starting warband 251 points; a warband starts with at most 250")


def test_R3_the_cap_refuses_a_recruit_that_would_pass_500_points():
    t = Table({"starting_points": 500})
    t.do(Enlist(name="Ostlanders", player="Cy", type="Empire"))
    t.do(Recruit(warband="Ostlanders", name="Halberdiers", points=9, models=55))  # 495
    assert t.refusal(Recruit(warband="Ostlanders", name="Knight", points=10, archetype="Noble")) == (
        "recruiting Knight would make the starting warband 505 points; a warband starts with at most 500")
    t.do(Recruit(warband="Ostlanders", name="Dog", points=5, models=1))  # exactly 500 is legal


def test_R3_after_the_start_xp_pays_and_the_cap_still_holds(table):
    table.quiet_battle(xp=400)
    assert table.xp() == 500
    table.do(Recruit(warband="Reiklanders", name="Knights", points=25, models=14))  # 150 + 350 = 500
    assert table.refusal(Recruit(warband="Reiklanders", name="Dog", points=5, models=1)) == (
        "recruiting Dog would make the warband 505 points; no warband may be larger than 500 points (it is 500)")


def test_U2_xp_may_be_barred_from_buying_new_units(house_rules):
    t = house_rules({"xp_buys_new_units": False})
    t.empire()
    t.orcs()
    t.quiet_battle(xp=20)
    assert "do not buy new units" in t.refusal(Recruit(warband="Reiklanders", name="Dog", points=5, models=1))


def test_shared_commands_that_the_ruleset_does_otherwise_point_to_its_own(table):
    assert "campaign warbands enlist" in table.refusal(EnlistWarband(name="X", player="Y"))
    assert "Experience Points belong to the warband" in table.refusal(AwardXP(fighter="Hans", amount=1, reason="x"))


# --- R6, R7, R8, R11: Veteran Status over battles -----------------------------------------------------

def test_R7_survival_counts_after_recovery_and_R8_upgrade_costs_10_xp(table):
    # Swordsmen lose all 10 on the table; 6 recover: "still eligible for Veteran Status".
    table.battle(removed={"Swordsmen": 7}, fled={"Swordsmen": 3})
    events = table.do(Recovery(warband="Reiklanders", recovered={"Swordsmen": 6}))
    assert lines(table, events)[0] == "Swordsmen: 6 of 10 casualties recovered; 6 of 10 models after Recovery"
    table.do(Injuries(warband="Reiklanders"))
    events = table.do(Survival(warband="Reiklanders"))
    assert lines(table, events)[:2] == [
        "Swordsmen eligible for its next Veteran level (6 of 10 survived battle 1)",
        "Handgunners eligible for its next Veteran level (5 of 5 survived battle 1)"]
    table.do(Experience(warband="Reiklanders", xp=0))
    table.post_game("Da Boyz")
    events = table.do(Upgrade(warband="Reiklanders", unit="Swordsmen"))
    assert tags(events) == ["treasury.changed", "keyword.gained", "warbands.veteran-eligibility"]
    # the last line read "Swordsmen not eligible for a Veteran level: used for +1", as if the upgrade were refused
    assert lines(table, events)[1:] == [
        "Swordsmen gains Veteran +1",
        "Swordsmen is no longer eligible for a Veteran level: its eligibility was used for +1"]
    assert (table.xp(), table.rating()) == (90, 126 + 10)  # 6 x 6 + 40 + 50 = 126 points, +10


def test_R8_no_second_level_from_the_same_battle(table):
    table.quiet_battle()
    table.do(Upgrade(warband="Reiklanders", unit="Swordsmen"))
    assert table.refusal(Upgrade(warband="Reiklanders", unit="Swordsmen")) == (
        "Swordsmen has not survived a battle since its last upgrade with more than 50% of its starting numbers: "
        "not eligible for +2")


@pytest.mark.parametrize(("starting_lost", "eligible"), [(2, True), (3, False)])
def test_R6_boundaries_on_the_ledger_5_models_3_or_2_survivors(table, starting_lost, eligible):
    table.quiet_battle(removed={"Handgunners": starting_lost})
    assert table.unit("Handgunners").eligible is eligible


def test_R11_a_unit_gains_1_then_2_and_loses_it_all_with_its_wbr_in_the_same_transaction(table):
    table.quiet_battle()
    table.do(Upgrade(warband="Reiklanders", unit="Swordsmen"))
    table.quiet_battle()
    table.do(Upgrade(warband="Reiklanders", unit="Swordsmen"))
    assert table.state.fighters["swordsmen"].keywords == ["Veteran +2"]
    assert table.rating() == 150 + 20
    # 10 start, 5 survive: "loses 50% or more … instantly loses its Veteran Status".
    table.battle(removed={"Swordsmen": 5})
    table.do(Recovery(warband="Reiklanders", recovered={"Swordsmen": 0}))
    table.do(Injuries(warband="Reiklanders"))
    before = table.rating()
    assert before == 120 + 20
    events = table.do(Survival(warband="Reiklanders"))
    assert lines(table, events)[:2] == ["Swordsmen loses Veteran +2",
                                        "Swordsmen not eligible for a Veteran level (5 of 10 survived battle 3)"]
    assert events[0].reason == "lost 50% or more: 5 of 10 survived battle 3"
    assert table.rating() == 120  # the +20 is gone with the status, in the same transaction
    assert table.unit("Swordsmen").eligible is False


def test_R10_veteran_recruits_cost_their_points_in_xp_and_join_the_unit(table):
    table.quiet_battle(removed={"Swordsmen": 2}, xp=10)
    table.do(Upgrade(warband="Reiklanders", unit="Swordsmen"))
    assert table.refusal(VeteranRecruits(warband="Reiklanders", unit="Handgunners", models=1)) == (
        "Handgunners has no Veteran Status: only Veteran units take Veteran recruits")
    events = table.do(VeteranRecruits(warband="Reiklanders", unit="Swordsmen", models=2))
    assert lines(table, events) == ["Reiklanders XP pool -12 (XP: 2 Veteran recruits for Swordsmen)",
                                    "2 Veteran recruits join Swordsmen"]
    assert (table.state.fighters["swordsmen"].group_size, table.xp()) == (10, 88)


def test_R3_R10_veteran_recruits_are_refused_past_the_cap(house_rules):
    t = house_rules({"starting_points": 500})
    t.empire()
    t.orcs()
    t.do(Recruit(warband="Reiklanders", name="Knights", points=25, models=14))  # 150 + 350 = 500 points
    t.quiet_battle(xp=10)
    t.do(Upgrade(warband="Reiklanders", unit="Swordsmen"))
    assert t.refusal(VeteranRecruits(warband="Reiklanders", unit="Swordsmen", models=1)) == (
        "1 recruit for Swordsmen would make the warband 506 points; no warband may be larger than 500 points (it is 500)")


# --- R13–R18: Archetypes on the ledger ----------------------------------------------------------------

EMPIRE_ROW = ["Barbarian", "Intellectual", "Noble", "Magician", "Trickster", "Veteran"]


def supplied_archetype_table() -> dict:
    from commands.warbands.tables import SEED_ROW_SIZES

    return {"rows": [{"type": t, "archetypes": EMPIRE_ROW if t == "Empire" else None} for t in SEED_ROW_SIZES]}


def test_R13_R15_an_archetype_from_the_types_row_and_its_starting_ability(house_rules):
    t = house_rules({"tables": {"archetype-table": supplied_archetype_table()}})
    t.do(Enlist(name="Reiklanders", player="Ann", type="Empire"))
    assert t.refusal(Recruit(warband="Reiklanders", name="Mad Max", points=50, archetype="Psychopath")) == (
        "Empire characters may not be Psychopaths (the Archetype Table allows " + ", ".join(EMPIRE_ROW) + ")")
    events = t.do(Recruit(warband="Reiklanders", name="Hans", points=50, archetype="intellectual"))
    assert lines(t, events) == ["Hans, character, joins Reiklanders",
                                "Hans is an Intellectual, with the Starting Ability Advantage of Ground",
                                "Hans learns Advantage of Ground",
                                "Reiklanders XP pool -50 (starting points: recruited Hans, 50 points)"]


@pytest.mark.parametrize("archetype, said", [
    ("Intellectual", "Otto is an Intellectual, with the Starting Ability Advantage of Ground"),
    # an ability named for its archetype read "a Magician (Starting Ability Magician Starting Ability)"
    ("Magician", "Otto is a Magician, with the Magician Starting Ability"),
])
def test_an_archetype_chosen_names_its_starting_ability_once(table, archetype, said):
    events = table.do(Recruit(warband="Reiklanders", name="Otto", points=50, archetype=archetype))
    assert lines(table, events)[1] == said


def advance_ready(table: Table, battles: int = 3, xp: int = 30) -> None:
    for _ in range(battles):
        table.quiet_battle(xp=xp)


def test_R16_three_battles_survived_after_injuries_then_25_xp_for_a_roll(table):
    table.quiet_battle(down=["Hans"])  # down, recovered from his injury: survived
    table.quiet_battle(xp=30)
    assert table.refusal(Advance(warband="Reiklanders", character="Hans")) == (
        "Hans has survived 2 of the 3 battles since joining needed to roll on the Advancement Table")
    table.quiet_battle()
    events = table.do(Advance(warband="Reiklanders", character="Hans"), [4])
    assert lines(table, events) == [
        "Reiklanders XP pool -25 (XP: Advancement roll for Hans)",
        "R0 Intellectual Advancement Table for Hans: D6 rolled [4] = 4 (table)",
        "Hans rolls on the Intellectual Advancement Table: Intellectual Advancement 4",
        "Hans learns Intellectual Advancement 4"]
    assert table.rating() == 150 + 25


def test_R17_three_more_games_before_the_next_roll_and_U5_a_held_result_is_rolled_again(table):
    advance_ready(table)
    table.do(Advance(warband="Reiklanders", character="Hans"), [4])
    table.quiet_battle()
    table.quiet_battle()
    assert "has survived 2 of the 3 battles since his last Archetype Ability" in table.refusal(
        Advance(warband="Reiklanders", character="Hans"))
    table.quiet_battle()
    events = table.do(Advance(warband="Reiklanders", character="Hans"), [4, 2])
    assert lines(table, events)[-2] == ("Hans rolls on the Intellectual Advancement Table: Intellectual Advancement 2, "
                                        "after rerolling Intellectual Advancement 4 (already held)")


def test_R17_never_a_sixth_ability(table):
    for face in (1, 2, 3, 4, 5):
        advance_ready(table)
        table.do(Advance(warband="Reiklanders", character="Hans"), [face])
    advance_ready(table)
    assert table.refusal(Advance(warband="Reiklanders", character="Hans")) == (
        "Hans has six Abilities, the most a character may have")


def test_R17_a_character_at_six_abilities_survives_toward_no_next_ability(table):
    """Seed: "A character may never have more than six Abilities (i.e., five Archetype Abilities plus the
    Starting Ability)". Given Hans with five Archetype Abilities, when he survives a battle, then the log says
    he has the most a character may have (it read "1 battle survived toward the next Archetype Ability")."""
    for face in (1, 2, 3, 4, 5):
        advance_ready(table)
        table.do(Advance(warband="Reiklanders", character="Hans"), [face])
    table.battle()
    table.do(Recovery(warband="Reiklanders"))
    table.do(Injuries(warband="Reiklanders"))
    events = table.do(Survival(warband="Reiklanders"))
    assert lines(table, events)[2] == "Hans survived battle 16: six Abilities, the most a character may have"
    assert table.rating() == 150 + 125


def test_R19_a_useless_result_is_rolled_again_for_free_by_default(table):
    advance_ready(table)
    xp = table.xp()
    events = table.do(Advance(warband="Reiklanders", character="Hans", useless=["Intellectual Advancement 3"]), [3, 6])
    assert "after rerolling Intellectual Advancement 3 (useless to him)" in lines(table, events)[-2]
    assert table.xp() == xp - 25


def test_U9_a_useless_reroll_may_cost_xp(house_rules):
    t = house_rules({"useless_reroll_xp": 5})
    t.empire()
    t.orcs()
    advance_ready(t)
    xp = t.xp()
    t.do(Advance(warband="Reiklanders", character="Hans", useless=["Intellectual Advancement 3"]), [3, 6])
    assert t.xp() == xp - 30


# Version 6, R19 and U9: "characters for whom such an Ability would be useless *may* reroll the skill in question".
# A group charges 5 XP for the reroll (useless_reroll_xp); Hans's Reiklanders keep too little XP for it.

def hans_ready_with_xp_left(version: str | None = None, xp_left: int = 0) -> Table:
    """Hans may roll on the Advancement Table; once its 25 XP are paid, Reiklanders keep `xp_left`. The campaign's
    id and dice seed are fixed, so that its ledger dice are known (`first_ledger_face`)."""
    with mock.patch.object(uuid, "uuid4", lambda: CAMPAIGN), mock.patch.object(dice, "new_seed", lambda: FIXED_SEED):
        table = Table({"useless_reroll_xp": 5}, version=version)
    table.empire()
    table.orcs()
    advance_ready(table, xp=0)
    table.do(ChangeTreasury(warband="Reiklanders", delta=25 + xp_left - table.xp(), reason="spent"))
    return table


CAMPAIGN = uuid.UUID("6f1c2a52-0000-4000-8000-000000000006")


def first_ledger_face() -> int:
    """The D6 of the campaign's first ledger roll (R0: no roll precedes Hans's advance)."""
    return dice.ledger_face(FIXED_SEED, str(CAMPAIGN), 0, 0, 6)


def advance_with_useless(*numbers: int) -> Advance:
    return Advance(warband="Reiklanders", character="Hans", useless=[f"Intellectual Advancement {n}" for n in numbers])


def test_R19_U9_a_useless_ability_stands_when_the_warband_cannot_pay_its_reroll():
    """Given 0 XP once the roll is paid, when the roll is 3, declared useless, then no reroll is made and it
    stands, saying why; version 5 refused the command after the roll."""
    table = hans_ready_with_xp_left()
    events = table.do(advance_with_useless(3), [3])
    assert events[2] == AdvancementRolled(
        warband="reiklanders", fighter="hans", archetype="Intellectual", ability="Intellectual Advancement 3",
        reads=[AdvancementRead(roll=0, value=3, row="intellectual-3", ability="Intellectual Advancement 3",
                               outcome="useless-stands")],
        reason="useless to him, and a reroll costs 5 XP the warband does not have: it stands")
    assert lines(table, events) == [
        "Reiklanders XP pool -25 (XP: Advancement roll for Hans)",
        "R0 Intellectual Advancement Table for Hans: D6 rolled [3] = 3 (table)",
        "Hans rolls on the Intellectual Advancement Table: Intellectual Advancement 3 (useless to him, and a reroll "
        "costs 5 XP the warband does not have: it stands)",
        "Hans learns Intellectual Advancement 3"]
    assert (table.xp(), table.character("Hans").abilities) == (0, ("Intellectual Advancement 3",))


def test_R19_U9_the_rerolls_the_warband_can_pay_are_made_and_the_next_useless_ability_stands():
    table = hans_ready_with_xp_left(xp_left=7)  # one reroll at 5 XP
    events = table.do(advance_with_useless(1, 3), [3, 1])
    assert lines(table, events) == [
        "Reiklanders XP pool -25 (XP: Advancement roll for Hans)",
        "R0 Intellectual Advancement Table for Hans: D6 rolled [3] = 3 (table)",
        "R1 Intellectual Advancement Table for Hans: D6 rolled [1] = 1 (table)",
        "Reiklanders XP pool -5 (XP: rerolling Intellectual Advancement 3, useless to Hans)",
        "Hans rolls on the Intellectual Advancement Table: Intellectual Advancement 1 (useless to him, and a reroll "
        "costs 5 XP the warband does not have: it stands), after rerolling Intellectual Advancement 3 (useless to him)",
        "Hans learns Intellectual Advancement 1"]
    assert table.xp() == 2


def test_R19_U9_an_ability_already_held_is_still_rolled_again_for_free_when_no_reroll_can_be_paid():
    table = hans_ready_with_xp_left(xp_left=0)
    table.do(Advance(warband="Reiklanders", character="Hans"), [2])
    advance_ready(table, xp=25)
    events = table.do(advance_with_useless(3), [2, 4])
    assert lines(table, events)[-2] == ("Hans rolls on the Intellectual Advancement Table: Intellectual Advancement 4, "
                                        "after rerolling Intellectual Advancement 2 (already held)")


def test_R19_U9_with_ledger_dice_a_useless_ability_that_cannot_be_rerolled_stands_at_once():
    """With ledger dice version 5 refused after the roll: the advance was left pending with its dice, and voided, the
    next attempt rolled new dice (a reroll for free). From version 6 the one ledger roll decides it."""
    table = hans_ready_with_xp_left()
    useless = f"Intellectual Advancement {first_ledger_face()}"
    advance = Advance(warband="Reiklanders", character="Hans", useless=[useless])
    outcome = table.ledger.execute(table.cid, advance, actor="arbiter", dice=None)
    assert [describe(r.event, table.state) for r in outcome.records[2:5]] == [
        f"R0 Intellectual Advancement Table for Hans: D6 rolled [{first_ledger_face()}] = {first_ledger_face()} (ledger)",
        f"Hans rolls on the Intellectual Advancement Table: {useless} (useless to him, and a reroll costs 5 XP the "
        "warband does not have: it stands)",
        f"Hans learns {useless}"]
    assert table.state.pending == {}


def test_on_version_5_a_useless_ledger_roll_the_warband_could_not_pay_to_reroll_was_left_pending():
    table = hans_ready_with_xp_left("5")
    advance = Advance(warband="Reiklanders", character="Hans", useless=[f"Intellectual Advancement {first_ledger_face()}"])
    with pytest.raises(PendingDecision, match="^rerolling a useless ability: 5 XP, and the warband has 0 — its dice "
                                              "are recorded and T37 is pending"):
        table.ledger.execute(table.cid, advance, actor="arbiter", dice=None)
    assert list(table.state.pending) == ["37"]


def test_on_version_5_a_useless_ability_the_warband_could_not_pay_to_reroll_was_refused_after_the_roll():
    table = hans_ready_with_xp_left("5")
    assert table.refusal(advance_with_useless(3), [3, 4]) == "rerolling a useless ability: 5 XP, and the warband has 0"
    assert table.do(advance_with_useless(3), [4])[2].ability == "Intellectual Advancement 4"


def test_R18_amnesia_takes_the_archetype_abilities_and_their_wbr_but_not_the_starting_ability(table):
    advance_ready(table)
    table.do(Advance(warband="Reiklanders", character="Hans"), [1])
    table.battle(down=["Hans"])
    table.do(Recovery(warband="Reiklanders"))
    events = table.do(Injuries(warband="Reiklanders", outcomes={"Hans": "amnesia"}))
    assert lines(table, events)[:2] == ["Hans suffers Amnesia", "Hans loses Intellectual Advancement 1 (Amnesia)"]
    assert table.state.fighters["hans"].skills == ["Advantage of Ground"]
    assert table.rating() == 150


def test_R18_a_dead_character_takes_his_points_and_abilities_off_the_rating(table):
    advance_ready(table)
    table.do(Advance(warband="Reiklanders", character="Hans"), [1])
    table.battle(down=["Hans"])
    table.do(Recovery(warband="Reiklanders"))
    table.do(Injuries(warband="Reiklanders", outcomes={"Hans": "dead"}))
    assert table.rating() == 100  # Swordsmen 60 + Handgunners 40


def hans_died(table) -> None:
    table.battle(down=["Hans"])
    table.do(Recovery(warband="Reiklanders"))
    table.do(Injuries(warband="Reiklanders", outcomes={"Hans": "dead"}))
    table.do(Survival(warband="Reiklanders"))
    table.do(Experience(warband="Reiklanders", xp=60))


def test_a_dead_characters_name_stays_his(table):
    # Version 2: another "Hans" made `advance Hans` ask which one, while `battle --down Hans` took the living one
    hans_died(table)
    assert table.refusal(Recruit(warband="Reiklanders", name="hans", points=50, archetype="Intellectual")) == (
        "Reiklanders already has a unit or character called hans (dead): a name stays its bearer's, choose another")


def test_on_version_1_a_dead_characters_name_was_taken_again():
    table = Table(version="1")
    table.empire()
    table.orcs()
    hans_died(table)
    table.do(Recruit(warband="Reiklanders", name="Hans", points=50, archetype="Intellectual"))
    assert [f.status for f in table.state.fighters.values() if f.name == "Hans"] == ["dead", "active"]


# --- the post-game order, and the group's own tables ------------------------------------------------

def test_steps_run_in_order_once_and_before_the_next_battle(table):
    table.battle()
    assert table.refusal(Survival(warband="Reiklanders")) == (
        "Reiklanders cannot judge survival yet: roll Recovery first (post-game of battle 1)")
    table.do(Recovery(warband="Reiklanders"))
    assert table.refusal(Recovery(warband="Reiklanders")) == "Reiklanders has already done the post-game step Recovery for battle 1"
    assert table.refusal(Upgrade(warband="Reiklanders", unit="Swordsmen")) == (
        "Reiklanders must finish its post-game (next: Injuries) before spending XP")
    assert table.refusal(RecordWarbandsBattle(participants=["Reiklanders", "Da Boyz"])) == (
        "Reiklanders must finish the post-game of battle 1 first (next: Injuries)")


def test_U3_a_groups_recovery_table_rolls_one_die_per_casualty(house_rules):
    t = house_rules({"tables": {"recovery": {"die": "D6", "rows": [
        {"id": "winner-removed", "result": "win", "casualty": "removed", "target": 4},
        {"id": "any", "target": 5}]}}})
    t.empire()
    t.orcs()
    t.battle(removed={"Swordsmen": 3}, fled={"Swordsmen": 1})
    events = t.do(Recovery(warband="Reiklanders"), [4, 3, 6, 5])
    recovered = next(e for e in events if isinstance(e, UnitRecovered))
    assert (recovered.recovered, recovered.survivors, recovered.row) == (3, 9, "winner-removed+any")


RECOVERY_TABLE = {"tables": {"recovery": {"die": "D6", "rows": [{"id": "any", "target": 4}]}}}


def test_U3_recovery_told_for_a_unit_the_table_rolls_for_is_refused_before_any_unit_rolls():
    """Given Swordsmen and Handgunners with casualties, when --recovered is given for Handgunners, then it is
    refused before Swordsmen roll, with ledger dice too: refused after their roll, ledger dice left the Recovery
    pending, and voided, the next one rolled Swordsmen's Recovery anew."""
    table = Table(RECOVERY_TABLE)
    table.empire()
    table.orcs()
    table.battle(removed={"Swordsmen": 2, "Handgunners": 1})
    told = Recovery(warband="Reiklanders", recovered={"Handgunners": 1})
    refused = "this campaign rolls Recovery on its table: leave out --recovered Handgunners"
    assert table.refusal(told) == refused
    position = table.state.position
    with pytest.raises(BadInput, match=f"^{refused}$"):
        table.ledger.execute(table.cid, told, actor="arbiter", dice=None)
    assert (table.state.position, table.state.pending) == (position, {})
    # decided again as recorded (replay, import), it rolls Swordsmen first, as it always did
    with pytest.raises(NeedsDice, match="^Recovery of Swordsmen, removed model 1 of 2 \\(4\\+\\) needs D6"):
        table.decided_again(told)


@pytest.mark.parametrize("key", ["recovered:handgunners", "recovered:Handgunners"])
def test_U3_recovery_answered_for_a_unit_the_table_rolls_for_is_refused_before_any_unit_rolls(key):
    """The guided walk's answer for it likewise (`campaign post-game Reiklanders --answer recovered:Handgunners=1`): it
    was rolled over, the table deciding, and named on the walk's "Not used:" line once the dice were seen."""
    table = Table(RECOVERY_TABLE)
    table.empire()
    table.orcs()
    table.battle(removed={"Swordsmen": 2, "Handgunners": 1})
    answered = Recovery(warband="Reiklanders", answers={key: "1"})
    assert table.refusal(answered) == f"--answer {key}: not asked: this campaign rolls the Recovery of Handgunners on its table"
    with pytest.raises(NeedsDice, match="^Recovery of Swordsmen, removed model 1 of 2 \\(4\\+\\) needs D6"):
        table.decided_again(answered)  # decided again as recorded, it rolls


def test_U3_a_recovery_table_with_no_row_for_a_casualty_refuses_before_any_unit_rolls(monkeypatch):
    """Given a campaign started before a Recovery table needed a row for each casualty (it has none for a model that
    fled), when Swordsmen's removed models and a Handgunner who fled recover, then it is refused before Swordsmen
    roll: after their roll, ledger dice left the Recovery pending."""
    with monkeypatch.context() as before:
        before.setattr(model, "check_playable", lambda tables: None)
        table = Table({"tables": {"recovery": {"rows": [{"id": "removed", "casualty": "removed", "target": 4}]}}})
    table.empire()
    table.orcs()
    table.battle(removed={"Swordsmen": 2}, fled={"Handgunners": 1})
    with pytest.raises(RuleViolation, match="^the recovery table has no row for a fled model after a win$"):
        table.ledger.execute(table.cid, Recovery(warband="Reiklanders"), actor="arbiter", dice=None)
    assert table.state.pending == {}


def test_U4_a_groups_injury_table_is_rolled(house_rules):
    t = house_rules({"tables": {"character-injury": {"die": "D6", "rows": [
        {"id": "dead", "low": 1, "high": 1, "name": "Dead", "effect": "dead"},
        {"id": "amnesia", "low": 2, "high": 2, "name": "Amnesia", "effect": "amnesia"},
        {"id": "fine", "low": 3, "high": 6, "name": "Full Recovery", "effect": "recovered"}]}}})
    t.empire()
    t.orcs()
    t.battle(down=["Hans"])
    t.do(Recovery(warband="Reiklanders"))
    assert "leave out the outcome for Hans" in t.refusal(Injuries(warband="Reiklanders", outcomes={"Hans": "dead"}))
    # and so is the walk's answer for it, which the table rolled over ("Not used" once the die was seen)
    assert t.refusal(Injuries(warband="Reiklanders", answers={"injury:Hans": "dead"})) == (
        "--answer injury:Hans: not asked: this campaign rolls Hans' injury on its Character Injury Table")
    events = t.do(Injuries(warband="Reiklanders"), [1])
    assert [e.row for e in events if isinstance(e, ev.FighterDied)] == ["dead"]


def test_U1_a_groups_xp_award_table_names_its_rows(house_rules):
    t = house_rules({"tables": {"xp-awards": {"rows": [
        {"id": "fought", "result": "any", "xp": 5}, {"id": "won", "result": "win", "xp": 3}]}}})
    t.empire()
    t.orcs()
    t.battle()
    t.do(Recovery(warband="Reiklanders"))
    t.do(Injuries(warband="Reiklanders"))
    t.do(Survival(warband="Reiklanders"))
    events = t.do(Experience(warband="Reiklanders"))
    assert [(e.delta, e.row) for e in events if isinstance(e, ev.TreasuryChanged)] == [(5, "fought"), (3, "won")]


# --- undo: a voided purchase takes its WBR and XP with it -------------------------------------------

def test_R5_voiding_an_advancement_roll_gives_back_the_xp_and_takes_its_wbr(table):
    advance_ready(table)
    xp = table.xp()
    table.do(Advance(warband="Reiklanders", character="Hans"), [1])
    assert (table.xp(), table.rating()) == (xp - 25, 175)
    table.ledger.void(table.cid, f"T{table.state.transactions}", reason="rolled for the wrong character", actor="arbiter")
    assert (table.xp(), table.rating()) == (xp, 150)
    assert table.character("Hans").survived_since_ability == 3


# --- R4: the seed's example, played out ---------------------------------------------------------------

def test_R4_two_500_point_warbands_reach_525_and_765_and_the_status_explains_each_point(house_rules):
    """"One 500-point Warband could have a WBR as low as 525 or lower, whereas another 500-point
    Warband could have a WBR of 765 or higher." Fifteen battles without casualties: Low's Hans
    rolls once (+25); High's three units climb to +3 (3 x 30) and its characters roll 5 and 2
    Archetype Abilities (7 x 25): 500 + 90 + 175 = 765."""
    from commands.warbands.views import status_of

    t = house_rules({"starting_points": 500})
    for band, heroes in (("Low", [("Hans", 100, "Intellectual")]),
                         ("High", [("Greta", 60, "Magician"), ("Karl", 40, "Veteran")])):
        t.do(Enlist(name=band, player=band, type="Empire"))
        for unit, points, models in (("Spearmen", 6, 20), ("Archers", 8, 10), ("Knights", 25, 8)):
            t.do(Recruit(warband=band, name=unit, points=points, models=models))
        for hero, points, archetype in heroes:
            t.do(Recruit(warband=band, name=hero, points=points, archetype=archetype))
    rolls = {"Greta": iter([1, 2, 3, 4, 5]), "Karl": iter([1, 2]), "Hans": iter([1])}
    for battle in range(1, 16):
        t.do(RecordWarbandsBattle(participants=["Low", "High"]))
        t.post_game("Low", xp=10)
        t.post_game("High", xp=50)
        if battle <= 3:
            for unit in ("Spearmen", "Archers", "Knights"):
                t.do(Upgrade(warband="High", unit=unit))
        for band, hero in (("High", "Greta"), ("High", "Karl"), ("Low", "Hans")):
            if battle % 3 == 0 and (face := next(rolls[hero], None)) is not None:
                t.do(Advance(warband=band, character=hero), [face])
    low, high = status_of(t.state, "Low"), status_of(t.state, "High")
    assert (low["points"], low["wbr"], high["points"], high["wbr"]) == (500, 525, 500, 765)
    assert low["wbr_lines"] == [{"what": "points", "points": 500}, {"what": "Hans: 1 Archetype Ability", "points": 25}]
    assert high["wbr_lines"] == [
        {"what": "points", "points": 500},
        {"what": "Spearmen: Veteran +3", "points": 30}, {"what": "Archers: Veteran +3", "points": 30},
        {"what": "Knights: Veteran +3", "points": 30},
        {"what": "Greta: 5 Archetype Abilities", "points": 125}, {"what": "Karl: 2 Archetype Abilities", "points": 50}]


def test_U10_every_unit_may_become_veteran_and_no_character_may(table):
    table.quiet_battle()
    assert table.refusal(Upgrade(warband="Reiklanders", unit="Hans")) == "Hans is not a unit of Reiklanders"


def test_U11_the_scenario_is_recorded_by_name_only_and_U12_the_version_is_pinned(table):
    table.battle(scenario="Little War")
    state = table.state
    assert (state.latest_battles[-1].scenario, state.ruleset, state.ruleset_version) == ("Little War", "warbands", "6")


# --- an answer offered from outside the command (a cascade's --answer) ------------------------------

def test_the_xp_earned_offered_to_the_experience_step_is_recorded_with_it_and_decides_it_again(table):
    """Given a warband at its Experience step in a campaign with no XP award table, when the step is
    decided with `xp=3` offered from outside the command (as `campaign void --cascade --answer xp=3`
    decides a later transaction again), then the recorded command carries xp=3, and deciding that
    recorded command again gives the same events (replay --check, import)."""
    table.battle()
    table.do(Recovery(warband="Reiklanders"))
    table.do(Injuries(warband="Reiklanders"))
    table.do(Survival(warband="Reiklanders"))
    state, ruleset = table.state, rulesets.get("warbands")
    decided = decide(ruleset, state, Experience(warband="Reiklanders"), dice=TableDice(), shuffle_dice=None,
                     offered={"xp": "3"})
    assert decided[0].args["answers"] == {"xp": "3"}
    assert [(e.delta, e.reason) for e in decided if isinstance(e, ev.TreasuryChanged)] == [(3, "XP for battle 1")]
    recorded = ruleset.command_from(decided[0].command, decided[0].args)
    assert decide(ruleset, state, recorded, dice=TableDice(), shuffle_dice=None) == decided


# --- Veteran Status given by an arbiter's correction ---------------------------------------------------

def veteran_correction(keyword: str) -> Correct:
    return Correct(warband="Reiklanders", fighter="Swordsmen", add_keywords=[keyword], reason="arbiter")


@pytest.mark.parametrize("keyword", ["Veteran +4", "Veteran +one", "veteran +0", "Veteran -1", "veteran+5", "Veteran"])
def test_R8_a_correction_gives_only_a_level_of_veteran_status_up_to_3(table, keyword):
    # "+3 Veteran Status (the highest level of Veteran Status)"
    assert table.refusal(veteran_correction(keyword)) == (
        f"'{keyword}' is no Veteran Status: its levels are Veteran +1, Veteran +2, Veteran +3 (the highest)")


@pytest.mark.parametrize("keyword", ["veteran +2", "veteran  +2", "veteran+2", "Veteran 2", "VETERAN +2"])
def test_R8_a_corrected_level_is_recorded_as_the_rules_spell_it(table, keyword):
    events = table.do(veteran_correction(keyword))
    assert [(e.keyword, e.reason) for e in events] == [("Veteran +2", "correction: arbiter")]
    assert (table.unit("Swordsmen").veteran, table.rating()) == (2, 150 + 20)


def test_R8_a_corrected_level_replaces_the_one_the_unit_held(table):
    table.do(veteran_correction("Veteran +1"))
    table.do(veteran_correction("Veteran +3"))
    assert [k for k in table.state.fighter("Swordsmen").keywords if k.startswith("Veteran")] == ["Veteran +3"]


def test_a_character_holds_no_veteran_status(table):
    character = next(f.name for f in table.state.fighters.values() if f.role == "character")
    refused = table.refusal(Correct(warband="Reiklanders", fighter=character, add_keywords=["Veteran +1"], reason="arbiter"))
    assert refused == f"{character} is a character: only units hold Veteran Status"


def test_on_version_2_a_correction_above_3_was_recorded_and_the_rules_read_it_as_the_highest():
    table = Table(version="2")
    table.empire()
    table.do(veteran_correction("Veteran +4"))
    table.do(Correct(warband="Reiklanders", fighter="Handgunners", add_keywords=["Veteran +one"], reason="arbiter"))
    # R1: a +3 unit adds 30; "+4" adds what the highest does, "+one" is no level at all
    assert [(line["what"], line["points"]) for line in status_of(table.state, "Reiklanders")["wbr_lines"]] == [
        ("points", 150), ("Swordsmen: Veteran +4", 30)]
    assert (table.unit("Swordsmen").veteran, table.unit("Handgunners").veteran) == (4, 0)


# --- R14: an Archetype is no keyword ----------------------------------------------------------------------

def archetype_keyword(fighter: str, keyword: str) -> Correct:
    return Correct(warband="Reiklanders", fighter=fighter, add_keywords=[keyword], reason="arbiter")


@pytest.mark.parametrize(("fighter", "keyword", "refusal"), [
    # "A character's Archetype can never change over the course of the campaign"
    ("Hans", "Barbarian", "Hans is an Intellectual, and a character's Archetype can never change: not a Barbarian as well. "
                          "If he was recruited as the wrong Archetype, void his recruitment and recruit him again with "
                          "--archetype Barbarian"),
    ("Hans", " noble", "Hans is an Intellectual, and a character's Archetype can never change: not a Noble as well. "
                       "If he was recruited as the wrong Archetype, void his recruitment and recruit him again with "
                       "--archetype Noble"),
    ("Hans", "intellectual", "Hans is an Intellectual already: a character's Archetype is recorded when he is recruited, "
                             "not as a keyword"),
    # for a character "Veteran" is the Archetype: only units hold Veteran Status
    ("Hans", "Veteran", "Hans is an Intellectual, and a character's Archetype can never change: not a Veteran as well. "
                        "If he was recruited as the wrong Archetype, void his recruitment and recruit him again with "
                        "--archetype Veteran"),
    # "When a character model is added to a Warband … select an Archetype for that character"
    ("Swordsmen", "Trickster", "Swordsmen is a unit: only a character has an Archetype, chosen when he is recruited "
                               "(campaign warbands recruit Reiklanders NAME --points N --archetype Trickster)"),
])
def test_R14_a_correction_gives_no_archetype_as_a_keyword(table, fighter, keyword, refusal):
    assert table.refusal(archetype_keyword(fighter, keyword)) == refusal


def test_R14_a_keyword_that_names_no_archetype_is_still_given_and_one_given_before_is_taken_away():
    table = Table(version="5")
    table.empire()
    table.do(archetype_keyword("Hans", "Barbarian"))
    table.do(UpgradeRules(version="6"))
    events = table.do(Correct(warband="Reiklanders", fighter="Hans", add_keywords=["Fear"], remove_keywords=["Barbarian"],
                              reason="arbiter"))
    assert lines(table, events) == ["Hans gains Fear", "Hans loses Barbarian"]
    assert table.state.fighter("Hans").keywords == ["Fear"]


def test_on_version_5_an_archetype_was_recorded_as_a_plain_keyword():
    table = Table(version="5")
    table.empire()
    events = table.do(archetype_keyword("Hans", "Barbarian"))
    assert lines(table, events) == ["Hans gains Barbarian"]
    assert (table.character("Hans").archetype, table.state.fighter("Hans").keywords) == ("Intellectual", ["Barbarian"])


# --- a unit named twice -------------------------------------------------------------------------------

def test_a_unit_given_casualties_twice_in_another_case_is_refused_as_given_twice(table):
    # "the number of models with which it began the battle": one count per unit
    assert table.refusal(RecordWarbandsBattle(participants=["Reiklanders", "Da Boyz"],
                                              removed={"Swordsmen": 3, "swordsmen": 2})) == "--removed Swordsmen is given twice"


def test_on_version_2_the_last_of_two_counts_for_a_unit_was_kept():
    table = Table(version="2")
    table.empire()
    table.orcs()
    events = table.battle(removed={"Swordsmen": 3, "swordsmen": 2})
    assert lines(table, events)[-2] == "Reiklanders, battle 1 (win): casualties Swordsmen 2 of 10; characters down none"


# --- banked eligibility (U8) ----------------------------------------------------------------------------

def banked_then_half_lost(table: Table) -> list[str]:
    """Swordsmen survive battle 1 whole (eligible, not upgraded), then keep 5 of 10 in battle 2."""
    table.empire()
    table.orcs()
    table.quiet_battle()
    table.battle(removed={"Swordsmen": 5})
    table.do(Recovery(warband="Reiklanders", recovered={"Swordsmen": 0}))
    table.do(Injuries(warband="Reiklanders"))
    return lines(table, table.do(Survival(warband="Reiklanders")))


def test_U8_a_banked_eligibility_kept_through_a_battle_with_half_lost_says_it_is_kept(house_rules):
    assert banked_then_half_lost(house_rules({"veteran_eligibility": "banked"}))[0] == (
        "Swordsmen eligible for its next Veteran level (keeps its banked eligibility, 5 of 10 survived battle 2)")


def test_on_version_2_a_banked_eligibility_read_as_if_the_battle_earned_it():
    assert banked_then_half_lost(Table({"veteran_eligibility": "banked"}, version="2"))[0] == (
        "Swordsmen eligible for its next Veteran level (5 of 10 survived battle 2)")


# --- names as the tables spell them -------------------------------------------------------------------

def test_R19_a_useless_ability_is_named_in_any_case(table):
    advance_ready(table)
    events = table.do(Advance(warband="Reiklanders", character="Hans", useless=["intellectual advancement 3"]), [3, 6])
    assert "after rerolling Intellectual Advancement 3 (useless to him)" in lines(table, events)[-2]


# --- what an injury roll did, in words -------------------------------------------------------------------

INJURY_TABLE = {"tables": {"character-injury": {"die": "2D6", "rows": [
    {"id": "dead", "low": 2, "high": 3, "name": "Killed Outright", "effect": "dead"},
    {"id": "hurt", "low": 4, "high": 6, "name": "Hurt", "effect": "misses-game", "missed_games": 1},
    {"id": "fine", "low": 7, "high": 12, "name": "Fine", "effect": "recovered"}]}}}


def hans_and_grubnash_down(table: Table) -> None:
    table.empire()
    table.orcs()
    table.battle(down=["Hans", "Grubnash"])
    table.do(Recovery(warband="Reiklanders"))
    table.do(Recovery(warband="Da Boyz"))


def test_U4_an_injury_roll_says_the_rows_name_whatever_it_did():
    # Given Hans and Grubnash removed as casualties, when Hans rolls 7 ("Fine") and Grubnash 3 ("Killed Outright"),
    # then each line after the dice names the row
    table = Table(INJURY_TABLE)
    hans_and_grubnash_down(table)
    assert lines(table, table.do(Injuries(warband="Reiklanders"), [3, 4])) == [
        "R0 Character Injury of Hans: 2D6 rolled [3, 4] = 7 (table)", "Hans recovers: Fine",
        "Reiklanders: post-game step Injuries done for battle 1"]
    assert lines(table, table.do(Injuries(warband="Da Boyz"), [1, 2]))[1] == "Grubnash is dead (Character Injury: Killed Outright)"


def test_U4_an_injury_told_says_what_it_did_once():
    # Given no injury table, when the players say Hans misses a game and Grubnash recovered, then it is said once each
    table = Table()
    hans_and_grubnash_down(table)
    assert lines(table, table.do(Injuries(warband="Reiklanders", outcomes={"Hans": "misses-game"})))[0] == (
        "Hans suffers Injury, misses 1 game")
    assert table.state.fighter("Hans").injuries == ["Injury"]
    assert lines(table, table.do(Injuries(warband="Da Boyz", outcomes={"Grubnash": "recovered"})))[0] == (
        "Grubnash recovers: Full Recovery")


def test_on_version_3_a_recovery_and_a_deaths_row_went_unnamed_and_a_missed_game_was_said_twice():
    table = Table(INJURY_TABLE, version="3")
    hans_and_grubnash_down(table)
    assert lines(table, table.do(Injuries(warband="Reiklanders"), [3, 4])) == [
        "R0 Character Injury of Hans: 2D6 rolled [3, 4] = 7 (table)", "Reiklanders: post-game step Injuries done for battle 1"]
    assert lines(table, table.do(Injuries(warband="Da Boyz"), [1, 2]))[1] == "Grubnash is dead (Character Injury)"
    told = Table(version="3")
    hans_and_grubnash_down(told)
    assert lines(told, told.do(Injuries(warband="Reiklanders", outcomes={"Hans": "misses-game"})))[0] == (
        "Hans suffers Injured, misses a game, misses 1 game")


# --- version 5: one answer for one question --------------------------------------------------------------

def swordsmen_and_hans_down(table: Table) -> None:
    """Swordsmen lost 4 models and Hans went down; Da Boyz' recovery done."""
    table.empire()
    table.orcs()
    table.battle(removed={"Swordsmen": 4}, down=["Hans"])
    table.do(Recovery(warband="Da Boyz"))


def recovered(table: Table) -> None:
    """And then the Reiklanders' recovery: one of the Swordsmen's casualties recovered."""
    swordsmen_and_hans_down(table)
    table.do(Recovery(warband="Reiklanders", answers={"recovered:swordsmen": "1"}))


@pytest.mark.parametrize(("given", "command", "refusal"), [
    (swordsmen_and_hans_down, Recovery(warband="Reiklanders", answers={"recovered:swordsmen": "1", "recovered:Swordsmen": "2"}),
     "--answer recovered:swordsmen=1, recovered:Swordsmen=2: 2 answers for the recovered question of Swordsmen (Reiklanders): give one"),
    (recovered, Injuries(warband="Reiklanders", answers={"injury:hans": "dead", "injury:Hans": "amnesia"}),
     "--answer injury:hans=dead, injury:Hans=amnesia: 2 answers for the injury question of Hans (Reiklanders): give one"),
    (recovered, Injuries(warband="Reiklanders", answers={"injury:HANS": "dead", "injury:hans": "amnesia"}),
     "--answer injury:HANS=dead, injury:hans=amnesia: 2 answers for the injury question of Hans (Reiklanders): give one"),
])
def test_two_differing_answers_for_one_unit_or_character_are_refused(given, command, refusal):
    table = Table()
    given(table)
    # When the players answer one unit's or character's question twice, differently
    # Then it is refused, naming both, and nothing is written
    assert table.refusal(command) == refusal


def test_the_same_answer_written_twice_is_one_answer():
    table = Table()
    recovered(table)
    events = table.do(Injuries(warband="Reiklanders", answers={"injury:hans": "amnesia", "injury:Hans": "Amnesia"}))
    assert lines(table, events)[0] == "Hans suffers Amnesia"


def test_on_version_4_the_answer_under_the_asked_key_was_taken_and_the_other_dropped():
    table = Table(version="4")
    recovered(table)
    events = table.do(Injuries(warband="Reiklanders", answers={"injury:Hans": "amnesia", "injury:hans": "dead"}))
    assert lines(table, events)[0] == "Hans is dead (Character Injury: Dead)"


@pytest.mark.parametrize("key", ["injury:Hans", "injury:hans", "injury:HANS"])
def test_an_outcome_and_a_differing_answer_for_one_character_are_refused(key):
    """U4: one Character Injury roll for Hans, so one outcome: --outcome and --answer both telling it, differently,
    is refused (the outcome was taken and the answer dropped without a word)."""
    table = Table()
    recovered(table)
    refusal = table.refusal(Injuries(warband="Reiklanders", outcomes={"Hans": "dead"}, answers={key: "amnesia"}))
    assert refusal == f"--outcome Hans=dead and --answer {key}=amnesia: two outcomes of Hans' injury (Reiklanders): give one"


def test_an_outcome_and_the_same_answer_for_one_character_are_one_outcome():
    table = Table()
    recovered(table)
    events = table.do(Injuries(warband="Reiklanders", outcomes={"Hans": "amnesia"}, answers={"injury:Hans": "Amnesia"}))
    assert lines(table, events)[0] == "Hans suffers Amnesia"


def test_an_outcome_recorded_beside_a_differing_answer_is_decided_again_as_it_was():
    """Recorded before the refusal (replay, voids, import decide it again, not typed now): the outcome is taken."""
    table = Table()
    recovered(table)
    events = table.decided_again(Injuries(warband="Reiklanders", outcomes={"Hans": "dead"}, answers={"injury:Hans": "amnesia"}))
    assert lines(table, events)[0] == "Hans is dead (Character Injury: Dead)"


# --- version 6: one of a thing is counted in the singular in a stored reason ------------------------------

def swordsmen_at_veteran_1(table: Table) -> None:
    """Swordsmen +1 Veteran after a quiet battle with 10 XP earned (90 XP left)."""
    table.empire()
    table.orcs()
    table.quiet_battle(removed={"Swordsmen": 2}, xp=10)
    table.do(Upgrade(warband="Reiklanders", unit="Swordsmen"))


@pytest.mark.parametrize(("models", "reason", "joined"), [
    (1, "XP: 1 Veteran recruit for Swordsmen", "1 Veteran recruit joins Swordsmen"),
    (2, "XP: 2 Veteran recruits for Swordsmen", "2 Veteran recruits join Swordsmen"),
])
def test_veteran_recruits_are_counted_in_the_singular_for_one(models, reason, joined):
    table = Table()
    swordsmen_at_veteran_1(table)
    events = table.do(VeteranRecruits(warband="Reiklanders", unit="Swordsmen", models=models))
    assert (events[0].reason, lines(table, events)[1]) == (reason, joined)


def test_a_recruit_of_one_point_is_counted_in_the_singular():
    table = Table()
    table.do(Enlist(name="Reiklanders", player="Ann", type="Empire"))
    events = table.do(Recruit(warband="Reiklanders", name="Dog", points=1, models=1))
    assert events[-1].reason == "starting points: recruited Dog (1 point)"


def test_on_version_5_one_veteran_recruit_and_one_point_were_stored_in_the_plural():
    table = Table(version="5")
    swordsmen_at_veteran_1(table)
    events = table.do(VeteranRecruits(warband="Reiklanders", unit="Swordsmen", models=1))
    assert events[0].reason == "XP: 1 Veteran recruits for Swordsmen"
    events = table.do(Recruit(warband="Reiklanders", name="Dog", points=1, models=1))
    assert events[-1].reason == "XP: recruited Dog (1 points)"
