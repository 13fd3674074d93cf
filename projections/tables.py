"""The read-model tables, as rows computed from records alone (pure: `projections.sql` stores them).

A row is a tuple in its table's column order. Every value is an integer, text, NULL, or JSON text
(keys sorted, no whitespace, UTF-8) for lists and tables, so that the same events always give
the same bytes — which is what lets a rebuild be compared with the incrementally kept tables.

Two kinds of table:
- *current* tables (campaigns, warbands, fighters) describe the campaign as it stands now and are
  replaced from the state after every command;
- *per-record* tables (log, battles, fighter history, ratings) grow by the rows of each new
  transaction. A row describes its record with the state just after the record's transaction,
  so that appending a transaction's rows gives what a full rebuild gives. A void changes the
  past: then every row of the campaign is computed again (`all_rows`).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ledger import events as ev
from ledger.campaigns import apply_record, void_records, voids_in
from ledger.records import Record, canonical
from ledger.state import UNRATED_EVENTS, CampaignState, Warband, warbands_changed
from projections.history import (
    NamesKnown,
    about_fighter,
    fighter_drawn_for,
    fighters_involved,
    record_text,
    typed_by_transaction,
    void_annotations,
)
from projections.roster import campaign_row, ext_of, fighter_row, rating_of, warband_row

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[tuple[str, str], ...]  # (name, kind): kind is "text", "int" or "json" (JSON text)
    key: tuple[str, ...]
    nullable: tuple[str, ...] = ()

    @functools.cached_property  # rows are made by the hundred thousand (an import)
    def column_names(self) -> tuple[str, ...]:
        return tuple(name for name, _kind in self.columns)

    @functools.cached_property
    def key_of(self) -> Callable[[Row], tuple[Any, ...]]:
        """A row's key values, as a tuple."""
        key = operator.itemgetter(*(self.column_names.index(name) for name in self.key))
        return key if len(self.key) > 1 else lambda row: (key(row),)

    @functools.cached_property
    def _json_columns(self) -> tuple[int, ...]:
        return tuple(i for i, (_name, kind) in enumerate(self.columns) if kind == "json")

    @functools.cached_property
    def row(self) -> Callable[..., Row]:
        """`row(column=value, …)`: a row's values in column order, lists and tables as JSON text; a
        column missing or one the table does not have is a TypeError naming it. A function of one
        keyword-only argument a column, made once (as dataclasses make their __init__): taking the
        values as a dictionary cost three times as much, and rows are made by the hundred thousand."""
        json_columns = {self.columns[i][0] for i in self._json_columns}
        cells = "".join(f"json_text({name}), " if name in json_columns else f"{name}, " for name in self.column_names)
        function = f"{self.name}_row"
        made: dict[str, Any] = {}  # it reads json_text from this module, as any function here does
        exec(f"def {function}(*, {', '.join(self.column_names)}):\n    return ({cells})\n", globals(), made)  # noqa: S102 - the table's own column names
        return made[function]


def _text(*names: str) -> tuple[tuple[str, str], ...]:
    return tuple((name, "text") for name in names)


def _int(*names: str) -> tuple[tuple[str, str], ...]:
    return tuple((name, "int") for name in names)


def _json(*names: str) -> tuple[tuple[str, str], ...]:
    return tuple((name, "json") for name in names)


