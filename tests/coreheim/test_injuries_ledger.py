"""Injuries through the ledger (seed 002, 2.1 Injuries 1-3): D12 for each henchman, mount or
Hired Sword out of action (1-4 dead, 5-12 survives), then D66 for each hero, gear lost with the
dead; and what follows a hero's loss: capture, leader succession (1.8).

In battle 1 the Rats win, so exploring rolls 3 dice as R0 and the first injury die is R1.
"""

from __future__ import annotations

import pytest

from commands.coreheim import events as ce
from commands.coreheim.commands import Buy, Hire, Injuries
from commands.shared import EnlistWarband, GainItem, RecordBattle
from ledger import events as ev
from ledger.decide import TableDice

from .conftest import rats_and_skaven_on

RATS = "reikland-rats"
INJURIES_DONE = ev.PostGameStepDone(warband=RATS, battle=1, step="injuries")


def d12(roll: int, purpose: str, face: int) -> ev.DiceRolled:
    return ev.DiceRolled(roll=roll, expression="D12", purpose=purpose, faces=[face], value=face, source="table")


def henchman_rolled(fighter: str, face: int, row: str, result: str) -> ce.HenchmanInjuryRolled:
    return ce.HenchmanInjuryRolled(warband=RATS, fighter=fighter, face=face, row=row, result=result)


def without_dice(events: list[ev.Event]) -> list[ev.Event]:
    return [e for e in events if not isinstance(e, ev.DiceRolled)]


def injuries_after_battle(table, dice: list[int], answers: dict[str, str] | None = None, **battle) -> list[ev.Event]:
    table.battle(**battle)
    table.explore_quietly()
    return table.do(Injuries(warband="Reikland Rats", answers=answers or {}), dice)


# --- 1. henchmen: D12, 1-4 dead, 5-12 survives ------------------------------------------------------


@pytest.mark.parametrize(
    "face, after",
    [
        (4, [henchman_rolled("marksmen", 4, "henchman-injury:1-4", "dead"),
             ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=-1, reason="a member died of his wounds",
                                 row="henchman-injury:1-4")]),
        # exactly 5 survives, and the roll says so (issue 9, item 16: it said nothing)
        (5, [henchman_rolled("marksmen", 5, "henchman-injury:5-12", "survives")]),
    ],
)
def test_a_henchman_dies_on_4_and_survives_on_5(rats_and_skaven, face, after):
    events = injuries_after_battle(rats_and_skaven, [face], {"marksmen:out": "1"}, ooa=["Marksmen"])
    assert events == [d12(1, "injury of Marksmen", face), *after, INJURIES_DONE]
    assert rats_and_skaven.fighter("Marksmen").group_size == (2 if face == 4 else 3)


def test_a_survivor_s_roll_prints_that_he_survives(rats_and_skaven):
    """Seed 2.1, Injuries 1: "Roll a D12 for each henchman … 5–12 = Survives"."""
    events = injuries_after_battle(rats_and_skaven, [9], {"marksmen:out": "1"}, ooa=["Marksmen"])
    assert events[1].describe(rats_and_skaven.state) == "Marksmen injury 9: survives (henchman-injury:5-12)"


def test_on_version_1_a_henchman_s_roll_is_recorded_as_it_was(rats_and_skaven_v1):
    """Campaigns recorded before version 2 replay as recorded: no outcome event after the D12."""
    events = injuries_after_battle(rats_and_skaven_v1, [5, 4], {"marksmen:out": "2"}, ooa=["Marksmen"])
    assert events == [
        d12(1, "injury of Marksmen (1 of 2)", 5),
        d12(2, "injury of Marksmen (2 of 2)", 4),
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=-1, reason="a member died of his wounds",
                            row="henchman-injury:1-4"),
        INJURIES_DONE,
    ]


def test_each_member_out_of_action_rolls_and_the_last_death_ends_the_group(rats_and_skaven):
    events = injuries_after_battle(rats_and_skaven, [1, 2, 3], {"marksmen:out": "3"}, ooa=["Marksmen"])
    died = ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=-1, reason="a member died of his wounds",
                               row="henchman-injury:1-4")
    assert events == [
        d12(1, "injury of Marksmen (1 of 3)", 1), henchman_rolled("marksmen", 1, "henchman-injury:1-4", "dead"), died,
        d12(2, "injury of Marksmen (2 of 3)", 2), henchman_rolled("marksmen", 2, "henchman-injury:1-4", "dead"), died,
        d12(3, "injury of Marksmen (3 of 3)", 3), henchman_rolled("marksmen", 3, "henchman-injury:1-4", "dead"),
        ev.FighterDied(warband=RATS, fighter="marksmen", reason="died of his wounds", row="henchman-injury:1-4"),
        INJURIES_DONE,
    ]
    assert rats_and_skaven.fighter("Marksmen").status == "dead"


