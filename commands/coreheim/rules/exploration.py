"""Exploration (seed 002, 2.1 step 1): dice kept, wyrdstone shards, multiples and their effects."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Union


from commands.kit import MoreDice, check_faces
from commands.coreheim.tables import (
    Captured,
    CoreheimTables,
    Dead,
    Effect,
    EquipmentTable,
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
    HeroInjuryRoll,
    HireOption,
    InjuryReroll,
    LeaderTest,
    LoseItem,
    MissGame,
    MultipleInjuries,
    MultiplesEntry,
    MultiplesTable,
    MultiplesVariant,
    PlayerOption,
    Robbed,
    RollTable,
    ShardsRow,
    StatChange,
    Fight,
    dice_spec,
    walk_effects,
)
from commands.coreheim.rules.common import ChoiceRequest, CoreheimRuleError, Pending, Result, passes_test


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
    after ``discard`` dice are dropped ("you must always pick a maximum of six dice as your
    result": any number from one to six, e.g. fewer to leave a set of multiples out), and when
    dice are discarded; otherwise all remaining dice are kept.
    """
    check_faces(rolled, 6, "Exploration dice")
    limit = tables.shards.max_kept_dice
    if discard < 0 or discard > len(rolled):
        raise CoreheimRuleError(f"Cannot discard {discard} of {len(rolled)} exploration dice")
    remaining = len(rolled) - discard
    needed = min(limit, remaining)
    if keep is None:
        if discard or remaining > limit:
            raise CoreheimRuleError(
                f"{len(rolled)} exploration dice were rolled; choose {'at most' if remaining > limit else 'the'} {needed} to keep"
            )
        return tuple(rolled)
    if remaining > limit:
        if not 1 <= len(keep) <= limit:
            raise CoreheimRuleError(
                f"Keep at most {limit} of the {len(rolled)} exploration dice (and at least one), not {len(keep)}"
            )
    elif len(keep) != needed:
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
    check_faces(kept, 6, "Exploration dice")
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
    check_faces(kept, 6, "Exploration dice")
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
        no_leader: bool = False,
        no_hero: bool = False,
    ) -> None:
        self.warband = warband
        self.leader_ld = leader_ld
        self.no_leader = no_leader
        self.no_hero = no_hero
        self.rolls = rolls
        self.choices = choices
        self.tables = tables
        self.outcomes: list[Outcome] = []
        self.rows_used: list[str] = []
        self.pending: list[Pending] = []
        self.used: set[str] = set()

    def roll(self, roll_id: str, dice: str, purpose: str) -> tuple[int, ...]:
        if roll_id not in self.rolls:
            raise MoreDice(roll_id, dice, purpose)
        count, sides = dice_spec(dice)
        faces = tuple(self.rolls[roll_id])
        if len(faces) != count:
            raise CoreheimRuleError(f"{purpose} needs {dice}: {count} dice, not {len(faces)}")
        check_faces(faces, sides, purpose)
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
                amount = effect.fixed + effect.multiplier * sum(faces)
                self.outcomes.append(GoldGained(source=effect.id, amount=amount))
            case GainItem():
                self.outcomes.append(effect)
                item = next(i for i in self.tables.equipment.items if i.id == effect.item)
                self.run(item.on_gain)
            case PlayerOption() if self.no_hero and _names_a_chosen_hero(effect.effects):
                self.rows_used.append(f"{effect.id}:no-hero")  # an option only a hero could take is not offered
            case PlayerOption():
                if self.choice(effect.id, effect.question):
                    self.rows_used.append(f"{effect.id}:yes")
                    self.run(effect.effects)
            case RollTable():
                faces = self.roll(effect.id, effect.dice, f"exploration chart follow-up {effect.id}")
                row = next(r for r in effect.rows if r.min <= faces[0] <= r.max)
                self.rows_used.append(row.id)
                self.run(row.effects)
            case LeaderTest():
                self.leader_test(effect)
            case Fight() if self.no_hero and effect.target == CHOSEN_HERO:
                self.rows_used.append(f"{effect.id}:no-hero")  # nobody fights: nothing won, nothing lost
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
            outcome = "passed"
        elif self.no_leader:
            outcome = "no-leader"  # nobody takes the test, so nobody passes it: failed, and no die is rolled
        else:
            faces = self.roll(test.id, "D12", f"Leader's {test.stat} test")
            if self.leader_ld is None:
                raise CoreheimRuleError(f"The leader's {test.stat} is needed for this test")
            outcome = "passed" if passes_test(faces[0], self.leader_ld) else "failed"
        self.rows_used.append(f"{test.id}:{outcome}")
        self.run(test.passed if outcome == "passed" else test.failed)

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


