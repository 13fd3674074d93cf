"""The performance suite of issue #14: each measurement against a baseline timed in the same run.

    python benchmarks/run.py                    # 10k events a campaign (2 to 5 minutes at --repeat 3)
    python benchmarks/run.py --size 1k          # quicker
    python benchmarks/run.py --size 100k        # long: 6 campaigns of 100,000 events
    python benchmarks/run.py --size 1m          # opt-in: 2 campaigns of 100,000 events a ruleset, 1.2M events (6 to 9 minutes at --repeat 1)
    python benchmarks/run.py --size 10k --rulesets coreheim freeform --repeat 3
    python benchmarks/run.py --size 1k --only trail memory   # export, verify, import only
    python benchmarks/run.py --only postgres    # the 8 PostgreSQL clients alone (no league is built)

Builds a league in one SQLite store: a campaign of the size asked for under each ruleset (see
benchmarks/league.py: real rules, the ruleset's sample campaign grown with commands its handlers
decide), and next to it the same campaigns at 1,000 events and as bare samples, for the
measurements that compare a large campaign with a small one. Peak memory is measured at two sizes
(5,000 events, or the largest smaller campaign there is, and the large campaign) and projected to
1M events along the slope between them. Each measurement is run `--repeat` times, by turns with its
baseline (so that both are timed under the same load); the table gives the median, the baseline's
median, their ratio and the target the ratio must meet. These machines are noisy and shared: only
ratios of what was measured by turns mean anything. Export, verify, verify FILE and import are
timed in this process (without their start-up), its own heap frozen meanwhile: a `campaign`
process holds no such heap.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import gc
import hashlib
import importlib.metadata
import io
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run from a checkout

from benchmarks import league  # noqa: E402
from commands.shared import AwardXP, BareRoll  # noqa: E402
from ledger import rulesets  # noqa: E402
from ledger.campaigns import Ledger, decide  # noqa: E402
from ledger.decide import Command  # noqa: E402
from ledger.errors import LedgerError  # noqa: E402
from ledger.state import encode_state  # noqa: E402
from ledger.store import Store  # noqa: E402
from projections import sql  # noqa: E402

SIZES = {"tiny": 300, "1k": 1_000, "10k": 10_000, "100k": 100_000, "1m": 100_000}
LEAGUE_CAMPAIGNS = {"1m": 2}  # campaigns per ruleset: the 1m league is 2 x 5 rulesets x 100k events
MEASUREMENTS = ("cli", "commands", "load", "trail", "memory", "postgres")  # --only chooses among them
ON_THE_LEAGUE = MEASUREMENTS[:-1]  # measured on the SQLite league, which is built only for them
SMALL = 1_000  # the small campaign the large one is compared with
# The smaller size peak memory is measured at, where the large campaign is larger: past the first
# few thousand events, whose peaks rise by a fixed 1.5-2 MB (SQLite's page cache of each connection
# filling up to its 2 MB, the allocator's first arenas) that a slope from 1,000 events counts as a
# cost per event (coreheim's export: 360 B an event from 1,000 to 10,000 events, 126 from 5,000,
# 63 from 10,000 to 20,000).
MEMORY_LOW = 5_000
# Each PostgreSQL client's commands: at 40, one code's ratio of 8 clients on one campaign moved
# ×0.72–×0.94 from run to run (a run of about a second, each client's first commands preparing its
# statements); at 150, ×0.89–×0.96 (1,200 commands shared, 6 s).
POSTGRES_COMMANDS = 150
CLI = "import sys; from ledger.cli import main; sys.argv[0] = 'campaign'; main()"
BARE_PROCESS = "import eventsourcing.application, msgspec, click"
# Prints the process's peak resident memory (KiB) on the last line of stderr. Linux's VmHWM, not
# ru_maxrss: that one keeps the high-water mark of the forked parent across exec.
PRINT_PEAK = "import re, sys; print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1], file=sys.stderr)"
PEAK = (
    "import sys; from ledger.cli import main\n"
    "try:\n    main(sys.argv[1:], prog_name='campaign')\n"
    "except SystemExit as done:\n    code = done.code\n"
    f"{PRINT_PEAK}\n"
    "sys.exit(code)\n"
)


@dataclass
class Row:
    measurement: str
    ruleset: str
    events: int
    value: float
    baseline: float
    ratio: float
    target: str
    passed: bool
    unit: str = "ms"


def seconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def medians(repeat: int, *actions: Callable[[], object]) -> list[float]:
    """Each action's median seconds over `repeat` rounds, every round running each action once in
    turn: a measurement and its baseline are timed under the same load (these machines are shared;
    timed minutes apart, the same baseline varied tenfold). Each action is run once untimed first,
    as its baseline's data is in memory already: in a league's run at `--repeat 1`, the first
    campaign's `verify` (right after the 1.1 GB store was written) took 4.7 s, then 1.5-1.7 s."""
    for action in actions:
        action()
    times: list[list[float]] = [[] for _ in actions]
    for _ in range(repeat):
        for taken, action in zip(times, actions):
            taken.append(seconds(action))
    return [statistics.median(taken) for taken in times]


