"""`campaign import`: an exported trail rebuilds the same campaign (same head) in another store,
and a trail that does not verify, or would clash, writes nothing."""

from __future__ import annotations

import sqlite3
import uuid

import pytest

from ledger import audit, campaigns, rulesets
from ledger.campaigns import Ledger
from ledger.keyfile import KEYS_ENV
from ledger.store import Store
from projections.history import void_annotations


def imported_line(trail, campaign_id: str) -> str:
    return f"Imported Demo ({campaign_id}) from {trail.path}: 25 events in 10 transactions, hash chain verified.\n"


SAME_KEYS = "Ledger dice: this machine's key holds the secret seed of epoch 1, so ledger dice roll on as before.\n"
NO_LEDGER_DICE = (
    "Ledger dice: the secret seed of epoch 1 is not on this machine: bring it with `campaign seed import FILE` "
    "(a league server's campaign has none to bring: its seeds never leave the server's database, so it opens a new "
    "epoch) or open a new epoch with `campaign seed new-epoch --reason …`; table dice (--dice) work meanwhile.\n"
)


def test_an_imported_trail_is_the_same_campaign_down_to_its_head(played, trail, campaign_id):
    head = played.show()["head"]
    result = played("import", str(trail.path), store="copy.db")
    assert (result.exit_code, result.output) == (0, imported_line(trail, campaign_id) + SAME_KEYS + f"Head {head}\n")
    assert played.show(store="copy.db") == played.show()
    assert played.log(store="copy.db") == played.log()
    # Exporting the copy gives the very bytes that were imported.
    assert played("export", store="copy.db").stdout_bytes == trail.path.read_bytes()


def test_the_imported_copy_verifies_and_replays(played, trail):
    played("import", str(trail.path), store="copy.db")
    assert played("verify", store="copy.db").output.splitlines()[-3:] == [
        "Snapshot at position 25 matches the events.",  # import snapshots the state it folded
        "Read models: the 7 rm_* tables match a rebuild from the events.",
        f"Head {played.show()['head']}",
    ]
    result = played("replay", "--check", store="copy.db")
    # T2 (enlist), T5 (draw), T8 (reroll's roll) and T10 (roll); T3 and T4 are voided.
    assert (result.exit_code, result.output) == (0, "Re-decided 4 transactions from their commands and dice: all match.\n")


def test_the_read_model_tables_are_filled_by_an_import(played, trail):
    played("import", str(trail.path), store="copy.db")
    with sqlite3.connect(played.folder / "copy.db") as conn:
        rows = conn.execute("SELECT name, events, head FROM rm_campaigns").fetchall()
    assert rows == [("Demo", 25, played.show()["head"])]


def test_a_copy_on_another_machine_rolls_table_dice_but_not_ledger_dice(played, trail, monkeypatch, campaign_id):
    monkeypatch.setenv(KEYS_ENV, str(played.folder / "other-machine-keys.json"))
    imported = played("import", str(trail.path), store="copy.db")
    assert imported.output.splitlines()[1] + "\n" == NO_LEDGER_DICE
    missing = (
        f"the secret dice seed of Demo (epoch 1) is not in the key file {played.folder / 'other-machine-keys.json'}, "
        "so the ledger cannot roll: bring it from the machine that started the campaign (`campaign seed export` "
        "there, `campaign seed import FILE` here; a league server's campaign has none to bring: its seeds never "
        "leave the server's database, so it opens a new epoch), or open a new epoch here with `campaign seed "
        "new-epoch --reason …` (recorded in the log); table dice (--dice) work either way"
    )
    ledger = played("roll", "D6", "--for", "x", "--ledger", store="copy.db")
    assert (ledger.exit_code, ledger.output) == (2, f"Error: {missing}\n")
    reveal = played("seed", "reveal", store="copy.db")
    assert (reveal.exit_code, reveal.output) == (2, f"Error: {missing}\n")
    table = played("roll", "D6", "--for", "x", "--dice", "4", store="copy.db")
    head = played.show(store="copy.db")["head"]
    assert (table.exit_code, table.output) == (
        0, f"  R5 x: D6 rolled [4] = 4 (table)\nRecorded T11 (2 events). Head {head[:16]}\n"
    )
    assert played("verify", store="copy.db").exit_code == 0


