"""Given/when/then on the ledger: the post-game steps of shared/rules/speedheim.md §7 (promotions before
Scars, Scars and the Blight, one free Improvement Attempt per hero, learning, spending gold)."""

from __future__ import annotations

import pytest

from commands.shared import Correct
from commands.speedheim import events as se
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from commands.speedheim.tables import DEFAULT_TABLES
from ledger import events as ev
from ledger.errors import BadInput, RuleViolation
from ledger.state import Fighter
from projections.roster import fighter_row

from .conftest import INFANTRY, of


@pytest.fixture
def fought(table):
    """Battle 1, won by the Skaven: Gunnar takes out Rikk (card 01), Rat takes out Gunnar, the Leader (card 05:
    promote), Hilde takes out Rat (card 02)."""
    table.incap("Gunnar", "Rikk", cards=["01"])
    table.incap("Rat", "Gunnar", cards=["05"])
    table.incap("Hilde", "Rat", cards=["02"])
    table.battle(winner="Skaven")
    return table


def test_income_rolls_a_d20_per_token_plus_40_and_a_natural_20_rolls_for_loot(fought):
    """"Gold = the sum of the dice + 40g"; "the winner adds 1"; "Each natural 20 also gives Loot\"."""
    events = fought.do(pg.Income(warband="Skaven", tokens=1), [20, 13, 15])
    assert of(events, ev.TreasuryChanged) == [ev.TreasuryChanged(warband="skaven", delta=73, reason="income: Treasure dice 33 + 40g")]
    assert [e.item for e in of(events, ev.ItemGained)] == ["Loot: Rare Oddments"]


def test_post_game_in_order_promotion_before_scars(fought):
    """Promotion is resolved "before Scars. An incapacitated promotee therefore rolls on the Hero Scars table\"."""
    assert fought.refusal(pg.Scars(warband="Skaven")) == (
        "Skaven must do the Income & Loot step for battle 1 first (the post-game goes Income & Loot, Resolve Promotions, "
        "Scars and the Blight, Free Improvement Attempts, Learn Skills & Spells, Spend Gold)")
    fought.do(pg.Income(warband="Skaven"), [5])
    events = fought.do(pg.Promotions(warband="Skaven"))
    assert of(events, ev.FighterPromoted) == [ev.FighterPromoted(
        warband="skaven", fighter="rat", role="hero", reason="promote card drawn in battle 1: keeps its unit type and stat line")]
    assert of(events, se.HeroSlots) == [se.HeroSlots(warband="skaven", slots=4, reason="Rat promoted")]
    # Rikk: Major Wound (9), then 6-10: Mel 2 worse; Rat, now a hero: Deathtouched (2-6), not a henchman's death.
    events = fought.do(pg.Scars(warband="Skaven"), [9, 7, 3])
    assert [r.purpose for r in of(events, ev.DiceRolled)] == ["Rikk: Hero Scars", "Rikk: Major Wound", "Rat: Hero Scars"]
    assert of(events, ev.StatChanged)[0].stat == "Mel" and fought.stat("Rikk", "Mel") == 14
    assert [k.keyword for k in of(events, ev.KeywordGained)] == ["Deathtouched"]


def test_henchman_scars_and_the_blight(table):
    table.incap("Gunnar", "Rat", cards=["01"])
    table.incap("Hilde", "Hound", cards=["02"])
    table.battle()
    table.do(pg.Income(warband="Skaven"))
    table.do(pg.Promotions(warband="Skaven"))
    # Rat: Blight (1); Hound: 2-4 death; then the Blight roll of the Blighted Rat: 1-4, a henchman dies.
    events = table.do(pg.Scars(warband="Skaven"), [1, 3, 2])
    assert [e.fighter for e in of(events, ev.FighterDied)] == ["hound", "rat"]
    assert [e.keyword for e in of(events, ev.KeywordGained)] == ["Blighted"]


