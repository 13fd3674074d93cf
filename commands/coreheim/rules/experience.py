"""Experience and advances: XP for a battle, thresholds, advance rolls within the race's maximums."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal

import msgspec

from commands.kit import MoreDice, check_faces

from commands.coreheim.tables import (
    AdvanceRow,
    AdvanceTable,
    CoreheimTables,
    RaceMaximums,
    SkillAdvance,
    StatAdvance,
    TalentAdvance,
    dice_spec,
)
from commands.coreheim.rules.common import Characteristics, ChoiceRequest, CoreheimRuleError, HIGHER_IS_BETTER, Pending, Result, STATS, _show
from ledger.text import possessive


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
        skill_refusal: str | None,
        tables: CoreheimTables,
    ) -> None:
        self.fighter = fighter
        self.characteristics = characteristics
        self.race = race
        self.maximums = race_maximums(race, tables=tables)
        self.already_advanced = already_advanced
        self.stat_choice = stat_choice
        self.talent_allowed = talent_allowed
        self.skill_refusal = skill_refusal

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
                return self.skill_refusal

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
    group_rerolls: int | None,
) -> AdvanceResolution:
    fighter = rules.fighter
    count, sides = dice_spec(table.die)
    if count != 1:
        raise CoreheimRuleError(f"Advance tables rolled with {table.die} need a house-rule reader")
    check_faces(faces, sides, f"Advance roll for {fighter}")
    refusals = [rules.refusal(row) for row in table.rows]
    if all(refusals):
        reason = "; ".join(sorted(set(refusals)))
        return AdvanceResolution(rolls=(), advance=NoAdvancePossible(reason=reason), pending=())
    rolls: list[AdvanceRoll] = []
    for index, face in enumerate(faces):
        row = next(r for r in table.rows if r.min <= face <= r.max)
        if index == group_rerolls:
            rolls.append(AdvanceRoll(face=face, row_id=row.id, outcome="re-rolled by the group's choice"))
            continue
        refusal = rules.refusal(row)
        if refusal:
            rolls.append(AdvanceRoll(face=face, row_id=row.id, outcome=f"re-rolled: {refusal}"))
            continue
        if index != len(faces) - 1:
            raise CoreheimRuleError(f"{possessive(fighter)} advance was settled by roll {index + 1}; extra dice given")
        verdict = rules.apply(row)
        if isinstance(verdict, ChoiceRequest):
            return AdvanceResolution(rolls=tuple(rolls), advance=None, pending=(verdict,))
        rolls.append(AdvanceRoll(face=face, row_id=row.id, outcome="applied"))
        return AdvanceResolution(rolls=tuple(rolls), advance=verdict, pending=())
    raise MoreDice(f"advance:{fighter}:roll-{len(faces) + 1}", table.die, f"Advance for {fighter}")


def resolve_hero_advance(
    faces: Sequence[int],
    *,
    hero: str,
    characteristics: Characteristics,
    race: str,
    stat_choice: str | None = None,
    no_skill: str | None = None,
    tables: CoreheimTables,
) -> AdvanceResolution:
    """One advance on the hero table (also for Hired Swords and Talent! promotions).

    Advances that would pass the race's maximum are re-rolled; for "WS or BS" with one
    capped the other is taken. ``faces`` are the D12 rolls, re-rolls included. ``no_skill``
    says why the hero can learn no skill (he knows every skill his lists allow him): a new
    skill is then re-rolled as an advance past a maximum is.
    """
    rules = _AdvanceRules(
        fighter=hero, characteristics=characteristics, race=race, already_advanced=(),
        stat_choice=stat_choice, talent_allowed=False, skill_refusal=no_skill, tables=tables,
    )
    return _resolve_advance_rolls(faces, tables.hero_advances, rules, group_rerolls=None)


def resolve_henchman_advance(
    faces: Sequence[int],
    *,
    group: str,
    group_size: int,
    characteristics: Characteristics,
    race: str,
    advanced_stats: Collection[str] = (),
    group_rerolls: int | None = None,
    talent_allowed: bool = True,
    may_repeat_stats: bool = False,
    stat_choice: str | None = None,
    tables: CoreheimTables,
) -> AdvanceResolution:
    """One advance for a whole henchman group.

    A henchman improves each characteristic at most once (``advanced_stats`` lists those
    already improved; ``may_repeat_stats`` for Night Goblin Fanatics), within racial
    maximums; repeats are re-rolled. A group of two or more may re-roll once
    (``group_rerolls``: which face, 0 the first, the group chose to re-roll: the result that
    stood, after any re-rolls the rules forced; the next stands unless the rules re-roll it). Set
    ``talent_allowed`` False after a Talent! this post-game, or when the player re-rolls
    Talent! rather than sack a sixth hero.
    """
    if group_size < 1:
        raise CoreheimRuleError(f"{group} has no members left to advance")
    if group_rerolls is not None and group_size < 2:
        raise CoreheimRuleError(f"{group} has one member; only groups of two or more may re-roll")
    rules = _AdvanceRules(
        fighter=group, characteristics=characteristics, race=race,
        already_advanced=() if may_repeat_stats else tuple(advanced_stats),
        stat_choice=stat_choice, talent_allowed=talent_allowed, skill_refusal="henchmen do not learn skills",
        tables=tables,
    )
    return _resolve_advance_rolls(faces, tables.henchman_advances, rules, group_rerolls=group_rerolls)


def apply_stat_change(characteristics: Characteristics, stat: str, delta: int) -> Characteristics:
    """A profile with one characteristic changed (by an advance or an injury)."""
    if stat not in STATS:
        raise CoreheimRuleError(f"{stat!r} is not a characteristic ({', '.join(STATS)})")
    value = getattr(characteristics, stat)
    if value is None:
        raise CoreheimRuleError(f"This warrior has no {stat}")
    return msgspec.structs.replace(characteristics, **{stat: value + delta})
