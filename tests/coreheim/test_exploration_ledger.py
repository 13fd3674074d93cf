"""Exploration through the ledger (seed 002, 2.1 Exploration 1-5): given the usual campaign and
a battle, when `coreheim.explore` runs with these table dice and answers, then these events.

Hiring and recording a battle roll nothing, so the exploration dice are roll R0.
"""

from __future__ import annotations

import re

import pytest

from commands.coreheim import events as ce
from commands.coreheim.commands import Explore
from commands.shared import EnlistWarband
from ledger import events as ev
from ledger.decide import TableDice
from ledger.errors import BadInput
from projections.roster import ext_of

from .conftest import Table, rats_and_skaven_on

RATS = "reikland-rats"


def dice(roll: int, expression: str, purpose: str, faces: list[int], value: int) -> ev.DiceRolled:
    return ev.DiceRolled(roll=roll, expression=expression, purpose=purpose, faces=faces, value=value, source="table")


def explored(rolled: list[int], kept: list[int], total: int, shards: int, row: str, multiple: str = "",
             rows: tuple[str, ...] = ()) -> ce.ExplorationResolved:
    return ce.ExplorationResolved(warband=RATS, battle=1, dice=rolled, kept=kept, total=total, shards=shards, row=row,
                                  multiple=multiple, rows=list(rows))


def found(shards: int, row: str) -> ce.ShardsChanged:
    return ce.ShardsChanged(warband=RATS, delta=shards, reason="explored after battle 1", row=row)


DONE = ev.PostGameStepDone(warband=RATS, battle=1, step="explore")


# --- 1. a D6 per hero, one more for the winner; 3. the total gives the shards -------------------


def test_the_winner_rolls_a_die_per_hero_and_one_more(rats_and_skaven):
    # Gunnar and Hans are heroes (the Marksmen are henchmen): 2 dice, +1 for winning.
    rats_and_skaven.battle(winner="Reikland Rats")
    events = rats_and_skaven.do(Explore(warband="Reikland Rats"), [1, 2, 3])
    assert events == [
        dice(0, "3D6", "exploration of Reikland Rats", [1, 2, 3], 6),
        explored([1, 2, 3], [1, 2, 3], 6, 2, "shards:6-11"),  # 6 is in 6-11: 2 shards
        found(2, "shards:6-11"),
        DONE,
    ]
    assert ext_of(rats_and_skaven.state, rats_and_skaven.state.warbands[RATS])["shards"] == 2


def test_heroes_taken_out_of_action_still_roll_and_the_loser_has_no_extra_die(rats_and_skaven):
    rats_and_skaven.battle(winner="Clan Skrit", ooa=["Hans"])
    events = rats_and_skaven.do(Explore(warband="Reikland Rats"), [2, 3])
    assert events[0] == dice(0, "2D6", "exploration of Reikland Rats", [2, 3], 5)
    assert events[1:3] == [explored([2, 3], [2, 3], 5, 1, "shards:1-5"), found(1, "shards:1-5")]


# --- 2. seven or more dice: keep six ----------------------------------------------------------------

SEVEN = [6, 5, 5, 2, 1, 4, 3]  # 2 heroes + the win + 4 scenario dice


@pytest.mark.parametrize(
    "keep, kept, total, shards, row, multiple",
    [
        # Keeping the pair of 5s: 6+5+5+4+3+2 = 25 (5 shards) and a double: Mordheim Survivor.
        ("6,5,5,4,3,2", [6, 5, 5, 4, 3, 2], 25, 5, "shards:25-30", "5x2"),
        # Any order of the faces will do.
        ("2,3,4,5,5,6", [6, 5, 5, 4, 3, 2], 25, 5, "shards:25-30", "5x2"),
        # Dropping a 5 instead: 6+5+4+3+2+1 = 21 (4 shards) and no multiples.
        ("6,5,4,3,2,1", [6, 5, 4, 3, 2, 1], 21, 4, "shards:18-24", ""),
    ],
)
def test_seven_dice_keep_the_six_the_player_picks(rats_and_skaven, keep, kept, total, shards, row, multiple):
    rats_and_skaven.battle()
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", extra_dice=4, answers={"keep": keep}), SEVEN)
    assert events[0] == dice(0, "7D6", "exploration of Reikland Rats", SEVEN, 26)
    rows = ("multiples:5x2", "multiples:5x2:other") if multiple else ()
    assert events[1] == explored(SEVEN, kept, total, shards, row, multiple, rows)
    assert events[2] == found(shards, row)


