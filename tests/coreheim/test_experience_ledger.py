"""Experience and advances through the ledger (seed 002, 2.1 Experience 1-6; 2.2): awards for the
battle, one D12 advance per threshold crossed (re-rolled past the race's maximum), the henchman
table with the group re-roll, one advance per characteristic, Talent!; and the underdog bonus.

Setup: the Rats win battle 1 with nobody out of action, so exploring rolls R0 (3 dice) and
the injuries step rolls nothing: the first advance die is R1. An arbiter's correction gives
XP before the battle where a test needs more than one battle's worth (XP given by hand counts
toward thresholds; only XP a warrior is hired with does not).
"""

from __future__ import annotations

import re

import msgspec
import pytest

from commands.coreheim import events as ce
from commands.coreheim.commands import Advance, Experience, Injuries, RareSearch, Search, SellShards, SpendUnderdog
from commands.coreheim import model
from commands.coreheim.phase import PHASE, advances_owed, talent_advance_asked_as
from commands.shared import AwardXP, Correct
from ledger import events as ev
from ledger.campaigns import PendingDecision
from ledger.errors import BadInput, LedgerError, NeedsAnswer, NeedsDice

from .conftest import Table, rats_and_skaven_on

RATS = "reikland-rats"


def d12(roll: int, purpose: str, face: int) -> ev.DiceRolled:
    return ev.DiceRolled(roll=roll, expression="D12", purpose=purpose, faces=[face], value=face, source="table")


def xp(fighter: str, amount: int, reason: str, battle: int = 1) -> ev.XPAwarded:
    return ev.XPAwarded(warband=RATS, fighter=fighter, amount=amount, reason=f"{reason} (battle {battle})")


def stat(fighter: str, name: str, delta: int, threshold: int, row: str) -> ev.StatChanged:
    return ev.StatChanged(warband=RATS, fighter=fighter, stat=name, delta=delta, reason=f"advance at {threshold} XP", row=row)


def advanced(fighter: str, threshold: int, rows: list[str], result: str, name: str = "") -> ce.AdvanceRolled:
    return ce.AdvanceRolled(warband=RATS, fighter=fighter, threshold=threshold, rows=rows, result=result, stat=name)


def given_xp(table, **amounts: int) -> None:
    for fighter, amount in amounts.items():
        table.do(Correct(warband="Reikland Rats", fighter=fighter, reason="test setup", xp=amount))


def advance(table, dice: list[int], *, answers: dict[str, str] | None = None, **battle) -> list[ev.Event]:
    table.battle(**battle)
    table.through("advances")
    return table.do(Advance(warband="Reikland Rats", answers=answers or {}), dice)


# --- 1-4. the battle's experience ----------------------------------------------------------------------


def test_survivors_heroes_taking_enemies_out_and_the_winning_leader_gain_experience(rats_and_skaven):
    rats_and_skaven.battle(took_out={"Gunnar": ["Snikch", "Skink"], "Marksmen": ["Skrat"]})
    rats_and_skaven.through("experience")
    events = rats_and_skaven.do(Experience(warband="Reikland Rats"))
    assert events == [
        xp("gunnar", 1, "survived the battle"),
        xp("gunnar", 2, "took enemies out of action"),
        xp("gunnar", 1, "led the winning warband"),
        xp("hans", 1, "survived the battle"),
        xp("marksmen", 1, "survived the battle"),  # henchmen earn nothing for their kills (D3)
        ev.PostGameStepDone(warband=RATS, battle=1, step="experience"),
    ]



@pytest.mark.parametrize(("version", "said"), [("9", "took an enemy out of action"), ("8", "took enemies out of action")])
def test_one_enemy_taken_out_of_action_is_said_as_one(version, said):
    """Seed 2.1, Experience 3: "A hero gains +1 experience for each time they took an enemy out of action". From
    version 9 the award for one says so; version 8 said "took enemies out of action" of one too."""
    table = rats_and_skaven_on(version)
    table.battle(took_out={"Gunnar": ["Snikch"]})
    table.through("experience")
    assert xp("gunnar", 1, said) in table.do(Experience(warband="Reikland Rats"))

def test_the_dead_and_the_absent_gain_nothing_and_the_loser_only_survives(rats_and_skaven):
    rats_and_skaven.battle(winner="Clan Skrit", ooa=["Marksmen"], absent=["Hans"])
    rats_and_skaven.explore_quietly()
    rats_and_skaven.do(Injuries(warband="Reikland Rats", answers={"marksmen:out": "3"}), [1, 1, 1])
    assert rats_and_skaven.do(Experience(warband="Reikland Rats")) == [
        xp("gunnar", 1, "survived the battle"),
        ev.PostGameStepDone(warband=RATS, battle=1, step="experience"),
    ]


def test_scenario_experience_goes_to_the_warrior_named(rats_and_skaven):
    rats_and_skaven.battle()
    rats_and_skaven.through("experience")
    events = rats_and_skaven.do(Experience(warband="Reikland Rats", scenario_xp={"Hans": 2}))
    assert events[-2] == xp("hans", 2, "scenario")


def test_scenario_experience_for_another_warbands_warrior_is_refused(rats_and_skaven):
    rats_and_skaven.battle()
    rats_and_skaven.through("experience")
    assert rats_and_skaven.refusal(Experience(warband="Reikland Rats", scenario_xp={"Snikch": 1})) == (
        "no fighter 'Snikch' in Reikland Rats: Snikch is in Clan Skrit"
    )


# --- 5-6. advances: one roll per threshold crossed ---------------------------------------------------------


def test_crossing_two_thresholds_in_one_battle_rolls_two_advances(rats_and_skaven):
    given_xp(rats_and_skaven, Hans=1)
    # Hans: 1 + 1 (survived) + 2 (took two out) = 4: thresholds 2 and 4 crossed. A D12 of 7 is A +1, 6 is W +1.
    events = advance(rats_and_skaven, [7, 6], took_out={"Hans": ["Snikch", "Skink"]})
    assert events == [
        d12(1, "advance of Hans at 2 XP", 7),
        advanced("hans", 2, ["hero-advance:7"], "A 1 -> 2", "A"),
        stat("hans", "A", 1, 2, "hero-advance:7"),
        d12(2, "advance of Hans at 4 XP", 6),
        advanced("hans", 4, ["hero-advance:6"], "W 1 -> 2", "W"),
        stat("hans", "W", 1, 4, "hero-advance:6"),
    ]
    assert rats_and_skaven.do(SellShards(warband="Reikland Rats", shards=0))  # the step is done


def test_an_advance_past_the_races_maximum_is_rolled_again(table):
    table.rats()
    table.skaven()
    table.hire("Reikland Rats", "Karl", "youngblood", {"A": 3})  # a Human has at most 3 Attacks
    given_xp(table, Karl=1)
    events = advance(table, [7, 6])
    assert events == [
        d12(1, "advance of Karl at 2 XP", 7),
        d12(2, "re-roll of the advance of Karl at 2 XP", 6),
        advanced("karl", 2, ["hero-advance:7", "hero-advance:6"], "W 1 -> 2", "W"),
        stat("karl", "W", 1, 2, "hero-advance:6"),
    ]