def test_how_many_of_a_group_were_out_of_action_is_asked(rats_and_skaven):
    rats_and_skaven.battle(ooa=["Marksmen"])
    rats_and_skaven.explore_quietly()
    assert rats_and_skaven.refusal(Injuries(warband="Reikland Rats"), [5]) == (
        "How many of Marksmen (3) were taken out of action?: answer with --answer marksmen:out=CHOICE (one of: 1, 2, 3)"
    )


@pytest.mark.parametrize("face, dies", [(2, True), (3, False)])
def test_a_marienburg_hired_sword_dies_only_on_1_or_2(table, face, dies):
    table.rats(faction="mercenaries/marienburg")
    table.skaven()
    table.hire("Reikland Rats", "Grok", "ogre-bodyguard", race="ogre")
    events = injuries_after_battle(table, [face], ooa=["Grok"])
    row = f"henchman-injury:marienburg-hired-sword:{'1-2' if dies else '3-12'}"
    expected = [ev.FighterDied(warband=RATS, fighter="grok", reason="died of his wounds", row=row)] if dies else []
    assert events == [d12(1, "injury of Grok", face), henchman_rolled("grok", face, row, "dead" if dies else "survives"),
                      *expected, INJURIES_DONE]


# --- 2. heroes: D66 (tens, units); no death in the warband's first two games ------------------------------


def play_quiet_battles(table, count: int) -> None:
    """Draws in which only Gunnar and Snikch fight: no advance comes due, nobody is hurt."""
    for _ in range(count):
        table.battle(winner=None, absent=["Hans", "Marksmen", "Otto"])
        table.finish()


def injury_rolled(d66: int, row: str, result: str, note: str = "") -> ce.InjuryRolled:
    return ce.InjuryRolled(warband=RATS, fighter="hans", d66=d66, row=row, result=result, note=note)


@pytest.mark.parametrize("game", [1, 2])
def test_a_hero_cannot_die_in_the_warbands_first_two_games(rats_and_skaven, game):
    play_quiet_battles(rats_and_skaven, game - 1)
    rats_and_skaven.battle(ooa=["Hans"])
    rats_and_skaven.explore_quietly()
    # 13 is Dead, which counts as Multiple Injuries: four more rolls, 23 Chest Wound and three Full Recoveries.
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats"), [1, 3, 2, 3, 5, 1, 5, 2, 5, 3])
    assert [e.faces for e in events if isinstance(e, ev.DiceRolled)] == [[1, 3], [2, 3], [5, 1], [5, 2], [5, 3]]
    assert without_dice(events) == [
        injury_rolled(13, "hero-injury:11-14", "multiple-injuries", f"Dead counts as Multiple Injuries (game {game} of the warband)"),
        injury_rolled(23, "hero-injury:23", "chest-wound"),
        ev.InjurySuffered(warband=RATS, fighter="hans", injury="Chest Wound", row="hero-injury:23"),
        ev.StatChanged(warband=RATS, fighter="hans", stat="T", delta=1, reason="serious injury: Chest Wound", row="hero-injury:23"),
        injury_rolled(51, "hero-injury:45-64", "full-recovery"),
        injury_rolled(52, "hero-injury:45-64", "full-recovery"),
        injury_rolled(53, "hero-injury:45-64", "full-recovery"),
        ev.PostGameStepDone(warband=RATS, battle=game, step="injuries"),
    ]
    hans = rats_and_skaven.fighter("Hans")
    assert (hans.status, hans.stats["T"], hans.injuries) == ("active", 1, ["Chest Wound"])


def test_a_hero_dies_from_the_third_game_and_his_gear_is_lost(rats_and_skaven):
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="sword", fighter="Hans"))
    play_quiet_battles(rats_and_skaven, 2)
    rats_and_skaven.battle(ooa=["Hans"])
    rats_and_skaven.explore_quietly()
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats"), [1, 3])
    assert without_dice(events) == [
        injury_rolled(13, "hero-injury:11-14", "dead"),
        ev.FighterDied(warband=RATS, fighter="hans", reason="serious injury: Dead", row="hero-injury:11-14"),
        ev.PostGameStepDone(warband=RATS, battle=3, step="injuries"),
    ]
    hans = rats_and_skaven.fighter("Hans")
    assert (hans.status, hans.equipment) == ("dead", [])


def test_a_smashed_leg_keeps_the_hero_from_the_next_game(rats_and_skaven):
    events = injuries_after_battle(rats_and_skaven, [4, 2], ooa=["Hans"])
    assert without_dice(events)[1] == ev.InjurySuffered(warband=RATS, fighter="hans", injury="Smashed Leg",
                                                        row="hero-injury:42-43", missed_games=1)


def test_a_hero_sold_to_the_pits_who_wins_earns_gold_and_experience(rats_and_skaven):
    events = injuries_after_battle(rats_and_skaven, [4, 4], {"hans:pit-fight": "won"}, ooa=["Hans"])
    why = "serious injury: Sold to the Pits"
    assert without_dice(events) == [
        injury_rolled(44, "hero-injury:44", "sold-to-pits"),
        ev.TreasuryChanged(warband=RATS, delta=25, reason=why, row="hero-injury:44:purse"),
        ev.XPAwarded(warband=RATS, fighter="hans", amount=1, reason=f"{why} (hero-injury:44)"),
        INJURIES_DONE,
    ]


