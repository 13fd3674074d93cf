"""`campaign seed where / export / import / new-epoch / reveal`: the secret seed behind ledger dice
is out of the players' reach (issue #7, attacks 2 and 3).

A SQLite campaign file is handed around a league, so the seed is not in it: it is in the dice
keeper's key file (CAMPAIGN_KEYS here, always under tmp_path). A copy of the file predicts nothing;
a missing key is a clear error naming the two ways on, never a silent new seed; a seed that does
not match its commitment is refused before any roll or reveal, with nothing written."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import uuid

import pytest
from eventsourcing.persistence import StoredEvent

from ledger import dice
from ledger.keyfile import KEYS_ENV, KeyFile
from ledger.store import Store
from ledger.testing import FIXED_SEED, CampaignRunner


@pytest.fixture
def keys(tmp_path, monkeypatch):
    path = tmp_path / "keeper" / "keys.json"
    monkeypatch.setenv(KEYS_ENV, str(path))
    return path


@pytest.fixture
def campaign(tmp_path, keys) -> CampaignRunner:
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "campaign.db"))
    assert runner("new", "League").exit_code == 0
    return runner


def show(campaign) -> dict:
    return json.loads(campaign("show", "--json").output)


def log_lines(campaign) -> list[str]:
    return campaign("log").output.splitlines()


def test_the_campaign_file_holds_no_seed_the_key_file_does_and_only_its_owner_reads_it(campaign, tmp_path, keys):
    for name in os.listdir(tmp_path):
        if name.startswith("campaign.db"):
            data = (tmp_path / name).read_bytes()
            assert FIXED_SEED not in data and FIXED_SEED.hex().encode() not in data, name
    with sqlite3.connect(tmp_path / "campaign.db") as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "stored_seeds" not in tables
    kept = json.loads(keys.read_text())
    assert list(kept["seeds"].values()) == [{"0": FIXED_SEED.hex()}]
    assert stat.S_IMODE(keys.stat().st_mode) == 0o600
    assert stat.S_IMODE(keys.parent.stat().st_mode) == 0o700


def test_seed_where_names_the_key_file(campaign, keys):
    result = campaign("seed", "where")
    assert (result.exit_code, result.output) == (
        0, f"Key file: {keys} (holds the seeds of 1 campaign(s); set CAMPAIGN_KEYS to use another file).\n"
    )


def test_without_its_key_file_a_ledger_roll_is_a_clear_error_and_no_seed_is_made(campaign, tmp_path, monkeypatch):
    elsewhere = tmp_path / "other-machine" / "keys.json"
    monkeypatch.setenv(KEYS_ENV, str(elsewhere))
    before = show(campaign)["events"]
    result = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert (result.exit_code, result.output) == (2, (
        f"Error: the secret dice seed of League (epoch 0) is not in the key file {elsewhere}, so the ledger cannot "
        "roll: bring it from the machine that started the campaign (`campaign seed export` there, `campaign seed "
        "import FILE` here; a league server's campaign has none to bring: its seeds never leave the server's "
        "database, so it opens a new epoch), or open a new epoch here with `campaign seed new-epoch --reason …` "
        "(recorded in the log); table dice (--dice) work either way\n"
    ))
    assert not elsewhere.exists()
    assert show(campaign)["events"] == before


def test_the_seed_travels_with_export_and_import_and_rolls_the_same_dice(campaign, tmp_path, monkeypatch, keys):
    trail, seed_file = tmp_path / "trail.jsonl", tmp_path / "seed.json"
    assert campaign("export", "-o", str(trail)).exit_code == 0
    exported = campaign("seed", "export", "-o", str(seed_file))
    assert (exported.exit_code, exported.output) == (0, (
        f"Exported the seed of epoch 0 of League to {seed_file}. Anyone who reads it can predict the ledger "
        "dice: move it, import it, then delete it.\n"
    ))
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    # Exported again over it (--force), it is still readable by its owner only
    assert campaign("seed", "export", "-o", str(seed_file), "--force").exit_code == 0
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    here = campaign("roll", "3D6", "--for", "loot", "--ledger").output.splitlines()[0]

    monkeypatch.setenv(KEYS_ENV, str(tmp_path / "other-machine" / "keys.json"))
    there = CampaignRunner("sqlite:///" + str(tmp_path / "there.db"))
    assert there("import", str(trail)).exit_code == 0
    imported = there("seed", "import", str(seed_file))
    assert (imported.exit_code, imported.output) == (0, (
        f"The seed of epoch 0 of League matches its commitment and is kept in {tmp_path / 'other-machine' / 'keys.json'}: "
        "ledger dice roll here now.\n"
    ))
    assert there("roll", "3D6", "--for", "loot", "--ledger").output.splitlines()[0] == here


def test_a_seed_file_that_does_not_match_the_commitment_is_refused(campaign, tmp_path):
    seed_file = tmp_path / "seed.json"
    campaign("seed", "export", "-o", str(seed_file))
    forged = json.loads(seed_file.read_text())
    forged["seed"] = "ab" * 32
    seed_file.write_text(json.dumps(forged))
    result = campaign("seed", "import", str(seed_file))
    assert result.exit_code == 3
    assert result.output.startswith("Error: the seed in the file of epoch 0 does not match the epoch's commitment")


def test_a_new_epoch_on_another_machine_is_recorded_as_such(campaign, tmp_path, monkeypatch):
    campaign("roll", "D6", "--for", "before the move", "--ledger")
    trail = tmp_path / "trail.jsonl"
    campaign("export", "-o", str(trail))
    monkeypatch.setenv(KEYS_ENV, str(tmp_path / "other-machine" / "keys.json"))
    there = CampaignRunner("sqlite:///" + str(tmp_path / "there.db"))
    there("import", str(trail))
    opened = there("seed", "new-epoch", "--reason", "moved to Bob's laptop without the key")
    assert opened.exit_code == 0, opened.output
    assert opened.output.splitlines()[:2] == [
        "  dice seed of epoch 0 left behind, never to be revealed here: moved to Bob's laptop without the key",
        f"  dice seed of epoch 1 committed: sha256 {dice.commitment(FIXED_SEED)[:16]}…",
    ]
    assert there("roll", "D6", "--for", "after the move", "--ledger").exit_code == 0
    assert there("seed", "new-epoch", "--reason", "again").output == (
        "Error: the seed of epoch 1 is here: reveal it with `campaign seed reveal`, which also opens the next epoch\n"
    )
    verified = there("verify")
    assert verified.exit_code == 0, verified.output
    assert verified.output.splitlines()[1] == (
        "Ledger dice: 1 roll of epoch 0 can never be re-derived here (its seed was left behind); "
        "1 roll of epoch 1 waits for its seed to be revealed."
    )


# --- attack 3: a seed that does not match its commitment is never used ------------------------------


def swap_seed(keys, seed_hex: str) -> None:
    kept = json.loads(keys.read_text())
    for seeds in kept["seeds"].values():
        seeds["0"] = seed_hex
    keys.write_text(json.dumps(kept))


def test_a_swapped_seed_is_refused_before_any_roll_reveal_or_export_and_nothing_is_written(campaign, keys):
    swap_seed(keys, "ab" * 32)
    before = show(campaign)
    message = (
        "Error: the stored seed of epoch 0 does not match the epoch's commitment "
        f"({dice.commitment(FIXED_SEED)[:16]}…): it was changed, so the ledger refuses to roll with it or reveal it\n"
    )
    rolled = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert (rolled.exit_code, rolled.output) == (3, message)
    revealed = campaign("seed", "reveal")
    assert (revealed.exit_code, revealed.output) == (3, message)
    exported = campaign("seed", "export", "-o", str(keys.parent / "seed.json"))
    assert (exported.exit_code, exported.output) == (3, message) and not (keys.parent / "seed.json").exists()
    assert show(campaign) == before
    assert campaign("verify").exit_code == 0 and campaign("export").exit_code == 0
    table = campaign("roll", "D6", "--for", "loot", "--dice", "4")
    assert table.exit_code == 0  # table dice need no seed


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
def test_a_key_file_others_may_open_is_refused_until_it_is_the_keepers_alone(campaign, keys, tmp_path, mode):
    """README: the key file is mode 0600, its keeper's alone; one others could read (CAMPAIGN_KEYS at a copy made
    with the usual umask) was used silently, its seeds open to anyone who could foresee the ledger dice with them."""
    keys.chmod(mode)
    before = show(campaign)
    message = (f"Error: the key file {keys} is open to others (mode {mode:04o}): whoever reads its seeds can foresee "
               f"every ledger die; make it yours alone (chmod 600 {keys}) and run again\n")
    rolled = campaign("roll", "D6", "--for", "loot", "--ledger")
    assert (rolled.exit_code, rolled.output) == (2, message)
    assert show(campaign) == before
    table = campaign("roll", "D6", "--for", "loot", "--dice", "4")
    assert table.exit_code == 0, table.output  # table dice need no seed, as without one
    before = show(campaign)
    other = CampaignRunner("sqlite:///" + str(tmp_path / "other.db"))
    started = other("new", "Another League")
    assert (started.exit_code, started.output) == (2, message) and not (tmp_path / "other.db").exists()
    assert show(campaign) == before and oct(keys.stat().st_mode & 0o777) == oct(mode)
    keys.chmod(0o600)
    assert campaign("roll", "D6", "--for", "loot", "--ledger").exit_code == 0


def test_a_long_lived_store_reads_a_seed_from_the_key_file_once_and_a_missing_one_each_time(campaign, keys):
    """Every ledger roll looks its seed up: a store that stays open keeps one it found (an epoch's
    seed never changes), and looks again for one it did not find (another process may keep it since)."""
    store = Store(campaign.store)
    try:
        cid = str(store.campaign_ids()[0])
        real_read, reads = store.keys._read, []
        store.keys._read = lambda: reads.append(1) or real_read()

        assert [store.seed(uuid.UUID(cid), 0) for _ in range(3)] == [FIXED_SEED.hex()] * 3
        assert store.seed(uuid.UUID(cid), 1) is None
        KeyFile(keys).save(cid, 1, "cd" * 32)  # another process opens epoch 1
        assert [store.seed(uuid.UUID(cid), 1) for _ in range(2)] == ["cd" * 32] * 2
        assert len(reads) == 3  # epoch 0 once, epoch 1 missing, epoch 1 found
    finally:
        store.close()


# --- campaigns whose seeds an older version kept inside the file ---------------------------------------


def legacy_campaign(tmp_path, seed_hex: str) -> tuple[CampaignRunner, str]:
    """A campaign as the previous version left it: its seed in the file's `stored_seeds` table."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "old.db"))
    runner("new", "Old League")
    store = Store("sqlite:///" + str(tmp_path / "old.db"))
    campaign_id = store.campaign_ids()[0]
    store.keys.path.unlink()  # as if the key file never held it
    recorder = store.app.factory.aggregate_recorder(purpose="seeds")
    recorder.create_table()
    recorder.insert_events([StoredEvent(originator_id=campaign_id, originator_version=1, topic="ledger.seed",
                                        state=seed_hex.encode())])
    store.close()
    return runner, str(campaign_id)


