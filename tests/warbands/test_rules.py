"""Given/when/then tables for the pure Warbands rules, one test (or table) per rule of
shared/rules/warbands.md, quoting the seed (003, WD 298 pp. 16–17) where a reading is involved."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from commands.kit import MoreDice, Rolled
from commands.warbands import rules as r
from commands.warbands.tables import ARCHETYPES
from ledger.errors import BadInput


def unit(name="Swordsmen", models=10, ppm=5, veteran=0, eligible=False) -> r.Unit:
    return r.Unit(name=name, models=models, points_per_model=ppm, veteran=veteran, eligible=eligible)


def character(name="Hans", points=50, archetype="Intellectual", abilities=(), survived=0) -> r.Character:
    return r.Character(name=name, points=points, archetype=archetype, starting_ability="Advantage of Ground",
                       abilities=tuple(abilities), survived_since_ability=survived)


# --- R1, R2: the Warband Rating Modifier Table ----------------------------------------------

@pytest.mark.parametrize(("level", "modifier"), [(0, 0), (1, 10), (2, 20), (3, 30)])
def test_R1_veteran_modifier_is_the_levels_value_not_a_running_sum(level, modifier):
    # "Each unit with +1 Veteran Status … +2 … +3 Veteran Status … +10 +20 +30"
    assert r.veteran_modifier(level) == modifier


@pytest.mark.parametrize(("abilities", "modifier"), [(0, 0), (1, 25), (2, 50), (5, 125)])
def test_R2_each_archetype_ability_beyond_the_starting_ability_adds_25(abilities, modifier):
    # "Each Archetype Ability beyond the Starting Ability … +25"
    hero = character(abilities=[f"a{n}" for n in range(abilities)])
    assert r.archetype_modifier(hero) == modifier


# --- R3: the 500-point cap ---------------------------------------------------------------------

@pytest.mark.parametrize(("now", "adding", "refused"), [(495, 5, False), (495, 10, True), (500, 0, False), (480, 21, True)])
def test_R3_no_warband_may_ever_be_larger_than_500_points(now, adding, refused):
    # "no Warband may ever be larger than 500 points in size" — exactly 500 is legal.
    if refused:
        with pytest.raises(r.WarbandsRuleError, match=f"would make the warband {now + adding} points; no warband may be larger than 500"):
            r.check_points_cap(now, adding, 500, "recruiting")
    else:
        r.check_points_cap(now, adding, 500, "recruiting")


# --- R4, R4a, R5: WBR ------------------------------------------------------------------------------

def seed_example():
    """Two 500-point warbands: "One 500-point Warband could have a WBR as low as 525 or lower,
    whereas another 500-point Warband could have a WBR of 765 or higher."
    Low: 500 points, one character with one Archetype Ability (+25) = 525.
    High: 500 points, three +3 units (3 × 30 = 90), a character with five Archetype Abilities
    (125) and one with two (50): 500 + 90 + 175 = 765."""
    low = ([unit("Spearmen", 20, 6), unit("Archers", 10, 8), unit("Knights", 8, 25)],
           [character("Hans", 100, abilities=["Flank March"])])
    high = ([unit("Spearmen", 20, 6, veteran=3), unit("Archers", 10, 8, veteran=3), unit("Knights", 8, 25, veteran=3)],
            [character("Greta", 60, abilities=["a", "b", "c", "d", "e"]), character("Karl", 40, "Veteran", ["x", "y"])])
    return low, high


def test_R4_two_500_point_warbands_rated_525_and_765_with_each_point_explained():
    low, high = seed_example()
    assert r.warband_points(*low) == r.warband_points(*high) == 500
    assert [(line.what, line.points) for line in r.rating_lines(*low, "points")] == [
        ("points", 500), ("Hans: 1 Archetype Ability", 25)]
    assert [(line.what, line.points) for line in r.rating_lines(*high, "points")] == [
        ("points", 500), ("Spearmen: Veteran +3", 30), ("Archers: Veteran +3", 30), ("Knights: Veteran +3", 30),
        ("Greta: 5 Archetype Abilities", 125), ("Karl: 2 Archetype Abilities", 50)]
    assert (r.warband_rating(*low), r.warband_rating(*high)) == (525, 765)


def test_R4_wbr_has_no_maximum_while_points_stop_at_500():
    # "there is no maximum limit on a Warband's WBR"
    units = [unit(f"U{n}", 10, 5, veteran=3) for n in range(10)]
    assert r.warband_points(units, []) == 500
    assert r.warband_rating(units, []) == 800


def test_R4a_wbr_base_is_an_option_points_by_default_or_none():
    low, _high = seed_example()
    assert r.warband_rating(*low) == 525
    assert r.warband_rating(*low, base="none") == 25


def test_R5_modifiers_disappear_with_the_status_or_abilities_that_gave_them():
    # "The points the unit's Veteran Status added to the Warband's WBR are immediately deducted"
    veteran = unit(veteran=2)
    outcome = r.veteran_after_battle(veteran, starting=10, survivors=5)
    after = r.Unit(name=veteran.name, models=5, points_per_model=5, veteran=outcome.level)
    assert r.warband_rating([veteran], [], "none") - r.warband_rating([after], [], "none") == 20
    hero = character(abilities=["a", "b"])
    forgetful = r.Character(name="Hans", points=50, archetype="Intellectual", starting_ability="Advantage of Ground",
                            abilities=tuple(a for a in hero.abilities if a not in r.amnesia(hero)))
    assert r.warband_rating([], [hero], "none") - r.warband_rating([], [forgetful], "none") == 50


# --- R6, R7, R11, R12: survival and Veteran Status -------------------------------------------------

@pytest.mark.parametrize(("starting", "survivors", "eligible"), [
    (5, 3, True),    # "more than 50%": 3 of 5
    (5, 2, False),   # 2 of 5
    (10, 5, False),  # exactly half is not more than half
    (10, 6, True),
    (1, 1, True),
    (1, 0, False),
])
def test_R6_more_than_half_of_the_starting_numbers_in_integers(starting, survivors, eligible):
    # "Any unit that survives a battle with more than 50% of its starting numbers is eligible"
    assert r.survived(starting, survivors) is eligible
    outcome = r.veteran_after_battle(unit(models=starting), starting, survivors)
    assert (outcome.level, outcome.eligible, outcome.lost_status) == (0, eligible, False)


def test_R6_a_unit_cannot_end_with_more_models_than_it_began_with():
    with pytest.raises(r.WarbandsRuleError, match="a unit that began with 5 models cannot end with 6"):
        r.survived(5, 6)


def test_R7_survivors_are_counted_after_recovery_a_wiped_unit_can_qualify():
    # "a unit could be completely wiped out on the battlefield, but as long as more than 50% of
    # the models Recover, the unit is still eligible for Veteran Status."
    survivors = r.survivors_after_recovery(starting=10, casualties=10, recovered=6)
    assert survivors == 6
    outcome = r.veteran_after_battle(unit(veteran=1), 10, survivors)
    assert (outcome.level, outcome.eligible, outcome.lost_status) == (1, True, False)


def test_R7_no_more_models_recover_than_fell():
    with pytest.raises(r.WarbandsRuleError, match="4 models cannot recover out of 3 casualties"):
        r.survivors_after_recovery(starting=10, casualties=3, recovered=4)


@pytest.mark.parametrize(("refused", "message"), [
    (lambda: r.survived(1, 2), "a unit that began with 1 model cannot end with 2"),
    (lambda: r.survivors_after_recovery(starting=1, casualties=2, recovered=0), "a unit of 1 model cannot lose 2"),
    (lambda: r.survivors_after_recovery(starting=10, casualties=1, recovered=2), "2 models cannot recover out of 1 casualty"),
    (lambda: r.survivors_after_recovery(starting=10, casualties=0, recovered=1), "1 model cannot recover out of 0 casualties"),
])
def test_a_refusal_counts_one_model_or_casualty_in_the_singular(refused, message):
    with pytest.raises(r.WarbandsRuleError) as refusal:
        refused()
    assert str(refusal.value) == message


@pytest.mark.parametrize(("level", "starting", "survivors", "after"), [
    (1, 10, 5, (0, False, True)),   # exactly half: "50% or more" lost -> loses its status
    (3, 5, 2, (0, False, True)),
    (2, 5, 3, (2, True, False)),    # keeps +2 and may go for +3
    (3, 5, 3, (3, False, False)),   # +3 is the highest: nothing more to be eligible for
])
def test_R11_a_veteran_unit_losing_half_or_more_loses_all_its_status_at_once(level, starting, survivors, after):
    # "If, in any game, a unit with Veteran Status loses 50% or more of the number of models with
    # which it began the battle, the unit instantly loses its Veteran Status."
    outcome = r.veteran_after_battle(unit(models=starting, veteran=level), starting, survivors)
    assert (outcome.level, outcome.eligible, outcome.lost_status) == after


@pytest.mark.parametrize(("eligibility", "keeps"), [("latest-battle", False), ("banked", True)])
def test_R12_a_unit_without_status_failing_R6_loses_nothing_but_an_unused_eligibility_per_U8(eligibility, keeps):
    outcome = r.veteran_after_battle(unit(eligible=True), 10, 4, eligibility)
    assert (outcome.level, outcome.eligible, outcome.lost_status) == (0, keeps, False)


# --- R8, R9, R10: upgrades, rerolls, Veteran recruits ----------------------------------------------

def test_R8_upgrade_one_level_for_10_xp_when_eligible():
    assert r.veteran_upgrade(unit(eligible=True), xp=10) == 1
    assert r.veteran_upgrade(unit(veteran=2, eligible=True), xp=30) == 3


@pytest.mark.parametrize(("given", "xp", "message"), [
    (unit(), 50, "Swordsmen has not survived a battle with more than 50% of its starting numbers: not eligible for \\+1"),
    (unit(veteran=1), 50, "has not survived a battle since its last upgrade with more than 50% .*: not eligible for \\+2"),
    (unit(veteran=3, eligible=True), 50, "Swordsmen is already \\+3, the highest Veteran Status"),
    (unit(eligible=True), 9, "\\+1 Veteran Status for Swordsmen: 10 XP, and the warband has 9"),
])
def test_R8_refusals(given, xp, message):
    with pytest.raises(r.WarbandsRuleError, match=message):
        r.veteran_upgrade(given, xp)


def test_R8_no_two_steps_for_one_battle():
    """0 -> +2 after one battle is refused: the upgrade uses up the battle's eligibility (the
    ledger records eligible=False with the new level), so the second step finds none."""
    first = unit(eligible=True)
    level = r.veteran_upgrade(first, xp=20)
    with pytest.raises(r.WarbandsRuleError, match="not eligible for \\+2"):
        r.veteran_upgrade(r.Unit(name="Swordsmen", models=10, points_per_model=5, veteran=level), xp=10)


@pytest.mark.parametrize("level", [0, 1, 2, 3])
def test_R9_one_reroll_per_game_for_each_level(level):
    # "For each level of Veteran Status, the unit may, once per game, reroll a single die"
    assert r.veteran_rerolls(level) == level


def test_R10_veteran_recruits_cost_xp_equal_to_their_points_and_count_toward_the_cap():
    # "These new additions to Veteran units cost no extra points"
    assert r.veteran_recruits_cost(unit(veteran=1, ppm=6), models=3, xp=18, points_now=482, cap=500) == 18


@pytest.mark.parametrize(("given", "models", "xp", "points", "message"), [
    (unit(), 1, 50, 100, "Swordsmen has no Veteran Status"),
    (unit(veteran=1), 2, 9, 100, "2 recruits for Swordsmen at 5 points each: 10 XP, and the warband has 9"),
    (unit(veteran=1), 2, 50, 495, "would make the warband 505 points"),
])
def test_R10_refusals(given, models, xp, points, message):
    with pytest.raises(r.WarbandsRuleError, match=message):
        r.veteran_recruits_cost(given, models, xp, points, 500)


def test_R10_no_recruit_is_bad_input():
    with pytest.raises(BadInput, match="Veteran recruits are at least 1 model, not 0"):
        r.veteran_recruits_cost(unit(veteran=1), 0, 50, 100, 500)


# --- R13–R23: Archetypes -------------------------------------------------------------------------

def test_R13_the_archetype_must_be_allowed_for_the_warband_type():
    r.check_archetype("Empire", "Noble", ("Noble", "Veteran", "Intellectual", "Magician", "Trickster", "Barbarian"), ARCHETYPES)
    with pytest.raises(r.WarbandsRuleError, match="Bretonnia characters may not be Psychopaths"):
        r.check_archetype("Bretonnia", "Psychopath", ("Noble", "Veteran", "Magician", "Barbarian"), ARCHETYPES)
    with pytest.raises(BadInput, match="'Wizard' is not an Archetype"):  # a name unknown: bad input
        r.check_archetype("Empire", "Wizard", None, ARCHETYPES)
    r.check_archetype("Empire", "Psychopath", None, ARCHETYPES)  # row not supplied: any Archetype


def test_R15_the_starting_ability_is_free_and_is_not_an_archetype_ability():
    hero = character()
    assert hero.starting_ability == "Advantage of Ground"
    assert r.archetype_modifier(hero) == 0


def test_R16_three_survived_battles_then_25_xp_for_one_roll():
    hero = character()
    for alive in (True, False, True, True):  # killed-then-dead battles do not count; the 2nd is not survived
        hero = r.survived_battle(hero, alive)
    assert hero.survived_since_ability == 3
    r.check_advancement(hero, xp=25)
    with pytest.raises(r.WarbandsRuleError, match="has survived 2 of the 3 battles since joining"):
        r.check_advancement(character(survived=2), xp=100)
    with pytest.raises(r.WarbandsRuleError, match="a roll on the Intellectual Advancement Table: 25 XP, and the warband has 24"):
        r.check_advancement(hero, xp=24)


def test_R17_three_more_games_after_an_ability_and_never_a_sixth_ability():
    # "he must survive three or more games subsequently"; "never more than six Abilities"
    with pytest.raises(r.WarbandsRuleError, match="has survived 2 of the 3 battles since his last Archetype Ability"):
        r.check_advancement(character(abilities=["a"], survived=2), xp=100)
    with pytest.raises(r.WarbandsRuleError, match="Hans has six Abilities, the most a character may have"):
        r.check_advancement(character(abilities=["a", "b", "c", "d", "e"], survived=9), xp=100)


ROWS = {n: (f"intellectual-{n}", f"Ability {n}") for n in range(1, 7)}


def test_R17_and_U5_a_result_already_held_is_rolled_again():
    results = r.advancement_roll(character(abilities=["Ability 2"]), "D6", ROWS, Rolled.of([[2], [4]]))
    assert [(x.value, x.outcome) for x in results] == [(2, "already-held"), (4, "gained")]


def test_R18_amnesia_takes_every_archetype_ability_but_not_the_starting_ability():
    hero = character(abilities=["a", "b", "c"])
    assert r.amnesia(hero) == ("a", "b", "c")
    assert hero.starting_ability == "Advantage of Ground"


def test_R19_a_useless_result_may_be_rerolled():
    # "characters for whom such an Ability would be useless may reroll the skill in question"
    results = r.advancement_roll(character(), "D6", ROWS, Rolled.of([[3], [5]]), useless={"Ability 3"})
    assert [(x.value, x.outcome) for x in results] == [(3, "useless-rerolled"), (5, "gained")]
    with pytest.raises(MoreDice) as more:  # the reroll is asked for
        r.advancement_roll(character(), "D6", ROWS, Rolled.of([[3]]), useless={"Ability 3"})
    assert (more.value.key, more.value.expression, more.value.purpose) == ("1", "D6", "Intellectual Advancement Table for Hans")


def test_R19_U9_past_the_rerolls_the_warband_can_pay_a_useless_result_stands():
    # "may reroll": a reroll the warband cannot pay for (U9) is not made
    results = r.advancement_roll(character(), "D6", ROWS, Rolled.of([[3], [1]]), useless={"Ability 1", "Ability 3"},
                                 useless_rerolls=1)
    assert [(x.value, x.outcome) for x in results] == [(3, "useless-rerolled"), (1, "useless-stands")]
    results = r.advancement_roll(character(), "D6", ROWS, Rolled.of([[3]]), useless={"Ability 3"}, useless_rerolls=0)
    assert [(x.value, x.ability, x.outcome) for x in results] == [(3, "Ability 3", "useless-stands")]


def test_R19_with_every_result_held_or_useless_there_is_nothing_to_roll_for():
    held = character(abilities=[f"Ability {n}" for n in (1, 2, 3, 4)])
    with pytest.raises(r.WarbandsRuleError, match="every result on the Intellectual Advancement Table is held by Hans or useless to him"):
        r.advancement_roll(held, "D6", ROWS, Rolled.of([]), useless={"Ability 5", "Ability 6"})


def test_U5_the_advancement_die_is_data():
    rows = {value: (f"row-{value}", f"Ability {value}") for value in range(2, 13)}
    assert r.advancement_roll(character(), "2D6", rows, Rolled.of([[5, 6]]))[-1].ability == "Ability 11"


def test_R20_abilities_never_stack_pick_one():
    # "the controlling player could not add the charge bonus … would have to pick either"
    assert r.stacked([2, 3]) == 3
    assert r.stacked([1, 1]) == 1  # two rerolls for the same case give one
    assert r.stacked([]) == 0


def test_R21_scenario_setting_abilities_of_both_sides_cancel_out():
    # "If both players have characters with the same Ability (or two different Abilities with the
    # same effect), the Abilities cancel each other out."
    effects = {"Lay of the Land": "terrain", "Other Terrain Ability": "terrain", "Advantage of Ground": "roles"}
    assert r.scenario_terms({"Lay of the Land"}, {"Other Terrain Ability"}, effects) == (set(), set())
    assert r.scenario_terms({"Lay of the Land", "Advantage of Ground"}, set(), effects) == ({"terrain", "roles"}, set())


def test_R22_advantage_of_ground_picks_player_a_or_b_in_little_war():
    assert r.little_war_chooser({"Advantage of Ground"}, set()) == "a"
    assert r.little_war_chooser(set(), {"Advantage of Ground"}) == "b"
    assert r.little_war_chooser({"Advantage of Ground"}, {"Advantage of Ground"}) is None


def test_R23_abilities_work_only_on_the_tabletop():
    assert r.abilities_in_play(["Counter Magic", "Nullifier"], on_table=True) == ("Counter Magic", "Nullifier")
    assert r.abilities_in_play(["Counter Magic"], on_table=False) == ()


# --- R24, R25: the start ---------------------------------------------------------------------------

def test_R24_a_starting_warband_is_at_most_250_points():
    r.check_starting_size(200, 50, 250, "Knights")
    with pytest.raises(r.WarbandsRuleError, match="would make the starting warband 251 points; a warband starts with at most 250"):
        r.check_starting_size(200, 51, 250, "Knights")


def test_R25_unspent_starting_points_become_xp_one_for_one():
    # WD 298's example: a 243-point warband starts with 7 Experience Points.
    assert r.starting_xp(250, 243) == 7


# --- R6 and R11 are complements, for every unit size --------------------------------------------------

@given(st.integers(min_value=1, max_value=200).flatmap(
    lambda starting: st.tuples(st.just(starting), st.integers(min_value=0, max_value=starting), st.integers(0, 3))))
def test_R6_R11_more_than_half_is_eligible_half_or_fewer_loses_any_status(case):
    starting, survivors, level = case
    outcome = r.veteran_after_battle(unit(models=starting, veteran=level), starting, survivors)
    if 2 * survivors > starting:
        assert (outcome.level, outcome.eligible, outcome.lost_status) == (level, level < 3, False)
    else:
        assert (outcome.level, outcome.eligible, outcome.lost_status) == (0, False, level > 0)
