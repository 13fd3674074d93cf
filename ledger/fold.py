"""Folding a campaign's records into its state, and the spans they fall into (transactions, battles).

Voided transactions are skipped, except the ledger's own bookkeeping (roll numbers, seeds, voids),
which counts whatever happened to the transaction it was recorded in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import groupby

from ledger import events as ev
from ledger import rulesets
from ledger.errors import BadInput, NotFound
from ledger.records import Record
from ledger.state import LEDGER_EVENTS, Battle, CampaignState, battle_of, evolve


def apply_record(state: CampaignState, record: Record, voided: bool) -> None:
    """Fold one stored record: ledger bookkeeping always, the event itself only when live."""
    state.position = record.position
    state.head = record.hash
    state.current_tx = record.tx
    state.transactions = max(state.transactions, record.tx)
    if not voided or isinstance(record.event, LEDGER_EVENTS):
        ruleset_evolve = rulesets.get(state.ruleset).evolve if state.ruleset else None
        evolve(state, record.event, ruleset_evolve)


def voids_in(records: Iterable[Record]) -> set[int]:
    return {r.event.target for r in records if isinstance(r.event, ev.TransactionVoided)}


def void_records(records: Iterable[Record]) -> list[Record]:
    """The transaction.voided records: what a fold of a history must know before it starts."""
    return [r for r in records if isinstance(r.event, ev.TransactionVoided)]


@dataclass(frozen=True)
class History:
    """A campaign's whole history read again (from a trail or a store) each time it is iterated,
    never held, with what a fold must know before it starts: the transaction.voided records."""

    records: Iterable[Record]  # read again, from the first record, each time it is iterated
    count: int
    voids: Sequence[Record]

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return self.count


def fold(records: Sequence[Record], state: CampaignState | None = None) -> CampaignState:
    """State from records, skipping every transaction voided in them (or before them)."""
    state = state or CampaignState()
    voided = {int(t) for t in state.voided} | voids_in(records)
    for record in records:
        apply_record(state, record, record.tx in voided)
    return state


def standing_battles(records: Sequence[Record]) -> list[Battle]:
    """Every battle of the records that stands (its transaction not voided in them), in the order
    fought: the list the state does not keep (only the latest battle of each warband). Deeds are
    those recorded with the battle; a ruleset's fold may add to them in the state."""
    voided = voids_in(records)
    return [battle_of(r.event, r.tx) for r in records if isinstance(r.event, ev.BattleRecorded) and r.tx not in voided]


def transactions(records: Sequence[Record]) -> list[list[Record]]:
    return [list(group) for _, group in groupby(records, key=lambda r: r.tx)]


def battle_ends(records: Sequence[Record]) -> dict[int, int]:
    """Each standing battle's number -> where it ends with everything after it: the last record
    before the first transaction of a battle numbered above it (`_battles_played_from`), or the last
    record. In record order; one pass."""
    voided = voids_in(records)
    starts = [r for r in records if isinstance(r.event, ev.BattleRecorded) and r.tx not in voided]
    played_from = _battles_played_from(records, voided)
    last_before: dict[int, int] = {}  # each transaction -> the position of the record before it
    previous = 0
    for record in records:
        last_before.setdefault(record.tx, previous)
        previous = record.position
    ends: dict[int, int] = {}
    earliest_later: int | None = None  # the first transaction of the battles numbered above
    for number in sorted({r.event.battle for r in starts}, reverse=True):
        ends[number] = last_before[earliest_later] if earliest_later is not None else records[-1].position
        earliest_later = played_from[number] if earliest_later is None else min(played_from[number], earliest_later)
    return {r.event.battle: ends[r.event.battle] for r in starts}


def _battles_played_from(records: Sequence[Record], voided: set[int]) -> dict[int, int]:
    """Each battle number -> its first live transaction: its record, or what was recorded of it while
    it was played (a Speedheim Incapacitation names the battle it is in before the battle is recorded)."""
    played_from: dict[int, int] = {}
    for record in records:
        number = getattr(record.event, "battle", None)
        if isinstance(number, int) and record.tx not in voided:
            played_from.setdefault(number, record.tx)
    return played_from


def end_of_battle(records: Sequence[Record], battle: int) -> int:
    ends = battle_ends(records)
    if battle not in ends:
        raise NotFound(f"no battle {battle} (battles: {', '.join(map(str, ends)) or 'none yet'})")
    return ends[battle]