def test_weapon_or_ballistic_skill_is_the_players_choice(rats_and_skaven):
    given_xp(rats_and_skaven, Hans=1)
    events = advance(rats_and_skaven, [9], answers={"hans:2:stat": "BS"})
    assert events[1:] == [advanced("hans", 2, ["hero-advance:8-10"], "BS 8 -> 7", "BS"), stat("hans", "BS", -1, 2, "hero-advance:8-10")]


def test_weapon_or_ballistic_skill_without_a_choice_asks(rats_and_skaven):
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats"), [9]) == (
        "Which does Hans improve: WS or BS?: answer with --answer hans:2:stat=CHOICE (one of: WS, BS)"
    )


def test_with_ballistic_skill_at_its_maximum_weapon_skill_is_taken(table):
    table.rats()
    table.skaven()
    table.hire("Reikland Rats", "Karl", "youngblood", {"BS": 7})  # a Human's best BS is 7+
    given_xp(table, Karl=1)
    events = advance(table, [9])
    assert events[1] == advanced("karl", 2, ["hero-advance:8-10"], "WS 8 -> 7", "WS")


def test_a_new_skill_comes_from_the_heros_own_lists(rats_and_skaven):
    given_xp(rats_and_skaven, Hans=1)
    events = advance(rats_and_skaven, [11], answers={"hans:2:skill": "Dodge"})
    assert events[1:] == [
        advanced("hans", 2, ["hero-advance:11-12"], "new skill: Dodge"),
        ev.SkillLearned(warband=RATS, fighter="hans", skill="Dodge", reason="advance at 2 XP (speed list)", row="hero-advance:11-12"),
    ]


def test_a_skill_from_a_list_the_hero_cannot_use_is_refused(rats_and_skaven):
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    # A Youngblood takes Combat, Shooting and Speed skills; Decapitate is a Strength skill.
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats", answers={"hans:2:skill": "Decapitate"}), [11]) == (
        "Decapitate is not on Hans' skill lists (combat, shooting, speed)"
    )


def test_a_skill_named_in_another_case_is_that_skill(rats_and_skaven):
    """Given Hans reaching 2 XP, when his 11 (a new skill) comes with "dodge" typed, then he learns Dodge, as the
    rules spell it (it was refused: "dodge is not on Hans's skill lists", Dodge being on his Speed list)."""
    given_xp(rats_and_skaven, Hans=1)
    events = advance(rats_and_skaven, [11], answers={"hans:2:skill": "dodge"})
    assert events[2] == ev.SkillLearned(warband=RATS, fighter="hans", skill="Dodge", reason="advance at 2 XP (speed list)",
                                        row="hero-advance:11-12")


def test_a_recorded_skill_in_another_case_decides_again_as_it_was_refused(rats_and_skaven):
    """Only an answer given now is spelled: a pending decision recorded with "dodge" (refused then) decides as recorded."""
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    with pytest.raises(LedgerError, match="^dodge is not on Hans' skill lists"):
        rats_and_skaven.decided_again(Advance(warband="Reikland Rats", answers={"hans:2:skill": "dodge"}), [11])


def test_with_ledger_dice_a_skill_given_ahead_that_he_cannot_learn_is_asked_once_the_dice_are_stored():
    """Given Hans reaching 2 XP, when his advance is typed with Decapitate (a Strength skill) ahead of ledger dice that
    give a new skill, then the answer is dropped and the question asked once the die is stored: refused, it stayed
    with the pending decision ("an answer stands once given"), so only a void ended it, and new dice were rolled."""
    table = Table.dealt_alike()
    table.rats()
    table.skaven()
    given_xp(table, Hans=1)
    table.battle()
    table.through("advances")
    with pytest.raises(PendingDecision):
        table.by_the_ledger(Advance(warband="Reikland Rats", answers={"hans:2:skill": "Decapitate"}))
    (tx, pending), = table.state.pending.items()
    assert (pending.question, pending.prompt) == (
        "hans:2:skill", "Hans learns a skill (combat, shooting, speed) ('Decapitate', given ahead, is not one of them)")
    # and answered now, in any case, he learns the skill named
    table.ledger.answer(table.cid, {"hans:2:skill": "dodge"}, actor=table.actor, target=int(tx))
    assert (table.state.pending, table.fighter("Hans").skills) == ({}, ["Dodge"])


def test_a_skill_left_out_is_asked_for_in_one_sentence(rats_and_skaven):
    # Given Hans about to reach 2 XP, when his 11 (a new skill) comes with no skill named
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    # Then the question reads like the others: no stray colon before "answer with"
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats"), [11]) == (
        "Hans learns a skill (combat, shooting, speed): answer with --answer hans:2:skill=CHOICE (one of: Blaze, "
        "Militiaman, Sidestep, Swashbuckler, Swordsman, Veteran, Weapons Training, Arms Expert, Crack Shot, "
        "Gunslinger, Gunnery Drill, Quick Shot, Tilean Marksman, Yeoman, Alley Cat, Dodge, Leap, Whirlwind, "
        "Sprint, Wall Runner)"
    )


def only_blaze_to_learn(version: str | None = None):
    """The Rats and the Skaven under a house rule whose Combat, Shooting and Speed lists (a Youngblood's)
    hold Blaze alone, Hans having learned it at his 2 XP advance and now 1 XP short of 4 (Gunnar, on 22,
    and the Marksmen miss the next battle)."""
    lists = [{"id": sl.id, "name": sl.name, "skills": ["Blaze"] if sl.id in ("combat", "shooting", "speed") else list(sl.skills)}
             for sl in model.tables_for({}).skills.lists]
    skills = {**msgspec.to_builtins(model.tables_for({}).skills), "lists": lists}
    table = Table({"tables": {"skills": skills}}, version=version)
    table.rats()
    table.skaven()
    given_xp(table, Hans=1)
    advance(table, [11])  # Hans: 1 + 1 = 2 XP, a new skill: Blaze, the only one he may learn
    table.finish()
    given_xp(table, Hans=1)
    return table


def test_a_new_skill_the_hero_cannot_learn_is_rolled_again():
    """Rules §3.3 "11–12 New skill from one of the hero's skill lists", and "If an advance would pass the
    racial maximum, re-roll it"; the rules' docstring: "When no row of the table could ever apply, the
    advance is lost instead of re-rolling forever". Version 6 asked which skill among none: a refusal
    no answer could lift, and with ledger dice a pending decision nobody could answer."""
    table = only_blaze_to_learn()
    events = advance(table, [11, 7], absent=["Gunnar", "Marksmen"])
    assert events == [
        d12(4, "advance of Hans at 4 XP", 11),
        d12(5, "re-roll of the advance of Hans at 4 XP", 7),
        advanced("hans", 4, ["hero-advance:11-12", "hero-advance:7"], "A 1 -> 2", "A"),
        stat("hans", "A", 1, 4, "hero-advance:7"),
    ]


def test_on_version_6_a_new_skill_with_none_left_to_learn_was_refused():
    table = only_blaze_to_learn("6")
    table.battle(absent=["Gunnar", "Marksmen"])
    table.through("advances")
    assert table.refusal(Advance(warband="Reikland Rats"), [11]) == (
        "Hans learns a skill (combat, shooting, speed): there is nothing to choose from")


# --- refusals: thresholds not reached, out of order, done twice --------------------------------------------


