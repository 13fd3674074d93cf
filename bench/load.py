"""Does loading a campaign cost more as its history grows? (DESIGN: it must not.)

Builds two freeform campaigns, of about 200 and about 20,000 events, through `Ledger.execute`
and `Ledger.void` — so the snapshots in the store are exactly the ones the ledger's own policy
took — then times `Ledger.load` on each, and, as the baseline a store without snapshots would
give, a full fold of the whole stream. Runs on SQLite, and on PostgreSQL when the server answers
(in a database of its own, dropped afterwards).

    python bench/load.py                       # SQLite in a temporary folder, PostgreSQL if reachable
    python bench/load.py --sizes 200 2000      # quicker
    python bench/load.py --postgres ''         # SQLite only

For each backend and size it prints two lines: the load right after a snapshot, and the load
with the longest tail of records a snapshot leaves to fold (just before the next one is taken);
then the ratios of the largest campaign's times to the smallest's, measured in the same run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from benchmarks.postgres import scratch_database  # noqa: E402
from commands.shared import (  # noqa: E402
    AwardXP,
    BareRoll,
    ChangeTreasury,
    EnlistWarband,
    GainItem,
    LoseItem,
    RecordBattle,
    RecruitFighter,
    SpendXP,
)
from ledger import campaigns  # noqa: E402
from ledger.campaigns import Ledger, fold  # noqa: E402
from ledger.errors import BadInput  # noqa: E402
from ledger.events import Deed  # noqa: E402
from ledger.store import Store  # noqa: E402

WARBANDS = {"Reikland Rats": ["Gunnar", "Ilse", "Otto", "Marta", "Jorg"], "Clan Skrittle": ["Snikch", "Queek", "Thanquol", "Ikit", "Lurk"]}


def build(ledger: Ledger, name: str, events: int) -> uuid.UUID:
    """A campaign of at least `events` events: a season of battles, awards, rolls and purchases."""
    campaign_id = uuid.UUID(ledger.start(name, "freeform", {}, actor="bench").state.campaign_id)

    def do(command) -> campaigns.Outcome:
        return ledger.execute(campaign_id, command, actor="bench")

    for warband, fighters in WARBANDS.items():
        do(EnlistWarband(name=warband, player="bench", treasury=500))
        for fighter in fighters:
            do(RecruitFighter(warband=warband, name=fighter, role="hero", cost=10))
    everyone = [(w, f) for w, fighters in WARBANDS.items() for f in fighters]
    turn = 0
    position = ledger.load(campaign_id).position
    while position < events:
        turn += 1
        warband, fighter = everyone[turn % len(everyone)]
        if turn % 25 == 0:
            deeds = [Deed(fighter=f) for _, f in everyone]
            outcome = do(RecordBattle(participants=list(WARBANDS), winner=warband, deeds=deeds))
        elif turn % 7 == 0:
            outcome = do(BareRoll(expression="2D6", purpose=f"injury of {fighter}"))
        elif turn % 11 == 0:  # a fighter buys a sword, or sells the one they have
            has_sword = "sword" in ledger.load(campaign_id).fighters[fighter.lower()].equipment
            item = (LoseItem if has_sword else GainItem)(warband=warband, item="sword", fighter=fighter)
            outcome = do(item)
        elif turn % 13 == 0:
            outcome = do(ChangeTreasury(warband=warband, delta=5, reason="upkeep refund"))
        elif turn % 17 == 0 and ledger.load(campaign_id).fighters[fighter.lower()].xp >= 2:
            outcome = do(SpendXP(fighter=fighter, warband=warband, amount=2, on="+1 WS"))
        else:
            outcome = do(AwardXP(fighter=fighter, warband=warband, amount=1, reason="survived"))
        if turn % 1000 == 0:  # now and then the latest transaction (a battle) is disputed: a void refolds and snapshots
            outcome = ledger.void(campaign_id, f"T{outcome.tx}", reason="disputed", actor="bench")
        position = outcome.state.position
    return campaign_id


def grow_tail(ledger: Ledger, campaign_id: uuid.UUID) -> None:
    """Award XP until the next award would cross a snapshot: the longest tail a load folds."""
    position = ledger.load(campaign_id).position
    while (position + 2) // campaigns.SNAPSHOT_INTERVAL == position // campaigns.SNAPSHOT_INTERVAL:
        award = AwardXP(fighter="Gunnar", warband="Reikland Rats", amount=1, reason="survived")
        position = ledger.execute(campaign_id, award, actor="bench").state.position


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(url: str, sizes: list[int], repeat: int) -> list[tuple[str, int, float, float]]:
    """(tail, events, load seconds, full-fold seconds) per size: loaded right at a snapshot
    ("at"), then with the longest tail of records after it ("longest")."""
    store = Store(url)
    ledger = Ledger(store)
    results = []
    try:
        for size in sizes:
            built = time.perf_counter()
            campaign_id = build(ledger, f"Bench {size}", size)
            built = time.perf_counter() - built
            for tail in ("at", "longest"):
                if tail == "longest":
                    grow_tail(ledger, campaign_id)
                state = Ledger(store).load(campaign_id)
                after_snapshot = state.position - store.latest_snapshot(campaign_id)[0]
                load = median_seconds(lambda: Ledger(store).load(campaign_id), repeat)
                full = median_seconds(lambda: fold(list(store.records(campaign_id))), max(3, repeat // 10))
                assert Ledger(store).load(campaign_id) == fold(list(store.records(campaign_id)))
                how = f"built in {built:.1f} s" if tail == "at" else "then awards up to the next snapshot"
                print(
                    f"  {state.position:>6} events ({state.transactions} transactions, {how}): "
                    f"load {load * 1000:7.2f} ms   full fold {full * 1000:8.2f} ms   "
                    f"({after_snapshot} records after the latest snapshot)",
                    flush=True,
                )
                results.append((tail, state.position, load, full))
    finally:
        store.close()
    return results


def report(backend: str, url: str, sizes: list[int], repeat: int) -> None:
    print(f"{backend} (snapshot every {campaigns.SNAPSHOT_INTERVAL} positions, median of {repeat} loads):", flush=True)
    try:
        results = measure(url, sizes, repeat)
    except BadInput as error:
        print(f"  cannot open {url}: {error}")
        return
    for tail in ("at", "longest"):
        (_, small, small_load, small_full), *_, (_, large, large_load, large_full) = [r for r in results if r[0] == tail]
        print(
            f"  ratio {large}/{small} events, {'right after a snapshot' if tail == 'at' else 'longest tail'}: "
            f"load x{large_load / small_load:.2f}   (full fold x{large_full / small_full:.2f})",
            flush=True,
        )
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 20_000], help="campaign sizes in events")
    parser.add_argument("--repeat", type=int, default=50, help="loads timed per campaign (the median is shown)")
    parser.add_argument(
        "--postgres", default="postgresql://postgres@127.0.0.1:5432/test",
        help="a PostgreSQL server to create a scratch database on ('' to skip)",
    )  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report("SQLite", "sqlite:///" + str(Path(folder) / "bench.db"), args.sizes, args.repeat)
    if args.postgres:
        with scratch_database(args.postgres) as url:
            if url is None:
                print(f"PostgreSQL at {args.postgres} is not reachable; skipping it", flush=True)
            else:
                report("PostgreSQL", url, args.sizes, args.repeat)


if __name__ == "__main__":
    main()
