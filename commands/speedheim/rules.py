"""The pure rules of Speedheim's Improvement & Promotion (seed 000): no ledger, no dice source.

A draw is resolved by `improve_hero` or `read_henchman` over plain data: the unit (`Unit`), the
caps, the campaign's options, and three functions handed in by the caller — `draw()` (the next
card of the Improvement Deck, or a row of the d20 table), `roll(purpose, dice)` (d20 faces) and
`choose(key, prompt, options)`. They return what each card read meant (`Reading`s, redraws
included), so the caller records every card and its consequence.

Rule readings (the seed is the authority; `shared/rules/speedheim.md` fills in the rest):
- "You need to roll equal to or under": one d20, success when the face is ≤ the stat's base
  value (the modified value under `check_against=modified`); success lowers the stat by 1.
- "Should a hero need to make a check to Improve a stat that is already at the Stat (or Skill)
  Cap, draw another card instead" — a W/A/Prc/Inj card at its cap redraws too (option
  `capped_card`), and a stat the hero does not have (`-`) counts as at its cap (`missing_stat`).
- A hero that nothing in the deck could improve draws no card at all: redrawing could not end.
- Spells do not count toward the Skill cap (the seed caps learnable Skills only); a caster's
  Skill/Spell card redraws only when it is at the Skill cap and has no spell left to learn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

from .options import SpeedheimOptions as Options
from .tables import Caps, HenchmanHalf, HeroHalf

UP_STATS = ("Wnd", "Atk", "Prc", "Inj")  # higher is better: +1, no check
CHECK_STATS = ("Def", "Mel", "Rgd", "Agi", "Mrl")  # lower is better: roll-under d20, -1
ZERO_WHEN_MISSING = ("Prc", "Inj")  # "Inj or Prc `-`: the same as 0"
MEL_RGD = "Mel/Rgd"
DRAW_AGAIN = "draw again"
ROLL_AGAIN = "roll again"  # a redraw on the d20 table (`Unit.d20_words`): the table is rolled again


@dataclass(frozen=True)
class Drawing:
    """How a reading words the drawing it came from: a card of the deck, or a row of the d20 table."""

    again: str  # what a redraw does, and the choice offered beside Mel or Rgd
    took: str  # "Gunnar drew Mel/Rgd"
    player_again: str  # "the player draws again instead of trying Mel"
    one: str  # "the card is wasted"
    none: str  # what a hero at every cap is spared


DECK_WORDS = Drawing(DRAW_AGAIN, "drew", "draws again", "card", "no card could improve it, so none is drawn")
TABLE_WORDS = Drawing(ROLL_AGAIN, "rolled", "rolls again", "roll", "no row could improve it, so none is rolled")


def words_of(*, d20: bool) -> Drawing:
    """The words of the d20 table's rows (`d20`), or of the deck's cards."""
    return TABLE_WORDS if d20 else DECK_WORDS


class SpeedheimRuleError(Exception):
    """A refusal of the rules, in words a player understands."""


@dataclass(frozen=True)
class Drawn:
    """One card of the Improvement Deck, or one row of a d20 table, as the rules read it."""

    ref: str  # the card id (`07`) or the table row (`14-16`)
    hero: HeroHalf | None  # None: a row of the henchman d20 table, which has no hero half
    henchman: HenchmanHalf = ""
    deck: str = ""  # where a card came from (empty: a d20 table)
    position: int | None = None  # its place in that deck since the last shuffle, from 1
    roll: int | None = None  # the roll number of a d20 table row


@dataclass(frozen=True)
class Unit:
    """The rules' view of a fighter."""

    name: str
    hero: bool
    stats: Mapping[str, int]  # base values; a `-` stat is absent
    modifiers: Mapping[str, int] = field(default_factory=dict)  # equipment: added for a `modified` check
    animal_or_large: bool = False
    learned_skills: int = 0  # learned Skills (not the starting ones, not spells)
    pending: int = 0  # Skill/Spell cards drawn and not yet chosen
    spells_left: int = 0  # spells of its lists it does not know yet (0 for a non-caster)
    learnable: int | None = None  # the Skills and Spells it may still choose (None: not counted, as version 1 did)
    # Version 4: a Skill/Spell card fits while the Skills left under the cap and the spells left
    # together exceed the cards pending (versions 1-3 asked one or the other alone to), and a hero
    # at the cap is told so before being told nothing is left to learn.
    whole_skill_room: bool = False
    # Version 6: a check's text names the natural roll that decided it (natural_rolls_on_improvement), and a
    # Mel/Rgd card the stat missing (`-`) as missing; version 5 said "over 17" of a natural 3 that failed.
    says_why: bool = False
    # Version 10: an Advantage pair is one draw, whose choices share its number (`hilde.advantage.1.keep`, then
    # `hilde.advantage.1.mel-rgd` for the card kept); version 9 numbered the kept card's as a draw after the pair's.
    pair_is_one_draw: bool = False
    # Version 10, on the d20 table (improvement=d20-table): a reading is worded as the table is played: "roll again"
    # where the deck draws again (and offered so, beside Mel or Rgd), "the roll is wasted", and "no row could improve
    # it, so none is rolled"; version 9 said "draw again", "the card is wasted" and "no card … is drawn" of a table.
    d20_words: bool = False
    # Version 11: a W/A card of a stat the unit lacks (`-`) is read as at its cap under capped_card=wasted too, the
    # card wasted; version 10 draws again, so for it no such card ends a draw (ends_draw): a hero whose deck's only
    # cards ending a draw were such cards drew for ever (a ledger deck reshuffled without end), and draws none.
    missing_is_capped: bool = False

    @property
    def drawing(self) -> Drawing:
        return words_of(d20=self.d20_words)

    def base(self, stat: str) -> int | None:
        if stat in self.stats:
            return self.stats[stat]
        return 0 if stat in ZERO_WHEN_MISSING else None