def cut(records: Sequence[Record], *, until: int | None = None, battle: int | None = None) -> list[Record]:
    """The records of the campaign as it stood at position `until`, or once battle `battle` and all
    that followed it before the next battle (less what was recorded of a later battle's game meanwhile,
    `battle_views`); all of them with neither. A transaction is stored whole or not at all: a position
    inside one, where the campaign never stood, is refused naming the transaction's bounds."""
    if until is not None and battle is not None:
        raise BadInput("give --until or --battle, not both")
    if battle is not None:
        end, views = end_of_battle(records, battle), battle_views(records)
        return [r for r in records if r.position <= end and (views[r.tx] or 0) <= battle]
    if until is None:
        return list(records)
    if until < 1:
        raise BadInput("--until takes a position from 1")
    if not records or until > records[-1].position:
        raise NotFound(f"no position {until}: the campaign has {len(records)} events")
    shown = [r for r in records if r.position <= until]
    _refuse_inside_a_transaction(records, shown)
    return shown


def _refuse_inside_a_transaction(records: Sequence[Record], shown: list[Record]) -> None:
    """BadInput where `shown` (the records up to a position) ends inside a transaction of `records`."""
    last = shown[-1]
    if len(shown) == len(records) or records[len(shown)].tx != last.tx:
        return
    first = next(r.position for r in shown if r.tx == last.tx)
    end = max(r.position for r in records if r.tx == last.tx)
    before = f"--until {first - 1} (before T{last.tx}) or " if first > 1 else ""
    raise BadInput(f"position {last.position} is inside T{last.tx} (positions {first} to {end}), which is stored "
                   f"whole: the campaign never stood between its events; give {before}--until {end} (after it)")


def post_games_left_out(records: Sequence[Record], battle: int) -> list[ev.PostGameStepDone]:
    """The post-game steps of battle `battle` or an earlier one recorded once a later battle had begun
    (a league records its next game before every warband's post-game is done): the campaign once
    that battle (`cut`) does not hold them."""
    end, voided = end_of_battle(records, battle), voids_in(records)
    return [r.event for r in records if r.position > end and isinstance(r.event, ev.PostGameStepDone)
            and r.event.battle <= battle and r.tx not in voided]


def battle_views(records: Sequence[Record]) -> dict[int, int | None]:
    """Each transaction -> the battle whose view holds it (`cut`, `log --battle K`, the report's
    chapters; None: before the first battle): the battle in whose span it falls, from where the battle
    was begun (`_battles_played_from`) to its end (`battle_ends`). But a game that went on while
    another battle was recorded first (Speedheim plays games side by side) counts toward the next
    battle: what was recorded of it meanwhile is shown with the battle it counts toward, once that
    battle is recorded (until then it stays where it falls, as a game in progress does)."""
    ends = battle_ends(records)
    if not ends:
        return {r.tx: None for r in records}
    voided = voids_in(records)
    begun = _battles_played_from(records, voided)[min(ends)]
    spans = sorted(ends.items(), key=lambda item: item[1])
    views: dict[int, int | None] = {}
    at = 0
    for record in records:
        while record.position > spans[at][1]:
            at += 1
        views.setdefault(record.tx, spans[at][0] if record.tx >= begun else None)
    views.update((tx, battle) for tx, battle in _games_carried(records, voided).items() if battle in ends)
    return views


def _games_carried(records: Sequence[Record], voided: set[int]) -> dict[int, int]:
    """Each live transaction recorded of a game while another battle was recorded first -> the battle
    it counts toward. Recorded while battle K was played, it names battle K and the warbands of that
    game (events with a `battle` and a `warband`); a later event whose `carries(battle, warbands)`
    says so (speedheim.game-carried) moves it on to K+1, and on again if K+1 too is recorded first."""
    named: dict[int, tuple[int, set[str]]] = {}  # transaction -> (the battle it counts toward, its warbands)
    carried: dict[int, int] = {}
    for record in records:
        if record.tx in voided:
            continue
        carries = getattr(record.event, "carries", None)
        if callable(carries):
            for tx, (battle, warbands) in named.items():
                if tx != record.tx and carries(battle, warbands):
                    named[tx] = (battle + 1, warbands)
                    carried[tx] = battle + 1
        number = getattr(record.event, "battle", None)
        if isinstance(number, int):
            warbands = named.setdefault(record.tx, (number, set()))[1]
            warband = getattr(record.event, "warband", None)
            if isinstance(warband, str):
                warbands.add(warband)
    return carried