@pytest.mark.parametrize(
    "fighter, threshold, message",
    [
        ("Hans", 4, "Hans has 2 XP: the advance at 4 XP is not reached"),
        ("Hans", 3, "3 XP is not an advance threshold of a hero (2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36, 41, 46, "
                    "51, 57, 63, 69, 76, 83, 90)"),
        ("Gunnar", 20, "Gunnar has no advance to roll at 20 XP: it was rolled or came with his starting XP"),
        ("Gunnar", None, "Gunnar has no advance to roll (22 XP)"),
        ("Snikch", None, "no fighter 'Snikch' in Reikland Rats: Snikch is in Clan Skrit"),
    ],
)
def test_an_advance_for_a_threshold_not_reached_is_refused(rats_and_skaven, fighter, threshold, message):
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats", fighter=fighter, threshold=threshold), [6]) == message


def test_one_threshold_can_be_rolled_on_its_own(rats_and_skaven):
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle(took_out={"Hans": ["Snikch", "Skink"]})
    rats_and_skaven.through("advances")
    events = rats_and_skaven.do(Advance(warband="Reikland Rats", fighter="Hans", threshold=2), [6])
    assert events[1] == advanced("hans", 2, ["hero-advance:6"], "W 1 -> 2", "W")
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats", fighter="Hans", threshold=2), [6]) == (
        "Hans has no advance to roll at 2 XP: it was rolled or came with his starting XP"
    )
    assert rats_and_skaven.refusal(SellShards(warband="Reikland Rats", shards=0)) == (  # and says who owes which
        "Reikland Rats cannot sell wyrdstone yet: roll advances first (post-game of battle 1): owed: Hans at 4 XP — "
        "`campaign coreheim advance 'Reikland Rats'` rolls them"
    )


def test_an_answer_for_an_advance_not_owed_is_refused_typed_now_and_left_unused_as_recorded(rats_and_skaven):
    """Hans owes his advance at 2 XP: an answer for one at 4 XP, which he does not owe, is refused typed now (it was
    accepted and left unused); a command recorded with one decides again as it was recorded."""
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    advance = Advance(warband="Reikland Rats", answers={"hans:4:stat": "WS"})
    assert rats_and_skaven.refusal(advance, [6]) == "--answer hans:4:stat: not asked: Hans owes no advance at 4 XP (owed: 2 XP)"
    assert rats_and_skaven.decided_again(advance, [6])[1] == advanced("hans", 2, ["hero-advance:6"], "W 1 -> 2", "W")


def test_advances_come_after_experience_and_only_once(rats_and_skaven):
    given_xp(rats_and_skaven, Hans=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("experience")
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats"), [6]) == (
        "Reikland Rats cannot roll advances yet: award experience first (post-game of battle 1)"
    )
    rats_and_skaven.do(Experience(warband="Reikland Rats"))
    rats_and_skaven.do(Advance(warband="Reikland Rats"), [6])
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats"), [6]) == "Reikland Rats has no advances to roll"


# --- henchmen: the whole group advances; a group of 2+ may re-roll once; one advance per characteristic --------


def test_a_henchman_group_advances_together(rats_and_skaven):
    given_xp(rats_and_skaven, Marksmen=1)
    answers = {"marksmen:2:group-reroll": "keep", "marksmen:2:stat": "BS"}
    events = advance(rats_and_skaven, [5], answers=answers)
    assert events == [
        d12(1, "advance of Marksmen at 2 XP", 5),
        advanced("marksmen", 2, ["henchman-advance:4-7"], "BS 8 -> 7", "BS"),
        stat("marksmen", "BS", -1, 2, "henchman-advance:4-7"),
    ]


def test_a_group_may_reroll_an_advance_once_and_the_second_result_stands(rats_and_skaven):
    given_xp(rats_and_skaven, Marksmen=1)
    events = advance(rats_and_skaven, [1, 8], answers={"marksmen:2:group-reroll": "re-roll"})
    assert events == [
        d12(1, "advance of Marksmen at 2 XP", 1),
        d12(2, "re-roll of the advance of Marksmen at 2 XP", 8),
        advanced("marksmen", 2, ["henchman-advance:1-3", "henchman-advance:8-9"], "Ld 7 -> 6", "Ld"),
        stat("marksmen", "Ld", -1, 2, "henchman-advance:8-9"),
    ]


def test_the_group_reroll_is_asked_for(rats_and_skaven):
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats"), [5]) == (
        "Marksmen rolled 5 (Weapon Skill or Ballistic Skill one step): keep it or re-roll once?: "
        "answer with --answer marksmen:2:group-reroll=CHOICE (one of: keep, re-roll)"
    )


def test_henchmen_improve_each_characteristic_once(rats_and_skaven):
    given_xp(rats_and_skaven, Marksmen=3)
    # 3 + 1 = 4: thresholds 2 and 4. At 2 a 8 is Ld; at 4 a 9 is Ld again, so it is re-rolled: 2 is I two steps.
    events = advance(rats_and_skaven, [8, 9, 2], answers={"marksmen:2:group-reroll": "keep", "marksmen:4:group-reroll": "keep"})
    assert [e for e in events if not isinstance(e, ev.DiceRolled)] == [
        advanced("marksmen", 2, ["henchman-advance:8-9"], "Ld 7 -> 6", "Ld"),
        stat("marksmen", "Ld", -1, 2, "henchman-advance:8-9"),
        advanced("marksmen", 4, ["henchman-advance:8-9", "henchman-advance:1-3"], "I 8 -> 6", "I"),
        stat("marksmen", "I", -2, 4, "henchman-advance:1-3"),
    ]


@pytest.mark.parametrize(("version", "offered"), [("9", True), ("8", False)])
def test_the_group_may_re_roll_the_result_that_stands_after_a_repeat_was_re_rolled(version, offered):
    """Rules 2.4: "A group of 2+ may re-roll each advance once; the second result stands", and a henchman's repeat
    of a characteristic is re-rolled. The Marksmen (3 XP, 4 after the battle) took Ld at 2 XP; at 4 XP a 9 is Ld
    again, re-rolled by the rules into 2 (I two steps): that is the result that stands, and from version 9 the
    group may re-roll it once, here into 5 (WS or BS). Version 8 offered the re-roll only of a first roll that
    stood, and keeps the 2."""
    table = rats_and_skaven_on(version)
    given_xp(table, Marksmen=3)
    table.battle()
    table.through("advances")
    at_2 = {"marksmen:2:group-reroll": "keep"}
    if offered:
        assert table.refusal(Advance(warband="Reikland Rats", answers=at_2), [8, 9, 2]) == (
            "Marksmen rolled 2 (Initiative two steps): keep it or re-roll once?: "
            "answer with --answer marksmen:4:group-reroll=CHOICE (one of: keep, re-roll)")
    answers = {**at_2, "marksmen:4:group-reroll": "re-roll", "marksmen:4:stat": "BS"} if offered else at_2
    events = table.do(Advance(warband="Reikland Rats", answers=answers), [8, 9, 2, 5] if offered else [8, 9, 2])
    rows = ["henchman-advance:8-9", "henchman-advance:1-3"]
    assert [e for e in events if isinstance(e, ce.AdvanceRolled) and e.threshold == 4] == [
        advanced("marksmen", 4, [*rows, "henchman-advance:4-7"], "BS 8 -> 7", "BS") if offered
        else advanced("marksmen", 4, rows, "I 8 -> 6", "I")]
    assert [e.purpose for e in events if isinstance(e, ev.DiceRolled)][-1] == "re-roll of the advance of Marksmen at 4 XP"


