"""Read-model rows computed from records alone (no SQL): values worked out by hand."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest

from commands.shared import AwardXP, BareRoll, EnlistWarband, RecordBattle, RecruitFighter
from ledger import audit
from ledger import events as ev
from ledger.campaigns import Ledger, apply_record, fold, transactions, voids_in
from ledger.describe import describe
from ledger.records import Record, canonical
from ledger import rulesets
from ledger.state import (ONE_WARBAND_EVENTS, UNRATED_EVENTS, CampaignState, decode_state, encode_state, evolve,
                          warbands_changed)
from ledger.store import Store
from ledger.testing import CampaignRunner
from projections import tables
from projections.history import void_annotations
from projections.tables import WARBANDS, all_rows, current_rows, transaction_rows

T = "2026-11-29T12:00:00.000000Z"  # the fixed clock of tests/conftest.py


@dataclass
class League:
    ledger: Ledger
    id: uuid.UUID

    def execute(self, command) -> None:
        self.ledger.execute(self.id, command, actor="Ann")

    def records(self) -> list[Record]:
        return self.ledger.history(self.id)


def start(clock, ruleset: str) -> League:
    ledger = Ledger(Store("memory://"), clock=clock)
    started = ledger.start("Test League", ruleset, {}, actor="Ann")  # T1: positions 1-4
    return League(ledger, uuid.UUID(started.state.campaign_id))


@pytest.fixture
def gunnar(rated_ruleset, clock) -> League:
    """rated-test: Reikland Rats (T2, 100 gold), Gunnar hired for 40 (T3), Gunnar gains 3 XP (T4)."""
    league = start(clock, rated_ruleset.id)
    league.execute(EnlistWarband(name="Reikland Rats", player="Ann", treasury=100))  # positions 5-6
    league.execute(RecruitFighter(warband="Reikland Rats", name="Gunnar", role="leader", cost=40,
                                  stats={"WS": 4, "BS": 3}))  # positions 7-9
    league.execute(AwardXP(fighter="Gunnar", amount=3, reason="survived"))  # positions 10-11
    return league


def test_current_rows_hold_the_roster_with_lists_and_tables_as_sorted_json(gunnar):
    state, rows = all_rows(gunnar.records())
    cid = str(gunnar.id)
    assert rows["rm_campaigns"] == [
        (cid, "Test League", "rated-test", "1", "{}", 11, 4, "[]", 1, 0, state.head),
    ]
    assert rows["rm_warbands"] == [
        # treasury 100 - 40; rating 40 (cost) + 3 (XP); 1 active fighter
        (cid, "reikland-rats", 1, "Reikland Rats", "Ann", "", 60, "[]", 0, 0, 43, 1, "{}"),
    ]
    assert rows["rm_fighters"] == [
        (cid, "gunnar", "reikland-rats", 1, "Gunnar", "leader", "active", 1, 3, '{"BS":3,"WS":4}',
         "[]", "[]", "[]", "[]", 40, 0, 0, "{}"),
    ]
    assert current_rows(state) == {name: rows[name] for name in ("rm_campaigns", "rm_warbands", "rm_fighters")}


def test_a_rating_row_is_written_after_each_transaction_that_changes_the_rating(gunnar):
    _state, rows = all_rows(gunnar.records())
    cid = str(gunnar.id)
    assert rows["rm_ratings"] == [
        (cid, "reikland-rats", 2, 6, T, 0, 0),  # enlisted: nobody yet
        (cid, "reikland-rats", 3, 9, T, 0, 40),  # Gunnar's cost
        (cid, "reikland-rats", 4, 11, T, 0, 43),  # and his 3 XP
    ]


def test_the_log_describes_every_record_with_its_payload_as_json(gunnar):
    records = gunnar.records()
    _state, rows = all_rows(records)
    assert [row[:7] for row in rows["rm_log"][-2:]] == [
        (str(gunnar.id), 10, 4, "command.recorded", "Ann", T, "xp.award"),
        (str(gunnar.id), 11, 4, "xp.awarded", "Ann", T, "Gunnar gains 3 XP (survived)"),
    ]
    assert rows["rm_log"][-1][7:] == (
        '{"amount":3,"fighter":"gunnar","reason":"survived","warband":"reikland-rats"}',
        records[-1].hash, None, None, None, None,
    )


@pytest.mark.parametrize("event, said", [
    # rows of format 2: XP taken back is lost, not "gained -1"; a capture says why, as a death does
    (ev.XPAwarded(warband="reikland-rats", fighter="gunnar", amount=-1, reason="miscounted"), "Gunnar loses 1 XP (miscounted)"),
    (ev.XPAwarded(warband="reikland-rats", fighter="gunnar", amount=0, reason="a draw"), "Gunnar gains 0 XP (a draw)"),
    (ev.FighterCaptured(warband="reikland-rats", fighter="gunnar", reason="arbiter's correction"),
     "Gunnar is captured (arbiter's correction)"),
    (ev.FighterCaptured(warband="reikland-rats", fighter="gunnar"), "Gunnar is captured"),
    # rows of format 3: a recorded reason stands in parentheses, for every event ("is dead: serious injury: Dead"
    # and "T2 voided too: no longer follows once T1 is voided: …" doubled the colon)
    (ev.FighterDied(warband="reikland-rats", fighter="gunnar", reason="serious injury: Dead"),
     "Gunnar is dead (serious injury: Dead)"),
    (ev.FighterRetired(warband="reikland-rats", fighter="gunnar", reason="left: upkeep not paid"),
     "Gunnar retires (left: upkeep not paid)"),
    (ev.TreasuryChanged(warband="reikland-rats", delta=-25, reason="XP: Advancement roll for Hans"),
     "Reikland Rats treasury -25 (XP: Advancement roll for Hans)"),
    (ev.StatChanged(warband="reikland-rats", fighter="gunnar", stat="I", delta=1, reason="serious injury: Melancholia"),
     "Gunnar I +1 (serious injury: Melancholia)"),
    (ev.TransactionVoided(target=3, reason="no longer follows once T2 is voided: no fighter 'gunnar'", because_of=2),
     "T3 voided too (no longer follows once T2 is voided: no fighter 'gunnar')"),
    # a cap is said before the reason, not as a second parenthesis ("gains 7 XP (capped from 9): survived")
    (ev.XPAwarded(warband="reikland-rats", fighter="gunnar", amount=7, requested=9, reason="survived"),
     "Gunnar gains 7 XP, capped from 9 (survived)"),
    (ev.BattleRecorded(battle=1, participants=["reikland-rats"], scenario="Skirmish"),
     "battle 1 (Skirmish): Reikland Rats, a draw"),  # no tables naming scenarios: as recorded
])
def test_the_log_words_each_event_as_people_say_it(gunnar, event, said):
    state, _rows = all_rows(gunnar.records())
    assert describe(event, state) == said


def test_a_void_annotates_the_log_and_takes_the_voided_effects_out_of_every_table(gunnar):
    gunnar.ledger.void(gunnar.id, "T4", reason="miscounted", actor="Bob")  # T5: positions 12-13
    state, rows = all_rows(gunnar.records())
    cid = str(gunnar.id)
    assert [row[8:] for row in rows["rm_log"] if row[2] == 4] == [
        (h, 5, "Bob", T, "miscounted") for h in (r.hash for r in gunnar.records() if r.tx == 4)
    ]
    assert rows["rm_fighter_history"] == [
        (cid, "gunnar", 8, 3, "subject", None),
        (cid, "gunnar", 11, 4, "subject", 5),
    ]
    assert [row[-2:] for row in rows["rm_ratings"]] == [(0, 0), (0, 40)]  # no 43 any more
    assert rows["rm_fighters"][0][8] == 0  # XP
    assert rows["rm_campaigns"][0][5:8] == (13, 5, "[4]")


def test_a_voided_transaction_names_a_warband_and_fighter_no_longer_there_by_their_names(gunnar):
    """Rows are described with the state just after their transaction, voided ones left out: a recruit
    into a warband whose enlistment was voided read "Snikch, leader, joins clan-skrittle" (its id)."""
    gunnar.execute(EnlistWarband(name="Clan Skrittle", player="Bob", treasury=100))  # T5: 12-13
    gunnar.execute(RecruitFighter(warband="Clan Skrittle", name="Snikch", role="leader", cost=30))  # T6: 14-16
    gunnar.execute(AwardXP(fighter="Snikch", amount=2, reason="survived"))  # T7: 17-18
    gunnar.ledger.void(gunnar.id, "T5", reason="enlisted twice", actor="Bob", cascade=True)  # T8: 19-22
    records = gunnar.records()
    lines = [(row[1], row[6]) for row in all_rows(records)[1]["rm_log"] if row[2] in (6, 7)]
    assert lines == [(14, "fighter.recruit"), (15, "Snikch, leader, joins Clan Skrittle"),
                     (16, "Clan Skrittle treasury -30 (recruited Snikch)"), (17, "xp.award"), (18, "Snikch gains 2 XP (survived)")]


def test_a_battle_row_and_who_fought_or_was_taken_out(gunnar):
    gunnar.execute(EnlistWarband(name="Clan Skrittle", player="Bob", treasury=100))  # T5: 12-13
    gunnar.execute(RecruitFighter(warband="Clan Skrittle", name="Snikch", role="leader", cost=30))  # T6: 14-16
    gunnar.execute(RecordBattle(participants=["Reikland Rats", "Clan Skrittle"], winner="Reikland Rats",
                                scenario="Skirmish",
                                deeds=[ev.Deed(fighter="Gunnar", took_out=["Snikch", "Rat Ogre"])]))  # T7: 17-18
    _state, rows = all_rows(gunnar.records())
    cid = str(gunnar.id)
    assert rows["rm_battles"] == [
        (cid, 18, 7, 1, T, "Ann", "Skirmish", '["reikland-rats","clan-skrittle"]', "reikland-rats",
         '[{"fighter":"gunnar","glorious_deeds":[],"notes":"","out_of_action":false,"took_out":["snikch","Rat Ogre"]}]',
         None),
    ]
    # The untracked Rat Ogre has no history; Snikch's battle is one he was taken out in.
    assert [row[1:5] for row in rows["rm_fighter_history"]] == [
        ("gunnar", 8, 3, "subject"),
        ("gunnar", 11, 4, "subject"),
        ("snikch", 15, 6, "subject"),
        ("gunnar", 18, 7, "fought"),
        ("snikch", 18, 7, "taken out"),
    ]
    assert rows["rm_log"][-1][6] == "battle 1 (Skirmish): Reikland Rats vs Clan Skrittle, won by Reikland Rats"
    # Battles do not change this rating, so the battle wrote no rating row; Skrittle's came with it.
    assert [row[1:4] + row[5:] for row in rows["rm_ratings"][3:]] == [
        ("clan-skrittle", 5, 13, 0, 0),
        ("clan-skrittle", 6, 16, 0, 30),
    ]
    assert [(row[1], row[8], row[9]) for row in rows["rm_warbands"]] == [("reikland-rats", 1, 1), ("clan-skrittle", 1, 0)]


def test_a_ruleset_without_a_rating_has_no_rating_rows_and_a_null_rating(clock):
    league = start(clock, "freeform")
    league.execute(EnlistWarband(name="Reikland Rats", player="Ann", treasury=100))
    _state, rows = all_rows(league.records())
    assert rows["rm_ratings"] == []
    assert rows["rm_warbands"][0][10] is None


def test_appending_each_transaction_gives_what_a_full_computation_gives(gunnar):
    """What the commit hook does for a plain command, transaction by transaction, against all_rows."""
    gunnar.execute(RecruitFighter(warband="Reikland Rats", name="Hans", role="henchman", cost=10, group_size=2))
    records = gunnar.records()
    kept: dict[str, list] = {}
    rating = WARBANDS.column_names.index("rating")
    for group in transactions(records):
        state = fold(records[: group[-1].position])
        ratings = {row[1]: row[rating] for row in kept.get("rm_warbands", [])}
        appended = transaction_rows(group, state, {}, ratings)
        kept = {**{name: kept.get(name, []) + rows for name, rows in appended.items()}, **current_rows(state)}
        assert kept == all_rows(records[: group[-1].position])[1], f"after T{group[0].tx}"
    assert kept["rm_ratings"][-1][-1] == 40 + 3 + 10 * 2


def test_json_text_writes_the_bytes_of_json_dumps_for_every_value_of_every_sample_campaign(tmp_path, monkeypatch):
    """The JSON columns are documented as json.dumps(…, sort_keys=True, separators=(",", ":"),
    ensure_ascii=False); json_text writes them with msgspec. Every value of every row of each
    ruleset's sample campaign, and keys msgspec cannot sort (numbers), give the same text."""
    url = "sqlite:///" + str(tmp_path / "demo.db")
    assert CampaignRunner(url)("demo").exit_code == 0
    values = []
    real = tables.json_text
    monkeypatch.setattr(tables, "json_text", lambda value: values.append(value) or real(value))
    store = Store(url)
    try:
        for cid in store.campaign_ids():
            all_rows(list(store.records(cid)))
    finally:
        store.close()
    monkeypatch.undo()
    values += [{10: "ten", 9: "nine"}, {"é": ["\u2028", "\x00", "😀"], "a": None, "b": True}]

    assert len(values) > 1000  # the sample campaigns were read
    assert [v for v in values if tables.json_text(v) != json.dumps(v, sort_keys=True, separators=(",", ":"),
                                                                    ensure_ascii=False)] == []


