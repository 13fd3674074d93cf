"""Coreheim's post-game rules as pure functions.

No I/O, no randomness, no clock: every die is a parameter (faces already rolled) and every
player decision is a parameter. When a rule needs a roll or a decision it was not given,
the result lists it as ``pending`` (a RollRequest or ChoiceRequest) so a later layer can
roll/ask and call again. A refusal raises CoreheimRuleError with a message for players.

Decisions taken where the seed and shared/rules/coreheim.md are silent:

- Exploration: with seven or more dice the player keeps exactly six (the kept dice are
  "your result"; keeping fewer could only shrink a set of multiples, which the chart does
  not intend). Dice to discard (Mordheim Survivor, Bionic Eye) are dropped first.
  Multiples are read from the kept dice only. With no dice, no shards.
- A set of multiples is all kept dice showing one face (5 5 5 is a triple, never a double).
- D3 rolls are given as their D3 value (1-3); the dice layer halves the D6.
- Heroes cannot die in the warband's first two games: the battle being resolved is the
  warband's game number ``warband_game_number`` (1-based) and Dead counts as Multiple
  Injuries when it is 1 or 2. That protection is checked before Shackles, so a protected
  hero does not use up the enemy's Shackles. Vampire "Immortal" works the same way.
- Dead warriors earn no experience at all (no deeds, no leader's bonus). Henchman groups
  are one participant: "survived" means at least one member survived.
- Advances: an advance that would pass the racial maximum (or a henchman's second advance
  of one characteristic) is re-rolled, also for "I two steps" when only one step is left.
  When no row of the table could ever apply, the advance is lost instead of re-rolling
  forever. A group's voluntary re-roll (2+ members) replaces the first roll; forced
  re-rolls still apply to the second.
- Talent!: a further Talent! in the same post-game is re-rolled (as original Mordheim).
  Middenheim's extra Strength list comes on top of the two lists chosen, which must
  therefore be other lists. The lists "open to the warband" are the union of its hero
  types' lists plus the variant's optional promoted lists (Marienburg: Rogue).
- Wyrdstone: at most the table's largest row (8 shards) sold per post-game; the rest stays
  in store. Warband size counts warriors and animals, never Hired Swords.
- Selling a dice-priced item ("40+2D6") gives half its fixed part; an item with no price
  cannot be sold until a house rule prices it.
- Rare items: one search per hero per post-game; only heroes not taken out of action.
- Underdog: with several opponents the reference is the second-highest rating among all
  warbands in the battle; a negative gap is no gap.
- Casual-mode rating: animals and monsters count like henchmen (5).
- Not modelled here: Cabal Ritual, Daemon Soul, Smuggler, drug side effects, leader
  succession; the command layer records those by hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import Literal, Union

import msgspec

from commands.coreheim.tables import (
    AdvanceRow,
    AdvanceTable,
    Captured,
    CoreheimTables,
    Dead,
    Effect,
    ExplorationDice,
    FreeHenchman,
    FreeHiredSword,
    FreeUnit,
    GainGold,
    GainItem,
    GainShards,
    GainSkill,
    GainXp,
    Hatred,
    HenchmanInjuryTable,
    HeroInjuryRoll,
    HeroInjuryRow,
    HireOption,
    InjuryReroll,
    LeaderTest,
    LoseItem,
    MissGame,
    MultipleInjuries,
    MultiplesEntry,
    MultiplesVariant,
    PlayerOption,
    RaceMaximums,
    Robbed,
    RollTable,
    ShardsRow,
    SkillAdvance,
    StatAdvance,
    StatChange,
    Fight,
    TalentAdvance,
    UnderdogRow,
    Warband,
    WarbandVariant,
    WyrdstoneSaleRow,
    dice_spec,
)


class CoreheimRuleError(ValueError):
    """The rules refuse this: the message says why, in the players' words."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """Base for the values these functions return."""


class RollRequest(Result):
    id: str
    dice: str
    purpose: str


class ChoiceRequest(Result):
    id: str
    question: str


Pending = Union[RollRequest, ChoiceRequest]

STATS = ("M", "A", "W", "T", "WS", "BS", "I", "Ld")
HIGHER_IS_BETTER = frozenset({"M", "A", "W"})


class Characteristics(Result):
    """A profile in v10 terms: WS/BS/I/Ld are D12 targets (6 means 6+), T is a modifier."""

    M: int | None
    A: int | None
    W: int | None
    T: int | None
    WS: int | None
    BS: int | None
    I: int | None  # noqa: E741 - the game's own abbreviation for Initiative
    Ld: int | None


def _check_faces(faces: Sequence[int], sides: int, what: str) -> None:
    for face in faces:
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise CoreheimRuleError(f"{what}: {face!r} is not a face of a D{sides}")


def d66_value(tens: int, units: int) -> int:
    """D66 reads two D6 as tens and units (3 then 5 is 35), never as a sum."""
    _check_faces((tens, units), 6, "D66")
    return tens * 10 + units


def passes_test(face: int, target: int) -> bool:
    """A characteristic test: D12 >= target; a natural 12 always passes, a 1 always fails."""
    _check_faces((face,), 12, "Characteristic test")
    return face == 12 or (face != 1 and face >= target)


def _show(stat: str, value: int | None) -> str:
    if value is None:
        return "-"
    if stat in ("WS", "BS", "I", "Ld"):
        return f"{value}+"
    if stat == "T":
        return f"{value:+d}"
    return str(value)


# === Exploration ======================================================================


class MultipleSet(Result):
    face: int
    count: int


class ShardsFound(Result):
    total: int
    shards: int
    row_id: str | None


def exploration_dice_count(heroes_on_roster: int, *, won: bool, extra_dice: int = 0) -> int:
    """One D6 per hero (taken out of action or not), +1 for winning, + scenario/skill extras."""
    if heroes_on_roster < 0 or extra_dice < 0:
        raise CoreheimRuleError("Hero and extra dice counts cannot be negative")
    return heroes_on_roster + (1 if won else 0) + extra_dice