@pytest.mark.parametrize(
    "keep, kept, total, shards, row",
    [
        ("4,5,6", [6, 5, 4], 15, 3, "shards:12-17"),  # no multiple at all
        ("6", [6], 6, 2, "shards:6-11"),
    ],
)
def test_seven_dice_may_count_fewer_than_six_to_leave_a_guardhouse_out(rats_and_skaven, keep, kept, total, shards, row):
    # Seed 002, Exploration 2: "Even if you are allowed to roll seven or more dice, you must always
    # pick a maximum of six dice as your result." Any six of these hold four 6s (6x4, the Guardhouse).
    rolled = [6, 6, 6, 6, 6, 5, 4]
    rats_and_skaven.battle()
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", extra_dice=4, answers={"keep": keep}), rolled)
    assert events[1:3] == [explored(rolled, kept, total, shards, row), found(shards, row)]


@pytest.mark.parametrize(("keep", "refusal"), [
    ("6,5,5,4,3,2,1", "keep=6,5,5,4,3,2,1: name 6 or fewer of the 7 dice Reikland Rats rolls"),  # "a maximum of six dice"
    ("7,5,5,4,3,2", "keep=7,5,5,4,3,2: 7 is no face of a D6"),
    ("six", "keep=six: name the faces of the dice to keep, separated by commas (keep=6,5,4)"),
])
def test_seven_dice_keep_six_at_most_refused_before_they_are_rolled(rats_and_skaven, keep, refusal):
    """Seed 002, Exploration 2: "you must always pick a maximum of six dice". A `keep` no faces would let by is refused
    before the dice are rolled (none given, none asked for): after them, ledger dice were seen and the exploration
    left pending with that answer, which stands, so only a void ended it, and a new `explore` rolled anew."""
    rats_and_skaven.battle()
    assert rats_and_skaven.refusal(Explore(warband="Reikland Rats", extra_dice=4, answers={"keep": keep})) == refusal


def test_a_recorded_exploration_keeping_seven_is_refused_where_it_was_after_the_roll(rats_and_skaven):
    rats_and_skaven.battle()
    with pytest.raises(BadInput, match=re.escape(
            "Reikland Rats rolled [6, 5, 5, 2, 1, 4, 3]: which 6 dice count (or fewer)?: '6,5,5,4,3,2,1' is not one of: ")):
        rats_and_skaven.decided_again(Explore(warband="Reikland Rats", extra_dice=4, answers={"keep": "6,5,5,4,3,2,1"}), SEVEN)


def test_seven_dice_without_a_choice_ask_which_six(rats_and_skaven):
    rats_and_skaven.battle()
    message = rats_and_skaven.refusal(Explore(warband="Reikland Rats", extra_dice=4), SEVEN)
    assert message == (
        "Reikland Rats rolled [6, 5, 5, 2, 1, 4, 3]: which 6 dice count (or fewer)?: answer with --answer keep=CHOICE "
        "(one of: 6,5,5,4,3,2, 6,5,5,4,3,1, 6,5,5,4,2,1, 6,5,5,3,2,1, 6,5,4,3,2,1, 5,5,4,3,2,1)"
    )


def test_dice_that_were_not_rolled_cannot_be_kept(rats_and_skaven):
    rats_and_skaven.battle()
    message = rats_and_skaven.refusal(Explore(warband="Reikland Rats", extra_dice=4, answers={"keep": "6,6,5,5,4,3"}), SEVEN)
    assert message.startswith("Reikland Rats rolled [6, 5, 5, 2, 1, 4, 3]: which 6 dice count (or fewer)?: '6,6,5,5,4,3' is not one of:")


