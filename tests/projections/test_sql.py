"""The read-model tables in SQLite and PostgreSQL: kept by the commit hook exactly once, recomputed
after a void, caught up after a failure, and rebuilt from the events to the same bytes."""

from __future__ import annotations

import threading
import uuid

import pytest

from commands.shared import AwardXP, BareRoll, EnlistWarband, RecordBattle, RecruitFighter
from ledger.campaigns import Ledger
from ledger.decide import TableDice
from ledger.errors import Conflict
from projections import sql
from ledger.store import Store
from projections import tables
from projections.tables import ROWS_FORMAT, TABLES


def enlist_and_hire(ledger: Ledger, name: str, ruleset: str = "rated-test") -> uuid.UUID:
    """A campaign with Reikland Rats (T2, 100 gold) and Gunnar (T3, cost 40)."""
    cid = uuid.UUID(ledger.start(name, ruleset, {}, actor="Ann").state.campaign_id)
    ledger.execute(cid, EnlistWarband(name="Reikland Rats", player="Ann", treasury=100), actor="Ann")
    ledger.execute(cid, RecruitFighter(warband="Reikland Rats", name="Gunnar", role="leader", cost=40), actor="Ann")
    return cid


@pytest.fixture
def league(ledger, rated_ruleset) -> uuid.UUID:
    """rated-test: Rats and Gunnar (T1-T3), Clan Skrittle (T4), a battle (T5), 3 XP (T6), a roll (T7)."""
    cid = enlist_and_hire(ledger, "Test League")
    ledger.execute(cid, EnlistWarband(name="Clan Skrittle", player="Bob", treasury=50), actor="Bob")
    ledger.execute(cid, RecordBattle(participants=["Reikland Rats", "Clan Skrittle"], winner="Reikland Rats"), actor="Ann")
    ledger.execute(cid, AwardXP(fighter="Gunnar", amount=3, reason="won"), actor="Ann")
    ledger.execute(cid, BareRoll(expression="D6", purpose="weather"), actor="Ann", dice=TableDice(given=[4]))
    return cid


def test_the_hook_keeps_every_table_current(store, ledger, league, dump):
    state = ledger.load(league)
    tables = dump(store)
    cid = str(league)
    assert tables["rm_tracking"] == [(cid, state.position, state.head, ROWS_FORMAT)]
    assert [(row[1], row[6], row[10]) for row in tables["rm_warbands"]] == [
        ("clan-skrittle", 50, 0),
        ("reikland-rats", 60, 43),
    ]
    assert [(row[1], row[2], row[3], row[5], row[6]) for row in tables["rm_ratings"]] == [  # tx, position, games
        ("clan-skrittle", 4, 11, 0, 0),  # enlisted
        ("reikland-rats", 2, 6, 0, 0),  # enlisted
        ("reikland-rats", 3, 9, 0, 40),  # Gunnar hired
        ("reikland-rats", 6, 15, 1, 43),  # Gunnar's XP, after the battle
    ]
    assert [(row[1], row[3]) for row in tables["rm_battles"]] == [(13, 1)]
    assert len(tables["rm_log"]) == state.position == 17


def test_a_plain_command_appends_and_the_same_records_again_change_nothing(store, ledger, league, dump):
    outcome = ledger.execute(league, AwardXP(fighter="Gunnar", amount=1, reason="again"), actor="Ann")
    before = dump(store)
    assert sql.update(store, league, outcome.state, outcome.records) == sql.REFLECTED
    assert dump(store) == before
    assert before["rm_log"][-1][6] == "Gunnar gains 1 XP (again)"


def test_updates_say_what_they_did(store, clock, rated_ruleset):
    """The hook appends a plain command and recomputes after a void; a memory store has no SQL."""
    ledger = Ledger(store, clock=clock)  # no hook: each update is called by hand
    started = ledger.start("Test League", "rated-test", {}, actor="Ann")
    cid = uuid.UUID(started.state.campaign_id)
    assert sql.update(store, cid, started.state, started.records) == sql.APPENDED
    enlisted = ledger.execute(cid, EnlistWarband(name="Reikland Rats", player="Ann", treasury=100), actor="Ann")
    assert sql.update(store, cid, enlisted.state, enlisted.records) == sql.APPENDED
    voided = ledger.void(cid, "T2", reason="never came", actor="Ann")
    assert sql.update(store, cid, voided.state, voided.records) == sql.RECOMPUTED
    assert sql.update(store, cid, voided.state, voided.records) == sql.REFLECTED
    assert sql.update(Store("memory://"), cid, voided.state, voided.records) == sql.NO_SQL