def test_a_captured_hero_leaves_and_his_gear_goes_to_the_captors_stash(rats_and_skaven):
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="sword", fighter="Hans"))
    events = injuries_after_battle(rats_and_skaven, [1, 5], ooa=["Hans"], took_out={"Snikch": ["Hans"]})
    assert without_dice(events) == [
        injury_rolled(15, "hero-injury:15", "captured"),
        ev.FighterCaptured(warband=RATS, fighter="hans", reason="captured by Clan Skrit", row="hero-injury:15"),
        ev.ItemLost(warband=RATS, fighter="hans", item="sword", reason="taken by Clan Skrit"),
        ev.ItemGained(warband="clan-skrit", item="sword", reason="Hans', captured"),
        ev.NoteRecorded(text="pending decision: Clan Skrit holds Hans captive (no rules for captives in v10)",
                        warband="clan-skrit", fighter="hans"),
        INJURIES_DONE,
    ]
    assert rats_and_skaven.state.warband("Clan Skrit").stash == ["sword"]


def test_a_hero_captured_by_an_opponent_outside_the_campaign_leaves_with_his_gear(rats_and_skaven):
    """"A battle may name one warband: its opponent is outside the campaign" (README); "15 Captured: Hero and
    all his gear go to the enemy warband's stash" (rules §2.2), an enemy the ledger does not hold. It was
    refused, "Which warband captured Hans?: there is nothing to choose from", and the post-game stuck there."""
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="sword", fighter="Hans"))
    rats = rats_and_skaven.state.fighters_of(RATS)
    rats_and_skaven.do(RecordBattle(participants=["Reikland Rats"], winner=None, deeds=[
        ev.Deed(fighter=f.id, out_of_action=f.name == "Hans") for f in rats]))
    rats_and_skaven.explore_quietly()
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats"), [1, 5])
    assert without_dice(events) == [
        injury_rolled(15, "hero-injury:15", "captured"),
        ev.FighterCaptured(warband=RATS, fighter="hans", reason="captured by the enemy from outside the campaign",
                           row="hero-injury:15"),
        ev.ItemLost(warband=RATS, fighter="hans", item="sword", reason="taken by the enemy from outside the campaign"),
        INJURIES_DONE,
    ]
    assert rats_and_skaven.state.warband("Clan Skrit").stash == []


@pytest.mark.parametrize(("version", "keyword"), [(None, "Hatred (Clan Skrit)"), ("5", "Hatred")])
def test_bitter_enmity_names_the_warband_he_hates(version, keyword):
    """"65 Bitter Enmity: Hero permanently *hates* the whole enemy warband" (rules §2.2): the roster says
    whom; version 5 kept "Hatred" alone."""
    table = rats_and_skaven_on(version) if version else rats_and_skaven_on("6")
    events = injuries_after_battle(table, [6, 5], ooa=["Hans"], took_out={"Snikch": ["Hans"]})
    assert [(e.keyword, e.reason) for e in events if isinstance(e, ev.KeywordGained)] == [
        (keyword, "serious injury: Bitter Enmity: hates Clan Skrit")]
    assert table.fighter("Hans").keywords == [keyword]


# --- 1.8: when the leader is lost, the hero with the best Leadership takes over ---------------------------


def leader_dies_in_game_three(table, *, answers: dict[str, str] | None = None) -> list[ev.Event]:
    play_quiet_battles(table, 2)
    table.battle(ooa=["Gunnar"])
    table.explore_quietly()
    return table.do(Injuries(warband="Reikland Rats", answers=answers or {}), [1, 1])


def test_the_hero_with_the_best_leadership_takes_over(rats_and_skaven):
    rats_and_skaven.hire("Reikland Rats", "Otto", "sergeant", {"Ld": 6})  # Hans has Ld 7+
    events = leader_dies_in_game_three(rats_and_skaven)
    assert without_dice(events)[1:3] == [
        ev.FighterDied(warband=RATS, fighter="gunnar", reason="serious injury: Dead", row="hero-injury:11-14"),
        ev.FighterPromoted(warband=RATS, fighter="otto", role="leader", reason="takes over from Gunnar: best Leadership (6+)"),
    ]


def test_a_tie_for_the_best_leadership_is_the_players_choice(rats_and_skaven):
    rats_and_skaven.hire("Reikland Rats", "Otto", "sergeant")  # Ld 7+, as Hans
    with_choice = leader_dies_in_game_three(rats_and_skaven, answers={"new-leader": "Hans"})
    assert without_dice(with_choice)[2] == ev.FighterPromoted(
        warband=RATS, fighter="hans", role="leader", reason="takes over from Gunnar: best Leadership (7+)"
    )