GOLDEN = sorted((Path(__file__).parents[1] / "golden").glob("*.jsonl"))


@pytest.mark.parametrize("trail", GOLDEN, ids=lambda path: path.stem)
def test_ratings_not_computed_again_are_those_a_computation_of_each_gives(trail, monkeypatch):
    """A transaction of dice, cards, seeds or notes alone, or a voided one, changes no warband, and
    one of XP or items one warband alone: the others' ratings are not computed again; one that
    changes treasuries or post-game steps alone (UNRATED_EVENTS) changes no rating. Every golden
    trail (every ruleset, voids, rerolls, decks) gives the rows it gives when every warband's rating
    is computed after every transaction."""
    records = list(audit.read_trail(trail.read_bytes(), void_annotations).records)
    skipping = all_rows(records)
    monkeypatch.setattr(tables, "warbands_changed", lambda group, after, voided=False, ignoring=frozenset(): None)
    assert all_rows(records) == skipping


def _rated(trail: Path) -> bool:
    return rulesets.get(audit.read_trail(trail.read_bytes(), void_annotations).ruleset["id"]).rating is not None


RATED_GOLDEN = [trail for trail in GOLDEN if _rated(trail)]


@pytest.mark.parametrize("trail", RATED_GOLDEN, ids=lambda path: path.stem)
def test_a_rating_reads_neither_the_treasury_nor_the_post_game_steps(trail):
    """UNRATED_EVENTS change no rating (commands/README.md), which lets the read models leave the
    ratings after a transaction of those alone: after every transaction of every golden trail of a
    ruleset with a rating, each warband's rating is the same once a treasury change and a post-game
    step of it are folded in."""
    chain = audit.read_trail(trail.read_bytes(), void_annotations)
    ruleset, records = rulesets.get(chain.ruleset["id"]), list(chain.records)
    voided, state, compared = voids_in(records), CampaignState(), 0
    for group in transactions(records):
        for record in group:
            apply_record(state, record, record.tx in voided)
        for warband in list(state.warbands):
            as_rated = ruleset.rating(state, warband)
            changed = decode_state(encode_state(state))
            for event in (ev.TreasuryChanged(warband=warband, delta=7, reason="test"),
                          ev.PostGameStepDone(warband=warband, battle=changed.battles_fought + 1, step="test")):
                assert type(event) in UNRATED_EVENTS
                evolve(changed, event)
            assert ruleset.rating(changed, warband) == as_rated
            compared += 1
    assert compared > 0


