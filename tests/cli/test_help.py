"""Every command and group has help text, and `--help` works on each."""

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from ledger import rulesets
from ledger.cli import main
from ledger.cli.app import COMMAND_MODULES
from ledger.deciding import LEDGER_COMMANDS


def all_commands(group: click.Group, prefix: tuple[str, ...] = ()):
    """Every command of the group and their subcommands, each ruleset's among them; the root's core
    commands are imported when asked for (see COMMAND_MODULES)."""
    context = click.Context(group)
    commands = {name: group.get_command(context, name) for name in group.list_commands(context)}
    for name, command in commands.items():
        yield prefix + (name,), command
        if isinstance(command, click.Group):
            yield from all_commands(command, prefix + (name,))


def test_every_command_has_help():
    missing = [" ".join(path) for path, command in all_commands(main) if not (command.help or "").strip()]
    assert missing == []


def test_every_option_is_described():
    """`--help` says what each option does (`correct --status` once showed its choices alone)."""
    missing = [f"{' '.join(path)} {param.opts[0]}" for path, command in all_commands(main) for param in command.params
               if isinstance(param, click.Option) and not param.hidden and not (param.help or "").strip()]
    assert missing == []


def test_every_option_that_takes_more_than_one_says_repeatable():
    """README: "An option that takes one value given twice is one: the options that say "repeatable" take more";
    in that word (`battle record --warband` once said "(repeat)")."""
    unsaid = [f"{' '.join(path)} {param.opts[0]}" for path, command in all_commands(main) for param in command.params
              if isinstance(param, click.Option) and param.multiple and "repeatable" not in (param.help or "")]
    assert unsaid == []


def test_help_runs_for_every_command():
    runner = CliRunner()
    for path, command in all_commands(main):
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, path
        assert result.output.startswith("Usage: main " + " ".join(path)), path


def test_dash_h_is_help_everywhere():
    runner = CliRunner()
    for path, _command in [((), main), *all_commands(main)]:
        short, long = runner.invoke(main, [*path, "-h"]), runner.invoke(main, [*path, "--help"])
        assert (short.exit_code, short.output) == (0, long.output), path


def test_root_help_names_the_environment_variables_and_exit_codes():
    shown = " ".join(CliRunner().invoke(main, ["--help"]).output.split())
    for variable, option in (("CAMPAIGN_STORE", "--store"), ("CAMPAIGN_ACTOR", "--as"), ("CAMPAIGN_NAME", "--campaign")):
        assert f"[env var: {variable}" in shown and f"{variable} " in shown.split("Options:")[0], variable
        assert f"as {option}" in shown
    assert ("Exit codes: 0 done, 1 refused by the rules, 2 bad input, 3 a chain or store that does not verify, "
            "70 a bug (CAMPAIGN_DEBUG=1 shows its traceback).") in shown


def test_every_read_and_write_takes_json():
    """Reads print JSON, writes answer with JSON (issue 9, item 15). Left out: commands that
    neither read a campaign out nor record into one (`demo` shows text, `export`, `report` and
    `backup` write a file, `rebuild` rebuilds tables, `use` picks the current campaign, `import` reports a summary,
    `seed where|export|import` handle the key file, `admin init-roles` sets up a league server's roles)."""
    without = {("demo",), ("export",), ("report",), ("backup",), ("rebuild",), ("use",), ("import",),
               ("seed", "where"), ("seed", "export"), ("seed", "import"), ("admin", "init-roles")}
    missing = [
        " ".join(path) for path, command in all_commands(main)
        if not isinstance(command, click.Group) and path not in without and path[0] in CORE
        and "--json" not in {opt for p in command.params for opt in getattr(p, "opts", [])}
    ]
    assert missing == []


CORE = set(COMMAND_MODULES)


def test_each_group_has_all_its_commands_in_a_fresh_process():
    """A core command's module is imported when the command is used: the group must bring every
    one of its subcommands along (`seed where` once came only if another module had been imported)."""
    loaded = {path[0]: sorted(command.commands) for path, command in all_commands(main)
              if len(path) == 1 and path[0] in CORE and isinstance(command, click.Group)}
    assert "seed" in loaded and "where" in loaded["seed"]
    for name, subcommands in loaded.items():
        shown = subprocess.run(
            [sys.executable, "-c", "import sys, click; from ledger.cli import main; "
             "print(' '.join(sorted(main.get_command(click.Context(main), sys.argv[1]).commands)))", name],
            capture_output=True, text=True, check=True)
        assert shown.stdout.split() == subcommands, name


def test_every_recorded_command_is_typed_as_a_command_the_cli_has():
    """The report heads a transaction with its command as a player types it (`typed_command`), not its
    tag: every command of every ruleset and the ledger's own name a command of the CLI (a dice burn,
    which nobody types, none)."""
    typed = {"campaign " + " ".join(path) for path, command in all_commands(main) if not isinstance(command, click.Group)}
    shipped = [rulesets.get(ruleset_id) for ruleset_id in rulesets.index()]  # not those tests register
    untyped = {
        (ruleset.id, tag) for ruleset in shipped for tag in [*ruleset.command_types, *LEDGER_COMMANDS]
        for args in ({}, {"to_arsenal": True}) if rulesets.typed_command(ruleset, tag, args) not in typed
    }
    assert untyped == {(ruleset.id, "dice.burn") for ruleset in shipped}


@pytest.mark.parametrize(("ruleset", "tag", "args", "typed"), [
    ("coreheim", "coreheim.hire", {"warband": "Rats"}, "campaign coreheim hire"),
    ("coreheim", "coreheim.sell-shards", {}, "campaign coreheim sell-shards"),
    ("freeform", "campaign.new", {}, "campaign new"),
    ("freeform", "warband.enlist", {}, "campaign warband add"),
    ("freeform", "fighter.recruit", {}, "campaign fighter add"),
    ("freeform", "treasury.change", {}, "campaign treasury"),
    ("freeform", "seed.reveal", {}, "campaign seed reveal"),
    ("freeform", "reroll", {}, "campaign reroll"),
    ("trench-crusade", "trench-crusade.advancement", {}, "campaign trench-crusade advance"),
    ("trench-crusade", "trench-crusade.allocate", {}, "campaign trench-crusade give"),
    ("trench-crusade", "trench-crusade.allocate", {"to_arsenal": True}, "campaign trench-crusade stow"),
    ("speedheim", "speedheim.learn-each", {}, "campaign post-game"),  # the walk's step for every hero at once
    ("freeform", "dice.burn", {}, None),
])
def test_typed_command(ruleset, tag, args, typed):
    assert rulesets.typed_command(rulesets.get(ruleset), tag, args) == typed
