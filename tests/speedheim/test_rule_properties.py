"""Properties of a hero's Improvement over any deck order, dice and choices: "cannot improve past it under any
circumstances" (the caps), every redraw has a reason, and a draw always ends."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commands.speedheim.options import SpeedheimOptions
from commands.speedheim.rules import DRAW_AGAIN, Drawn, Unit, ends_draw, improve_hero, read_hero
from commands.speedheim.tables import DEFAULT_TABLES

CAPS = DEFAULT_TABLES.caps
CARDS = DEFAULT_TABLES.deck.cards
HALVES = [card.hero for card in CARDS]
STATS = {"Wnd": (1, 3), "Atk": (1, 3), "Prc": (0, 5), "Inj": (0, 5), "Def": (5, 20), "Mel": (5, 20), "Rgd": (5, 20),
         "Agi": (5, 20), "Mrl": (5, 20)}

units = st.builds(
    lambda stats, learned, pending, beast: Unit(name="H", hero=True, stats=stats, learned_skills=learned,
                                                pending=pending, animal_or_large=beast),
    st.fixed_dictionaries({stat: st.integers(low, high) for stat, (low, high) in STATS.items()}),
    st.integers(0, 3), st.integers(0, 3), st.booleans(),
)
options = st.builds(SpeedheimOptions, capped_card=st.sampled_from(["redraw", "wasted"]),
                    natural_rolls_on_improvement=st.booleans(), pending_skills_count=st.booleans())


@settings(max_examples=300, deadline=None)
@given(unit=units, option=options, order=st.permutations(range(len(CARDS))), faces=st.lists(st.integers(1, 20), min_size=40,
       max_size=40), picks=st.lists(st.sampled_from(["Mel", "Rgd", DRAW_AGAIN]), min_size=40, max_size=40))
def test_an_improvement_ends_within_the_caps(unit, option, order, faces, picks):
    deck = [CARDS[i] for i in order] * 3  # a hero's redraws may run through the deck and its reshuffles
    drawn, rolled, chosen = iter(deck), iter(faces), iter(picks)

    def draw() -> Drawn:
        card = next(drawn)
        return Drawn(card.id, card.hero, card.henchman)

    def choose(key, prompt, offered):
        pick = next(chosen)
        return pick if pick in offered else offered[0]

    readings = improve_hero(unit, draw, HALVES, CAPS, option, lambda purpose, n: [next(rolled) for _ in range(n)],
                            choose, "h")
    *redraws, last = readings
    assert all(r.outcome == "redraw" and r.why for r in redraws)
    assert last.outcome != "redraw"
    if last.outcome == "improved":
        after = unit.stats[last.stat] + last.delta
        assert after <= CAPS.max[last.stat] if last.stat in CAPS.max else after >= CAPS.min[last.stat]


# Every hero half, for every option that reads it and every state of the stats it names: missing (`-`), at its
# cap, under it; for Skill/Spell cards every count of Skills, cards pending and spells left around the cap.
ALL_HALVES = ["Wnd", "Atk", "Prc", "Inj", "Skill", "Def", "Mel/Rgd", "Agi", "Mrl"]
OPTIONS = [SpeedheimOptions(capped_card=capped, missing_stat=missing, pending_skills_count=counted)
           for capped in ("redraw", "wasted") for missing in ("as-cap", "def-becomes-20") for counted in (True, False)]


def _stat_states(stat: str) -> list[int | None]:
    cap = CAPS.max.get(stat, CAPS.min.get(stat))
    return [None, cap, cap - 1 if stat in CAPS.max else cap + 1]


def _units(half: str, *, missing_is_capped: bool) -> list[Unit]:
    named = ("Mel", "Rgd") if half == "Mel/Rgd" else () if half == "Skill" else (half,)
    stat_sets = [{}]
    for stat in named:
        stat_sets = [{**stats, stat: value} for stats in stat_sets for value in _stat_states(stat)]
    units = []
    for stats in stat_sets:
        present = {stat: value for stat, value in stats.items() if value is not None}
        base = {stat: (high if stat in CAPS.min else low) for stat, (low, high) in STATS.items() if stat not in stats}
        for learned, pending, spells, learnable, beast, whole in itertools.product(
                range(CAPS.skills + 2), range(3), range(3), (None, 0, 1, 2, 3), (False, True), (False, True)):
            units.append(Unit(name="H", hero=True, stats={**base, **present}, learned_skills=learned, pending=pending,
                              spells_left=spells, learnable=learnable, animal_or_large=beast, whole_skill_room=whole,
                              missing_is_capped=missing_is_capped))
    return units


@pytest.mark.parametrize("version", ["10", "11"])
@pytest.mark.parametrize("half", ALL_HALVES)
def test_a_half_ends_a_draw_exactly_when_it_is_read_so(half, version):
    """can_improve reads the deck's halves with ends_draw, improve_hero draws again while a card read says so: where
    the two disagree on any card a deck may hold (a house deck of any halves, the d20 table's rows), a hero whose
    only cards ending a draw are read as redraws draws for ever (a ledger deck reshuffles without end). Version 11:
    a W/A card of a stat the hero lacks under capped_card=wasted is wasted, as at its cap; version 10 draws again, so
    that no such card ends its draw (before, ends_draw counted it, and a hero whose only such cards were those drew
    for ever)."""
    drawn = Drawn("X", half)
    for option in OPTIONS:
        for unit in _units(half, missing_is_capped=version == "11"):
            reading = read_hero(unit, drawn, CAPS, option, lambda purpose, dice: [1] * dice,
                                lambda key, prompt, offered: offered[0], "h.x.1")
            assert ends_draw(unit, half, CAPS, option) == (reading.outcome != "redraw"), (unit, option, reading)


@pytest.mark.parametrize("version", ["10", "11"])
@pytest.mark.parametrize("halves", [[half] for half in ALL_HALVES] + [["Wnd", "Atk", "Def"]])
def test_an_improvement_over_a_house_deck_ends_within_one_pass_of_it(halves, version):
    """A house deck of these halves drawn again and again: an attempt ends before a second pass through it."""
    for option in OPTIONS:
        for unit in _units(halves[0], missing_is_capped=version == "11"):
            cards = itertools.cycle(Drawn(str(n), half) for n, half in enumerate(halves))
            draws = []

            def draw(held=()):
                assert len(draws) <= 2 * len(halves), f"{unit} draws for ever under {option}"
                draws.append(next(cards))
                return draws[-1]

            improve_hero(unit, draw, halves, CAPS, option, lambda purpose, dice: [1] * dice,
                         lambda key, prompt, offered: offered[0], "h.x")
            assert len(draws) <= len(halves), (unit, option)