def test_a_tie_for_the_best_leadership_without_a_choice_asks_for_it(rats_and_skaven):
    rats_and_skaven.hire("Reikland Rats", "Otto", "sergeant")
    play_quiet_battles(rats_and_skaven, 2)
    rats_and_skaven.battle(ooa=["Gunnar"])
    rats_and_skaven.explore_quietly()
    assert rats_and_skaven.refusal(Injuries(warband="Reikland Rats"), [1, 1]) == (
        "Gunnar is lost: who leads Reikland Rats? (Ld 7+): answer with --answer new-leader=CHOICE (one of: Hans, Otto)"
    )


def test_hiring_the_lists_leader_type_again_makes_him_leader(rats_and_skaven):
    leader_dies_in_game_three(rats_and_skaven)  # Hans, the only hero left, leads
    # Hans gains 1 for surviving and 1 for leading the winners: his advance at 2 XP is a 6, W +1.
    rats_and_skaven.through("reinforce", advances=[6])  # hiring is trading step 6, after upkeep
    events = rats_and_skaven.hire("Reikland Rats", "Ulrich", "captain")
    assert events[-1] == ev.FighterPromoted(warband=RATS, fighter="hans", role="hero", reason="Ulrich leads the warband")
    assert [(f.name, f.role) for f in rats_and_skaven.state.fighters_of(RATS)] == [
        ("Hans", "hero"), ("Marksmen", "henchman"), ("Ulrich", "leader")
    ]


def test_shackles_an_enemy_hero_carries_turn_a_dead_hero_into_a_captive(rats_and_skaven):
    """"Shackles (enemy item): the next enemy hero who rolls Dead (11–14) is Captured (15) instead. One use"
    (rules §2.2): Snikch fought, stayed on his feet and carries them; they are used up."""
    rats_and_skaven.do(GainItem(warband="Clan Skrit", item="shackles", fighter="Snikch"))
    events = leader_dies_in_game_three(rats_and_skaven)
    assert without_dice(events)[:2] == [
        ce.InjuryRolled(warband=RATS, fighter="gunnar", d66=11, row="hero-injury:11-14", result="captured",
                        note="Dead becomes Captured (enemy Shackles)"),
        ev.FighterCaptured(warband=RATS, fighter="gunnar", reason="captured by Clan Skrit", row="hero-injury:15"),
    ]
    assert ev.ItemLost(warband="clan-skrit", fighter="snikch", item="shackles", reason="used to capture Gunnar") in events
    assert rats_and_skaven.fighter("Snikch").equipment == []


def test_the_warband_whose_shackles_capture_a_hero_takes_him_whoever_took_him_out(rats_and_skaven):
    """"Captured: Hero and all his gear go to the enemy warband's stash" (rules §2.2), the enemy whose
    Shackles made his death a capture: in a battle of three, Snikch took Gunnar out, the Witches' Inq
    carried the Shackles; the Shackles were used up and Clan Skrit took Gunnar."""
    table = rats_and_skaven
    table.do(EnlistWarband(name="Witches", player="Cy", faction="witch-hunters", treasury=500))
    table.hire("Witches", "Inq", "inquisitor")
    table.do(GainItem(warband="Witches", item="shackles", fighter="Inq"))
    for _ in range(2):
        table.battle(winner=None, absent=["Hans", "Marksmen", "Otto"])
        table.finish()
    table.battle(ooa=["Gunnar"], took_out={"Snikch": ["Gunnar"]})
    table.explore_quietly()
    events = without_dice(table.do(Injuries(warband="Reikland Rats"), [1, 1]))
    assert events[1] == ev.FighterCaptured(warband=RATS, fighter="gunnar", reason="captured by Witches", row="hero-injury:15")
    assert ev.ItemLost(warband="witches", fighter="inq", item="shackles", reason="used to capture Gunnar") in events
    assert not any(isinstance(e, ev.ItemGained) and e.warband == "clan-skrit" for e in events)


def test_shackles_whose_owner_was_taken_out_of_action_capture_nobody_and_are_lost(rats_and_skaven):
    """"… lost if its owner is taken out of action" (rules §2.2): Gunnar dies, and Snikch's own injuries step
    takes the Shackles from him before his D66."""
    rats_and_skaven.do(GainItem(warband="Clan Skrit", item="shackles", fighter="Snikch"))
    play_quiet_battles(rats_and_skaven, 2)
    rats_and_skaven.battle(ooa=["Gunnar", "Snikch"])
    rats_and_skaven.explore_quietly()
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats"), [1, 1])
    assert ev.FighterDied(warband=RATS, fighter="gunnar", reason="serious injury: Dead", row="hero-injury:11-14") in events
    rats_and_skaven.explore_quietly("Clan Skrit")
    events = rats_and_skaven.do(Injuries(warband="Clan Skrit"), [6, 6])
    assert events[0] == ev.ItemLost(warband="clan-skrit", fighter="snikch", item="shackles",
                                    reason="Snikch was taken out of action: Shackles are lost when their owner is")
    assert rats_and_skaven.fighter("Snikch").equipment == []


