"""Helpers shared by the attacks: a CLI runner on a SQLite file, the bytes of a store (to prove a
refusal changed nothing), and a copy of the checked-in store written by an older version."""

from __future__ import annotations

import hashlib
import os
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


@pytest.fixture
def fresh_postgres(postgres_database) -> str:
    """A PostgreSQL database with nothing in it (its public schema emptied)."""
    import psycopg

    with psycopg.connect(postgres_database, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return postgres_database