@pytest.mark.parametrize("trail", GOLDEN, ids=lambda path: path.stem)
@pytest.mark.parametrize("named", [False, True], ids=["compared", "named"])
def test_current_rows_kept_from_the_transaction_before_are_those_computed_afresh(trail, named):
    """A command computes the rows of the warbands whose inputs changed and keeps the others'
    (`current_rows_of` given the rows after the transaction before, and where `named`, the
    warbands it changed, `warbands_changed`): after every transaction of every golden trail (every
    ruleset, voids, rerolls, decks), exactly the rows computed afresh."""
    records = list(audit.read_trail(trail.read_bytes(), void_annotations).records)
    voided = voids_in(records)
    state, kept, reused = CampaignState(), None, 0
    for group in transactions(records):
        for record in group:
            apply_record(state, record, record.tx in voided)
        changed = warbands_changed(group, state, group[0].tx in voided) if named else None
        computed = tables.current_rows_of(state, kept, changed)
        assert computed.rows() == current_rows(state)
        reused += sum(kept is not None and band is kept.warbands.get(warband) for warband, band in computed.warbands.items())
        kept = computed
    if trail.stem.startswith("demo-"):  # each ruleset's demo has commands that leave a warband as it was
        assert reused > 0


def test_a_transaction_of_dice_alone_changes_no_roster_and_a_voided_one_none(gunnar):
    gunnar.execute(BareRoll(expression="D6", purpose="weather"))
    records = gunnar.records()
    roll, award = transactions(records)[-1], transactions(records)[-2]
    assert [type(r.event) for r in roll] == [ev.CommandRecorded, ev.DiceRolled]
    state, _rows = all_rows(records)
    assert (warbands_changed(roll, state), warbands_changed(award, state),
            warbands_changed(award, state, voided=True)) == (set(), {state.fighters["gunnar"].warband}, set())