def test_a_void_recomputes_the_campaign_rows(store, ledger, league, dump):
    ledger.void(league, "T6", reason="no XP for that", actor="Carol")  # T8
    tables = dump(store)
    assert [row[6] for row in tables["rm_ratings"] if row[1] == "reikland-rats"] == [0, 40]
    assert [row[8] for row in tables["rm_fighters"]] == [0]  # Gunnar's XP
    voided = [row for row in tables["rm_log"] if row[2] == 6]
    assert [row[9:] for row in voided] == [(8, "Carol", "2026-11-29T12:00:00.000000Z", "no XP for that")] * 2
    assert tables["rm_campaigns"][0][7] == "[6]"


def test_a_void_of_a_battle_marks_its_row(store, ledger, league, dump):
    ledger.void(league, "T5", reason="wrong table", actor="Ann")  # T8
    tables = dump(store)
    assert [(row[1], row[-1]) for row in tables["rm_battles"]] == [(13, 8)]
    assert [(row[1], row[8]) for row in tables["rm_warbands"]] == [("clan-skrittle", 0), ("reikland-rats", 0)]  # games


def test_tables_that_fell_behind_catch_up_from_the_events(store, ledger, league, dump, clock):
    unhooked = Ledger(store, clock=clock)  # as if the update after this command had failed
    unhooked.execute(league, AwardXP(fighter="Gunnar", amount=2, reason="missed"), actor="Ann")  # T8
    assert dump(store)["rm_tracking"][0][1] == 17
    ledger.execute(league, AwardXP(fighter="Gunnar", amount=1, reason="caught"), actor="Ann")  # T9
    caught_up = dump(store)
    assert [row[6] for row in caught_up["rm_ratings"] if row[1] == "reikland-rats"] == [0, 40, 43, 45, 46]
    sql.rebuild(store, [league], drop=True)
    assert dump(store) == caught_up


def test_a_command_writes_its_rows_and_tracking_in_its_own_commit(store, ledger, league, dump, monkeypatch):
    """The tables reflect the head the command follows: its rows go in with its events, in one
    database transaction, and nothing is left for after the commit."""
    def after_the_commit(*_args):
        raise AssertionError("the rows were left to after the commit")

    with monkeypatch.context() as patch:
        patch.setattr(sql, "update", after_the_commit)
        outcome = ledger.execute(league, AwardXP(fighter="Gunnar", amount=2, reason="in one"), actor="Ann")  # T8
    kept = dump(store)
    assert kept["rm_tracking"] == [(str(league), outcome.state.position, outcome.state.head, ROWS_FORMAT)]
    assert [row[6] for row in kept["rm_log"][-2:]] == ["xp.award", "Gunnar gains 2 XP (in one)"]
    assert [row[6] for row in kept["rm_ratings"] if row[1] == "reikland-rats"] == [0, 40, 43, 45]
    sql.rebuild(store, [league], drop=True)
    assert dump(store) == kept


def test_processes_taking_turns_each_write_their_rows_in_their_own_commit(store, sql_url, ledger, league, dump,
                                                                           clock, monkeypatch):
    """Two processes take turns: each keeps the current rows it wrote, but the other one wrote since
    (Snikch recruited, his XP), so each compares with the rows of the state it decided on instead;
    every commit stays one transaction, and the tables equal a rebuild."""
    def after_the_commit(*_args):
        raise AssertionError("the rows were left to after the commit")

    other = Ledger(Store(sql_url), clock=clock, on_commit=[sql.on_commit], in_commit=[sql.in_commit])
    try:
        with monkeypatch.context() as patch:
            patch.setattr(sql, "update", after_the_commit)
            ledger.execute(league, AwardXP(fighter="Gunnar", amount=1, reason="mine"), actor="Ann")
            other.execute(league, RecruitFighter(warband="Clan Skrittle", name="Snikch", role="leader", cost=30),
                          actor="Bob")
            ledger.execute(league, AwardXP(fighter="Gunnar", amount=1, reason="mine again"), actor="Ann")
            other.execute(league, AwardXP(fighter="Snikch", amount=2, reason="his"), actor="Bob")
            ledger.execute(league, AwardXP(fighter="Snikch", amount=1, reason="mine for him"), actor="Ann")
    finally:
        other.store.close()
    kept = dump(store)
    assert [(row[1], row[8]) for row in kept["rm_fighters"]] == [("gunnar", 5), ("snikch", 3)]  # XP
    sql.rebuild(store, [league], drop=True)
    assert dump(store) == kept


