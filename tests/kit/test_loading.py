"""Rulesets and the CLI's own commands are imported only when needed; rulesets add their commands
through the hook they are handed."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

import importlib

import commands.kit.example as example
from ledger.cli import main
from ledger.cli.app import COMMAND_MODULES, RulesetCommands

RULESET_MODULES = ("commands.coreheim", "commands.trench_crusade", "commands.freeform")


def imported_by(*code: str) -> set[str]:
    """The modules imported by running `code` in a fresh interpreter (sys.modules: `-X importtime`
    does not see what importlib.import_module imports)."""
    done = subprocess.run([sys.executable, "-c", "\n".join([*code, "import sys", "print(*sys.modules, file=sys.stderr)"])],
                          capture_output=True, text=True, check=True)
    return set(done.stderr.split())


def cli(*args: str) -> str:
    return f"from ledger.cli import main\ntry:\n    main({list(args)!r})\nexcept SystemExit:\n    pass"


def test_campaign_help_imports_no_ruleset():
    modules = imported_by(cli("--help"))
    assert "ledger.cli" in modules
    assert not {m for m in modules if m.startswith(RULESET_MODULES)}


def test_campaign_help_imports_no_template_engine():
    """Jinja2 is imported by the commands that render a page, not by every command's start-up."""
    modules = imported_by(cli("--help"))
    assert "projections.render" in modules
    assert "jinja2" not in modules


def test_a_command_imports_its_own_module_only():
    """`campaign roster` (issue #14: start-up) imports the warbands noun, not the audit, report or
    campaign modules and what they need."""
    modules = imported_by(cli("--store", "memory://", "roster", "Nobody"))
    assert "ledger.cli.warbands" in modules
    assert not {"ledger.cli.audit", "ledger.cli.report", "ledger.cli.campaigns", "projections.report"} & modules


def test_the_command_table_names_each_command_of_each_module():
    for module in set(COMMAND_MODULES.values()):
        importlib.import_module(f"ledger.cli.{module}")
    core = {name: command for name, command in main.commands.items() if not isinstance(command, RulesetCommands)}
    assert {name: COMMAND_MODULES[name] for name in core} == COMMAND_MODULES
    for name, command in core.items():
        assert command.callback.__module__ == f"ledger.cli.{COMMAND_MODULES[name]}", name


def test_a_ruleset_group_imports_that_ruleset_only():
    modules = imported_by(cli("coreheim", "--help"))
    assert {m for m in modules if m.startswith("commands.coreheim")}
    assert not {m for m in modules if m.startswith(("commands.trench_crusade", "commands.freeform"))}


def test_a_ruleset_is_loaded_without_its_commands_module_until_its_group_is_used():
    loaded = imported_by("import commands.coreheim, commands.trench_crusade, commands.speedheim, commands.retinue, "
                         "commands.warbands")
    assert {"commands.coreheim", "commands.trench_crusade", "commands.warbands"} <= loaded
    assert not {m for m in loaded if m.endswith(".cli")}
    assert "commands.trench_crusade.cli" in imported_by(cli("trench-crusade", "--help"))


def test_what_importing_the_cli_made_is_left_out_of_garbage_collections():
    done = subprocess.run([sys.executable, "-c", "import gc, ledger.cli; print(gc.get_freeze_count())"],
                          capture_output=True, text=True, check=True)
    assert int(done.stdout) > 10_000


def test_no_ruleset_module_imports_the_cli():
    modules = imported_by("import commands.coreheim, commands.trench_crusade, commands.freeform, commands.kit.example")
    assert not {m for m in modules if m.startswith("ledger.cli")}


def test_a_ruleset_adds_its_commands_through_the_hook_it_is_handed():
    group = RulesetCommands("kit-example", "The kit's worked example.")
    main.add_command(group)
    try:
        result = CliRunner().invoke(main, ["kit-example", "--help"])
    finally:
        main.commands.pop("kit-example")
    assert result.exit_code == 0, result.output
    assert "injuries    Injuries of WARBAND's fighters taken out of action in its..." in result.output
    assert example.RULESET.register_commands is not None