@dataclass(frozen=True)
class Reading:
    """What one card (or d20 row) meant for the unit."""

    drawn: Drawn | None  # None: no card was drawn (nothing could improve)
    outcome: str  # improved, failed, redraw, skill, nothing, promote, set-aside
    why: str
    stat: str | None = None
    delta: int = 0
    faces: tuple[int, ...] = ()  # the d20 check's faces
    target: int | None = None  # the check's target (roll equal to or under)


class Draw(Protocol):
    """The next card (or d20 row); `held`: cards in hand, which a reshuffle leaves out of the new deck."""

    def __call__(self, held: Sequence[str] = ()) -> Drawn: ...


Roll = Callable[[str, int], list[int]]  # (purpose, number of d20) -> faces
Choose = Callable[[str, str, Sequence[str]], str]  # (answer key, prompt, options) -> option


def _at_cap(unit: Unit, stat: str, caps: Caps) -> bool:
    value = unit.base(stat)
    if value is None:
        return True
    return value >= caps.max[stat] if stat in caps.max else value <= caps.min[stat]


def _nothing_to_learn(unit: Unit) -> bool:
    """Every Skill and Spell it may choose is taken by a card already pending: as at the Skill cap
    (seed: Animal and Large heroes, who have no learnable Skills, "treat it as if they are at the
    Skill Cap and draw another Improvement Card instead")."""
    return unit.learnable is not None and unit.learnable <= unit.pending


def _room_under_cap(unit: Unit, caps: Caps, options: Options) -> bool:
    """Whether a Skill/Spell card can be learned as a Skill under the cap, or as a spell."""
    if unit.whole_skill_room and options.pending_skills_count:
        return max(0, caps.skills - unit.learned_skills) + unit.spells_left > unit.pending
    counted = unit.learned_skills + (unit.pending if options.pending_skills_count else 0)
    return counted < caps.skills or unit.spells_left > unit.pending


def _skill_room(unit: Unit, caps: Caps, options: Options) -> bool:
    return not (unit.animal_or_large or _nothing_to_learn(unit)) and _room_under_cap(unit, caps, options)


def _gains_missing_def(unit: Unit, stat: str, options: Options) -> bool:
    return stat == "Def" and unit.base(stat) is None and options.missing_stat == "def-becomes-20"


def ends_draw(unit: Unit, half: HeroHalf, caps: Caps, options: Options) -> bool:
    """Whether this hero half can end a hero's draw (anything but a forced redraw)."""
    if half == "Skill":
        return _skill_room(unit, caps, options)
    if half == MEL_RGD:
        return not (_at_cap(unit, "Mel", caps) and _at_cap(unit, "Rgd", caps))
    if half in UP_STATS and options.capped_card == "wasted":
        return unit.base(half) is not None or unit.missing_is_capped
    return not _at_cap(unit, half, caps) or _gains_missing_def(unit, half, options)


def can_improve(unit: Unit, halves: Sequence[HeroHalf], caps: Caps, options: Options) -> bool:
    return any(ends_draw(unit, half, caps, options) for half in set(halves))


