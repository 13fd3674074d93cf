"""`campaign verify` on the database: an intact chain, noted heads, and every kind of edit found
at the right position (the rows are edited with sqlite3, as someone with the file would)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from ledger import audit
from ledger.campaigns import Ledger
from ledger.errors import IntegrityFailure
from ledger.store import Store
from ledger.testing import CampaignRunner

# What `verify` says the store's own rows cannot show, up to the way to check it (docs/audit-format.md, What a trail
# cannot show): someone who can write to the database rewrites and rehashes them as a trail's writer would.
NOT_CHECKED = ("Not checked (the store's own rows cannot show it): what a person typed (commands, answers, table dice), "
               "that a roll shown as table dice was not the ledger's, what each roll was for (a ledger die is derived "
               "from its roll's number alone), and that no event was cut off the end; rewritten so and rehashed by "
               "someone with write access to the database, the store has another head: ")


def test_an_untouched_campaign_verifies_with_its_counts_and_head(played, campaign_id):
    head = played.show()["head"]
    result = played("verify")
    assert (result.exit_code, result.output) == (0, (
        f"Hash chain intact: campaign Demo ({campaign_id}), 25 events in 10 transactions.\n"
        "Ledger dice: 3 rolls re-derived from the revealed seed of epoch 0; "
        "1 roll of epoch 1 waits for its seed to be revealed.\n"
        f"{NOT_CHECKED}check it against a head noted earlier (--head HASH) or an earlier export (--extends OLD.jsonl).\n"
        "Snapshot at position 20 matches the events.\n"  # written by the reroll's refold
        "Read models: the 7 rm_* tables match a rebuild from the events.\n"
        f"Head {head}\n"
    ))


def test_verify_json(played, campaign_id):
    result = played("verify", "--json", "--head", played.log()[13]["hash"][:8])
    assert json.loads(result.output) == {
        "campaign_id": campaign_id,
        "name": "Demo",
        "events": 25,
        "transactions": 10,
        "head": played.show()["head"],
        "revealed_seeds": {"0": "01" * 32},
        "ledger_rolls_verified": 3,  # R1, R2 (the shuffle) and R3, all of epoch 0
        "ledger_rolls_waiting": {"1": 1},  # R4
        "snapshot": 20,
        "noted_head_position": 14,
        "unanchored_after_position": 14,
    }


def test_a_noted_earlier_head_says_how_many_events_followed(played):
    noted = played.log()[13]["hash"]  # the head after T5, position 14
    result = played("verify", "--head", noted[:16])
    assert result.exit_code == 0
    assert result.output.splitlines()[-2] == "Head noted at position 14; 11 events were added since."
    # what the store's rows cannot show is said of the events after the noted head only
    assert result.output.splitlines()[2] == (
        NOT_CHECKED.replace("Not checked", "Not checked in the 11 events after position 14", 1)
        + "note this one to check the store against next time.")


def documented_line(whose: str) -> str:
    """The "Not checked" line docs/audit-format.md shows for `whose` verification ("trail", "PostgreSQL store")."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "audit-format.md").read_text(encoding="utf-8")
    return re.search(rf"{whose}'s verification[\s\S]*?says:\n\n```\n(Not checked[^\n]*)\n```", text).group(1)


def test_the_audit_format_shows_the_line_a_trail_verifies_with(played, trail):
    assert played("verify", str(trail.path)).output.splitlines()[2] == documented_line("trail")


def test_a_store_checked_against_its_own_head_leaves_nothing_unchecked(played):
    head = played.show()["head"]
    assert "Not checked" not in played("verify", "--head", head).output
    assert json.loads(played("verify", "--head", head, "--json").output)["unanchored_after_position"] is None