def test_talent_makes_a_member_a_hero_who_advances_and_the_group_rolls_again(rats_and_skaven):
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    answers = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "combat+speed",
               "marksmen:2:again:group-reroll": "keep"}
    profile = dict(rats_and_skaven.fighter("Marksmen").stats)  # the new hero keeps it
    # 10 is Talent!; Ulli's hero advance is a 6 (W +1); the group's second roll is 10 again (ignored, re-rolled), then 8 (Ld).
    events = rats_and_skaven.do(Advance(warband="Reikland Rats", names={"marksmen": "Ulli"}, answers=answers), [10, 6, 10, 8])
    talent = "henchman-advance:10-12"
    assert events == [
        d12(1, "advance of Marksmen at 2 XP", 10),
        advanced("marksmen", 2, [talent], "Talent! Ulli becomes a hero"),
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=-1, reason="Ulli leaves the group: Talent!", row=talent),
        ev.FighterRecruited(warband=RATS, fighter="ulli", name="Ulli", role="henchman", stats=profile, cost=25, xp=2),
        ev.FighterPromoted(warband=RATS, fighter="ulli", role="hero", reason=f"Talent! ({talent})"),
        ce.WarriorProfile(warband=RATS, fighter="ulli", warrior_type="henchman", race="human",
                          skill_lists=["combat", "speed"], advanced_to=2),
        d12(2, "advance of Ulli at 2 XP", 6),
        advanced("ulli", 2, ["hero-advance:6"], "W 1 -> 2", "W"),
        stat("ulli", "W", 1, 2, "hero-advance:6"),
        d12(3, "advance of Marksmen at 2 XP", 10),
        d12(4, "re-roll of the advance of Marksmen at 2 XP", 8),
        advanced("marksmen", 2, [talent, "henchman-advance:8-9"], "Ld 7 -> 6", "Ld"),
        stat("marksmen", "Ld", -1, 2, "henchman-advance:8-9"),
    ]
    state = rats_and_skaven.state
    assert [(f.name, f.role, f.group_size, f.xp) for f in state.fighters_of(RATS)] == [
        ("Gunnar", "leader", 1, 22), ("Hans", "hero", 1, 1), ("Marksmen", "henchman", 2, 2), ("Ulli", "hero", 1, 2)
    ]
    assert model.rating(state, RATS) == 5 * 5 + 22 + 1 + 2 * 2 + 2  # 5 members, then each member's XP


TALENT_AT_2 = [10, 6, 10, 8]  # Talent!, the new hero's W +1, the group's 10 re-rolled into 8 (Ld)
TWO_TALENTS = [*TALENT_AT_2,
               10, 6, 10, 2]  # at 4 XP: Talent! again, W +1, the group's 10 re-rolled into 2 (I)
TALENT_AT_2_ANSWERS = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "combat+speed",
               "marksmen:2:again:group-reroll": "keep"}
TWO_TALENTS_ANSWERS = {**TALENT_AT_2_ANSWERS, "marksmen:4:group-reroll": "keep", "marksmen:4:skill-lists": "combat+speed",
                       "marksmen:4:again:group-reroll": "keep"}


def promoted(table) -> list[str]:
    return [f.name for f in table.state.fighters_of(RATS) if f.name.startswith("Marksmen (")]


def test_two_talents_of_one_group_make_two_heroes_with_names_of_their_own(rats_and_skaven):
    """Issue 9, item 8: both promotions were called "Marksmen (promoted)" and `xp award` then picked one."""
    # Given a Talent! for the Marksmen after battle 1, and a battle 2 that takes them to 4 XP
    given_xp(rats_and_skaven, Marksmen=1)
    advance(rats_and_skaven, TALENT_AT_2, answers=TALENT_AT_2_ANSWERS)
    rats_and_skaven.finish()
    given_xp(rats_and_skaven, Marksmen=1)
    # When the threshold of 4 XP rolls Talent! in that post-game, and no name is given for the new heroes
    advance(rats_and_skaven, [10, 6, 10, 2], answers={"marksmen:4:group-reroll": "keep", "marksmen:4:skill-lists": "combat+speed",
                     "marksmen:4:again:group-reroll": "keep"},
            winner=None, absent=["Hans"])  # a draw, Hans absent: nobody else comes to a threshold
    # Then the second is numbered, and each is named on his own
    assert promoted(rats_and_skaven) == ["Marksmen (promoted)", "Marksmen (promoted 2)"]
    assert rats_and_skaven.do(AwardXP(warband="Reikland Rats", fighter="Marksmen (promoted 2)", amount=1, reason="x")) == [
        ev.XPAwarded(warband=RATS, fighter="marksmen-promoted-2", amount=1, reason="x")]


@pytest.mark.parametrize("together", [True, False], ids=["in-one-command", "threshold-by-threshold"])
def test_a_further_talent_of_the_group_in_the_same_post_game_is_ignored_and_rolled_again(rats_and_skaven, together):
    """Rules 2.2: the rest of the group rolls again, "ignoring any further Talent! results in this
    post-game sequence" — at its later thresholds too: the Talent! is re-rolled (as a result past a
    maximum is), so the group still gains an advance."""
    # Given the Marksmen at 3 XP and a battle: 4 XP, thresholds 2 and 4; Talent! at 2 XP
    given_xp(rats_and_skaven, Marksmen=3)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    at_4 = {"marksmen:4:group-reroll": "keep"}  # the 2 that stands after the Talent! is re-rolled, kept (version 9)
    marksmen = Advance(warband="Reikland Rats", fighter="Marksmen", answers={**TALENT_AT_2_ANSWERS, **at_4})
    # When the threshold of 4 XP rolls a 10 (Talent!), in the same command or in one of its own
    if together:  # the last die is the new hero's own advance at 4 XP (version 8), a 6: W +1
        events = rats_and_skaven.do(msgspec.structs.replace(marksmen, fighter=None), [*TALENT_AT_2, 10, 2, 6])
    else:
        rats_and_skaven.do(msgspec.structs.replace(marksmen, threshold=2, answers=TALENT_AT_2_ANSWERS), TALENT_AT_2)
        events = rats_and_skaven.do(msgspec.structs.replace(marksmen, threshold=4, answers=at_4), [10, 2])
    # Then it promotes nobody: it is re-rolled into 2 (I two steps)
    assert promoted(rats_and_skaven) == ["Marksmen (promoted)"]
    assert [e for e in events if isinstance(e, ce.AdvanceRolled) and e.threshold == 4 and e.fighter == "marksmen"] == [
        advanced("marksmen", 4, ["henchman-advance:10-12", "henchman-advance:1-3"], "I 8 -> 6", "I")]
    assert rats_and_skaven.fighter("Marksmen").group_size == 2


# The Marksmen at 3 XP and a battle: 4 XP, thresholds 2 and 4. At 2 a Talent! makes Ulli a hero (2 XP rolled, 4 XP
# had); the group's 4 is a 2 (I two steps).
TALENT_AT_2_OF_4 = [*TALENT_AT_2, 2]
LATER_THRESHOLD = {**TALENT_AT_2_ANSWERS, "marksmen:4:group-reroll": "keep"}