def rikk_lightly_wounded(table) -> None:
    """Battle 1, won by the Sellswords: Gunnar Incapacitates Rikk (card 01), whose Scar is 10, a Light Wound
    ("misses the next game", rules §7); both warbands finish the post-game."""
    table.incap("Gunnar", "Rikk", cards=["01"])
    table.battle()
    table.do(pg.Income(warband="Skaven"))
    table.do(pg.Promotions(warband="Skaven"))
    table.do(pg.Scars(warband="Skaven"), [10])
    table.do(pg.FreeAttempts(warband="Skaven"), [], ["02", "03"])
    table.do(pg.SpendGold(warband="Skaven"))
    table.do(pg.Income(warband="Sellswords"), [1])
    table.do(pg.Promotions(warband="Sellswords"))
    table.do(pg.Scars(warband="Sellswords"))
    table.do(pg.FreeAttempts(warband="Sellswords"), [20], ["04", "08"])
    table.do(pg.SpendGold(warband="Sellswords"))


def test_a_light_wound_is_healed_once_its_game_is_missed(table):
    rikk_lightly_wounded(table)
    # Then Rikk is listed with his Light Wound while the game he misses is still to come
    assert fighter_row(table.state, table.state.fighters["rikk"])["injuries"] == ["Light Wound"]
    # When battle 2 is fought without him
    table.battle()
    # Then it is healed: the roster lists it no more, and the record of it stays
    assert fighter_row(table.state, table.state.fighters["rikk"])["injuries"] == []
    assert table.state.fighters["rikk"].injuries == ["Light Wound"]


@pytest.mark.parametrize(("injuries", "missed_games", "held"), [
    (["Light Wound"], 1, ["Light Wound"]),  # its game still to miss
    (["Light Wound"], 0, []),  # missed: healed
    (["Major Wound", "Light Wound"], 0, ["Major Wound"]),  # a Major Wound lasts (its stat stays 2 worse)
    (["Light Wound", "Major Wound", "Light Wound"], 1, ["Major Wound", "Light Wound"]),  # the earlier one was missed
])
def test_the_injuries_a_unit_has_are_its_lasting_ones_and_the_light_wounds_it_has_still_to_miss(
        table, injuries, missed_games, held):
    rikk = Fighter(id="rikk", warband="skaven", name="Rikk", role="hero", injuries=injuries, missed_games=missed_games)
    assert pg.injuries_now(table.state, rikk) == held


def test_free_attempt_per_hero_then_learning_then_spending_gold(fought):
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    # "Each hero makes one free Improvement Attempt": Skab (card 06, Skill), Rikk (03, Prc), Rat, a hero now (20, Mrl).
    events = fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "03", "20"])
    assert [(r.fighter, r.card, r.outcome) for r in of(events, se.CardRead)] == [
        ("skab", "06", "skill"), ("rikk", "03", "improved"), ("rat", "20", "improved")]
    assert fought.stat("Rat", "Mrl") == 9
    # Learning is its own command; Spend Gold waits for it.
    assert fought.refusal(pg.SpendGold(warband="Skaven")).startswith("Skaven must do the Learn Skills & Spells step")
    assert fought.refusal(pg.Learn(warband="Skaven", fighter="Rikk", skill="Sprint")) == "Rikk has no Skill/Spell card to choose for"
    assert "Skab cannot learn Heal" in fought.refusal(pg.Learn(warband="Skaven", fighter="Skab", skill="Heal"))
    # a Skill named in another case is that Skill, recorded as the rules spell it
    assert of(fought.do(pg.Learn(warband="Skaven", fighter="Skab", skill="sprint")), ev.SkillLearned)[0].skill == "Sprint"
    # "Buy an Improvement Attempt for 25g ... Limited to once per hero between games."
    events = fought.do(pg.BuyAttempt(warband="Skaven", fighter="Rikk"), [], ["04"])
    assert of(events, ev.TreasuryChanged)[0].delta == -25 and fought.stat("Rikk", "Inj") == 1
    assert "once per hero between games" in fought.refusal(pg.BuyAttempt(warband="Skaven", fighter="Rikk"))
    assert "only heroes" in fought.refusal(pg.BuyAttempt(warband="Skaven", fighter="Hound"))
    events = fought.do(pg.BuyHeroSlot(warband="Skaven"))
    assert of(events, se.HeroSlots)[0].slots == 5 and of(events, ev.TreasuryChanged)[0].delta == -100
    fought.do(pg.SpendGold(warband="Skaven"))
    assert pg.next_step(fought.state, fought.state.warband("Skaven")) is None


