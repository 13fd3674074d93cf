"""Coreheim's handlers: hiring, recording battles, and each step of the post-game sequence (seed 002,
section 2.1) in the seed's order, one module per part; and the one table mapping each command to
its handler.

Steps, once per battle and in this order (each refuses to run early or twice):
explore → injuries → experience → advances → sell-shards → search → upkeep → reinforce.
Trading actions done any number of times sit between them, in the seed's trading order:
sell equipment (2) before the rare-item search (3), buy (4) before upkeep (5), hire (6)
before reinforcing (7). Before a warband's first battle, hiring and buying are always open.
A warband must finish the post-game of its last battle before it fights again.

Every player choice is either a field of the command or asked with `ctx.choose` (and so
recorded in the command's `answers`), so replaying a command with its recorded dice gives the
same events. The rules' refusals (CoreheimRuleError) become RuleViolations in one place, the
`refusing` wrapper of the handler table below.
"""

from commands.coreheim import rules
from commands.coreheim.commands import (
    Advance,
    Buy,
    Experience,
    Explore,
    Hire,
    Injuries,
    Reinforce,
    Search,
    Sell,
    SellShards,
    SpendUnderdog,
    Upkeep,
)
from commands.coreheim.handlers import aftermath, exploration, trading, warband
from commands.kit import refusing
from commands.shared import SHARED_HANDLERS, EnlistWarband, GainItem, LoseItem, RecordBattle, RecruitFighter

HANDLERS = {
    **SHARED_HANDLERS,
    **refusing(rules.CoreheimRuleError, {
        EnlistWarband: warband.enlist,
        RecruitFighter: warband.refuse_recruit,
        RecordBattle: warband.record_battle,
        Hire: warband.hire,
        SpendUnderdog: warband.spend_underdog,
        Explore: exploration.explore,
        Injuries: aftermath.injuries,
        Experience: aftermath.experience,
        Advance: aftermath.advance,
        SellShards: trading.sell_shards,
        Sell: trading.sell,
        Search: trading.search,
        Buy: trading.buy,
        Upkeep: trading.upkeep,
        Reinforce: trading.reinforce,
        GainItem: trading.gain_item,
        LoseItem: trading.lose_item,
    }),
}
