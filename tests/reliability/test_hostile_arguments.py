"""Every command of the CLI, run with hostile arguments, answers with output or one `Error:` line
and an exit code of 1, 2 or 3 — never a traceback (the runner sets CAMPAIGN_DEBUG, so an unforeseen
failure raises here) — and a refused command leaves the store byte-for-byte unchanged.

The commands are found by walking the CLI, so a command added later is attacked too.
CAMPAIGN_TEST_HOSTILE_VALUES (default 4) is how many hostile values each argument gets."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import click
import pytest

from ledger.cli import main
from ledger.testing import CampaignRunner

HOSTILE = [
    "", "-1", "9" * 40, "\udcff", "Rats\u202e", "x" * 3000, "'; DROP TABLE stored_events; --", "{[",
    "T0", "R999999", "E-3", "0,7", "D0", "999D6", "nan", "../../etc/passwd", "Gunnar=Gunnar", "=", "\u0301",
]
PER_ARGUMENT = int(os.environ.get("CAMPAIGN_TEST_HOSTILE_VALUES", "4"))
CAMPAIGNS = {"coreheim": "Demo: Coreheim Border Feud", "trench-crusade": "Demo: Trench Crusade"}


def commands(group: click.Group = main, path: tuple[str, ...] = (), parent: click.Context | None = None):
    ctx = click.Context(group, parent=parent, info_name=path[-1] if path else "campaign")
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            yield from commands(command, (*path, name), ctx)
        elif command is not None:
            yield (*path, name), command


COMMANDS = dict(commands())


def invocations(path: tuple[str, ...], command: click.Command, offset: int) -> list[list[str]]:
    """Hostile values in every argument at once, then in each option that takes a value, in turn."""
    picks = [HOSTILE[(offset + k) % len(HOSTILE)] for k in range(PER_ARGUMENT)]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    options = [p for p in command.params if isinstance(p, click.Option) and not p.is_flag and p.opts[0] != "--help"]
    runs = [[*path]] if arguments else []
    runs += [[*path, *(value for _ in arguments)] for value in picks]
    plain = ["Gunnar"] * len(arguments)
    runs += [[*path, *plain, option.opts[0], value] for option in options for value in picks[:2]]
    return runs


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    result = CampaignRunner(f"sqlite:///{folder / 'demo.db'}")("demo")
    assert result.exit_code == 0, result.output
    return folder / "demo.db"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) for p in COMMANDS])
def test_every_command_with_hostile_arguments(demo_store, tmp_path, monkeypatch, path):
    monkeypatch.chdir(tmp_path)  # files a command is told to write land here
    store = tmp_path / "c.db"
    shutil.copyfile(demo_store, store)
    cli = CampaignRunner(f"sqlite:///{store}")
    campaign = ["--campaign", CAMPAIGNS.get(path[0], "Demo: Freeform Skirmish")]
    for args in invocations(path, COMMANDS[path], offset=sum(map(ord, "".join(path)))):
        before = digest(store)
        result = cli(*campaign, *args)  # an unforeseen failure raises: the test fails with its traceback
        assert result.exit_code in (0, 1, 2, 3), (args, result.output)
        if result.exit_code:
            errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
            assert len(errors) == 1, (args, result.output)
            assert digest(store) == before, (args, result.output)