def test_a_skill_from_a_bought_attempt_is_learned_before_spend_gold_closes(fought):
    """"select a new Skill or Spell for that hero when updating your warband": a bought attempt's Skill card too."""
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "03", "20"])
    fought.do(pg.Learn(warband="Skaven", fighter="Skab", skill="Sprint"))
    events = fought.do(pg.BuyAttempt(warband="Skaven", fighter="Skab"), [], ["07"])
    assert of(events, se.CardRead)[0].outcome == "skill"
    assert fought.refusal(pg.SpendGold(warband="Skaven")).startswith("Skaven must do the Learn Skills & Spells step")
    fought.do(pg.Learn(warband="Skaven", fighter="Skab", skill="Leap"))
    assert h.pending(fought.state, fought.state.fighter("Skab")) == 0
    fought.do(pg.SpendGold(warband="Skaven"))


def test_a_skill_known_is_not_learned_again_and_the_refusal_says_so(fought):
    """"The same Skill cannot be taken twice" (rules file §7.6)."""
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "03", "20"])
    fought.do(pg.Learn(warband="Skaven", fighter="Skab", skill="Sprint"))
    fought.do(pg.BuyAttempt(warband="Skaven", fighter="Skab"), [], ["07"])  # a second Skill card
    # When Skab is to learn Sprint again (it said "Skab cannot learn sprint (can learn: …)")
    assert fought.refusal(pg.Learn(warband="Skaven", fighter="Skab", skill="sprint")) == (
        "Skab already knows Sprint: the same Skill cannot be taken twice")


def test_a_skill_no_table_knows_is_a_slip_and_one_the_hero_may_not_learn_a_refusal(fought):
    """A name the tables do not hold ("Lead Fencing") is bad input, exit 2, as every other misspelt name is; one
    they hold but the hero may not take now ("Heal", a Spell of a school he lacks) is the rules' refusal, exit 1."""
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "03", "20"])
    with pytest.raises(BadInput, match=r"^no Skill or Spell 'Lead Fencing' in the tables \(Skab can learn: Ambush, "):
        fought.do(pg.Learn(warband="Skaven", fighter="Skab", skill="Lead Fencing"))
    with pytest.raises(RuleViolation, match=r"^Skab cannot learn Heal \(can learn: Ambush, "):
        fought.do(pg.Learn(warband="Skaven", fighter="Skab", skill="Heal"))


@pytest.mark.parametrize(("skill", "answers", "then"), [
    # a Skill named: learned, nothing asked (how every Learn recorded before the question had a key decides)
    ("Sprint", {}, "learns Sprint"),
    # none named: asked under `<fighter>.learn`, answered in any case and recorded as the rules spell it
    ("", {"skab.learn": "leap"}, "learns Leap"),
    ("", {"Skab.Learn": "Sprint"}, "learns Sprint"),
    # asked and not answered, or answered with what Skab cannot learn: refused, nothing written
    ("", {}, "Skab learns a Skill or Spell: answer with --answer skab.learn=CHOICE (one of: Ambush, "),
    ("", {"skab.learn": "Heal"}, "Skab learns a Skill or Spell: 'Heal' is not one of: Ambush, "),
    # a Skill named and an answer too: the answer is not asked, and is refused rather than dropped
    ("Sprint", {"skab.learn": "Leap"}, "--answer skab.learn: not asked: Skab learns Sprint, named as SKILL"),
])
def test_the_skill_a_card_gives_is_named_or_asked_under_fighter_learn(fought, skill, answers, then):
    """"select a new Skill or Spell for that hero when updating your warband" (rules file §7.6)."""
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "03", "20"])  # Skab draws a Skill card
    command = pg.Learn(warband="Skaven", fighter="Skab", skill=skill, answers=answers)
    if then.startswith("learns "):
        assert [e.skill for e in of(fought.do(command), ev.SkillLearned)] == [then.removeprefix("learns ")]
        assert h.pending(fought.state, fought.state.fighter("Skab")) == 0
    else:
        assert fought.refusal(command).startswith(then)