def test_a_failed_update_writes_nothing(store, ledger, league, dump, clock, monkeypatch):
    before = dump(store)

    def fail(*_args):
        raise RuntimeError("disk full")

    monkeypatch.setattr(sql, "_sync", fail)  # writing the current tables: in the commit, then again after it
    with pytest.raises(RuntimeError):
        ledger.execute(league, AwardXP(fighter="Gunnar", amount=2, reason="lost"), actor="Ann")
    assert dump(store) == before


def test_a_rebuild_gives_byte_identical_tables(store, ledger, league, dump, rated_ruleset):
    other = enlist_and_hire(ledger, "Other League", ruleset="freeform")
    ledger.void(league, "T6", reason="no XP for that", actor="Carol")
    ledger.reroll(league, "R0", reason="cocked die", actor="Ann", dice=TableDice(given=[2]))
    ledger.execute(other, AwardXP(fighter="Gunnar", amount=1, reason="first blood"), actor="Ann")
    # Plain commands after the last recomputation: their rows are appended.
    ledger.execute(league, AwardXP(fighter="Gunnar", amount=2, reason="scouting"), actor="Ann")
    ledger.execute(league, RecruitFighter(warband="Clan Skrittle", name="Snikch", role="leader", cost=30), actor="Bob")
    kept = dump(store)
    assert [row[-1] for row in kept["rm_ratings"] if row[0] == str(league)] == [0, 30, 0, 40, 42]
    assert {row[0] for row in kept["rm_tracking"]} == {str(league), str(other)}
    states = sql.rebuild(store, store.campaign_ids(), drop=True)
    assert [s.name for s in states] == ["Test League", "Other League"]
    assert dump(store) == kept


@pytest.mark.postgres
@pytest.mark.parametrize("sql_url", ["postgresql"], indirect=True)
def test_postgresql_tables_live_in_the_store_schema(store, ledger, league):
    with store.sql() as cursor:
        cursor.execute(
            "SELECT table_schema, count(*) FROM information_schema.tables WHERE table_name LIKE 'rm\\_%%' GROUP BY 1"
        )
        found = [tuple(row.values()) for row in cursor.fetchall()]
    assert found == [(store.app.recorder.datastore.schema, len(TABLES))]


def test_an_update_that_comes_after_a_newer_one_changes_nothing(store, clock, rated_ruleset, dump):
    """Two processes commit one after the other, but the second one's update runs first."""
    ledger = Ledger(store, clock=clock)  # no hook: each update is called by hand
    cid = enlist_and_hire(ledger, "Test League")
    first = ledger.execute(cid, AwardXP(fighter="Gunnar", amount=1, reason="first"), actor="Ann")
    second = ledger.execute(cid, AwardXP(fighter="Gunnar", amount=1, reason="second"), actor="Bob")
    assert sql.update(store, cid, second.state, second.records) == sql.APPENDED  # appends the first's rows too
    kept = dump(store)
    assert sql.update(store, cid, first.state, first.records) == sql.REFLECTED
    assert dump(store) == kept
    assert kept["rm_tracking"] == [(str(cid), second.state.position, second.state.head, ROWS_FORMAT)]
    assert [row[6] for row in kept["rm_log"] if "XP (" in row[6]] == ["Gunnar gains 1 XP (first)", "Gunnar gains 1 XP (second)"]
    sql.rebuild(store, [cid], drop=True)
    assert dump(store) == kept