def test_shackles_in_the_stash_are_nobodys_in_the_battle(rats_and_skaven):
    """Shackles have an owner (rules §2.2) and are Miscellaneous Equipment, which "Only Heroes can use"
    (1.11): in the stash they capture nobody until a hero carries them."""
    rats_and_skaven.do(GainItem(warband="Clan Skrit", item="shackles"))
    events = leader_dies_in_game_three(rats_and_skaven)
    assert without_dice(events)[1] == ev.FighterDied(warband=RATS, fighter="gunnar", reason="serious injury: Dead",
                                                     row="hero-injury:11-14")
    assert rats_and_skaven.state.warband("Clan Skrit").stash == ["shackles"]


@pytest.mark.parametrize("carried", [False, True])
def test_on_version_6_only_shackles_in_the_enemy_stash_count(carried):
    """Version 6 looked in the stash only: carried Shackles were ignored, Shackles in the stash used."""
    table = rats_and_skaven_on("6")
    table.do(GainItem(warband="Clan Skrit", item="shackles", fighter="Snikch" if carried else None))
    events = leader_dies_in_game_three(table)
    if carried:
        assert without_dice(events)[1].reason == "serious injury: Dead"
        assert table.fighter("Snikch").equipment == ["shackles"]
    else:
        assert without_dice(events)[1] == ev.FighterCaptured(warband=RATS, fighter="gunnar", reason="captured by Clan Skrit",
                                                             row="hero-injury:15")
        assert ev.ItemLost(warband="clan-skrit", item="shackles", reason="used to capture Gunnar") in events
        assert table.state.warband("Clan Skrit").stash == []


# --- the order of the dice: every D12 (step 1), then every D66 (step 2), each in roster order ---------------


def test_the_henchmens_d12s_come_before_the_heroes_d66s(rats_and_skaven):
    # Hans stands before the Marksmen on the roster, yet the Marksman's D12 is the first die.
    events = injuries_after_battle(rats_and_skaven, [4, 2, 3], {"marksmen:out": "1"}, ooa=["Hans", "Marksmen"])
    assert events == [
        d12(1, "injury of Marksmen", 4),
        henchman_rolled("marksmen", 4, "henchman-injury:1-4", "dead"),
        ce.GroupSizeChanged(warband=RATS, fighter="marksmen", delta=-1, reason="a member died of his wounds",
                            row="henchman-injury:1-4"),
        ev.DiceRolled(roll=2, expression="D66", purpose="serious injury of Hans", faces=[2, 3], value=23, source="table"),
        injury_rolled(23, "hero-injury:23", "chest-wound"),
        ev.InjurySuffered(warband=RATS, fighter="hans", injury="Chest Wound", row="hero-injury:23"),
        ev.StatChanged(warband=RATS, fighter="hans", stat="T", delta=1, reason="serious injury: Chest Wound", row="hero-injury:23"),
        INJURIES_DONE,
    ]


def test_a_leader_dying_after_the_henchmen_rolled_loses_his_gear_and_the_best_hero_takes_over(rats_and_skaven):
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="sword", fighter="Gunnar"))
    play_quiet_battles(rats_and_skaven, 2)
    rats_and_skaven.battle(ooa=["Gunnar", "Marksmen"])
    rats_and_skaven.explore_quietly()
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats", answers={"marksmen:out": "1"}), [6, 1, 1])
    assert [(e.purpose, e.value) for e in events if isinstance(e, ev.DiceRolled)] == [
        ("injury of Marksmen", 6), ("serious injury of Gunnar", 11)
    ]
    assert without_dice(events) == [
        henchman_rolled("marksmen", 6, "henchman-injury:5-12", "survives"),
        ce.InjuryRolled(warband=RATS, fighter="gunnar", d66=11, row="hero-injury:11-14", result="dead"),
        ev.FighterDied(warband=RATS, fighter="gunnar", reason="serious injury: Dead", row="hero-injury:11-14"),
        ev.FighterPromoted(warband=RATS, fighter="hans", role="leader", reason="takes over from Gunnar: best Leadership (7+)"),
        ev.PostGameStepDone(warband=RATS, battle=3, step="injuries"),
    ]
    gunnar = rats_and_skaven.fighter("Gunnar")
    assert (gunnar.status, gunnar.equipment, rats_and_skaven.fighter("Marksmen").group_size) == ("dead", [], 3)


def test_a_reroll_of_a_henchmans_d12_hands_back_the_heroes_undisputed_d66(rats_and_skaven):
    """Issue 9, item 2: rerolling the Marksmen's first D12 must not re-roll Hans's D66 (66, Seen It
    All) that came after it. The README: "A reroll re-rolls only the disputed roll"."""
    rats_and_skaven.battle(ooa=["Hans", "Marksmen"])
    rats_and_skaven.explore_quietly()
    rats_and_skaven.do(Injuries(warband="Reikland Rats", answers={"marksmen:out": "2"}), [3, 8, 6, 6])  # R1 R2 R3
    rerolled = rats_and_skaven.ledger.reroll(rats_and_skaven.cid, "R1", reason="die fell off", actor="arbiter",
                                             dice=TableDice([9]))
    rolls = [r.event for r in rerolled.records if isinstance(r.event, ev.DiceRolled)]
    assert [(r.purpose, r.faces, r.copy_of) for r in rolls] == [
        ("injury of Marksmen (1 of 2)", [9], None),
        ("injury of Marksmen (2 of 2)", [8], 2),
        ("serious injury of Hans", [6, 6], 3),
    ]
    assert rats_and_skaven.fighter("Marksmen").group_size == 3  # 9 and 8 both survive


