"""Synthetic campaigns under the real rules of every ruleset, for the benchmarks.

Each campaign starts as its ruleset's sample campaign (`fixtures/<ruleset>/demo.json`, built
through the CLI exactly as `campaign demo` builds it: warbands, fighters, battles and post-games
decided by the ruleset), then grows to the size asked for with commands every ruleset takes
(XP awards, bare rolls, items, treasury, notes, and now and then a battle with every
fighter's deeds, then each participant's post-game sequence, step by step, as `campaign
post-game` walks it), each decided by the ruleset's own handler table on the campaign's state
with the campaign's ledger dice (a physical deck's card is the first left in it; a question is
answered with its first choice). A command the rules refuse on that state is not recorded and a
bare roll is recorded instead. Now and then the latest transaction is voided through the ledger.

Growing goes faster than `Ledger.execute` one command at a time (which is what the suite
measures): commands are decided on the in-memory state, sealed into the hash chain and stored a
few hundred transactions per atomic save, with a snapshot after each save; the read-model tables
are rebuilt once at the end. The store holds exactly what executing the same commands would.
"""

from __future__ import annotations

import contextlib
import io
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import click
import msgspec

from commands.shared import AwardXP, BareRoll, ChangeTreasury, GainItem, LoseItem, RecordBattle, RecordNote
from commands.warbands.handlers import RecordWarbandsBattle
from ledger import rulesets
from ledger.campaigns import Ledger, decide, fold, utc_now
from ledger.decide import Command, DiceSource, Faces
from ledger.errors import LedgerError, NeedsAnswer
from ledger.events import Deed
from ledger.records import Record, seal
from ledger.state import CampaignState, Fighter, encode_state
from ledger.store import Store
from projections import sql

ACTOR = "bench"
BATCH = 300  # transactions per atomic save while growing
VOID_EVERY = 5000  # commands between two voids of the latest transaction
STASH = 10  # items a warband keeps in its stash before it sells the oldest


def sample_campaign(store_url: str, ruleset: str, name: str) -> None:
    """The ruleset's sample campaign, renamed, built in the store through the CLI."""
    from ledger.cli.app import Session
    from ledger.cli.demo import build, fixture_campaigns

    fixture = {**fixture_campaigns()[ruleset], "name": name}
    session = Session(store_url=store_url, actor=ACTOR, campaign_ref=None, creates_store=True)
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # the build's progress bar
            build(session, fixture)
    except click.Abort:  # click's word for a Ctrl-C in one of the CLI's steps: an interrupt here too
        raise KeyboardInterrupt from None


def next_command(turn: int, state: CampaignState) -> Command:
    """The turn's command: mostly XP awards, with rolls, items, money, notes and battles between, and
    now and then an item sold from a stash that holds more than STASH."""
    warbands = list(state.warbands)
    fighters = [f for f in state.fighters.values() if f.active] or list(state.fighters.values())
    fighter = fighters[turn % len(fighters)]
    if turn % 50 == 0 and len(warbands) >= 2:
        pair = [warbands[turn // 50 % len(warbands)], warbands[(turn // 50 + 1) % len(warbands)]]
        fought = [f for f in state.fighters.values() if f.warband in pair and f.active and not f.missed_games]
        if all(any(f.warband == band for f in fought) for band in pair):
            return battle(state.ruleset, turn, pair, fought)
    crowded = next((band for band in state.warbands.values() if len(band.stash) > STASH), None)
    if crowded is not None and turn % 3 == 0:
        return LoseItem(warband=crowded.id, item=crowded.stash[0], reason="sold")  # as players sell what they find
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


# What a battle needs beyond the shared record: a scenario the ruleset knows.
SCENARIOS = {"trench-crusade": "Trench Warfare", "warbands": "Little War"}


def battle(ruleset: str, turn: int, pair: list[str], fought: list[Fighter]) -> Command:
    """A battle of the pair's fighters able to fight, in which the winner's first fighter takes out
    the loser's (a warbands unit loses a model instead): few casualties, since no one recruits. At
    100,000 events coreheim's campaign has fought 782 battles; speedheim's stops at about 40, its
    warbands' fighters lost to their scars."""
    winner, scenario = pair[turn // 100 % 2], SCENARIOS.get(ruleset, "")
    firsts = {band: next(f for f in fought if f.warband == band) for band in reversed(pair)}
    if ruleset == "warbands":
        return RecordWarbandsBattle(participants=pair, winner=winner, scenario=scenario,
                                    removed={f.name: 1 for f in firsts.values() if f.group_size > 1})
    taking = {firsts[winner].id: next(f.id for band, f in firsts.items() if band != winner)}
    return RecordBattle(participants=pair, winner=winner, scenario=scenario,
                        deeds=[Deed(fighter=f.id, took_out=[taking[f.id]] if f.id in taking else []) for f in fought])


# Answers that are no choice among options, offered to every command (each records those it asks):
# the XP a warbands unit earned in a battle, where the campaign has no XP table.
FREE_ANSWERS = {"xp": "1"}


class FirstChoice:
    """Each question's first choice (a BuildAsk, and an AskChoice); an amount asked for, 1."""

    def __call__(self, _prompt: str, options: Sequence[str], key: str | None = None) -> str:  # noqa: ARG002 - BuildAsk names it
        return options[0]

    def number(self, _prompt: str, key: str, check: Callable[[int], object] | None = None) -> int:  # noqa: ARG002
        return 1


first_choice = FirstChoice()


def post_game_step(ruleset: rulesets.Ruleset, state: CampaignState) -> Command | None:
    """The next step of the first post-game sequence left unfinished (None: every warband's is done)."""
    if ruleset.post_game is None:
        return None
    for warband in state.warbands:
        if state.latest_battle(warband) is not None:
            step = next((step for step in ruleset.post_game(state, warband) if not step.done(state, warband)), None)
            if step is not None:
                return step.build(state, warband, first_choice)
    return None


@dataclass(frozen=True)
class BenchDice:
    """The campaign's ledger dice; from a physical deck, the first card left in it."""

    ledger: DiceSource

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        return self.ledger.faces(roll, expression, die_sides, purpose)

    def card(self, _deck: str, _purpose: str, candidates: Sequence[str]) -> str:
        return candidates[0]

    def rewind(self) -> None:
        """Faces are derived from the roll number: nothing to rewind."""

    def finish(self) -> None:
        """Nothing given ahead."""


def decided_answering(ruleset: rulesets.Ruleset, state: CampaignState, command: Command, dice: BenchDice) -> list:
    """The command's events, a question asked after a ledger roll (which no one may see before it
    is stored) answered with its first choice, as the command's own answer."""
    while True:
        try:
            return decide(ruleset, state, command, dice=dice, shuffle_dice=dice.ledger, ask=first_choice,
                          offered=FREE_ANSWERS)
        except NeedsAnswer as question:
            if not question.options or question.key in command.answers:
                raise
            command = msgspec.structs.replace(command, answers={**command.answers, question.key: question.options[0]})


def _decided(ledger: Ledger, campaign_id: uuid.UUID, state: CampaignState, turn: int) -> list:
    ruleset = rulesets.get(state.ruleset)
    dice = BenchDice(ledger.ledger_dice(campaign_id, state))
    try:
        step = post_game_step(ruleset, state)
    except LedgerError:
        step = None  # a step the first choices cannot build: the campaign goes on without battles
    for command in (step or next_command(turn, state), BareRoll(expression="D6", purpose=f"bench fallback {turn}")):
        try:
            return decided_answering(ruleset, state, command, dice)
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
