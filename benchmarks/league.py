"""Synthetic campaigns under the real rules of every ruleset, for the benchmarks.

Each campaign starts as its ruleset's sample campaign (`fixtures/<ruleset>/demo.json`, built
through the CLI exactly as `campaign demo` builds it: warbands, fighters, battles and post-games
decided by the ruleset), then grows to the size asked for with commands every ruleset takes
(XP awards, bare rolls, items, treasury, notes, and now and then a battle with every
fighter's deeds), each decided by the
ruleset's own handler table on the campaign's state with the campaign's ledger dice. A command
the rules refuse on that state (a battle while a post-game is pending, say) is not recorded and
an XP award is tried instead. Now and then the latest transaction is voided through the ledger.

Growing goes faster than `Ledger.execute` one command at a time (which is what the suite
measures): commands are decided on the in-memory state, sealed into the hash chain and stored a
few hundred transactions per atomic save, with a snapshot after each save; the read-model tables
are rebuilt once at the end. The store holds exactly what executing the same commands would.
"""

from __future__ import annotations

import contextlib
import io
import uuid
from collections.abc import Callable

from commands.shared import AwardXP, BareRoll, ChangeTreasury, GainItem, LoseItem, RecordBattle, RecordNote
from ledger import rulesets
from ledger.campaigns import Ledger, decide, fold, utc_now
from ledger.decide import Command
from ledger.errors import LedgerError
from ledger.events import Deed
from ledger.records import Record, seal
from ledger.state import CampaignState, encode_state
from ledger.store import Store
from projections import sql

ACTOR = "bench"
BATCH = 300  # transactions per atomic save while growing
VOID_EVERY = 5000  # commands between two voids of the latest transaction


def sample_campaign(store_url: str, ruleset: str, name: str) -> None:
    """The ruleset's sample campaign, renamed, built in the store through the CLI."""
    from ledger.cli.app import Session
    from ledger.cli.demo import build, fixture_campaigns

    fixture = {**fixture_campaigns()[ruleset], "name": name}
    session = Session(store_url=store_url, actor=ACTOR, campaign_ref=None, creates_store=True)
    with contextlib.redirect_stderr(io.StringIO()):  # the build's progress bar
        build(session, fixture)


def next_command(turn: int, state: CampaignState) -> Command:
    """The turn's command: mostly XP awards, with rolls, items, money, notes and battles between."""
    warbands = list(state.warbands)
    fighters = [f for f in state.fighters.values() if f.active] or list(state.fighters.values())
    fighter = fighters[turn % len(fighters)]
    if turn % 50 == 0 and len(warbands) >= 2:
        pair = [warbands[turn // 50 % len(warbands)], warbands[(turn // 50 + 1) % len(warbands)]]
        fought = [f for f in fighters if f.warband in pair]
        enemies = {band: [f.id for f in fought if f.warband != band] for band in pair}
        deeds = [Deed(fighter=f.id, out_of_action=n % 3 == 0,
                      took_out=[enemies[f.warband][n % len(enemies[f.warband])]] if n % 4 == 0 and enemies[f.warband] else [])
                 for n, f in enumerate(fought)]
        return RecordBattle(participants=pair, winner=pair[turn // 100 % 2], deeds=deeds)
    if turn % 7 == 0:
        return BareRoll(expression="2D6", purpose=f"bench roll {turn}")
    if turn % 11 == 0:
        has_torch = "torch" in fighter.equipment
        return (LoseItem if has_torch else GainItem)(warband=fighter.warband, item="torch", fighter=fighter.id)
    if turn % 13 == 0:
        return ChangeTreasury(warband=fighter.warband, delta=1, reason="bench upkeep")
    if turn % 17 == 0:
        return RecordNote(text=f"bench note {turn}")
    return AwardXP(fighter=fighter.id, warband=fighter.warband, amount=1, reason="survived")


def _decided(ledger: Ledger, campaign_id: uuid.UUID, state: CampaignState, turn: int) -> list:
    ruleset = rulesets.get(state.ruleset)
    dice = ledger.ledger_dice(campaign_id, state)
    for command in (next_command(turn, state), BareRoll(expression="D6", purpose=f"bench fallback {turn}")):
        try:
            return decide(ruleset, state, command, dice=dice, shuffle_dice=dice)
        except LedgerError:
            continue  # refused by the rules on this state: try the fallback
    raise AssertionError("a bare roll cannot be refused")


def grow(ledger: Ledger, campaign_id: uuid.UUID, events: int, advance: Callable[[int], None] | None = None) -> CampaignState:
    """Add commands to the campaign until it holds at least `events` events."""
    store = ledger.store
    state = ledger.load(campaign_id)
    batch: list[Record] = []
    turn = 0

    def flush() -> None:
        if batch:
            store.append(campaign_id, batch)
            store.save_snapshot(campaign_id, state.position, encode_state(state))
            if advance:
                advance(len(batch))
            batch.clear()

    while state.position < events:
        turn += 1
        if turn % VOID_EVERY == 0:
            flush()
            state = ledger.void(campaign_id, f"T{state.transactions}", reason="disputed", actor=ACTOR).state
            continue
        sealed = seal(_decided(ledger, campaign_id, state, turn), first_position=state.position + 1,
                      prev_hash=state.head, tx=state.transactions + 1, actor=ACTOR, recorded_at=utc_now())
        fold(sealed, state)
        batch.extend(sealed)
        if batch[-1].tx - batch[0].tx + 1 >= BATCH:
            flush()
    flush()
    sql.rebuild(store, [campaign_id], drop=False)
    return state


def build_campaign(store_url: str, ruleset: str, name: str, events: int) -> uuid.UUID:
    """A campaign of at least `events` events under `ruleset`, in the store at `store_url`."""
    sample_campaign(store_url, ruleset, name)
    store = Store(store_url)
    try:
        ledger = Ledger(store)
        campaign_id = ledger.find(name)
        grow(ledger, campaign_id, events)
        return campaign_id
    finally:
        store.close()


def ruleset_ids() -> list[str]:
    """Every ruleset with a sample campaign to start from."""
    from ledger.cli.demo import fixture_campaigns

    return sorted(fixture_campaigns())