# --- rules 2.1-2.2: a mount stays with the warband whatever befalls its rider (version 3) --------------
# --- and rolls its own D12 when its rider was taken out of action, as it was (seed 2.1; version 4) -------


def riding(table) -> None:
    table.do(GainItem(warband="Reikland Rats", item="sword", fighter="Hans"))
    table.do(GainItem(warband="Reikland Rats", item="horse", fighter="Hans"))


def mount_rolled(fighter: str, face: int, result: str) -> ce.MountInjuryRolled:
    row = "henchman-injury:1-4" if result == "killed" else "henchman-injury:5-12"
    return ce.MountInjuryRolled(warband=RATS, fighter=fighter, mount="horse", face=face, row=row, result=result)


def test_a_robbed_hero_keeps_his_mount(rats_and_skaven):
    """2.2, 36 and 41 Robbed: "Lose all weapons, armour and equipment (mount kept)"."""
    riding(rats_and_skaven)
    events = injuries_after_battle(rats_and_skaven, [7, 3, 6], ooa=["Hans"])
    assert without_dice(events)[2:] == [
        ev.ItemLost(warband=RATS, fighter="hans", item="sword", reason="serious injury: Robbed: robbed"), INJURIES_DONE]
    assert rats_and_skaven.fighter("Hans").equipment == ["horse"]


def test_on_version_2_a_robbed_hero_lost_his_mount_too(rats_and_skaven_v2):
    riding(rats_and_skaven_v2)
    injuries_after_battle(rats_and_skaven_v2, [3, 6], ooa=["Hans"])
    assert rats_and_skaven_v2.fighter("Hans").equipment == []


def test_a_dead_heros_mount_goes_to_the_stash(rats_and_skaven):
    """2.2, 11-14 Dead: "All his gear is lost (his mount is not)"."""
    riding(rats_and_skaven)
    play_quiet_battles(rats_and_skaven, 2)
    rats_and_skaven.battle(ooa=["Hans"])
    rats_and_skaven.explore_quietly()
    events = rats_and_skaven.do(Injuries(warband="Reikland Rats"), [9, 1, 3])
    assert without_dice(events)[2:] == [
        ev.ItemLost(warband=RATS, fighter="hans", item="horse", reason="Hans' mount stays with Reikland Rats"),
        ev.ItemGained(warband=RATS, item="horse", reason="Hans' mount"),
        ev.FighterDied(warband=RATS, fighter="hans", reason="serious injury: Dead", row="hero-injury:11-14"),
        ev.PostGameStepDone(warband=RATS, battle=3, step="injuries"),
    ]
    assert rats_and_skaven.state.warband("Reikland Rats").stash[-1:] == ["horse"]


def test_a_captured_heros_mount_stays_with_his_warband(rats_and_skaven):
    """2.2, 15 Captured: "Hero and all his gear go to the enemy warband's stash (mount excluded)"."""
    riding(rats_and_skaven)
    events = injuries_after_battle(rats_and_skaven, [9, 1, 5], ooa=["Hans"], took_out={"Snikch": ["Hans"]})
    assert without_dice(events)[2:6] == [
        ev.FighterCaptured(warband=RATS, fighter="hans", reason="captured by Clan Skrit", row="hero-injury:15"),
        ev.ItemLost(warband=RATS, fighter="hans", item="sword", reason="taken by Clan Skrit"),
        ev.ItemGained(warband="clan-skrit", item="sword", reason="Hans', captured"),
        ev.ItemLost(warband=RATS, fighter="hans", item="horse", reason="Hans' mount stays with Reikland Rats"),
    ]
    assert rats_and_skaven.state.warband("Clan Skrit").stash == ["sword"]
    assert rats_and_skaven.state.warband("Reikland Rats").stash[-1:] == ["horse"]


@pytest.mark.parametrize(
    "face, result, after",
    [
        # seed 2.1: "Roll a D12 for each henchman, mount, and Hired Sword that was taken out of action": 1-4 dead
        (4, "killed", [ev.ItemLost(warband=RATS, fighter="hans", item="horse", reason="Hans' horse was killed")]),
        (5, "survives", []),
    ],
)
def test_a_hero_s_mount_taken_out_with_him_rolls_its_d12_before_his_d66(rats_and_skaven, face, result, after):
    # Given Hans on his horse, taken out of action (rules 1.10: "If the rider is … taken out of action, so is the mount")
    riding(rats_and_skaven)
    # When the injuries are rolled: the horse's D12, then Hans's D66 (34: Full Recovery)
    events = injuries_after_battle(rats_and_skaven, [face, 3, 4], ooa=["Hans"])
    # Then the horse dies on 4 and lives on 5, whatever Hans rolls
    assert [(e.purpose, e.faces) for e in events if isinstance(e, ev.DiceRolled)] == [
        ("injury of Hans' horse", [face]), ("serious injury of Hans", [3, 4])]
    assert without_dice(events)[:1 + len(after)] == [mount_rolled("hans", face, result), *after]
    assert rats_and_skaven.fighter("Hans").equipment == (["sword"] if result == "killed" else ["sword", "horse"])


