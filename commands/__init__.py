"""The rules: one package per ruleset, listed here without being imported.

A ruleset's package is imported (and registers its `Ruleset`) only when a campaign, a command or
an event needs it, so that `campaign --help` and commands of other games never pay for it. The
summary is the help line of `campaign <id>`, shown before the ruleset is imported.
"""

from ledger.rulesets import RulesetEntry

RULESETS = {
    "freeform": RulesetEntry("commands.freeform"),
    "coreheim": RulesetEntry("commands.coreheim", "Coreheim's post-game steps and trading, one command each."),
    "trench-crusade": RulesetEntry(
        "commands.trench_crusade", "Trench Crusade: recruit, record battles, and each step of the Campaign Phase."),
    "speedheim": RulesetEntry(
        "commands.speedheim", "Speedheim: recruit, Incapacitations and their draws, battles, and each post-game step."),
    "warbands": RulesetEntry(
        "commands.warbands", "Warhammer Warbands: enlist, recruit, battles, each post-game step, spending XP."),
    "retinue": RulesetEntry("commands.retinue", "Retinue: recruit, each step of the post-game, buy advancements."),
}
