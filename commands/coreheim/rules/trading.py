"""Trading: selling wyrdstone and equipment, the rare-item search, Hired Sword upkeep."""

from __future__ import annotations

from collections.abc import Collection, Sequence


from commands.kit import check_faces
from commands.coreheim.tables import (
    CoreheimTables,
    WyrdstoneSaleRow,
)
from commands.coreheim.rules.common import CoreheimRuleError, Result
from commands.coreheim.rules.experience import Role
from ledger.describe import plural


class WyrdstoneSale(Result):
    row_id: str
    shards_sold: int
    gold: int
    shards_left: int


def sell_wyrdstone(
    shards: int, *, shards_held: int, warriors: int, tables: CoreheimTables, warband: str = "The warband"
) -> WyrdstoneSale:
    """Gold for selling shards; the column is the warband's size without Hired Swords (`warband`: its
    name, for the refusal of more shards than it holds)."""
    largest = max(row.shards for row in tables.wyrdstone_sale.rows)
    if shards < 1:
        raise CoreheimRuleError("Sell at least one shard")
    if shards > shards_held:
        raise CoreheimRuleError(f"{warband} has {plural(shards_held, 'shard')}, not {shards}")
    if shards > largest:
        raise CoreheimRuleError(f"At most {plural(largest, 'shard')} can be sold in one post-game; keep the rest")
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
    bonuses: tuple[str, ...] = ()  # what added to the dice, for people: "Cathayan Silks +1"


def check_rare_searcher(searcher: str, *, role: Role, out_of_action: bool, already_searched: bool) -> None:
    """Only heroes not taken out of action look for rare items, one search each."""
    if role != "hero":
        raise CoreheimRuleError(f"{searcher} is not a hero; only heroes look for rare items")
    if out_of_action:
        raise CoreheimRuleError(f"{searcher} was taken out of action and cannot look for rare items")
    if already_searched:
        raise CoreheimRuleError(f"{searcher} has already looked for a rare item this post-game")


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
    check_rare_searcher(searcher, role=role, out_of_action=out_of_action, already_searched=already_searched)
    if len(faces) != 2:
        raise CoreheimRuleError(f"A rare item search rolls 2D6, not {len(faces)} dice")
    check_faces(faces, 6, "Rare item search")
    bonuses = [(b.skill, b.bonus) for b in tables.skills.rare_search_bonus if b.skill in skills]
    bonuses += [("Cathayan Silks", 1)] if wears_cathayan_silks else []
    total = sum(faces) + sum(bonus for _, bonus in bonuses)
    return RareSearch(total=total, needed=rarity, found=total >= rarity,
                      bonuses=tuple(f"{name} +{bonus}" for name, bonus in bonuses))


def hired_sword_upkeep(sword: str, *, warband_has_dwarves: bool = False, tables: CoreheimTables) -> int:
    """Upkeep due after every game, the first included."""
    row = next((s for s in tables.hired_swords.swords if s.id == sword), None)
    if row is None:
        raise CoreheimRuleError(f"{sword!r} is not a Hired Sword")
    if warband_has_dwarves and row.upkeep_with_dwarves is not None:
        return row.upkeep_with_dwarves
    return row.upkeep