def keep_exploration_dice(
    rolled: Sequence[int],
    keep: Sequence[int] | None = None,
    *,
    discard: int = 0,
    tables: CoreheimTables,
) -> tuple[int, ...]:
    """The dice that form the exploration result.

    ``keep`` lists the faces the player keeps. It is needed when more than six dice remain
    after ``discard`` dice are dropped; otherwise all remaining dice are kept.
    """
    _check_faces(rolled, 6, "Exploration dice")
    limit = tables.shards.max_kept_dice
    if discard < 0 or discard > len(rolled):
        raise CoreheimRuleError(f"Cannot discard {discard} of {len(rolled)} exploration dice")
    remaining = len(rolled) - discard
    needed = min(limit, remaining)
    if keep is None:
        if discard or remaining > limit:
            raise CoreheimRuleError(
                f"{len(rolled)} exploration dice were rolled; choose the {needed} to keep"
            )
        return tuple(rolled)
    if len(keep) != needed:
        raise CoreheimRuleError(
            f"Keep exactly {needed} of the {len(rolled)} exploration dice, not {len(keep)}"
        )
    missing = Counter(keep) - Counter(rolled)
    if missing:
        raise CoreheimRuleError(
            f"Cannot keep {sorted(missing.elements())}: the dice rolled were {list(rolled)}"
        )
    return tuple(keep)


def shards_found(kept: Sequence[int], *, tables: CoreheimTables) -> ShardsFound:
    """Total of the kept dice looked up on the shards table."""
    _check_faces(kept, 6, "Exploration dice")
    total = sum(kept)
    if not kept:
        return ShardsFound(total=0, shards=0, row_id=None)
    row = shards_row(total, tables=tables)
    return ShardsFound(total=total, shards=row.shards, row_id=row.id)


def shards_row(total: int, *, tables: CoreheimTables) -> ShardsRow:
    for row in tables.shards.rows:
        if row.min_total <= total and (row.max_total is None or total <= row.max_total):
            return row
    raise CoreheimRuleError(f"No shards row covers a total of {total}")


def find_multiples(kept: Sequence[int]) -> tuple[MultipleSet, ...]:
    """Every set of two or more kept dice showing the same face, by face."""
    _check_faces(kept, 6, "Exploration dice")
    counts = Counter(kept)
    return tuple(
        MultipleSet(face=face, count=count) for face, count in sorted(counts.items()) if count >= 2
    )


def choose_multiple(
    sets: Sequence[MultipleSet], chosen: MultipleSet | None = None
) -> MultipleSet | None:
    """The one set of multiples that counts: the only one, or the player's pick of several."""
    if not sets:
        if chosen is not None:
            raise CoreheimRuleError("No doubles, triples, etc. were rolled")
        return None
    if chosen is None:
        if len(sets) > 1:
            shown = ", ".join(_show_set(s) for s in sets)
            raise CoreheimRuleError(f"Several sets of multiples ({shown}); choose one")
        return sets[0]
    if chosen not in sets:
        shown = ", ".join(_show_set(s) for s in sets)
        raise CoreheimRuleError(f"{_show_set(chosen)} was not rolled; the sets are {shown}")
    return chosen


def _show_set(multiple: MultipleSet) -> str:
    return " ".join([str(multiple.face)] * multiple.count)


def multiples_entry(chosen: MultipleSet, *, tables: CoreheimTables) -> MultiplesEntry:
    for entry in tables.multiples.entries:
        if (entry.face, entry.count) == (chosen.face, chosen.count):
            return entry
    raise CoreheimRuleError(f"The exploration chart has no entry for {_show_set(chosen)}")


def multiples_variant(entry: MultiplesEntry, warband: str) -> MultiplesVariant:
    """The entry's result for this warband, or the one for every other warband."""
    for variant in entry.variants:
        if warband in variant.warbands:
            return variant
    return next(variant for variant in entry.variants if not variant.warbands)


class GoldGained(Result):
    source: str
    amount: int


class FreeHiredSwordGained(Result):
    source: str


Outcome = Union[
    GoldGained, FreeHiredSwordGained, GainItem, LoseItem, GainShards, GainXp, GainSkill,
    MissGame, FreeUnit, FreeHenchman, HireOption, ExplorationDice, HeroInjuryRoll, Dead,
    Captured, Robbed, StatChange, Hatred, MultipleInjuries, InjuryReroll,
]


class Resolution(Result):
    """What a table entry did. Use ``outcomes`` only once ``pending`` is empty."""

    outcomes: tuple[Outcome, ...]
    rows_used: tuple[str, ...]
    pending: tuple[Pending, ...]

    @property
    def complete(self) -> bool:
        return not self.pending


