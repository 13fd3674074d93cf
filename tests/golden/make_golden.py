"""Regenerate the golden trails in tests/golden/ (run once, before a refactor; check the files in).

    .venv/bin/python tests/golden/make_golden.py
    .venv/bin/python tests/golden/make_golden.py --only speedheim   # a new ruleset's trails only
    .venv/bin/python tests/golden/make_golden.py --pending          # the pending-decision trails only (and older-*)

The trails are the proof that a refactor changes no recorded event: `test_golden.py` imports each
one and re-decides every transaction under today's rules. They come from two places:

- the sample campaigns of `campaign demo` (one per ruleset), built with a fixed clock, fixed
  campaign ids and fixed seeds, each extended by a tail that rolls ledger dice and reveals the
  seed, so that every ledger die of the trail can be re-derived;
- campaigns built by the existing tests: the test suite runs once with a plugin that notes every
  campaign any test writes, exports each one's trail at the end of the test, and then a greedy
  cover keeps the fewest trails that together hold every command of every ruleset, voids with
  and without cascade, rerolls, ledger dice and revealed seeds;
- campaigns whose command stopped pending (a question asked after ledger dice were drawn), for every
  ruleset whose commands can: each is exported with the decision left open, and again once answered,
  so that a check of a stored question against the one deciding it again is proved on them; and some
  of them made again by an older commit's code (`older-*`, OLDER_PENDING), whose questions were worded
  otherwise. Warbands and freeform have none: no command of theirs asks a question after a die.

Regenerating after a rule change is exactly what the golden trails exist to forbid: only do it
for a new ruleset or a new version, and say so in the commit.
"""

from __future__ import annotations

import json
import os
import re
import sys
import uuid
from functools import partial
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIXED_TIME = "2026-06-01T18:00:00.000000Z"
MAX_HARVESTED = 30


def trail_of(store, campaign_id) -> str:
    from ledger import audit
    from projections.history import void_annotations

    chain = audit.verify_store(store, campaign_id)
    return "".join(line + "\n" for line in audit.trail_lines(chain, void_annotations))


# --- the demo campaigns ------------------------------------------------------------------------------

# After the sample campaign's own steps: ledger dice in a command, then the seed revealed, so the
# trail proves its ledger dice; a void and a reroll of ledger dice.
DEMO_TAILS = {
    "freeform": [
        ["roll", "2D6", "--for", "a ledger roll", "--ledger"],
        ["roll", "D66", "--for", "another", "--ledger"],
        ["reroll", "R{last}", "--reason", "die fell off the table", "--ledger"],
        ["seed", "reveal"],
    ],
    "coreheim": [
        ["battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrit", "--winner", "Reikland Rats",
         "--scenario", "Skirmish", "--took-out", "Otto=Snikch", "--took-out", "Otto=Skulk", "--ooa", "Snikch",
         "--ooa", "Skulk", "--ooa", "Jorg"],
        ["coreheim", "explore", "Reikland Rats", "--ledger"],
        ["coreheim", "injuries", "Reikland Rats", "--ledger"],
        ["coreheim", "explore", "Clan Skrit", "--ledger"],
        ["coreheim", "injuries", "Clan Skrit", "--ledger"],
        ["coreheim", "experience", "Clan Skrit"],
        ["roll", "D6", "--for", "a ledger roll", "--ledger"],
        ["seed", "reveal"],
    ],
    "speedheim": [
        ["roll", "D20", "--for", "a ledger roll", "--ledger"],
        ["reroll", "R{last}", "--reason", "die fell off the table", "--ledger"],
        ["seed", "reveal"],
    ],
    "trench-crusade": [
        ["trench-crusade", "battle", "--warband", "Pilgrims of Saint Gaius", "--warband", "Legion of Gehenna",
         "--scenario", "Trench Warfare", "--winner", "Legion of Gehenna", "--ooa", "Anna", "--ooa", "Gaius",
         "--ooa", "Cain"],
        ["trench-crusade", "trauma", "Pilgrims of Saint Gaius", "--ledger"],
        ["trench-crusade", "promotions", "Pilgrims of Saint Gaius", "--even", "--ledger"],
        ["trench-crusade", "trauma", "Legion of Gehenna", "--ledger"],
        ["roll", "D6", "--for", "a ledger roll", "--ledger"],
        ["seed", "reveal"],
    ],
    "retinue": [
        ["battle", "record", "--warband", "Hawks of the Mere", "--warband", "Wolves of Harrow", "--winner",
         "Wolves of Harrow", "--scenario", "Night Raid", "--took-out", "Lupa=Finch", "--ooa", "Finch"],
        ["retinue", "battle-pass", "Hawks of the Mere"],
        ["retinue", "scenario-pass", "Hawks of the Mere"],
        ["retinue", "casualty", "Hawks of the Mere", "--ledger", "--outcome", "Finch=Recovered"],
        ["retinue", "doom", "Hawks of the Mere", "--fighter", "Kestrel", "--ledger", "--outcome", "Kestrel=Spared"],
        ["roll", "D6", "--for", "a ledger roll", "--ledger"],
        ["seed", "reveal"],
    ],
    "warbands": [
        ["warbands", "advance", "Reiklanders", "Greta", "--ledger"],
        ["seed", "reveal"],
    ],
}

