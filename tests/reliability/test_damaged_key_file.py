"""A damaged key file (CAMPAIGN_KEYS) is refused where it is read, naming it (exit 3), and neither
rolled with nor written over: a seed of another type than text, or a campaign's entry that is not
an object, was exit 70 (TypeError in fromhex(), AttributeError) wherever it was first used."""

from __future__ import annotations

import json

import pytest

from ledger.testing import CampaignRunner


@pytest.fixture
def keys(tmp_path, monkeypatch):
    path = tmp_path / "keys.json"
    monkeypatch.setenv("CAMPAIGN_KEYS", str(path))
    return path


@pytest.fixture
def started(keys, tmp_path) -> CampaignRunner:
    cli = CampaignRunner(f"sqlite:///{tmp_path / 'campaign.db'}")
    assert cli("new", "Spring").exit_code == 0
    return cli


def damage(keys, edit) -> bytes:
    content = json.loads(keys.read_text())
    (campaign_id,) = content["seeds"]
    edit(content["seeds"], campaign_id)
    keys.write_text(json.dumps(content))
    return keys.read_bytes()


def refused(keys, detail: str) -> tuple[int, str]:
    return 3, f"Error: the key file {keys} is not a campaign-ledger key file ({detail})\n"


@pytest.mark.parametrize("seed, kind", [(123, "int"), ([1], "array"), ({"a": 1}, "object"), (True, "bool")])
def test_a_seed_that_is_not_text(started, keys, seed, kind):
    damaged = damage(keys, lambda seeds, cid: seeds[cid].update({"0": seed}))
    result = started("roll", "D6", "--for", "x", "--ledger")
    assert (result.exit_code, result.output) == refused(keys, f"Expected `str`, got `{kind}` - at `$.seeds[...][...]`")
    assert keys.read_bytes() == damaged


@pytest.mark.parametrize("entry, kind", [([1], "array"), ("x", "str"), (5, "int")])
def test_a_campaign_entry_that_is_not_an_object(started, keys, entry, kind):
    damage(keys, lambda seeds, cid: seeds.update({cid: entry}))
    result = started("roll", "D6", "--for", "x", "--ledger")
    assert (result.exit_code, result.output) == refused(keys, f"Expected `object`, got `{kind}` - at `$.seeds[...]`")


def test_an_epoch_that_is_not_a_number(started, keys):
    damage(keys, lambda seeds, cid: seeds[cid].update({"x": "00" * 32}))
    result = started("seed", "where")
    assert (result.exit_code, result.output) == refused(
        keys, "Expected `str` matching regex '^(0|[1-9][0-9]*)$' - at `key` in `$.seeds[...]`")


@pytest.mark.parametrize("content, detail", [
    (b"\xff\xfe", "JSON is malformed: invalid character (byte 0)"),
    (b"", "Input data was truncated"),
    (b'{"format": "other", "seeds": {}}', 'its format is "other", not "campaign-ledger-keys"'),
    (b'{"format": "campaign-ledger-keys", "seeds": {"c": {"0": "\\ud800"}}}', "Input data was truncated"),  # msgspec's words for it
], ids=["not UTF-8", "empty", "another format", "a lone surrogate"])
def test_a_file_of_another_kind(started, keys, content, detail):
    keys.write_bytes(content)
    result = started("roll", "D6", "--for", "x", "--ledger")
    assert (result.exit_code, result.output) == refused(keys, detail)


def test_a_new_campaign_is_not_started_beside_a_damaged_key_file(keys, tmp_path):
    keys.write_text('{"format": "campaign-ledger-keys", "seeds": {"c": [1]}}')
    keys.chmod(0o600)  # the keeper's alone, as the ledger writes it: its content is what is wrong
    store = tmp_path / "other.db"
    result = CampaignRunner(f"sqlite:///{store}")("new", "Autumn")
    assert (result.exit_code, result.output) == refused(keys, "Expected `object`, got `array` - at `$.seeds[...]`")
    assert not store.exists()
    assert keys.read_text() == '{"format": "campaign-ledger-keys", "seeds": {"c": [1]}}'


def test_a_key_file_without_end_is_refused_at_its_limit(tmp_path, monkeypatch):
    """CAMPAIGN_KEYS=/dev/zero was read until memory ran out (10 GB in 10 s)."""
    monkeypatch.setenv("CAMPAIGN_KEYS", "/dev/zero")
    result = CampaignRunner(f"sqlite:///{tmp_path / 'campaign.db'}")("new", "Spring")
    assert (result.exit_code, result.output) == (
        3, "Error: the key file /dev/zero is not a campaign-ledger key file (more than 134,217,728 bytes)\n")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["report", "-o", "{keys}", "--force"], ["roster", "Rats", "--format", "md", "-o", "{keys}", "--force"],
    ["export", "-o", "{keys}", "--force"], ["backup", "{keys}", "--force"],
    ["seed", "export", "-o", "{keys}", "--force"],
])
def test_no_file_written_for_you_is_the_key_file(started, keys, args):
    """A report (written over any file without --force) over the key file lost every seed of the store."""
    assert started("warband", "add", "Rats", "--player", "Ann").exit_code == 0
    before = keys.read_bytes()
    result = started(*(arg.format(keys=keys) for arg in args))
    assert (result.exit_code, result.output) == (
        2, f"Error: {keys} is the key file of the store {started.store}'s secret seeds: nothing written\n")
    assert keys.read_bytes() == before