class _EffectResolver:
    """Walks a list of effects, spending the given rolls and choices by id."""

    def __init__(
        self,
        *,
        warband: str,
        leader_ld: int | None,
        rolls: Mapping[str, Sequence[int]],
        choices: Mapping[str, bool],
        tables: CoreheimTables,
    ) -> None:
        self.warband = warband
        self.leader_ld = leader_ld
        self.rolls = rolls
        self.choices = choices
        self.tables = tables
        self.outcomes: list[Outcome] = []
        self.rows_used: list[str] = []
        self.pending: list[Pending] = []
        self.used: set[str] = set()

    def roll(self, roll_id: str, dice: str, purpose: str) -> tuple[int, ...] | None:
        if roll_id not in self.rolls:
            self.pending.append(RollRequest(id=roll_id, dice=dice, purpose=purpose))
            return None
        count, sides = dice_spec(dice)
        faces = tuple(self.rolls[roll_id])
        if len(faces) != count:
            raise CoreheimRuleError(f"{purpose} needs {dice}: {count} dice, not {len(faces)}")
        _check_faces(faces, sides, purpose)
        self.used.add(roll_id)
        return faces

    def choice(self, choice_id: str, question: str) -> bool | None:
        if choice_id not in self.choices:
            self.pending.append(ChoiceRequest(id=choice_id, question=question))
            return None
        self.used.add(choice_id)
        return bool(self.choices[choice_id])

    def run(self, effects: Sequence[Effect]) -> None:
        for effect in effects:
            self.effect(effect)

    def effect(self, effect: Effect) -> None:
        match effect:
            case GainGold(dice=None):
                self.outcomes.append(GoldGained(source=effect.id, amount=effect.fixed))
            case GainGold(dice=str(dice)):
                faces = self.roll(effect.id, dice, f"Gold found ({dice})")
                if faces is not None:
                    amount = effect.fixed + effect.multiplier * sum(faces)
                    self.outcomes.append(GoldGained(source=effect.id, amount=amount))
            case GainItem():
                self.outcomes.append(effect)
                item = next(i for i in self.tables.equipment.items if i.id == effect.item)
                self.run(item.on_gain)
            case PlayerOption():
                if self.choice(effect.id, effect.question):
                    self.rows_used.append(f"{effect.id}:yes")
                    self.run(effect.effects)
            case RollTable():
                faces = self.roll(effect.id, effect.dice, f"exploration chart follow-up {effect.id}")
                if faces is not None:
                    row = next(r for r in effect.rows if r.min <= faces[0] <= r.max)
                    self.rows_used.append(row.id)
                    self.run(row.effects)
            case LeaderTest():
                self.leader_test(effect)
            case Fight():
                won = self.choice(effect.id, f"Did the hero win the fight against the {effect.opponent}?")
                if won is not None:
                    self.rows_used.append(f"{effect.id}:{'won' if won else 'lost'}")
                    self.run(effect.won if won else effect.lost)
            case FreeHiredSword():
                free_slot = self.choice(effect.id, "Does the warband have a free Hired Sword slot?")
                if free_slot:
                    self.outcomes.append(FreeHiredSwordGained(source=effect.id))
                elif free_slot is not None:
                    self.run(effect.no_free_slot)
            case _:
                self.outcomes.append(effect)

    def leader_test(self, test: LeaderTest) -> None:
        if self.warband in test.auto_pass_warbands:
            passed: bool | None = True
        else:
            faces = self.roll(test.id, "D12", f"Leader's {test.stat} test")
            if faces is None:
                return
            if self.leader_ld is None:
                raise CoreheimRuleError(f"The leader's {test.stat} is needed for this test")
            passed = passes_test(faces[0], self.leader_ld)
        self.rows_used.append(f"{test.id}:{'passed' if passed else 'failed'}")
        self.run(test.passed if passed else test.failed)

    def result(self) -> Resolution:
        if not self.pending:
            unused = (set(self.rolls) | set(self.choices)) - self.used
            if unused:
                raise CoreheimRuleError(f"These rolls or choices were not needed: {sorted(unused)}")
        return Resolution(
            outcomes=tuple(self.outcomes),
            rows_used=tuple(self.rows_used),
            pending=tuple(self.pending),
        )


def resolve_multiples(
    chosen: MultipleSet,
    *,
    warband: str,
    rolls: Mapping[str, Sequence[int]] | None = None,
    choices: Mapping[str, bool] | None = None,
    leader_ld: int | None = None,
    tables: CoreheimTables,
) -> Resolution:
    """Resolve a set of multiples on the exploration chart.

    ``rolls`` and ``choices`` are keyed by the ids found in ``pending`` of an earlier call
    (e.g. ``{"multiples:4x2:d6": [2], "multiples:4x2:d6:1-3:gold": [5]}``).
    ``rows_used`` starts with the chart entry and its warband variant.
    """
    entry = multiples_entry(chosen, tables=tables)
    variant = multiples_variant(entry, warband)
    resolver = _EffectResolver(
        warband=warband, leader_ld=leader_ld, rolls=rolls or {}, choices=choices or {}, tables=tables
    )
    resolver.rows_used += [entry.id, variant.id]
    resolver.run(variant.effects)
    return resolver.result()


# === Injuries =========================================================================


class HenchmanInjury(Result):
    row_id: str
    dead: bool
    gear_lost: bool


def resolve_henchman_injury(
    face: int, *, marienburg_hired_sword: bool = False, tables: CoreheimTables
) -> HenchmanInjury:
    """D12 for a henchman, mount or Hired Sword taken out of action: 1-4 dead, 5-12 survives.
    A dead warrior's weapons, armour and equipment are lost with him."""
    table: HenchmanInjuryTable = tables.henchman_injury
    _check_faces((face,), dice_spec(table.die)[1], "Henchman injury")
    rows = table.marienburg_hired_sword_rows if marienburg_hired_sword else table.rows
    row = next(r for r in rows if r.min <= face <= r.max)
    dead = row.result == "dead"
    return HenchmanInjury(row_id=row.id, dead=dead, gear_lost=dead)


class InjuryRoll(Result):
    """One D66: the row rolled, the result that counted (``row_applied`` differs from
    ``row_id`` when Dead became Multiple Injuries or Captured), and what that result did."""

    d66: int
    row_id: str
    result: str
    counted: bool
    note: str = ""
    row_applied: str = ""
    outcomes: tuple[Outcome, ...] = ()


class HeroInjuryResolution(Result):
    rolls: tuple[InjuryRoll, ...]
    outcomes: tuple[Outcome, ...]
    rows_used: tuple[str, ...]
    pending: tuple[Pending, ...]
    shackles_used: bool = False

    @property
    def complete(self) -> bool:
        return not self.pending

    @property
    def dead(self) -> bool:
        return any(isinstance(outcome, Dead) for outcome in self.outcomes)


def hero_injury_row(d66: int, *, tables: CoreheimTables) -> HeroInjuryRow:
    for row in tables.hero_injury.rows:
        if d66 in row.d66:
            return row
    raise CoreheimRuleError(f"{d66} is not a D66 result")


def _row_with_result(result: str, tables: CoreheimTables) -> HeroInjuryRow:
    return next(row for row in tables.hero_injury.rows if row.result == result)