def test_a_mount_whose_rider_fought_on_rolls_nothing(rats_and_skaven):
    riding(rats_and_skaven)
    events = injuries_after_battle(rats_and_skaven, [], ooa=[])
    assert events == [INJURIES_DONE]


def test_on_version_3_a_mount_rolled_no_d12(rats_and_skaven_v3):
    riding(rats_and_skaven_v3)
    events = injuries_after_battle(rats_and_skaven_v3, [3, 4], ooa=["Hans"])
    assert [e.purpose for e in events if isinstance(e, ev.DiceRolled)] == ["serious injury of Hans"]
    assert rats_and_skaven_v3.fighter("Hans").equipment == ["sword", "horse"]


# A henchman group's mount is one per member (1.10: "Members of the same henchman group must ride the same type of
# mount"); each member taken out of action rolls his D12, then his mount's.


@pytest.mark.parametrize(
    "dice, size, stash, equipment",
    [
        # both members and both horses live
        ([6, 7, 8, 9], 3, [], ["horse"]),
        # the first member dies (3) and his horse lives (7): the horse goes to the stash, the two left still ride
        ([3, 7, 8, 9], 2, ["horse"], ["horse"]),
        # both die with their horses: nothing is left of them
        ([1, 2, 3, 4], 1, [], ["horse"]),
        # the second member lives but his horse is killed: the group no longer rides; its 2 horses left go to the stash
        ([6, 7, 8, 2], 3, ["horse", "horse"], []),
        # one member dies with a living horse (stashed), the other lives and loses his: of the 2 left, 1 horse more
        ([2, 9, 10, 4], 2, ["horse", "horse"], []),
    ],
)
def test_a_mounted_group_s_members_and_mounts_roll_in_pairs(rats_and_skaven, dice, size, stash, equipment):
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="horse", fighter="Marksmen"))
    stash_before = list(rats_and_skaven.state.warband("Reikland Rats").stash)
    events = injuries_after_battle(rats_and_skaven, dice, {"marksmen:out": "2"}, ooa=["Marksmen"])
    assert [e.purpose for e in events if isinstance(e, ev.DiceRolled)] == [
        "injury of Marksmen (1 of 2)", "injury of Marksmen's horse (1 of 2)",
        "injury of Marksmen (2 of 2)", "injury of Marksmen's horse (2 of 2)"]
    assert rats_and_skaven.fighter("Marksmen").group_size == size
    assert rats_and_skaven.fighter("Marksmen").equipment == equipment
    assert rats_and_skaven.state.warband("Reikland Rats").stash == stash_before + stash


def test_a_group_unhorsed_says_why(rats_and_skaven):
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="horse", fighter="Marksmen"))
    events = injuries_after_battle(rats_and_skaven, [6, 2], {"marksmen:out": "1"}, ooa=["Marksmen"])
    assert without_dice(events) == [
        henchman_rolled("marksmen", 6, "henchman-injury:5-12", "survives"),
        mount_rolled("marksmen", 2, "killed"),
        ev.ItemLost(warband=RATS, fighter="marksmen", item="horse", reason="Marksmen no longer ride: 1 of their mounts (horse) was killed"),
        ev.ItemGained(warband=RATS, item="horse", reason="Marksmen's, no longer ridden"),
        ev.ItemGained(warband=RATS, item="horse", reason="Marksmen's, no longer ridden"),
        INJURIES_DONE,
    ]


# --- monsters: the hero D66 (version 5) --------------------------------------------------------------

SKRIT = "clan-skrit"


def hire_ogg(table) -> None:
    table.do(Hire(warband="Clan Skrit", name="Ogg", type="rat-ogre"))


def rat_ogre_out_of_action(table) -> None:
    """Clan Skrit's Rat Ogre Ogg taken out of action in the next battle, Skrit explored."""
    table.battle(ooa=["Ogg"])
    table.explore_quietly("Clan Skrit")


def ogg_rolled(d66: int, row: str, result: str, note: str = "") -> ce.InjuryRolled:
    return ce.InjuryRolled(warband=SKRIT, fighter="ogg", d66=d66, row=row, result=result, note=note)


