"""Given/when/then tables for Speedheim's Improvement & Promotion, from the seed's own sentences
(seeds/000) and shared/rules/speedheim.md; pure rules, no database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from commands.speedheim.options import SpeedheimOptions as Options
from commands.speedheim.rules import (
    DRAW_AGAIN,
    Drawn,
    SpeedheimRuleError,
    Unit,
    d20_row,
    improve_hero,
    learnable,
    promotion,
    read_henchman,
)
from commands.speedheim.tables import DEFAULT_TABLES

CAPS = DEFAULT_TABLES.caps
DEFAULTS = Options()
HALVES = [card.hero for card in DEFAULT_TABLES.deck.cards]
# A Sellswords Captain's line (shared/rules/speedheim.md §2): Mel 12, Rgd 12, Def 17, Agi 8, Mrl 7, Atk 1, Wnd 1.
CAPTAIN = {"Mov": 6, "Mel": 12, "Rgd": 12, "Def": 17, "Agi": 8, "Mrl": 7, "Atk": 1, "Wnd": 1, "Inj": 0, "Prc": 0}


def card(card_id: str) -> Drawn:
    found = DEFAULT_TABLES.card(card_id)
    return Drawn(found.id, found.hero, found.henchman)


def hero(**stats: int) -> Unit:
    return Unit(name="Gunnar", hero=True, stats={**CAPTAIN, **stats})


class Table:
    """Scripted cards, d20 faces and answers; records what was asked."""

    def __init__(self, cards: list[str], faces: list[int] = (), answers: dict[str, str] | None = None):
        self.cards, self.faces, self.answers = list(cards), list(faces), dict(answers or {})
        self.rolled: list[str] = []
        self.held: list[tuple[str, ...]] = []  # the cards in hand at each draw
        self.asked: list[tuple[str, list[str]]] = []

    def draw(self, held=()) -> Drawn:
        self.held.append(tuple(held))
        return card(self.cards.pop(0))

    def roll(self, purpose: str, dice: int) -> list[int]:
        self.rolled.append(purpose)
        faces, self.faces = self.faces[:dice], self.faces[dice:]
        return faces

    def choose(self, key: str, prompt: str, options) -> str:
        self.asked.append((key, list(options)))
        return self.answers[key]


def improve(unit: Unit, table: Table, options: Options = DEFAULTS, **kw):
    readings = improve_hero(unit, table.draw, HALVES, CAPS, options, table.roll, table.choose, "gunnar", **kw)
    assert not table.cards and not table.faces, "every scripted card and die is used"
    return readings


def outcomes(readings) -> list[tuple]:
    return [(r.drawn.ref if r.drawn else None, r.outcome, r.stat, r.delta) for r in readings]


# --- Hero Improvement: each card type below, at and above cap ------------------------------------

# "Wound, Attack, Pierce, and Injure all increase by 1" (no roll); caps W 3, A 3, Prc 5, Inj 5.
@pytest.mark.parametrize(
    ("stat", "card_id", "below", "cap"),
    [("Wnd", "01", 2, 3), ("Atk", "02", 2, 3), ("Prc", "03", 4, 5), ("Inj", "04", 4, 5)],
)
def test_no_check_stats_improve_below_cap_and_redraw_at_cap(stat, card_id, below, cap):
    assert outcomes(improve(hero(**{stat: below}), Table([card_id]))) == [(card_id, "improved", stat, 1)]
    # At the cap (or above it, e.g. set by an arbiter): "cannot improve past it" -> draw again (option capped_card).
    other, other_stat = ("02", "Atk") if stat == "Wnd" else ("01", "Wnd")
    for value in (cap, cap + 1):
        assert outcomes(improve(hero(**{stat: value}), Table([card_id, other]))) == [
            (card_id, "redraw", None, 0), (other, "improved", other_stat, 1)]
    wasted = Options(capped_card="wasted")
    assert outcomes(improve(hero(**{stat: cap}), Table([card_id]), wasted)) == [(card_id, "nothing", None, 0)]


def test_a_hero_recorded_without_atk_or_wnd_draws_again_on_their_card():
    """Every profile prints Atk and Wnd, yet a unit may be recorded without one: its card is read as at
    the cap, as a missing stat is (it was an AssertionError, exit 70)."""
    unit = Unit(name="Gunnar", hero=True, stats={"Mel": 12, "Rgd": 12, "Def": 17, "Agi": 8, "Mrl": 7, "Wnd": 1})
    assert outcomes(improve(unit, Table(["02", "01"]))) == [("02", "redraw", None, 0), ("01", "improved", "Wnd", 1)]


def test_pierce_and_injure_dash_count_as_zero():
    captain = Unit(name="Gunnar", hero=True, stats={"Mel": 12, "Wnd": 1, "Atk": 1})
    assert outcomes(improve(captain, Table(["04"]))) == [("04", "improved", "Inj", 1)]


# "Melee, Ranged, Defence, Agility, and Morale all decrease by 1" — "You need to roll equal to or under".
@pytest.mark.parametrize(
    ("card_id", "stat", "value", "face", "outcome", "delta"),
    [
        ("08", "Def", 17, 17, "improved", -1),  # equal to: improves
        ("08", "Def", 17, 18, "failed", 0),  # over: nothing
        ("15", "Agi", 8, 1, "improved", -1),  # a 1 succeeds (the natural 1-4 rule is off by default)
        ("15", "Agi", 8, 9, "failed", 0),
        ("18", "Mrl", 6, 6, "improved", -1),  # "a hero with Mrl 6 improves to Mrl 5 on a roll of 1-6"
        ("18", "Mrl", 6, 7, "failed", 0),
    ],
)
def test_check_stats_roll_equal_or_under(card_id, stat, value, face, outcome, delta):
    readings = improve(hero(**{stat: value}), Table([card_id], [face]))
    assert outcomes(readings) == [(card_id, outcome, stat, delta)]
    assert readings[0].faces == (face,) and readings[0].target == value


@pytest.mark.parametrize(("card_id", "stat"), [("08", "Def"), ("15", "Agi"), ("18", "Mrl")])
def test_check_stat_at_cap_draws_another_card_without_rolling(card_id, stat):
    """"Should a hero need to make a check to Improve a stat that is already at the Stat ... Cap, draw
    another card from the Improvement Deck instead." (Def, Mel, Rgd, Agi, Mrl: Min 5)"""
    table = Table([card_id, "02"])
    assert outcomes(improve(hero(**{stat: 5}), table)) == [(card_id, "redraw", None, 0), ("02", "improved", "Atk", 1)]
    assert table.rolled == []
    # One above the cap still rolls.
    assert outcomes(improve(hero(**{stat: 6}), Table([card_id], [6]))) == [(card_id, "improved", stat, -1)]


