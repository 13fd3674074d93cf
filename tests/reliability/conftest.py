"""Helpers shared by the attacks: a CLI runner on a SQLite file, the bytes of a store (to prove a
refusal changed nothing), and a copy of the checked-in store written by an older version."""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass, field
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ledger.testing import CampaignRunner

FIXTURES = Path(__file__).parent / "fixtures"


def store_digest(folder: Path) -> dict[str, str]:
    """Every file in the store's folder and a hash of its bytes: equal digests mean nothing was
    written and no file was created."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture
def db_path(tmp_path) -> Path:
    return tmp_path / "campaign.db"


@pytest.fixture
def cli(db_path) -> CampaignRunner:
    """`cli(*args)`: the real `campaign` command on a SQLite file in tmp_path (tracebacks fail)."""
    return CampaignRunner("sqlite:///" + str(db_path))


@pytest.fixture
def league(cli) -> CampaignRunner:
    """A freeform campaign with two warbands and a leader each."""
    for args in (
        ["new", "Test League"],
        ["warband", "add", "Reikland Rats", "--player", "Ann", "--treasury", "500"],
        ["warband", "add", "Clan Skrittle", "--player", "Bob", "--treasury", "300"],
        ["fighter", "add", "Reikland Rats", "Gunnar", "--role", "leader", "--stat", "WS=4", "--cost", "60"],
        ["fighter", "add", "Clan Skrittle", "Snikch", "--role", "leader", "--cost", "90"],
    ):
        result = cli(*args)
        assert result.exit_code == 0, result.output
    return cli


@pytest.fixture
def old_store(tmp_path) -> Path:
    """A copy of tests/reliability/fixtures/old-store.db (made by make_old_store.py)."""
    copy = tmp_path / "old-store.db"
    shutil.copyfile(FIXTURES / "old-store.db", copy)
    return copy


@pytest.fixture
def store_bytes(db_path):
    """`store_bytes()`: the digest of every file beside the store (see store_digest)."""
    return lambda: store_digest(db_path.parent)


class Processes:
    """`campaign …` run as processes of their own, as several players' terminals would."""

    command = [sys.executable, "-c", "from ledger.cli import main; main()"]

    def spawn(self, *args: str) -> subprocess.Popen:
        """Start `campaign *args` (text output captured; no CAMPAIGN_* variable, so no debug)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("CAMPAIGN_")}
        return subprocess.Popen([*self.command, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)

    @staticmethod
    def finished(process: subprocess.Popen, timeout: float = 120) -> tuple[int, str, str]:
        out, err = process.communicate(timeout=timeout)
        return process.returncode, out, err

    def run(self, *args: str) -> tuple[int, str, str]:
        return self.finished(self.spawn(*args))


@pytest.fixture
def processes() -> Processes:
    return Processes()


# --- what must hold after concurrent writers and crashes ---------------------------------------------


@dataclass
class WorkerReport:
    """What a worker (tests/reliability/worker.py) printed: the commands acknowledged and refused."""

    acknowledged: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # label -> its `Error:` message

    def read(self, output: str) -> WorkerReport:
        lines = output.splitlines()
        for n, line in enumerate(lines):
            word, _, rest = line.partition(" ")
            if word == "ok":
                self.acknowledged.append(rest)
            elif word == "fail" and n + 1 < len(lines):  # a kill may cut the message off: then not counted
                self.refused[rest.split(" ")[0]] = lines[n + 1]
        return self


# What each worker command stores after its `command.recorded` event, by the kind of its label's number.
WORKER_EVENTS = {0: ["command.recorded", "dice.rolled"], 1: ["command.recorded", "note.recorded"],
                 2: ["command.recorded", "xp.awarded"]}


def worker_label(record) -> str | None:
    event = record.event
    for name in ("purpose", "text", "reason"):
        value = getattr(event, name, None)
        if isinstance(value, str) and value.startswith("w"):
            return value
    return None


def read_models_and_head(url: str) -> tuple[int, int]:
    """(the position the read-model tables reflect, the position of the head) of the store's one
    campaign, read straight from the tables: reading through the CLI would let them catch up."""
    from ledger.campaigns import Ledger
    from ledger.store import Store

    store = Store(url, create=False)
    try:
        [(_, tracked, _, _)] = dump_read_models(store)["rm_tracking"]
        ledger = Ledger(store)
        return tracked, ledger.history(ledger.find(None))[-1].position
    finally:
        store.close()


def dump_read_models(store) -> dict[str, list[tuple]]:
    from projections.sql import dialect
    from projections.tables import TABLES

    d = dialect(store)
    with store.sql() as cursor:
        return {table.name: sorted(d.select(cursor, f"SELECT {', '.join(table.column_names)} FROM {d.table(table)}"))
                for table in TABLES}


def check_campaign(url: str, name: str, report: WorkerReport, *, full: bool = True) -> list:
    """Everything issue #13 asks to hold after concurrent writers or a crash; returns the records.
    Without `full`, the two checks whose cost grows with the whole history are left for the end:
    re-deciding every transaction, and comparing the read models with a rebuild."""
    from ledger import audit
    from ledger import events as ev
    from ledger.campaigns import Ledger
    from ledger.store import Store
    from projections import sql
    from projections.tables import ROWS_FORMAT

    store = Store(url, create=False)
    try:
        ledger = Ledger(store)
        cid = ledger.find(name)
        records = ledger.history(cid)
        # Every acknowledged command is there exactly once, none refused is, nothing is doubled.
        labels = Counter(label for r in records if (label := worker_label(r)) is not None)
        assert [label for label in report.acknowledged if labels[label] != 1] == []
        assert {label: message for label, message in report.refused.items() if labels[label]} == {}
        assert [label for label, count in labels.items() if count != 1] == []
        assert all(message.startswith("Error: ") for message in report.refused.values()), report.refused
        # No transaction is half stored: each worker command's transaction holds all its events.
        by_tx: dict[int, list] = {}
        for record in records:
            by_tx.setdefault(record.tx, []).append(record)
        for group in by_tx.values():
            label = next((worker_label(r) for r in group if worker_label(r)), None)
            if label is not None:
                assert [ev.tag_of(r.event) for r in group] == WORKER_EVENTS[int(label.rsplit("-", 1)[1]) % 3], label
        # Roll numbers are contiguous; the chain verifies; today's rules give the stored events.
        rolls = [r.event.roll for r in records if isinstance(r.event, ev.DiceRolled)]
        assert rolls == list(range(len(rolls)))
        audit.verify_store(store, cid)
        if full:
            assert ledger.check(cid)[1] == []
        # The read models catch up when the campaign is next loaded (by a read, nobody rebuilding
        # them), and then equal a rebuild.
        shown = CampaignRunner(url)("--campaign", name, "show")
        assert shown.exit_code == 0 and "Warning" not in shown.output, shown.output
        kept = dump_read_models(store)
        assert (str(cid), records[-1].position, records[-1].hash, ROWS_FORMAT) in kept["rm_tracking"]
        if full:
            sql.rebuild(store, store.campaign_ids(), drop=True)
            assert dump_read_models(store) == kept
        return records
    finally:
        store.close()


@pytest.fixture
def check():
    """`check(url, campaign name, WorkerReport)`: see check_campaign."""
    return check_campaign


@pytest.fixture
def worker_report():
    """`worker_report(output)`: a WorkerReport read from a worker's output."""
    return lambda output: WorkerReport().read(output)


WORKER = Path(__file__).parent / "worker.py"


@pytest.fixture
def worker():
    """`worker(store, campaign, prefix, count, *flags)`: a worker process (see worker.py)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CAMPAIGN_")}

    def start(store: str, campaign: str, prefix: str, count: int, *flags: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, str(WORKER), store, campaign, prefix, str(count), *flags],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env, cwd=Path(__file__).parents[2])
    return start


@pytest.fixture
def read_models_behind():
    """`read_models_behind(url)`: (tracked position, head position); see read_models_and_head."""
    return read_models_and_head