def resolve_hero_injury(
    rolls: Sequence[tuple[int, int]],
    *,
    hero: str,
    warband_game_number: int,
    pit_fight_won: bool | None = None,
    enemy_has_shackles: bool = False,
    immortal: bool = False,
    tables: CoreheimTables,
) -> HeroInjuryResolution:
    """Serious injuries for a hero taken out of action.

    ``rolls`` are D66 rolls as (tens, units), in the order rolled: the first roll, then
    the Multiple Injuries rolls and any re-rolls. Multiple Injuries rolls 4 more times,
    re-rolling Dead, Captured, Sold to the Pits and Multiple Injuries. In the warband's
    first two games Dead is treated as Multiple Injuries.
    """
    if warband_game_number < 1:
        raise CoreheimRuleError("The warband's game number starts at 1")
    results: list[InjuryRoll] = []
    outcomes: list[Outcome] = []
    rows_used: list[str] = []
    shackles_used = False
    # Each slot is one injury still to roll, with the results that must be re-rolled.
    slots: list[frozenset[str]] = [frozenset()]
    position = 0

    def pending_roll() -> HeroInjuryResolution:
        request = RollRequest(
            id=f"hero-injury:{hero}:roll-{position + 1}", dice="D66", purpose=f"Serious injury for {hero}"
        )
        return HeroInjuryResolution(
            rolls=tuple(results), outcomes=tuple(outcomes), rows_used=tuple(rows_used),
            pending=(request,), shackles_used=shackles_used,
        )

    while slots:
        rerolled = slots.pop(0)
        while True:
            if position >= len(rolls):
                slots.insert(0, rerolled)
                return pending_roll()
            d66 = d66_value(*rolls[position])
            position += 1
            row = hero_injury_row(d66, tables=tables)
            if row.result in rerolled:
                results.append(InjuryRoll(d66=d66, row_id=row.id, result=row.result, counted=False,
                                          note=f"{row.name} is re-rolled here"))
                continue
            break
        rolled_row, note = row, ""
        if row.result == "dead":
            if warband_game_number <= 2 or immortal:
                why = f"game {warband_game_number} of the warband" if warband_game_number <= 2 else "Immortal"
                note = f"Dead counts as Multiple Injuries ({why})"
                row = _row_with_result("multiple-injuries", tables)
            elif enemy_has_shackles and not shackles_used:
                note = "Dead becomes Captured (enemy Shackles)"
                shackles_used = True
                row = _row_with_result("captured", tables)
        results.append(InjuryRoll(d66=d66, row_id=rolled_row.id, result=row.result, counted=True, note=note,
                                  row_applied=row.id))
        rows_used.append(row.id)
        choices = {} if pit_fight_won is None else {fight.id: pit_fight_won for fight in _fights(row)}
        resolver = _EffectResolver(warband="", leader_ld=None, rolls={}, choices=choices, tables=tables)
        resolver.run(row.effects)
        rows_used += resolver.rows_used
        if resolver.pending:
            return HeroInjuryResolution(
                rolls=tuple(results), outcomes=tuple(outcomes), rows_used=tuple(rows_used),
                pending=tuple(resolver.pending), shackles_used=shackles_used,
            )
        applied = []
        for outcome in resolver.outcomes:
            if isinstance(outcome, MultipleInjuries):
                slots += [frozenset(outcome.reroll_results)] * outcome.rolls
            elif isinstance(outcome, InjuryReroll):
                slots.insert(0, frozenset(outcome.reroll_results))
            else:
                applied.append(outcome)
        outcomes += applied
        results[-1] = msgspec.structs.replace(results[-1], outcomes=tuple(applied))
    if position < len(rolls):
        raise CoreheimRuleError(
            f"{hero}'s injuries needed {position} D66 rolls, but {len(rolls)} were given"
        )
    if pit_fight_won is not None and not any(rid.endswith((":won", ":lost")) for rid in rows_used):
        raise CoreheimRuleError(f"{hero} was not sold to the pits; there is no pit fight result")
    return HeroInjuryResolution(
        rolls=tuple(results), outcomes=tuple(outcomes), rows_used=tuple(rows_used),
        pending=(), shackles_used=shackles_used,
    )


def _fights(row: HeroInjuryRow) -> list[Fight]:
    return [effect for effect in row.effects if isinstance(effect, Fight)]


# === Experience =======================================================================

Role = Literal["hero", "henchman-group", "hired-sword", "animal", "monster"]


class BattleParticipant(Result):
    name: str
    role: Role
    survived: bool
    is_leader: bool = False
    enemies_out_of_action: int = 0
    downed_enemy_hero_or_large_creature: bool = False
    gains_xp: bool = True


class XpAward(Result):
    fighter: str
    amount: int
    reason: Literal["survived", "enemies-out-of-action", "leader-won", "scenario", "henchman-deed"]


def battle_xp_awards(
    participants: Sequence[BattleParticipant],
    *,
    won: bool,
    scenario_awards: Mapping[str, int] | None = None,
    henchman_deed_xp: bool = False,
) -> tuple[XpAward, ...]:
    """Experience for one warband's battle.

    +1 to each survivor (even if taken out of action), +1 per enemy a hero or Hired Sword
    took out of action, +1 to the leader if the warband won, plus the scenario's awards.
    ``henchman_deed_xp`` switches on 6.1's +1 for henchmen who took out an enemy hero or
    large creature (off by default: the seed leaves such XP to the scenario).
    Animals, monsters and warriors that gain no experience (Zombies) get nothing.
    """
    names = [p.name for p in participants]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise CoreheimRuleError(f"{', '.join(repeated)} listed twice")
    leaders = [p for p in participants if p.is_leader]
    if len(leaders) > 1:
        raise CoreheimRuleError(f"Only one leader: {', '.join(p.name for p in leaders)}")
    if leaders and leaders[0].role != "hero":
        raise CoreheimRuleError(f"{leaders[0].name} is not a hero and cannot lead")
    by_name = {p.name: p for p in participants}
    awards: list[XpAward] = []
    for p in participants:
        if p.enemies_out_of_action < 0:
            raise CoreheimRuleError(f"{p.name} cannot take out a negative number of enemies")
        if not p.survived or not p.gains_xp or p.role in ("animal", "monster"):
            continue
        awards.append(XpAward(fighter=p.name, amount=1, reason="survived"))
        if p.role in ("hero", "hired-sword") and p.enemies_out_of_action:
            awards.append(XpAward(fighter=p.name, amount=p.enemies_out_of_action, reason="enemies-out-of-action"))
        if p.role == "henchman-group" and henchman_deed_xp and p.downed_enemy_hero_or_large_creature:
            awards.append(XpAward(fighter=p.name, amount=1, reason="henchman-deed"))
        if p.is_leader and won:
            awards.append(XpAward(fighter=p.name, amount=1, reason="leader-won"))
    for name, amount in (scenario_awards or {}).items():
        participant = by_name.get(name)
        if participant is None:
            raise CoreheimRuleError(f"{name} did not take part in this battle")
        if not participant.survived:
            raise CoreheimRuleError(f"{name} died and cannot gain experience")
        if not participant.gains_xp or participant.role in ("animal", "monster"):
            raise CoreheimRuleError(f"{name} never gains experience")
        if amount < 1:
            raise CoreheimRuleError(f"A scenario award to {name} must be at least 1 XP")
        awards.append(XpAward(fighter=name, amount=amount, reason="scenario"))
    return tuple(awards)