CHOSEN_HERO = "chosen-hero"  # the role of a hero the player picks (the Well's, a fight's)


def _names_a_chosen_hero(effects: Sequence[Effect]) -> bool:
    return any(getattr(effect, "target", None) == CHOSEN_HERO for effect in walk_effects(effects))


def resolve_multiples(
    chosen: MultipleSet,
    *,
    warband: str,
    rolls: Mapping[str, Sequence[int]] | None = None,
    choices: Mapping[str, bool] | None = None,
    leader_ld: int | None = None,
    no_leader: bool = False,
    no_hero: bool = False,
    tables: CoreheimTables,
) -> Resolution:
    """Resolve a set of multiples on the exploration chart; `no_leader`: the warband has none, so a leader's test is
    failed without a roll; `no_hero`: it has none, so a fight of a chosen hero is fought by nobody and an option only a
    hero could take is not offered (version 10; before, both were refused once their warrior was asked for).

    ``rolls`` and ``choices`` are keyed by the ids found in ``pending`` of an earlier call
    (e.g. ``{"multiples:4x2:d6": [2], "multiples:4x2:d6:1-3:gold": [5]}``).
    ``rows_used`` starts with the chart entry and its warband variant.
    """
    entry = multiples_entry(chosen, tables=tables)
    variant = multiples_variant(entry, warband)
    resolver = _EffectResolver(
        warband=warband, leader_ld=leader_ld, rolls=rolls or {}, choices=choices or {}, tables=tables, no_leader=no_leader,
        no_hero=no_hero,
    )
    resolver.rows_used += [entry.id, variant.id]
    resolver.run(variant.effects)
    return resolver.result()


def chart_words(rows_used: Sequence[str], *, tables: CoreheimTables, items: bool = False) -> tuple[str, ...]:
    """What the chart rows a resolution read say, for people: the entry's name ("Corpse"), then each
    roll's result ("Sword") and each decision ("won the fight against the pit fighter"). A variant
    adds nothing (it is the warband's own); a row the tables no longer have keeps its id. With
    `items`, the rolls of an item gained say what they found too ("the Mordheim Map is fake"): the
    log's words only, as the reasons version 7 records cite those rows by id alone."""
    words = _chart_vocabulary(tables.multiples)
    said_of_items = _item_vocabulary(tables.equipment) if items else {}
    return tuple(said for said in (words[row] if row in words else said_of_items.get(row, row) for row in rows_used) if said)


@functools.lru_cache(maxsize=32)
def _item_vocabulary(equipment: EquipmentTable) -> Mapping[str, str]:
    """Each row of the rolls an item makes when gained -> what it says of the item, for people."""
    return {row.id: f"the {item.name} is {row.name.lower()}" for item in equipment.items
            for effect in walk_effects(item.on_gain) if isinstance(effect, RollTable) for row in effect.rows}


@functools.lru_cache(maxsize=32)  # a chart is frozen; walking it took 90 us at every exploration's log line
def _chart_vocabulary(chart: MultiplesTable) -> Mapping[str, str]:
    """Each row, variant and decision id of the multiples chart -> what it says for people."""
    words: dict[str, str] = {}
    for entry in chart.entries:
        words[entry.id] = entry.name
        for variant in entry.variants:
            words[variant.id] = ""
            for effect in walk_effects(variant.effects):
                match effect:
                    case RollTable():
                        words.update((row.id, row.name) for row in effect.rows)
                    case PlayerOption():
                        words[f"{effect.id}:yes"] = f"{effect.question.rstrip('?')}: yes"
                        words[f"{effect.id}:no-hero"] = f"{effect.question.rstrip('?')}: the warband has no hero"
                    case Fight():
                        for outcome in ("won", "lost"):
                            words[f"{effect.id}:{outcome}"] = f"{outcome} the fight against the {effect.opponent}"
                        words[f"{effect.id}:no-hero"] = f"no hero to fight the {effect.opponent}"
                    case LeaderTest():
                        for outcome in ("passed", "failed"):
                            words[f"{effect.id}:{outcome}"] = f"leader's {effect.stat} test {outcome}"
                        words[f"{effect.id}:no-leader"] = f"no leader to take the leader's {effect.stat} test: failed"
    return words