@pytest.mark.parametrize(("extra_dice", "answer", "rolled", "message"), [
    (0, "keep", [1, 2, 3], "3 dice for Reikland Rats"),  # 2 heroes + the win
    (3, "Keep", [1, 2, 3, 4, 5, 6], "6 dice for Reikland Rats"),  # "a maximum of six dice": all six count
])
def test_which_dice_to_keep_is_not_asked_of_six_or_fewer(rats_and_skaven, extra_dice, answer, rolled, message):
    """Seed 002, Exploration 2: "If you have seven or more dice, keep a maximum of six dice"; of six or fewer
    every die counts, so a pick of them answers nothing."""
    rats_and_skaven.battle(winner="Reikland Rats")
    # When the player names the dice to keep of six or fewer
    # Then it is refused before any die is rolled, and nothing is written
    assert rats_and_skaven.refusal(Explore(warband="Reikland Rats", extra_dice=extra_dice, answers={answer: "3,2"}),
                                   rolled) == (
        f"--answer keep: not asked: {message}, all of which count (the dice to keep are asked only when more than 6 are "
        "rolled, or some are discarded)")


def test_an_unasked_keep_recorded_with_an_exploration_is_left_unused_as_it_was(rats_and_skaven):
    """A command recorded with it (before it was refused, or handed along by the guided walk) re-decides as recorded."""
    rats_and_skaven.battle(winner="Reikland Rats")
    command = Explore(warband="Reikland Rats", answers={"keep": "3,2"})
    outcome = rats_and_skaven.ledger.execute(rats_and_skaven.cid, command, actor="arbiter", dice=TableDice([1, 2, 3]),
                                             answered_now=[])
    assert [r.event for r in outcome.records[1:3]] == [dice(0, "3D6", "exploration of Reikland Rats", [1, 2, 3], 6),
                                                       explored([1, 2, 3], [1, 2, 3], 6, 2, "shards:6-11")]
    assert rats_and_skaven.ledger.check(rats_and_skaven.cid)[1] == []


# --- 4. multiples; 5. several sets: the player picks one ----------------------------------------------

SEVERAL = [5, 5, 2, 2, 2, 1]  # 2 heroes + the win + 3 scenario dice: 17 = 3 shards; 2 2 2 and 5 5


def test_several_multiples_ask_which_one_counts(rats_and_skaven):
    rats_and_skaven.battle()
    message = rats_and_skaven.refusal(Explore(warband="Reikland Rats", extra_dice=3), SEVERAL)
    assert message == (
        "Reikland Rats rolled several multiples, 2x3 (Prisoners), 5x2 (Mordheim Survivor): which one counts?: "
        "answer with --answer multiple=CHOICE (one of: 2x3, 5x2)"
    )


def test_choosing_the_mordheim_survivor_gives_a_die_more_next_time_then_one_discarded(rats_and_skaven):
    rats_and_skaven.battle()
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", extra_dice=3, answers={"multiple": "5x2"}), SEVERAL)
    assert events[1:] == [
        explored(SEVERAL, SEVERAL, 17, 3, "shards:12-17", "5x2", ("multiples:5x2", "multiples:5x2:other")),
        found(3, "shards:12-17"),
        ce.ExplorationBonus(warband=RATS, extra=1, discard=1, row="multiples:5x2:other"),
        DONE,
    ]
    rats_and_skaven.finish()
    rats_and_skaven.battle()
    # Battle 2: 3 dice + the survivor's 1 = 4; one is discarded, so 3 are kept (the player's pick).
    # (R1 was Clan Skrit's exploration of battle 1.)
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", answers={"keep": "6,4,1"}), [6, 4, 1, 1])
    assert events[0] == dice(2, "4D6", "exploration of Reikland Rats", [6, 4, 1, 1], 12)
    assert events[1] == ce.ExplorationResolved(warband=RATS, battle=2, dice=[6, 4, 1, 1], kept=[6, 4, 1], total=11,
                                               shards=2, row="shards:6-11")
    assert "exploration_bonus" not in ext_of(rats_and_skaven.state, rats_and_skaven.state.warbands[RATS])  # used up


