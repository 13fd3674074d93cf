"""The verifiable audit trail, by part: ledger.trail_json (the canonical form and strict JSON),
ledger.chain (checking a chain and re-deriving revealed ledger dice), ledger.stored_chain (a
campaign as stored: rows, chain, snapshot) and ledger.trail (the JSON Lines export: writing,
reading, importing). docs/audit-format.md describes the format for people who write their own
verifier.

The chain is never checked through the typed decoder: each record is rebuilt from the JSON that is
stored (or exported) and hashed in its canonical form. A row or line exactly as the store or the
export writes it is read fast (by typed decoders, then written again to prove it gives the same
bytes: no repeated key, float or other spelling); anything else is parsed strictly
(ledger.trail_json.strict_json), which names its fault. The typed decoder is asked too — a row it cannot read "does not decode" — and its events drive
the checks of dice and seeds. The chain is read once, a page (or a line) at a time, and not held:
a Chain reads its events again when asked. Chain problems are reported at the first bad position
(or line) as they are met; a seed is revealed after the rolls it made, so those rolls are re-derived
when it is, and a roll that differs is reported once the whole chain has been read.
"""

from ledger.chain import Chain, ChainChecker, Entry, check_extends, locate_head  # noqa: F401 - the audit API
from ledger.stored_chain import find_campaign, stored_names, verify_store, verify_store_reading  # noqa: F401
from ledger.trail import (  # noqa: F401
    FORMAT,
    FORMAT_VERSION,
    Annotator,
    check_before_import,
    deck_orders,
    import_chain,
    import_trail,
    read_trail,
    store_trail_lines,
    trail_lines,
)
from ledger.trail_json import canonical_text, strict_json  # noqa: F401