AdvanceKind = Literal["hero", "henchman", "hired-sword"]


def advance_thresholds_crossed(
    old_xp: int, new_xp: int, *, kind: AdvanceKind, tables: CoreheimTables
) -> tuple[int, ...]:
    """Thresholds reached in this post-game: one advance roll each. XP a warrior started
    with is ``old_xp`` at his first battle, so it triggers nothing."""
    if old_xp < 0 or new_xp < old_xp:
        raise CoreheimRuleError(f"Experience cannot go from {old_xp} to {new_xp}")
    thresholds = getattr(tables.xp_thresholds, kind.replace("-", "_"))
    return tuple(t for t in thresholds if old_xp < t <= new_xp)


def advance_table(kind: AdvanceKind, *, tables: CoreheimTables) -> AdvanceTable:
    """Hired Swords use the henchman thresholds but roll on the hero table."""
    return tables.henchman_advances if kind == "henchman" else tables.hero_advances


class StatImproved(Result):
    stat: str
    delta: int
    old: int
    new: int


class NewSkill(Result):
    spell_instead_for_wizards: bool


class Talent(Result):
    pass


class NoAdvancePossible(Result):
    reason: str


class AdvanceRoll(Result):
    face: int
    row_id: str
    outcome: str


class AdvanceResolution(Result):
    rolls: tuple[AdvanceRoll, ...]
    advance: StatImproved | NewSkill | Talent | NoAdvancePossible | None
    pending: tuple[Pending, ...]

    @property
    def complete(self) -> bool:
        return not self.pending


def race_maximums(race: str, *, tables: CoreheimTables) -> RaceMaximums:
    for row in tables.max_characteristics.races:
        if row.race == race:
            return row
    known = ", ".join(row.race for row in tables.max_characteristics.races)
    raise CoreheimRuleError(f"No maximum characteristics for race {race!r}; races are {known}")


def _stat_refusal(
    stat: str, delta: int, current: Characteristics, maximums: RaceMaximums, race: str
) -> str | None:
    value = getattr(current, stat)
    maximum = getattr(maximums, stat)
    if value is None or maximum is None:
        return f"{stat} cannot be improved"
    new = value + delta
    too_far = new > maximum if stat in HIGHER_IS_BETTER else new < maximum
    if too_far:
        return f"{stat} {_show(stat, value)} would pass the {race} maximum {_show(stat, maximum)}"
    return None


class _AdvanceRules:
    """How one warrior may use an advance table row: ``refusal`` says why a row must be
    re-rolled (None if it can apply), ``apply`` gives its result once rolled."""

    def __init__(
        self,
        *,
        fighter: str,
        characteristics: Characteristics,
        race: str,
        already_advanced: Collection[str],
        stat_choice: str | None,
        talent_allowed: bool,
        skills_allowed: bool,
        tables: CoreheimTables,
    ) -> None:
        self.fighter = fighter
        self.characteristics = characteristics
        self.race = race
        self.maximums = race_maximums(race, tables=tables)
        self.already_advanced = already_advanced
        self.stat_choice = stat_choice
        self.talent_allowed = talent_allowed
        self.skills_allowed = skills_allowed

    def stat_refusals(self, advance: StatAdvance) -> dict[str, str]:
        refusals = {}
        for stat in advance.stats:
            if stat in self.already_advanced:
                refusals[stat] = f"{stat} was already improved once"
            else:
                refusal = _stat_refusal(stat, advance.delta, self.characteristics, self.maximums, self.race)
                if refusal:
                    refusals[stat] = refusal
        return refusals

    def refusal(self, row: AdvanceRow) -> str | None:
        match row.advance:
            case StatAdvance() as advance:
                refusals = self.stat_refusals(advance)
                return "; ".join(refusals.values()) if len(refusals) == len(advance.stats) else None
            case TalentAdvance():
                return None if self.talent_allowed else "Talent! cannot come up again this post-game"
            case SkillAdvance():
                return None if self.skills_allowed else "henchmen do not learn skills"

    def apply(self, row: AdvanceRow) -> StatImproved | NewSkill | Talent | ChoiceRequest:
        match row.advance:
            case StatAdvance() as advance:
                return self.apply_stat(row, advance)
            case TalentAdvance():
                return Talent()
            case SkillAdvance() as advance:
                return NewSkill(spell_instead_for_wizards=advance.spell_instead_for_wizards)

    def apply_stat(self, row: AdvanceRow, advance: StatAdvance) -> StatImproved | ChoiceRequest:
        refusals = self.stat_refusals(advance)
        open_stats = [stat for stat in advance.stats if stat not in refusals]
        choice = self.stat_choice
        if len(open_stats) > 1 and choice is None:
            return ChoiceRequest(id=row.id, question=f"Which does {self.fighter} improve: {' or '.join(open_stats)}?")
        if choice is not None and choice in refusals:
            raise CoreheimRuleError(f"{self.fighter} cannot take {choice}: {refusals[choice]}; take {open_stats[0]}")
        if choice is not None and choice not in open_stats and len(open_stats) > 1:
            raise CoreheimRuleError(f"{self.fighter} must choose {' or '.join(open_stats)}, not {choice}")
        stat = choice if choice in open_stats else open_stats[0]
        old = getattr(self.characteristics, stat)
        return StatImproved(stat=stat, delta=advance.delta, old=old, new=old + advance.delta)


