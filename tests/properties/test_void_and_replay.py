"""Whatever a freeform campaign goes through — commands, refusals, voids with and without cascade,
rerolls — loading it gives the fold of exactly its live events, replay agrees, `check` finds
nothing to report, and an exported trail imports as the same campaign.

The expected state is computed here independently of the ledger's fold: collect the voided
transactions from the transaction.voided events and fold, with `ledger.state.evolve`, only the
events of the other transactions. The ledger's bookkeeping (position, transactions, head, the
roll counter, which count voided events too) is compared on its own terms.
"""

from __future__ import annotations

import uuid
from contextlib import nullcontext
from unittest import mock

import msgspec
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from commands.shared import (
    AwardXP,
    BareDraw,
    BareRoll,
    ChangeTreasury,
    EnlistWarband,
    GainItem,
    LoseItem,
    RecordBattle,
    RecruitFighter,
    SpendXP,
)
from ledger import audit, campaigns
from ledger import events as ev
from ledger.campaigns import Ledger, is_ledger_transaction, transactions
from ledger.decide import TableDice
from ledger.errors import BadInput, Conflict, NotFound, RuleViolation
from ledger.state import CampaignState, evolve
from ledger.store import Store
from projections.history import void_annotations

WARBANDS = ["Reikland Rats", "Clan Skrittle", "Sisters of Sigmar"]
FIGHTERS = ["Gunnar", "Ilse", "Snikch"]  # the same name may serve in two warbands
ITEMS = ["sword", "lantern"]
# Every expression a bare roll uses here is typed as D6 faces (D3 too: it is a D6 halved up).
DICE = {"D6": 1, "2D6": 2, "D3": 1, "D66": 2, "3D6 keep 2 highest": 3}
pick = st.integers(0, 10_000)  # an index into whatever the campaign has at the time
faces = st.lists(st.integers(1, 6), min_size=3, max_size=3)


def live_fold(records) -> CampaignState:
    voided = {r.event.target for r in records if isinstance(r.event, ev.TransactionVoided)}
    state = CampaignState()
    for record in records:
        if record.tx not in voided:
            state.current_tx = record.tx  # a battle remembers the transaction it came from
            evolve(state, record.event)
    return state


def domain(state: CampaignState) -> CampaignState:
    """The state without the ledger's counters of all (live and voided) events."""
    return msgspec.structs.replace(state, position=0, transactions=0, rolls=0, head="", current_tx=0)


