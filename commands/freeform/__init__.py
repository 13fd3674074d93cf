"""`freeform`: the shared commands and nothing else — for any game the ledger has no rules for.

It has one deck, `cards` (a 52-card French deck), so that draws can be recorded too. Its options
are the core's only: who rolls by default, and whether decks are the ledger's or physical.
"""

from typing import Literal

from commands.kit import Options, check_options
from commands.shared import SHARED_HANDLERS
from ledger.rulesets import Ruleset, register
from ledger.terms import Terms

SUITS = "SHDC"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


class FreeformOptions(Options, frozen=True, kw_only=True):
    decks: Literal["ledger", "physical"] = "ledger"


RULESET = register(
    Ruleset(
        id="freeform",
        version="1",
        title="Freeform (shared commands only)",
        handlers=SHARED_HANDLERS,
        decks={"cards": [rank + suit for suit in SUITS for rank in RANKS]},
        default_options={"decks": "ledger"},  # what a freeform campaign has always pinned
        check_options=check_options("freeform", FreeformOptions),
        terms=Terms(resources={}),
    )
)
