"""A league server's load: several client processes writing at once to PostgreSQL.

Each client is its own process that opens the store (as a CLI command would), then runs commands
one after another, each with its read-model update, timing each; a command the ledger gives up on
after its retries, or a client that cannot open the store, counts as failed. The baseline is one
client alone, measured in the same run on the same database.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import urlparse, urlunparse

from benchmarks import league
from ledger.campaigns import Ledger
from ledger.store import Store
from projections import sql


@contextmanager
def scratch_database(server: str) -> Iterator[str | None]:
    """A fresh database on `server`, dropped afterwards (None when the server does not answer)."""
    try:
        import psycopg

        parsed = urlparse(server)
        admin = psycopg.connect(host=parsed.hostname or "127.0.0.1", port=parsed.port or 5432,
                                user=parsed.username or "postgres", password=parsed.password or "",
                                dbname=parsed.path.strip("/"), connect_timeout=3, autocommit=True)
    except Exception:  # noqa: BLE001 - no driver or no server: nothing to measure
        yield None
        return
    name = f"campaign_bench_{uuid.uuid4().hex[:8]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunparse(parsed._replace(path="/" + name))
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@dataclass
class Clients:
    seconds: float  # from the first command started to the last one finished, over all clients
    latencies: list[float]  # of every command that was recorded
    failed: int  # commands given up on, and the commands of clients that could not open the store

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds


def _client(job: tuple[str, str, int]) -> tuple[list[float], int, float, float]:
    """(latencies, failed, wall clock of the first command's start, of the last one's end)."""
    url, campaign_id, commands = job
    begun = time.time()
    try:
        store = Store(url)
    except Exception:  # noqa: BLE001 - a client that cannot open the store is a failure to count
        return [], commands, begun, time.time()
    try:
        ledger = Ledger(store, on_commit=[sql.on_commit], in_commit=[sql.in_commit])
        cid = uuid.UUID(campaign_id)
        from benchmarks.run import accepted_command  # the same command the SQLite measurements run

        command = accepted_command(ledger, cid)
        latencies, failed = [], 0
        begun = time.time()
        for _ in range(commands):
            started = time.perf_counter()
            try:
                ledger.execute(cid, command, actor="bench")
            except Exception:  # noqa: BLE001 - given up after the retries (or any other failure)
                failed += 1
                continue
            latencies.append(time.perf_counter() - started)
        return latencies, failed, begun, time.time()
    finally:
        store.close()


def run_clients(url: str, campaign_ids: list[uuid.UUID], commands: int) -> Clients:
    """One client process per campaign id given (ids may repeat: clients sharing a campaign)."""
    jobs = [(url, str(cid), commands) for cid in campaign_ids]
    with multiprocessing.get_context("spawn").Pool(len(jobs)) as pool:  # fresh interpreters, as CLI commands are
        results = pool.map(_client, jobs)
    seconds = max(r[3] for r in results) - min(r[2] for r in results)
    return Clients(seconds, [t for r in results for t in r[0]], sum(r[1] for r in results))


def league_of(url: str, ruleset: str, campaigns: int) -> list[uuid.UUID]:
    """`campaigns` sample campaigns of the ruleset in the store."""
    ids = []
    for n in range(campaigns):
        name = f"Bench server {n + 1}"
        league.sample_campaign(url, ruleset, name)
        store = Store(url)
        try:
            ids.append(Ledger(store).find(name))
        finally:
            store.close()
    return ids


def p99_over_median(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] / statistics.median(ordered)