def test_choosing_the_prisoners_rolls_their_gold_and_leaves_the_free_henchman_to_the_players(rats_and_skaven):
    rats_and_skaven.battle()
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", extra_dice=3, answers={"multiple": "2x3"}),
                                [*SEVERAL, 4, 3])
    assert events[1:] == [
        dice(1, "2D6", "Gold found (2D6) for Reikland Rats", [4, 3], 7),
        explored(SEVERAL, SEVERAL, 17, 3, "shards:12-17", "2x3", ("multiples:2x3", "multiples:2x3:other")),
        found(3, "shards:12-17"),
        ev.TreasuryChanged(warband=RATS, delta=7, reason="exploration: Prisoners", row="multiples:2x3:other:gold"),
        ev.NoteRecorded(text="pending decision: 1 free henchman worth up to 30 gc, no gear, 0 XP: hire with --free "
                             "— exploration: Prisoners (multiples:2x3:other)", warband=RATS),
        DONE,
    ]


def test_the_well_sends_a_chosen_hero_down_and_a_low_roll_keeps_him_from_the_next_game(rats_and_skaven):
    rats_and_skaven.battle()
    answers = {"multiples:1x2:search": "yes", "hero": "Hans"}
    events = rats_and_skaven.do(Explore(warband="Reikland Rats", answers=answers), [1, 1, 4, 2])
    assert events == [
        dice(0, "3D6", "exploration of Reikland Rats", [1, 1, 4], 6),
        dice(1, "D6", "exploration: Well (D6) for Reikland Rats", [2], 2),
        explored([1, 1, 4], [1, 1, 4], 6, 2, "shards:6-11", "1x2",
                 ("multiples:1x2", "multiples:1x2:any", "multiples:1x2:search:yes", "multiples:1x2:d6:1-2")),
        found(2, "shards:6-11"),
        ce.MissesGame(warband=RATS, fighter="hans", reason="exploration: Well", row="multiples:1x2:d6:1-2"),
        DONE,
    ]
    assert rats_and_skaven.fighter("Hans").missed_games == 1
    # and the log names what the chart said, not its row ids (issue 9, item 6)
    assert events[2].describe(rats_and_skaven.state) == (
        "Reikland Rats explored: rolled [1, 1, 4], total 6 = 2 shards; "
        "multiple 1x2: Well (Send a hero down the well: yes; Hurt in the dark)"
    )


WELL = Explore(warband="Reikland Rats", answers={"multiples:1x2:search": "yes"})
THE_WELL_ASKS_WHO = ("exploration: Well: which hero of Reikland Rats?: "
                     "answer with --answer hero=CHOICE (one of: Gunnar, Hans)")
A_CART_FINDS_A_MAP = Explore(warband="Reikland Rats")  # 4 4: Overturned Cart; its D6, a 6: a Mordheim Map
THE_MAP_ASKS_WHO = ("exploration: Overturned Cart: which hero of Reikland Rats?: "
                    "answer with --answer map-holder=CHOICE (one of: Gunnar, Hans)")


@pytest.mark.parametrize("explore, faces, question", [(WELL, [1, 1, 4], THE_WELL_ASKS_WHO),
                                                       (A_CART_FINDS_A_MAP, [4, 4, 1, 6], THE_MAP_ASKS_WHO)],
                         ids=["well", "map"])
def test_the_hero_a_roll_decides_about_is_picked_before_it_is_rolled(rats_and_skaven, explore, faces, question):
    """Rules 1.2 (5.9): the Well, "Pick a hero and roll D6: 1–2 that hero misses next game", and a
    Mordheim Map's D6 (its holder misses the next battle, or learns Streetwise): who is picked
    first, so that the face, once seen, cannot pick him (version 5)."""
    rats_and_skaven.battle()
    # When the chart result is explored without that D6, then whom it decides about is asked first
    assert rats_and_skaven.refusal(explore, faces) == question


def test_the_hero_sent_down_the_well_is_picked_even_when_he_finds_a_shard(rats_and_skaven):
    rats_and_skaven.battle()
    assert rats_and_skaven.refusal(WELL, [1, 1, 4, 5]) == THE_WELL_ASKS_WHO


