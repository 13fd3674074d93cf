"""Fixtures for the report tests: the demo campaigns (every fixture campaign) built once, in a
SQLite file whose read-model tables the report's numbers are checked against."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from ledger.cli.demo import fixture_campaigns
from ledger.testing import CampaignRunner
from projections.tables import TABLES

FIXTURES = fixture_campaigns()  # ruleset id -> the fixture campaign


@pytest.fixture(scope="session")
def demo(tmp_path_factory) -> CampaignRunner:
    """`campaign demo` in a SQLite file of its own: one campaign per fixture."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path_factory.mktemp("demo") / "demo.db"))
    assert runner("demo").exit_code == 0
    return runner


class Tables:
    """The read-model tables of one campaign in a SQLite file, as dicts (JSON columns parsed)."""

    def __init__(self, store_url: str, campaign_name: str):
        self.db = sqlite3.connect(store_url.removeprefix("sqlite:///"))
        self.db.row_factory = sqlite3.Row
        [(self.cid,)] = self.db.execute("SELECT campaign_id FROM rm_campaigns WHERE name = ?", (campaign_name,))

    def rows(self, table: str, order: str = "rowid") -> list[dict[str, Any]]:
        kinds = dict(next(t for t in TABLES if t.name == table).columns)
        found = self.db.execute(f"SELECT * FROM {table} WHERE campaign_id = ? ORDER BY {order}", (self.cid,))
        return [
            {key: json.loads(row[key]) if kinds[key] == "json" and row[key] is not None else row[key] for key in row.keys()}
            for row in found
        ]


@pytest.fixture(params=sorted(FIXTURES))
def fixture_campaign(request, demo) -> tuple[str, Tables]:
    """Each fixture campaign's name and its read-model tables."""
    name = FIXTURES[request.param]["name"]
    return name, Tables(demo.store, name)