def test_the_hero_a_talent_makes_rolls_a_later_threshold_his_xp_passes_in_the_same_advances(rats_and_skaven):
    """Seed 2.1: "Heroes that reach the following experience thresholds roll for advances: 2, 4, …". Ulli, made
    a hero at 2 XP with the group's 4 XP, has reached 4 as the group he came from has: after his one roll of the
    Talent! at 2 XP (rules 2.2), he rolls at 4 XP in the same advances, so the step is done (version 8)."""
    given_xp(rats_and_skaven, Marksmen=3)
    events = advance(rats_and_skaven, [*TALENT_AT_2_OF_4, 6], answers=LATER_THRESHOLD)
    assert events[-6:] == [
        d12(5, "advance of Marksmen at 4 XP", 2),
        advanced("marksmen", 4, ["henchman-advance:1-3"], "I 8 -> 6", "I"),
        stat("marksmen", "I", -2, 4, "henchman-advance:1-3"),
        d12(6, "advance of Marksmen (promoted) at 4 XP", 6),
        advanced("marksmen-promoted", 4, ["hero-advance:6"], "W 2 -> 3", "W"),
        stat("marksmen-promoted", "W", 1, 4, "hero-advance:6"),
    ]
    assert PHASE.is_done(rats_and_skaven.state, rats_and_skaven.state.warband("Reikland Rats"), "advances")


def test_on_version_7_the_hero_a_talent_makes_is_left_his_later_threshold_to_roll(rats_and_skaven_v7):
    """A version 7 campaign replays as recorded: the advances rolled the group's thresholds alone, and left
    Ulli's at 4 XP owed (another `advance` rolls it)."""
    given_xp(rats_and_skaven_v7, Marksmen=3)
    events = advance(rats_and_skaven_v7, TALENT_AT_2_OF_4, answers=LATER_THRESHOLD)
    assert events[-1] == stat("marksmen", "I", -2, 4, "henchman-advance:1-3")
    band = rats_and_skaven_v7.state.warband("Reikland Rats")
    assert not PHASE.is_done(rats_and_skaven_v7.state, band, "advances")
    assert advances_owed(rats_and_skaven_v7.state, band).startswith("owed: Marksmen (promoted) at 4 XP")


def test_the_own_advance_of_a_hero_an_earlier_talent_made_is_his_own_to_answer(rats_and_skaven):
    """`marksmen-promoted:6:stat` reads as the advance of a hero a Talent! may make at these advances, at a
    threshold he would not roll (the Marksmen roll at 4 XP alone), which is refused; but Marksmen (promoted),
    made by a Talent! after battle 1, is there: it is his own advance at 6 XP, and answers it."""
    # Given Marksmen (promoted) made after battle 1, and after battle 2 at 6 XP (4 and 6 due), the group at 4 XP
    given_xp(rats_and_skaven, Marksmen=1)
    advance(rats_and_skaven, TALENT_AT_2, answers=TALENT_AT_2_ANSWERS)
    rats_and_skaven.finish()
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle(winner=None, absent=["Hans"])  # a draw, Hans absent: nobody else comes to a threshold
    given_xp(rats_and_skaven, **{"Marksmen (promoted)": 3})
    rats_and_skaven.through("advances")
    # When the group rolls a 1 (I two steps), and he a 6 (W +1) at 4 XP and an 8 (WS or BS) at 6 XP
    events = rats_and_skaven.do(Advance(warband="Reikland Rats", answers={
        "marksmen:4:group-reroll": "keep", "marksmen-promoted:6:stat": "BS"}), [1, 6, 8])
    # Then his answer is taken
    assert [e for e in events if isinstance(e, ev.StatChanged)] == [
        stat("marksmen", "I", -2, 4, "henchman-advance:1-3"),
        stat("marksmen-promoted", "W", 1, 4, "hero-advance:6"),
        stat("marksmen-promoted", "BS", -1, 6, "hero-advance:8-10"),
    ]


def test_on_version_4_a_further_talent_in_the_same_post_game_promoted_another_member(rats_and_skaven_v4):
    """A version 4 campaign replays as recorded: the Talent! at 4 XP made a second hero."""
    given_xp(rats_and_skaven_v4, Marksmen=3)
    advance(rats_and_skaven_v4, TWO_TALENTS, answers=TWO_TALENTS_ANSWERS)
    assert promoted(rats_and_skaven_v4) == ["Marksmen (promoted)", "Marksmen (promoted 2)"]