RATING_ROW = dict(campaign_id="c", warband="rats", tx=3, position=7, recorded_at=T, games=1, rating=52)


def test_a_row_is_its_values_in_column_order_with_lists_and_tables_as_json_text():
    assert tables.RATINGS.row(**RATING_ROW) == ("c", "rats", 3, 7, T, 1, 52)
    assert tables.FIGHTER_HISTORY.row(campaign_id="c", fighter="gunnar", position=7, tx=3, involvement="xp",
                                      voided_by=None) == ("c", "gunnar", 7, 3, "xp", None)
    row = tables.BATTLES.row(campaign_id="c", position=7, tx=3, battle=1, recorded_at=T, actor="Ann", scenario="Skirmish",
                             participants=["rats", "skaven"], winner="rats", deeds=[{"fighter": "g", "ooa": 2}],
                             voided_by=None)
    assert row == ("c", 7, 3, 1, T, "Ann", "Skirmish", '["rats","skaven"]', "rats", '[{"fighter":"g","ooa":2}]', None)


@pytest.mark.parametrize("values, problem", [
    ({k: v for k, v in RATING_ROW.items() if k != "games"}, "missing 1 required keyword-only argument: 'games'"),
    ({**RATING_ROW, "xp": 5}, "got an unexpected keyword argument 'xp'"),  # a column the table does not have
    ({**{k: v for k, v in RATING_ROW.items() if k != "games"}, "xp": 5}, "got an unexpected keyword argument 'xp'"),
])
def test_a_row_without_exactly_its_tables_columns_is_refused(values, problem):
    with pytest.raises(TypeError) as refused:
        tables.RATINGS.row(**values)
    assert str(refused.value) == f"rm_ratings_row() {problem}"


