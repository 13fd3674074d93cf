"""Rules change, campaigns keep theirs: gate a rule fix on the version in force at the transaction."""

from __future__ import annotations

from ledger import rulesets
from ledger.decide import Context
from ledger.state import CampaignState
from ledger.text import possessive


def plays(state: CampaignState, version: str) -> bool:
    """Whether the campaign plays `version` of its ruleset or a later one now: `since` for what
    reads the state outside a transaction (a guided step building its command)."""
    return rulesets.get(state.ruleset).plays(state, version)


def since(ctx: Context, version: str) -> bool:
    """Whether the transaction being decided plays `version` of its ruleset or a later one.

        if since(ctx, "2"):   # the fix, for campaigns on v2 and later
            ...
        else:                 # what v1 decided, kept so v1 campaigns replay exactly
            ...
    """
    return plays(ctx.state, version)


def possessive_since(ctx: Context, version: str, name: str) -> str:
    """`name`'s as words stored in events say it (a reason, a note, a roll's purpose): from `version` by
    `ledger.text.possessive` ("Reikland Rats'", "Hans'"), before it with an 's after any name ("Rats's"), as
    the campaigns recorded then stored it."""
    return possessive(name) if since(ctx, version) else f"{name}'s"