def check(unit: Unit, stat: str, roll: Roll, options: Options, *, advantage: bool = False) -> Reading:
    """The roll-under improvement check on `stat` (not at its cap)."""
    base = unit.base(stat)
    assert base is not None
    target = base + (unit.modifiers.get(stat, 0) if options.check_against == "modified" else 0)
    two = advantage and options.advantage == "lower-of-2d20"
    faces = roll(f"{unit.name}: improve {stat}, roll {target} or under", 2 if two else 1)
    face = min(faces)
    success = face <= target
    met, missed = f"{target} or under", f"over {target}"
    if options.natural_rolls_on_improvement and face <= 4:
        success, missed = False, "a natural 1-4 fails" if unit.says_why else missed
    elif options.natural_rolls_on_improvement and face == 20:
        success, met = True, "a natural 20 succeeds" if unit.says_why else met
    shown = f"{face}" if len(faces) == 1 else f"{face} (lower of {faces[0]} and {faces[1]})"
    if success:
        return Reading(None, "improved", f"rolled {shown}, {met}: {stat} {base} -> {base - 1}",
                       stat=stat, delta=-1, faces=tuple(faces), target=target)
    return Reading(None, "failed", f"rolled {shown}, {missed}: {stat} stays {base}",
                   stat=stat, faces=tuple(faces), target=target)


def read_hero(unit: Unit, drawn: Drawn, caps: Caps, options: Options, roll: Roll, choose: Choose, key: str,
              *, advantage: bool = False) -> Reading:
    """The hero half of one card for this hero."""
    half = drawn.hero
    if half is None:
        raise SpeedheimRuleError(f"{drawn.ref} has no hero half")

    words = unit.drawing
    again = words.again

    def redraw(why: str) -> Reading:
        return Reading(drawn, "redraw", why)

    if half == "Skill":
        if unit.animal_or_large:
            return redraw(f"Animal and Large heroes have no learnable Skills: as at the Skill cap, {again}")
        at_cap = not _room_under_cap(unit, caps, options)
        if at_cap and unit.whole_skill_room:
            if unit.learned_skills >= caps.skills:
                return redraw(f"already at the Skill cap of {caps.skills}: {again}")
            room = max(0, caps.skills - unit.learned_skills)
            return redraw(f"the {unit.pending} Skill/Spell cards pending fill its room ({room} Skills under the cap of "
                          f"{caps.skills}, {unit.spells_left} spells left): {again}")
        if _nothing_to_learn(unit):
            return redraw(f"no Skill or Spell left to learn: as at the Skill cap, {again}")
        if at_cap:
            return redraw(f"already at the Skill cap of {caps.skills}: {again}")
        return Reading(drawn, "skill", "learns a new Skill (or Spell) at the end of the game")
    if half in UP_STATS:
        value = unit.base(half)
        wasted = f"the {words.one} is wasted" if options.capped_card == "wasted" else None
        if value is None:  # a unit recorded without it (`-`): as a missing stat is read, at its cap (it was exit 70)
            if wasted and unit.missing_is_capped:
                return Reading(drawn, "nothing", f"{half} missing (`-`): as at its cap, {wasted}")
            return redraw(f"{half} missing (`-`): as at its cap, {again}")
        if value >= caps.max[half]:
            if wasted:
                return Reading(drawn, "nothing", f"{half} already at its cap of {caps.max[half]}: {wasted}")
            return redraw(f"{half} already at its cap of {caps.max[half]}: {again}")
        return Reading(drawn, "improved", f"{half} {value} -> {value + 1}", stat=half, delta=1)
    if half == MEL_RGD:
        open_stats = [stat for stat in ("Mel", "Rgd") if not _at_cap(unit, stat, caps)]
        if not open_stats:
            return redraw(f"Mel and Rgd both at their cap (or missing): {again}")
        if len(open_stats) == 2:
            stat = choose(f"{key}.mel-rgd", f"{unit.name} {words.took} Mel/Rgd: which stat to try", ["Mel", "Rgd"])
        else:
            capped = "Rgd" if open_stats == ["Mel"] else "Mel"
            shut = f"{capped} missing (`-`)" if unit.says_why and unit.base(capped) is None else f"{capped} at its cap"
            tried = choose(f"{key}.mel-rgd", f"{unit.name} {words.took} Mel/Rgd with {shut}: try "
                           f"{open_stats[0]} or {again}", [open_stats[0], again])
            if tried == again:
                return redraw(f"{shut}: the player {words.player_again} instead of trying {open_stats[0]}")
            stat = tried
        return _with_card(check(unit, stat, roll, options, advantage=advantage), drawn)
    if _gains_missing_def(unit, half, options):
        return Reading(drawn, "improved", "Def `-` gains a Defence roll: Def 20", stat="Def", delta=20)
    if _at_cap(unit, half, caps):
        shown = "missing (`-`)" if unit.base(half) is None else f"already at its cap of {caps.min[half]}"
        return redraw(f"{half} {shown}: {again}")
    return _with_card(check(unit, half, roll, options, advantage=advantage), drawn)


def _with_card(reading: Reading, drawn: Drawn) -> Reading:
    return replace(reading, drawn=drawn)