def _resolve_advance_rolls(
    faces: Sequence[int],
    table: AdvanceTable,
    rules: _AdvanceRules,
    *,
    group_reroll: bool,
) -> AdvanceResolution:
    fighter = rules.fighter
    count, sides = dice_spec(table.die)
    if count != 1:
        raise CoreheimRuleError(f"Advance tables rolled with {table.die} need a house-rule reader")
    _check_faces(faces, sides, f"Advance roll for {fighter}")
    refusals = [rules.refusal(row) for row in table.rows]
    if all(refusals):
        reason = "; ".join(sorted(set(refusals)))
        return AdvanceResolution(rolls=(), advance=NoAdvancePossible(reason=reason), pending=())
    rolls: list[AdvanceRoll] = []
    for index, face in enumerate(faces):
        row = next(r for r in table.rows if r.min <= face <= r.max)
        if index == 0 and group_reroll:
            rolls.append(AdvanceRoll(face=face, row_id=row.id, outcome="re-rolled by the group's choice"))
            continue
        refusal = rules.refusal(row)
        if refusal:
            rolls.append(AdvanceRoll(face=face, row_id=row.id, outcome=f"re-rolled: {refusal}"))
            continue
        if index != len(faces) - 1:
            raise CoreheimRuleError(f"{fighter}'s advance was settled by roll {index + 1}; extra dice given")
        verdict = rules.apply(row)
        if isinstance(verdict, ChoiceRequest):
            return AdvanceResolution(rolls=tuple(rolls), advance=None, pending=(verdict,))
        rolls.append(AdvanceRoll(face=face, row_id=row.id, outcome="applied"))
        return AdvanceResolution(rolls=tuple(rolls), advance=verdict, pending=())
    request = RollRequest(id=f"advance:{fighter}:roll-{len(faces) + 1}", dice=table.die, purpose=f"Advance for {fighter}")
    return AdvanceResolution(rolls=tuple(rolls), advance=None, pending=(request,))


def resolve_hero_advance(
    faces: Sequence[int],
    *,
    hero: str,
    characteristics: Characteristics,
    race: str,
    stat_choice: str | None = None,
    tables: CoreheimTables,
) -> AdvanceResolution:
    """One advance on the hero table (also for Hired Swords and Talent! promotions).

    Advances that would pass the race's maximum are re-rolled; for "WS or BS" with one
    capped the other is taken. ``faces`` are the D12 rolls, re-rolls included.
    """
    rules = _AdvanceRules(
        fighter=hero, characteristics=characteristics, race=race, already_advanced=(),
        stat_choice=stat_choice, talent_allowed=False, skills_allowed=True, tables=tables,
    )
    return _resolve_advance_rolls(faces, tables.hero_advances, rules, group_reroll=False)


def resolve_henchman_advance(
    faces: Sequence[int],
    *,
    group: str,
    group_size: int,
    characteristics: Characteristics,
    race: str,
    advanced_stats: Collection[str] = (),
    use_group_reroll: bool = False,
    talent_allowed: bool = True,
    may_repeat_stats: bool = False,
    stat_choice: str | None = None,
    tables: CoreheimTables,
) -> AdvanceResolution:
    """One advance for a whole henchman group.

    A henchman improves each characteristic at most once (``advanced_stats`` lists those
    already improved; ``may_repeat_stats`` for Night Goblin Fanatics), within racial
    maximums; repeats are re-rolled. A group of two or more may re-roll once
    (``use_group_reroll``: the first face is discarded, the second stands). Set
    ``talent_allowed`` False after a Talent! this post-game, or when the player re-rolls
    Talent! rather than sack a sixth hero.
    """
    if group_size < 1:
        raise CoreheimRuleError(f"{group} has no members left to advance")
    if use_group_reroll and group_size < 2:
        raise CoreheimRuleError(f"{group} has one member; only groups of two or more may re-roll")
    rules = _AdvanceRules(
        fighter=group, characteristics=characteristics, race=race,
        already_advanced=() if may_repeat_stats else tuple(advanced_stats),
        stat_choice=stat_choice, talent_allowed=talent_allowed, skills_allowed=False, tables=tables,
    )
    return _resolve_advance_rolls(faces, tables.henchman_advances, rules, group_reroll=use_group_reroll)


def apply_stat_change(characteristics: Characteristics, stat: str, delta: int) -> Characteristics:
    """A profile with one characteristic changed (by an advance or an injury)."""
    if stat not in STATS:
        raise CoreheimRuleError(f"{stat!r} is not a characteristic ({', '.join(STATS)})")
    value = getattr(characteristics, stat)
    if value is None:
        raise CoreheimRuleError(f"This warrior has no {stat}")
    return msgspec.structs.replace(characteristics, **{stat: value + delta})


# --- Skills and Talent! ---------------------------------------------------------------


def _warband(warband: str, tables: CoreheimTables) -> Warband:
    for row in tables.warbands.warbands:
        if row.id == warband:
            return row
    known = ", ".join(row.id for row in tables.warbands.warbands)
    raise CoreheimRuleError(f"Unknown warband list {warband!r}; lists are {known}")


def _variant(warband: Warband, variant: str | None) -> WarbandVariant | None:
    if variant is None:
        return None
    for row in warband.variants:
        if row.id == variant:
            return row
    raise CoreheimRuleError(f"{warband.name} have no variant {variant!r}")