def test_mel_rgd_lets_the_player_pick():
    """"Pick which stat to attempt to improve." — Mel 13 picks Mel, rolls 13: Mel 12 (rules file example)."""
    table = Table(["10"], [13], {"gunnar.1.mel-rgd": "Mel"})
    assert outcomes(improve(hero(Mel=13), table)) == [("10", "improved", "Mel", -1)]
    assert table.asked == [("gunnar.1.mel-rgd", ["Mel", "Rgd"])]
    table = Table(["10"], [14], {"gunnar.1.mel-rgd": "Rgd"})
    assert outcomes(improve(hero(Rgd=13), table)) == [("10", "failed", "Rgd", 0)]


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("Rgd", [("11", "improved", "Rgd", -1)]), (DRAW_AGAIN, [("11", "redraw", None, 0), ("02", "improved", "Atk", 1)])],
)
def test_mel_at_cap_the_player_tries_rgd_or_draws_again(answer, expected):
    """"If a unit's Melee or Ranged is at the Stat Cap, the player has the choice to either attempt to
    Improve the stat not at the Stat Cap, or draw again from the Improvement Deck.\""""
    cards = ["11"] if answer == "Rgd" else ["11", "02"]
    table = Table(cards, [3] if answer == "Rgd" else [], {"gunnar.1.mel-rgd": answer})
    assert outcomes(improve(hero(Mel=5), table)) == expected
    assert table.asked[0] == ("gunnar.1.mel-rgd", ["Rgd", DRAW_AGAIN])


def test_mel_and_rgd_both_at_cap_redraw_and_rgd_dash_offers_mel_only():
    assert outcomes(improve(hero(Mel=5, Rgd=5), Table(["12", "01"]))) == [("12", "redraw", None, 0), ("01", "improved", "Wnd", 1)]
    no_ranged = Unit(name="Gunnar", hero=True, stats={k: v for k, v in CAPTAIN.items() if k != "Rgd"})
    table = Table(["12"], [2], {"gunnar.1.mel-rgd": "Mel"})
    assert outcomes(improve(no_ranged, table)) == [("12", "improved", "Mel", -1)]
    assert table.asked == [("gunnar.1.mel-rgd", ["Mel", DRAW_AGAIN])]


