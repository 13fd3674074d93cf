"""Rules change, campaigns keep theirs: gate a rule fix on the version in force at the transaction."""

from __future__ import annotations

from ledger import rulesets
from ledger.decide import Context


def since(ctx: Context, version: str) -> bool:
    """Whether the transaction being decided plays `version` of its ruleset or a later one.

        if since(ctx, "2"):   # the fix, for campaigns on v2 and later
            ...
        else:                 # what v1 decided, kept so v1 campaigns replay exactly
            ...
    """
    versions = list(rulesets.get(ctx.state.ruleset).versions)
    if version not in versions:
        raise ValueError(f"{ctx.state.ruleset} has no version {version}: gate on one of {versions}")
    current = ctx.version if ctx.version in versions else versions[0]
    return versions.index(current) >= versions.index(version)