def test_a_learn_recorded_with_its_skill_or_its_answer_decides_again_as_recorded(fought):
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "03", "20"])
    learned = ev.SkillLearned(warband="skaven", fighter="skab", skill="Sprint", reason="Skill/Spell card")
    for recorded in (pg.Learn(warband="Skaven", fighter="Skab", skill="Sprint"),
                     pg.Learn(warband="Skaven", fighter="Skab", answers={"skab.learn": "Sprint"})):
        assert of(fought.decided_again(recorded), ev.SkillLearned) == [learned]


def _to_learn_each(fought):
    """The post-game up to learning, Skab (card 06) and Rikk (card 07) each with a Skill/Spell card to choose for."""
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "07", "20"])
    return fought


SKILLS_OF_ANY_TYPE = "one of: Ambush, Cleave, "


@pytest.mark.parametrize(("answers", "then"), [
    # each hero's answer given by his name: each learns his, in one command (the walk's learning step)
    ({"skab.learn": "leap", "Rikk.learn": "Sprint"}, [("skab", "Leap"), ("rikk", "Sprint")]),
    # one hero's left out, or one not his to learn: refused, nothing written (no hero learns)
    ({"skab.learn": "Leap"}, f"Rikk learns a Skill or Spell: answer with --answer rikk.learn=CHOICE ({SKILLS_OF_ANY_TYPE}"),
    ({"skab.learn": "Leap", "rikk.learn": "Heal"}, f"Rikk learns a Skill or Spell: 'Heal' is not {SKILLS_OF_ANY_TYPE}"),
])
def test_learning_for_each_hero_asks_each_under_his_own_key(fought, answers, then):
    """"If you drew a card that denotes 'Skill/Spell', that hero can learn a new Skill ... At the end of the game,
    select a new Skill or Spell for that hero" (seed 000): every hero with a card chooses, in the walk's one step."""
    _to_learn_each(fought)
    learned_or_refused(fought, pg.LearnEach(warband="Skaven", answers=answers), then)


def learned_or_refused(table, command: pg.LearnEach, then: list[tuple[str, str]] | str) -> None:
    """The walk's learning `command` refused (`then`: how its refusal begins), nothing written; or each hero learns
    what `then` says, decided again as a recorded one is (replay, voids) and typed now alike, and the step is done."""
    if isinstance(then, str):
        assert table.refusal(command).startswith(then)
        return
    assert [(e.fighter, e.skill) for e in of(table.decided_again(command), ev.SkillLearned)] == then
    assert [(e.fighter, e.skill) for e in of(table.do(command), ev.SkillLearned)] == then
    assert pg.next_step(table.state, table.state.warband("Skaven")) == "spend-gold"


@pytest.fixture
def skab_with_two_cards(table):
    """Skab drew a Skill/Spell card in the game (07) and another in his free attempt (05), Rikk one (06)."""
    table.incap("Skab", "Hilde", cards=["07"])
    table.incap("Rikk", "Ivo", cards=["06"])
    table.battle(winner="Skaven")
    table.do(pg.Income(warband="Skaven"), [5])
    table.do(pg.Promotions(warband="Skaven"))
    table.do(pg.Scars(warband="Skaven"))  # no Skaven was Incapacitated
    table.do(pg.FreeAttempts(warband="Skaven"), [], ["05", "03"])
    return table


SKAB_MAY_LEARN_AFTER_LEAP = "one of: Ambush, Cleave, Deadly, "
EACH_CARD_LEARNED = [  # the walk's answers -> what each hero learns, or the refusal (nothing written)
    # one answer for each card: Skab's second is asked under skab.learn.2
    ({"skab.learn": "Leap", "skab.learn.2": "cleave", "rikk.learn": "Sprint"},
     [("skab", "Leap"), ("skab", "Cleave"), ("rikk", "Sprint")]),
    # the second card's answer left out, or the Skill the first took: refused, naming his card and its key
    ({"skab.learn": "Leap", "rikk.learn": "Sprint"}, "Skab learns a Skill or Spell (card 2 of 2): answer with --answer "
                                                     f"skab.learn.2=CHOICE ({SKAB_MAY_LEARN_AFTER_LEAP}"),
    ({"skab.learn": "Leap", "skab.learn.2": "Leap", "rikk.learn": "Sprint"},
     f"Skab learns a Skill or Spell (card 2 of 2): 'Leap' is not {SKAB_MAY_LEARN_AFTER_LEAP}"),
]