def stored_seed_rows(tmp_path) -> list:
    with sqlite3.connect(tmp_path / "old.db") as db:
        return db.execute("SELECT state FROM stored_seeds").fetchall()


def test_a_seed_left_in_the_old_table_moves_to_the_key_file_on_first_use_once(tmp_path, keys):
    runner, campaign_id = legacy_campaign(tmp_path, FIXED_SEED.hex())
    assert len(stored_seed_rows(tmp_path)) == 1
    rolled = runner("roll", "D6", "--for", "loot", "--ledger")
    assert rolled.exit_code == 0, rolled.output
    assert stored_seed_rows(tmp_path) == []
    assert json.loads(keys.read_text())["seeds"][campaign_id] == {"0": FIXED_SEED.hex()}
    for name in os.listdir(tmp_path):
        if name.startswith("old.db"):
            assert FIXED_SEED.hex().encode() not in (tmp_path / name).read_bytes(), name
    assert runner("roll", "D6", "--for", "again", "--ledger").exit_code == 0


def test_a_seed_swapped_in_the_old_table_is_refused_on_first_use(tmp_path, keys):
    """The attack as scripted: UPDATE stored_seeds SET state='abab…', then roll and reveal."""
    runner, _ = legacy_campaign(tmp_path, FIXED_SEED.hex())
    with sqlite3.connect(tmp_path / "old.db") as db:
        db.execute("UPDATE stored_seeds SET state = ?", (("ab" * 32).encode(),))
    before = runner("show", "--json").output
    assert runner("roll", "D6", "--for", "loot", "--ledger").exit_code == 3
    assert runner("seed", "reveal").exit_code == 3
    assert runner("show", "--json").output == before
    assert runner("verify").exit_code == 0