class FreeformCampaign(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.store = Store("memory://")
        self.ledger = Ledger(self.store, clock=lambda: "2026-11-29T12:00:00.000000Z")
        self.id = uuid.UUID(self.ledger.start("Prop League", "freeform", {}, actor="Ann").state.campaign_id)

    def teardown(self) -> None:
        self.store.close()

    # --- helpers -------------------------------------------------------------------------------------

    def state(self) -> CampaignState:
        return self.ledger.load(self.id)

    def attempt(self, command, dice: list[int] | None = None) -> None:
        """Run a command; a refusal by the rules must leave the history exactly as it was."""
        before = self.ledger.history(self.id)
        try:
            self.ledger.execute(self.id, command, actor="Ann", dice=TableDice(dice) if dice is not None else None)
        except (RuleViolation, NotFound, BadInput):
            event("command refused")
            assert self.ledger.history(self.id) == before
        else:
            event("command stored")

    def warband(self, n: int) -> str:
        bands = list(self.state().warbands.values())
        return bands[n % len(bands)].name if bands else "Nobody's Band"

    def fighter(self, n: int) -> tuple[str, str]:
        """(warband id, fighter id) of some fighter, dead or alive (the rules refuse the dead)."""
        fighters = list(self.state().fighters.values())
        chosen = fighters[n % len(fighters)] if fighters else None
        return (chosen.warband, chosen.id) if chosen else ("nobody", "nobody")

    # --- commands ------------------------------------------------------------------------------------

    @rule(name=st.sampled_from(WARBANDS), treasury=st.integers(0, 60))
    def enlist(self, name, treasury):
        self.attempt(EnlistWarband(name=name, player="Ann", treasury=treasury))

    @rule(band=pick, name=st.sampled_from(FIGHTERS), cost=st.integers(0, 30), paid=st.booleans())
    def recruit(self, band, name, cost, paid):
        self.attempt(RecruitFighter(warband=self.warband(band), name=name, role="hero", cost=cost, paid=paid))

    @rule(who=pick, amount=st.integers(1, 5))
    def award_xp(self, who, amount):
        band, fighter = self.fighter(who)
        self.attempt(AwardXP(fighter=fighter, warband=band, amount=amount, reason="survived"))

    @rule(who=pick, amount=st.integers(1, 8))
    def spend_xp(self, who, amount):
        band, fighter = self.fighter(who)
        self.attempt(SpendXP(fighter=fighter, warband=band, amount=amount, on="an advance"))

    @rule(band=pick, delta=st.integers(-40, 40).filter(bool))
    def change_treasury(self, band, delta):
        self.attempt(ChangeTreasury(warband=self.warband(band), delta=delta, reason="trading"))

    @rule(expression=st.sampled_from(sorted(DICE)), typed=faces)
    def bare_roll(self, expression, typed):
        self.attempt(BareRoll(expression=expression, purpose="bare"), dice=typed[: DICE[expression]])

    @rule()
    def draw_a_card(self):
        self.attempt(BareDraw(deck="cards", purpose="event card"))

    @rule(who=pick, item=st.sampled_from(ITEMS), to_stash=st.booleans(), gained=st.booleans())
    def item(self, who, item, to_stash, gained):
        band, fighter = self.fighter(who)
        kind = GainItem if gained else LoseItem
        self.attempt(kind(warband=band, fighter=None if to_stash else fighter, item=item))

    @rule(first=pick, second=pick, won=st.booleans())
    def battle(self, first, second, won):
        sides = sorted({self.warband(first), self.warband(second)})
        self.attempt(RecordBattle(participants=sides, winner=sides[0] if won else None))

    # --- undo ----------------------------------------------------------------------------------------

    @rule(which=pick, cascade=st.booleans(), anywhere=st.sampled_from([False, False, False, True]), crash=st.booleans())
    def void(self, which, cascade, anywhere, crash):
        """Void a live command's transaction, or (anywhere) any transaction at all. With `crash`,
        the snapshot the void takes is lost, as when the process dies right after its commit."""
        records = self.ledger.history(self.id)
        voided = {r.event.target for r in records if isinstance(r.event, ev.TransactionVoided)}
        groups = [g for g in transactions(records) if anywhere or not (is_ledger_transaction(g) or g[0].tx in voided)]
        if not groups:
            return
        group = groups[which % len(groups)]
        tx = group[0].tx
        lose_snapshot = mock.patch.object(self.store, "save_snapshot", lambda *snapshot: None) if crash else nullcontext()
        try:
            with lose_snapshot:
                outcome = self.ledger.void(self.id, f"T{tx}", reason="disputed", actor="Ann", cascade=cascade)
        except (RuleViolation, BadInput) as refusal:
            event("void refused: a ledger transaction or already voided")
            assert is_ledger_transaction(group) or tx in voided
            expected = "belongs to the ledger itself" if is_ledger_transaction(group) else "is already voided"
            assert expected in str(refusal)
            assert self.ledger.history(self.id) == records
            return
        except Conflict as refusal:  # later transactions depend on it, and no cascade was asked for
            event("void refused: later transactions depend on it")
            assert not cascade
            assert str(refusal).startswith(f"voiding T{tx} affects later transactions (add --cascade")
            assert self.ledger.history(self.id) == records
            return
        event("void with a cascade" if outcome.affected else "void")
        assert not is_ledger_transaction(group) and tx not in voided
        assert [r.event.target for r in outcome.records[1:]] == [tx] + [t for t, _ in outcome.affected]

    @rule(which=pick, typed=faces, cascade=st.booleans())
    def reroll(self, which, typed, cascade):
        records = self.ledger.history(self.id)
        voided = {r.event.target for r in records if isinstance(r.event, ev.TransactionVoided)}
        bare = [r.event for r in records if isinstance(r.event, ev.DiceRolled)
                and r.event.purpose == "bare" and r.tx not in voided]  # fmt: skip
        if not bare:
            return
        disputed = bare[which % len(bare)]
        rolls_before = self.state().rolls
        outcome = self.ledger.reroll(
            self.id, f"R{disputed.roll}", reason="cocked die", actor="Ann",
            dice=TableDice(typed[: len(disputed.faces)]), cascade=cascade,
        )  # fmt: skip
        event("reroll with a cascade" if outcome.affected else "reroll")
        again = [r.event for r in outcome.records if isinstance(r.event, ev.DiceRolled)]
        assert [(e.roll, e.expression, e.faces) for e in again] == [
            (rolls_before, disputed.expression, typed[: len(disputed.faces)])
        ]

    # --- the trail -----------------------------------------------------------------------------------

    @rule()
    def export_and_import_elsewhere(self):
        trail = "".join(line + "\n" for line in audit.trail_lines(audit.verify_store(self.store, self.id), void_annotations))
        elsewhere = Store("memory://")
        try:
            imported = audit.import_chain(Ledger(elsewhere), audit.read_trail(trail.encode(), void_annotations))
            assert imported == self.state()
            assert list(elsewhere.records(self.id)) == self.ledger.history(self.id)
        finally:
            elsewhere.close()

    # --- what must always hold -----------------------------------------------------------------------

    @invariant()
    def loading_gives_the_fold_of_the_live_events(self):
        records = self.ledger.history(self.id)
        loaded = self.state()
        assert loaded == self.ledger.replay(self.id)
        assert domain(loaded) == domain(live_fold(records))
        assert [r.position for r in records] == list(range(1, len(records) + 1))
        assert (loaded.position, loaded.transactions, loaded.head) == (len(records), records[-1].tx, records[-1].hash)
        rolls = [r.event.roll for r in records if isinstance(r.event, ev.DiceRolled)]
        assert rolls == list(range(len(rolls))) and loaded.rolls == len(rolls)

    @invariant()
    def every_live_transaction_still_follows_from_its_command_and_dice(self):
        records = self.ledger.history(self.id)
        voided = {r.event.target for r in records if isinstance(r.event, ev.TransactionVoided)}
        live = [g for g in transactions(records) if g[0].tx not in voided and not is_ledger_transaction(g)]
        assert self.ledger.check(self.id) == (len(live), [])


def test_voids_rerolls_and_refusals_never_change_what_a_load_means():
    # A small interval, so that most loads start from a snapshot taken before some later void.
    with mock.patch.object(campaigns, "SNAPSHOT_INTERVAL", 6):
        run_state_machine_as_test(
            FreeformCampaign,
            settings=settings(
                max_examples=100, stateful_step_count=50, deadline=None,
                suppress_health_check=[HealthCheck.too_slow],
            ),  # fmt: skip
        )