@pytest.mark.parametrize(("answers", "then"), EACH_CARD_LEARNED)
def test_learning_for_each_hero_learns_each_of_his_cards(skab_with_two_cards, answers, then):
    """"If you drew a card that denotes 'Skill/Spell', that hero can learn a new Skill" (seed 000): a Skill for each
    card. Given Skab with two cards and Rikk with one, when the walk's learning is given an answer for each card, then
    Skab learns two Skills and Rikk one, in one command, and the step is done. It learned one card of each hero (Skab's
    second asked skab.learn again: the next run's)."""
    learned_or_refused(skab_with_two_cards, pg.LearnEach(warband="Skaven", every_card=True, answers=answers), then)


def test_learning_for_each_hero_recorded_before_every_card_learns_one_card_of_a_hero_with_two(skab_with_two_cards):
    """A walk's learning recorded before it learned every card (no `every_card`) decides again as it did: one card of
    each hero; Skab's second card is still to choose for, under the same key, and the step is not done."""
    table = skab_with_two_cards
    events = table.do(pg.LearnEach(warband="Skaven", answers={"skab.learn": "Leap", "rikk.learn": "Sprint"}))
    assert [(e.fighter, e.skill) for e in of(events, ev.SkillLearned)] == [("skab", "Leap"), ("rikk", "Sprint")]
    assert [h.pending(table.state, table.state.fighter(f)) for f in ("Skab", "Rikk")] == [1, 0]
    assert pg.next_step(table.state, table.state.warband("Skaven")) == "learning"


def test_learning_for_each_hero_is_refused_while_none_has_a_card(fought):
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    assert fought.refusal(pg.LearnEach(warband="Skaven")) == "no hero of Skaven has a Skill or Spell to learn yet"


def test_the_next_battle_waits_for_the_post_game(fought):
    message = fought.refusal(h.Incapacitate(warband="Skaven", fighter="Skab", victim="Hilde"))
    assert message == "Skaven has not finished the post-game of battle 1: next is Income & Loot (campaign post-game Skaven)"



def test_scars_of_a_battle_after_other_warbands_fought_again(fought):
    """Each battle keeps its own Incapacitations: the Sellswords roll for Gunnar and Hilde after the Skaven have
    finished their post-game and fought the Orcs."""
    from commands.shared import EnlistWarband

    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    fought.do(pg.Scars(warband="Skaven"), [12, 12])
    fought.do(pg.FreeAttempts(warband="Skaven"), [10], ["06", "03", "20"])
    fought.do(pg.Learn(warband="Skaven", fighter="Skab", skill="Sprint"))
    fought.do(pg.SpendGold(warband="Skaven"))
    fought.do(EnlistWarband(name="Orcs", player="Cy"))
    fought.do(h.Recruit(warband="Orcs", name="Grom", role="leader", stats={"Mov": 5, "Mel": 12, "Agi": 8, "Mrl": 7, "Atk": 1, "Wnd": 1},
                       paid=False))
    fought.do(h.Incapacitate(warband="Skaven", fighter="Skab", victim="Grom"), [], ["07"])
    fought.do(h.RecordSpeedheimBattle(participants=["Skaven", "Orcs"], winner="Skaven"))
    fought.do(pg.Income(warband="Sellswords"))
    fought.do(pg.Promotions(warband="Sellswords"))
    events = fought.do(pg.Scars(warband="Sellswords"), [12])
    assert [r.purpose for r in of(events, ev.DiceRolled)] == ["Gunnar: Hero Scars"]


def test_a_skill_card_drawn_in_a_battle_is_learned_after_it(table):
    """"At the end of the game, select a new Skill or Spell for that hero\"."""
    table.incap("Gunnar", "Rat", cards=["05"])
    assert table.refusal(pg.Learn(warband="Sellswords", fighter="Gunnar", skill="Cleave")) == (
        "Sellswords has not fought a battle yet")


