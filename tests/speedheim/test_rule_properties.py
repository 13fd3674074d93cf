"""Properties of a hero's Improvement over any deck order, dice and choices: "cannot improve past it under any
circumstances" (the caps), every redraw has a reason, and a draw always ends."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from commands.speedheim.options import SpeedheimOptions
from commands.speedheim.rules import DRAW_AGAIN, Drawn, Unit, improve_hero
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