def test_a_trail_that_does_not_verify_is_refused_and_no_store_is_created(played, trail):
    trail.path.write_text(trail.path.read_text(encoding="utf-8").replace('"faces":[3,5]', '"faces":[3,6]'), "utf-8")
    result = played("import", str(trail.path), store="copy.db")
    assert (result.exit_code, result.output) == (
        3, "Error: line 9: stored hash does not match its record (the event was edited)\n"
    )
    assert not (played.folder / "copy.db").exists()


def test_an_import_interrupted_while_it_stores_leaves_no_store_behind(played, trail, monkeypatch):
    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Store, "append", interrupted)
    result = played("import", str(trail.path), store="copy.db")
    assert (result.exit_code, result.output) == (1, "\nAborted!\n")
    assert list(played.folder.glob("copy.db*")) == []


def test_a_campaign_already_in_the_store_is_refused(played, trail, database, campaign_id):
    """Bad input, as a name already used there is (exit 2): it was exit 1, a rules refusal."""
    result = played("import", str(trail.path))
    assert (result.exit_code, result.output) == (
        2, f"Error: campaign Demo ({campaign_id}) is already in {played.url()}: nothing imported\n"
    )
    assert database.count() == 25


def test_a_name_already_used_in_the_store_is_refused(played, trail, monkeypatch):
    monkeypatch.setattr(campaigns, "uuid", uuid)  # another campaign id than the fixture's
    played("new", "demo", store="other.db")
    result = played("import", str(trail.path), store="other.db")
    assert (result.exit_code, result.output) == (2, (
        f"Error: a campaign named 'Demo' already exists in {played.url('other.db')}; the name is part of "
        "the hashed history, so import into another store\n"
    ))
    assert (played.show(store="other.db")["name"], played.show(store="other.db")["events"]) == ("demo", 4)


@pytest.mark.parametrize("field, value, refusal", [
    # Written by a newer version: a field this one does not know.
    ("banner", "red", "line 7: this version of campaign-ledger would store warband.enlisted differently (banner), "
                      "so the imported chain would not verify; nothing imported"),
    # A number no record may hold, written as the export writes a number.
    ("treasury", 9007199254740992, "9007199254740992 (E6 warband.enlisted.treasury) is too large: the ledger "
                                   "records whole numbers up to 9007199254740991"),
])
def test_a_sound_chain_over_an_event_this_version_does_not_store_as_it_is_is_refused(played, trail, field, value,
                                                                                       refusal):
    lines = trail.lines()
    lines[6]["payload"][field] = value  # position 6, warband.enlisted, and the chain rehashed over it
    trail.write(lines, rehash=True)
    assert played("verify", str(trail.path)).exit_code == 0  # the chain itself is sound
    result = played("import", str(trail.path), store="copy.db")
    assert (result.exit_code, result.output) == (2, f"Error: {refusal}\n")
    assert not (played.folder / "copy.db").exists()  # a refused import leaves no file behind


def test_a_trail_playing_a_version_of_its_rules_this_ledger_does_not_know_is_refused(played, trail):
    """Written by a newer campaign-ledger: it was played as this one's first version, a downgrade."""
    lines = trail.lines()
    pinned = next(line for line in lines if line.get("type") == "ruleset.pinned")
    pinned["payload"]["version"] = "99"
    lines[0]["ruleset"]["version"] = "99"
    trail.write(lines, rehash=True)
    ruleset = pinned["payload"]["ruleset"]
    versions = ", v".join(rulesets.get(ruleset).versions)
    result = played("import", str(trail.path), store="copy.db")
    assert (result.exit_code, result.output) == (2, (
        f"Error: campaign 'Demo' plays {ruleset} v99, and this campaign-ledger knows v{versions}: it was recorded "
        "by a newer campaign-ledger; upgrade to open it\n"))
    assert not (played.folder / "copy.db").exists()


def test_text_an_imported_trail_holds_is_shown_as_it_is_not_as_a_void_or_another_name(played, trail):
    """A trail from elsewhere may hold what the command line refuses: a roll's purpose carrying the
    log's void mark, an actor with a zero-width space. The log writes both out."""
    lines = trail.lines()
    rolled = next(line for line in lines if line.get("type") == "dice.rolled")
    rolled["payload"]["purpose"] = "loot  [VOIDED by T9 (arbiter): miscounted]"
    rolled["actor"] = "arbiter\u200b"
    trail.write(lines, rehash=True)
    assert played("import", str(trail.path), store="copy.db").exit_code == 0
    shown = next(line for line in played("log", "--full", store="copy.db").output.splitlines()
                 if "miscounted" in line)
    assert "arbiter\\u200b" in shown and "loot  \\[VOIDED by T9 (arbiter): miscounted]" in shown


