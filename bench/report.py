"""How long does `campaign report` take as a league grows? It should grow about linearly with the
events: every part of the report is one pass over the log (or the read-model rows).

Builds campaigns in memory through `Ledger.execute`, under the shared commands with a warband
rating (so the rating chart and the ratings of each battle's sides are worked out too): two
warbands of five fighters, each battle followed by an XP award to every fighter (about 22 events a
battle). Times building the report's data from the records and rendering its HTML.

    python bench/report.py                     # 50, 200 and 800 battles
    python bench/report.py --battles 20 100    # quicker
"""

from __future__ import annotations

import argparse
import time
import uuid

from commands.shared import SHARED_HANDLERS, AwardXP, EnlistWarband, RecordBattle, RecruitFighter
from ledger import rulesets
from ledger.campaigns import Ledger
from ledger.records import Record
from ledger.store import Store
from projections import render
from projections.report import build_report

FIGHTERS = 5
RATED = rulesets.Ruleset(
    id="bench-rated",
    version="1",
    title="The shared commands, rated by cost and XP",
    handlers=SHARED_HANDLERS,
    rating=lambda state, warband: sum(f.cost * f.group_size + f.xp for f in state.fighters_of(warband)),
)


def league(battles: int) -> list[Record]:
    ledger = Ledger(Store("memory://"))
    cid = uuid.UUID(ledger.start("Bench", RATED.id, {}, actor="bench").state.campaign_id)
    fighters = []
    for band in ("Rats", "Skaven"):
        ledger.execute(cid, EnlistWarband(name=band, player=band, treasury=500), actor="bench")
        for n in range(FIGHTERS):
            ledger.execute(cid, RecruitFighter(warband=band, name=f"{band} {n}", role="hero", cost=20), actor="bench")
            fighters.append(f"{band.lower()}-{n}")
    for battle in range(battles):
        ledger.execute(cid, RecordBattle(participants=["rats", "skaven"], winner="rats" if battle % 2 else "skaven"),
                       actor="bench")
        for fighter in fighters:
            ledger.execute(cid, AwardXP(fighter=fighter, amount=1, reason="survived"), actor="bench")
    return ledger.history(cid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, nargs="+", default=[50, 200, 800])
    args = parser.parse_args()
    rulesets.register(RATED)
    print(f"{'battles':>8} {'events':>8} {'build s':>8} {'render s':>9} {'HTML KiB':>9}")
    for battles in args.battles:
        records = league(battles)
        started = time.perf_counter()
        report = build_report(records, None)
        built = time.perf_counter()
        html = render.report_html(report)
        rendered = time.perf_counter()
        print(f"{battles:>8} {len(records):>8} {built - started:>8.2f} {rendered - built:>9.2f} {len(html) // 1024:>9}")


if __name__ == "__main__":
    main()
