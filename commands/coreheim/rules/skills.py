"""Skills and Talent!, and reinforcing henchman groups."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence


from commands.kit import check_faces
from commands.coreheim.tables import (
    CoreheimTables,
    WarbandList,
    WarbandVariant,
)
from commands.coreheim.rules.common import CoreheimRuleError, Result
from ledger.text import possessive


# --- Skills and Talent! ---------------------------------------------------------------


def _warband(warband: str, tables: CoreheimTables) -> WarbandList:
    for row in tables.warbands.warbands:
        if row.id == warband:
            return row
    known = ", ".join(row.id for row in tables.warbands.warbands)
    raise CoreheimRuleError(f"Unknown warband list {warband!r}; lists are {known}")


def _variant(warband: WarbandList, variant: str | None) -> WarbandVariant | None:
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
        raise CoreheimRuleError(f"{skill} is not on {possessive(hero)} skill lists ({', '.join(skill_lists)})")
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
    xp_checked: bool = True,
) -> ReinforcementPlan:
    """The D6 rolled is the experience available: each recruit joins his group at the
    group's XP and uses that much of it (a 5 buys one recruit into a 3-XP group and two
    into a 1-XP group). Group and warband size limits still apply. `xp_checked=False`: the
    experience spent is left for the caller to weigh (a plan that overspends it is recorded,
    not refused, once the roll is seen)."""
    check_faces((budget_face,), 6, "Reinforcement roll")
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
    if spent > budget_face and xp_checked:
        raise CoreheimRuleError(f"These recruits need {spent} experience; the roll gave {budget_face}")
    if warband_size + recruits > max_size:
        raise CoreheimRuleError(
            f"The warband has {warband_size} warriors; {recruits} more would pass its maximum of {max_size}"
        )
    return ReinforcementPlan(budget=budget_face, xp_spent=spent, xp_left=budget_face - spent, recruits=recruits)