def test_on_version_4_the_well_rolled_its_d6_before_asking_which_hero(rats_and_skaven_v4):
    """A version 4 campaign replays as recorded: the D6 first, then the hero (none on a 3-6)."""
    rats_and_skaven_v4.battle()
    assert rats_and_skaven_v4.refusal(WELL, [1, 1, 4]) == (
        "exploration chart follow-up multiples:1x2:d6 for Reikland Rats needs D6 (1 more die): "
        "pass them with --dice, or use --ledger")
    assert ce.MissesGame not in map(type, rats_and_skaven_v4.do(WELL, [1, 1, 4, 5]))


def test_a_corpse_gives_an_item_to_the_stash(rats_and_skaven):
    rats_and_skaven.battle()
    # 3+3+6 = 12: 3 shards; the double 3 is a Corpse, whose D6 of 4 is a Sword.
    events = rats_and_skaven.do(Explore(warband="Reikland Rats"), [3, 3, 6, 4])
    assert events[3:5] == [
        found(3, "shards:12-17"),
        ev.ItemGained(warband=RATS, item="sword", reason="exploration: Corpse: Sword (multiples:3x2:d6:4-5)"),
    ]
    assert rats_and_skaven.state.warband("Reikland Rats").stash == ["sword"]


@pytest.mark.parametrize(("version", "captor", "note"), [
    (None, "the enemy from outside the campaign", []),
    ("6", "Clan Skrit", [ev.NoteRecorded(text="pending decision: Clan Skrit holds Hans captive (no rules for captives in v10)",
                                         warband="clan-skrit", fighter="hans")]),
])
def test_a_hero_captured_after_losing_the_fighting_pits_is_nobody_in_the_campaigns_captive(version, captor, note):
    """Rules 1.2 (5.9), 6 6 6 6 6 Fighting Pits: "A chosen hero … fights a Pit Fighter … Lose: hero is
    Robbed (all gear) and rolls on the hero D66 table"; a 15 there is "Captured": by the pits, not by Clan
    Skrit, who fought the battle but had no part in the pit fight. Version 6 made Clan Skrit his captor."""
    table = rats_and_skaven_on(version) if version else rats_and_skaven_on("7")
    table.battle()
    answers = {"multiples:6x5:fight": "no", "hero": "Hans"}
    events = table.do(Explore(warband="Reikland Rats", extra_dice=2, answers=answers), [6, 6, 6, 6, 6, 1, 5])
    captured = [e for e in events if isinstance(e, (ev.FighterCaptured, ev.NoteRecorded))]
    assert captured == [ev.FighterCaptured(warband=RATS, fighter="hans", reason=f"captured by {captor}", row="hero-injury:15"),
                        *note]


def test_a_bitter_enmity_after_losing_the_fighting_pits_is_not_against_the_battles_enemy(rats_and_skaven):
    """"65 Bitter Enmity: Hero permanently *hates* the whole enemy warband" (rules §2.2): in the pits that
    enemy is nobody of the campaign."""
    rats_and_skaven.battle()
    answers = {"multiples:6x5:fight": "no", "hero": "Hans"}
    rats_and_skaven.do(Explore(warband="Reikland Rats", extra_dice=2, answers=answers), [6, 6, 6, 6, 6, 6, 5])
    assert rats_and_skaven.fighter("Hans").keywords == ["Hatred (an enemy from outside the campaign)"]


def test_on_version_6_the_chart_named_its_rows_by_id():
    """Version 6 keeps the words it recorded: a roll's purpose, an item's reason and a note gave row ids."""
    table = rats_and_skaven_on("6")
    table.battle()
    events = table.do(Explore(warband="Reikland Rats"), [3, 3, 6, 4])
    assert events[1].purpose == "exploration chart follow-up multiples:3x2:d6 for Reikland Rats"
    assert ev.ItemGained(warband=RATS, item="sword", reason="exploration: Corpse (multiples:3x2:d6:4-5)") in events