# Options recorded before options were typed: such campaigns must still open and replay. And a
# Speedheim campaign whose deck is shuffled by ledger dice (running out mid-battle), with a void and a
# reroll: its Animal leader at Mel 5 with no Rgd draws again on every Skill and Mel/Rgd card, so the
# ledger's cards ask no question.
SPEEDHEIM_INCAPS = [["speedheim", "incapacitate", "Sellswords", "Gunnar", f"Ogre {n}", "--kind", "hero"] for n in range(1, 13)]
EXTRA_CAMPAIGNS = {
    "speedheim-ledger-deck": [
        ["new", "Ledger deck", "--ruleset", "speedheim", "--option", "dice=ledger"],
        ["warband", "add", "Sellswords", "--player", "Ann", "--treasury", "500"],
        ["speedheim", "recruit", "Sellswords", "Gunnar", "--role", "leader", "--stats", "Mel=5,Def=17,Agi=8,Mrl=7,Atk=1,Wnd=1",
         "--keyword", "Leader", "--keyword", "Animal"],
        ["speedheim", "recruit", "Sellswords", "Ivo", "--role", "henchman", "--stats", "Mel=5,Def=18,Agi=10,Mrl=10,Atk=1,Wnd=1"],
        *SPEEDHEIM_INCAPS,
        ["speedheim", "incapacitate", "Sellswords", "Ivo", "Ogre Boss", "--kind", "leader"],
        ["speedheim", "battle", "--warband", "Sellswords", "--winner", "Sellswords", "--incap", "Gunnar=Ogre 20:henchman"],
        ["speedheim", "income", "Sellswords", "--tokens", "2"],
        ["speedheim", "promotions", "Sellswords"],
        ["speedheim", "scars", "Sellswords"],
        ["speedheim", "improvement", "Sellswords"],
        ["void", "T{tx}", "--reason", "recorded twice"],
        ["speedheim", "improvement", "Sellswords"],
        ["seed", "reveal"],
    ],
    "freeform-odd-options": [
        ["new", "Odd options", "--option", "exploration=weird", "--option", "dice=table"],
        ["warband", "add", "Band", "--player", "Ann", "--treasury", "10"],
        ["roll", "D6", "--for", "anything", "--dice", "4"],
    ],
}