def improve_hero(unit: Unit, draw: Draw, halves: Sequence[HeroHalf], caps: Caps, options: Options, roll: Roll,
                 choose: Choose, key: str, *, advantage: bool = False) -> list[Reading]:
    """One Improvement: draw, read the hero half, draw again as the caps demand. `halves` are the
    hero halves the deck (or table) holds, to tell a hero that nothing could improve."""
    if not unit.hero:
        raise SpeedheimRuleError(f"{unit.name} is a henchman: only heroes make Improvement Attempts")
    readings: list[Reading] = []
    while True:
        if not can_improve(unit, halves, caps, options):
            readings.append(Reading(None, "nothing", f"at every cap: {unit.drawing.none}"))
            return readings
        drawn = draw()
        # The draw's number, in its choices' keys: an Advantage pair's card set aside is no draw of its own.
        number = (sum(1 for read in readings if read.outcome != "set-aside") if unit.pair_is_one_draw
                  else len(readings)) + 1
        if advantage and options.advantage == "draw-two-choose-one":
            other = draw((drawn.ref,))  # the first is in hand: not in a deck reshuffled for the second
            keep = choose(f"{key}.{number}.keep", f"{unit.name} has Advantage: keep card "
                          f"{drawn.ref} ({drawn.hero}) or {other.ref} ({other.hero})", [drawn.ref, other.ref])
            kept, dropped = (drawn, other) if keep == drawn.ref else (other, drawn)
            readings.append(Reading(dropped, "set-aside", f"Advantage: card {kept.ref} kept instead"))
            drawn, advantage = kept, False
            if not unit.pair_is_one_draw:
                number += 1
        reading = read_hero(unit, drawn, caps, options, roll, choose, f"{key}.{number}", advantage=advantage)
        readings.append(reading)
        if reading.outcome != "redraw":
            return readings


VICTIM_KINDS = ("leader", "hero", "henchman")


def read_henchman(unit: Unit, drawn: Drawn, victim: str, options: Options) -> Reading:
    """The henchman half: whether this henchman promotes at the end of the battle."""
    if unit.hero:
        raise SpeedheimRuleError(f"{unit.name} is a hero: it reads the hero half")
    half = drawn.henchman
    if half == "promote":
        return Reading(drawn, "promote", "Promote! (any henchman, Animal and Large included)")
    if not half:
        return Reading(drawn, "nothing", "blank henchman half")
    wanted = "Leader" if half == "leader" else "Hero"
    if unit.animal_or_large:
        return Reading(drawn, "nothing", f"promote if a {wanted} was Incapacitated, but not an Animal or Large henchman")
    met = victim == half or (half == "hero" and victim == "leader" and options.leader_counts_as_hero)
    if met:
        return Reading(drawn, "promote", f"promote: it Incapacitated a {victim.capitalize()}")
    return Reading(drawn, "nothing", f"promote only if it Incapacitated a {wanted}; it Incapacitated a {victim}")


class D20Row(Protocol):
    low: int
    high: int


Row = TypeVar("Row", bound=D20Row)


def d20_row(rows: Sequence[Row], face: int) -> Row:
    """The row of a d20 table whose range holds the face."""
    return next(row for row in rows if row.low <= face <= row.high)


MAX_HERO_SLOTS = 6
HERO_SLOT_PRICES = {4: 50, 5: 100, 6: 150}  # Spend Gold: the 4th, 5th and 6th hero slot
IMPROVEMENT_PRICE = 25  # Spend Gold: an Improvement Attempt, once per hero between games


@dataclass(frozen=True)
class Promotion:
    slots: int  # the warband's hero slots afterwards
    retire_needed: bool  # the warband would have more than 6 heroes


def promotion(heroes: int, slots: int) -> Promotion:
    """Resolve Promotions: "Hero slots +1, even if a slot was already empty, up to 6"; over 6 heroes a
    hero is retired or the promotion is lost."""
    return Promotion(slots=min(MAX_HERO_SLOTS, slots + 1), retire_needed=heroes + 1 > MAX_HERO_SLOTS)


def learnable(skill_types: Sequence[str], skill_lists: Mapping[str, Sequence[str]],
              spell_lists: Mapping[str, Sequence[str]], schools: Sequence[str], known: Sequence[str],
              skills_at_cap: bool) -> list[str]:
    """What a pending Skill/Spell may become: Skills of the hero's types (none at the cap) and spells of
    its schools, never one it knows."""
    skills = [] if skills_at_cap else [s for t in skill_types for s in skill_lists.get(t, ())]
    spells = [s for school in schools for s in spell_lists.get(school, ())]
    return [name for name in dict.fromkeys(skills + spells) if name not in known]
