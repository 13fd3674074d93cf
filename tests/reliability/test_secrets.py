"""A store password is never printed: not in errors, logs, `show`, or exports (issue #13, item 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import urlparse, urlunparse

import pytest

from ledger.testing import CampaignRunner

PASSWORD = "S3cr3t-pw"


def test_an_unreachable_server_is_named_without_its_password():
    result = CampaignRunner(f"postgresql://alice:{PASSWORD}@nohost/x")("log")
    assert result.exit_code == 2
    assert result.output.startswith("Error: cannot open store postgresql://alice:***@nohost/x: ")
    assert PASSWORD not in result.output


def test_a_bad_port_is_named_without_the_password():
    result = CampaignRunner(f"postgresql://alice:{PASSWORD}@127.0.0.1:99999/x")("log")
    assert result.output == "Error: store 'postgresql://alice:***@127.0.0.1:99999/x': the port must be a number from 1 to 65535\n"


@pytest.mark.postgres
def test_a_working_store_with_a_password_never_shows_it(fresh_postgres, tmp_path):
    # The test server trusts local connections, so any password opens it: the ledger holds one all along.
    parsed = urlparse(fresh_postgres)
    url = urlunparse(parsed._replace(netloc=f"{parsed.username or 'postgres'}:{PASSWORD}@{parsed.hostname}:{parsed.port or 5432}"))
    cli = CampaignRunner(url)
    outputs = []
    for args in (["new", "Secret League"], ["warband", "add", "Rats", "--player", "Ann"], ["show"], ["show", "--json"],
                 ["log"], ["list"], ["verify"], ["--campaign", "Nope", "log"], ["new", "Secret League"],
                 ["export", "-o", str(tmp_path / "t.jsonl")], ["export", "--format", "md"], ["export", "--format", "csv"],
                 ["use", "Secret League"], ["seed", "where"], ["rebuild"], ["backup", str(tmp_path / "b.db")]):
        outputs.append(cli(*args).output)
    assert (tmp_path / "t.jsonl").exists(), outputs
    assert "Error: no campaign 'Nope' in postgresql://postgres:***@" in outputs[7]
    assert "already exists in postgresql://postgres:***@" in outputs[8]
    assert outputs[12].startswith("Now using Secret League (freeform) in postgresql://postgres:***@")
    assert outputs[13].startswith("Seeds of postgresql://postgres:***@")
    assert all(PASSWORD not in text for text in outputs)
    assert PASSWORD not in (tmp_path / "t.jsonl").read_text()
    # A real process, with whatever the libraries log to stderr.
    done = subprocess.run([sys.executable, "-c", "from ledger.cli import main; main()", "--store", url,
                           "--campaign", "Nope", "log"], capture_output=True, text=True,
                          env={**os.environ, "CAMPAIGN_DEBUG": ""}, check=False)
    assert done.returncode == 2 and PASSWORD not in done.stdout + done.stderr, done.stderr