def make_demo_trails(folder: Path, only: str | None = None) -> dict[str, str]:
    """The demo trails and the extra campaigns' (`only`: just those of one ruleset, for a new ruleset's
    trails without regenerating the others)."""
    from click.testing import CliRunner

    from ledger import campaigns, dice
    from ledger.campaigns import Ledger
    from ledger.cli import app, main
    from ledger.cli.demo import fixture_campaigns
    from ledger.store import Store

    ids = iter(uuid.UUID(f"90150000-0000-4000-8000-{n:012d}") for n in range(1, 1000))
    seeds = iter(bytes([n] * 32) for n in range(1, 250))
    app.Ledger = partial(Ledger, clock=lambda: FIXED_TIME)
    dice.new_seed = lambda: next(seeds)
    campaigns.uuid = SimpleNamespace(uuid4=lambda: next(ids))
    runner = CliRunner()
    trails = {}
    for ruleset_id, fixture in fixture_campaigns().items():
        if only is not None and ruleset_id != only:
            continue
        url = "sqlite:///" + str(folder / f"demo-{ruleset_id}.db")
        base = ["--store", url, "--as", "golden"]
        result = runner.invoke(main, [*base, "demo", "--ruleset", ruleset_id], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        for step in DEMO_TAILS.get(ruleset_id, []):
            if any("{last}" in arg for arg in step):
                log = json.loads(runner.invoke(main, [*base, "log", "--json"]).output)
                last = max(int(m[1]) for row in log if (m := re.match(r"R(\d+) ", row["text"] or "")))
                step = [arg.replace("{last}", str(last)) for arg in step]
            result = runner.invoke(main, [*base, "--campaign", fixture["name"], *step], catch_exceptions=False)
            assert result.exit_code == 0, (step, result.output)
        store = Store(url, create=False)
        try:
            (campaign_id,) = store.campaign_ids()
            trails[f"demo-{ruleset_id}"] = trail_of(store, campaign_id)
        finally:
            store.close()
    for name, steps in EXTRA_CAMPAIGNS.items():
        if only is not None and not name.startswith(only):
            continue
        url = "sqlite:///" + str(folder / f"{name}.db")
        for step in steps:
            if any("{tx}" in arg for arg in step):
                log = json.loads(runner.invoke(main, ["--store", url, "log", "--json"]).output)
                step = [arg.replace("{tx}", str(max(row["tx"] for row in log))) for arg in step]
            result = runner.invoke(main, ["--store", url, "--as", "golden", *step], catch_exceptions=False)
            assert result.exit_code == 0, (step, result.output)
        store = Store(url, create=False)
        try:
            (campaign_id,) = store.campaign_ids()
            trails[name] = trail_of(store, campaign_id)
        finally:
            store.close()
    return trails


# --- campaigns with pending decisions ----------------------------------------------------------------

# A coreheim human's profile, as `coreheim hire` takes it.
HUMAN = ["--stat", "M=4", "--stat", "A=1", "--stat", "W=1", "--stat", "T=0", "--stat", "WS=8", "--stat", "BS=8",
         "--stat", "I=8", "--stat", "Ld=7"]
# Speedheim, the deck dealt by the ledger: Gunnar (Mel and Rgd 12) leads the Sellswords, Skab the Skaven.
DEALT_SELLSWORDS = [
    ["new", "Dealt", "--ruleset", "speedheim"],
    ["warband", "add", "Sellswords", "--player", "Ann"],
    ["speedheim", "recruit", "Sellswords", "Gunnar", "--role", "leader", "--stats", "Mel=12,Rgd=12,Def=17,Agi=8,Mrl=7,Atk=1,Wnd=1"],
    ["warband", "add", "Skaven", "--player", "Bob"],
    ["speedheim", "recruit", "Skaven", "Skab", "--role", "leader", "--stats", "Mel=13,Def=18,Agi=8,Mrl=7,Atk=1,Wnd=1"],
]


class PendingCampaign(NamedTuple):
    """A campaign (under this id, with the test runner's fixed clock and seed) whose `steps` leave a
    decision pending, its seed revealed; `answers` settle it (and reveal the next seed)."""

    campaign_id: str
    steps: list[list[str]]
    answers: list[list[str]]


PENDING_CAMPAIGNS = {
    # 7 exploration dice: which 6 count (the choices are the dice's)
    "coreheim-explore": PendingCampaign("90150000-0000-4000-9000-000000000003", [
        ["new", "League", "--ruleset", "coreheim"],
        ["warband", "add", "Reikland Rats", "--player", "Ann", "--faction", "mercenaries", "--treasury", "500"],
        ["warband", "add", "Clan Skrit", "--player", "Bob", "--faction", "skaven", "--treasury", "500"],
        ["coreheim", "hire", "Reikland Rats", "Gunnar", "--type", "captain", "--race", "human", *HUMAN],
        ["coreheim", "hire", "Reikland Rats", "Hans", "--type", "youngblood", "--race", "human", *HUMAN],
        ["coreheim", "hire", "Clan Skrit", "Snikch", "--type", "assassin", "--race", "skaven", *HUMAN],
        ["battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrit", "--winner", "Reikland Rats",
         "--took-out", "Gunnar=Snikch"],
        ["coreheim", "explore", "Reikland Rats", "--extra-dice", "4", "--ledger"],
        ["seed", "reveal"],
    ], [["answer", "keep=5,5,5,5,4,3"], ["seed", "reveal"]]),
    # the Exploration's re-rolls, asked die by die (the question shows the dice, its choices do not);
    # the first answer stops at the second question
    "trench-crusade-exploration": PendingCampaign("90150000-0000-4000-9000-000000000002", [
        ["new", "League", "--ruleset", "trench-crusade"],
        ["warband", "add", "Pilgrims", "--player", "Ann", "--faction", "Trench Pilgrims", "--treasury", "100"],
        ["trench-crusade", "recruit", "Pilgrims", "Gaius", "--model", "War Prophet", "--elite", "--keyword", "LEADER", "--free"],
        ["trench-crusade", "recruit", "Pilgrims", "Anna", "--model", "Trench Pilgrim", "--free"],
        ["trench-crusade", "recruit", "Pilgrims", "Bert", "--model", "Trench Pilgrim", "--free"],
        ["warband", "add", "Legion", "--player", "Bob", "--faction", "heretic-legions"],
        ["trench-crusade", "recruit", "Legion", "Baal", "--model", "Heretic Priest", "--elite"],
        ["trench-crusade", "battle", "--warband", "Pilgrims", "--warband", "Legion", "--scenario", "Trench Warfare",
         "--winner", "Pilgrims", "--ooa", "Bert"],
        ["trench-crusade", "trauma", "Pilgrims", "--ledger"],
        ["trench-crusade", "promotions", "Pilgrims", "--even", "--ledger"],
        ["trench-crusade", "experience", "Pilgrims"],
        ["post-game", "Pilgrims", "--ledger", "--answer", "rerolls=yes", "--answer", "table=common"],
        ["seed", "reveal"],
    ], [["answer", "reroll-1=2"], ["answer", "reroll-2=none"], ["seed", "reveal"]]),
    # the ledger deals Gunnar a Mel/Rgd card: which stat to try
    "speedheim-card": PendingCampaign("5eed0000-0000-4000-8000-000000000001", [
        *DEALT_SELLSWORDS,
        ["speedheim", "incapacitate", "Sellswords", "Gunnar", "Skab", "--ledger"],
        ["seed", "reveal"],
    ], [["answer", "gunnar.skab.1.mel-rgd=Mel"], ["seed", "reveal"]]),
    # the ledger deals Gunnar card 16 (Agi), whose check needs a table D20: stored without a question
    "speedheim-table-die": PendingCampaign("0b0c0d0e-0000-4000-8000-000000000005", [
        *DEALT_SELLSWORDS,
        ["speedheim", "incapacitate", "Sellswords", "Gunnar", "Skab"],
        ["seed", "reveal"],
    ], [["answer", "--dice", "5"], ["seed", "reveal"]]),
    # a Casualty Table roll: its outcome is named by the players
    "retinue-casualty": PendingCampaign("90150000-0000-4000-9000-000000000001", [
        ["demo", "--ruleset", "retinue"],
        ["battle", "record", "--warband", "Hawks of the Mere", "--warband", "Wolves of Harrow", "--winner",
         "Wolves of Harrow", "--scenario", "Night Raid", "--took-out", "Lupa=Finch", "--ooa", "Finch"],
        ["retinue", "battle-pass", "Hawks of the Mere"],
        ["retinue", "scenario-pass", "Hawks of the Mere"],
        ["retinue", "casualty", "Hawks of the Mere", "--ledger"],
        ["seed", "reveal"],
    ], [["answer", "casualty:finch=Hardy"], ["seed", "reveal"]]),
}
# a Doom Table roll (after the Casualty Table's), named by the players too
PENDING_CAMPAIGNS["retinue-doom"] = PendingCampaign("90150000-0000-4000-9000-000000000011", [
    *PENDING_CAMPAIGNS["retinue-casualty"].steps[:4],
    ["retinue", "casualty", "Hawks of the Mere", "--ledger", "--outcome", "Finch=Recovered"],
    ["retinue", "doom", "Hawks of the Mere", "--fighter", "Kestrel", "--ledger"],
    ["seed", "reveal"],
], [["answer", "doom:kestrel=Spared"], ["seed", "reveal"]])


def make_pending_trails(folder: Path, names: list[str] | None = None) -> dict[str, str]:
    """The trails of PENDING_CAMPAIGNS (`names`: only those): `pending-NAME-open` after its steps,
    `pending-NAME-answered` after its answers too. Exported through the CLI, which every ledger since
    pending decisions has (so `--older` runs this under an older commit's code)."""
    from ledger import campaigns
    from ledger.testing import CampaignRunner

    trails = {}
    for name in names or list(PENDING_CAMPAIGNS):
        campaign = PENDING_CAMPAIGNS[name]
        campaigns.uuid = SimpleNamespace(uuid4=lambda: uuid.UUID(campaign.campaign_id), UUID=uuid.UUID)
        runner = CampaignRunner("sqlite:///" + str(folder / f"pending-{name}.db"))
        for stage, steps in (("open", campaign.steps), ("answered", campaign.answers)):
            for step in steps:
                result = runner("--as", "golden", *step)
                assert result.exit_code == 0 or "its dice are recorded and T" in result.output, (step, result.output)
            trail = folder / f"pending-{name}-{stage}.jsonl"
            exported = runner("export", "-o", str(trail))
            assert exported.exit_code == 0, exported.output
            trails[trail.stem] = trail.read_text(encoding="utf-8")
    return trails


# Pending decisions recorded by an older ledger, whose stored question today's words otherwise: they
# must import as they are. 756841e is the first commit with pending decisions and every ruleset; its
# exploration asked "which 6 dice count?" (not "… (or fewer)?") and its Doom Table offered no Captured.
OLDER_PENDING = {"756841e": ["coreheim-explore", "retinue-doom"]}


def make_older_trails() -> dict[str, str]:
    """The OLDER_PENDING trails, `older-COMMIT-pending-NAME-STAGE`: this script run under each commit's
    code (a git worktree of it first on the path), making its pending trails with that code."""
    import subprocess
    import tempfile

    trails = {}
    for commit, names in OLDER_PENDING.items():
        with tempfile.TemporaryDirectory() as folder:
            tree = Path(folder) / "tree"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(tree), commit], check=True)
            try:
                subprocess.run([sys.executable, __file__, "--pending-into", folder, *names], check=True, cwd=folder,
                               env={**os.environ, "PYTHONPATH": str(tree)})
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)
            for trail in sorted(Path(folder).glob("pending-*.jsonl")):
                trails[f"older-{commit}-{trail.stem}"] = trail.read_text(encoding="utf-8")
    return trails