def test_an_actor_the_command_line_refuses_imports_as_recorded_and_is_written_out(played, trail):
    """Versions before the command line refused them recorded such actors (control characters until
    2026-12-01, invisible ones until 2026-12-07), and a recorded campaign always imports: an actor's
    control characters are written out wherever people read them (the log, the chronicle), so an ESC or
    a newline ('T99 forged', a line of its own) forges nothing."""
    lines = trail.lines()
    lines[7]["actor"] = "evil\x1b[2J\nT99 forged"  # position 7, line 8
    trail.write(lines, rehash=True)
    assert played("import", str(trail.path), store="copy.db").exit_code == 0
    chronicle = played("export", "--format", "md", store="copy.db").output
    assert "by evil\\\\u001b\\[2J\\\\u000aT99 forged, " in chronicle
    assert "\x1b" not in chronicle and "\nT99" not in chronicle


def test_import_keeps_the_head_on_every_backend(played, trail, store_url, clock):
    chain = audit.read_trail(trail.path.read_bytes(), void_annotations)
    ledger = Ledger(Store(store_url), clock=clock)
    try:
        audit.import_chain(ledger, chain)
        copy = audit.verify_store(ledger.store, uuid.UUID(chain.campaign_id))
        assert [(e.hash, e.body) for e in copy.entries] == [(e.hash, e.body) for e in chain.entries]
        assert ledger.load(uuid.UUID(chain.campaign_id)).head == played.show()["head"]
    finally:
        ledger.store.close()


@pytest.mark.parametrize("fmt, written", [
    ("md", "by evil\\\\u001b\\[2J\\\\u000aT99 forged, "),
    ("md-audit", "| evil\\\\u001b\\[2J\\\\u000aT99 forged |"),
    ("csv", ",evil\\u001b[2J\\u000aT99 forged,"),
])
def test_the_chronicle_and_the_trail_for_people_write_control_characters_out_whatever_the_store_holds(
        played, database, fmt, written):
    """A store holding an actor the command line refuses (edited and rehashed by hand, or imported
    before import refused it): `export --format md` wrote its ESC and newline raw, the newline
    beginning a forged line of the chronicle ('T99 forged'); csv and md-audit wrote the ESC raw."""
    database.forge(7, lambda event: None, actor="evil\x1b[2J\nT99 forged")
    assert played("rebuild").exit_code == 0
    result = played("export", "--format", fmt)
    assert result.exit_code == 0, result.output
    assert written in result.output
    assert "\x1b" not in result.output and "\nT99" not in result.output


def test_a_trail_beginning_with_a_byte_order_mark_is_refused_in_the_tools_words(played, trail):
    """An editor's UTF-8 byte-order mark before line 1 is no JSON (the format is UTF-8 JSON lines):
    refused by verify and import, saying what it is; they said "does not decode: Unexpected UTF-8 BOM
    (decode using utf-8-sig)", Python's hint."""
    trail.path.write_bytes(b"\xef\xbb\xbf" + trail.path.read_bytes())
    refusal = ("Error: line 1: begins with a byte-order mark (the bytes EF BB BF an editor may put before UTF-8 "
               "text), which no line of a trail holds: save the file as UTF-8 without one\n")
    for args in (["verify", str(trail.path)], ["import", str(trail.path)]):
        result = played(*args, store="copy.db")
        assert (result.exit_code, result.output) == (3, refusal)
    assert not (played.folder / "copy.db").exists()


def test_a_trail_saved_with_crlf_line_ends_is_the_same_trail(played, trail):
    """Each line is read as JSON, whose whitespace a CR before the LF is (docs/audit-format.md, "The
    file"): the same records, so the same chain and head, for verify and import alike."""
    head = played.show()["head"]
    trail.path.write_bytes(trail.path.read_bytes().replace(b"\n", b"\r\n"))
    assert played("verify", str(trail.path)).output.endswith(f"Head {head}\n")
    imported = played("import", str(trail.path), store="copy.db")
    assert (imported.exit_code, imported.output.splitlines()[-1]) == (0, f"Head {head}")
