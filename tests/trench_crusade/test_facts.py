"""Trench Crusade's typed facts: what the ledger keeps of a warband and a model beyond the shared
state survives a snapshot, and the read models show it as the warband's and the model's `ext`."""

from __future__ import annotations

import uuid
from pathlib import Path

from commands.trench_crusade import events as tc
from ledger import audit
from ledger.campaigns import Ledger
from ledger.state import decode_state, encode_state
from ledger.store import Store
from projections.history import void_annotations
from projections.roster import ext_of

DEMO = Path(__file__).parent.parent / "golden" / "demo-trench-crusade.jsonl"


def test_the_demo_campaigns_facts_survive_a_snapshot_and_are_what_the_read_models_show(tmp_path):
    ledger = Ledger(Store("sqlite:///" + str(tmp_path / "c.db")))
    try:
        chain = audit.read_trail(DEMO.read_bytes(), void_annotations)
        audit.import_chain(ledger, chain)
        state = ledger.load(uuid.UUID(chain.campaign_id))
    finally:
        ledger.store.close()
    snapshot = decode_state(encode_state(state))
    assert snapshot is not None and tc.FACTS.of(snapshot) == tc.FACTS.of(state)
    pilgrims = tc.band_facts(state, "pilgrims-of-saint-gaius")
    assert (pilgrims.glory, pilgrims.promotion_streak) == (1, 1)
    assert ext_of(state, state.warbands["pilgrims-of-saint-gaius"])["glory"] == 1
    assert ext_of(state, state.fighters["anna"]) == {"model": "Trench Pilgrim", "trauma_rows": ["d66-24-dark-memory"], "battle_scars": 1,
                                                     "trauma_against": ["Legion of Gehenna (Dark Memory)"]}
