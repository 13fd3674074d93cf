"""The campaign report's data: plain values built from the read-model rows and the log alone.

`build_report` computes the read-model rows of the campaign as it stood at the cut (the same
`all_rows` fold that fills the `rm_*` tables, so the report's numbers are the tables' numbers),
and arranges them for people: standings, roster cards, charts over the battles, the chronicle in
chapters (what came before the first battle, then each battle with what followed it), and the
audit box. The templates in `projections/templates/` turn it into HTML or Markdown; nothing here
writes markup.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ledger import describe, rulesets
from ledger import events as ev
from ledger.campaigns import apply_record, battle_ends, battle_views, cut, transactions, voids_in
from ledger.fold import post_games_left_out
from ledger.records import GENESIS, Record
from ledger.state import CampaignState
from ledger.terms import Terms
from projections.charts import Chart, line_chart
from projections.deeds import BattleWords, battle_deed_lines, full_stop
from projections.tables import BATTLES, CAMPAIGNS, FIGHTERS, LOG, RATINGS, WARBANDS, Rows, Table, all_rows


@dataclass(frozen=True)
class Verification:
    """What checking the stored chain said, handed in by the caller (who may read the store)."""

    ok: bool
    summary: str  # "hash chain intact: 242 events in 58 transactions" or the failure
    dice: str = ""  # the ledger dice line, e.g. "3 rolls re-derived from the revealed seed of epoch 0"


@dataclass(frozen=True)
class Mark:
    """A point of the campaign the charts and the audit box look at: the muster, or the end of a
    battle and of everything that followed it before the next battle."""

    label: str
    battle: int | None
    position: int
    head: str


@dataclass
class Line:
    text: str
    kind: str  # "event", "dice" (a roll: faces shown), "draw" (a card drawn)
    faces: list[int] = field(default_factory=list)


@dataclass
class Transaction:
    tx: int
    typed: str | None  # as a player types it ("campaign coreheim hire"; None: nobody types it, `typed_command`)
    untyped: str  # what heads it where nobody types it, in words (a dice burn: `rulesets.UNTYPED`); else ""
    reason: str  # the reason typed with it (a void's, a reroll's), "" for none
    actor: str
    recorded_at: str
    lines: list[Line]
    voided: dict[str, Any] | None  # voided_by, voided_by_actor, voided_at, reason
    warbands: set[str] = field(default_factory=set)  # the warbands it concerns (none: the whole campaign)


@dataclass
class BattleSummary:
    number: int
    tx: int  # the transaction that recorded it: the chronicle tells the battle there
    scenario: str
    participants: list[str]  # warband ids
    sides: list[dict[str, Any]]  # name, rating before the battle (None without a rating)
    winner: str | None
    gap: int | None
    deeds: list[str]
    voided: dict[str, Any] | None


@dataclass
class Chapter:
    title: str
    battles: list[BattleSummary]
    transactions: list[Transaction]
    head: str  # the head after this chapter: the hash players note after a battle
    head_label: str  # "before the first battle", "after battle 2"


@dataclass
class Card:
    warband: dict[str, Any]  # the rm_warbands row, JSON columns parsed
    resources: list[tuple[str, int]]
    fighters: list[dict[str, Any]]  # rm_fighters rows, plus "facts" and "profile"
    xp_chart: Chart | None


@dataclass(frozen=True)
class HouseRule:
    key: str
    value: str  # as typed (JSON for what is not a string), or words about it (`typed` False)
    typed: bool = True


def house_rules(options: Mapping[str, Any]) -> list[HouseRule]:
    """The campaign's options, each as typed; but the group's own tables (`campaign new --tables`,
    the kit's `tables` option) by name alone: whole, one table of deeds was 10 KB of JSON across the
    page. The exported audit trail's header holds them whole."""
    shown = []
    for key, value in sorted(options.items()):
        if key == "tables" and isinstance(value, Mapping):
            tables = f"{', '.join(sorted(value))} {'table' if len(value) == 1 else 'tables'}"
            words = f"the group's own {tables} (whole in the exported audit trail)" if value else "none: the ruleset's own"
            shown.append(HouseRule(key, words, typed=False))
        else:
            shown.append(HouseRule(key, value if isinstance(value, str) else json.dumps(value, sort_keys=True)))
    return shown


@dataclass
class Report:
    campaign: dict[str, Any]  # the rm_campaigns row
    house_rules: list[HouseRule]
    title: str  # the ruleset's title
    terms: Terms
    has_rating: bool
    cut: str  # "" for the whole campaign, else what the report stops at
    cut_is_now: bool  # the cut holds every record: nothing was recorded after it
    left_out: list[str]  # with --battle: the post-games of it recorded after a later battle began
    standings: list[dict[str, Any]]
    cards: list[Card]
    rating_chart: Chart | None
    chapters: list[Chapter]
    marks: list[Mark]
    revealed_seeds: list[dict[str, Any]]
    ledger_dice_used: bool  # any ledger roll up to the cut, voided ones too: without one there is no seed to reveal
    verification: Verification | None  # None for a roster sheet, which has no audit box

    def card(self, warband_name: str) -> Card:
        return next(card for card in self.cards if card.warband["name"] == warband_name)


def table_dicts(rows: Rows, table: Table) -> list[dict[str, Any]]:
    """A table's rows as dicts, JSON columns parsed."""
    kinds = dict(table.columns)
    return [
        {
            name: json.loads(value) if kinds[name] == "json" and value is not None else value
            for name, value in zip(table.column_names, row)
        }
        for row in rows[table.name]
    ]


def cut_records(records: Sequence[Record], *, until: int | None = None, battle: int | None = None) -> tuple[list[Record], str]:
    """The records of the campaign as it stood at position `until`, or once battle `battle` and all
    that followed it before the next battle; and a phrase saying where it stops ('' for now)."""
    shown = cut(records, until=until, battle=battle)
    if battle is not None:
        return shown, f"after battle {battle} (position {shown[-1].position})"
    return shown, f"at position {until}" if until is not None else ""


def build_report(
    records: Sequence[Record], verification: Verification | None, *, until: int | None = None, battle: int | None = None
) -> Report:
    shown, cut = cut_records(records, until=until, battle=battle)
    state, rows = all_rows(shown)
    left_out = describe.post_games_left_out_lines(state, post_games_left_out(records, battle)) if battle is not None else []
    [campaign] = table_dicts(rows, CAMPAIGNS)
    ruleset = rulesets.get(campaign["ruleset"])
    terms = ruleset.terms
    warbands = table_dicts(rows, WARBANDS)
    fighters = table_dicts(rows, FIGHTERS)
    ratings = Ratings(table_dicts(rows, RATINGS))
    names = {w["warband"]: w["name"] for w in warbands} | {f["fighter"]: f["name"] for f in fighters}
    views = battle_views(shown)
    battle_words = BattleWords.of(ruleset, state, shown)
    marks = battle_marks(shown, views)
    xp = xp_at_marks(shown, marks)
    named = battle_words.names  # a card names its faction, items and facts as the chronicle does
    cards = [
        Card(
            warband=band | {"faction": rulesets.name_in(named, "faction", band["faction"]),
                            "stash": [rulesets.name_in(named, "item", item) for item in band["stash"]]},
            resources=terms.resources_of(band["ext"]),
            fighters=[
                f | {"role": describe.role_words(f["role"]),
                     "equipment": [rulesets.name_in(named, "item", item) for item in f["equipment"]],
                     "facts": terms.facts_of(f["ext"], named), "profile": terms.profile(f["stats"])}
                for f in fighters if f["warband"] == band["warband"]
            ],
            xp_chart=xp_chart(band, [f for f in fighters if f["warband"] == band["warband"]], marks, xp),
        )
        for band in warbands
    ]
    has_rating = ruleset.rating is not None
    rating_chart = None
    if has_rating and len(marks) > 1 and warbands:
        rating_chart = line_chart(
            f"{terms.rating} over the battles", [m.label for m in marks],
            [(w["name"], [ratings.at(w["warband"], m.position) for m in marks]) for w in warbands],
        )
    return Report(
        campaign=campaign,
        house_rules=house_rules(campaign["options"]),
        title=ruleset.title,
        terms=terms,
        has_rating=has_rating,
        cut=cut,
        cut_is_now=not cut or shown[-1].position == records[-1].position,
        left_out=left_out,
        standings=sorted(warbands, key=lambda w: (-(w["rating"] or 0), -w["wins"], w["seq"])),
        cards=cards,
        rating_chart=rating_chart,
        chapters=chapters(rows, marks, views, names, ratings, {f["fighter"]: f["warband"] for f in fighters}, battle_words,
                          ruleset),
        marks=marks,
        revealed_seeds=[
            {"epoch": row["payload"]["epoch"], "seed": row["payload"]["seed"], "position": row["position"]}
            for row in table_dicts(rows, LOG) if row["event_type"] == "seed.revealed"
        ],
        ledger_dice_used=any(isinstance(r.event, ev.DiceRolled) and r.event.source == "ledger" for r in shown),
        verification=verification,
    )


def xp_chart(
    band: dict[str, Any], fighters: list[dict[str, Any]], marks: list[Mark], xp: dict[str, list[int | None]]
) -> Chart | None:
    """The warband's fighters' XP over the battles; none before a battle, or while nobody has any."""
    series = [(f["name"], xp.get(f["fighter"], [])) for f in fighters]
    if len(marks) < 2 or not any(value for _name, values in series for value in values):
        return None
    return line_chart(f"{band['name']}: each fighter's XP over the battles", [m.label for m in marks], series)


def battle_marks(records: Sequence[Record], views: dict[int, int | None]) -> list[Mark]:
    """The muster (everything before the first battle) and the end of each battle that stands;
    `views`: `battle_views(records)`."""
    ends = battle_ends(records)
    if not ends:
        return []
    by_position = {r.position: r for r in records}
    # The first battle begins where `replay --battle` and `log --battle` begin it: with what was
    # recorded of it while it was played (a Speedheim Incapacitation), not at its record.
    muster = max((r.position for r in records if views[r.tx] is None), default=0)
    marks = [Mark("start", None, muster, by_position[muster].hash if muster else GENESIS)]
    for number, end in sorted(ends.items(), key=lambda item: item[1]):
        marks.append(Mark(f"after {number}", number, end, by_position[end].hash))
    return marks


def xp_at_marks(records: Sequence[Record], marks: Sequence[Mark]) -> dict[str, list[int | None]]:
    """Each fighter's XP at each mark (None before it was recruited): one fold, voided
    transactions skipped as the read models skip them."""
    voided = voids_in(records)
    state = CampaignState()
    xp: dict[str, list[int | None]] = {}
    positions = [m.position for m in marks]
    samples = 0

    def sample() -> None:
        for fighter in state.fighters.values():
            xp.setdefault(fighter.id, [None] * samples)
        for fighter_id, values in xp.items():
            fighter = state.fighters.get(fighter_id)
            values.append(fighter.xp if fighter is not None else None)

    for group in transactions(records):
        while samples < len(positions) and positions[samples] < group[0].position:
            sample()
            samples += 1
        for record in group:
            apply_record(state, record, record.tx in voided)
    while samples < len(positions):
        sample()
        samples += 1
    return xp


class Ratings:
    """The rm_ratings rows, to ask a warband's rating at any position: the row with the latest
    position not after it (None before its first)."""

    def __init__(self, rows: list[dict[str, Any]]):
        self._rows: dict[str, tuple[list[int], list[int]]] = {}
        for row in sorted(rows, key=lambda r: r["position"]):
            positions, values = self._rows.setdefault(row["warband"], ([], []))
            positions.append(row["position"])
            values.append(row["rating"])

    def at(self, warband: str, position: int) -> int | None:
        positions, values = self._rows.get(warband, ([], []))
        found = bisect_right(positions, position)
        return values[found - 1] if found else None


# --- the chronicle -------------------------------------------------------------------------------


def sentence(text: str, names: Collection[str] = ()) -> str:
    """A log line as a sentence: capital first letter, full stop. A line that begins with one of
    `names` (names people typed, `typed_names`) keeps it as typed: "uruk enlisted by Dan", not "Uruk"."""
    text = text.strip()
    if not text:
        return ""
    if not any(text.startswith(name) and not text[len(name):len(name) + 1].isalnum() for name in names if name):
        text = text[0].upper() + text[1:]
    return full_stop(text)


def typed_names(log: list[dict[str, Any]]) -> set[str]:
    """The names people typed that a log line may begin with (campaign, warbands, players, fighters, as
    first given or renamed): only those a capital letter would change."""
    return {
        value for row in log for key in ("name", "player")
        if isinstance(value := row["payload"].get(key), str) and value[:1] != value[:1].upper()
    }


def _line(row: dict[str, Any], names: Collection[str]) -> Line:
    payload = row["payload"]
    text = sentence(row["description"], names)
    if row["event_type"] == "dice.rolled" and not str(payload.get("expression", "")).startswith("shuffle"):
        return Line(text, "dice", list(payload.get("faces", [])))
    if row["event_type"] == "card.drawn":
        return Line(text, "draw")
    return Line(text, "event")


def concerns(payload: dict[str, Any], owners: dict[str, str]) -> set[str]:
    """The warbands an event concerns: those it names, and those of the fighters it names."""
    named = {payload.get("warband"), payload.get("winner"), owners.get(payload.get("fighter") or "")}
    named.update(payload.get("participants") or [])
    return {w for w in named if isinstance(w, str) and w}


def _transactions(log: list[dict[str, Any]], owners: dict[str, str], names: Collection[str],
                  ruleset: rulesets.Ruleset) -> list[Transaction]:
    grouped: dict[int, Transaction] = {}
    for row in log:
        tx = grouped.get(row["tx"])
        if tx is None:
            void = None
            if row["voided_by"] is not None:
                void = {"voided_by": row["voided_by"], "voided_by_actor": row["voided_by_actor"],
                        "voided_at": row["voided_at"], "reason": row["void_reason"]}
            tx = grouped[row["tx"]] = Transaction(row["tx"], None, "", "", row["actor"], row["recorded_at"], [], void)
        if row["event_type"] != "command.recorded":
            tx.warbands |= concerns(row["payload"], owners)
        if row["event_type"] == "command.recorded":
            # Worded here, not as the log row ('coreheim.hire (reason)'): the log keeps the tag recorded.
            opened = row["payload"]
            tx.reason = opened.get("reason") or ""
            tx.typed = rulesets.typed_command(ruleset, opened["command"], opened.get("args") or {})
            tx.untyped = rulesets.UNTYPED.get(opened["command"], "")
        elif row["description"]:
            tx.lines.append(_line(row, names))
    return list(grouped.values())


def _battle_summary(battle: dict[str, Any], names: dict[str, str], ratings: Ratings, words: BattleWords,
                    owners: dict[str, str]) -> BattleSummary:
    before = battle["position"] - 1
    sides = [{"name": names.get(w, w), "rating": ratings.at(w, before)} for w in battle["participants"]]
    rated = [s["rating"] for s in sides if s["rating"] is not None]
    deeds = battle_deed_lines(battle, names, words, owners)
    void = None
    if battle["voided_by"] is not None:
        void = {"voided_by": battle["voided_by"]}
    return BattleSummary(
        number=battle["battle"],
        tx=battle["tx"],
        scenario=words.named("scenario", battle["scenario"]),
        participants=battle["participants"],
        sides=sides,
        winner=names.get(battle["winner"], battle["winner"]) if battle["winner"] else None,
        gap=max(rated) - min(rated) if len(rated) == len(sides) and len(rated) > 1 else None,
        deeds=deeds,
        voided=void,
    )


def chapters(
    rows: Rows, marks: list[Mark], views: dict[int, int | None], names: dict[str, str], ratings: Ratings,
    owners: dict[str, str], battle_words: BattleWords, ruleset: rulesets.Ruleset,
) -> list[Chapter]:
    """The muster, then each battle with what followed it; a transaction goes to the chapter of the
    battle whose view holds it (`views`: `battle_views`; a voided battle stays where it was recorded,
    struck through). `owners` maps each fighter to its warband, to tell which warbands a transaction
    concerns and to tell a battle's deeds warband by warband; `battle_words` how its battles' deeds and scenarios are named;
    `ruleset` how a player types its commands."""
    log = table_dicts(rows, LOG)
    battles = table_dicts(rows, BATTLES)
    if not log:
        return []
    rows_of: dict[int | None, list[dict[str, Any]]] = {}
    for row in log:
        rows_of.setdefault(views[row["tx"]], []).append(row)
    typed = typed_names(log)
    ends = [(m.battle, m.position) for m in marks] or [(None, log[-1]["position"])]  # no battle: all is the muster
    by_position = {row["position"]: row for row in log}
    result: list[Chapter] = []
    for number, end in ends:
        rows_in = rows_of.get(number, [])
        if not rows_in:
            continue
        txs = {row["tx"] for row in rows_in}
        result.append(
            Chapter(
                title="Before the first battle" if number is None else f"Battle {number}",
                battles=[_battle_summary(b, names, ratings, battle_words, owners) for b in battles if b["tx"] in txs],
                transactions=_transactions(rows_in, owners, typed, ruleset),
                head=by_position[end]["hash"],
                head_label="before the first battle" if number is None else f"after battle {number}",
            )
        )
    return result
