"""Speedheim's Improvement & Promotion worked by hand from the seed's own words (seed 000), then run on
the ledger: given the usual two warbands (conftest: Gunnar the Sellswords' Leader, Hilde a hero, Ivo a
henchman, each on a Sellswords Captain's or Infantry's line; the Skaven's Skab (Leader), Rikk (hero),
Rat and Hound (henchmen, the Hound an Animal)) changed as `Given` says, when a unit Incapacitates an
opponent with these cards of the physical deck (or d20 faces) and answers, then the cards it read and
what each meant, how its stat line changed, and whether it promotes at the end of the battle.

Every row was worked out from the quoted seed line before the implementation was read; every row
agrees with the product. Where the seed does not settle a case the row says so and follows the
campaign option that names the reading (commands/speedheim/README.md, "Options"); rows with another
option show the other reading.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest

from commands.shared import Correct
from commands.speedheim import events as se
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import Table, of

SELLSWORDS = ("Gunnar", "Hilde", "Ivo")


class Given(NamedTuple):
    stats: dict[str, dict[str, int]] = {}  # fighter -> stat changes from its conftest line (an arbiter's correction)
    keywords: dict[str, list[str]] = {}  # fighter -> special rules added (Animal, Large)
    earlier: tuple[tuple[str, str, tuple[str, ...], tuple[int, ...]], ...] = ()  # Incapacitations before, this battle
    options: dict[str, Any] = {}


class When(NamedTuple):
    fighter: str
    victim: str
    cards: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    answers: dict[str, str] = {}


class Then(NamedTuple):
    reads: list[tuple[str, str]]  # (card or d20 row, outcome) of each card read, redraws included
    changes: dict[str, int]  # the unit's stat line afterwards minus before
    promotes: bool = False  # a henchman promotes at the end of the battle


def band_of(fighter: str) -> str:
    return "Sellswords" if fighter in SELLSWORDS else "Skaven"


def incapacitate(table: Table, fighter: str, victim: str, cards=(), dice=(), answers=None) -> list[ev.Event]:
    return table.do(h.Incapacitate(warband=band_of(fighter), fighter=fighter, victim=victim, answers=answers or {}),
                    list(dice), list(cards))


def given(state: Given) -> Table:
    table = Table(state.options)
    table.warbands()
    for fighter in {*state.stats, *state.keywords}:
        table.do(Correct(warband=band_of(fighter), fighter=fighter, reason="the case's starting state",
                         stats=state.stats.get(fighter, {}), add_keywords=state.keywords.get(fighter, [])))
    for fighter, victim, cards, dice in state.earlier:
        incapacitate(table, fighter, victim, cards, dice)
    return table


def line(table: Table, fighter: str) -> dict[str, int]:
    return dict(table.state.fighter(fighter).stats)


CASES = [
    # --- a hero: "It will denote which stat will Improve" ---------------------------------------------
    pytest.param(
        # "If you succeed on the roll (or if there is no roll required), improve that stat by 1 immediately.
        # - Wound, Attack, Pierce, and Injure all increase by 1": card 01, Wnd 1 -> 2, no die.
        Given(), When("Gunnar", "Skab", ("01",)),
        Then([("01", "improved")], {"Wnd": 1}),
        id="H1 Wnd card: +1, no roll",
    ),
    pytest.param(
        # Caps "| Prc | Max | 5 |": Prc 4 -> 5 reaches the cap, which it may.
        Given(stats={"Gunnar": {"Prc": 4}}), When("Gunnar", "Skab", ("03",)),
        Then([("03", "improved")], {"Prc": 1}),
        id="H2 Prc 4 -> 5: exactly at the cap is allowed",
    ),
    pytest.param(
        # "cannot improve past it under any circumstances": Wnd 3 cannot take card 01. The seed's redraw
        # sentence speaks of checks only ("need to make a check"); the default `capped_card=redraw` draws
        # again here as for a check, and card 02 gives Atk 1 -> 2. (Seed ambiguous: see the next row.)
        Given(stats={"Gunnar": {"Wnd": 2}}), When("Gunnar", "Skab", ("01", "02")),
        Then([("01", "redraw"), ("02", "improved")], {"Atk": 1}),
        id="H3 Wnd 3 at its cap: card 01 draws again (capped_card=redraw)",
    ),
    pytest.param(
        # The other reading of H3: a no-check card at its cap is simply spent (`capped_card=wasted`).
        Given(stats={"Gunnar": {"Wnd": 2}}, options={"capped_card": "wasted"}), When("Gunnar", "Skab", ("01",)),
        Then([("01", "nothing")], {}),
        id="H3b Wnd 3 at its cap, capped_card=wasted: the card is spent",
    ),
    pytest.param(
        # "| 12-13 | Def | You need to roll equal to or under in order to improve this skill": Def 17, a 17.
        Given(), When("Gunnar", "Skab", ("08",), (17,)),
        Then([("08", "improved")], {"Def": -1}),
        id="H4 Def 17, roll 17: equal to it improves",
    ),
    pytest.param(
        # Same line: an 18 is over 17, so nothing happens (and no card is drawn again for a failure).
        Given(), When("Gunnar", "Skab", ("08",), (18,)),
        Then([("08", "failed")], {}),
        id="H5 Def 17, roll 18: over it fails",
    ),
    pytest.param(
        # "Should a hero need to make a check to Improve a stat that is already at the Stat ... Cap, draw
        # another card from the Improvement Deck instead": Def 5, card 08 rolls no die; card 01 gives Wnd.
        Given(stats={"Gunnar": {"Def": -12}}), When("Gunnar", "Skab", ("08", "01")),
        Then([("08", "redraw"), ("01", "improved")], {"Wnd": 1}),
        id="H6 Def 5 at its cap: no roll, draw another",
    ),
    pytest.param(
        # "| Def | Min | 5 |": Def 6 and a 6 improves to the cap itself.
        Given(stats={"Gunnar": {"Def": -11}}), When("Gunnar", "Skab", ("09",), (6,)),
        Then([("09", "improved")], {"Def": -1}),
        id="H7 Def 6, roll 6: improves to exactly the cap of 5",
    ),
    pytest.param(
        # "| 7-11 | Mel/Rgd | Pick which stat to attempt to improve. You need to roll equal to or under":
        # Mel picked, Mel 12, a 12.
        Given(), When("Gunnar", "Skab", ("10",), (12,), {"gunnar.skab.1.mel-rgd": "Mel"}),
        Then([("10", "improved")], {"Mel": -1}),
        id="H8 Mel/Rgd: Mel picked, roll 12 under Mel 12",
    ),
    pytest.param(
        # "If a unit's Melee or Ranged is at the Stat Cap, the player has the choice to either attempt to
        # Improve the stat not at the Stat Cap, or draw again": Mel 5, the player tries Rgd 12 with a 3.
        Given(stats={"Gunnar": {"Mel": -7}}), When("Gunnar", "Skab", ("11",), (3,), {"gunnar.skab.1.mel-rgd": "Rgd"}),
        Then([("11", "improved")], {"Rgd": -1}),
        id="H9 Mel at its cap: the player tries Rgd",
    ),
    pytest.param(
        # Same line, the other choice: draw again; card 01 gives Wnd.
        Given(stats={"Gunnar": {"Mel": -7}}),
        When("Gunnar", "Skab", ("11", "01"), (), {"gunnar.skab.1.mel-rgd": "draw again"}),
        Then([("11", "redraw"), ("01", "improved")], {"Wnd": 1}),
        id="H10 Mel at its cap: the player draws again",
    ),
    pytest.param(
        # Both at the cap: a check on either would be "a stat that is already at the Stat Cap", so draw
        # another card with no question asked (no answer given); card 02 gives Atk.
        Given(stats={"Gunnar": {"Mel": -7, "Rgd": -7}}), When("Gunnar", "Skab", ("12", "02")),
        Then([("12", "redraw"), ("02", "improved")], {"Atk": 1}),
        id="H11 Mel and Rgd both at the cap: draw again unasked",
    ),
    pytest.param(
        # "| 1-3 | Mrl | You need to roll equal to or under": a 1 is under Mrl 7. The seed's "an unmodified
        # roll of 1-4 is always a failure for ... Morale Stat Checks" explains why 5 is the cap for in-play
        # (roll-over) checks; whether it also fails this roll-under check the seed does not settle. The
        # default `natural_rolls_on_improvement=false` reads it as in-play only (next row: the other reading).
        Given(), When("Gunnar", "Skab", ("18",), (1,)),
        Then([("18", "improved")], {"Mrl": -1}),
        id="H12 Mrl 7, a natural 1: improves (natural rolls apply in play only)",
    ),
    pytest.param(
        Given(options={"natural_rolls_on_improvement": True}), When("Gunnar", "Skab", ("18",), (1,)),
        Then([("18", "failed")], {}),
        id="H12b Mrl 7, a natural 1, natural_rolls_on_improvement=true: fails",
    ),
    pytest.param(
        # "| 4-6 | Agi | ... roll equal to or under": a 9 is over Agi 8.
        Given(), When("Gunnar", "Skab", ("15",), (9,)),
        Then([("15", "failed")], {}),
        id="H13 Agi 8, roll 9: fails",
    ),
    pytest.param(
        # "If you drew a card that denotes 'Skill/Spell', that hero can learn a new Skill ... Note it down.
        # At the end of the game, select": no stat changes now, a Skill is pending.
        Given(), When("Gunnar", "Skab", ("07",)),
        Then([("07", "skill")], {}),
        id="H14 Skill/Spell: noted, chosen at the end of the game",
    ),
    pytest.param(
        # "| Skill | Max | 3 |" and "The cap of 3 Skills does not include any Skills or Special Rules that
        # the hero starts with": Gunnar starts with Leader and has two Skill cards pending; a third fits.
        Given(earlier=(("Gunnar", "Rat", ("05",), ()), ("Gunnar", "Rikk", ("06",), ()))),
        When("Gunnar", "Skab", ("07",)),
        Then([("07", "skill")], {}),
        id="H16 a third Skill beside the starting Leader skill: under the cap",
    ),
    pytest.param(
        # "Animals and Large units can become Heroes, but do not have any learnable Skills. If they draw an
        # Improvement to learn a Skill, treat it as if they are at the Skill Cap and draw another".
        Given(keywords={"Hilde": ["Animal"]}), When("Hilde", "Skab", ("06", "01")),
        Then([("06", "redraw"), ("01", "improved")], {"Wnd": 1}),
        id="H17 an Animal hero's Skill card: draw another",
    ),
    pytest.param(
        Given(keywords={"Hilde": ["Large"]}), When("Hilde", "Skab", ("05", "03")),
        Then([("05", "redraw"), ("03", "improved")], {"Prc": 1}),
        id="H17b a Large hero's Skill card: draw another",
    ),
    pytest.param(
        # "improve that stat by 1 immediately": Def 17 -> 16 on the first Incapacitation, so the second
        # check of the battle is against 16, and a 17 now fails.
        Given(earlier=(("Gunnar", "Rat", ("08",), (16,)),)), When("Gunnar", "Skab", ("09",), (17,)),
        Then([("09", "failed")], {}),
        id="H18 immediately: the next check of the battle reads the improved Def 16",
    ),
    pytest.param(
        # The redraw of H6 draws a Mel/Rgd card; the choice is asked for the second card of the draw.
        Given(stats={"Gunnar": {"Def": -12}}),
        When("Gunnar", "Skab", ("08", "13"), (11,), {"gunnar.skab.2.mel-rgd": "Rgd"}),
        Then([("08", "redraw"), ("13", "improved")], {"Rgd": -1}),
        id="H19 a redrawn Mel/Rgd card asks its own choice",
    ),
    # --- a henchman: "check the 'Henchman' half of the card" --------------------------------------------
    pytest.param(
        # "Promote a non-Animal, non-Large Henchman if the Incapacitated unit is a Leader! (3 cards)".
        Given(), When("Ivo", "Skab", ("04",)),
        Then([("04", "promote")], {}, promotes=True),
        id="M1 a Leader card, a Leader Incapacitated: promotes",
    ),
    pytest.param(
        # Same card, the victim a hero that is no Leader: the condition is not met; nothing happens.
        Given(), When("Ivo", "Rikk", ("05",)),
        Then([("05", "nothing")], {}),
        id="M2 a Leader card, a hero Incapacitated: nothing",
    ),
    pytest.param(
        # "... if the Incapacitated unit is a Hero! (2 cards)" after an unmet card: it kept drawing.
        Given(earlier=(("Ivo", "Rat", ("06",), ()),)), When("Ivo", "Rikk", ("02",)),
        Then([("02", "promote")], {}, promotes=True),
        id="M2b a Hero card, a hero Incapacitated, after a blank draw: promotes",
    ),
    pytest.param(
        # A Leader is a hero (rules §2), so "if the Incapacitated unit is a Hero!" could include it. The seed
        # does not say; the default `leader_counts_as_hero=false` follows the author's odds (rules file §4:
        # 20 % for a Leader, i.e. 1 Promote! + 3 Leader cards only). Next row: the literal reading.
        Given(), When("Ivo", "Skab", ("03",)),
        Then([("03", "nothing")], {}),
        id="M3 a Hero card, the Leader Incapacitated: nothing (leader_counts_as_hero=false)",
    ),
    pytest.param(
        Given(options={"leader_counts_as_hero": True}), When("Ivo", "Skab", ("03",)),
        Then([("03", "promote")], {}, promotes=True),
        id="M3b a Hero card, the Leader Incapacitated, leader_counts_as_hero=true: promotes",
    ),
    pytest.param(
        # "- Promote! (1 card)": whoever was Incapacitated.
        Given(), When("Ivo", "Rat", ("01",)),
        Then([("01", "promote")], {}, promotes=True),
        id="M4 Promote!: a henchman Incapacitated will do",
    ),
    pytest.param(
        # "Promote a non-Animal, non-Large Henchman if ... a Leader!": the Hound is an Animal.
        Given(), When("Hound", "Gunnar", ("04",)),
        Then([("04", "nothing")], {}),
        id="M5 an Animal henchman, a Leader card: nothing",
    ),
    pytest.param(
        # "The 'Promote!' card occurs even if an Animal or Large Henchman draws it".
        Given(earlier=(("Hound", "Gunnar", ("04",), ()),)), When("Hound", "Hilde", ("01",)),
        Then([("01", "promote")], {}, promotes=True),
        id="M5b an Animal henchman, Promote!: promotes",
    ),
    pytest.param(
        Given(keywords={"Ivo": ["Large"]}), When("Ivo", "Skab", ("01",)),
        Then([("01", "promote")], {}, promotes=True),
        id="M5c a Large henchman, Promote!: promotes",
    ),
    pytest.param(
        # "It will usually be blank": card 07's henchman half is.
        Given(), When("Ivo", "Skab", ("07",)),
        Then([("07", "nothing")], {}),
        id="M6 a blank henchman half: nothing",
    ),
    pytest.param(
        # "It does not draw any additional cards from the Improvement Deck for the rest of the battle":
        # no card is named, none is read.
        Given(earlier=(("Ivo", "Skab", ("04",), ()),)), When("Ivo", "Rikk"),
        Then([], {}, promotes=True),
        id="M7 after its promote card: no more draws this battle",
    ),
    # --- the d20 Hero Improvement Table -----------------------------------------------------------------
    pytest.param(
        # "| 20 | W |".
        Given(options={"improvement": "d20-table"}), When("Gunnar", "Skab", (), (20,)),
        Then([("20", "improved")], {"Wnd": 1}),
        id="T1 d20 20: Wnd +1",
    ),
    pytest.param(
        # "| 12-13 | Def | ... roll equal to or under": the row's d20, then the check's: 13, then 17 <= Def 17.
        Given(options={"improvement": "d20-table"}), When("Gunnar", "Skab", (), (13, 17)),
        Then([("12-13", "improved")], {"Def": -1}),
        id="T2 d20 13: Def, checked with a second d20",
    ),
    pytest.param(
        # "| 4-6 | Agi |" at the cap of 5: draw another (here: roll the table again), 17: Inj +1.
        Given(stats={"Gunnar": {"Agi": -3}}, options={"improvement": "d20-table"}), When("Gunnar", "Skab", (), (4, 17)),
        Then([("4-6", "redraw"), ("17", "improved")], {"Inj": 1}),
        id="T3 d20 4 with Agi at its cap: roll again, 17: Inj +1",
    ),
    pytest.param(
        # "| 7-11 | Mel/Rgd | Pick which stat": Rgd picked, 11 then 12 <= Rgd 12.
        Given(options={"improvement": "d20-table"}),
        When("Gunnar", "Skab", (), (7, 12), {"gunnar.skab.1.mel-rgd": "Rgd"}),
        Then([("7-11", "improved")], {"Rgd": -1}),
        id="T4 d20 7: Mel/Rgd, Rgd picked",
    ),
    pytest.param(
        # The seed's d20 table covers heroes only; a henchman on the d20 method uses the deck's henchman
        # counts (rules file §4: 20 Promote!, 18-19 Hero, 15-17 Leader, 1-14 blank). 15: a Leader card.
        Given(options={"improvement": "d20-table"}), When("Ivo", "Skab", (), (15,)),
        Then([("15-17", "promote")], {}, promotes=True),
        id="T5 a henchman's d20 15: promote for a Leader",
    ),
]


@pytest.mark.parametrize(("state", "when", "then"), CASES)
def test_seed_case(state: Given, when: When, then: Then):
    table = given(state)
    before = line(table, when.fighter)
    events = incapacitate(table, when.fighter, when.victim, when.cards, when.dice, when.answers)
    after = line(table, when.fighter)
    changes = {stat: after.get(stat, 0) - before.get(stat, 0) for stat in {*before, *after}
               if after.get(stat, 0) != before.get(stat, 0)}
    fighter = table.state.fighter(when.fighter)
    assert Then(
        reads=[(read.card, read.outcome) for read in of(events, se.CardRead)],
        changes=changes,
        promotes=h.promotes_in(table.state, fighter) == 1,
    ) == then


def test_a_hero_with_three_learned_skills_draws_again_on_a_skill_card():
    """Given Gunnar (who starts with the Leader skill) learned Cleave, Deadly and Shove after battle 1,
    when a Skill/Spell row comes up in battle 2, then he rolls again: "| Skill | Max | 3 |", "Should a hero
    need to make a check to Improve a stat that is already at the Stat (or Skill) Cap, draw another card"
    — and his starting Leader skill is not one of the three ("does not include any Skills or Special Rules
    that the hero starts with")."""
    table = Table({"improvement": "d20-table"})
    table.warbands()
    for victim, face in (("Skab", 14), ("Rikk", 15), ("Rat", 16)):
        incapacitate(table, "Gunnar", victim, dice=[face])
    table.battle(winner="Skaven")
    table.do(pg.Income(warband="Sellswords"))
    table.do(pg.Promotions(warband="Sellswords"))
    table.do(pg.Scars(warband="Sellswords"))
    table.do(pg.FreeAttempts(warband="Sellswords"), [20, 20])  # Gunnar and Hilde: Wnd +1 each
    for skill in ("Cleave", "Deadly", "Shove"):
        table.do(pg.Learn(warband="Sellswords", fighter="Gunnar", skill=skill))
    table.do(pg.SpendGold(warband="Sellswords"))
    table.do(pg.Income(warband="Skaven"), [5])
    table.do(pg.Promotions(warband="Skaven"))
    table.do(pg.Scars(warband="Skaven"), [12, 12, 12])
    table.do(pg.FreeAttempts(warband="Skaven"), [20, 20])
    table.do(pg.SpendGold(warband="Skaven"))

    events = incapacitate(table, "Gunnar", "Skab", dice=[14, 19])

    assert [(read.card, read.outcome, read.why) for read in of(events, se.CardRead)] == [
        ("14-16", "redraw", "already at the Skill cap of 3: roll again"),  # the d20 table's words, from version 10
        ("19", "improved", "Atk 1 -> 2"),
    ]
    gunnar = table.state.fighter("Gunnar")
    assert (gunnar.skills, gunnar.keywords, gunnar.stats["Atk"]) == (["Cleave", "Deadly", "Shove"], ["Leader"], 2)


def test_three_pending_skill_cards_fill_the_cap():
    """Given Gunnar has drawn three Skill/Spell rows this battle and chosen none yet, when a fourth comes
    up, then he rolls again: a fourth pending Skill would be past "| Skill | Max | 3 |" once chosen (the
    seed does not say whether pending cards count; the default `pending_skills_count=true` counts them)."""
    table = Table({"improvement": "d20-table"})
    table.warbands()
    for victim, face in (("Skab", 14), ("Rikk", 15), ("Rat", 16)):
        incapacitate(table, "Gunnar", victim, dice=[face])

    events = incapacitate(table, "Gunnar", "Hound", dice=[14, 20])

    assert [(read.card, read.outcome) for read in of(events, se.CardRead)] == [("14-16", "redraw"), ("20", "improved")]
    assert h.pending(table.state, table.state.fighter("Gunnar")) == 3


def test_a_card_drawn_is_discarded_until_the_deck_runs_out_then_the_discards_are_the_new_deck():
    """"Once a card is drawn and resolved, discard it" and "In the event that the deck runs out of cards,
    gather up the discarded cards and shuffle them together to form a new deck". Given Hilde, an Animal hero
    at every cap but Mrl 20 (so only the three Mrl cards end a draw), when she draws the whole deck:
    cards 01-17 draw again and 18 improves Mrl; 18 cannot be named again before the deck runs out; 19 and 20
    are the last two; then the 21st card is the 1st of a new deck, in which 01 and 18 are there again."""
    table = Table({})
    table.warbands()
    table.do(Correct(warband="Sellswords", fighter="Hilde", reason="every cap but Mrl", add_keywords=["Animal"],
                     stats={"Wnd": 2, "Atk": 2, "Prc": 5, "Inj": 5, "Def": -12, "Mel": -7, "Rgd": -7, "Agi": -3,
                            "Mrl": 13}))
    whole = incapacitate(table, "Hilde", "Skab", [f"{n:02}" for n in range(1, 19)], [20])
    assert [(read.card, read.outcome) for read in of(whole, se.CardRead)] == (
        [(f"{n:02}", "redraw") for n in range(1, 18)] + [("18", "improved")])
    assert table.refusal(h.Incapacitate(warband="Sellswords", fighter="Hilde", victim="Rikk"), [20], ["18"]) == (
        "Hilde: Improvement (incapacitation): '18' is not a card left in improvement")
    incapacitate(table, "Hilde", "Rikk", ["19"], [20])  # over Mrl 19: fails
    incapacitate(table, "Hilde", "Rat", ["20"], [19])  # Mrl 19 -> 18: the deck is now empty

    events = incapacitate(table, "Hilde", "Hound", ["01", "18"], [1])

    assert of(events, ev.DeckShuffled) == [ev.DeckShuffled(deck="improvement", cards=[], roll=None, source="table")]
    assert [(read.card, read.position, read.outcome) for read in of(events, se.CardRead)] == [
        ("01", 1, "redraw"), ("18", 2, "improved")]
    assert table.stat("Hilde", "Mrl") == 17


def test_at_the_table_a_promoting_henchman_draws_no_more_and_a_discarded_card_is_not_drawn_again(campaign):
    """As a user types it: "It does not draw any additional cards from the Improvement Deck for the rest of
    the battle" and "Once a card is drawn and resolved, discard it"."""
    for args in (
        ["new", "Blightmeer", "--ruleset", "speedheim", "--option", "decks=physical"],
        ["warband", "add", "Sellswords", "--player", "Ann", "--treasury", "500"],
        ["speedheim", "recruit", "Sellswords", "Gunnar", "--role", "leader", "--keyword", "Leader",
         "--stats", "Mov=6,Mel=12,Rgd=12,Def=17,Agi=8,Mrl=7,Atk=1,Wnd=1,Inj=0,Prc=0"],
        ["speedheim", "recruit", "Sellswords", "Ivo", "--role", "henchman",
         "--stats", "Mov=6,Mel=14,Rgd=14,Def=18,Agi=10,Mrl=10,Atk=1,Wnd=1"],
        ["warband", "add", "Skaven", "--player", "Bob", "--treasury", "500"],
        ["speedheim", "recruit", "Skaven", "Skab", "--role", "leader", "--keyword", "Leader",
         "--stats", "Mov=6,Mel=13,Def=18,Agi=8,Mrl=7,Atk=1,Wnd=1"],
    ):
        assert campaign(*args).exit_code == 0
    promoted = campaign("speedheim", "incapacitate", "Sellswords", "Ivo", "Skab", "--card", "04")
    assert (promoted.exit_code, promoted.output.splitlines()[:-1]) == (0, [
        "  Ivo Incapacitated Skab, a leader, in the game toward battle 1",
        "  Ivo: Incapacitated a leader: drew 04 from improvement",
        "  Ivo reads the henchman half of card 04 (1st from the top of improvement), Promote if a Leader: "
        "promote: it Incapacitated a Leader",
    ])
    named = campaign("speedheim", "incapacitate", "Sellswords", "Ivo", "Rat", "--kind", "henchman", "--card", "02")
    assert (named.exit_code, named.output) == (
        2, "Error: --card 02: Ivo promotes at the end of battle 1, so it draws no more cards this battle (leave out --card)\n")
    again = campaign("speedheim", "incapacitate", "Sellswords", "Ivo", "Rat", "--kind", "henchman")
    assert (again.exit_code, again.output.splitlines()[:-1]) == (0, [
        "  Ivo Incapacitated Rat, a henchman, in the game toward battle 1 (promotes at the end of the battle: draws no more cards)"])
    discarded = campaign("speedheim", "incapacitate", "Sellswords", "Gunnar", "Rikk", "--kind", "hero", "--card", "04")
    assert (discarded.exit_code, discarded.output) == (
        2, "Error: Gunnar: Improvement (incapacitation): '04' is not a card left in improvement\n")


def test_a_henchman_that_met_its_card_promotes_at_the_end_of_the_battle_then_reads_the_hero_half():
    """"If the unit meets the condition, it will Promote at the end of the battle!": given Ivo drew card 04
    on Skab, the Leader, he is still a henchman until the battle's post-game resolves promotions; then he is
    a hero on his own stat line (no stat bonus: rules file §6), and his next card is read on its hero half
    (card 03: Prc +1; the same card's henchman half would have been a "Hero" promote)."""
    table = Table({})
    table.warbands()
    incapacitate(table, "Ivo", "Skab", ["04"])
    table.battle(winner="Sellswords")
    assert table.state.fighter("Ivo").role == "henchman"
    table.do(pg.Income(warband="Sellswords"), [5])  # the winner's Treasure die
    line_before = line(table, "Ivo")

    promoted = table.do(pg.Promotions(warband="Sellswords"))

    assert of(promoted, ev.FighterPromoted) == [ev.FighterPromoted(
        warband="sellswords", fighter="ivo", role="hero",
        reason="promote card drawn in battle 1: keeps its unit type and stat line")]
    assert (table.state.fighter("Ivo").role, line(table, "Ivo")) == ("hero", line_before)
    table.do(pg.Scars(warband="Sellswords"))
    attempts = table.do(pg.FreeAttempts(warband="Sellswords"), [], ["01", "02", "03"])
    assert [(read.fighter, read.half, read.card, read.outcome) for read in of(attempts, se.CardRead)] == [
        ("gunnar", "hero", "01", "improved"), ("hilde", "hero", "02", "improved"), ("ivo", "hero", "03", "improved")]
    assert line(table, "Ivo") == {**line_before, "Prc": 1}