NAMED_HANS = Advance(warband="Reikland Rats", names={"marksmen": "Hans"}, answers={
    "marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "combat+speed", "marksmen:2:again:group-reroll": "keep"})
HANS_IS_TAKEN = "Reikland Rats already has a fighter called Hans: give the member Marksmen promotes another name (--name Marksmen=NAME)"


def test_a_name_given_for_a_promotion_that_is_taken_is_refused_before_any_roll(rats_and_skaven):
    """Names stay unique in a warband (version 2): a name a warrior has is refused whatever the D12 gives, so before
    it is rolled (no die given, none asked for). Refused at the Talent!, ledger dice were seen and the advances left
    pending with that name, which no answer changes: voided, they were rolled anew."""
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    assert rats_and_skaven.refusal(NAMED_HANS) == HANS_IS_TAKEN


def test_with_ledger_dice_a_name_taken_is_refused_with_nothing_rolled_or_pending():
    table = Table.dealt_alike()
    table.rats()
    table.skaven()
    given_xp(table, Marksmen=1)
    table.battle()
    table.through("advances")
    rolls = table.state.rolls
    with pytest.raises(BadInput, match=re.escape(HANS_IS_TAKEN)):
        table.by_the_ledger(NAMED_HANS)
    assert (table.state.rolls, table.state.pending) == (rolls, {})


def test_a_recorded_advance_naming_a_name_taken_decides_again_as_recorded_at_its_talent(rats_and_skaven):
    """Decided again (replay, a void, an import), a recorded command is refused where it was, at the Talent!."""
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    with pytest.raises(BadInput, match=re.escape(HANS_IS_TAKEN)):
        rats_and_skaven.decided_again(NAMED_HANS, [10, 6, 10, 8])
    with pytest.raises(NeedsDice):
        rats_and_skaven.decided_again(NAMED_HANS)


def lone_and_marksmen_at_their_first_threshold(table) -> None:
    """Lone, a henchman group of one, and the Marksmen come to 2 XP in battle 1; Gunnar to 22 XP."""
    table.hire("Reikland Rats", "Lone", "henchman", cost=25, group_size=1)
    given_xp(table, Marksmen=1, Lone=1)
    table.battle(absent=["Hans"])
    table.through("advances")


GUNNAR_NAMED = "--name Gunnar=Ulli: Gunnar is not a henchman group; --name names the member a Talent! promotes from one"
LONE_NAMED = "--name Lone=Ulli: Lone is a henchman group of one, whom a Talent! makes a hero under his own name"


@pytest.mark.parametrize(("names", "refused"), [({"gunnar": "Ulli"}, GUNNAR_NAMED), ({"lone": "Ulli"}, LONE_NAMED)])
def test_a_name_no_talent_would_give_is_refused_before_any_roll(rats_and_skaven, names, refused):
    """Rules 2.2, Talent!: "One member leaves the group and becomes a hero": --name names him. Given for a hero, or
    (version 5) for a group of one, which becomes the hero itself under its own name, no Talent! would give it: it
    was accepted and ignored. Refused whatever the D12s give, so before they are rolled (no die given)."""
    lone_and_marksmen_at_their_first_threshold(rats_and_skaven)
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats", names=names)) == refused


def lone_owing_no_advance_and_marksmen_at_their_first_threshold(table) -> None:
    """Lone, a henchman group of two, comes to 1 XP in battle 1, the Marksmen to 2 XP: they owe an advance, Lone none."""
    table.hire("Reikland Rats", "Lone", "henchman", cost=25, group_size=2)
    given_xp(table, Marksmen=1)
    table.battle(absent=["Hans"])
    table.through("advances")


@pytest.mark.parametrize(("fighter", "refused"), [
    (None, "--name Lone=Ulli: Lone owes no advance now (at 1 XP), so no Talent! to promote a member"),
    ("Marksmen", "--name Lone=Ulli: this advance rolls Marksmen's alone, so no Talent! of Lone's"),
])
def test_a_name_for_a_group_the_advance_does_not_roll_is_refused_before_any_roll(rats_and_skaven, fighter, refused):
    """Rules 2.2, Talent!: a member of a group rolling an advance becomes a hero, named by --name. Given for a group
    that owes no advance, or for another group than the one FIGHTER names, no Talent! would use it: it was accepted and
    ignored. Refused before the D12s are rolled (no die given)."""
    lone_owing_no_advance_and_marksmen_at_their_first_threshold(rats_and_skaven)
    assert rats_and_skaven.refusal(Advance(warband="Reikland Rats", fighter=fighter, names={"lone": "Ulli"})) == refused


def test_a_recorded_advance_naming_a_group_it_does_not_roll_decides_again_as_recorded(rats_and_skaven):
    lone_owing_no_advance_and_marksmen_at_their_first_threshold(rats_and_skaven)
    plain = Advance(warband="Reikland Rats", answers={"marksmen:2:group-reroll": "keep"})
    named = Advance(warband="Reikland Rats", names={"lone": "Ulli"}, answers=plain.answers)
    assert rats_and_skaven.decided_again(named, [1]) == rats_and_skaven.decided_again(plain, [1])


def test_a_recorded_advance_naming_a_hero_decides_again_as_recorded(rats_and_skaven):
    """Decided again (replay, a void, an import), a recorded command ignores the name, as it did."""
    lone_and_marksmen_at_their_first_threshold(rats_and_skaven)
    plain = Advance(warband="Reikland Rats", answers={"marksmen:2:group-reroll": "keep"})
    named = Advance(warband="Reikland Rats", names={"gunnar": "Ulli", "lone": "Ulli"}, answers=plain.answers)
    assert rats_and_skaven.decided_again(named, [1, 1]) == rats_and_skaven.decided_again(plain, [1, 1])


def test_on_version_4_a_talent_of_a_group_of_one_takes_the_name_given(rats_and_skaven_v4):
    """Version 4 promoted "a member" of a group of one under the name given, and keeps doing so."""
    lone_and_marksmen_at_their_first_threshold(rats_and_skaven_v4)
    events = rats_and_skaven_v4.do(Advance(warband="Reikland Rats", names={"lone": "Ulli"}, answers={
        "marksmen:2:group-reroll": "keep", "lone:2:skill-lists": "combat+speed"}), [1, 10, 6])
    assert [e.result for e in events if isinstance(e, ce.AdvanceRolled)][1] == "Talent! Ulli becomes a hero"


def test_on_version_1_the_promotions_share_the_name_and_naming_it_is_refused_with_both(rats_and_skaven_v1):
    """A version 1 campaign replays as recorded: the same name twice; what is refused now is picking one."""
    table = rats_and_skaven_v1
    given_xp(table, Marksmen=3)
    advance(table, TWO_TALENTS, answers=TWO_TALENTS_ANSWERS)
    assert promoted(table) == ["Marksmen (promoted)", "Marksmen (promoted)"]
    assert table.refusal(AwardXP(warband="Reikland Rats", fighter="Marksmen (promoted)", amount=1, reason="x")) == (
        "2 fighters are called Marksmen (promoted): marksmen-promoted (Reikland Rats), "
        "marksmen-promoted-2 (Reikland Rats); give the id of the one you mean"
    )


def test_the_promoted_heros_skills_come_from_the_two_lists_he_picked(rats_and_skaven):
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    answers = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "combat+speed",
               "marksmen:2:hero:skill": "Decapitate"}
    assert rats_and_skaven.refusal(
        Advance(warband="Reikland Rats", names={"marksmen": "Ulli"}, answers=answers), [10, 11]
    ) == "Decapitate is not on Ulli's skill lists (combat, speed)"


def talent_for_ulli_with_the_lists(table, lists: str) -> str:
    """The refusal of Ulli's promotion at 2 XP when he picks `lists`."""
    given_xp(table, Marksmen=1)
    table.battle()
    table.through("advances")
    answers = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": lists}
    return table.refusal(Advance(warband="Reikland Rats", names={"marksmen": "Ulli"}, answers=answers), [10])


ULLI_PROMOTED = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "combat+speed", "marksmen:2:again:group-reroll": "keep"}


@pytest.mark.parametrize(("named", "then"), [
    # his own advance (an 8: WS or BS) is asked as the group's "marksmen:2:hero:stat"
    ({"marksmen:2:hero:stat": "BS"}, "BS"),
    # typed now it is answered under his own name too, as the log names his roll, in any spelling
    ({"ulli:2:stat": "BS"}, "BS"),
    ({"Ulli:2:stat": "ws"}, "WS"),
    # both given: the key the rules ask is taken
    ({"marksmen:2:hero:stat": "WS", "ulli:2:stat": "BS"}, "WS"),
])
def test_the_own_advance_of_the_hero_talent_makes_is_answered_under_his_name_typed_now(rats_and_skaven, named, then):
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    events = rats_and_skaven.do(Advance(warband="Reikland Rats", names={"marksmen": "Ulli"},
                                        answers={**ULLI_PROMOTED, **named}), [10, 8, 8])
    assert [(e.fighter, e.stat) for e in events if isinstance(e, ev.StatChanged)] == [("ulli", then), ("marksmen", "Ld")]


def test_a_recorded_advance_reads_no_answer_under_the_new_heros_name(rats_and_skaven):
    """Decided again (replay, voids, import) a command reads the answers it recorded as it did: the new hero's
    under his name is no answer to the key the rules ask, which then waits for one."""
    given_xp(rats_and_skaven, Marksmen=1)
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    recorded = Advance(warband="Reikland Rats", names={"marksmen": "Ulli"}, answers={**ULLI_PROMOTED, "ulli:2:stat": "BS"})
    with pytest.raises(NeedsAnswer) as asked:
        rats_and_skaven.decided_again(recorded, [10, 8, 8])
    assert asked.value.key == "marksmen:2:hero:stat"


def test_skill_lists_not_open_to_the_warband_are_refused_in_one_sentence(rats_and_skaven):
    assert talent_for_ulli_with_the_lists(rats_and_skaven, "rogue+speed").startswith(
        "Ulli picks 2 skill lists: 'rogue+speed' is not one of: combat+shooting, ")