def test_deathtouched_twice_kills_and_the_blight_takes_a_blighted_hero(table):
    """Hero Scars 2–6 Deathtouched, "A second Deathtouched kills the hero"; a Blight roll of 1–4 makes a Blighted
    hero Deathtouched; Large units are immune to the Blight."""
    table.do(Correct(warband="Skaven", fighter="Skab", reason="setup", add_keywords=["Deathtouched"]))
    table.do(Correct(warband="Skaven", fighter="Rikk", reason="setup", add_keywords=["Blighted"]))
    table.do(Correct(warband="Skaven", fighter="Hound", reason="setup", add_keywords=["Large"]))
    table.incap("Gunnar", "Skab", cards=["01"])
    table.incap("Hilde", "Hound", cards=["02"])
    table.battle()
    table.do(pg.Income(warband="Skaven"))
    table.do(pg.Promotions(warband="Skaven"))
    # Skab 4: Deathtouched again -> dead (Rikk, the only hero left, gains the Leader skill); the Hound (Large) 1:
    # Blight, immune; Rikk's Blight roll 3 -> Deathtouched.
    events = table.do(pg.Scars(warband="Skaven"), [4, 1, 3])
    assert [(e.fighter, e.reason) for e in of(events, ev.FighterDied)] == [("skab", "Scar 4: Deathtouched: Deathtouched a second time")]
    assert [e.text for e in of(events, ev.NoteRecorded)] == ["Hound is immune to the Blight (Scar 1: Blight)"]
    assert [(e.fighter, e.keyword) for e in of(events, ev.KeywordGained)] == [("rikk", "Leader"), ("rikk", "Deathtouched")]


def test_large_units_are_bought_only_after_the_first_game(table):
    """"Large: cannot be bought at warband creation" (rules file §2)."""
    assert table.refusal(h.Recruit(warband="Skaven", name="Ogre", role="henchman", stats=INFANTRY, keywords=["Large"])) == (
        "Skaven cannot buy a Large unit at warband creation: only after its first game")


@pytest.mark.parametrize("result", ["won", "lost"])
def test_a_pit_fight_is_won_for_50g_and_an_attempt_or_lost(fought, result):
    """Hero Scars 16: "Duel the Pit Fighter. A win gives an Improvement Attempt + 50g; a loss makes the hero the new
    Pit Fighter\"."""
    fought.do(pg.Income(warband="Skaven"), [5])
    fought.do(pg.Promotions(warband="Skaven"))
    events = fought.do(pg.Scars(warband="Skaven", answers={"rikk.pit-fight": result}), [16, 12], ["03"] if result == "won" else [])
    if result == "won":
        assert of(events, ev.TreasuryChanged)[0].delta == 50
        assert [(r.fighter, r.attempt, r.card) for r in of(events, se.CardRead)] == [("rikk", "pit-fight", "03")]
    else:
        assert [(e.fighter, e.keyword) for e in of(events, ev.KeywordGained)] == [("rikk", "Pit Fighter")]


def test_a_hero_with_no_skill_left_to_learn_draws_again_and_its_post_game_goes_on(table):
    """Seed: heroes with no learnable Skills "treat it as if they are at the Skill Cap and draw another
    Improvement Card instead". Gunnar starts with every Melee and Defence Skill: the Skill card 05 is
    drawn again (version 2), so no Skill waits to be chosen that none could be."""
    known = [s for kind in ("Melee", "Defence") for s in DEFAULT_TABLES.skills.skills[kind]]
    table.do(Correct(warband="Sellswords", fighter="Gunnar", reason="setup", add_keywords=known))
    events = table.incap("Gunnar", "Rat", cards=["05", "01"])
    assert [(e.card, e.outcome, e.why) for e in of(events, se.CardRead)] == [
        ("05", "redraw", "no Skill or Spell left to learn: as at the Skill cap, draw again"),
        ("01", "improved", "Wnd 1 -> 2")]
    assert h.pending(table.state, table.state.fighters["gunnar"]) == 0
