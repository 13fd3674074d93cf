"""The service's dice seeds: drawing, checking, revealing and moving them, and burning roll numbers
a league server dealt but the stream never recorded. Where a seed is kept depends on the store:
the dice keeper's key file (SQLite, ledger.keyfile), the dice role's tables (PostgreSQL,
ledger.dealer), or memory.
"""

from __future__ import annotations

import contextlib
import functools
import uuid
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from ledger import dice as d
from ledger import events as ev
from ledger.dealer import Dealt, ForeignSeed, NoSeed, expression_for
from ledger.deciding import Attempt, DealtDice, NoLedgerDice, Outcome
from ledger.decide import DiceSource, LedgerDice
from ledger.errors import BadInput, IntegrityFailure, NotFound, RuleViolation
from ledger.state import CampaignState, evolve

if TYPE_CHECKING:
    from ledger.store import Store

SEED_FORMAT = "campaign-ledger-seed"
# A league server's seeds never leave its database (ledger.dealer): `seed import` cannot bring one.
NO_SEED_FROM_A_LEAGUE = ("a league server's campaign has none to bring: its seeds never leave the server's database, "
                         "so it opens a new epoch")
BURN_ACTOR = "ledger"


class DealtSince(NamedTuple):
    """The rolls a league server had dealt from roll `from_roll` on, as asked before a writer's turn."""

    from_roll: int
    dealt: list[Dealt]


def committed_to(store: Store, campaign_id: uuid.UUID) -> dict[int, str]:
    """Each epoch's commitment, as the campaign's history records it."""
    tag = ev.SeedCommitted.__struct_config__.tag
    return {r.event.epoch: r.event.commitment for r in store.records_tagged(campaign_id, [tag])}