def test_the_two_skill_lists_may_be_named_in_any_order_and_case(rats_and_skaven):
    """Rules §3.4: "He picks **two** skill lists": "Speed+combat" is the pair offered as combat+speed (it was
    refused as not one of those offered)."""
    given_xp(rats_and_skaven, Marksmen=1)
    answers = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "Speed+combat",
               "marksmen:2:again:group-reroll": "keep"}
    rats_and_skaven.battle()
    rats_and_skaven.through("advances")
    events = rats_and_skaven.do(Advance(warband="Reikland Rats", names={"marksmen": "Ulli"}, answers=answers), [10, 6, 8])
    assert advanced("marksmen", 2, ["henchman-advance:10-12"], "Talent! Ulli becomes a hero") in events
    assert model.warrior(rats_and_skaven.state, rats_and_skaven.fighter("Ulli")).skill_lists == ["combat", "speed"]


def test_on_version_4_the_skill_lists_question_ended_in_a_colon(rats_and_skaven_v4):
    """Its question is stored with a pending decision: version 4 keeps it as recorded."""
    assert talent_for_ulli_with_the_lists(rats_and_skaven_v4, "rogue+speed").startswith(
        "Ulli picks 2 skill lists:: 'rogue+speed' is not one of: combat+shooting, ")


# --- underdog bonus (5.4): a gap of 51+ in rating, spent as XP before the experience step ----------------------


@pytest.fixture
def underdog(rats_and_skaven):
    # Rats: 6 members (Otto the Sergeant comes with 6 XP) = 30 + XP 20 + 6, and Grok (Ogre, rating 25) = 81.
    # Skrit: 5 + 20 = 25. The gap of 56 is in the 51-75 row: 1 point for the Skrit.
    rats_and_skaven.hire("Reikland Rats", "Otto", "sergeant")
    rats_and_skaven.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    return rats_and_skaven


def test_the_battle_records_each_rating_and_the_underdogs_points(underdog):
    events = underdog.battle()
    assert events[-1] == ce.BattleRatings(battle=1, ratings={RATS: 81, "clan-skrit": 25}, underdog={"clan-skrit": 1},
                                          rows={"clan-skrit": "underdog:51-75"})


def test_underdog_points_buy_experience(underdog):
    underdog.battle()
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit", xp={"Snikch": 2})) == (
        "Clan Skrit has 1 underdog point left for battle 1, not 2"
    )
    assert underdog.do(SpendUnderdog(warband="Clan Skrit", xp={"Snikch": 1})) == [
        ev.XPAwarded(warband="clan-skrit", fighter="snikch", amount=1, reason="underdog bonus (battle 1)"),
        ce.UnderdogSpent(warband="clan-skrit", battle=1, points=1),
    ]
    assert underdog.refusal(SpendUnderdog(warband="Clan Skrit", xp={"Snikch": 1})) == (
        "Clan Skrit has 0 underdog points left for battle 1, not 1"
    )


def test_a_warband_that_earned_no_underdog_points_is_told_so_even_after_its_experience(underdog):
    # Given the Rats (the stronger warband, no points) with their experience already awarded
    underdog.battle()
    underdog.through("advances")
    # When they try to spend underdog points, then the refusal names the real reason
    assert underdog.refusal(SpendUnderdog(warband="Reikland Rats", xp={"Gunnar": 1})) == (
        "Reikland Rats earned no underdog points in battle 1"
    )


def promoted_after(table, members_out: int, dice: list[int]) -> list[ev.Event]:
    """The Marksmen (3, at 1 XP) went out of action, `members_out` of them by the injuries' count (each
    surviving its D12 of `dice`); the advance at 2 XP is Talent!, and Ulli is promoted."""
    given_xp(table, Marksmen=1)
    table.battle(ooa=["Marksmen"])
    table.through("injuries")
    table.do(Injuries(warband="Reikland Rats", answers={"marksmen:out": str(members_out)}), dice)
    table.through("advances")
    answers = {"marksmen:2:group-reroll": "keep", "marksmen:2:skill-lists": "combat+speed",
               "marksmen:2:again:group-reroll": "keep"}
    events = table.do(Advance(warband="Reikland Rats", names={"marksmen": "Ulli"}, answers=answers), [10, 6, 10, 8])
    table.through("search")
    return events


ULLI_SEARCHES = Search(warband="Reikland Rats", searches=[RareSearch(hero="Ulli", item="lance")])


def test_a_hero_promoted_from_a_group_all_taken_out_of_action_was_taken_out_too(rats_and_skaven):
    """Seed 002, Trading: "Heroes not taken out of action can look for rare items". All three Marksmen
    went out of action, so the one Talent! promotes did (version 3)."""
    events = promoted_after(rats_and_skaven, 3, [5, 6, 7])
    assert ce.BattleDeeds(warband=RATS, battle=1, fought=["gunnar", "hans", "marksmen", "ulli"],
                          out_of_action=["marksmen", "ulli"]) in events
    assert rats_and_skaven.refusal(ULLI_SEARCHES, [6, 6]) == "Ulli was taken out of action and cannot look for rare items"


def test_a_hero_promoted_from_a_group_partly_taken_out_of_action_may_look_for_rare_items(rats_and_skaven):
    """Two of the three went out of action: the player may have promoted the third."""
    events = promoted_after(rats_and_skaven, 2, [5, 6])
    assert not [e for e in events if isinstance(e, ce.BattleDeeds)]
    assert [e.found for e in rats_and_skaven.do(ULLI_SEARCHES, [6, 6]) if isinstance(e, ce.RareItemSearched)] == [True]


def test_on_version_2_a_hero_promoted_from_a_group_taken_out_of_action_looked_for_rare_items(rats_and_skaven_v2):
    promoted_after(rats_and_skaven_v2, 3, [5, 6, 7])
    assert [e.found for e in rats_and_skaven_v2.do(ULLI_SEARCHES, [6, 6]) if isinstance(e, ce.RareItemSearched)] == [True]


@pytest.mark.parametrize(("version", "said"), [("5", "Talent! Lone becomes a hero"), ("4", "Talent! Lone (promoted) becomes a hero")])
def test_a_talent_of_a_group_of_one_promotes_it_under_its_own_name(version, said):
    """The group itself is the hero: version 4 named a "Lone (promoted)" who never came to be."""
    table = rats_and_skaven_on(version)
    table.hire("Reikland Rats", "Lone", "henchman", cost=25, group_size=1)
    given_xp(table, Lone=1)
    table.battle()
    table.through("advances")
    events = table.do(Advance(warband="Reikland Rats", answers={"lone:2:skill-lists": "combat+speed"}), [10, 6])
    assert [e.result for e in events if isinstance(e, ce.AdvanceRolled)][0] == said
    assert [(f.name, f.role) for f in table.state.fighters_of(RATS) if f.name.startswith("Lone")] == [("Lone", "hero")]


def lone_advances(version: str, earlier: list[int] | None, dice: list[int], talent_at: int) -> tuple[Table, list[ev.Event]]:
    """Lone, a henchman group of one, at 8 XP after his latest battle (5 given, +1 surviving, the rest a scenario's),
    and the events of his advances rolled with `dice` (a Talent! at `talent_at`). `earlier`: the dice of a first
    post-game that took him to 6 XP (2: I two steps; 4: Ld; 6: WS), his advances rolled up to 6 XP; else he
    came from 0 XP to 8 in one battle."""
    table = rats_and_skaven_on(version)
    table.hire("Reikland Rats", "Lone", "henchman", cost=25, group_size=1)
    given_xp(table, Lone=5)
    table.battle()
    if earlier is not None:
        table.through("advances")
        table.do(Advance(warband="Reikland Rats", answers={"lone:6:stat": "WS"}), earlier)
        table.finish()
        table.battle(winner=None, absent=["Hans", "Marksmen"])  # a draw: nobody else comes to a threshold
    table.through("experience")
    table.do(Experience(warband="Reikland Rats", scenario_xp={"Lone": 2 if earlier is None else 1}))
    return table, table.do(Advance(warband="Reikland Rats", answers={f"lone:{talent_at}:skill-lists": "combat+speed"}), dice)