def test_a_copy_on_the_same_machine_rolls_nothing_from_a_seed_its_original_revealed(campaign, tmp_path, keys):
    """A trail imported into another store here shares the key file: once the original reveals the epoch, the
    copy's dice of that epoch would be derived from a public seed, so anyone could foresee them."""
    trail = tmp_path / "trail.jsonl"
    assert campaign("export", "-o", str(trail)).exit_code == 0
    copy = CampaignRunner("sqlite:///" + str(tmp_path / "copy.db"))
    assert copy("import", str(trail)).exit_code == 0
    assert copy("roll", "D6", "--for", "loot", "--ledger").exit_code == 0  # secret still: it rolls
    assert campaign("seed", "reveal").exit_code == 0
    head = copy("verify", "--json").output
    refused = copy("roll", "D6", "--for", "loot", "--ledger")
    assert (refused.exit_code, refused.output) == (1, (
        f"Error: the seed of epoch 0 of League may be public, so no ledger die is rolled from it: the key file {keys} "
        "holds the seed of epoch 1, which only a reveal of epoch 0 (or a new epoch) makes, and this store has "
        "recorded neither (another store of the campaign on this machine did, or a reveal here stopped before it "
        "was recorded); `campaign seed reveal` records the reveal here and opens epoch 1; table dice (--dice) work "
        "either way\n"))
    assert copy("verify", "--json").output == head
    assert copy("roll", "D6", "--for", "loot", "--dice", "4").exit_code == 0
    assert copy("seed", "reveal").exit_code == 0  # it commits to the epoch the original opened
    committed = [line.split(maxsplit=3)[-1] for line in log_lines(copy) + log_lines(campaign) if "epoch 1" in line]
    assert len(committed) == 2 and committed[0] == committed[1], committed
    assert copy("roll", "D6", "--for", "loot", "--ledger").exit_code == 0
    assert campaign("roll", "D6", "--for", "loot", "--ledger").exit_code == 0  # the original never was in the way