CAMPAIGNS = Table(
    "rm_campaigns",
    _text("campaign_id", "name", "ruleset", "ruleset_version") + _json("options")
    + _int("events", "transactions") + _json("voided") + _int("warbands", "battles") + _text("head"),
    key=("campaign_id",),
)
WARBANDS = Table(
    "rm_warbands",
    _text("campaign_id", "warband") + _int("seq") + _text("name", "player", "faction") + _int("treasury")
    + _json("stash") + _int("games", "wins", "rating", "fighters") + _json("ext"),
    key=("campaign_id", "warband"),
    nullable=("rating",),
)
FIGHTERS = Table(
    "rm_fighters",
    _text("campaign_id", "fighter", "warband") + _int("seq") + _text("name", "role", "status")
    + _int("group_size", "xp") + _json("stats", "keywords", "skills", "injuries", "equipment")
    + _int("cost", "games", "missed_games") + _json("ext"),
    key=("campaign_id", "fighter"),
)
RATINGS = Table(
    "rm_ratings",
    _text("campaign_id", "warband") + _int("tx", "position") + _text("recorded_at") + _int("games", "rating"),
    key=("campaign_id", "warband", "tx"),
)
BATTLES = Table(
    "rm_battles",
    _text("campaign_id") + _int("position", "tx", "battle") + _text("recorded_at", "actor", "scenario")
    + _json("participants") + _text("winner") + _json("deeds") + _int("voided_by"),
    key=("campaign_id", "position"),
    nullable=("winner", "voided_by"),
)
LOG = Table(
    "rm_log",
    _text("campaign_id") + _int("position", "tx") + _text("event_type", "actor", "recorded_at", "description")
    + _json("payload") + _text("hash") + _int("voided_by") + _text("voided_by_actor", "voided_at", "void_reason"),
    key=("campaign_id", "position"),
    nullable=("voided_by", "voided_by_actor", "voided_at", "void_reason"),
)
FIGHTER_HISTORY = Table(
    "rm_fighter_history",
    _text("campaign_id", "fighter") + _int("position", "tx") + _text("involvement") + _int("voided_by"),
    key=("campaign_id", "fighter", "position"),
    nullable=("voided_by",),
)
TRACKING = Table(
    "rm_tracking",
    _text("campaign_id") + _int("position") + _text("head") + _int("format"),
    key=("campaign_id",),
    nullable=("format",),  # tables made before the column was: their rows are of format 1
)

# The rows' format: raised whenever any row is computed differently (a log line worded anew), so that
# tables an older version wrote are computed again rather than found to differ from the events. What
# each format changed: docs/read-models.md, Formats.
ROWS_FORMAT = 7

CURRENT_TABLES = (CAMPAIGNS, WARBANDS, FIGHTERS)
RECORD_TABLES = (LOG, BATTLES, FIGHTER_HISTORY, RATINGS)
READ_MODELS = CURRENT_TABLES + RECORD_TABLES
TABLES = (*READ_MODELS, TRACKING)

Rows = dict[str, list[Row]]  # table name -> rows


def json_text(value: Any) -> str:
    """`json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, written by
    msgspec (several times faster, the same bytes: see `ledger.records.canonical`). The values are
    folded from records, which hold integers only (no fraction, which msgspec would write otherwise)."""
    return canonical(value).decode()


def empty_rows() -> Rows:
    return {table.name: [] for table in READ_MODELS}


# --- current tables ------------------------------------------------------------------------------


def campaign_rows(state: CampaignState) -> list[Row]:
    """rm_campaigns as the state stands."""
    return [CAMPAIGNS.row(**campaign_row(state))]


@dataclass(frozen=True)
class WarbandRows:
    """One warband's rows of rm_warbands and rm_fighters (in its order), with what they were
    computed from: the warband and its place (`inputs`) and each of its fighters (`fighter_inputs`);
    None: read from the tables. Fighters' rows whose warband has no row have `warband` None."""

    warband: Row | None
    fighters: tuple[Row, ...]
    inputs: bytes | None = None
    fighter_inputs: tuple[bytes, ...] | None = None
    ext: bytes | None = None  # the warband's ext its row's was written from, as msgspec writes it (unsorted)


@dataclass(frozen=True)
class CurrentRows:
    """A campaign's rows of the current tables: its rm_campaigns row and each warband's rows, in
    the state's order, with the campaign-wide inputs they were computed from (None: read from the
    tables). See `current_rows_of`."""

    campaign: tuple[Row, ...]
    warbands: dict[str, WarbandRows]
    shared: bytes | None = None

    def rows(self) -> Rows:
        return {
            CAMPAIGNS.name: list(self.campaign),
            WARBANDS.name: [band.warband for band in self.warbands.values() if band.warband is not None],
            FIGHTERS.name: [row for band in self.warbands.values() for row in band.fighters],
        }

    def ratings(self) -> dict[str, int | None]:
        """Each warband's rating in its rm_warbands row."""
        return {warband: band.warband[_RATING] for warband, band in self.warbands.items() if band.warband is not None}