def rolled(events: list[ev.Event]) -> list[tuple[int, str]]:
    return [(e.threshold, e.result) for e in events if isinstance(e, ce.AdvanceRolled)]


@pytest.mark.parametrize(("earlier", "dice", "talent_at", "then"), [
    # 0 -> 8 XP: the henchman thresholds 2, 4, 6, 7 are due. Talent! at 2 (10) and his own roll there (6: W);
    # then a hero rolled up to 2 XP with 8: the hero thresholds 4 (7: A), 6 (3: Ld) and 8 (1: I), none at 7.
    pytest.param(None, [10, 6, 7, 3, 1], 2,
                 [(2, "Talent! Lone becomes a hero"), (2, "W 1 -> 2"), (4, "A 1 -> 2"), (6, "Ld 7 -> 6"), (8, "I 8 -> 6")],
                 id="0-to-8-talent-at-2"),
    # 6 -> 8 XP: the henchman threshold 7 is due. Talent! at 7 (10) and his own roll there (6: W); then the
    # hero threshold 8 (7: A).
    pytest.param([1, 8, 5], [10, 6, 7], 7,
                 [(7, "Talent! Lone becomes a hero"), (7, "W 1 -> 2"), (8, "A 1 -> 2")],
                 id="6-to-8-talent-at-7"),
])
def test_a_group_of_one_a_talent_makes_a_hero_rolls_the_hero_thresholds_from_there(earlier, dice, talent_at, then):
    """Seed 2.1: "Henchmen that reach 2, 4, 6, and 7 experience roll for advances"; "Heroes that reach … 2, 4, 6,
    8, 11, …". Given Lone, a group of one, at 8 XP with henchman thresholds due, when a Talent! makes him (the
    group itself) a hero, the hero table's roll it gives him is his advance at that threshold (rules 2.2), and
    then he rolls the hero thresholds his XP passes from there, in the same advances (version 8): not the
    henchman threshold 7, and nothing is left owed."""
    table, events = lone_advances("8", earlier, dice, talent_at)
    assert rolled(events) == then
    band = table.state.warband("Reikland Rats")
    assert model.pending_thresholds(table.state, table.fighter("Lone"), model.tables_for(table.state.options)) == ()
    assert PHASE.is_done(table.state, band, "advances")


def test_on_version_7_a_group_of_one_a_talent_makes_a_hero_rolled_on_through_the_henchman_thresholds():
    """A version 7 campaign replays as recorded: after the Talent! at 2 XP Lone rolled at the henchman
    thresholds due when the command began (4, 6 and 7, on the hero table), and his hero threshold 8 was left owed."""
    table, events = lone_advances("7", None, [10, 6, 7, 3, 1], 2)
    assert rolled(events) == [
        (2, "Talent! Lone becomes a hero"), (2, "W 1 -> 2"), (4, "A 1 -> 2"), (6, "Ld 7 -> 6"), (7, "I 8 -> 6")]
    assert advances_owed(table.state, table.state.warband("Reikland Rats")).startswith("owed: Lone at 8 XP")


def marksmen_at_8_of_which_2_rolled(version: str) -> Table:
    """The Marksmen rolled their advance at 2 XP after battle 1 (an 8: Ld); after battle 2 they have 8 XP (+1
    surviving, +5 a scenario gives), their henchman thresholds 4, 6 and 7 due at the advances."""
    table = rats_and_skaven_on(version)
    given_xp(table, Marksmen=1)
    advance(table, [8], answers={"marksmen:2:group-reroll": "keep"})
    table.finish()
    table.battle(winner=None, absent=["Gunnar", "Hans"])  # a draw, the heroes absent: nobody else comes to a threshold
    table.through("experience")
    table.do(Experience(warband="Reikland Rats", scenario_xp={"Marksmen": 5}))
    return table


# The hero a Talent! makes of them rolls his own advance at the threshold it comes at (4, 6 or 7), then (version 8)
# the hero thresholds past it his 8 XP reaches (6 and 8 after 4; 8 after 6 or 7).
MARKSMEN_HERO_ROLLS = ("the hero a Talent! makes of Marksmen rolls his own advance at the threshold the Talent! comes at "
                       "(4, 6 or 7 XP: Marksmen's at these advances), then at each hero threshold past it up to "
                       "Marksmen's 8 XP (6 and 8 XP)")


@pytest.mark.parametrize(("version", "key", "then"), [
    ("8", "marksmen-promoted:4:stat", "marksmen:4:hero:stat"),  # asked of him at the Talent!'s own roll
    ("8", "marksmen-promoted:6:stat", "marksmen:6:hero:stat"),  # the Talent!'s threshold, if it comes at 6
    ("8", "Marksmen (promoted):7:skill", "marksmen:7:hero:skill"),
    ("8", "marksmen-promoted:8:stat", "marksmen-promoted:8:stat"),  # a hero threshold past it: his own key
    ("8", "marksmen-promoted:2:stat", f"{MARKSMEN_HERO_ROLLS}: not at 2 XP, below the thresholds these advances roll"),
    ("8", "marksmen-promoted:5:stat", f"{MARKSMEN_HERO_ROLLS}: not at 5 XP, which is no threshold"),
    ("8", "marksmen-promoted:9:stat", f"{MARKSMEN_HERO_ROLLS}: not at 9 XP, which is no hero threshold"),
    ("8", "marksmen-promoted:11:stat",
     f"{MARKSMEN_HERO_ROLLS}: not at 11 XP, which Marksmen's 8 XP does not reach: it comes after a later battle"),
    ("8", "marksmen-promoted:x:stat", f"{MARKSMEN_HERO_ROLLS}: 'x' is not a number of XP"),
    # Version 7 rolls the thresholds due as the advances begin: a hero threshold past the Talent! is left owed.
    ("7", "marksmen-promoted:8:stat",
     "the hero a Talent! makes of Marksmen rolls his own advance at the threshold the Talent! comes at (4, 6 or 7 XP: "
     "Marksmen's at these advances): not at 8 XP in the same advances: `campaign coreheim advance 'Reikland Rats'` "
     "rolls it after them"),
])
def test_where_the_hero_a_talent_may_make_rolls_his_own_advance(version, key, then):
    """Seed 2.1: "Henchmen that reach 2, 4, 6, and 7 experience roll for advances"; "Heroes that reach … 2, 4, 6, 8,
    11, …". Given the Marksmen at 8 XP, 4, 6 and 7 due, when an answer is given ahead for the own advance of the
    hero a Talent! may make of them, then it is asked under the key the advances ask it, or refused saying exactly
    where he rolls and why not there (it listed '(4 or 6 or 7 or 8 XP)' as 'the threshold Marksmen rolls at these
    advances' and called every other a later advance, 2 XP too)."""
    table = marksmen_at_8_of_which_2_rolled(version)
    try:
        asked_as = talent_advance_asked_as(table.state, RATS, key)
    except BadInput as why:
        asked_as = str(why)
    assert asked_as == then