def test_def_dash_redraws_by_default_and_becomes_20_under_the_option():
    no_def = Unit(name="Gunnar", hero=True, stats={k: v for k, v in CAPTAIN.items() if k != "Def"})
    assert outcomes(improve(no_def, Table(["08", "01"]))) == [("08", "redraw", None, 0), ("01", "improved", "Wnd", 1)]
    gains = Options(missing_stat="def-becomes-20")
    assert outcomes(improve(no_def, Table(["08"]), gains)) == [("08", "improved", "Def", 20)]


# --- Skill/Spell ------------------------------------------------------------------------------------


def test_skill_card_notes_a_pending_skill():
    """"that hero can learn a new Skill ... Note it down. At the end of the game, select a new Skill"."""
    assert outcomes(improve(hero(), Table(["05"]))) == [("05", "skill", None, 0)]


def test_skill_card_at_three_learned_skills_draws_again():
    """"The cap of 3 Skills does not include any Skills or Special Rules that the hero starts with.\""""
    at_cap = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=3)
    assert outcomes(improve(at_cap, Table(["06", "01"]))) == [("06", "redraw", None, 0), ("01", "improved", "Wnd", 1)]
    # Two learned and one pending: a hero cannot bank more learnable Skills than the cap (option pending_skills_count).
    banked = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=2, pending=1)
    assert outcomes(improve(banked, Table(["06", "01"])))[0] == ("06", "redraw", None, 0)
    not_counted = Options(pending_skills_count=False)
    assert outcomes(improve(banked, Table(["06"]), not_counted)) == [("06", "skill", None, 0)]


def test_caster_at_skill_cap_still_learns_a_spell_until_none_is_left():
    caster = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=3, spells_left=2)
    assert outcomes(improve(caster, Table(["07"]))) == [("07", "skill", None, 0)]
    spent = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=3, spells_left=1, pending=1)
    assert outcomes(improve(spent, Table(["07", "01"])))[0] == ("07", "redraw", None, 0)


@pytest.mark.parametrize(("learned", "pending", "version_4", "version_3"), [
    (0, 3, "skill", "redraw"),  # 3 Skills and 1 spell to choose from: room for a 4th card
    (2, 1, "skill", "redraw"),  # 1 Skill under the cap and 1 spell: room for a 2nd card
    (2, 2, "redraw", "redraw"),  # the Skill and the spell both taken by the cards pending
    (3, 0, "skill", "skill"),  # at the cap, the spell is left
])
def test_a_casters_card_fits_while_skills_under_the_cap_and_spells_left_exceed_the_cards_pending(
        learned, pending, version_4, version_3):
    """"that hero can learn a new Skill (or Spell if it's a caster)"; spells do not count toward the
    cap of 3 Skills (rules §9.5). A caster with one spell left banks a card whichever it will be."""
    def caster(whole: bool) -> Unit:
        return Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=learned, pending=pending, spells_left=1,
                    whole_skill_room=whole)
    def first(unit: Unit, outcome: str) -> tuple:
        return outcomes(improve(unit, Table(["07"] if outcome == "skill" else ["07", "01"])))[0][:2]
    assert first(caster(True), version_4) == ("07", version_4)
    assert first(caster(False), version_3) == ("07", version_3)  # versions 1-3


def test_a_hero_at_the_cap_is_told_so_before_that_nothing_is_left_to_learn():
    """At the cap its Skill types offer nothing (`learnable` 0 for a hero with no spells)."""
    def at_cap(whole: bool) -> str:
        unit = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=3, learnable=0, whole_skill_room=whole)
        return improve(unit, Table(["05", "01"]))[0].why
    assert at_cap(True) == "already at the Skill cap of 3: draw again"
    # below the cap, the cards pending fill its room: said so, not that it is at the cap
    full = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=0, pending=5, spells_left=2, whole_skill_room=True)
    assert improve(full, Table(["05", "01"]))[0].why == (
        "the 5 Skill/Spell cards pending fill its room (3 Skills under the cap of 3, 2 spells left): draw again")
    assert at_cap(False) == "no Skill or Spell left to learn: as at the Skill cap, draw again"  # versions 2-3


def test_animal_or_large_hero_treats_skill_as_at_cap():
    """"If they draw an Improvement to learn a Skill, treat it as if they are at the Skill Cap and draw another\"."""
    beast = Unit(name="Brute", hero=True, stats=CAPTAIN, animal_or_large=True)
    readings = improve_hero(beast, Table(["05", "06", "02"]).draw, HALVES, CAPS, DEFAULTS, None, None, "brute")
    assert outcomes(readings) == [("05", "redraw", None, 0), ("06", "redraw", None, 0), ("02", "improved", "Atk", 1)]