def hero_skill_lists(
    warband: str, hero_type: str, *, variant: str | None = None, tables: CoreheimTables
) -> tuple[str, ...]:
    """The skill lists a hero of this type may pick from (e.g. a Marienburg Captain adds Rogue)."""
    band = _warband(warband, tables)
    band_variant = _variant(band, variant)
    hero = next((h for h in band.hero_types if h.id == hero_type), None)
    if hero is None:
        raise CoreheimRuleError(f"{hero_type!r} is not a hero type of {band.name}")
    lists = list(hero.skill_lists)
    if band_variant is not None:
        for extra in band_variant.extra_skill_lists:
            if extra.hero_type == hero_type:
                lists += [skill_list for skill_list in extra.skill_lists if skill_list not in lists]
    return tuple(lists)


def check_new_skill(
    skill: str,
    *,
    hero: str,
    skill_lists: Sequence[str],
    known_skills: Collection[str],
    warband: str,
    warband_skills: Mapping[str, Collection[str]] | None = None,
    casual: bool = False,
    tables: CoreheimTables,
) -> str:
    """Validate a skill chosen on an advance; return the list it was taken from.

    ``warband_skills`` maps each *other* hero of the warband to his skills, for the
    once-per-warband skills (Arms Expert) and casual mode's no-sharing rule.
    """
    if skill in known_skills:
        raise CoreheimRuleError(f"{hero} already has {skill}")
    source = next(
        (sl.id for sl in tables.skills.lists if sl.id in skill_lists and skill in sl.skills), None
    )
    if source is None:
        raise CoreheimRuleError(f"{skill} is not on {hero}'s skill lists ({', '.join(skill_lists)})")
    for rule in tables.skills.forbidden_for_warbands:
        if rule.skill == skill and warband in rule.warbands:
            raise CoreheimRuleError(f"{skill} is not allowed in this warband")
    others = warband_skills or {}
    holders = [name for name, skills in others.items() if name != hero and skill in skills]
    if holders and (casual or skill in tables.skills.one_per_warband):
        raise CoreheimRuleError(f"{holders[0]} already has {skill}; only one warrior of the warband may")
    return source


class TalentPromotion(Result):
    new_hero: str
    skill_lists: tuple[str, ...]
    group_size_left: int
    sacked_hero: str | None
    group_rolls_again: bool
    hero_advance_rolls: int = 1


def resolve_talent(
    *,
    group: str,
    group_size: int,
    new_hero: str,
    heroes_in_warband: int,
    warband: str,
    variant: str | None = None,
    chosen_skill_lists: Sequence[str],
    sack_hero: str | None = None,
    tables: CoreheimTables,
) -> TalentPromotion:
    """Talent!: one member of the group becomes a hero with two skill lists open to the
    warband and rolls once on the hero table; the rest of the group rolls again.
    With six heroes already, the player sacks one (``sack_hero``) or re-rolls instead."""
    if group_size < 1:
        raise CoreheimRuleError(f"{group} has nobody to promote")
    max_heroes = tables.warbands.max_heroes
    if heroes_in_warband >= max_heroes and sack_hero is None:
        raise CoreheimRuleError(
            f"The warband already has {heroes_in_warband} heroes; sack one or re-roll the advance"
        )
    if heroes_in_warband < max_heroes and sack_hero is not None:
        raise CoreheimRuleError(f"There is room for {new_hero}; no hero needs to be sacked")
    band = _warband(warband, tables)
    band_variant = _variant(band, variant)
    fixed = tuple(band_variant.promoted_extra_lists) if band_variant else ()
    optional = tuple(band_variant.promoted_optional_lists) if band_variant else ()
    open_lists = {sl for hero in band.hero_types for sl in hero.skill_lists} | set(optional)
    wanted = tables.warbands.talent_skill_list_count
    if len(set(chosen_skill_lists)) != len(chosen_skill_lists) or len(chosen_skill_lists) != wanted:
        raise CoreheimRuleError(f"{new_hero} picks {wanted} different skill lists")
    for skill_list in chosen_skill_lists:
        if skill_list in fixed:
            raise CoreheimRuleError(f"{new_hero} gets {skill_list} anyway; pick {wanted} other lists")
        if skill_list not in open_lists:
            raise CoreheimRuleError(f"The {skill_list} list is not open to {band.name}")
    left = group_size - 1
    return TalentPromotion(
        new_hero=new_hero,
        skill_lists=tuple(chosen_skill_lists) + fixed,
        group_size_left=left,
        sacked_hero=sack_hero,
        group_rolls_again=left > 0,
    )


# --- Reinforcing henchmen -------------------------------------------------------------


class Reinforcement(Result):
    group: str
    group_xp: int
    group_size: int
    recruits: int


class ReinforcementPlan(Result):
    budget: int
    xp_spent: int
    xp_left: int
    recruits: int


def plan_reinforcements(
    budget_face: int,
    reinforcements: Sequence[Reinforcement],
    *,
    warband: str,
    warband_size: int,
    tables: CoreheimTables,
) -> ReinforcementPlan:
    """The D6 rolled is the experience available: each recruit joins his group at the
    group's XP and uses that much of it (a 5 buys one recruit into a 3-XP group and two
    into a 1-XP group). Group and warband size limits still apply."""
    _check_faces((budget_face,), 6, "Reinforcement roll")
    limits = tables.warbands
    max_size = _warband(warband, tables).max_size
    spent = 0
    recruits = 0
    for plan in reinforcements:
        if plan.recruits < 1:
            raise CoreheimRuleError(f"Add at least one recruit to {plan.group}")
        if plan.group_size < limits.min_henchman_group_size or plan.group_xp < 0:
            raise CoreheimRuleError(f"{plan.group} is not an existing henchman group")
        if plan.group_size + plan.recruits > limits.max_henchman_group_size:
            raise CoreheimRuleError(
                f"{plan.group} has {plan.group_size}; a group holds at most {limits.max_henchman_group_size}"
            )
        spent += plan.group_xp * plan.recruits
        recruits += plan.recruits
    if spent > budget_face:
        raise CoreheimRuleError(f"These recruits need {spent} experience; the roll gave {budget_face}")
    if warband_size + recruits > max_size:
        raise CoreheimRuleError(
            f"The warband has {warband_size} warriors; {recruits} more would pass its maximum of {max_size}"
        )
    return ReinforcementPlan(budget=budget_face, xp_spent=spent, xp_left=budget_face - spent, recruits=recruits)


