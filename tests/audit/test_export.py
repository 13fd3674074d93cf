"""`campaign export`: the JSON Lines trail exactly as docs/audit-format.md defines it, the same
rows as CSV and Markdown (md-audit) for people, and the campaign as a Markdown chronicle (md)."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import re

import pytest

from projections.render import md_text

GENESIS = "0" * 64
TIME = "2026-01-01T00:00:00.000000Z"


def test_the_header_names_the_campaign_ruleset_and_hash(played, campaign_id):
    first = played("export").stdout_bytes.split(b"\n")[0]
    assert json.loads(first) == {
        "kind": "header",
        "format": "campaign-ledger-audit",
        "version": 1,
        "campaign": {"id": campaign_id, "name": "Demo"},
        "ruleset": {"id": "freeform", "version": "1", "options": {"decks": "ledger"}},
        "decks": {"cards": [rank + suit for suit in "SHDC" for rank in ["A", *"23456789", "10", "J", "Q", "K"]]},
        "hash": {
            "algorithm": "sha256",
            "canonical": (
                "the record as JSON with keys sorted, separators ',' and ':' and no other whitespace, "
                "non-ASCII characters written as themselves, encoded as UTF-8, integers only: Python's "
                "json.dumps(record, sort_keys=True, separators=(',', ':'), ensure_ascii=False).encode('utf-8')"
            ),
            "record_keys": ["position", "type", "recorded_at", "actor", "tx", "payload", "prev_hash"],
            "excluded_keys": ["hash", "annotations"],
            "genesis": GENESIS,
        },
    }


def test_an_event_line_is_its_hashed_record_plus_hash_and_annotations(played):
    # The record of position 1, written out by hand in canonical form.
    record = (
        '{"actor":"arbiter",'
        '"payload":{"args":{"name":"Demo","options":{},"ruleset":"freeform"},"command":"campaign.new"},'
        f'"position":1,"prev_hash":"{GENESIS}","recorded_at":"{TIME}","tx":1,"type":"command.recorded"}}'
    )
    digest = hashlib.sha256(record.encode("utf-8")).hexdigest()
    line = played("export").stdout_bytes.split(b"\n")[1].decode("utf-8")
    assert line == (
        f'{{"actor":"arbiter","annotations":{{}},"hash":"{digest}",'
        '"payload":{"args":{"name":"Demo","options":{},"ruleset":"freeform"},"command":"campaign.new"},'
        f'"position":1,"prev_hash":"{GENESIS}","recorded_at":"{TIME}","tx":1,"type":"command.recorded"}}'
    )
    assert digest == played.log()[0]["hash"]  # the chain in the database is the chain in the file


def test_non_ascii_text_is_written_as_itself(played):
    data = played("export").stdout_bytes
    assert '"name":"Rattenfänger"'.encode() in data
    assert b"\\u00e4" not in data


def test_voided_transactions_are_annotated_outside_the_hash(played):
    lines = [json.loads(line) for line in played("export").stdout_bytes.splitlines()]
    annotated = {line["position"]: line["annotations"] for line in lines if line.get("annotations")}
    by_t6 = {"voided": {"voided_by": 6, "voided_by_actor": "arbiter", "voided_at": TIME, "reason": "typo in the dice"}}
    by_t7 = {"voided": {"voided_by": 7, "voided_by_actor": "arbiter", "voided_at": TIME,
                        "reason": "die fell off the table"}}
    assert annotated == {7: by_t6, 8: by_t6, 9: by_t7, 10: by_t7}  # T3 and T4, every event of each


def test_ledger_dice_in_the_trail_are_derived_as_design_says(played, campaign_id):
    lines = [json.loads(line) for line in played("export").stdout_bytes.splitlines()]
    loot = lines[10]  # position 10: R1, one D6 of epoch 0
    assert (loot["position"], loot["payload"]["faces"], loot["payload"]["epoch"]) == (10, [6], 0)
    # Die 0 of roll 1, attempt 0, with the fixture's seed of epoch 0 (32 bytes of 0x01).
    block = hmac.new(bytes([1] * 32), f"{campaign_id}:1:0:0".encode(), hashlib.sha256).digest()
    x = int.from_bytes(block[:8], "big")
    assert x < (2**64 // 6) * 6  # accepted at the first attempt
    assert x % 6 + 1 == 6


def test_the_trailer_counts_events_and_gives_the_head_and_revealed_seeds(played):
    last = played("export").stdout_bytes.splitlines()[-1]
    assert json.loads(last) == {
        "kind": "trailer",
        "count": 25,
        "head": played.show()["head"],
        "revealed_seeds": {"0": "01" * 32},  # epoch 1's seed is still secret
    }


def test_export_to_a_file_writes_the_same_bytes(played):
    path = played.folder / "out.jsonl"
    result = played("export", "-o", str(path))
    assert result.output == f"Exported 25 events of Demo to {path} (jsonl). Head {played.show()['head']}\n"
    assert path.read_bytes() == played("export").stdout_bytes
    assert len(path.read_bytes().splitlines()) == 27  # header, 25 events, trailer


def test_csv_carries_the_same_rows_for_people(played):
    rows = list(csv.reader(io.StringIO(played("export", "--format", "csv").output)))
    assert rows[0] == ["position", "tx", "type", "actor", "recorded_at", "description", "payload", "voided", "hash"]
    assert len(rows) == 26
    assert rows[8] == [
        "8", "T3", "dice.rolled", "arbiter", TIME, "R0 injury: 2D6 rolled [3, 5] = 8 (table)",
        '{"expression":"2D6","faces":[3,5],"purpose":"injury","roll":0,"source":"table","value":8}',
        f"by T6 (arbiter, {TIME}): typo in the dice",
        played.log()[7]["hash"],
    ]
    assert rows[5][:6] == ["5", "T2", "command.recorded", "arbiter", TIME, "warband.enlist"]


def test_markdown_audit_is_a_table_with_pipes_escaped(cli):
    cli("new", "Pipes")
    cli("note", "left | right")
    hashes = [row["hash"] for row in cli.log()]
    commitment = hashlib.sha256(bytes([1] * 32)).hexdigest()
    cid = cli.show()["campaign_id"]
    assert cli("export", "--format", "md-audit").output == "\n".join([
        "# Audit trail of Pipes",
        "",
        f"- Campaign id: {cid}",
        '- Ruleset: freeform v1, options {"decks":"ledger"}',
        "- Events: 6 in 2 transactions",
        f"- Head: {hashes[-1]}",
        "- Revealed seeds: none",
        "",
        "The JSON Lines export of this campaign is the verifiable trail (`campaign verify FILE`).",
        "",
        "| position | tx | type | actor | recorded_at | description | payload | voided | hash |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| 1 | T1 | command.recorded | arbiter | {TIME} | campaign.new | "
        f'`{{"args":{{"name":"Pipes","options":{{}},"ruleset":"freeform"}},"command":"campaign.new"}}` |  | {hashes[0]} |',
        f"| 2 | T1 | campaign.started | arbiter | {TIME} | campaign Pipes started | "
        f'`{{"campaign_id":"{cid}","name":"Pipes"}}` |  | {hashes[1]} |',
        f"| 3 | T1 | ruleset.pinned | arbiter | {TIME} | ruleset freeform v1 | "
        f'`{{"options":{{"decks":"ledger"}},"ruleset":"freeform","version":"1"}}` |  | {hashes[2]} |',
        f"| 4 | T1 | seed.committed | arbiter | {TIME} | dice seed of epoch 0 committed: sha256 {commitment[:16]}… | "
        f'`{{"commitment":"{commitment}","epoch":0}}` |  | {hashes[3]} |',
        f"| 5 | T2 | command.recorded | arbiter | {TIME} | note | "
        f'`{{"args":{{"answers":{{}},"text":"left \\| right","warband":null}},"command":"note"}}` |  | {hashes[4]} |',
        f"| 6 | T2 | note.recorded | arbiter | {TIME} | note: left \\| right | "
        f'`{{"text":"left \\| right"}}` |  | {hashes[5]} |',
        "",
    ])


def test_markdown_shows_what_people_typed_as_typed_and_csv_no_formula(cli):
    """Names and reasons are text in every export people read: the audit table let them through as
    HTML (`<img onerror>`) and links, the chronicle's code span ended at a reason's backtick, and a
    spreadsheet took a CSV cell beginning with @ or = for a formula."""
    cli("new", "X <script>alert(1)</script>")
    cli("warband", "add", "W", "--player", "[x](http://evil.example)", "--treasury", "10")
    cli("fighter", "add", "W", "<img src=x onerror=alert(1)>", "--role", "leader", "--cost", "1")
    cli("fighter", "add", "W", "@SUM(1+1)", "--role", "hero")
    cli("void", "T4", "--reason", "x` <b>bold</b> `y")
    audit = cli("export", "--format", "md-audit").output
    assert audit.startswith("# Audit trail of X \\<script>alert(1)\\</script>\n")
    assert "| \\<img src=x onerror=alert(1)>, leader, joins W |" in audit
    outside_code = re.sub(r"`[^`]*`", "", audit).replace("\\<", "").replace("\\[", "")
    assert "<" not in outside_code.replace("<br>", "") and "[" not in outside_code
    chronicle = cli("export", "--format", "md").output
    assert "- T5 `campaign void` (x\\` \\<b>bold\\</b> \\`y) by arbiter" in chronicle  # the reason as typed, escaped
    assert "Played by \\[x](http\\://evil.example)" in chronicle  # no link, bracketed or bare
    assert "4 events in 1 transaction" not in chronicle and " in 5 transactions" in chronicle
    rows = list(csv.reader(io.StringIO(cli("export", "--format", "csv").output)))
    assert [row[5] for row in rows if row[2] == "fighter.recruited"][1] == "'@SUM(1+1), hero, joins W"


def test_markdown_is_the_chronicle_with_voids_struck_and_the_audit(played):
    head = played.show()["head"]
    commitments = [hashlib.sha256(bytes([n] * 32)).hexdigest()[:16] for n in (1, 2)]
    at = "arbiter, 2026-01-01 00:00 UTC"  # the chronicle's time, to the minute (md-audit keeps TIME whole)
    assert played("export", "--format", "md").output == "\n".join([
        "# Demo",
        "",
        "Freeform (shared commands only) · ruleset `freeform` v1 · 25 events in 10 transactions (2 voided)",
        "",
        "House rules: `decks=ledger`",
        "",
        "## Standings",
        "",
        "| Warband | Player | Treasury | Battles | Wins |",
        "|---|---|---:|---:|---:|",
        "| Rattenfänger | Ann | 100 | 0 | 0 |",
        "",
        "## Rosters",
        "",
        "### Rattenfänger",
        "",
        "Played by Ann",
        "",
        "- **Treasury:** 100",
        "- **Battles:** 0 fought, 0 won",
        "- **Fighters:** 0 active",
        "- **Stash:** empty",
        "",
        "No fighters yet.",
        "",
        "## Chronicle",
        "",
        "### Before the first battle",
        "",
        f"- T1 `campaign new` by {at}",
        "  - Campaign Demo started.",
        "  - Ruleset freeform v1.",
        f"  - Dice seed of epoch 0 committed: sha256 {commitments[0]}…",
        f"- T2 `campaign warband add` by {at}",
        "  - Rattenfänger enlisted by Ann with 100 in the treasury.",
        f"- T3 `campaign roll` by {at} — **voided by T6 ({at}): typo in the dice**",
        "  - ~~R0 injury: 2D6 rolled \\[3, 5] = 8 (table).~~",
        f"- T4 `campaign roll` by {at} — **voided by T7 ({at}): die fell off the table**",
        "  - ~~R1 loot: D6 rolled \\[6] = 6 (ledger).~~",
        f"- T5 `campaign draw` by {at}",
        "  - R2 shuffle cards (ledger dice).",
        "  - Cards shuffled (ledger).",
        "  - Fate: drew 5D from cards.",
        f"- T6 `campaign void` (typo in the dice) by {at}",
        "  - T3 voided (typo in the dice).",
        f"- T7 `campaign reroll` (die fell off the table) by {at}",
        "  - T4 voided (die fell off the table).",
        f"- T8 `campaign roll` by {at}",
        "  - R3 loot: D6 rolled \\[2] = 2 (ledger).",
        f"- T9 `campaign seed reveal` by {at}",
        "  - Dice seed of epoch 0 revealed: " + "01" * 32 + ".",
        f"  - Dice seed of epoch 1 committed: sha256 {commitments[1]}…",
        f"- T10 `campaign roll` by {at}",
        "  - R4 later: D6 rolled \\[3] = 3 (ledger).",
        "",
        f"Head before the first battle: `{head}`",
        "",
        "## Audit",
        "",
        "Hash chain intact: 25 events in 10 transactions, checked when this was written. Ledger dice: 3 rolls "
        "re-derived from the revealed seed of epoch 0; 1 roll of epoch 1 waits for its seed to be revealed.",
        "",
        f"Head: `{head}`",
        "",
        "Revealed dice seeds: epoch 0 `" + "01" * 32 + "`.",
        "",
        "The JSON Lines export (`campaign export --format jsonl`) is the verifiable trail; `--format md-audit` "
        "gives every event with its payload and hash.",
        "",
    ])


def test_a_store_that_does_not_verify_is_not_exported(played, database):
    database.rewrite(8, b'"faces":[3,5]', b'"faces":[3,6]')
    path = played.folder / "out.jsonl"
    result = played("export", "-o", str(path))
    assert (result.exit_code, result.output) == (3, (
        "Error: nothing exported: the stored chain does not verify: "
        "position 8: stored hash does not match its record (the event was edited)\n"
    ))
    assert not path.exists()


def test_a_report_of_a_store_that_does_not_verify_says_so(played, database):
    database.rewrite(8, b'"faces":[3,5]', b'"faces":[3,6]')
    path = played.folder / "report.html"
    result = played("report", "-o", str(path))
    failure = "The stored hash chain does NOT verify: position 8: stored hash does not match its record (the event was edited)"
    assert result.exit_code == 3
    written, error = result.output.splitlines()
    assert written.startswith(f"Wrote the report of Demo to {path}. Head ")
    assert error == f"Error: {failure} (the report says so)"
    html = path.read_text(encoding="utf-8")
    assert f'<p class="verdict bad" id="verdict">{failure}</p>' in html


@pytest.mark.parametrize(("typed", "markdown"), [
    ("AT&amp;T", "AT\\&amp;T"),  # an entity shown as typed, not as "AT&T"
    ("visit www.evil.example", "visit www\\.evil.example"),  # no bare link
    ("Bob <http://x.y>", "Bob \\<http\\://x.y>"),
    ("R0 loot: D6 rolled [3, 5]", "R0 loot: D6 rolled \\[3, 5]"),
    ("- list", "\\- list"),  # no list item, quote or heading where a name begins a line
    ("> quote", "\\> quote"),
    ("1. ord", "1\\. ord"),
    ("Skrit #", "Skrit \\#"),  # a heading would lose its closing #
    ("ann@example.com", "ann\\@example.com"),  # no e-mail link
])
def test_markdown_text_is_shown_as_typed(typed, markdown):
    assert md_text(typed) == markdown