def test_a_hero_with_nothing_left_to_learn_treats_skill_as_at_cap():
    """As the seed's Animal and Large heroes, who "do not have any learnable Skills. If they draw an
    Improvement to learn a Skill, treat it as if they are at the Skill Cap and draw another": a hero
    whose Skill types hold nothing it lacks (or only what its pending cards will take) draws again
    (version 2; `learnable` None is version 1, which noted a Skill it could never choose)."""
    none_left = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learnable=0)
    assert outcomes(improve(none_left, Table(["05", "01"]))) == [("05", "redraw", None, 0), ("01", "improved", "Wnd", 1)]
    taken_by_pending = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=1, pending=1, learnable=1)
    assert outcomes(improve(taken_by_pending, Table(["05", "01"])))[0] == ("05", "redraw", None, 0)
    one_more = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learned_skills=1, pending=1, learnable=2)
    assert outcomes(improve(one_more, Table(["05"]))) == [("05", "skill", None, 0)]
    version_1 = Unit(name="Gunnar", hero=True, stats=CAPTAIN, learnable=None)
    assert outcomes(improve(version_1, Table(["05"]))) == [("05", "skill", None, 0)]


def test_a_hero_at_every_cap_draws_no_card():
    maxed = Unit(name="Gunnar", hero=True, stats={"Mel": 5, "Rgd": 5, "Def": 5, "Agi": 5, "Mrl": 5, "Wnd": 3,
                                                   "Atk": 3, "Inj": 5, "Prc": 5}, learned_skills=3)
    assert outcomes(improve(maxed, Table([]))) == [(None, "nothing", None, 0)]


def test_improvement_check_uses_base_or_modified_value():
    """"It is still possible to have a modified Stat that could be better than the cap": the check reads the
    base value unless check_against=modified."""
    spear = Unit(name="Gunnar", hero=True, stats=CAPTAIN, modifiers={"Mel": -2})
    answers = {"gunnar.1.mel-rgd": "Mel"}
    assert outcomes(improve(spear, Table(["10"], [11], answers))) == [("10", "improved", "Mel", -1)]
    assert outcomes(improve(spear, Table(["10"], [11], answers), Options(check_against="modified"))) == [
        ("10", "failed", "Mel", 0)]


def test_natural_rolls_option():
    natural = Options(natural_rolls_on_improvement=True)
    assert outcomes(improve(hero(Def=17), Table(["08"], [4]), natural)) == [("08", "failed", "Def", 0)]
    assert outcomes(improve(hero(Def=17), Table(["08"], [20]), natural)) == [("08", "improved", "Def", -1)]


def test_advantage_draws_two_and_keeps_one_or_rolls_two_and_keeps_the_lower():
    table = Table(["08", "02"], [], {"gunnar.1.keep": "02"})
    readings = improve(hero(), table, advantage=True)
    assert outcomes(readings) == [("08", "set-aside", None, 0), ("02", "improved", "Atk", 1)]
    assert table.held == [(), ("08",)]  # the first card is in hand while the second is drawn
    lower = Options(advantage="lower-of-2d20")
    readings = improve(hero(Def=17), Table(["08"], [19, 12]), lower, advantage=True)
    assert outcomes(readings) == [("08", "improved", "Def", -1)] and readings[0].faces == (19, 12)


@pytest.mark.parametrize(("pair_is_one_draw", "keys"), [
    # Version 10: the pair is the 1st draw, the card kept from it is read as that draw, and the next is the 2nd
    (True, ("gunnar.1.keep", "gunnar.1.mel-rgd", "gunnar.2.mel-rgd")),
    # Version 9 read the card kept as a 2nd draw: the one pair's questions had two numbers
    (False, ("gunnar.1.keep", "gunnar.2.mel-rgd", "gunnar.3.mel-rgd")),
])
def test_the_questions_of_an_advantage_pair_are_numbered_as_one_draw(pair_is_one_draw, keys):
    """Gunnar (Mel 5, its cap) draws 10 and 02 with Advantage and keeps 10, Mel/Rgd: he draws again rather than
    try Rgd; then 11, Mel/Rgd again: he tries Rgd and rolls 20, over 12."""
    gunnar = replace(hero(Mel=5), pair_is_one_draw=pair_is_one_draw)
    keep, first, second = keys
    table = Table(["10", "02", "11"], [20], {keep: "10", first: DRAW_AGAIN, second: "Rgd"})
    readings = improve(gunnar, table, advantage=True)
    assert outcomes(readings) == [("02", "set-aside", None, 0), ("10", "redraw", None, 0), ("11", "failed", "Rgd", 0)]
    assert [key for key, _ in table.asked] == list(keys)


