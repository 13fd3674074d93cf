"""The warband rating and the underdog bonus."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal


from commands.coreheim.tables import (
    CoreheimTables,
    HiredSwordsTable,
    UnderdogRow,
    WarbandRatingRules,
)
from commands.coreheim.rules.common import CoreheimRuleError, Result


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
    rating_rules: WarbandRatingRules,
    sword_table: HiredSwordsTable,
) -> int:
    """5 per member + all members' XP + 15 per monster + each Hired Sword's rating and XP.
    Members missing the next game still count. Casual mode: hero 10, others 5, swords
    their listed rating. Given only the two tables it reads (a rating is asked at most commands)."""
    rules = rating_rules
    swords = {s.id: s for s in sword_table.swords} if hired_swords else {}
    for sword in hired_swords:
        if sword.sword not in swords:
            raise CoreheimRuleError(f"{sword.sword!r} is not a Hired Sword")
    if casual:
        per_role = {"hero": rules.casual.hero, "henchman": rules.casual.henchman,
                    "animal": rules.casual.animal, "mount": rules.casual.animal,
                    "monster": rules.casual.monster}
        return sum(per_role[m.role] for m in members) + sum(swords[s.sword].rating for s in hired_swords)
    rating = rules.per_member * len(members)
    for member in members:  # one loop, no generators: a rating is made at every transaction of a rebuild
        rating += member.xp + (rules.per_monster if member.role == "monster" else 0)
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