def at_most(limit: float) -> tuple[str, Callable[[float], bool]]:
    return f"≤ ×{limit:g}", lambda ratio: ratio <= limit


def at_least(limit: float) -> tuple[str, Callable[[float], bool]]:
    return f"≥ ×{limit:.2g}", lambda ratio: ratio >= limit


def row(measurement: str, ruleset: str, events: int, value: float, baseline: float,
        target: tuple[str, Callable[[float], bool]], *, inverse: bool = False, unit: str = "ms") -> Row:
    """`inverse`: the ratio is baseline / value (a throughput compared with the baseline's)."""
    ratio = baseline / value if inverse else value / baseline
    return Row(measurement, ruleset, events, value, baseline, ratio, target[0], target[1](ratio), unit)


# --- the campaigns -------------------------------------------------------------------------------


@dataclass
class Campaign:
    ruleset: str
    name: str
    url: str
    campaign_id: uuid.UUID
    events: int


def build_league(folder: Path, size: str, rulesets: list[str]) -> dict[str, dict[str, Campaign]]:
    """Per ruleset, by label: the large campaign ("league", large ones sharing one store), the 1k one
    ("small"), the bare sample ("sample") and, where the large one is larger, one of MEMORY_LOW
    events ("memory")."""
    events = SIZES[size]
    made: dict[str, dict[str, Campaign]] = {r: {} for r in rulesets}
    stores = [("league", f"sqlite:///{folder}/league.db", events, LEAGUE_CAMPAIGNS.get(size, 1)),
              ("small", f"sqlite:///{folder}/small.db", min(SMALL, events), 1),
              ("sample", f"sqlite:///{folder}/sample.db", 0, 1)]
    if events > MEMORY_LOW:
        stores.append(("memory", f"sqlite:///{folder}/memory.db", MEMORY_LOW, 1))
    for label, url, target, copies in stores:
        for ruleset in rulesets:
            for copy in range(copies):
                name = f"Bench {ruleset} {label} {copy + 1}"
                started = time.perf_counter()
                cid = league.build_campaign(url, ruleset, name, target)
                count = _events(url, cid)
                print(f"  built {name}: {count} events in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
                if copy == 0:
                    made[ruleset][label] = Campaign(ruleset, name, url, cid, count)
    return made


def _events(url: str, campaign_id: uuid.UUID) -> int:
    store = Store(url)
    try:
        return Ledger(store).load(campaign_id).position
    finally:
        store.close()


# --- measurements -----------------------------------------------------------------------------------


def compile_sources() -> None:
    """Write the project's bytecode, as installing it does for the libraries of the baseline: under
    PYTHONDONTWRITEBYTECODE (set in some environments) a checkout's every CLI process would
    otherwise compile each module it imports from source."""
    for package in ("ledger", "commands", "projections"):
        compileall.compile_dir(ROOT / package, quiet=1)


def run_cli(args: list[str], *, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, cwd=ROOT, check=False)
    if check and done.returncode != 0:
        raise RuntimeError(f"campaign {' '.join(args)} failed: {done.stderr.decode()[-500:]}")
    return done


def in_process(args: list[str]) -> None:
    """A CLI command run in this process: what it costs without the interpreter's start-up."""
    import click

    from ledger.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = main.main(args=args, prog_name="campaign", standalone_mode=False)
        except click.exceptions.Exit as done:
            code = done.exit_code
    if code:
        raise RuntimeError(f"campaign {' '.join(args)} failed: {out.getvalue()[-500:]}")


def cli_commands(c: Campaign) -> dict[str, list[str]]:
    """roster, xp award and roll on the campaign (the fighter one whose award the rules accept)."""
    store = Store(c.url)
    try:
        state = Ledger(store).load(c.campaign_id)
    finally:
        store.close()
    base = ["--store", c.url, "--as", "bench", "--campaign", c.name]
    commands = {"roster": [*base, "roster", next(iter(state.warbands))],
                "roll": [*base, "roll", "2D6", "--for", "bench", "--ledger"]}
    for fighter in state.fighters.values():
        award = [*base, "xp", "award", fighter.id, "1", "--reason", "bench", "--warband", fighter.warband]
        if run_cli(award, check=False).returncode == 0:
            commands["xp award"] = award
            break
    return commands


def bare_process() -> None:
    subprocess.run([sys.executable, "-c", BARE_PROCESS], check=True)


def measure_cli(c: Campaign, repeat: int) -> list[Row]:
    """Each command's process against a process that only imports the libraries, run by turns."""
    base = ["--store", c.url, "--as", "bench", "--campaign", c.name]
    measured = [(f"CLI {name}", args, at_most(2)) for name, args in cli_commands(c).items()]
    measured += [(f"CLI {name}", [*base, *args], at_most(2.5)) for name, args in {"log": ["log"], "log --json": ["log", "--json"]}.items()]
    rows = []
    for name, args, target in measured:
        value, bare = medians(repeat, lambda a=args: run_cli(a), bare_process)
        rows.append(row(name, c.ruleset, c.events, value, bare, target))
    return rows


@contextlib.contextmanager
def bare_commit(folder: Path) -> Iterator[Callable[[], None]]:
    """One single-row commit at the store's durability (WAL, synchronous as eventsourcing leaves it)."""
    path = folder / "bare-commit.db"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, state BLOB)")
    payload = b"x" * 300

    def commit() -> None:
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t (state) VALUES (?)", (payload,))
        conn.execute("COMMIT")

    try:
        yield commit
    finally:
        conn.close()


