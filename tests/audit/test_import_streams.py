"""`campaign import` reads the trail again for each step instead of holding its records (issue
#14): the streamed import stores exactly the events, read-model rows and snapshot that folding the
records held in memory gives, and the one-pass `recheck` (each void planned from a copy of the
state) finds exactly what re-deciding with `plan_void` over the whole history before each void
finds, on the golden trails and on forged voids."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from ledger import audit
from ledger import events as ev
from ledger.campaigns import Ledger, fold
from ledger.deciding import is_redecided, redecide
from ledger.errors import LedgerError
from ledger.fold import apply_record, transactions, voids_in
from ledger.records import Record
from ledger.rechecking import _shape_problem, plan_void, recheck
from ledger.state import CampaignState, encode_state
from ledger.store import Store
from projections import sql
from projections.history import void_annotations
from projections.tables import all_rows

GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*.jsonl"))
WITH_VOIDS = [path for path in GOLDEN if b'"transaction.voided"' in path.read_bytes()]


def read(path: Path):
    return audit.read_trail(path.read_bytes(), void_annotations)


@pytest.mark.parametrize("trail", GOLDEN, ids=lambda path: path.stem)
def test_a_streamed_import_stores_what_the_records_held_in_memory_give(trail: Path, store_url: str):
    chain = read(trail)
    held = list(chain.records)
    ledger = Ledger(Store(store_url), on_commit=[sql.on_commit])
    try:
        state = audit.import_chain(ledger, chain)
        campaign_id = uuid.UUID(chain.campaign_id)
        stored = ledger.history(campaign_id)
        assert [(r.position, r.tx, r.hash, r.event) for r in stored] == [(r.position, r.tx, r.hash, r.event) for r in held]
        assert state == fold(held)
        snapshot = ledger.store.latest_snapshot(campaign_id)
        assert snapshot is not None and snapshot[0] == len(held)
        assert snapshot[1] == encode_state(fold(held))
        if store_url != "memory://":
            d = sql.dialect(ledger.store)
            with ledger.store.sql() as cursor:
                tables = {table: d.select(cursor, f"SELECT {', '.join(table.column_names)} FROM {d.table(table)} "
                                          "WHERE campaign_id = ?", chain.campaign_id) for table in sql.READ_MODELS}
            _state, expected = all_rows(held)
            for table, rows in tables.items():
                assert sorted(rows, key=repr) == sorted(expected[table.name], key=repr), table.name
            with sql.held_read_models(ledger.store, campaign_id) as tables_held:
                tables_held.read()
            rebuilt = sql.rebuilt_sums(tables_held.tracked, iter(held), chain.voids)
            assert sql.compare(tables_held.stored, rebuilt) == sql.ReadModelCheck(len(held), len(sql.READ_MODELS), [])
    finally:
        ledger.store.close()


def recheck_holding_everything(records: Sequence[Record], *, first_only: bool = False) -> tuple[int, list[str]]:
    """`recheck` as it was before it streamed (the oracle): every void planned with `plan_void` on
    the whole history before it, then every live transaction re-decided in a second pass."""
    differences: list[str] = []
    groups = transactions(records)
    history: list[Record] = []
    for group in groups:
        why = _shape_problem(group)
        opened = group[0].event
        if why is None and isinstance(opened, ev.CommandRecorded) and opened.command in ("void", "reroll"):
            why = _void_problem_holding_everything(history, group)
        if why is not None:
            differences.append(f"T{group[0].tx}: {why}")
            if first_only:
                return 0, differences
        history.extend(group)
    voided = voids_in(records)
    state = CampaignState()
    checked = 0
    for group in groups:
        tx = group[0].tx
        live = tx not in voided
        if live and is_redecided(group):
            checked += 1
            why = redecide(state, group)
            if why is not None:
                differences.append(f"T{tx}: {why}")
                if first_only:
                    break
        for record in group:
            apply_record(state, record, not live)
    return checked, differences


def _void_problem_holding_everything(earlier: list[Record], group: Sequence[Record]) -> str | None:
    opened = group[0].event
    voids = [r.event for r in group if isinstance(r.event, ev.TransactionVoided)]
    if not voids or voids[0].because_of is not None or opened.args.get("target") != voids[0].target:
        return f"does not begin by voiding its target T{opened.args.get('target')}"
    target = voids[0].target
    if not any(r.tx == target for r in earlier):
        return f"voids T{target}, which comes later or does not exist"
    try:
        _state, affected = plan_void(earlier, target)
    except LedgerError as error:
        return f"voids T{target}, which the ledger refuses now: {error}"
    planned = [tx for tx, _why in affected]
    cascaded = [v.target for v in voids[1:] if v.because_of == target]
    if len(cascaded) != len(voids) - 1 or cascaded != planned:
        return (f"voids {', '.join(f'T{t}' for t in cascaded) or 'nothing'} as following from T{target}, "
                f"but voiding T{target} affects {', '.join(f'T{t}' for t in planned) or 'nothing'} now")
    return None


def outcome(check, records: list[Record], first_only: bool) -> tuple[object, ...]:
    try:
        return ("checked", *check(records, first_only=first_only))
    except Exception as error:  # noqa: BLE001 - the same failure is the same outcome
        return ("raised", type(error).__name__, str(error))


def forgeries(records: list[Record]) -> list[list[Record]]:
    """Histories whose voids are not what the ledger plans (each void's target moved, its cascade
    dropped, a voided transaction voided again at the end), and histories voiding an earlier
    transaction at the end."""
    forged = []
    for index, record in enumerate(records):
        event = record.event
        if not isinstance(event, ev.TransactionVoided):
            continue
        for target in {1, event.target - 1, event.target + 1, record.tx, record.tx + 1, 0}:
            moved = msgspec.structs.replace(event, target=target)
            forged.append([*records[:index], msgspec.structs.replace(record, event=moved), *records[index + 1:]])
        if event.because_of is not None:
            forged.append(records[:index] + records[index + 1:])
    last = records[-1]
    voided = voids_in(records)
    # Voided at the end: transactions already voided, and live ones before every voided one (the
    # voids before were decided on a history where those still counted).
    live_earlier = [g[0].tx for g in transactions(records) if is_redecided(g) and g[0].tx < min(voided)]
    for target in [*sorted(voided)[:2], *live_earlier[-3:]]:
        again = [
            msgspec.structs.replace(last, position=last.position + 1, tx=last.tx + 1, event=ev.CommandRecorded(
                command="void", args={"target": target, "cascade": False}, reason="again")),
            msgspec.structs.replace(last, position=last.position + 2, tx=last.tx + 1,
                                    event=ev.TransactionVoided(target=target, reason="again")),
        ]
        forged.append([*records, *again])
    return forged


@pytest.mark.parametrize("trail", WITH_VOIDS, ids=lambda path: path.stem)
def test_the_one_pass_recheck_finds_what_planning_every_void_on_the_whole_history_finds(trail: Path):
    records = list(read(trail).records)
    histories = [records, *forgeries(records)]
    assert len(histories) > 3
    for history in histories:
        for first_only in (True, False):
            assert outcome(recheck, history, first_only) == outcome(recheck_holding_everything, history, first_only)


def test_there_are_golden_trails_with_voids_and_cascades():
    cascaded = [path for path in WITH_VOIDS if b'"because_of":' in path.read_bytes().replace(b'"because_of":null', b"")]
    assert len(WITH_VOIDS) >= 3 and cascaded