_RATING, _EXT = WARBANDS.column_names.index("rating"), WARBANDS.column_names.index("ext")


def shared_inputs(state: CampaignState) -> bytes:
    """Everything campaign-wide a warband's or fighter's rows may read: the whole state but the
    warbands, the fighters and the ledger's bookkeeping (positions, roll numbers, seeds, voids,
    pending decisions), which rows do not read (commands/README.md) and a roll changes."""
    return msgspec.json.encode(msgspec.structs.replace(
        state, warbands={}, fighters={}, position=0, transactions=0, head="", current_tx=0, rolls=0, epoch=0,
        commitment="", revealed={}, voided={}, pending={}))


def current_rows_of(
    state: CampaignState, previous: CurrentRows | None = None, changed: Collection[str] | None = None
) -> CurrentRows:
    """rm_campaigns, rm_warbands and rm_fighters as the state stands, each row computed again only
    where what it is computed from differs from what `previous` was computed from. A fighter's row
    is computed from the campaign-wide state (`shared_inputs`), its warband, its place there and the
    fighter itself; a warband's row from the campaign-wide state, the warband, its place among the
    warbands and its fighters. A ruleset's rows (a rating, an `ext`) read no more than that: never
    another warband or its fighters. So a command about one fighter computes that fighter's row and
    its warband's alone.

    `changed`, where `state` is `previous`'s after transactions that changed nothing campaign-wide
    (`warbands_changed` of each, together): the warbands whose rows may differ; every other
    warband's rows are `previous`'s as they are (computed, or read from the tables), not compared,
    and the campaign-wide inputs are those `previous` was computed from, not encoded again (the
    ruleset's facts among them grow with the campaign: coreheim's ratings at every battle)."""
    unchanged = changed is not None and previous is not None and previous.shared is not None
    shared = previous.shared if unchanged else shared_inputs(state)
    places = enumerate(state.warbands.items(), start=1)
    reusable = previous.warbands if previous is not None and previous.shared == shared else {}
    if previous is not None and changed is not None:
        warbands = dict(previous.warbands)
        for seq, (warband, band) in places:
            if warband in changed or warband not in warbands:
                warbands[warband] = _warband_rows(state, seq, warband, band, reusable.get(warband))
    else:
        warbands = {warband: _warband_rows(state, seq, warband, band, reusable.get(warband))
                    for seq, (warband, band) in places}
    return CurrentRows(tuple(campaign_rows(state)), warbands, shared)


def _warband_rows(state: CampaignState, seq: int, warband: str, band: Warband, kept: WarbandRows | None) -> WarbandRows:
    """The warband's rows at place `seq`: `kept` where computed from the same inputs, and of each
    fighter, its row kept where computed from the same fighter at the same place."""
    fighters = state.fighters_of(warband, active_only=False)
    inputs = msgspec.json.encode((seq, band))
    fighter_inputs = tuple(map(msgspec.json.encode, fighters))
    if kept is not None and kept.inputs == inputs and kept.fighter_inputs == fighter_inputs:
        return kept
    kept_fighters = list(zip(kept.fighter_inputs, kept.fighters)) if kept is not None and kept.inputs == inputs \
        and kept.fighter_inputs is not None else []
    cid = state.campaign_id
    ext = ext_of(state, band)
    row = warband_row(state, warband, ext)
    # The ext written sorted again only where it changed: a long campaign's is long (coreheim's holds
    # the warband's rating at every battle), and most commands change a fighter, not it.
    ext_inputs = msgspec.json.encode(ext)
    same_ext = kept is not None and kept.warband is not None and kept.ext == ext_inputs
    return WarbandRows(
        WARBANDS.row(
            campaign_id=cid,
            warband=warband,
            seq=seq,
            **{k: row[k] for k in ("name", "player", "faction", "treasury", "stash", "games", "wins", "rating", "fighters")},
            ext=msgspec.Raw(kept.warband[_EXT].encode()) if same_ext else ext,  # type: ignore[union-attr]
        ),
        tuple(kept_fighters[i][1] if i < len(kept_fighters) and kept_fighters[i][0] == fighter_inputs[i]
              else FIGHTERS.row(campaign_id=cid, seq=i + 1, **fighter_row(state, f)) for i, f in enumerate(fighters)),
        inputs,
        fighter_inputs,
        ext_inputs,
    )