def accepted_command(ledger: Ledger, campaign_id: uuid.UUID) -> Command:
    """An XP award the rules accept (a Warbands model earns none, for one), else a bare roll."""
    state = ledger.load(campaign_id)
    ruleset = rulesets.get(state.ruleset)
    dice = ledger.ledger_dice(campaign_id, state)
    for fighter in state.fighters.values():
        award = AwardXP(fighter=fighter.id, warband=fighter.warband, amount=1, reason="bench")
        try:
            decide(ruleset, state, award, dice=dice, shuffle_dice=dice)
        except LedgerError:
            continue
        return award
    return BareRoll(expression="D6", purpose="bench")


@contextlib.contextmanager
def in_process_command(c: Campaign) -> Iterator[Callable[[], object]]:
    """An in-process command with its read-model update (run once here, so that its store is warm)."""
    store = Store(c.url)
    try:
        ledger = Ledger(store, on_commit=[sql.on_commit], in_commit=[sql.in_commit])
        command = accepted_command(ledger, c.campaign_id)
        execute = lambda: ledger.execute(c.campaign_id, command, actor="bench")  # noqa: E731
        execute()
        yield execute
    finally:
        store.close()


def measure_commands(large: Campaign, small: Campaign, folder: Path, repeat: int) -> list[Row]:
    """Commands in the large and the small campaign and a bare commit, by turns."""
    commands = max(50, repeat * 20)  # a millisecond each: enough rounds for a median that one slow commit does not move
    with bare_commit(folder) as commit, in_process_command(large) as at_large_cmd, in_process_command(small) as at_small_cmd:
        before = _events(large.url, large.campaign_id)
        at_large, at_small, bare = medians(commands, at_large_cmd, at_small_cmd, commit)
        per_command = (_events(large.url, large.campaign_id) - before) / (commands + 1)  # and medians' untimed round
    return [
        row("command + read model vs bare commit", large.ruleset, large.events, at_large, bare, at_most(2)),
        row(f"command at {large.events} vs at {small.events} events", large.ruleset, large.events, at_large, at_small, at_most(1.2)),
        row(f"building: events/s at {large.events} vs at {small.events}", large.ruleset, large.events,
            per_command / at_large, per_command / at_small, at_least(1 / 1.2), unit="ev/s"),
    ]


