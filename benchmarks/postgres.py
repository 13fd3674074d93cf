"""A league server's load: several client processes writing at once to PostgreSQL.

Each client is its own process that opens the store (as a CLI command would), then runs commands
one after another, each with its read-model update, timing each; a command the ledger gives up on
after its retries, or a client that cannot open the store, counts as failed. The baseline is one
client alone, measured in the same run on the same database.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import statistics
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse, urlunparse

from benchmarks import league
from ledger.campaigns import Ledger
from ledger.store import Store
from projections import sql


@contextlib.contextmanager
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


_START: Any = None  # the clients' barrier: each starts its commands once every client is ready


def _share_start(start: Any) -> None:
    global _START  # noqa: PLW0603 - a pool worker's one shared object, set as it starts
    _START = start


def _client(job: tuple[str, str, int]) -> tuple[list[float], int, float, float]:
    """(latencies, failed, wall clock of the first command's start, of the last one's end). The
    commands start together, once every client has started its interpreter and opened the store
    (at once, as a league's players would): what is timed is the clients writing at the same time,
    not one client's commands while the others still import their modules."""
    url, campaign_id, commands = job
    try:
        store = Store(url)
    except Exception:  # noqa: BLE001 - a client that cannot open the store is a failure to count
        _wait_for_the_others()
        return [], commands, time.time(), time.time()
    try:
        ledger = Ledger(store, on_commit=[sql.on_commit], in_commit=[sql.in_commit])
        cid = uuid.UUID(campaign_id)
        from benchmarks.run import accepted_command  # the same command the SQLite measurements run

        command = accepted_command(ledger, cid)
        latencies, failed = [], 0
        _wait_for_the_others()
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


def _wait_for_the_others() -> None:
    with contextlib.suppress(threading.BrokenBarrierError):
        _START.wait(timeout=120)


def run_clients(url: str, campaign_ids: list[uuid.UUID], commands: int) -> Clients:
    """One client process per campaign id given (ids may repeat: clients sharing a campaign)."""
    jobs = [(url, str(cid), commands) for cid in campaign_ids]
    context = multiprocessing.get_context("spawn")  # fresh interpreters, as CLI commands are
    start = context.Barrier(len(jobs))
    with context.Pool(len(jobs), initializer=_share_start, initargs=(start,)) as pool:
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