class SeedKeeping:
    """The seed part of the service (mixed into `Ledger`, which provides `store`, `load`, `_write`, the
    state its last commit left (`_latest_state`) and `_dealt_before_turn`)."""

    def ledger_dice(self, campaign_id: uuid.UUID, state: CampaignState) -> DiceSource:
        """The ledger dice of the open epoch, from its seed once that is checked against the epoch's
        commitment; where the seed is missing or wrong, a source that refuses to roll, saying why."""
        if self.store.dealer is not None:
            return DealtDice(self.store.dealer, str(campaign_id), state.epoch, state.commitment, self.missing_seed(state),
                             functools.partial(self.foreign_seed, campaign_id, state))
        try:
            seed = self.store.seed(campaign_id, state.epoch)
        except BadInput as unusable:  # a key file others may open, or none this user may read: table dice work either way
            return NoLedgerDice(str(unusable), BadInput)
        if seed is None:
            return NoLedgerDice(self.missing_seed(state), NotFound)
        problem = self.seed_problem(state, seed)
        if problem:
            return NoLedgerDice(problem, IntegrityFailure)
        return LedgerDice(bytes.fromhex(seed), state.epoch, str(campaign_id),
                          functools.partial(self.seed_left_elsewhere, campaign_id, state))

    def seed_left_elsewhere(self, campaign_id: uuid.UUID, state: CampaignState) -> str | None:
        """Why the open epoch's seed may be public although this store has not revealed it: the seeds it shares
        (a machine's key file) hold the next epoch's, which only a reveal or a new epoch makes. Another store of
        the campaign did so (an import of it on the same machine, or the store it came from), or a reveal here
        stopped before it was recorded; its dice, derived from a seed anyone may hold, would be foreseeable."""
        if self.store.seed(campaign_id, state.epoch + 1) is None:
            return None
        kept = f"the key file {self.store.keys.path}" if self.store.keys else self.store.url
        return (f"the seed of epoch {state.epoch} of {state.name} may be public, so no ledger die is rolled from it: "
                f"{kept} holds the seed of epoch {state.epoch + 1}, which only a reveal of epoch {state.epoch} (or a "
                "new epoch) makes, and this store has recorded neither (another store of the campaign on this "
                "machine did, or a reveal here stopped before it was recorded); `campaign seed reveal` records the "
                f"reveal here and opens epoch {state.epoch + 1}; table dice (--dice) work either way")

    def missing_seed(self, state: CampaignState) -> str:
        if self.store.dealer is not None:  # a league server keeps its own seeds: none comes from a file
            return (
                f"the secret dice seed of {state.name} (epoch {state.epoch}) is not in this database, so the ledger "
                "cannot roll: the epoch was committed in another store (the campaign's trail was imported here); "
                "open a new epoch with `campaign seed new-epoch --reason …` (recorded in the log); table dice "
                "(--dice) work either way"
            )
        where = f"the key file {self.store.keys.path}" if self.store.keys else self.store.url
        return (
            f"the secret dice seed of {state.name} (epoch {state.epoch}) is not in {where}, so the ledger "
            "cannot roll: bring it from the machine that started the campaign (`campaign seed export` "
            f"there, `campaign seed import FILE` here; {NO_SEED_FROM_A_LEAGUE}), or open a new epoch here with "
            "`campaign seed new-epoch --reason …` (recorded in the log); table dice (--dice) work either way"
        )

    def foreign_seed(self, campaign_id: uuid.UUID, state: CampaignState) -> str:
        """Why a league server's ledger rolls nothing, and reveals nothing, where the seed its database keeps
        for the open epoch is not the one the campaign committed to: the way out is the one `new-epoch`
        names once the seeds written by hand are gone."""
        return (f"the ledger can neither roll dice of epoch {state.epoch} of {state.name} nor reveal its seed: "
                + self._foreign_seeds(campaign_id, "the open epoch's among them",
                                      "`campaign seed new-epoch --reason …` opens a new epoch (recorded in the log); "
                                      "table dice (--dice) work either way"))

    def _foreign_seeds(self, campaign_id: uuid.UUID, so: str, then: str) -> str:
        """The seeds of the campaign a league server keeps but the campaign never committed to, `so` what
        follows from them, and how its administrator removes them, `then` what to run."""
        listed = ", ".join(map(str, self.foreign_epochs(campaign_id)))
        return (f"this database keeps seeds of epochs {listed} that the campaign never committed to (written by hand, "
                f"not by the ledger), {so}; the league's administrator removes them (DELETE FROM ledger_dice_seeds "
                f"WHERE campaign_id = '{campaign_id}' AND epoch IN ({listed})), then {then}")

    @staticmethod
    def seed_problem(state: CampaignState, seed: str) -> str | None:
        """Why a seed may not be used for the open epoch (None: it matches the commitment)."""
        try:
            matches = d.commitment(bytes.fromhex(seed)) == state.commitment
        except ValueError:
            matches = False
        if matches:
            return None
        return (
            f"the stored seed of epoch {state.epoch} does not match the epoch's commitment "
            f"({state.commitment[:16]}…): it was changed, so the ledger refuses to roll with it or reveal it"
        )

    def reveal_seed(self, campaign_id: uuid.UUID, *, actor: str) -> Outcome:
        """Publish this epoch's seed (so anyone can recompute its dice) and commit to a new one."""

        def attempt() -> Attempt:
            state = self._state_to_decide_on(campaign_id)
            if self.store.dealer is not None:
                try:
                    seed = self.store.dealer.reveal(str(campaign_id), state.epoch, state.commitment)
                except NoSeed:
                    raise NoSeed(self.missing_seed(state)) from None
                except ForeignSeed:
                    raise NotFound(self.foreign_seed(campaign_id, state)) from None
                self._refuse_uncommitted(state, seed)
            else:
                seed = self._stored_seed(campaign_id, state)
            events = [
                ev.CommandRecorded(command="seed.reveal", args={"epoch": state.epoch}),
                ev.SeedRevealed(epoch=state.epoch, seed=seed),
                self._commit_to_next_epoch(campaign_id, state),
            ]
            return Attempt(state, [(events, actor)])

        return self._write(campaign_id, "revealing the seed", attempt)

    def _stored_seed(self, campaign_id: uuid.UUID, state: CampaignState) -> str:
        """The open epoch's seed as this store keeps it, checked against the epoch's commitment."""
        seed = self.store.seed(campaign_id, state.epoch)
        if seed is None:
            raise NotFound(self.missing_seed(state))
        self._refuse_uncommitted(state, seed)
        return seed

    def _refuse_uncommitted(self, state: CampaignState, seed: str) -> None:
        if problem := self.seed_problem(state, seed):
            raise IntegrityFailure(problem)

    def _commit_to_next_epoch(self, campaign_id: uuid.UUID, state: CampaignState) -> ev.SeedCommitted:
        if self.store.dealer is not None:
            return ev.SeedCommitted(epoch=state.epoch + 1, commitment=self.store.dealer.commit(str(campaign_id), state.epoch + 1))
        following = self.store.seed(campaign_id, state.epoch + 1)
        if following is None:
            following = d.new_seed().hex()
            self.store.save_seed(campaign_id, state.epoch + 1, following)
        return ev.SeedCommitted(epoch=state.epoch + 1, commitment=d.commitment(bytes.fromhex(following)))

    def new_epoch(self, campaign_id: uuid.UUID, *, reason: str, actor: str) -> Outcome:
        """Open a new dice epoch where the open epoch's seed is not at hand (the campaign moved to
        another machine without its key, or from a SQLite store to a league server): the old epoch
        is recorded as left behind, for good."""
        if not reason.strip():
            raise BadInput("say why with --reason: a new epoch is part of the audit trail")

        def attempt() -> Attempt:
            state = self._state_to_decide_on(campaign_id)
            if self.holds_seed(campaign_id, state):
                raise RuleViolation(f"the seed of epoch {state.epoch} is here: reveal it with `campaign seed reveal`, "
                                    "which also opens the next epoch"
                                    + (" (on a league server its administrator runs it)" if self.store.dealer else ""))
            try:
                following = self._commit_to_next_epoch(campaign_id, state)
            except RuleViolation:
                if self.store.dealer is None:
                    raise
                # Only seeds committed here by hand, none of them the campaign's, hold it back; the dice
                # function's own words would send the user to `seed reveal`, which refuses such a seed.
                raise RuleViolation(
                    f"epoch {state.epoch + 1} of {state.name} cannot be opened: "
                    + self._foreign_seeds(campaign_id, "and the server opens an epoch only after the one before it is "
                                          "revealed", "`campaign seed new-epoch` runs again")) from None
            events = [
                ev.CommandRecorded(command="seed.new-epoch", args={"epoch": state.epoch}, reason=reason),
                ev.SeedAbandoned(epoch=state.epoch, reason=reason),
                following,
            ]
            return Attempt(state, [(events, actor)])

        return self._write(campaign_id, "opening a new epoch", attempt)

    def foreign_epochs(self, campaign_id: uuid.UUID) -> list[int]:
        """The epochs of the campaign whose seed a league server keeps but not as the campaign committed
        to it (committed by hand, for epochs committed elsewhere)."""
        dealer = self.store.dealer
        held = dealer.holds(str(campaign_id), committed_to(self.store, campaign_id))
        return sorted(set(dealer.epochs(str(campaign_id))) - set(held))

    def holds_seed(self, campaign_id: uuid.UUID, state: CampaignState) -> bool:
        """Whether this store keeps the seed of the campaign's open epoch (a league server: in its
        database, as the campaign committed to it)."""
        if self.store.dealer is not None:
            return state.epoch in self.store.dealer.holds(str(campaign_id), {state.epoch: state.commitment})
        return self.store.seed(campaign_id, state.epoch) is not None

    def _refuse_on_a_dealer(self, what: str) -> None:
        if self.store.dealer is not None:
            raise RuleViolation(f"{what} is for SQLite key files: the seeds of {self.store.url} stay inside its "
                                "database, where players cannot read them; a copy of one of its campaigns elsewhere "
                                "opens a new epoch there (`campaign seed new-epoch --reason …`)")

    def export_seed(self, campaign_id: uuid.UUID) -> dict[str, Any]:
        """The open epoch's secret seed, to take the campaign's dice to another machine."""
        self._refuse_on_a_dealer("exporting a seed")
        state = self.load(campaign_id)
        seed = self._stored_seed(campaign_id, state)
        return {"format": SEED_FORMAT, "campaign": {"id": str(campaign_id), "name": state.name},
                "epoch": state.epoch, "seed": seed}

    def import_seed(self, data: dict[str, Any]) -> CampaignState:
        """Keep a seed exported elsewhere, once it is checked against the campaign's commitment."""
        self._refuse_on_a_dealer("importing a seed")
        if not isinstance(data, dict) or data.get("format") != SEED_FORMAT:
            raise BadInput(f"not a seed file made by `campaign seed export` (format {SEED_FORMAT})")
        campaign, epoch, seed = data.get("campaign"), data.get("epoch"), data.get("seed")
        if not isinstance(campaign, dict) or not isinstance(epoch, int) or not isinstance(seed, str):
            raise BadInput("the seed file needs its campaign, epoch and seed")
        try:
            campaign_id = uuid.UUID(str(campaign.get("id")))
        except ValueError:
            raise BadInput(f"the seed file names no campaign id ('{campaign.get('id')}')") from None
        if campaign_id not in self.store.campaign_ids():
            raise NotFound(f"campaign {campaign.get('name')} ({campaign_id}) is not in {self.store.url}: "
                           "import its trail first (`campaign import TRAIL`)")
        state = self.load(campaign_id)
        if epoch != state.epoch:
            raise RuleViolation(f"the file holds the seed of epoch {epoch}, but epoch {state.epoch} is open here")
        problem = self.seed_problem(state, seed)
        if problem:
            raise IntegrityFailure(problem.replace("stored seed", "seed in the file"))
        self.store.save_seed(campaign_id, epoch, seed)
        return state

    @contextlib.contextmanager
    def _dealt_asked_before_turn(self, campaign_id: uuid.UUID) -> Iterator[None]:
        """On a league server, where the writers of one campaign take turns, ask which rolls were dealt
        since this ledger's latest state before the turn, not in it: one round trip less that the
        other writers wait for. A number dealt while this writer waits (a peek) is not among them: a
        roll of this command then finds it dealt (AlreadyDealt) and its next try, which asks again
        in its turn, burns it; a command that rolls nothing leaves it to the next one."""
        kept = self._latest_state.get(campaign_id)
        if self.store.dealer is not None and kept is not None:
            self._dealt_before_turn[campaign_id] = self._dealt_since(campaign_id, kept.rolls)
        try:
            yield
        finally:
            self._dealt_before_turn.pop(campaign_id, None)

    def _dealt_since(self, campaign_id: uuid.UUID, from_roll: int) -> DealtSince:
        return DealtSince(from_roll, self.store.dealer.dealt(str(campaign_id), from_roll))

    def _burns(self, campaign_id: uuid.UUID, state: CampaignState) -> tuple[list[tuple[list[ev.Event], str]], CampaignState]:
        """Roll numbers of the open epoch dealt by the league server but never stored (a peek, a
        crash, a try that lost a race), from the next one on: recorded as burned, in a transaction
        of their own before the command's, which then rolls with the numbers after them."""
        if self.store.dealer is None:
            return [], state
        asked = self._dealt_before_turn.pop(campaign_id, None)
        if asked is None or asked.from_roll > state.rolls:
            asked = self._dealt_since(campaign_id, state.rolls)
        dealt = {x.roll: x for x in asked.dealt if x.roll >= state.rolls and x.epoch == state.epoch}
        burned: list[ev.Event] = []
        while state.rolls + len(burned) in dealt:
            x = dealt[state.rolls + len(burned)]
            expression = expression_for(x.sides)
            value, kept = (0, []) if expression.startswith("shuffle") else d.parse_expression(expression).evaluate(x.faces)
            burned.append(ev.DiceRolled(
                roll=x.roll, expression=expression, purpose=x.burned_purpose,
                faces=x.faces, value=value, kept=kept, source="ledger", epoch=x.epoch,
            ))
        if not burned:
            return [], state
        after = state.copy()
        for event in burned:
            evolve(after, event)
        opened = ev.CommandRecorded(command="dice.burn", args={"rolls": [x.roll for x in dealt.values() if x.roll < after.rolls]})
        # Recorded by the ledger itself: the burned numbers are nobody's command (who was dealt them
        # is in each roll's purpose), whichever command came next and found them.
        return [([opened, *burned], BURN_ACTOR)], after