def measure_load(large: Campaign, sample: Campaign, repeat: int) -> list[Row]:
    """Each campaign loaded right after a snapshot of its current state: what grows with the
    campaign, not the tail of events a snapshot leaves to fold (bench/load.py times that too)."""

    with contextlib.ExitStack() as stores:
        loads = []
        for c in (large, sample):
            store = stores.enter_context(contextlib.closing(Store(c.url)))
            state = Ledger(store).load(c.campaign_id)
            store.save_snapshot(c.campaign_id, state.position, encode_state(state))
            loads.append(lambda s=store, c=c: Ledger(s).load(c.campaign_id))
        at_large, at_sample = medians(repeat * 4, *loads)
    return [row(f"load at {large.events} vs {sample.events} events", large.ruleset, large.events,
                at_large, at_sample, at_most(2))]


def pure_python_hash(body: dict[str, object]) -> str:
    """The baseline issue #14 names: the record's canonical JSON as the format defines it (the
    standard library's json.dumps, docs/audit-format.md) and its SHA-256, in pure Python. Not
    ledger.records.canonical, which msgspec writes (the same bytes, about 3.5 times faster since
    611a1f9): the baseline would move with the code it measures."""
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def measure_trail(c: Campaign, folder: Path, repeat: int) -> list[Row]:
    """export, verify and verify FILE vs hashing the same records in pure Python; import vs executemany.
    In this process: the CLI rows measure start-up."""
    base = ["--store", c.url, "--campaign", c.name]
    trail = folder / f"{c.ruleset}.jsonl"
    export = lambda: in_process([*base, "export", "--force", "-o", str(trail)])  # noqa: E731
    export()
    lines = trail.read_bytes().splitlines()
    bodies = [json.loads(line) for line in lines[1:-1]]
    for body in bodies:
        del body["hash"], body["annotations"]
    hashing = lambda: [pure_python_hash(body) for body in bodies]  # noqa: E731

    imports = iter(range(10**6))

    def import_once() -> None:
        in_process(["--store", f"sqlite:///{folder}/import-{c.ruleset}-{next(imports)}.db", "import", str(trail)])

    def executemany_once() -> None:
        conn = sqlite3.connect(folder / f"raw-{c.ruleset}-{next(imports)}.db")
        conn.execute("CREATE TABLE t (originator_id TEXT, originator_version INTEGER, topic TEXT, state BLOB, "
                     "PRIMARY KEY (originator_id, originator_version))")
        with conn:
            conn.executemany("INSERT INTO t VALUES (?, ?, ?, ?)",
                             ((c.campaign_id.hex, i, "t", line) for i, line in enumerate(lines[1:-1], start=1)))
        conn.close()

    # The bodies hashed are held by this process while the commands run in it: frozen, so that the
    # commands' garbage collections (and those of the processes they fork) do not walk them, as a
    # `campaign verify` process holds no such heap. At 100k events, walking them made verify about
    # 15 % slower (alternated, in process).
    gc.freeze()
    try:
        exported, verified, verified_file, hashed, imported, executed = medians(
            repeat, export, lambda: in_process([*base, "verify"]), lambda: in_process(["verify", str(trail)]), hashing,
            import_once, executemany_once)
    finally:
        gc.unfreeze()
    return [
        row("export (throughput vs hashing)", c.ruleset, c.events, exported, hashed, at_least(0.25), inverse=True),
        row("verify (throughput vs hashing)", c.ruleset, c.events, verified, hashed, at_least(0.25), inverse=True),
        row("verify FILE (throughput vs hashing)", c.ruleset, c.events, verified_file, hashed, at_least(0.25), inverse=True),
        row("import (throughput vs executemany)", c.ruleset, c.events, imported, executed, at_least(0.1), inverse=True),
    ]


