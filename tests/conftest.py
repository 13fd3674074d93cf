"""Fixtures for every test: a store URL for each backend, and a fixed clock.

`store_url` runs a test once per backend: memory://, a SQLite file under tmp_path, and
PostgreSQL. PostgreSQL tests use a database of this test run's own (created from the server in
CAMPAIGN_TEST_POSTGRES, default postgresql://postgres@127.0.0.1:5432/test, dropped at the end),
so that several test runs on one server never drop each other's tables; before each test its
`public` schema is emptied (the ledger's tables, the read models' `rm_*` tables, their types and
functions). When the server is not reachable the PostgreSQL tests are skipped, unless
CAMPAIGN_REQUIRE_POSTGRES is set (as CI sets it): then they fail.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from urllib.parse import urlparse, urlunparse

import pytest

POSTGRES_SERVER = os.environ.get("CAMPAIGN_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
FIXED_TIME = "2026-11-29T12:00:00.000000Z"


def _connect(url: str, **options):
    import psycopg  # only when a PostgreSQL test runs, as the ledger itself does

    parsed = urlparse(url)
    return psycopg.connect(
        host=parsed.hostname or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username or "postgres",
        password=parsed.password or "",
        dbname=parsed.path.strip("/"),
        connect_timeout=3,
        **options,
    )


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """The URL of a fresh database for this test run, on the server in POSTGRES_SERVER."""
    try:
        admin = _connect(POSTGRES_SERVER, autocommit=True)
    except Exception as error:  # the driver missing or the server down: both mean "not reachable"
        message = f"PostgreSQL at {POSTGRES_SERVER} is not reachable: {error}"
        if os.environ.get("CAMPAIGN_REQUIRE_POSTGRES"):
            pytest.fail(message + " (CAMPAIGN_REQUIRE_POSTGRES is set)", pytrace=False)
        pytest.skip(message)
    name = f"campaign_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunparse(urlparse(POSTGRES_SERVER)._replace(path="/" + name))
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _empty_public_schema(url: str) -> None:
    with _connect(url, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")


@pytest.fixture
def fresh_postgres(postgres_database) -> Iterator[str]:
    """The run's PostgreSQL database with nothing in it: its public schema emptied before the test
    and after it, so that no test finds another's tables."""
    _empty_public_schema(postgres_database)
    yield postgres_database
    _empty_public_schema(postgres_database)


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request, tmp_path) -> str:
    """A store URL with nothing in it, once per backend."""
    if request.param == "memory":
        return "memory://"
    if request.param == "sqlite":
        return "sqlite:///" + str(tmp_path / "campaign.db")  # tmp_path is absolute: four slashes
    return request.getfixturevalue("fresh_postgres")


@pytest.fixture
def clock() -> Callable[[], str]:
    """A clock that always tells FIXED_TIME, so that record hashes are the same on every run."""
    return lambda: FIXED_TIME


@pytest.fixture(autouse=True, scope="session")
def _dice_key_file(tmp_path_factory) -> Iterator[None]:
    """Every test keeps SQLite dice seeds in a key file of this test run, never in the user's own:
    XDG_DATA_HOME points into the run's temporary folder, so the default key file is there, for
    this process and for every `campaign` process a test starts (even one started without the
    CAMPAIGN_* variables). One file for the run, so that campaigns a session fixture builds keep
    their seeds; seeds are kept by campaign id, and a test that needs a key file of its own sets
    CAMPAIGN_KEYS."""
    saved = {name: os.environ.get(name) for name in ("XDG_DATA_HOME", "CAMPAIGN_KEYS")}
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))
    os.environ.pop("CAMPAIGN_KEYS", None)
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