def test_a_fight_of_the_chart_asks_first_who_fights_then_names_him(rats_and_skaven):
    """6 6 6 6 Guardhouse: "Leader Ld test (Mercenaries pass automatically) … Fail: a chosen hero fights a
    Warhound" (rules 1.2). The question named nobody ("Did the hero win the fight against the warhound?")
    and the hero was asked for after it. Clan Skrit's leader fails his test with a 1."""
    rats_and_skaven.hire("Clan Skrit", "Skab", "adept")
    rats_and_skaven.battle()

    def guardhouse(**answers: str) -> Explore:
        return Explore(warband="Clan Skrit", extra_dice=2, answers=answers)

    assert rats_and_skaven.refusal(guardhouse(), [6, 6, 6, 6, 1]) == (
        "exploration: Guardhouse: which hero of Clan Skrit?: answer with --answer hero=CHOICE (one of: Snikch, Skab)")
    assert rats_and_skaven.refusal(guardhouse(hero="Skab"), [6, 6, 6, 6, 1]) == (
        "Did Skab win the fight against the warhound?: answer with --answer multiples:6x4:fight=CHOICE (one of: yes, no)")
    events = rats_and_skaven.do(guardhouse(hero="Skab", **{"multiples:6x4:fight": "yes"}), [6, 6, 6, 6, 1])
    assert ev.XPAwarded(warband="clan-skrit", fighter="skab", amount=1,
                        reason="exploration: Guardhouse: won the fight against the warhound (multiples:6x4:fight:won)") in events


def test_on_version_6_a_fight_of_the_chart_asked_of_the_hero_first():
    table = rats_and_skaven_on("6")
    table.hire("Clan Skrit", "Skab", "adept")
    table.battle()
    assert table.refusal(Explore(warband="Clan Skrit", extra_dice=2), [6, 6, 6, 6, 1]) == (
        "Did the hero win the fight against the warhound?: answer with --answer multiples:6x4:fight=CHOICE (one of: yes, no)")


# --- the step's place in the sequence -------------------------------------------------------------------


def test_no_exploration_before_a_battle(rats_and_skaven):
    assert rats_and_skaven.refusal(Explore(warband="Reikland Rats"), [1]) == (
        "Reikland Rats has not fought a battle yet: there is no post-game to explore"
    )


def test_exploring_twice_for_one_battle_is_refused(rats_and_skaven):
    rats_and_skaven.battle()
    rats_and_skaven.explore_quietly()
    assert rats_and_skaven.refusal(Explore(warband="Reikland Rats"), [1, 2, 3]) == (
        "Reikland Rats has already done the post-game step Exploration for battle 1"
    )


# --- a warband with no leader (1.8: when the leader is lost the hero with the best Ld takes over; with no hero, none does)

CULT = "cult"


def leaderless_cult_won(version: str | None = None) -> Table:
    """The Cult (Cult of the Possessed) has its Brethren alone, 3 henchmen: no leader, no hero. It beat Clan Skrit, so it
    rolls one exploration die, and more with --extra-dice."""
    table = Table(version=version)
    table.do(EnlistWarband(name="Cult", player="Ann", faction="cult-of-the-possessed", treasury=500))
    table.hire("Cult", "Brethren", "henchman", cost=25, group_size=3)
    table.skaven()
    table.battle(winner="Cult")
    return table


MORDHEIM_SURVIVOR = Explore(warband="Cult", extra_dice=1)  # a 5 5: for the Cult, "leader +1 XP"
WINE_CELLAR = Explore(warband="Cult", extra_dice=2)  # a 1 1 1: "Leader Ld test: pass 4 Elven Wine, fail 1 Elven Wine"


def test_a_leaders_xp_found_by_a_warband_with_no_leader_goes_to_nobody():
    """Whether the roll gives the leader anything is not known before it: from version 10 nobody gains it, and the
    record says so. Version 9 refused after the roll (with ledger dice the exploration was left pending)."""
    table = leaderless_cult_won()
    assert table.do(MORDHEIM_SURVIVOR, [5, 5])[-2:] == [
        ev.NoteRecorded(text="exploration: Mordheim Survivor (multiples:5x2:cult): +1 XP for the leader, and Cult has "
                             "none: nobody gains it", warband=CULT),
        ev.PostGameStepDone(warband=CULT, battle=1, step="explore"),
    ]