def test_henchmen_do_not_make_improvement_attempts():
    with pytest.raises(SpeedheimRuleError, match="only heroes make Improvement Attempts"):
        improve(Unit(name="Rat", hero=False, stats=CAPTAIN), Table([]))


# --- Henchman Promotion -------------------------------------------------------------------------------

HENCHMAN = Unit(name="Rat", hero=False, stats=CAPTAIN)
ANIMAL = Unit(name="Hound", hero=False, stats=CAPTAIN, animal_or_large=True)


@pytest.mark.parametrize(
    ("card_id", "victim", "unit", "promotes"),
    [
        # "Promote! (1 card)" — "occurs even if an Animal or Large Henchman draws it"
        ("01", "henchman", HENCHMAN, True), ("01", "leader", ANIMAL, True),
        # "Promote a non-Animal, non-Large Henchman if the Incapacitated unit is a Hero! (2 cards)"
        ("02", "hero", HENCHMAN, True), ("03", "hero", HENCHMAN, True), ("02", "henchman", HENCHMAN, False),
        ("03", "hero", ANIMAL, False),
        ("02", "leader", HENCHMAN, False),  # a Leader kill does not satisfy the Hero cards (option leader_counts_as_hero)
        # "Promote ... if the Incapacitated unit is a Leader! (3 cards)"
        ("04", "leader", HENCHMAN, True), ("05", "leader", HENCHMAN, True), ("06", "leader", HENCHMAN, True),
        ("04", "hero", HENCHMAN, False), ("05", "henchman", HENCHMAN, False), ("06", "leader", ANIMAL, False),
        # "It will usually be blank"
        ("07", "leader", HENCHMAN, False), ("20", "hero", HENCHMAN, False),
    ],
)
def test_henchman_half(card_id, victim, unit, promotes):
    assert (read_henchman(unit, card(card_id), victim, DEFAULTS).outcome == "promote") is promotes


def test_leader_counts_as_hero_option():
    assert read_henchman(HENCHMAN, card("02"), "leader", Options(leader_counts_as_hero=True)).outcome == "promote"


def test_deck_has_the_seeds_counts():
    cards = DEFAULT_TABLES.deck.cards
    assert len(cards) == 20
    halves = [c.henchman for c in cards]
    assert (halves.count("promote"), halves.count("hero"), halves.count("leader"), halves.count("")) == (1, 2, 3, 14)


# --- The d20 Hero Improvement Table, at the edges of its ranges -----------------------------------------

@pytest.mark.parametrize(
    ("face", "half"),
    [(1, "Mrl"), (3, "Mrl"), (4, "Agi"), (6, "Agi"), (7, "Mel/Rgd"), (11, "Mel/Rgd"), (12, "Def"), (13, "Def"),
     (14, "Skill"), (16, "Skill"), (17, "Inj"), (18, "Prc"), (19, "Atk"), (20, "Wnd")],
)
def test_hero_d20_table(face, half):
    assert d20_row(DEFAULT_TABLES.hero_d20.rows, face).hero == half


@pytest.mark.parametrize(("face", "half"), [(1, ""), (14, ""), (15, "leader"), (17, "leader"), (18, "hero"), (19, "hero"), (20, "promote")])
def test_henchman_d20_odds_are_the_decks(face, half):
    assert d20_row(DEFAULT_TABLES.henchman_d20.rows, face).henchman == half


# --- Promotion and learning ----------------------------------------------------------------------------


@pytest.mark.parametrize(("heroes", "slots", "after", "retire"), [(3, 3, 4, False), (2, 3, 4, False), (5, 6, 6, False), (6, 6, 6, True)])
def test_promotion_adds_a_hero_slot_up_to_six(heroes, slots, after, retire):
    assert (promotion(heroes, slots).slots, promotion(heroes, slots).retire_needed) == (after, retire)


def test_learnable_skills_and_spells():
    lists = DEFAULT_TABLES.skills
    found = learnable(["Defence"], lists.skills, lists.spells, [], ["Taunt"], False)
    assert found == ["Defensive Stance", "Drag You Down", "Protector", "Shield Specialist", "Sturdy"]
    assert learnable(["Defence"], lists.skills, lists.spells, ["Divine Magic"], ["Heal"], True) == [
        "Bless Weapon", "Divine Fervour", "Holy Smite"]