def peak_kib(code: str, args: list[str]) -> int:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, cwd=ROOT, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{args} failed: {done.stderr.decode()[-500:]}")
    return int(done.stderr.decode().strip().splitlines()[-1])


def projected_peak(low: tuple[int, float], high: tuple[int, float], at: int = 1_000_000) -> tuple[float, float]:
    """The peak (MB) at `at` events on the line through the peaks measured at two sizes, and its
    slope (MB an event): what the process holds whatever the size (interpreter, imports, SQLite's
    page cache) stays out of the cost per event. A fall between the sizes (noise) counts as flat."""
    (low_events, low_peak), (high_events, high_peak) = low, high
    per_event = max(0.0, high_peak - low_peak) / (high_events - low_events)
    return high_peak + per_event * (at - high_events), per_event


def memory_sizes(large: Campaign, smaller: list[Campaign]) -> tuple[Campaign, Campaign]:
    """The two campaigns the slope is measured between: the largest of the `smaller` ones (the
    MEMORY_LOW one, else the 1k one, else the bare sample) that is smaller than the large one, and
    the large one."""
    return max((c for c in smaller if c.events < large.events), key=lambda c: c.events), large


def measure_memory(large: Campaign, smaller: list[Campaign], folder: Path, repeat: int) -> list[Row]:
    """Peak memory of export, verify FILE and import at two sizes, projected to 1M events along the
    slope between them (must stay under 200 MB); the baseline is the peak at the smaller size. Each
    peak is the median of `repeat` runs by turns: one run's peak moves by a megabyte or so (the
    allocator's arenas), which the slope over 5,000 events multiplies by 200 at a million."""
    low, high = memory_sizes(large, smaller)
    measured: dict[str, dict[str, list[float]]] = {c.name: {} for c in (low, high)}
    for turn in range(repeat):
        for c in (low, high):
            trail = folder / f"peak-{c.name}.jsonl"
            runs = {
                "export": ["--store", c.url, "--campaign", c.name, "export", "--force", "-o", str(trail)],
                "verify FILE": ["verify", str(trail)],
                "import": ["--store", f"sqlite:///{folder}/peak-{c.name}-{turn}.db", "import", str(trail)],
            }
            for name, args in runs.items():
                measured[c.name].setdefault(name, []).append(peak_kib(PEAK, args) / 1024)
    peaks = {campaign: {name: statistics.median(values) for name, values in by_name.items()}
             for campaign, by_name in measured.items()}
    rows = []
    for name, at_low in peaks[low.name].items():
        at_high = peaks[high.name][name]
        at_million, per_event = projected_peak((low.events, at_low), (high.events, at_high))
        measurement = (f"peak memory of {name} at 1M events (projected: {at_low:.1f} MB at {low.events:,} "
                       f"and {at_high:.1f} MB at {high.events:,} events, {per_event * 2**20:,.0f} B an event)")
        rows.append(Row(measurement, large.ruleset, large.events, at_million, at_low, at_million / at_low,
                        "< 200 MB", at_million < 200, unit="MB"))
    return rows