def test_a_leaders_test_of_a_warband_with_no_leader_is_failed_and_rolls_no_die():
    """Nobody takes the Wine Cellar's Ld test, so nobody passes it: 1 Elven Wine, and no D12 is rolled (version 10)."""
    table = leaderless_cult_won()
    assert table.do(WINE_CELLAR, [1, 1, 1]) == [
        dice(0, "3D6", "exploration of Cult", [1, 1, 1], 3),
        ce.ExplorationResolved(warband=CULT, battle=1, dice=[1, 1, 1], kept=[1, 1, 1], total=3, shards=1, row="shards:1-5",
                               multiple="1x3", rows=["multiples:1x3", "multiples:1x3:other", "multiples:1x3:ld-test:no-leader"]),
        ce.ShardsChanged(warband=CULT, delta=1, reason="explored after battle 1", row="shards:1-5"),
        ev.ItemGained(warband=CULT, item="elven-wine", reason="exploration: Wine Cellar: no leader to take the leader's Ld "
                                                              "test: failed (multiples:1x3:ld-test:no-leader)"),
        ev.PostGameStepDone(warband=CULT, battle=1, step="explore"),
    ]


@pytest.mark.parametrize(("explore", "faces", "refused"), [
    (MORDHEIM_SURVIVOR, [5, 5], "Cult has no leader to take exploration: Mordheim Survivor"),
    (WINE_CELLAR, [1, 1, 1, 12], "The leader's Ld is needed for this test"),
])
def test_on_version_9_an_exploration_needing_a_leader_the_warband_has_not_was_refused_after_the_roll(explore, faces, refused):
    assert leaderless_cult_won("9").refusal(explore, faces) == refused


@pytest.mark.parametrize(("explore", "faces", "rows"), [
    # The Well: "Optional. Pick a hero and roll D6": with no hero to pick, it is not offered
    (Explore(warband="Cult", extra_dice=1), [1, 1], ["multiples:1x2", "multiples:1x2:any", "multiples:1x2:search:no-hero"]),
    # The Guardhouse, its Ld test failed: "a chosen hero fights a Warhound": nobody fights, nothing is won or lost
    (Explore(warband="Cult", extra_dice=3), [6, 6, 6, 6],
     ["multiples:6x4", "multiples:6x4:any", "multiples:6x4:ld-test:no-leader", "multiples:6x4:fight:no-hero"]),
    # The Fighting Pits: "A chosen hero (no mount) fights a Pit Fighter"
    (Explore(warband="Cult", extra_dice=4), [6, 6, 6, 6, 6], ["multiples:6x5", "multiples:6x5:any", "multiples:6x5:fight:no-hero"]),
])
def test_a_chart_row_for_a_chosen_hero_of_a_warband_with_no_hero_is_passed_by(explore, faces, rows):
    """Version 10: what only a hero could do is done by nobody, and the record says so; version 9 refused once it asked
    which hero ("there is nothing to choose from"), after the exploration roll."""
    table = leaderless_cult_won()
    events = table.do(explore, faces)
    assert [e.rows for e in events if isinstance(e, ce.ExplorationResolved)] == [rows]
    assert [type(e).__name__ for e in events] == ["DiceRolled", "ExplorationResolved", "ShardsChanged", "PostGameStepDone"]


def test_on_version_9_the_well_of_a_warband_with_no_hero_was_refused_after_the_roll():
    table = leaderless_cult_won("9")
    assert table.refusal(Explore(warband="Cult", extra_dice=1, answers={"multiples:1x2:search": "yes"}), [1, 1]) == (
        "exploration: Well: which hero of Cult?: there is nothing to choose from")


# A Mordheim Map ("roll D6. 1–4: fake, discard it, and the holder misses the next battle. 5–6: the holder gains the
# Streetwise skill"), found by a warband with no hero: "Items go to the stash", and no hero holds it.
OVERTURNED_CART = Explore(warband="Cult", extra_dice=1)  # a 4 4: "D6: 1–3 D6 gc; 4–5 Rope & Hook; 6 Mordheim Map"


