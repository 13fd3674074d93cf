"""The import graph the kit promises: no cycle among the project's modules, and no ruleset module
importing the CLI (rulesets are handed the click group by their hook instead)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("ledger", "commands", "projections")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = _modules()


def _imported_at_load(name: str, path: Path) -> set[str]:
    """The project's modules `name` imports while it loads: its top-level imports, not those inside
    functions (deferred on purpose) or under `if TYPE_CHECKING:`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    imported = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            imported |= {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names}
    return {module for module in imported if module in MODULES and module != name}


GRAPH = {name: _imported_at_load(name, path) for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import loop met by a depth-first walk, as the modules around it."""
    found, done = [], set()

    def walk(module: str, path: list[str]) -> None:
        if module in path:
            found.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for imported in sorted(graph[module]):
            walk(imported, [*path, module])
        done.add(module)

    for name in sorted(graph):
        walk(name, [])
    return found


def test_the_projects_modules_import_each_other_without_a_cycle():
    assert _cycles(GRAPH) == []


def test_the_walk_names_a_loop_when_there_is_one():
    # Given two modules importing each other (so the test above can fail)
    assert _cycles({"commands.a": {"commands.b"}, "commands.b": {"commands.a"}}) == [["commands.a", "commands.b", "commands.a"]]


@pytest.mark.parametrize("module", sorted(name for name in GRAPH if name.startswith("commands.")))
def test_no_ruleset_module_imports_the_cli(module):
    assert not any(imported.startswith("ledger.cli") for imported in GRAPH[module])