def two_warbands() -> CampaignState:
    """Rats (Gunnar, Hilde) and Skaven (Snikch): the state the cases below fold one event into."""
    state = CampaignState(campaign_id="c", position=9, transactions=4)  # shared events alone: no ruleset
    for event in (ev.WarbandEnlisted(warband="rats", name="Rats", player="Ann", treasury=100),
                  ev.WarbandEnlisted(warband="skaven", name="Skaven", player="Bo", treasury=80),
                  ev.FighterRecruited(warband="rats", fighter="gunnar", name="Gunnar", role="leader"),
                  ev.FighterRecruited(warband="rats", fighter="hilde", name="Hilde", role="hero"),
                  ev.FighterRecruited(warband="skaven", fighter="snikch", name="Snikch", role="leader")):
        fold([Record(position=0, tx=0, actor="a", recorded_at=T, prev_hash="", hash="", event=event)], state)
    return state


ONE_WARBAND_CASES = [  # the event, and the warband whose roster it changes
    (ev.FighterRenamed(warband="rats", fighter="gunnar", name="Gunnar the Bold", was="Gunnar"), "rats"),
    (ev.XPAwarded(warband="rats", fighter="hilde", amount=2, reason="survived"), "rats"),
    (ev.XPSpent(warband="skaven", fighter="snikch", amount=1, on="advance"), "skaven"),
    (ev.StatChanged(warband="rats", fighter="gunnar", stat="WS", delta=1, reason="advance"), "rats"),
    (ev.SkillLearned(warband="rats", fighter="gunnar", skill="Step Aside"), "rats"),
    (ev.KeywordGained(warband="rats", fighter="gunnar", keyword="elite"), "rats"),
    (ev.KeywordLost(warband="rats", fighter="gunnar", keyword="elite"), "rats"),
    (ev.InjurySuffered(warband="skaven", fighter="snikch", injury="Leg Wound", missed_games=1), "skaven"),
    (ev.FighterDied(warband="rats", fighter="hilde"), "rats"),
    (ev.FighterCaptured(warband="rats", fighter="hilde"), "rats"),
    (ev.FighterRetired(warband="rats", fighter="hilde"), "rats"),
    (ev.FighterPromoted(warband="skaven", fighter="snikch", role="hero"), "skaven"),
    (ev.ItemGained(warband="rats", fighter="gunnar", item="sword"), "rats"),
    (ev.ItemGained(warband="skaven", item="warpstone"), "skaven"),  # to the stash
    (ev.ItemLost(warband="rats", item="rope"), "rats"),
    (ev.TreasuryChanged(warband="skaven", delta=-5, reason="upkeep"), "skaven"),
    (ev.PostGameStepDone(warband="rats", battle=1, step="exploration"), "rats"),
    # The fighter's warband, not the one the event names (folding acts on the fighter).
    (ev.XPAwarded(warband="skaven", fighter="gunnar", amount=1, reason="mislabelled"), "rats"),
]