def _map(row: str, event: type[ev.ItemGained] | type[ev.ItemLost]) -> ev.Event:
    return event(warband=CULT, item="mordheim-map", reason=f"exploration: Overturned Cart (item:mordheim-map:authenticity:{row})")


@pytest.mark.parametrize(("faces", "found", "said"), [
    ([4, 4, 6, 5], [_map("5-6", ev.ItemGained)],
     "exploration: Overturned Cart: the Mordheim Map is genuine (item:mordheim-map:authenticity:5-6): Cult has no hero "
     "to hold it, so nobody gains Streetwise"),
    ([4, 4, 6, 2], [_map("1-4", ev.ItemGained), _map("1-4", ev.ItemLost)],
     "exploration: Overturned Cart: the Mordheim Map is fake (item:mordheim-map:authenticity:1-4): Cult has no hero "
     "to hold it, so nobody misses the next battle"),
])
def test_a_mordheim_map_found_by_a_warband_with_no_hero_goes_to_the_stash_held_by_nobody(faces, found, said):
    """Version 11: the map's D6 is rolled (fake, it is discarded) and what it does to its holder is done to nobody, as
    the record says. Version 10 asked which hero holds it after the exploration roll, and refused ('there is nothing
    to choose from'): with ledger dice the exploration was left pending."""
    table = leaderless_cult_won()
    events = table.do(OVERTURNED_CART, faces)
    assert [(e.purpose, e.faces) for e in events if isinstance(e, ev.DiceRolled)] == [
        ("exploration of Cult", [4, 4]), ("exploration: Overturned Cart (D6) for Cult", [6]),
        ("exploration: Overturned Cart: Mordheim Map (D6) for Cult", [faces[-1]])]
    assert events[-2 - len(found):] == [*found, ev.NoteRecorded(text=said, warband=CULT),
                                        ev.PostGameStepDone(warband=CULT, battle=1, step="explore")]


def test_on_version_10_a_mordheim_map_found_by_a_warband_with_no_hero_was_refused_after_the_roll():
    assert leaderless_cult_won("10").refusal(OVERTURNED_CART, [4, 4, 6, 5]) == (
        "exploration: Overturned Cart: which hero of Cult?: there is nothing to choose from")


# The Chapel ("Cult: 2D6 gc + 1 XP", for a warrior the player picks) rolled by a Cult with no warrior to pick: a Hired
# Sword alone, who gains no XP from the chart (warriors are its heroes and henchmen).
def cult_of_a_hired_sword(version: str | None = None) -> Table:
    table = Table(version=version)
    table.do(EnlistWarband(name="Cult", player="Ann", faction="cult-of-the-possessed", treasury=500))
    table.hire("Cult", "Grok", "ogre-bodyguard")
    table.skaven()
    table.battle(winner="Cult")
    return table


CHAPEL = Explore(warband="Cult", extra_dice=3)  # a 2 2 2 2, then the gold's 2D6


def test_a_chapels_xp_for_a_warrior_of_a_warband_with_none_goes_to_nobody():
    """Version 11: the warrior picked gains the XP; with none to pick nobody does, and the record says so. Version 10
    asked which warrior after the exploration roll, and refused."""
    events = cult_of_a_hired_sword().do(CHAPEL, [2, 2, 2, 2, 3, 4])
    assert events[-3:] == [
        ev.TreasuryChanged(warband=CULT, delta=7, reason="exploration: Chapel", row="multiples:2x4:cult:gold"),
        ev.NoteRecorded(text="exploration: Chapel (multiples:2x4:cult): Cult has no warrior to pick, so nobody gains +1 "
                             "XP", warband=CULT),
        ev.PostGameStepDone(warband=CULT, battle=1, step="explore"),
    ]
    assert cult_of_a_hired_sword("10").refusal(CHAPEL, [2, 2, 2, 2, 3, 4]) == (
        "exploration: Chapel: which warrior of Cult?: there is nothing to choose from")