# === Trading ==========================================================================


class WyrdstoneSale(Result):
    row_id: str
    shards_sold: int
    gold: int
    shards_left: int


def sell_wyrdstone(
    shards: int, *, shards_held: int, warriors: int, tables: CoreheimTables
) -> WyrdstoneSale:
    """Gold for selling shards; the column is the warband's size without Hired Swords."""
    largest = max(row.shards for row in tables.wyrdstone_sale.rows)
    if shards < 1:
        raise CoreheimRuleError("Sell at least one shard")
    if shards > shards_held:
        raise CoreheimRuleError(f"The warband has {shards_held} shards, not {shards}")
    if shards > largest:
        raise CoreheimRuleError(f"At most {largest} shards can be sold in one post-game; keep the rest")
    if warriors < 1:
        raise CoreheimRuleError("A warband with no warriors cannot sell wyrdstone")
    row: WyrdstoneSaleRow = next(
        r for r in tables.wyrdstone_sale.rows
        if r.shards == shards and r.min_warriors <= warriors and (r.max_warriors is None or warriors <= r.max_warriors)
    )
    return WyrdstoneSale(row_id=row.id, shards_sold=shards, gold=row.gold, shards_left=shards_held - shards)


def sale_value(base_price: int) -> int:
    """Selling gives half the base price, rounded down."""
    if base_price < 0:
        raise CoreheimRuleError("A price cannot be negative")
    return base_price // 2


def item_sale_value(item: str, *, tables: CoreheimTables) -> int:
    """Half the listed price; for "15+2D6" half the fixed part."""
    row = next((i for i in tables.equipment.items if i.id == item), None)
    if row is None:
        raise CoreheimRuleError(f"{item!r} is not on the equipment list")
    if row.price is None:
        raise CoreheimRuleError(f"The rules give {row.name} no price; it cannot be sold unless a house rule prices it")
    return sale_value(row.price.fixed)


class RareSearch(Result):
    total: int
    needed: int
    found: bool


def search_rare_item(
    faces: Sequence[int],
    *,
    searcher: str,
    role: Role,
    rarity: int,
    out_of_action: bool,
    already_searched: bool = False,
    skills: Collection[str] = (),
    wears_cathayan_silks: bool = False,
    tables: CoreheimTables,
) -> RareSearch:
    """2D6 (+3 Streetwise, +1 Cathayan Silks) >= rarity finds the item."""
    if role != "hero":
        raise CoreheimRuleError(f"{searcher} is not a hero; only heroes look for rare items")
    if out_of_action:
        raise CoreheimRuleError(f"{searcher} was taken out of action and cannot look for rare items")
    if already_searched:
        raise CoreheimRuleError(f"{searcher} has already looked for a rare item this post-game")
    if len(faces) != 2:
        raise CoreheimRuleError(f"A rare item search rolls 2D6, not {len(faces)} dice")
    _check_faces(faces, 6, "Rare item search")
    bonus = sum(b.bonus for b in tables.skills.rare_search_bonus if b.skill in skills)
    total = sum(faces) + bonus + (1 if wears_cathayan_silks else 0)
    return RareSearch(total=total, needed=rarity, found=total >= rarity)


def hired_sword_upkeep(sword: str, *, warband_has_dwarves: bool = False, tables: CoreheimTables) -> int:
    """Upkeep due after every game, the first included."""
    row = next((s for s in tables.hired_swords.swords if s.id == sword), None)
    if row is None:
        raise CoreheimRuleError(f"{sword!r} is not a Hired Sword")
    if warband_has_dwarves and row.upkeep_with_dwarves is not None:
        return row.upkeep_with_dwarves
    return row.upkeep


# === Rating ===========================================================================


class RatedMember(Result):
    role: Literal["hero", "henchman", "animal", "mount", "monster"]
    xp: int = 0


class RatedHiredSword(Result):
    sword: str
    xp: int = 0


def warband_rating(
    members: Sequence[RatedMember],
    hired_swords: Sequence[RatedHiredSword] = (),
    *,
    casual: bool = False,
    tables: CoreheimTables,
) -> int:
    """5 per member + all members' XP + 15 per monster + each Hired Sword's rating and XP.
    Members missing the next game still count. Casual mode: hero 10, others 5, swords
    their listed rating."""
    rules = tables.warband_rating
    swords = {s.id: s for s in tables.hired_swords.swords}
    for sword in hired_swords:
        if sword.sword not in swords:
            raise CoreheimRuleError(f"{sword.sword!r} is not a Hired Sword")
    if casual:
        per_role = {"hero": rules.casual.hero, "henchman": rules.casual.henchman,
                    "animal": rules.casual.animal, "mount": rules.casual.animal,
                    "monster": rules.casual.monster}
        return sum(per_role[m.role] for m in members) + sum(swords[s.sword].rating for s in hired_swords)
    rating = rules.per_member * len(members) + sum(m.xp for m in members)
    rating += rules.per_monster * sum(1 for m in members if m.role == "monster")
    for sword in hired_swords:
        rating += swords[sword.sword].rating + (sword.xp if rules.hired_sword_adds_xp else 0)
    return rating


def underdog_bonus(own_rating: int, opponent_ratings: Sequence[int], *, tables: CoreheimTables) -> UnderdogRow:
    """Bonus points (each +1 XP or a Hired Sword for the battle) for the lower-rated side.
    Against several opponents the gap is to the second-highest rating in the battle."""
    if not opponent_ratings:
        raise CoreheimRuleError("An underdog bonus needs at least one opponent")
    if len(opponent_ratings) == 1:
        reference = opponent_ratings[0]
    else:
        reference = sorted([own_rating, *opponent_ratings], reverse=True)[1]
    gap = max(0, reference - own_rating)
    return next(
        row for row in tables.underdog.rows
        if row.min_gap <= gap and (row.max_gap is None or gap <= row.max_gap)
    )