def test_a_monster_rolls_the_hero_d66_and_cannot_die_in_the_warbands_first_two_games(rats_and_skaven):
    """Rules 2.1: "Monsters (River Troll, Rat Ogre) roll on the hero D66 table, not the D12"; 5.3:
    Dead counts as Multiple Injuries in a warband's first two games; 3.1: monsters gain no XP."""
    # Given Ogg, a Rat Ogre, taken out of action in Clan Skrit's first game
    hire_ogg(rats_and_skaven)
    rat_ogre_out_of_action(rats_and_skaven)
    # When his injury is rolled: 11 Dead (Multiple Injuries), then 51, 52, 53 and 66 Seen It All
    events = rats_and_skaven.do(Injuries(warband="Clan Skrit"), [1, 1, 5, 1, 5, 2, 5, 3, 6, 6])
    # Then he rolls D66s as a hero does, lives, and gains no experience from Seen It All
    assert {e.expression for e in events if isinstance(e, ev.DiceRolled)} == {"D66"}
    assert without_dice(events) == [
        ogg_rolled(11, "hero-injury:11-14", "multiple-injuries", "Dead counts as Multiple Injuries (game 1 of the warband)"),
        ogg_rolled(51, "hero-injury:45-64", "full-recovery"),
        ogg_rolled(52, "hero-injury:45-64", "full-recovery"),
        ogg_rolled(53, "hero-injury:45-64", "full-recovery"),
        ogg_rolled(66, "hero-injury:66", "seen-it-all"),
        ev.PostGameStepDone(warband=SKRIT, battle=1, step="injuries"),
    ]
    ogg = rats_and_skaven.fighter("Ogg")
    assert (ogg.status, ogg.xp) == ("active", 0)


def test_a_monster_dies_on_the_hero_table_from_the_warbands_third_game(rats_and_skaven):
    hire_ogg(rats_and_skaven)
    play_quiet_battles(rats_and_skaven, 2)
    rat_ogre_out_of_action(rats_and_skaven)
    events = rats_and_skaven.do(Injuries(warband="Clan Skrit"), [1, 4])
    assert without_dice(events) == [
        ogg_rolled(14, "hero-injury:11-14", "dead"),
        ev.FighterDied(warband=SKRIT, fighter="ogg", reason="serious injury: Dead", row="hero-injury:11-14"),
        ev.PostGameStepDone(warband=SKRIT, battle=3, step="injuries"),
    ]


def test_on_version_4_a_monster_rolled_a_henchman_d12(rats_and_skaven_v4):
    """Campaigns recorded on version 4 replay as recorded: a D12, 1-4 dead."""
    hire_ogg(rats_and_skaven_v4)
    rat_ogre_out_of_action(rats_and_skaven_v4)
    events = rats_and_skaven_v4.do(Injuries(warband="Clan Skrit"), [2])
    assert without_dice(events) == [
        ce.HenchmanInjuryRolled(warband=SKRIT, fighter="ogg", face=2, row="henchman-injury:1-4", result="dead"),
        ev.FighterDied(warband=SKRIT, fighter="ogg", reason="died of his wounds", row="henchman-injury:1-4"),
        ev.PostGameStepDone(warband=SKRIT, battle=1, step="injuries"),
    ]


def vlad_rolls_an_eye_injury(table) -> list[ev.Event]:
    """Vlad, a Vampire (BS "-": he has none), taken out of action and rolling 31, Eye Injury ("BS target +1")."""
    table.do(EnlistWarband(name="Sylvania", player="Cy", faction="undead", treasury=500))
    table.do(Hire(warband="Sylvania", name="Vlad", type="vampire"))  # the list's profile
    table.do(RecordBattle(participants=["Sylvania"], deeds=[ev.Deed(fighter="vlad", out_of_action=True)]))
    table.explore_quietly("Sylvania")
    return table.do(Injuries(warband="Sylvania"), [3, 1])


def test_an_injury_to_a_characteristic_the_warrior_does_not_have_leaves_it_so(rats_and_skaven):
    events = vlad_rolls_an_eye_injury(rats_and_skaven)
    assert [e for e in events if isinstance(e, ev.StatChanged)] == []
    assert "BS" not in rats_and_skaven.fighter("Vlad").stats
    assert rats_and_skaven.fighter("Vlad").injuries == ["Eye Injury"]


def test_on_version_4_an_eye_injury_gave_a_warrior_without_bs_bs_1(rats_and_skaven_v4):
    vlad_rolls_an_eye_injury(rats_and_skaven_v4)
    assert rats_and_skaven_v4.fighter("Vlad").stats["BS"] == 1


@pytest.mark.parametrize(("version", "hans"), [("8", "Hans's"), ("9", "Hans's"), ("10", "Hans'")])
def test_a_mount_s_roll_and_loss_name_its_rider_in_his_possessive(version, hans):
    """What is stored of Hans's horse (its D12's purpose, why it is lost): from version 10 a name ending in s takes an
    apostrophe alone; versions 8 and 9 keep "Hans's"."""
    table = rats_and_skaven_on(version)
    riding(table)
    events = injuries_after_battle(table, [4, 3, 4], ooa=["Hans"])
    assert [e.purpose for e in events if isinstance(e, ev.DiceRolled)][0] == f"injury of {hans} horse"
    assert [e.reason for e in events if isinstance(e, ev.ItemLost)] == [f"{hans} horse was killed"]