# --- campaigns the tests build ----------------------------------------------------------------------


class Harvest:
    """A pytest plugin: every campaign a test writes is exported when the test ends."""

    def __init__(self) -> None:
        self.touched: dict = {}  # campaign id -> the Store object that last wrote it
        self.trails: dict[str, str] = {}  # "nodeid campaign-id" -> trail text

    def pytest_sessionstart(self, session) -> None:
        from ledger.store import Store

        original = Store.append
        harvest = self

        def append(store, campaign_id, records, **options):
            original(store, campaign_id, records, **options)
            harvest.touched[campaign_id] = store

        Store.append = append

    def pytest_runtest_teardown(self, item) -> None:
        from ledger.store import Store

        for campaign_id, store in self.touched.items():
            try:
                if store.kind == "sqlite":  # the CLI closed it: open the file again
                    store = Store(store.url, create=False)
                self.trails[f"{item.nodeid} {campaign_id}"] = trail_of(store, campaign_id)
            except Exception:  # tests that tamper with a store on purpose leave chains that do not verify
                pass
        self.touched.clear()


def features(trail: str) -> set[str]:
    lines = [json.loads(line) for line in trail.splitlines()]
    header, events = lines[0], lines[1:-1]
    ruleset = header["ruleset"]["id"]
    found = {f"ruleset:{ruleset}"}
    if header["ruleset"]["options"]:
        found.add(f"{ruleset} options:" + ",".join(sorted(header["ruleset"]["options"])))
    for line in events:
        kind, payload = line["type"], line["payload"]
        if kind == "command.recorded":
            found.add(f"{ruleset} command:{payload['command']}")
            if payload.get("args", {}).get("answers"):
                found.add(f"{ruleset} answers")
        elif kind == "transaction.voided":
            found.add(f"{ruleset} void cascaded" if payload.get("because_of") is not None else f"{ruleset} void")
        elif kind == "dice.rolled":
            found.add(f"{ruleset} dice:{payload['source']}")
            if payload.get("copy_of") is not None:
                found.add(f"{ruleset} reroll kept a roll")
        elif kind == "seed.revealed":
            found.add(f"{ruleset} seed revealed")
        found.add(f"{ruleset} event:{kind}")
    return found


