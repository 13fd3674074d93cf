"""The campaign the audit tests export, verify, tamper with and import, and the tools to tamper.

Clock, campaign id and dice seeds are fixed, so every hash and every ledger die is the same on
each run. The tampering helpers rewrite stored rows or trail lines with nothing but sqlite3,
json and hashlib — as someone editing the database or the file by hand would.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner, Result

from ledger import campaigns, dice
from ledger.beside import Beside, Outcome
from ledger.campaigns import Ledger
from ledger.cli import app, main
from ledger.keyfile import KEYS_ENV

FIXED_TIME = "2026-01-01T00:00:00.000000Z"
CAMPAIGN_ID = "0b0c0d0e-0000-4000-8000-000000000001"
SEED_0 = bytes([1] * 32)  # the seed of epoch 0; epoch 1's is bytes([2] * 32)

# What `played` records: (position range, transaction) in the comments below.
PLAY = [
    ["new", "Demo"],  # 1-4 T1 (seed of epoch 0 committed at 4)
    ["warband", "add", "Rattenfänger", "--player", "Ann", "--treasury", "100"],  # 5-6 T2
    ["roll", "2D6", "--for", "injury", "--dice", "3,5"],  # 7-8 T3: R0 table
    ["roll", "D6", "--for", "loot", "--ledger"],  # 9-10 T4: R1 ledger
    ["draw", "cards", "--for", "fate", "--ledger"],  # 11-14 T5: R2 shuffle 52, shuffled, drawn
    ["void", "T3", "--reason", "typo in the dice"],  # 15-16 T6
    ["reroll", "R1", "--reason", "die fell off the table", "--ledger"],  # 17-18 T7 void, 19-20 T8: R3
    ["seed", "reveal"],  # 21-23 T9: epoch 0 revealed, epoch 1 committed
    ["roll", "D6", "--for", "later", "--ledger"],  # 24-25 T10: R4, epoch 1 (not revealed)
]


@dataclass
class Cli:
    """`cli(*args)` runs `campaign --store <url> *args`; `store=` picks another database."""

    runner: CliRunner
    folder: Path

    def url(self, name: str = "c.db") -> str:
        return "sqlite:///" + str(self.folder / name)  # an absolute path: four slashes in all

    def __call__(self, *args: str, store: str = "c.db") -> Result:
        return self.runner.invoke(main, ["--store", self.url(store), *args], catch_exceptions=False)

    def show(self, store: str = "c.db") -> dict:
        return json.loads(self("show", "--json", store=store).output)

    def log(self, store: str = "c.db") -> list[dict]:
        return json.loads(self("log", "--json", "--all", store=store).output)  # every event, by position


@pytest.fixture
def cli(tmp_path, monkeypatch) -> Cli:
    monkeypatch.setattr(app, "Ledger", partial(Ledger, clock=lambda: FIXED_TIME))
    seeds = iter(bytes([n] * 32) for n in range(1, 100))
    monkeypatch.setattr(dice, "new_seed", lambda: next(seeds))
    monkeypatch.setattr(campaigns, "uuid", SimpleNamespace(uuid4=lambda: uuid.UUID(CAMPAIGN_ID)))
    for name in ("CAMPAIGN_STORE", "CAMPAIGN_ACTOR", "CAMPAIGN_NAME"):
        monkeypatch.delenv(name, raising=False)
    # A key file of the test's own: every test's campaign has the one id, and a key file shared with another
    # test's, which revealed epoch 0 and kept epoch 1's seed, says epoch 0's seed may be public.
    monkeypatch.setenv(KEYS_ENV, str(tmp_path / "keys.json"))
    return Cli(CliRunner(), tmp_path)


@pytest.fixture
def played(cli) -> Cli:
    """Table dice, ledger dice, a shuffle, a void, a reroll, a seed reveal and a roll after it."""
    for args in PLAY:
        result = cli(*args)
        assert result.exit_code == 0, result.output
    return cli


# --- tampering ----------------------------------------------------------------------------------------
# Helpers are fixtures or methods of fixtures: with --import-mode=importlib test modules cannot
# import this conftest.

RECORD_KEYS = ("position", "type", "recorded_at", "actor", "tx", "payload", "prev_hash")


def sha256_of_record(record: dict) -> str:
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Database:
    """The played campaign's SQLite file, edited by hand."""

    path: Path

    def rewrite(self, position: int, old: bytes, new: bytes) -> None:
        """Replace the first `old` in the stored row of `position` by `new`."""
        with sqlite3.connect(self.path) as conn:
            (state,) = conn.execute(
                "SELECT state FROM stored_events WHERE originator_version = ?", (position,)
            ).fetchone()
            assert old in bytes(state), f"position {position} does not hold {old!r}"
            changed = bytes(state).replace(old, new, 1)
            conn.execute("UPDATE stored_events SET state = ? WHERE originator_version = ?", (changed, position))

    def delete(self, position: int) -> None:
        with sqlite3.connect(self.path) as conn:
            conn.execute("DELETE FROM stored_events WHERE originator_version = ?", (position,))

    def forge(self, position: int, edit: Callable[[dict], None], *, through: int | None = None,
              actor: str | None = None) -> None:
        """Edit the event at `position` (and its `actor`) and recompute the hashes from there (to
        `through`, or to the end), as a careful forger would; snapshots hold the head hash, so the
        forger drops them."""
        with sqlite3.connect(self.path) as conn:
            rows = conn.execute("SELECT originator_version, state FROM stored_events ORDER BY originator_version")
            prev_hash = None
            for version, state in rows.fetchall():
                stored = json.loads(state)
                if version < position or (through is not None and version > through):
                    prev_hash = stored["hash"]
                    continue
                if version == position:
                    edit(stored["event"])
                    stored["actor"] = stored["actor"] if actor is None else actor
                stored["prev_hash"] = prev_hash
                payload = dict(stored["event"])
                record = {key: stored[key] for key in ("position", "recorded_at", "actor", "tx", "prev_hash")}
                record["type"], record["payload"] = payload.pop("type"), payload
                stored["hash"] = prev_hash = sha256_of_record(record)
                conn.execute(
                    "UPDATE stored_events SET state = ? WHERE originator_version = ?",
                    (json.dumps(stored, ensure_ascii=False).encode("utf-8"), version),
                )
            conn.execute("DELETE FROM stored_snapshots")

    def count(self, table: str = "stored_events") -> int:
        with sqlite3.connect(self.path) as conn:
            return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