def current_rows(state: CampaignState) -> Rows:
    """rm_campaigns, rm_warbands and rm_fighters as the state stands."""
    return current_rows_of(state).rows()


# --- per-record tables ---------------------------------------------------------------------------


def transaction_rows(
    group: Sequence[Record],
    state: CampaignState,
    voided: dict[int, dict[str, Any]],
    ratings: dict[str, int | None],
    rated: Mapping[str, int | None] | None = None,
    known: NamesKnown | None = None,
) -> Rows:
    """The log, battle, fighter-history and rating rows of one transaction.

    `state` is the campaign just after the transaction; `voided` the void annotations (tx -> who,
    when, why); `ratings` each warband's rating after the previous transaction, updated in place;
    `rated` each warband's rating in `state` where it is known already (its current rows); `known`
    the names records gave so far, which a voided transaction's log lines name what it named by.
    A rating row is written when a warband's rating differs from the one before; a transaction that
    changes no roster (dice, cards, seeds, or voided) or only treasuries and post-game steps
    (UNRATED_EVENTS) leaves the ratings as they were, and one that changes a warband's fighters or
    stash alone the other warbands' (`warbands_changed`).
    """
    cid = state.campaign_id
    rows: Rows = {table.name: [] for table in RECORD_TABLES}
    described = known.filled_in(state) if known is not None and group[0].tx in voided else state
    typed = typed_by_transaction(group)
    lately: str | None = None  # the fighter the transaction's events were last about (`about_fighter`)
    for record in group:
        void = voided.get(record.tx) or {}
        voided_by = void.get("voided_by")
        rows[LOG.name].append(
            LOG.row(
                campaign_id=cid,
                position=record.position,
                tx=record.tx,
                event_type=ev.tag_of(record.event),
                actor=record.actor,
                recorded_at=record.recorded_at,
                description=record_text(record, described, typed),
                payload=ev.payload_of(record.event),
                hash=record.hash,
                voided_by=voided_by,
                voided_by_actor=void.get("voided_by_actor"),
                voided_at=void.get("voided_at"),
                void_reason=void.get("reason"),
            )
        )
        event = record.event
        if isinstance(event, ev.BattleRecorded):
            rows[BATTLES.name].append(
                BATTLES.row(
                    campaign_id=cid,
                    position=record.position,
                    tx=record.tx,
                    battle=event.battle,
                    recorded_at=record.recorded_at,
                    actor=record.actor,
                    scenario=event.scenario,
                    participants=event.participants,
                    winner=event.winner,
                    deeds=msgspec.to_builtins(event.deeds),
                    voided_by=voided_by,
                )
            )
        drawn_for = fighter_drawn_for(event, state.ruleset, group[0].event, described, lately)
        lately = about_fighter(event, lately)
        for fighter, how in fighters_involved(event, drawn_for).items():
            if fighter in state.fighters:  # not an enemy the ledger does not track
                rows[FIGHTER_HISTORY.name].append(
                    FIGHTER_HISTORY.row(
                        campaign_id=cid, fighter=fighter, position=record.position, tx=record.tx,
                        involvement=how, voided_by=voided_by,
                    )
                )
    changed = warbands_changed(group, state, group[0].tx in voided, ignoring=UNRATED_EVENTS)
    if changed is not None and not changed:
        return rows
    last = group[-1]
    for warband, band in state.warbands.items():
        if changed is not None and warband not in changed and warband in ratings:
            continue  # its roster is as it was: so is its rating
        rating = rated[warband] if rated is not None else rating_of(state, warband)
        if rating is not None and rating != ratings.get(warband):
            rows[RATINGS.name].append(
                RATINGS.row(
                    campaign_id=cid, warband=warband, tx=last.tx, position=last.position,
                    recorded_at=last.recorded_at, games=band.games, rating=rating,
                )
            )
        ratings[warband] = rating
    return rows


