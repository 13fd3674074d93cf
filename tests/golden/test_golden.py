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

import msgspec
import pytest

from ledger import audit
from ledger.campaigns import Ledger, apply_record, is_redecided, redecide, transactions, voids_in
from commands.kit import RulesetFacts
from ledger.state import CampaignState, decode_own, encode_state
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
        # A pending transaction is checked, not re-decided: its answer, a later transaction, is.
        live_commands = [group for group in transactions(records) if group[0].tx not in voided and is_redecided(group)]
        assert checked == len(live_commands) > 0
        assert state.head == trailer["head"] == ledger.load(campaign_id).head == records[-1].hash
    finally:
        ledger.store.close()


@pytest.mark.parametrize("trail", TRAILS, ids=lambda path: path.stem)
def test_deciding_a_transaction_again_on_the_state_itself_leaves_the_state_its_records_fold_to(trail: Path):
    """Re-deciding a history (import, `replay --check`, planning a void) decides each transaction on
    the state itself, not a copy: after every live transaction of every golden trail, the state is
    exactly the one folding its records gives."""
    records = list(audit.read_trail(trail.read_bytes(), void_annotations).records)
    voided = voids_in(records)
    decided, folded = CampaignState(), CampaignState()
    redecided = 0
    for group in transactions(records):
        live = group[0].tx not in voided
        for record in group:
            apply_record(folded, record, not live)
        if live and is_redecided(group):
            assert redecide(decided, group, folding=True) is None
            redecided += 1
        else:
            for record in group:
                apply_record(decided, record, not live)
        assert values_of(decided) == values_of(folded)
    assert redecided > 0


def values_of(state: CampaignState) -> dict:
    """The state's values: a dict keeps the order it was made in (a profile the handler made, or
    read back from a trail in sorted order), and a ruleset's facts a handler only read are there as
    their defaults (`Facts.of` keeps what it typed), which is what their absence means."""
    ext = {key: value for key, value in state.ext.items() if not (isinstance(value, RulesetFacts) and value == type(value)())}
    return msgspec.json.decode(encode_state(msgspec.structs.replace(state, ext=ext)))


def test_a_transaction_that_no_longer_follows_leaves_the_state_it_was_decided_on_as_it_was():
    """Decided on the state itself, a transaction the rules refuse there (every command of the
    coreheim demo, on the campaign as it was started) leaves that state exactly as it was."""
    records = list(audit.read_trail((Path(__file__).parent / "demo-coreheim.jsonl").read_bytes(), void_annotations).records)
    groups = transactions(records)
    started = CampaignState()
    for record in groups[0]:
        apply_record(started, record, False)
    before = encode_state(started)
    refused = 0
    for group in groups[1:]:
        if is_redecided(group) and redecide(started, group, folding=True) is not None:
            refused += 1
            assert encode_state(started) == before
        started = decode_own(before)
    assert refused > 10