@pytest.fixture
def database(played) -> Database:
    return Database(played.folder / "c.db")


@pytest.fixture
def database_at() -> type[Database]:
    """`Database(path)`, for a campaign other than `played`'s (test modules cannot import this conftest)."""
    return Database


@dataclass
class TrailFile:
    """An exported trail, read and rewritten line by line."""

    path: Path

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines()]

    def write(self, lines: list[dict], *, rehash: bool = False) -> None:
        """Write the lines back; `rehash` recomputes every hash and the trailer's head first."""
        if rehash:
            prev_hash = "0" * 64
            for line in lines:
                if "kind" not in line:  # an event line
                    line["prev_hash"] = prev_hash
                    line["hash"] = prev_hash = sha256_of_record({key: line[key] for key in RECORD_KEYS})
                elif line["kind"] == "trailer":
                    line["head"] = prev_hash
        text = "".join(
            json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n" for line in lines
        )
        self.path.write_text(text, encoding="utf-8")


@pytest.fixture
def trail(played) -> TrailFile:
    """The JSON Lines export of the played campaign."""
    path = played.folder / "trail.jsonl"
    assert played("export", "-o", str(path)).exit_code == 0
    return TrailFile(path)


@pytest.fixture
def trail_at() -> type[TrailFile]:
    """`TrailFile(path)`, for a trail other than `played`'s export."""
    return TrailFile


@pytest.fixture
def campaign_id() -> str:
    return CAMPAIGN_ID


@pytest.fixture
def beside_outcomes(monkeypatch) -> list[Outcome]:
    """The outcomes that came back from the processes forked beside (ledger.beside), in order."""
    came_back: list[Outcome] = []
    finish = Beside.finish

    def recorded(self: Beside) -> Outcome:
        came_back.append(finish(self))
        return came_back[-1]

    monkeypatch.setattr(Beside, "finish", recorded)
    return came_back
