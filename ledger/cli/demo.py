"""campaign demo: build the sample campaigns of `fixtures/` and show them."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from importlib import resources
from typing import Any

import click

from ledger.cli.app import Session, main, pass_session
from ledger.cli.history import print_log
from ledger.cli.views import print_campaign, print_roster
from ledger.errors import BadInput, IntegrityFailure
from ledger.fold import standing_battles


def fixture_campaigns() -> dict[str, dict[str, Any]]:
    """Every `fixtures/<ruleset>/demo.json`, by ruleset id."""
    found = {}
    for folder in sorted(resources.files("fixtures").iterdir(), key=lambda p: p.name):
        demo = folder / "demo.json"
        if folder.is_dir() and demo.is_file():
            data = json.loads(demo.read_text(encoding="utf-8"))
            found[data["ruleset"]] = data
    return found


def fixture_step(step: list[str] | dict[str, Any]) -> tuple[list[str], str | None]:
    """A fixture step: the CLI arguments, and the error it must be refused with (None: it must
    succeed). A step written `{"step": [...], "refused": "Error: …"}` shows a refusal in the demo."""
    if isinstance(step, dict):
        return step["step"], step["refused"]
    return step, None


def build(session: Session, fixture: dict[str, Any]) -> None:
    """Replay a fixture's CLI steps against the session's store, failing loudly on the first step
    that does not end as the fixture says (done, or refused with its message)."""
    base = ["--store", session.store_url, "--as", session.actor]
    # A fixture's options are house rules pinned at `new` (e.g. a physical deck whose cards the steps name).
    options = [arg for key, value in fixture.get("options", {}).items() for arg in ("--option", f"{key}={value}")]
    steps = [["new", fixture["name"], "--ruleset", fixture["ruleset"], *options], *fixture["steps"]]
    with click.progressbar(steps, label=f"Building {fixture['name']}", file=sys.stderr) as bar:
        for step in bar:
            args, refused = fixture_step(step)
            argv = base + (["--campaign", fixture["name"]] if args[0] != "new" else []) + args
            captured = io.StringIO()
            with contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
                try:
                    # Without standalone mode click returns the exit code of a refusal (ctx.exit).
                    returned = main.main(args=argv, prog_name="campaign", standalone_mode=False)
                    code = returned if isinstance(returned, int) else 0
                except click.ClickException as error:
                    error.show()
                    code = error.exit_code
            said = captured.getvalue().strip()
            if refused is None and code:
                raise IntegrityFailure(f"demo step `campaign {' '.join(args)}` failed: {said}")
            if refused is not None and (not code or said != refused):
                raise IntegrityFailure(f"demo step `campaign {' '.join(args)}` should be refused with {refused!r}: {said}")


@main.command("demo")
@click.option("--ruleset", "only", default=None, help="Build only this ruleset's sample campaign.")
@pass_session
def demo(session: Session, only: str | None) -> None:
    """Build the sample campaigns (from fixtures/) in the store and show rosters, log and head hash.

    A sample campaign that is already in the store is shown, not built again."""
    fixtures = fixture_campaigns()
    if only is not None and only not in fixtures:
        raise BadInput(f"no sample campaign for '{only}' (samples: {', '.join(fixtures)})")
    existing = {state.name for state in session.ledger.campaigns()}
    for ruleset_id, fixture in fixtures.items():
        if only is not None and ruleset_id != only:
            continue
        if fixture["name"] not in existing:
            build(session, fixture)
        cid = session.ledger.find(fixture["name"])
        state = session.ledger.load(cid)
        records = session.ledger.history(cid)
        click.echo("")
        print_campaign(state, standing_battles(records))
        for warband in state.warbands:
            click.echo("")
            print_roster(state, warband)
        click.echo("")
        print_log(session, cid, state, records)
    click.echo("")
    click.echo("Try: campaign use NAME, then: campaign report | log | roster WARBAND | replay --battle 1 | verify | export --format md")
