"""Mistakes a careless user makes at the command line: each one is an `Error: …` line, a non-zero
exit, and nothing written — no file, no event, no seed."""

import json
import os
import sqlite3
import subprocess
import sys

import pytest
from click.testing import CliRunner

from ledger.cli import app
from ledger.keyfile import KEYS_ENV, KeyFile
from ledger.records import GENESIS, hash_body
from ledger.testing import CampaignRunner


def stored_rows(db_path, table: str) -> int:
    with sqlite3.connect(db_path) as db:
        return db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: S608 - table names are ours


@pytest.mark.parametrize("args", [["list"], ["log"], ["verify"], ["rebuild"], ["warband", "add", "Rats", "--player", "Ann"]])
def test_a_mistyped_sqlite_store_is_not_created(tmp_path, args):
    typo = tmp_path / "campain.db"
    result = CampaignRunner(f"sqlite:///{typo}")(*args)
    assert (result.exit_code, result.output) == (
        2, f"Error: no campaign in sqlite:///{typo}: start one with `campaign new NAME`\n"
    )
    assert not typo.exists()


@pytest.mark.parametrize("args", [["list"], ["log"], ["verify"], ["rebuild"], ["warband", "add", "Rats", "--player", "Ann"]])
def test_an_empty_file_is_no_store_to_read(tmp_path, args):
    """`touch campaign.db` (or a file saved empty): a command that only reads wrote tables into it."""
    empty = tmp_path / "campaign.db"
    empty.touch()
    result = CampaignRunner(f"sqlite:///{empty}")(*args)
    assert (result.exit_code, result.output) == (
        2, f"Error: no campaign in sqlite:///{empty}: start one with `campaign new NAME`\n"
    )
    assert empty.stat().st_size == 0
    assert sorted(os.listdir(tmp_path)) == ["campaign.db"]


def test_a_campaign_can_be_started_in_an_empty_file(tmp_path):
    empty = tmp_path / "campaign.db"
    empty.touch()
    runner = CampaignRunner(f"sqlite:///{empty}")
    assert runner("new", "Spring").exit_code == 0
    assert runner("list").output.startswith("Spring  freeform  0 warbands  0 battles  4 events  head ")


