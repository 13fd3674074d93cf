"""A player's terminal, for the concurrency and crash tests: runs `campaign` commands one after
another in this process, each opening the store afresh as a command-line run does, and prints one
line per command only once it has returned, flushed at once:

    ok LABEL            the command was acknowledged (exit 0)
    fail LABEL CODE     the command was refused; the next line is its message

    python worker.py STORE CAMPAIGN PREFIX COUNT [--wait] [--pause-after-commit]

COUNT commands (0: until killed), cycling through a ledger roll, a note and an XP award, each
labelled PREFIX-N (the roll's purpose, the note, the award's reason). --wait prints `ready` once
imported and waits for a line on stdin before the first command (so that a kill can land in the
commands, not the start-up). --pause-after-commit prints `committed LABEL` between the commit of
the first command's events and the update of the read models, then sleeps there: the read models
are then left to after the commit, as when they cannot be written in the commit's own transaction
(tables behind, a failure). --pause-in-commit prints `in commit LABEL` inside the first command's
database transaction, after its events and read-model rows, before it commits, and sleeps there.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import time

import click

from ledger.cli import main
from ledger.cli.app import COMMIT_HOOKS, IN_COMMIT_HOOKS


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def command(prefix: str, n: int) -> tuple[str, list[str]]:
    label = f"{prefix}-{n}"
    kind = n % 3
    if kind == 0:
        return label, ["roll", "D6", "--for", label, "--ledger"]
    if kind == 1:
        return label, ["note", label]
    return label, ["xp", "award", "Gunnar", "1", "--reason", label]


def run(store: str, campaign: str, args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            # Without standalone mode click returns the exit code of a failed command.
            returned = main.main(args=["--store", store, "--as", "worker", "--campaign", campaign, *args],
                                 prog_name="campaign", standalone_mode=False)
            code = returned if isinstance(returned, int) else 0
        except click.ClickException as error:
            error.show()
            code = error.exit_code
    return code, out.getvalue()


def main_loop(argv: list[str]) -> None:
    store, campaign, prefix, count = argv[:4]
    if "--pause-after-commit" in argv:
        def pause(ledger, campaign_id, state, records) -> None:
            say(f"committed {prefix}-0")
            time.sleep(60)

        COMMIT_HOOKS.insert(0, pause)
        IN_COMMIT_HOOKS.clear()
    if "--pause-in-commit" in argv:
        def pause_inside(ledger, campaign_id, before, after, records):
            def write(cursor) -> None:
                say(f"in commit {prefix}-0")
                time.sleep(60)

            return write

        IN_COMMIT_HOOKS.append(pause_inside)
    if "--wait" in argv:
        say("ready")
        sys.stdin.readline()
    n = 0
    while int(count) == 0 or n < int(count):
        label, args = command(prefix, n)
        code, output = run(store, campaign, args)
        if code == 0:
            say(f"ok {label}")
        else:
            say(f"fail {label} {code}")
            say(" ".join(output.split()))
        n += 1


if __name__ == "__main__":
    main_loop(sys.argv[1:])