def test_tables_far_behind_catch_up_by_appending_the_missing_transactions(store, clock, rated_ruleset, dump):
    """Updates fail (or another writer's never ran) for many commands, across snapshots: the next
    update appends every missing transaction's rows, each described with the state after it, and
    gives what a rebuild gives."""
    ledger = Ledger(store, clock=clock)  # no hook: the update is called by hand
    cid = enlist_and_hire(ledger, "Test League")
    started = ledger.load(cid)
    assert sql.update(store, cid, started, ledger.history(cid)) == sql.APPENDED  # tracked at T3
    ledger.execute(cid, EnlistWarband(name="Clan Skrittle", player="Bob", treasury=50), actor="Bob")
    for n in range(120):
        ledger.execute(cid, AwardXP(fighter="Gunnar", amount=1, reason=f"award {n}"), actor="Ann")
    last = ledger.execute(cid, RecordBattle(participants=["Reikland Rats", "Clan Skrittle"], winner="Clan Skrittle"),
                          actor="Bob")
    assert store.latest_snapshot(cid)[0] > started.position  # the missing records cross snapshots
    assert sql.update(store, cid, last.state, last.records) == sql.APPENDED
    kept = dump(store)
    sql.rebuild(store, [cid], drop=True)
    assert dump(store) == kept
    assert len(kept["rm_ratings"]) > 3  # a rating row per award that changed it


def test_tables_behind_a_void_are_recomputed(store, clock, rated_ruleset, dump):
    ledger = Ledger(store, clock=clock)
    cid = enlist_and_hire(ledger, "Test League")
    assert sql.update(store, cid, ledger.load(cid), ledger.history(cid)) == sql.APPENDED
    ledger.execute(cid, AwardXP(fighter="Gunnar", amount=1, reason="first"), actor="Ann")
    voided = ledger.void(cid, "T4", reason="never happened", actor="Ann")
    assert sql.update(store, cid, voided.state, voided.records) == sql.RECOMPUTED
    kept = dump(store)
    sql.rebuild(store, [cid], drop=True)
    assert dump(store) == kept