@pytest.mark.parametrize("args", [["list"], ["new", "Spring"], ["demo", "--ruleset", "freeform"]])
def test_a_sqlite_store_that_is_a_folder_is_named_so(tmp_path, args):
    """It said 'cannot open store …: unable to open database file', SQLite's words, which do not say why."""
    url = f"sqlite:///{tmp_path}"
    result = CampaignRunner(url)(*args)
    assert (result.exit_code, result.output) == (
        2, f"Error: store '{url}' is a folder: give a file in it, e.g. {url}/campaign.db\n"
    )
    assert os.listdir(tmp_path) == []


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder no one may write in; root may write in any, so the immutable attribute holds it then."""
    folder = tmp_path / "shared"
    folder.mkdir()
    CampaignRunner(f"sqlite:///{folder / 'league.db'}")("new", "Spring")
    folder.chmod(0o555)
    immutable = os.access(folder, os.W_OK)
    if immutable and subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
        folder.chmod(0o755)
        pytest.skip("root, and no chattr to make the folder read-only")
    yield folder
    if immutable:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    folder.chmod(0o755)


@pytest.mark.parametrize("args", [["list"], ["log"], ["new", "Autumn"]])
def test_a_store_in_a_read_only_folder_says_so(read_only_folder, args):
    """SQLite's 'unable to open database file' alone did not say why: a store it cannot put its
    -wal and -shm files beside cannot even be read."""
    store = read_only_folder / ("autumn.db" if args[0] == "new" else "league.db")
    result = CampaignRunner(f"sqlite:///{store}")(*args)
    assert (result.exit_code, result.output) == (
        2, f"Error: cannot open store sqlite:///{store}: unable to open database file: its folder {read_only_folder} "
        "is read-only, and SQLite keeps its -wal and -shm files beside the store, even to read it: keep the store in "
        "a folder you may write in\n"
    )
    assert sorted(os.listdir(read_only_folder)) == ["league.db"]


def test_new_still_creates_the_sqlite_store(tmp_path):
    fresh = tmp_path / "fresh.db"
    assert CampaignRunner(f"sqlite:///{fresh}")("new", "Spring").exit_code == 0
    assert stored_rows(fresh, "stored_events") == 4


def test_export_into_a_missing_folder(two_warbands, tmp_path):
    target = tmp_path / "no-such-folder" / "trail.jsonl"
    result = two_warbands("export", "-o", str(target))
    assert (result.exit_code, result.output) == (2, f"Error: cannot write {target}: No such file or directory\n")
    assert not target.parent.exists()


def test_a_number_beyond_what_every_json_parser_reads_exactly_is_refused(two_warbands, tmp_path):
    head = two_warbands("verify", "--json").output
    refused = two_warbands("xp", "award", "Gunnar", "9007199254740992", "--reason", "a slip of the finger")
    assert (refused.exit_code, refused.output) == (
        2, "Error: AMOUNT: 9007199254740992 is too large: the ledger records whole numbers up to 9007199254740991\n",
    )
    assert two_warbands("verify", "--json").output == head
    accepted = two_warbands("xp", "award", "Gunnar", "9007199254740991", "--reason", "the largest award")
    assert accepted.exit_code == 0
    assert two_warbands("rebuild").exit_code == 0  # the read models hold it


@pytest.mark.parametrize(("args", "said"), [
    (["xp", "award", "Gunnar", "999999999999999999999", "--reason", "x"], "AMOUNT: 999999999999999999999 is too large"),
    (["xp", "spend", "Gunnar", "-9007199254740992", "--on", "x"], "AMOUNT: -9007199254740992 is too small"),
    (["fighter", "add", "Reikland Rats", "Hans", "--role", "hero", "--cost", "9007199254740992"],
     "--cost: 9007199254740992 is too large"),
    (["fighter", "add", "Reikland Rats", "Hans", "--role", "hero", "--stat", "WS=-9007199254740992"],
     "--stat WS: -9007199254740992 is too small"),
])
def test_a_number_past_the_ledgers_limit_is_refused_naming_the_option_or_argument_typed(two_warbands, args, said):
    """Refused at the seal, the error named the recorded command's field (`command.recorded.args.amount`),
    which the user never typed; now the argument, the option (and its key) it was typed as, and the limit."""
    head = two_warbands("verify", "--json").output
    refused = two_warbands(*args)
    limit = "up to 9007199254740991" if "large" in said else "down to -9007199254740991"
    assert (refused.exit_code, refused.output) == (2, f"Error: {said}: the ledger records whole numbers {limit}\n")
    assert two_warbands("verify", "--json").output == head


LARGER = "too large: the ledger records whole numbers up to 9007199254740991"


@pytest.mark.parametrize(("first", "then", "said"), [
    (["xp", "award", "Gunnar", "9007199254740991", "--reason", "x"], ["xp", "award", "Gunnar", "1", "--reason", "x"],
     f"Gunnar's XP would be 9007199254740992 (9007199254740991 +1), {LARGER}"),
    (["xp", "award", "Gunnar", "9007199254740991", "--reason", "x"],
     ["correct", "Reikland Rats", "Gunnar", "--xp", "2", "--reason", "x"],
     f"Gunnar's XP would be 9007199254740993 (9007199254740991 +2), {LARGER}"),
    (["treasury", "Reikland Rats", "9007199254740000", "--reason", "x"], ["treasury", "Reikland Rats", "552", "--reason", "x"],
     f"Reikland Rats' treasury would be 9007199254740992 (9007199254740440 +552), {LARGER}"),
])
def test_an_award_or_payment_whose_total_would_pass_the_ledgers_limit_is_refused(two_warbands, first, then, said):
    """Each amount was checked, not the total: three more awards of 1 XP after 9007199254740991 made Gunnar's
    XP 9007199254740994, past the limit the ledger states. Refused (exit 2), nothing written."""
    assert two_warbands(*first).exit_code == 0
    head = two_warbands("verify", "--json").output
    refused = two_warbands(*then)
    assert (refused.exit_code, refused.output) == (2, f"Error: {said}\n")
    assert two_warbands("verify", "--json").output == head


def test_a_total_past_the_limit_in_a_recorded_transaction_is_decided_again_as_recorded(two_warbands):
    """Refused typed now only: campaigns recorded before hold such totals. Gunnar's spent XP point voided,
    the award after it is decided again as recorded, on 9007199254740991 XP, and the campaign replays."""
    for args in (["xp", "award", "Gunnar", "9007199254740991", "--reason", "x"], ["xp", "spend", "Gunnar", "1", "--on", "x"],
                 ["xp", "award", "Gunnar", "1", "--reason", "x"]):
        assert two_warbands(*args).exit_code == 0, args
    voided = two_warbands("void", "T7", "--reason", "spent by mistake")
    assert voided.exit_code == 0, voided.output
    gunnar = json.loads(two_warbands("roster", "Reikland Rats", "--json").output)["roster"][0]
    assert (gunnar["name"], gunnar["xp"]) == ("Gunnar", 9007199254740992)
    assert two_warbands("replay", "--check").exit_code == 0


@pytest.mark.parametrize(("option", "shown"), [("x=1.5", "1.5"), ("x=NaN", "nan"), ("x=1e400", "inf")])
def test_a_fraction_in_the_house_rules_is_refused_before_anything_is_stored(campaign, tmp_path, monkeypatch, option, shown):
    monkeypatch.setenv(KEYS_ENV, str(tmp_path / "keys.json"))
    campaign("new", "Spring")
    refused = campaign("new", "Autumn", "--option", option)
    assert (refused.exit_code, refused.output) == (
        2, f"Error: {shown} (options.x) is not a whole number: the ledger records integers only\n"
    )
    db = tmp_path / "campaign.db"
    assert (stored_rows(db, "stored_events"), KeyFile().campaigns()) == (4, 1)


def test_an_imported_trail_with_a_number_too_large_is_refused(two_warbands, tmp_path):
    trail = tmp_path / "trail.jsonl"
    two_warbands("export", "-o", str(trail))
    header, *events, trailer = (json.loads(line) for line in trail.read_text().splitlines())
    # Ann's treasury of 500 made 2**60, then the chain re-hashed from there on, as a forger would,
    # so that the trail verifies and only the number is wrong.
    prev = GENESIS
    for event in events:
        if event["type"] == "warband.enlisted" and event["payload"]["treasury"] == 500:
            event["payload"]["treasury"] = 2**60
        event["prev_hash"] = prev
        event["hash"] = prev = hash_body({k: v for k, v in event.items() if k not in ("hash", "annotations")})
    trailer["head"] = prev
    trail.write_text("".join(json.dumps(line) + "\n" for line in [header, *events, trailer]))
    copy = tmp_path / "copy.db"
    result = CampaignRunner(f"sqlite:///{copy}")("import", str(trail))
    assert (result.exit_code, result.output) == (
        2, "Error: 1152921504606846976 (E6 warband.enlisted.treasury) is too large: "
        "the ledger records whole numbers up to 9007199254740991\n"
    )
    assert not copy.exists()  # a refused import leaves no file behind


def test_a_postgresql_store_without_its_driver_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the [postgres] extra was not installed
    url = "postgresql://postgres@127.0.0.1:5432/league"
    result = CampaignRunner(url)("list")
    assert (result.exit_code, result.output) == (
        2, f"Error: store '{url}': PostgreSQL support is not installed: pip install 'campaign-ledger[postgres]'"
        " (from a checkout: pip install -e '.[postgres]')\n"
    )


@pytest.mark.postgres
def test_a_mistyped_postgresql_database_is_named_by_the_server(postgres_database):
    url = postgres_database + "_typo"
    result = CampaignRunner(url)("list")
    assert result.exit_code == 2
    # The rest of the line is the server's own wording; what matters is that it says why.
    assert result.output.startswith(f"Error: cannot open store {url}: connection failed: ")
    assert result.output.endswith(f'database "{url.rsplit("/", 1)[1]}" does not exist\n')


def test_leaving_the_dice_prompt_records_nothing(two_warbands, monkeypatch):
    monkeypatch.setattr(app, "is_interactive", lambda: True)
    head = two_warbands("verify", "--json").output
    # End of input at the prompt is what Ctrl-D gives, and click turns Ctrl-C into the same Abort.
    result = two_warbands("roll", "2D6", "--for", "injury of Gunnar", input="")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "injury of Gunnar (2D6) — enter 2 faces (D6, D6): ",
        "\nError: stopped at the prompt (Ctrl-C or end of input): nothing was recorded\n",
    )
    assert two_warbands("verify", "--json").output == head


@pytest.mark.parametrize(("option", "message"), [
    ("dice=leger", "freeform option dice: Invalid enum value 'leger' (one of: table, ledger)"),
    ("decks=phyiscal", "freeform option decks: Invalid enum value 'phyiscal' (one of: ledger, physical)"),
    ("exploration=weird", "freeform has no option exploration (options: dice, decks)"),
])
def test_a_misspelt_or_unknown_option_is_refused_not_pinned(campaign, option, message):
    refused = campaign("new", "Spring", "--option", option)
    assert (refused.exit_code, refused.output) == (2, f"Error: {message}\n")
    assert not os.path.exists(campaign.store.removeprefix("sqlite:///"))  # nothing pinned, no file


def test_output_piped_into_a_reader_that_stops_early_ends_quietly(tmp_path):
    """`campaign log --full | head -1`: the reader goes away, and the command stops without calling
    it a bug (click's own exit for a broken pipe, 1)."""
    url = f"sqlite:///{tmp_path / 'c.db'}"
    assert CampaignRunner(url)("new", "Spring").exit_code == 0
    run = subprocess.Popen([sys.executable, "-c", "from ledger.cli import main; main()", "--store", url, "log", "--full"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run.stdout.close()  # before it writes: its first write finds no reader
    assert (run.wait(timeout=60), run.stderr.read()) == (1, b"")


@pytest.mark.parametrize(("args", "message"), [
    (["--as", "", "roll", "D6", "--for", "x", "--dice", "1"],
     "Error: say who is acting with --as NAME (or CAMPAIGN_ACTOR): it is recorded on every event\n"),
    (["--as", "   ", "note", "a ruling"],
     "Error: say who is acting with --as NAME (or CAMPAIGN_ACTOR): it is recorded on every event\n"),
    (["verify", "--head", ""], "Error: --head takes a head hash or at least its first 8 hex digits, not ''\n"),
])
def test_an_empty_actor_or_noted_head_is_refused_not_recorded_or_skipped(two_warbands, args, message):
    before = two_warbands("show", "--json").output
    result = two_warbands(*args)
    assert (result.exit_code, result.output) == (2, message)
    assert two_warbands("show", "--json").output == before


@pytest.mark.parametrize(("args", "option"), [
    (["battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Reikland Rats",
      "--winner", "Clan Skrittle"], "--winner"),
    (["--as", "Ann", "--as", "Bob", "xp", "award", "Gunnar", "1", "--reason", "r"], "--as"),
    (["xp", "award", "Gunnar", "1", "--reason", "r", "--reason", "s"], "--reason"),
])
def test_an_option_of_one_value_given_twice_is_refused_not_dropped(two_warbands, args, option):
    """click keeps the last of a repeated option and drops the first without a word; flags and the
    repeatable options (--warband, --dice, --answer) are unaffected."""
    before = two_warbands("log", "--json").output
    refused = two_warbands(*args)
    assert (refused.exit_code, refused.output.splitlines()[-1]) == (
        2, f"Error: Option '{option}' is given more than once: it takes one value")
    assert two_warbands("log", "--json").output == before
    assert two_warbands("log", "--json", "--json").exit_code == 0


@pytest.mark.parametrize(("args", "message"), [
    (["xp", "award", "Gunnar", "-2", "--reason", "miscounted"],
     "Error: an XP award must be a positive whole number, not -2 (XP is taken away by `campaign correct WARBAND "
     "FIGHTER --xp -N --reason …`, or the award voided)"),
    (["xp", "spend", "Gunnar", "-1", "--on", "WS"], "Error: XP spent must be a positive whole number, not -1"),
    (["treasury", "Reikland Rats", "10", "--resaon", "sold a horse"],
     "Error: No such option '--resaon'. (Did you mean one of: '--json', '--reason'?)"),
    (["treasury", "Reikland Rats", "-10", "--resaon", "bad beer"],
     "Error: No such option '--resaon'. (Did you mean one of: '--json', '--reason'?)"),
])
def test_a_negative_number_is_an_argument_to_check_and_an_unknown_option_still_unknown(two_warbands, args, message):
    """click reads `-2` as an option it does not know ("No such option '-2'"): the command says what
    is wrong with the number instead; a misspelt option beside one is still named as click names it."""
    before = two_warbands("log", "--json").output
    refused = two_warbands(*args)
    assert (refused.exit_code, refused.output.splitlines()[-1]) == (2, message)
    assert two_warbands("log", "--json").output == before


def test_a_negative_treasury_change_is_taken(two_warbands):
    taken = two_warbands("treasury", "Reikland Rats", "-10", "--reason", "bad beer")
    assert (taken.exit_code, taken.output.splitlines()[0]) == (0, "  Reikland Rats treasury -10 (bad beer)")


def test_a_character_the_output_encoding_lacks_is_escaped_not_a_failure_after_the_write(two_warbands):
    """A Latin-1 terminal (or a file written in cp1252) cannot hold '—' or an emoji: the note was
    recorded, then printing its line failed with exit 70, saying nothing was recorded."""
    two_warbands.runner = CliRunner(charset="latin-1")
    noted = two_warbands("note", "Gunnar — 😀 café")
    head = json.loads(two_warbands("show", "--json").output)["head"]
    assert (noted.exit_code, noted.output) == (
        0, f"  note: Gunnar \\u2014 \\U0001f600 café\nRecorded T6 (2 events). Head {head[:16]}\n"
    )
    as_json = two_warbands("note", "Snikch — 😀", "--json")
    assert as_json.exit_code == 0
    assert as_json.output.isascii()  # JSON's own escapes: the stream's would not be JSON
    assert json.loads(as_json.output)["events"][1]["text"] == "note: Snikch — 😀"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_write_whose_output_cannot_be_written_names_what_it_recorded(tmp_path):
    """Output sent to a full disk fails after the note is committed: the error said nothing was
    recorded unless a line above said so, and no line above could be written."""
    url = f"sqlite:///{tmp_path / 'c.db'}"
    assert CampaignRunner(url)("new", "Spring").exit_code == 0
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-c", "from ledger.cli import main; main()", "--store", url, "note", "a ruling"],
                             stdout=full, stderr=subprocess.PIPE, env={**os.environ, "CAMPAIGN_DEBUG": ""}, timeout=60)
    assert (run.returncode, run.stderr.decode()) == (
        70, "Error: unexpected failure, a bug in campaign-ledger (OSError: [Errno 28] No space left on device); nothing "
        "more was recorded; recorded before it: T2. Run again with CAMPAIGN_DEBUG=1 to see where, and report it\n"
    )
    assert CampaignRunner(url)("log").output.splitlines()[-2].endswith("note: a ruling")