def measure_postgres(server: str, ruleset: str, commands: int) -> list[Row]:
    """8 client processes on one campaign, and on 8 campaigns, against one client alone."""
    from benchmarks import postgres

    with postgres.scratch_database(server) as url:
        if url is None:
            raise RuntimeError(f"PostgreSQL at {server} does not answer")
        ids = postgres.league_of(url, ruleset, 8)
        alone = postgres.run_clients(url, ids[:1], commands)
        shared = postgres.run_clients(url, ids[:1] * 8, commands)
        spread = postgres.run_clients(url, ids, commands)
    name = "PostgreSQL, 8 clients"
    return [
        row(f"{name} on one campaign: commands/s vs one client", ruleset, 0, shared.rate, alone.rate, at_least(1), unit="cmd/s"),
        row(f"{name} on one campaign: slowest 1% vs median command", ruleset, 0,
            postgres.p99_over_median(shared.latencies) * statistics.median(shared.latencies),
            statistics.median(shared.latencies), at_most(10)),
        Row(f"{name} on one campaign: commands failed (of {8 * commands})", ruleset, 0, shared.failed, 0, shared.failed,
            "none", shared.failed == 0, unit="failed"),
        row(f"{name} on 8 campaigns: commands/s vs one client", ruleset, 0, spread.rate, alone.rate, at_least(4), unit="cmd/s"),
    ]


# --- the report ------------------------------------------------------------------------------------------


def machine() -> list[str]:
    versions = ", ".join(f"{p} {importlib.metadata.version(p)}" for p in ("eventsourcing", "msgspec", "click"))
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT, check=False)
    return [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
        f"python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {versions}",
        f"commit {commit.stdout.strip() or '?'}, load average {', '.join(f'{x:.1f}' for x in os.getloadavg())}",
    ]


def fmt(value: float, unit: str) -> str:
    if unit == "ms":
        return f"{value * 1000:.1f} ms"
    if unit == "failed":
        return f"{value:.0f}"
    return f"{value:,.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"


def table(rows: list[Row]) -> list[str]:
    lines = ["| measurement | ruleset | events | median | baseline | ratio | target | |", "|---|---|---:|---:|---:|---:|---|---|"]
    for r in rows:
        lines.append(f"| {r.measurement} | {r.ruleset} | {f'{r.events:,}' if r.events else 'sample'} | {fmt(r.value, r.unit)} | {fmt(r.baseline, r.unit)} "
                     f"| ×{r.ratio:.2f} | {r.target} | {'pass' if r.passed else 'MISS'} |")
    return lines


def positive_int(text: str) -> int:
    """`--repeat`'s value: a median needs at least one run."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} runs: a median needs at least one")
    return value


def named_failure(what: str, error: Exception) -> str:
    """A failed step as the run's last lines name it."""
    return f"{what}: {type(error).__name__}: {error}"