def test_writers_in_parallel_keep_the_tables_exactly(store, sql_url, ledger, league, dump, clock):
    """Four connections award XP at once: every update lands, and the tables are what a rebuild gives."""
    writers = [Ledger(Store(sql_url), clock=clock, on_commit=[sql.on_commit], in_commit=[sql.in_commit])
               for _ in range(4)]
    awarded: list[int] = []
    failures: list[BaseException] = []

    def award(writer: Ledger, name: str) -> None:
        for n in range(15):
            try:
                writer.execute(league, AwardXP(fighter="Gunnar", amount=1, reason=f"{name} {n}"), actor=name)
                awarded.append(1)
            except Conflict:
                pass  # the ledger gave up after its retries and recorded nothing: not the read models' business
            except BaseException as error:  # noqa: BLE001 - collected and asserted below
                failures.append(error)

    threads = [threading.Thread(target=award, args=(w, f"writer {i}")) for i, w in enumerate(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for writer in writers:
        writer.store.close()
    assert failures == []
    kept = dump(store)
    state = ledger.load(league)
    assert kept["rm_tracking"] == [(str(league), state.position, state.head, ROWS_FORMAT)]
    assert [row[8] for row in kept["rm_fighters"]] == [3 + len(awarded)]  # Gunnar's XP
    assert len(awarded) > 30  # most commands got through, so many updates ran side by side
    sql.rebuild(store, [league], drop=True)
    assert dump(store) == kept


def test_a_roll_keeps_the_roster_rows_as_they_were_and_a_rebuild_agrees(store, ledger, league, dump, monkeypatch):
    """Dice alone change no warband or fighter: the commit writes the roll's log rows, the campaign's
    row and the tracking, without computing the roster again."""
    before = dump(store)
    with monkeypatch.context() as patch:
        patch.setattr(tables, "_warband_rows", lambda *args: pytest.fail("the roster rows were computed again"))
        outcome = ledger.execute(league, BareRoll(expression="D6", purpose="ambush"), actor="Ann",
                                 dice=TableDice(given=[2]))  # T8, positions 18-19
    after = dump(store)
    assert (after["rm_warbands"], after["rm_fighters"], after["rm_ratings"]) == (
        before["rm_warbands"], before["rm_fighters"], before["rm_ratings"])
    assert [row[5:7] for row in after["rm_campaigns"]] == [(19, 8)]  # events, transactions
    assert [row[1] for row in after["rm_log"][-2:]] == [18, 19]
    assert after["rm_tracking"] == [(str(league), outcome.state.position, outcome.state.head, ROWS_FORMAT)]
    sql.rebuild(store, [league], drop=True)
    assert dump(store) == after


def test_a_command_about_one_fighter_computes_its_row_and_its_warbands_alone_and_a_rebuild_agrees(
        store, ledger, league, dump, monkeypatch):
    """Gunnar's XP changes his row and the Reikland Rats' (their rating): Ulli's row and Clan
    Skrittle's rows are those the commit before computed; the tables are what a rebuild gives."""
    ledger.execute(league, RecruitFighter(warband="Reikland Rats", name="Ulli", role="henchman", cost=25), actor="Ann")
    computed = []
    real_warband_row, real_fighter_row = tables.warband_row, tables.fighter_row
    with monkeypatch.context() as patch:
        patch.setattr(tables, "warband_row", lambda state, warband, ext: computed.append(warband) or real_warband_row(state, warband, ext))
        patch.setattr(tables, "fighter_row", lambda state, f: computed.append(f.name) or real_fighter_row(state, f))
        patch.setattr(tables, "rating_of", lambda *args: pytest.fail("the ratings are those of the warbands' rows"))
        ledger.execute(league, AwardXP(fighter="Gunnar", amount=2, reason="again"), actor="Ann")
        assert computed == ["reikland-rats", "Gunnar"]
        ledger.execute(league, EnlistWarband(name="Grey Seers", player="Cy", treasury=10), actor="Cy")
        assert computed == ["reikland-rats", "Gunnar", "grey-seers"]  # the campaign-wide inputs are unchanged
    after = dump(store)
    assert [(row[1], row[10]) for row in after["rm_warbands"]] == [("clan-skrittle", 0), ("grey-seers", 0),
                                                                  ("reikland-rats", 45 + 25)]
    sql.rebuild(store, [league], drop=True)
    assert dump(store) == after


def test_after_another_writer_only_what_it_changed_is_computed_again_and_a_rebuild_agrees(
        store, sql_url, ledger, league, dump, clock, monkeypatch):
    """Another process awarded Gunnar XP since this one's last commit: the rows of the state before
    this command are those of the rows this process wrote, but Gunnar's and the Reikland Rats'
    (his XP and their rating), computed again; Clan Skrittle's are taken as they were."""
    ledger.execute(league, AwardXP(fighter="Gunnar", amount=1, reason="mine"), actor="Ann")
    other = Ledger(Store(sql_url), clock=clock, on_commit=[sql.on_commit], in_commit=[sql.in_commit])
    try:
        other.execute(league, AwardXP(fighter="Gunnar", amount=2, reason="his"), actor="Bob")
    finally:
        other.store.close()
    ledger.load(league)  # decided on the other writer's head, as the writers that take turns do, not retried
    computed = []
    real_warband_row, real_fighter_row = tables.warband_row, tables.fighter_row
    with monkeypatch.context() as patch:
        patch.setattr(sql, "update", lambda *args: pytest.fail("the rows were left to after the commit"))
        patch.setattr(tables, "warband_row", lambda state, warband, ext: computed.append(warband) or real_warband_row(state, warband, ext))
        patch.setattr(tables, "fighter_row", lambda state, f: computed.append(f.name) or real_fighter_row(state, f))
        ledger.execute(league, AwardXP(fighter="Gunnar", amount=1, reason="mine again"), actor="Ann")
    # the state before (the other writer's XP), then the state after (this command's)
    assert computed == ["reikland-rats", "Gunnar", "reikland-rats", "Gunnar"]
    kept = dump(store)
    assert [(row[1], row[8]) for row in kept["rm_fighters"]] == [("gunnar", 7)]
    sql.rebuild(store, [league], drop=True)
    assert dump(store) == kept