def test_the_audit_format_s_verify_example_is_what_verify_says(played):
    """docs/audit-format.md, "What `campaign verify` reports": its example is this campaign's, head noted after T5."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "audit-format.md").read_text(encoding="utf-8")
    example = re.search(r"```\n\$ campaign verify --head <the head noted after transaction 5>\n(.*?)```", text, re.DOTALL)
    result = played("verify", "--head", played.log()[13]["hash"][:16])
    assert (result.exit_code, result.output) == (0, example.group(1))


def test_the_current_head_noted(played):
    result = played("verify", "--head", played.show()["head"])
    assert result.output.splitlines()[-2] == "The noted head is the current head."


def test_a_head_that_is_not_in_the_chain_fails(played):
    result = played("verify", "--head", "0123456789abcdef")
    assert (result.exit_code, result.output) == (
        3, "Error: the noted head 0123456789abcdef is not in this chain: the history it ended was changed "
        "(unless it was noted wrong, or is another campaign's)\n"
    )


@pytest.mark.parametrize("noted", ["1234567", "not-a-hash", "0" * 65])
def test_a_head_must_be_at_least_8_hex_digits(played, noted):
    result = played("verify", "--head", noted)
    assert (result.exit_code, result.output) == (
        2, f"Error: --head takes a head hash or at least its first 8 hex digits, not '{noted}'\n"
    )


# --- edits of the database -------------------------------------------------------------------------

EDITED = "stored hash does not match its record (the event was edited)"


@pytest.mark.parametrize(
    ("position", "old", "new", "problem"),
    [
        (8, b'"faces":[3,5]', b'"faces":[3,6]', EDITED),  # a table die of R0
        (12, b'"actor":"arbiter"', b'"actor":"mallory"', EDITED),
        (6, b'"treasury":100', b'"treasury":900', EDITED),
        (20, b'"recorded_at":"2026-01-01', b'"recorded_at":"2025-01-01', EDITED),
        (16, b'"hash":"', b'"hash":"0', "does not decode: 'hash' must be 64 lowercase hex digits"),
        (8, b'"faces":[3,5]', b'"faces":["3",5]', "does not decode: Expected `int`, got `str` - at `$.faces[0]`"),
        (8, b'"faces":[3,5]', b'"faces":[3,5.0]', "does not decode: 5.0 is not an integer (records hold integers only)"),
        # The unclosed list swallows the next key; the colon after it is where a ',' was expected.
        (8, b'"faces":[3,5]', b'"faces":[3,5', "does not decode: Expecting ',' delimiter: line 1 column 334 (char 333)"),
        (9, b'{"position":9,', b'{"position":9,"position":9,', "does not decode: key 'position' appears twice"),
        (9, b'{"position":9,', b'{"position":10,', "holds position 10 where position 9 was expected "
                                                    "(an event was removed, added or moved)"),
        (3, b'"type":"ruleset.pinned"', b'"type":"no.such.event"',
         "does not decode: Invalid value 'no.such.event' - at `$.type`"),
    ],
)
def test_an_edited_row_is_found_at_its_position(played, database, position, old, new, problem):
    database.rewrite(position, old, new)
    result = played("verify")
    assert (result.exit_code, result.output) == (3, f"Error: position {position}: {problem}\n")


def test_a_deleted_row_is_found_at_its_position(played, database):
    database.delete(9)
    result = played("verify")
    assert (result.exit_code, result.output) == (
        3, "Error: position 9: missing (the stored events go from 8 to 10): an event was deleted\n"
    )


def test_a_row_replaced_by_a_rehashed_one_breaks_the_link_to_the_next(played, database):
    database.forge(8, double_six, through=8)
    result = played("verify")
    assert (result.exit_code, result.output) == (3, (
        "Error: position 9: its prev_hash is not the hash of position 8 "
        "(an event before it was replaced, or this one was edited)\n"
    ))


def double_six(event: dict) -> None:
    event["faces"], event["value"] = [6, 6], 12


def test_a_forged_chain_rehashed_to_the_end_verifies_but_not_against_a_noted_head(played, database):
    noted = played.show()["head"]
    database.forge(8, double_six)  # R0, table dice
    tracked = played("verify")  # the read models still reflect the old head
    assert tracked.exit_code == 3 and tracked.output.startswith("Error: rm_tracking: row (campaign_id=")
    assert played("rebuild").exit_code == 0  # a careful forger rebuilds them too
    assert played("verify").exit_code == 0  # table dice can only be vouched for by the noted head
    result = played("verify", "--head", noted[:16])
    assert (result.exit_code, result.output) == (
        3, f"Error: the noted head {noted[:16]} is not in this chain: the history it ended was changed "
        "(unless it was noted wrong, or is another campaign's)\n"
    )


def test_forged_ledger_dice_are_caught_by_the_revealed_seed_even_when_rehashed(played, database):
    def loot_roll_says_one(event: dict) -> None:
        event["faces"], event["value"] = [1], 1

    database.forge(10, loot_roll_says_one)  # R1, ledger dice of epoch 0 (rolled 6)
    result = played("verify")
    assert (result.exit_code, result.output) == (
        3, "Error: position 10: ledger roll R1 shows [1], but the revealed seed of epoch 0 gives [6]\n"
    )


def test_a_value_that_does_not_follow_from_the_faces_is_found(played, database):
    def claims_more(event: dict) -> None:
        event["value"] = 11

    database.forge(8, claims_more)
    result = played("verify")
    assert (result.exit_code, result.output) == (
        3, "Error: position 8: roll R0: 2D6 showing [3, 5] counts as 8 (kept []), not 11 (kept [])\n"
    )


@pytest.mark.parametrize("edit, problem", [
    ({"faces": [7, 5], "value": 12}, "faces [7, 5] cannot come from 2D6"),
    ({"faces": [3], "value": 3}, "faces [3] cannot come from 2D6"),
    ({"faces": [3, 5, 1], "value": 9}, "faces [3, 5, 1] cannot come from 2D6"),
    ({"kept": [5]}, "2D6 showing [3, 5] counts as 8 (kept []), not 8 (kept [5])"),
    ({"expression": "shuffle 0"}, "'shuffle 0' is not a shuffle (shuffle K, K at least 1)"),
    ({"expression": "shuffle ²"}, "'shuffle ²' is not a shuffle (shuffle K, K at least 1)"),
    ({"epoch": 0}, "table dice name no epoch"),
    ({"source": "dealer"}, "source 'dealer' is neither 'table' nor 'ledger'"),
])
def test_a_forged_roll_is_named_even_where_the_same_throw_verified_before(played, database, edit, problem):
    assert played("verify").exit_code == 0  # R0's 2D6 showing [3, 5] verified once in this process
    database.forge(8, lambda event: event.update(edit))
    result = played("verify")
    assert (result.exit_code, result.output) == (3, f"Error: position 8: roll R0: {problem}\n")


def test_an_edited_snapshot_is_found(played):
    with sqlite3.connect(played.folder / "c.db") as conn:
        (state,) = conn.execute("SELECT state FROM stored_snapshots WHERE originator_version = 20").fetchone()
        conn.execute(
            "UPDATE stored_snapshots SET state = ? WHERE originator_version = 20",
            (bytes(state).replace(b'"treasury":100', b'"treasury":900', 1),),
        )
    result = played("verify")
    assert (result.exit_code, result.output) == (3, (
        "Error: the snapshot at position 20 does not match the events before it (it was edited): "
        "campaigns would load a state the history does not give\n"
    ))


def test_a_campaign_is_found_by_name_even_when_its_rows_do_not_decode(played, database):
    database.rewrite(8, b'"faces":[3,5]', b'"faces":[3,5')
    result = played("--campaign", "demo", "verify")
    assert result.exit_code == 3
    assert result.output.startswith("Error: position 8: does not decode: ")


def test_verify_names_an_unknown_campaign(played):
    result = played("--campaign", "Other", "verify")
    assert (result.exit_code, result.output) == (2, f"Error: no campaign 'Other' in {played.url()}\n")


class ReadFailed(Exception):
    pass


def read_five_then_fail(store, records, voids):
    for _n, _record in zip(range(5), records):
        pass
    raise ReadFailed("the check beside the chain failed")


def test_a_chain_that_does_not_verify_is_named_before_what_the_check_beside_it_failed_on(played, database):
    """verify reads the chain once and hands its records to the read-model check as they are
    verified: when that check fails early, the rest of the chain is still read, and its own
    failure (at position 20 here) is the one named, as when the chain was verified first."""
    database.rewrite(20, b'"actor":"', b'"actor":"forger ')
    ledger = Ledger(Store(played.url()))
    try:
        with pytest.raises(IntegrityFailure, match="^position 20: "):
            audit.verify_store_reading(ledger.store, ledger.find(None), read_five_then_fail)
    finally:
        ledger.store.close()


def test_what_the_check_beside_a_sound_chain_failed_on_is_raised(played):
    ledger = Ledger(Store(played.url()))
    try:
        with pytest.raises(ReadFailed):
            audit.verify_store_reading(ledger.store, ledger.find(None), read_five_then_fail)
    finally:
        ledger.store.close()


def test_a_store_that_fails_while_the_chain_is_read_is_reported_as_it_failed(played, database, monkeypatch):
    """Not as "no campaign" (the reading that failed had counted no event yet)."""
    store = Store(f"sqlite:///{database.path}")

    def failing(*_args, **_options):
        raise sqlite3.OperationalError("disk I/O error")
        yield  # a generator, as the store's

    monkeypatch.setattr(store, "raw_rows", failing)
    try:
        with pytest.raises(sqlite3.OperationalError, match="^disk I/O error$"):
            audit.verify_store_reading(store, audit.find_campaign(store, None), lambda store, records, voids: list(records))
    finally:
        store.close()


@pytest.mark.postgres
def test_a_postgresql_store_leaves_its_ledger_rolls_to_the_record_of_dice_dealt(fresh_postgres):
    """On PostgreSQL the dice role records every die dealt, and `verify` checks each stored ledger roll against it:
    what the store's own rows cannot show is what a person typed and an end cut off (docs/audit-format.md)."""
    campaign = CampaignRunner(fresh_postgres)
    assert campaign("new", "League").exit_code == 0
    assert campaign("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    shown = json.loads(campaign("show", "--json").output)
    result = campaign("verify")
    assert (result.exit_code, result.output) == (0, (
        f"Hash chain intact: campaign League ({shown['campaign_id']}), 6 events in 2 transactions.\n"
        "Ledger dice: 1 roll of epoch 0 waits for its seed to be revealed.\n"
        f"{documented_line('PostgreSQL store')}\n"
        "Read models: the 7 rm_* tables match a rebuild from the events.\n"
        f"Head {shown['head']}\n"))