def unusable_keep_folder(folder: Path) -> str | None:
    """Why the league cannot be built in `folder` (made here if missing), else None: it must be new or
    empty, as a league already there would hold campaigns of the same names, and named in UTF-8 text,
    as the stores' addresses are."""
    try:
        str(folder).encode("utf-8")
    except UnicodeEncodeError:
        return f"{bytes(folder)!r} is not UTF-8 text, which a store's address must be: give a folder named in it"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if any(folder.iterdir()):
            return f"{folder} is not empty: give a new or empty folder to build the league in"
    except FileExistsError:
        return f"{folder} is a file, not a folder"
    except OSError as error:
        return f"cannot make or read {folder}: {error.strerror}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", choices=list(SIZES), default="10k", help="events in each large campaign (1m: the league)")
    parser.add_argument("--rulesets", nargs="+", choices=league.ruleset_ids(), default=None,
                        help="default: every ruleset with a sample campaign")
    parser.add_argument("--repeat", type=positive_int, default=5, help="runs of each measurement (the median is reported)")
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/test",
                        help="a PostgreSQL server to make a scratch database on for the 8-client measurements ('' to skip)")
    parser.add_argument("--only", nargs="+", choices=MEASUREMENTS, default=list(MEASUREMENTS),
                        help="the measurements to run (default: all; postgres: the 8-client rows, on --postgres's server)")
    parser.add_argument("--keep", type=Path, default=None, help="build in this new or empty folder and keep it (default: a temporary one)")
    args = parser.parse_args(argv)
    if set(args.only) == {"postgres"} and not args.postgres:
        parser.error("nothing to measure: --only postgres needs a server (--postgres URL)")
    chosen = list(dict.fromkeys(args.rulesets or league.ruleset_ids()))  # a ruleset named twice is measured once
    if args.keep is not None and (problem := unusable_keep_folder(args.keep)):
        parser.error(f"argument --keep: {problem}")
    on_the_league = [name for name in args.only if name in ON_THE_LEAGUE]
    with tempfile.TemporaryDirectory(prefix="campaign-bench-") as temporary:
        folder = args.keep or Path(temporary)
        started = time.perf_counter()
        rows: list[Row] = []
        failures: list[str] = []
        try:
            campaigns = build_league(folder, args.size, chosen) if on_the_league else {}
        except Exception as error:  # noqa: BLE001 - reported: nothing can be measured on the league then
            campaigns = {}
            failures.append(named_failure("building the league", error))
        if campaigns:
            print(f"  league built in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
        compile_sources()
        for ruleset, built in campaigns.items():
            large, small, sample = built["league"], built["small"], built["sample"]
            print(f"  measuring {ruleset}", file=sys.stderr, flush=True)
            measured = {
                "cli": lambda: measure_cli(large, args.repeat),
                "commands": lambda: measure_commands(large, small, folder, args.repeat),
                "load": lambda: measure_load(large, sample, args.repeat),
                "trail": lambda: measure_trail(large, folder, args.repeat),
                "memory": lambda: measure_memory(large, [c for label, c in built.items() if label != "league"], folder,
                                                     args.repeat),
            }
            for measure in (measured[name] for name in on_the_league):
                try:
                    more = measure()
                except Exception as error:  # noqa: BLE001 - reported, and the other measurements go on
                    failures.append(named_failure(ruleset, error))
                    print(f"  FAILED: {failures[-1]}", file=sys.stderr, flush=True)
                    continue
                print("\n".join(table(more)[2:]), file=sys.stderr, flush=True)
                rows += more
        if args.postgres and "postgres" in args.only:
            print("  measuring PostgreSQL clients", file=sys.stderr, flush=True)
            try:
                rows += measure_postgres(args.postgres, chosen[0], POSTGRES_COMMANDS)
            except Exception as error:  # noqa: BLE001 - reported, like any other measurement that fails
                failures.append(named_failure("PostgreSQL", error))
    print(f"Size {args.size}, {args.repeat} runs a measurement, medians; {time.perf_counter() - started:.0f} s in all.")
    print("\n".join(f"- {line}" for line in machine()))
    print("")
    print("\n".join(table(rows)))
    print("")
    misses = sum(not r.passed for r in rows)
    print(f"{len(rows) - misses} of {len(rows)} targets met.")
    for failure in failures:
        print(f"Failed to measure: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the temporary league is gone with its folder; a kept one stays as far as built
        print("Aborted.", file=sys.stderr)
        sys.exit(130)