def cover(candidates: dict[str, str], already: set[str], limit: int) -> dict[str, str]:
    """Greedy set cover: the trail adding most uncovered features, ties to the shorter trail."""
    wanted = {name: features(text) for name, text in candidates.items()}
    covered = set(already)
    chosen: dict[str, str] = {}
    while len(chosen) < limit:
        gains = {name: len(f - covered) for name, f in wanted.items() if name not in chosen}
        best = max(gains, key=lambda name: (gains[name], -len(candidates[name])), default=None)
        if best is None or gains[best] == 0:
            break
        chosen[best] = candidates[best]
        covered |= wanted[best]
    return chosen


def slug(name: str) -> str:
    test = name.split(" ")[0].removeprefix("tests/")
    return re.sub(r"[^A-Za-z0-9]+", "-", test.replace(".py::", "-")).strip("-").lower()[:90]


def harvest_tests() -> dict[str, str]:
    import pytest

    plugin = Harvest()
    code = pytest.main(
        ["-q", "-p", "no:cacheprovider", "-m", "not postgres", "--ignore", str(HERE),
         str(ROOT / "tests")],
        plugins=[plugin],
    )
    assert code == 0, f"the test suite must pass before trails are harvested (pytest exit {code})"
    shipped = {"freeform", "coreheim", "trench-crusade", "warbands", "retinue"}  # not the toy rulesets some tests register
    return {name: text for name, text in plugin.trails.items()
            if json.loads(text.splitlines()[0])["ruleset"]["id"] in shipped}