def log_entry(row: Row) -> dict[str, Any]:
    """An rm_log row as `campaign log`, `history` and the CSV and Markdown audit exports show it (its
    text and JSON): the one row, whether read from the table or computed as a rebuild computes it."""
    cells = dict(zip(LOG.column_names, row))
    voided = None if cells["voided_by"] is None else {
        "voided_by": cells["voided_by"], "voided_by_actor": cells["voided_by_actor"], "voided_at": cells["voided_at"],
        "reason": cells["void_reason"],
    }
    return {"position": cells["position"], "tx": cells["tx"], "type": cells["event_type"], "actor": cells["actor"],
            "recorded_at": cells["recorded_at"], "text": cells["description"], "voided": voided, "hash": cells["hash"]}


def log_rows(records: Sequence[Record]) -> list[dict[str, Any]]:
    """The campaign chronicle of a whole history (`log_entry` of each rm_log row), computed from its
    records: every event worded as the campaign stood just after its own transaction, as the table
    holds it, not as the campaign stands now."""
    return [log_entry(row) for row in all_rows(records)[1][LOG.name]]


def all_rows(records: Sequence[Record], advance: Callable[[int], None] | None = None) -> tuple[CampaignState, Rows]:
    """Every read-model row of a campaign from its whole history, and the state it ends in."""
    state, rows = CampaignState(), empty_rows()
    for state, page in rows_in_pages(records, void_records(records), advance):
        for name, more in page.items():
            rows[name].extend(more)
    return state, rows


PAGE_EVENTS = 1000  # records whose rows `rows_in_pages` computes before handing them on


def rows_in_pages(
    records: Iterable[Record], voids: Sequence[Record], advance: Callable[[int], None] | None = None
) -> Iterator[tuple[CampaignState, Rows]]:
    """Every read-model row of a campaign from its whole history (`voids`: its transaction.voided
    records, known ahead), a page of transactions at a time, each with the state after it; the
    last page holds the current tables' rows. Pages, so that a history of any length is never
    held whole (see RowsInPages)."""
    rows = RowsInPages(voids, advance)
    for record in records:
        rows.add(record)
        if (page := rows.full_page()) is not None:
            yield rows.state, page
    yield rows.state, rows.last_page()


class RowsInPages:
    """`rows_in_pages` a record at a time, for a reader that hands the records on as it reads them
    (an import storing them): one fold, transaction by transaction, skipping every voided one; the
    rows of a transaction are computed once its last record is followed by another (or the end);
    `advance(n)` is told after each transaction how many records it folded (for a progress bar)."""

    def __init__(self, voids: Sequence[Record], advance: Callable[[int], None] | None = None):
        self.voided_txs = voids_in(voids)
        self.annotations = void_annotations(voids)
        self.advance = advance
        self.state = CampaignState()
        self.ratings: dict[str, int | None] = {}
        self.known = NamesKnown()
        self.group: list[Record] = []
        self.page, self.held = empty_rows(), 0

    def add(self, record: Record) -> None:
        if self.group and record.tx != self.group[0].tx:
            self._transaction_done()
        self.group.append(record)

    def full_page(self) -> Rows | None:
        """The rows computed so far, once they are a page's (PAGE_EVENTS records); None before."""
        if self.held < PAGE_EVENTS:
            return None
        page, self.page, self.held = self.page, empty_rows(), 0
        return page

    def last_page(self) -> Rows:
        """The rows computed since the last page, the last transaction's and the current tables'."""
        if self.group:
            self._transaction_done()
        page, self.page, self.held = self.page, empty_rows(), 0
        page.update(current_rows(self.state))
        return page

    def _transaction_done(self) -> None:
        group, self.group = self.group, []
        for record in group:
            apply_record(self.state, record, record.tx in self.voided_txs)
            self.known.learn(record.event)
        for name, more in transaction_rows(group, self.state, self.annotations, self.ratings, known=self.known).items():
            self.page[name].extend(more)
        self.held += len(group)
        if self.advance is not None:
            self.advance(len(group))
