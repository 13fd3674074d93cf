"""The golden trails: campaigns recorded before a refactor still import, replay and export exactly.

Each `*.jsonl` here is an audit trail exported by the code as it was when the trail was made
(`make_golden.py` says how). For each, on every backend: the trail imports into an empty store;
`replay --check` re-decides every live transaction from its recorded command and dice and finds
exactly its stored events; and the head hash is the trail's. A rule change that alters any recorded decision fails here:
such a change must be a new ruleset version, gated on the version in force at the transaction.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest

from ledger import audit
from ledger.campaigns import Ledger, is_ledger_transaction, transactions, voids_in
from ledger.store import Store
from projections.history import void_annotations

TRAILS = sorted(Path(__file__).parent.glob("*.jsonl"))


def test_there_are_golden_trails_of_every_ruleset():
    rulesets = {json.loads(path.read_text(encoding="utf-8").splitlines()[0])["ruleset"]["id"] for path in TRAILS}
    assert {"freeform", "coreheim", "trench-crusade", "speedheim", "warbands", "retinue"} <= rulesets


@pytest.mark.parametrize("trail", TRAILS, ids=lambda path: path.stem)
def test_a_golden_trail_imports_and_replays_exactly(trail: Path, store_url: str):
    data = trail.read_bytes()
    chain = audit.read_trail(data, void_annotations)
    trailer = json.loads(data.decode("utf-8").splitlines()[-1])
    ledger = Ledger(Store(store_url))
    try:
        state = audit.import_chain(ledger, chain)
        campaign_id = uuid.UUID(chain.campaign_id)

        checked, differences = ledger.check(campaign_id)

        assert differences == []
        records = ledger.history(campaign_id)
        voided = voids_in(records)
        live_commands = [group for group in transactions(records)
                         if group[0].tx not in voided and not is_ledger_transaction(group)]
        assert checked == len(live_commands) > 0
        assert state.head == trailer["head"] == ledger.load(campaign_id).head == records[-1].hash
    finally:
        ledger.store.close()