@pytest.mark.parametrize("event, warband", ONE_WARBAND_CASES, ids=[type(e).__name__ for e, _w in ONE_WARBAND_CASES])
def test_an_event_about_one_fighter_or_warband_changes_that_warband_alone(event, warband):
    """Given two warbands, when one event of `ONE_WARBAND_EVENTS` is folded (after its command and a
    roll), then `warbands_changed` names its warband, and folding it changed nothing else: neither
    the other warband and its fighters nor anything campaign-wide (what a warband's rows read)."""
    state = two_warbands()
    group = [Record(position=10 + i, tx=5, actor="a", recorded_at=T, prev_hash="", hash="", event=e) for i, e in
             enumerate([ev.CommandRecorded(command="test"), ev.DiceRolled(roll=0, expression="D6", purpose="p",
                                                                        faces=[3], value=3, source="table"), event])]
    before = state.copy()
    fold(group[2:], state)
    assert warbands_changed(group, state) == {warband}
    others = [w for w in state.warbands if w != warband]
    assert others and all(msgspec.json.encode((state.warbands[w], state.fighters_of(w, active_only=False))) ==
                          msgspec.json.encode((before.warbands[w], before.fighters_of(w, active_only=False)))
                          for w in others)
    assert tables.shared_inputs(state) == tables.shared_inputs(before)


def test_every_one_warband_event_has_a_case():
    assert {type(event) for event, _warband in ONE_WARBAND_CASES} == set(ONE_WARBAND_EVENTS)


@pytest.mark.parametrize("event, changed", [
    (ev.XPAwarded(warband="rats", fighter="nobody", amount=1, reason="r"), set()),  # folding it changed nothing
    (ev.BattleRecorded(battle=1, participants=["rats", "skaven"], winner="rats", scenario="Skirmish"), None),
    (ev.FighterRecruited(warband="rats", fighter="snikch", name="Snikch II", role="hero"), None),  # takes an id in use
    (ev.DiceRolled(roll=0, expression="D6", purpose="p", faces=[3], value=3, source="table"), set()),
])
def test_other_events_name_no_warband_or_every_one(event, changed):
    state = two_warbands()
    group = [Record(position=10, tx=5, actor="a", recorded_at=T, prev_hash="", hash="", event=event)]
    fold(group, state)
    assert warbands_changed(group, state) == changed
    assert warbands_changed(group, state, voided=True) == set()


