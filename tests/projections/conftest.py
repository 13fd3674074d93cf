"""Fixtures for the read-model tests: SQL stores, a ruleset with a rating, a table dump, the CLI.

PostgreSQL tests run in the test run's own database (`postgres_database`, tests/conftest.py), each
in a schema of its own, given to the store through the POSTGRES_SCHEMA setting: that isolates
them and checks that the read models follow the store into its schema.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

import pytest

from commands.shared import SHARED_HANDLERS
from ledger import rulesets
from ledger.campaigns import Ledger
from ledger.store import Store
from ledger.testing import CampaignRunner
from projections import sql
from projections.tables import TABLES

RATED = rulesets.Ruleset(
    id="rated-test",
    version="1",
    title="The shared commands, with a rating: each active fighter's cost times group size, plus XP",
    handlers=SHARED_HANDLERS,
    rating=lambda state, warband: sum(f.cost * f.group_size + f.xp for f in state.fighters_of(warband)),
)


@pytest.fixture
def rated_ruleset(monkeypatch) -> rulesets.Ruleset:
    """`rated-test` is known for this test only (the shipped rulesets are loaded first)."""
    monkeypatch.setitem(rulesets.load_rulesets(), RATED.id, RATED)
    return RATED


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def sql_url(request, tmp_path, monkeypatch) -> Iterator[str]:
    """An empty SQLite file, or a PostgreSQL schema of this test's own."""
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path / "campaign.db")
        return
    import psycopg

    url = request.getfixturevalue("postgres_database")
    schema = f"rm_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    monkeypatch.setenv("POSTGRES_SCHEMA", schema)
    yield url
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def store(sql_url) -> Iterator[Store]:
    opened = Store(sql_url)
    yield opened
    opened.close()


@pytest.fixture
def ledger(store, clock) -> Ledger:
    """A ledger whose commits keep the read models, as the CLI's does."""
    return Ledger(store, clock=clock, on_commit=[sql.on_commit], in_commit=[sql.in_commit])


Dump = dict[str, list[tuple]]


@pytest.fixture
def dump() -> Callable[[Store | str], Dump]:
    """Every read-model table of a store (or of the store at a URL), each sorted by its key."""

    def read(store: Store | str) -> Dump:
        if isinstance(store, str):
            opened = Store(store)
            try:
                return read(opened)
            finally:
                opened.close()
        d = sql.require_sql(store)
        with store.sql() as cursor:
            return {
                table.name: d.select(cursor, f"SELECT * FROM {d.table(table)} ORDER BY {', '.join(table.key)}")
                for table in TABLES
            }

    return read


@pytest.fixture
def cli(sql_url) -> CampaignRunner:
    """`cli(*args)` runs `campaign --store <sql_url> *args` with a fixed clock and dice seed."""
    return CampaignRunner(sql_url)
