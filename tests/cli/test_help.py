"""Every command and group has help text, and `--help` works on each."""

import click
from click.testing import CliRunner

from ledger.cli import main


def all_commands(group: click.Group, prefix: tuple[str, ...] = ()):
    for name, command in group.commands.items():
        yield prefix + (name,), command
        if isinstance(command, click.Group):
            yield from all_commands(command, prefix + (name,))


def test_every_command_has_help():
    missing = [" ".join(path) for path, command in all_commands(main) if not (command.help or "").strip()]
    assert missing == []


def test_help_runs_for_every_command():
    runner = CliRunner()
    for path, command in all_commands(main):
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, path
        assert result.output.startswith("Usage: main " + " ".join(path)), path