def test_a_transaction_that_rolls_keeps_the_rows_of_the_warbands_it_did_not_change(gunnar, monkeypatch):
    """Dice change the ledger's bookkeeping (the roll numbers), which no row reads: an XP award
    decided with a roll computes its fighter's warband's rows again and keeps the other's, which
    are not even compared once the transaction names the warband it changed."""
    gunnar.execute(EnlistWarband(name="Skaven", player="Bo", treasury=80))
    state, _rows = all_rows(gunnar.records())
    kept = tables.current_rows_of(state)
    rats = next(w for w, band in state.warbands.items() if band.name == "Reikland Rats")
    skaven = next(w for w in state.warbands if w != rats)
    fighter = state.fighters_of(rats)[0].id
    last = gunnar.records()[-1]
    group = [Record(position=last.position + i + 1, tx=last.tx + 1, actor="Ann", recorded_at=T, prev_hash="", hash="",
                    event=event) for i, event in enumerate([
                        ev.CommandRecorded(command="test"),
                        ev.DiceRolled(roll=state.rolls, expression="2D6", purpose="advance", faces=[3, 4], value=7,
                                      source="table"),
                        ev.XPAwarded(warband=rats, fighter=fighter, amount=1, reason="advance")])]
    fold(group, state)
    computed = tables.current_rows_of(state, kept)
    assert computed.rows() == current_rows(state)
    assert computed.warbands[skaven] is kept.warbands[skaven]
    assert computed.warbands[rats] is not kept.warbands[rats]
    fresh, compared, real = current_rows(state), [], tables._warband_rows
    monkeypatch.setattr(tables, "_warband_rows", lambda state, seq, warband, *rest: compared.append(warband) or
                        real(state, seq, warband, *rest))
    named = tables.current_rows_of(state, kept, warbands_changed(group, state))
    assert (named.rows(), compared) == (fresh, [rats])
    assert named.warbands[skaven] is kept.warbands[skaven]


def test_a_transaction_naming_the_warbands_it_changed_takes_the_campaign_wide_inputs_of_the_rows_before(
        gunnar, monkeypatch):
    """Nothing campaign-wide changed (`warbands_changed` names the warbands that did): the rows
    before it were computed from the same campaign-wide inputs, which are not encoded again (a
    ruleset's facts among them grow with the campaign)."""
    state, _rows = all_rows(gunnar.records())
    kept = tables.current_rows_of(state)
    rats = next(iter(state.warbands))
    last = gunnar.records()[-1]
    group = [Record(position=last.position + 1, tx=last.tx + 1, actor="Ann", recorded_at=T, prev_hash="", hash="",
                    event=ev.XPAwarded(warband=rats, fighter="gunnar", amount=1, reason="survived"))]
    fold(group, state)
    fresh = current_rows(state)
    monkeypatch.setattr(tables, "shared_inputs", lambda state: pytest.fail("the campaign-wide inputs were encoded again"))
    named = tables.current_rows_of(state, kept, warbands_changed(group, state))
    assert named.rows() == fresh
    assert named.shared is kept.shared


def test_a_warbands_ext_is_written_again_only_where_it_changed(gunnar, monkeypatch):
    """A long campaign's ext is long (coreheim's holds a warband's rating at every battle): a command
    about a fighter writes the fighter's warband's row again, but not its ext where that is the same,
    down to each value's type (1 is not true)."""
    state, _rows = all_rows(gunnar.records())
    rats = next(iter(state.warbands))
    ratings = {str(battle): 100 + battle for battle in range(1, 300)}
    state.warbands[rats].ext = {"ratings": ratings, "flag": 1}
    kept = tables.current_rows_of(state)
    written: list = []
    monkeypatch.setattr(tables, "json_text", lambda value: written.append(value) or canonical(value).decode())
    fold([Record(position=99, tx=9, actor="Ann", recorded_at=T, prev_hash="", hash="",
                 event=ev.XPAwarded(warband=rats, fighter="gunnar", amount=1, reason="survived"))], state)
    after_xp = tables.current_rows_of(state, kept, {rats})
    assert state.warbands[rats].ext not in written  # its ext's text is the kept row's
    assert after_xp.rows() == current_rows(state)
    assert after_xp.warbands[rats].warband != kept.warbands[rats].warband  # its rating and XP moved on
    state.warbands[rats].ext = {"ratings": ratings, "flag": True}
    written.clear()
    flagged = tables.current_rows_of(state, after_xp, {rats})
    assert {"ratings": ratings, "flag": True} in written
    assert flagged.rows() == current_rows(state)
    assert flagged.warbands[rats].warband[-1].startswith('{"flag":true,"ratings":{"1":101,"10":110,"100":200,')