def main() -> None:
    import tempfile

    if sys.argv[1:2] == ["--pending-into"]:  # (under an older commit's code, which is first on the path)
        make_pending_trails(Path(sys.argv[2]), sys.argv[3:])
        return
    sys.path.insert(0, str(ROOT))
    if sys.argv[1:2] == ["--only"]:  # a new ruleset's trails, the others left as they are
        with tempfile.TemporaryDirectory() as folder:
            for name, text in make_demo_trails(Path(folder), only=sys.argv[2]).items():
                (HERE / f"{name}.jsonl").write_text(text, encoding="utf-8")
                print(f"{name}: {len(text.splitlines()) - 2} events")
        return
    if sys.argv[1:2] == ["--pending"]:  # the pending-decision trails, the others left as they are
        with tempfile.TemporaryDirectory() as folder:
            made = {**make_pending_trails(Path(folder)), **make_older_trails()}
        for name, text in made.items():
            (HERE / f"{name}.jsonl").write_text(text, encoding="utf-8")
            print(f"{name}: {len(text.splitlines()) - 2} events")
        return
    harvested = harvest_tests()
    with tempfile.TemporaryDirectory() as folder:
        demos = make_demo_trails(Path(folder))
        pendings = {**make_pending_trails(Path(folder)), **make_older_trails()}
    covered = set().union(*(features(text) for text in demos.values()))
    chosen = cover(harvested, covered, MAX_HARVESTED)
    for old in HERE.glob("*.jsonl"):
        old.unlink()
    for name, text in demos.items():
        (HERE / f"{name}.jsonl").write_text(text, encoding="utf-8")
    for name, text in pendings.items():
        (HERE / f"{name}.jsonl").write_text(text, encoding="utf-8")
    for name, text in chosen.items():
        (HERE / f"{slug(name)}.jsonl").write_text(text, encoding="utf-8")
        print(f"{slug(name)}: {len(text.splitlines()) - 2} events")
    everything = set().union(*(features(t) for t in harvested.values()), covered)
    kept = covered.union(*(features(t) for t in chosen.values()))
    print(f"{len(demos)} demo trails, {len(chosen)} of {len(harvested)} test campaigns; "
          f"features not covered: {sorted(everything - kept) or 'none'}")


if __name__ == "__main__":
    main()
