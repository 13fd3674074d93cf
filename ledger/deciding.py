"""Deciding a command in the service: where its dice come from (recorded, kept, dealt or missing),
what one try decided, and what a stored transaction would decide today.

`decide` runs a ruleset's handler; with `keep_dice`, a command that stops after drawing new ledger
dice raises Halted with the rolls to store as a pending transaction (no face before its record).
`redecide` is what `replay --check`, voids and import ask of every recorded transaction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence

import msgspec

from ledger import events as ev
from ledger import rulesets
from ledger.dealer import Dealer, ForeignSeed, NoSeed
from ledger.decide import (
    AskChoice,
    Command,
    Context,
    DiceSource,
    Diverged,
    Faces,
    NeedsAnswer,
    RanOut,
    RecordedDice,
    check_answers,
    command_name,
    documents_key,
    loose_key,
    recorded_args,
    refuse_never_offered,
    refuse_other_warbands_fighters,
    warriors_named,
)
from ledger.describe import describe, listed, warband_name
from ledger.errors import AnswerRefused, Conflict, LedgerError, NeedsDice, NotFound, RuleViolation
from ledger.records import Record
from ledger.state import TYPED_NOW, CampaignState, decode_own, encode_state
from ledger.text import possessive

# Commands of the ledger itself, not of a ruleset: they are checked, never re-decided.
LEDGER_COMMANDS = ("campaign.new", "void", "reroll", "seed.reveal", "answer", "seed.new-epoch", "dice.burn")


def stops_a_decision(error: BaseException) -> bool:
    """Is `error` a decision's own stop (a question, dice or cards wanted, a refusal of the rules, dice
    other than recorded, an interrupted prompt), not a bug of the ledger or of a ruleset's code?"""
    return isinstance(error, LedgerError | Diverged | KeyboardInterrupt | EOFError)


class Halted(Exception):
    """Deciding stopped (a choice to make, a refusal, an interrupted prompt) after new ledger dice
    were drawn: those dice are shown by the message or the prompt, so they must be stored first.
    Never a bug (`stops_a_decision`): its message is no decision's to store, and no ledger face was
    shown (a prompt after new ledger dice comes after they are stored), so nothing is written."""

    def __init__(self, cause: BaseException, opened: ev.CommandRecorded, rolls: list[ev.DiceRolled],
                 drew_cards: bool = False):
        super().__init__(str(cause))
        self.cause, self.opened, self.rolls, self.drew_cards = cause, opened, rolls, drew_cards

    def events(self, concerns: set[str] | None) -> list[ev.Event]:
        """The pending transaction: its command, what it waits for, and every roll it made. It
        concerns one warband, or (a command about several, or none) the campaign. One that drew
        or shuffled a deck concerns the campaign: its cards are not out of the deck until it is
        answered, so another warband's draw meanwhile would take the very card it was shown."""
        alone = concerns and len(concerns) == 1 and not self.drew_cards
        warband = next(iter(concerns)) if alone else None
        asked = self.cause if isinstance(self.cause, NeedsAnswer) else None
        waiting = ev.DecisionPending(
            question=asked.key if asked else "",
            prompt=asked.prompt if asked else (str(self.cause) or "stopped at the prompt"),
            options=asked.options if asked else [],
            warband=warband,
        )
        return [self.opened, waiting, *self.rolls]

    def handed_back(self, concerns: set[str] | None, dice: RerollDice, rolls: int,
                    leaves: Sequence[int] = ()) -> list[ev.Event]:
        """The pending transaction of a command decided again with recorded `dice` handed back (a reroll's, or one a
        cascade decides again; `rolls`: the campaign's rolls before it): `events`, then copies of the recorded rolls it
        had not reached, for its answer to hand back too. `leaves`: the later transactions the cascade left to decide
        again once it is answered (the whole campaign waits for it)."""
        stored = self.events(None if leaves else concerns)
        if leaves:
            stored[1] = msgspec.structs.replace(stored[1], leaves=list(leaves))
        return [*stored, *dice.not_handed_back(max((e.roll + 1 for e in self.rolls), default=rolls))]


def decide(
    ruleset: rulesets.Ruleset,
    state: CampaignState,
    command: Command,
    *,
    dice: DiceSource,
    shuffle_dice: DiceSource | None,
    ask: AskChoice | None = None,
    reason: str = "",
    keep_dice: bool = False,
    answered_now: Iterable[str] = (),
    offered: Mapping[str, str] | None = None,
    in_place: bool = False,
    asks_again: bool = False,
    asked: list[str] | None = None,
    answering: bool = False,
) -> list[ev.Event]:
    """The events a command produces on this state with these dice (the state is not changed,
    unless `in_place`: then the state itself is decided on, each event folded into it as emitted).
    `answered_now`: the keys of answers a person gave for this decision, each of which the command
    must have asked for or document (recorded answers are not checked: they were asked then).
    `offered`: answers given for several commands at once; the command records those it asked.

    With `keep_dice`, a command that stops after drawing new ledger dice raises Halted with the
    rolls to store, whatever stopped it; with `asks_again` too (a pending decision answered), one
    that stops at another question after its recorded dice were handed back, so that the answers
    given so far are stored with them and the next answer adds to them. `asked`, given, is handed the
    keys the command asked once it is decided (a pending decision's answers name those it did not).
    `answering`: a pending decision answered, whose dice were dealt after the answers it recorded (given
    ahead, or of the dice a reroll disputed)."""
    ctx = Context(
        state if in_place else state.copy(),
        dice=dice,
        shuffle_dice=shuffle_dice,
        answers={**command.answers, **(offered or {})},
        ask=ask,
        ruleset_evolve=ruleset.evolve,
        decks=ruleset.decks_of(state),
        options=state.options,
        answered_now=answered_now,
        # (a ruleset registered without that version, as a test pins an older one, never plays it)
        asks_again_after_a_reroll=(ruleset.asks_again_after_a_reroll in ruleset.versions
                                   and ruleset.plays(state, ruleset.asks_again_after_a_reroll)),
        dealt_since_the_answers=answering,
    )
    # Before anything is rolled. Only answers a person gives now (a command typed, a reroll's, a pending decision's):
    # a recorded command's were asked then, and it decides again as recorded.
    refuse_other_warbands_fighters(state, [command], answered_now)
    if answered_now:
        refuse_never_offered(ruleset.answer_choices_in(state),
                             {key: answer for key, answer in ctx.answers.items() if ctx.answered_now(key)})
    try:
        ruleset.handler_for(command)(command, ctx)
    except (Exception, KeyboardInterrupt) as error:
        # A conflict (a roll number dealt elsewhere) decides again: what this try drew is burned then.
        # An answer that leads to another question keeps the dice handed back pending too (`asks_again`).
        asked_again = asks_again and isinstance(error, NeedsAnswer) and any(isinstance(e, ev.DiceRolled) for e in ctx.events)
        # A bug is raised as it is: stored pending, it would hold its dice for an answer that no answer
        # gives, and the campaign would no longer import.
        if (not (keep_dice and (ctx.dealt_ledger_faces() or asked_again)) or isinstance(error, Conflict)
                or not stops_a_decision(error)):
            raise
        if asked_again:  # the answers are stored with the dice: none that no question of the command asks
            check_answers(command, answered_now, ctx.asked, warriors_named(state))
        rolls = [e for e in ctx.events if isinstance(e, ev.DiceRolled)]
        drew_cards = any(isinstance(e, ev.CardDrawn | ev.DeckShuffled) for e in ctx.events)
        # Stored pending, it keeps too the answers offered for questions it documents but has not
        # reached yet: answering it goes on from where it stopped.
        recorded = ctx.recorded_as or command
        kept = _taken(recorded, ctx, offered, still_to_ask=True)
        raise Halted(error, _opening(recorded, kept, reason), rolls, drew_cards) from error
    # Named after the decision: a warrior the command made (a hero a Talent! promotes) may be named too.
    check_answers(command, answered_now, ctx.asked, warriors_named(ctx.state) if answered_now else None)
    if asked is not None:
        asked.extend(ctx.asked)
    recorded = ctx.recorded_as or command
    return [_opening(recorded, _taken(recorded, ctx, offered), reason), *ctx.events]


def refused_before_rolls(ruleset: rulesets.Ruleset, state: CampaignState, command: Command,
                         answers: Mapping[str, str]) -> AnswerRefused | None:
    """The refusal of one of `answers` that `command`, typed now with them, gives before its first roll or card
    (None: none): a question it tells it will not ask (`Context.not_asked`, some told only of a command typed now).
    For answers given to a command recorded before them, which it decides again as recorded (a pending decision's,
    a reroll cascade's): they are checked as the command typed with them checks them. Whatever else stops it
    (its first roll, a question, a refusal of what it recorded) is for deciding it to meet."""
    nothing = RecordedDice(rolls=[], draws=[])  # it stops at its first roll or card
    typed_now = TYPED_NOW.set(True)
    try:
        decide(ruleset, state, msgspec.structs.replace(command, answers={**command.answers, **answers}),
               dice=nothing, shuffle_dice=nothing, answered_now=list(answers))
    except AnswerRefused as refused:
        if {loose_key(key) for key in refused.keys} & {loose_key(key) for key in answers}:
            return refused
    except Exception:  # noqa: BLE001, S110 - not an answer's refusal: deciding it meets it, or not, as it did
        pass
    finally:
        TYPED_NOW.reset(typed_now)
    return None


def _taken(command: Command, ctx: Context, offered: Mapping[str, str] | None, *,
           still_to_ask: bool = False) -> dict[str, str]:
    """The answers the command records: its own, and of those `offered` the ones it asked (with
    `still_to_ask`, or documents)."""
    return {key: answer for key, answer in ctx.answers.items()
            if key not in (offered or {}) or key in ctx.asked
            or (still_to_ask and documents_key(type(command), key))}


def _opening(command: Command, answers: dict[str, str], reason: str) -> ev.CommandRecorded:
    args = recorded_args(msgspec.structs.replace(command, answers=answers))
    return ev.CommandRecorded(command=command_name(command), args=args, reason=reason)


def redecide(
    state: CampaignState, records: Sequence[Record], *, folding: bool = False, put_back: bool = True
) -> str | None:
    """Why a recorded transaction no longer follows from this state (None: it still does).

    With `folding`, it is decided on the state itself, not a copy of it (what re-deciding a whole
    history mostly cost): when it still follows, the state is then the state after it, as
    `apply_record` folds its records (the transaction's number set before its events are folded,
    its last position and hash after), the events decided being the very ones recorded; else the
    state is put back as it was, unless not `put_back` (the caller can make it again, and saves
    encoding the state before every transaction): then it is left as the decision left it."""
    opened = records[0].event
    assert isinstance(opened, ev.CommandRecorded)
    ruleset = rulesets.get(state.ruleset)
    recorded = _recorded_dice(records)
    before = encode_state(state) if folding and put_back else b""
    if folding:
        state.current_tx, state.transactions = records[0].tx, max(state.transactions, records[0].tx)
    try:
        command = ruleset.command_from(opened.command, opened.args)
        events = decide(ruleset, state, command, dice=recorded, shuffle_dice=recorded, reason=opened.reason,
                        in_place=folding)
    except (LedgerError, Diverged) as error:
        events, refused = [], str(error)
    else:
        refused = None
    stored = [r.event for r in records]
    if refused is None and events == stored:
        if folding:
            state.position, state.head = records[-1].position, records[-1].hash
        return None
    if before:
        _put_back(state, before)
    if refused is not None:
        return refused
    for index, (now, then) in enumerate(zip(events, stored)):
        if now != then:
            return f"event {records[0].position + index} would now be {_difference(now, then, state)}"
    return f"would now produce {len(events)} events instead of {len(stored)}"


def _difference(now: ev.Event, then: ev.Event, state: CampaignState) -> str:
    """How an event decided again differs from the stored one: as the log says each, or, where it
    says both alike, by the fields that differ."""
    said_now, said_then = _said(now, state), _said(then, state)
    if said_now != said_then:
        return f"“{said_now}”, not “{said_then}”"
    if ev.tag_of(now) != ev.tag_of(then):
        return f"“{said_now}” as {ev.tag_of(now)}, not {ev.tag_of(then)}"
    fields_now, fields_then = ev.payload_of(now), ev.payload_of(then)
    differ = [name for name in {**fields_now, **fields_then} if fields_now.get(name) != fields_then.get(name)]
    return f"“{said_now}” with " + ", ".join(
        _by_fighter(name, fields_now.get(name), fields_then.get(name), state)
        or f"{name} {json.dumps(fields_now.get(name), sort_keys=True)}, not {json.dumps(fields_then.get(name), sort_keys=True)}"
        for name in differ)


def _by_fighter(name: str, now: object, then: object, state: CampaignState) -> str | None:
    """A field holding a record per fighter (a battle's deeds) that differs, in words: whose records it holds now and
    then ("the deeds of Hugo and Skab, not of Hugo, Ivo and Skab"), or what differs of whose ("Ivo's deeds: took out
    none, not Rat"); None for any other field, said as its JSON."""
    def each(value: object) -> dict[str, dict] | None:
        if not isinstance(value, list) or not all(isinstance(item, dict) and "fighter" in item for item in value):
            return None
        return {item["fighter"]: item for item in value}

    def named(fighter: object) -> str:
        found = state.fighters.get(fighter) if isinstance(fighter, str) else None
        return found.name if found is not None else str(fighter)

    def listed_or_nobody(names: Sequence[str]) -> str:
        return listed(names) if names else "nobody"

    def shown(value: object) -> str:
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return listed([named(item) for item in value]) if value else "none"
        return json.dumps(value, sort_keys=True)

    now_by, then_by = each(now), each(then)
    if now_by is None or then_by is None:
        return None
    words = name.replace("_", " ")
    if now_by.keys() != then_by.keys():
        return (f"the {words} of {listed_or_nobody([named(f) for f in now_by])}, "
                f"not of {listed_or_nobody([named(f) for f in then_by])}")
    return "; ".join(f"{possessive(named(fighter))} {words}: " + ", ".join(
        f"{key.replace('_', ' ')} {shown(item.get(key))}, not {shown(then_by[fighter].get(key))}"
        for key in {**item, **then_by[fighter]} if item.get(key) != then_by[fighter].get(key))
        for fighter, item in now_by.items() if item != then_by[fighter])


def thrown(events: Iterable[ev.Event]) -> tuple[list[ev.DiceRolled], list[ev.CardDrawn]]:
    """The rolls and the cards a transaction's events drew, as deciding it again hands them back: a
    card held in hand through a reshuffle (`held`) was drawn before, and is not drawn again."""
    events = list(events)
    return ([e for e in events if isinstance(e, ev.DiceRolled)],
            [e for e in events if isinstance(e, ev.CardDrawn) and not e.held])


def _recorded_dice(records: Sequence[Record]) -> RecordedDice:
    rolls, draws = thrown(r.event for r in records)
    return RecordedDice(rolls=rolls, draws=draws)


def pending_problem(state: CampaignState, records: Sequence[Record], *, as_stored: bool = False) -> str | None:
    """Why a pending decision no longer follows from this state (None: it does): its command, decided
    again with its recorded dice, is refused by the rules now, or no longer waits for anything. One
    stored without a question (the rules refused it, or it wanted dice, after its ledger dice or cards)
    still follows where it stops alike, at a refusal or at the end of its recorded dice.

    `as_stored`, for re-deciding a history (import, `replay --check`): the decision must also be the
    one the ledger stored, told by the same decision (no second pass over the history): its command
    stops after drawing a ledger die or card, or after dice an answer handed back (else the ledger never
    stored it pending: a ledger roll relabelled as table dice), and its stored question is the one it
    asks again (`stored_question_problem`). The answer is then the whole line to report after its "T<n>: "."""
    opened, waiting = records[0].event, records[1].event
    assert isinstance(opened, ev.CommandRecorded) and isinstance(waiting, ev.DecisionPending)
    ruleset = rulesets.get(state.ruleset)
    command = ruleset.command_from(opened.command, opened.args)
    recorded = _recorded_dice(records)
    handed_back = any(roll.copy_of is not None for roll in recorded.rolls)
    halted = False
    try:
        decide(ruleset, state, command, dice=recorded, shuffle_dice=recorded,
               reason=opened.reason, keep_dice=as_stored, asks_again=as_stored and handed_back)
    except Halted as stopped:
        halted, cause = True, stopped.cause
    except Exception as error:  # noqa: BLE001 - a bug too: earlier ledgers stored one pending
        # (after a ledger die or card, which its stored rolls show), as stored without a question
        halted = not stops_a_decision(error) and any(roll.source == "ledger" for roll in recorded.rolls)
        cause = error
    else:
        cause = None
    why = _why_not_waiting(cause, waiting)
    if not as_stored:
        return why
    if why is not None:
        return f"a pending decision its command no longer stops at: {why}"
    if isinstance(cause, NeedsAnswer) and (differs := stored_question_problem(waiting, cause)) is not None:
        return differs
    if (holds_up := stored_scope_problem(state, waiting, command)) is not None:
        return holds_up
    if not halted:
        return ("stored pending, but its command, decided again with its recorded dice, draws no ledger die or card "
                "before it stops: only those make the ledger store a decision pending (a ledger roll relabelled as "
                "table dice?)")
    return None


def scope(state: CampaignState, command: Command) -> set[str] | None:
    """The warbands a command concerns (by id), or None for the campaign as a whole."""
    named = [getattr(command, "warband", None), *(getattr(command, "participants", None) or [])]
    fighter = getattr(command, "fighter", None)
    if fighter and not named[0]:
        found = next((f for f in state.fighters.values() if fighter in (f.id, f.name)), None)
        named.append(found.warband if found else None)
    found_ids = {_warband_id(state, ref) for ref in named if ref}
    return found_ids or None


def _warband_id(state: CampaignState, ref: str) -> str:
    if ref in state.warbands:
        return ref
    return next((w.id for w in state.warbands.values() if w.name.lower() == ref.lower()), ref)


def _why_not_waiting(cause: BaseException | None, waiting: ev.DecisionPending) -> str | None:
    """Why a pending decision's command, stopped by `cause` (None: not stopped), no longer waits where
    it was stored (None: it does)."""
    if isinstance(cause, NeedsAnswer):
        return None  # it still waits for an answer
    if cause is None:
        return "it would now be decided without waiting for an answer"
    if isinstance(cause, Diverged) and not isinstance(cause, RanOut):
        return str(cause)
    if stops_a_decision(cause):
        return str(cause) if waiting.question else None
    # A bug, which earlier ledgers stored pending with its message and no question: it still stops
    # there, and is voided (or answered once the bug is fixed, if that fix decides it otherwise).
    return f"it now stops at an internal error ({type(cause).__name__}: {cause})" if waiting.question else None


# The numbers a question shows (its dice, values, counts): what the dice decide of a wording.
_NUMBERS = re.compile(r"\d+")


def stored_question_problem(waiting: ev.DecisionPending, asked: NeedsAnswer) -> str | None:
    """How a pending decision's stored question differs from the one its command asks again (None: it
    is that one). Compared is what its dice decide: the answer key (as people may type it), the
    choices, and, where the question is worded as today, the numbers it shows. Not its wording, which
    changes without changing a decision (coreheim's exploration asked "which 6 dice count?" before "…
    (or fewer)?"), nor the numbers of a question worded otherwise: a wording that came to show a number
    more or less ("re-roll which die (1-3)?") would refuse every campaign left pending under the old one.
    (A forger who rewrites a die can rewrite the question too: its numbers catch a die changed beneath a
    question left as stored, and its ledger dice are re-derived once their seed is revealed.)
    The stored choices may be fewer than today's (before 1ca12c8 the Retinue Doom Table offered no
    Captured; an answer may name any outcome since)."""
    stored_asks = f"{waiting.question}=" + "|".join(waiting.options)
    asks_now = f"{asked.key}=" + "|".join(asked.options)
    if loose_key(waiting.question) != loose_key(asked.key) or not set(waiting.options) <= set(asked.options):
        return f"its stored question offers {stored_asks}, but deciding it again with its recorded dice offers {asks_now}"
    worded_alike = _NUMBERS.sub("#", waiting.prompt) == _NUMBERS.sub("#", asked.prompt)
    if worded_alike and _NUMBERS.findall(waiting.prompt) != _NUMBERS.findall(asked.prompt):
        return (f"its stored question reads “{waiting.prompt}”, but deciding it again with its recorded dice "
                f"reads “{asked.prompt}”")
    return None


def stored_scope_problem(state: CampaignState, waiting: ev.DecisionPending, command: Command) -> str | None:
    """How a pending decision's stored warband differs from what the ledger stores for its command (None:
    it does not): the one warband the command concerns, or none (the campaign: a command about several
    warbands or none, or one that drew cards, which ledgers before 803b4ae stored with its one warband).
    A stored warband the command does not concern alone would let that warband's commands go on past it."""
    if waiting.warband is None:
        return None  # the campaign waits for it: the most a decision can hold up
    concerns = scope(state, command)
    if concerns == {waiting.warband}:
        return None
    said = "the campaign" if concerns is None else ", ".join(sorted(warband_name(state, w) for w in concerns))
    return (f"its stored decision holds up {warband_name(state, waiting.warband)} alone, but its command concerns "
            f"{said}, so that is what the ledger holds up for it")


def _put_back(state: CampaignState, encoded: bytes) -> None:
    """The state as it was encoded, in place (its callers hold it)."""
    was = decode_own(encoded)
    for field in state.__struct_fields__:
        setattr(state, field, getattr(was, field))


def _said(event: ev.Event, state: CampaignState) -> str:
    """An event as the log says it, or its type and payload where the log shows no line."""
    return describe(event, state) or f"{ev.tag_of(event)} {json.dumps(ev.payload_of(event), sort_keys=True)}"


def is_ledger_transaction(records: Sequence[Record]) -> bool:
    opened = records[0].event
    return not isinstance(opened, ev.CommandRecorded) or opened.command in LEDGER_COMMANDS


def is_pending(records: Sequence[Record]) -> bool:
    """A transaction stopped half-way: it holds its dice and no consequences, so it is never
    re-decided (its answer, a later transaction, is)."""
    return len(records) > 1 and isinstance(records[1].event, ev.DecisionPending)


def is_redecided(records: Sequence[Record]) -> bool:
    return not is_ledger_transaction(records) and not is_pending(records)


class Outcome(msgspec.Struct):
    """What a committed transaction (or pair, for a reroll) wrote, and the state after it."""

    records: list[Record]
    encoded: bytes  # the state after them, encoded: `state` decodes it when first asked for
    affected: list[tuple[int, str]] = msgspec.field(default_factory=list)
    halted: Halted | None = None  # the last transaction was stored pending: why it stopped
    unused: dict[str, str] = {}  # a pending decision completed: the answers it holds that it did not ask
    _state: CampaignState | None = None

    @property
    def state(self) -> CampaignState:
        """The state after the records, the caller's own (the ledger keeps the one it decided on)."""
        if self._state is None:
            self._state = decode_own(self.encoded)
        return self._state

    @property
    def tx(self) -> int:
        return self.records[0].tx


class Attempt(msgspec.Struct):
    """What one try of a write decided: the state it was decided on and the transactions to seal."""

    state: CampaignState
    groups: list[tuple[list[ev.Event], str]]  # (events, actor) per transaction, in order
    refold: bool = False  # the past changed (a void): fold everything again after the commit
    affected: list[tuple[int, str]] = msgspec.field(default_factory=list)
    halted: Halted | None = None  # the last group is a pending transaction
    unused: dict[str, str] = {}  # a pending decision completed: the answers it holds that it did not ask
    encoded: bytes = b""  # the state's own encoding, where it was at hand (it need not be encoded again)
    # Where the one transaction was decided on `state` itself, numbered first as the fold numbers it
    # (`redecide` does the same): the (position, head, transactions) its records follow, which
    # `encoded` is the state at. `state` is then the state after it, but for its last position and hash.
    folded_from: tuple[int, str, int] | None = None


class RerollDice(msgspec.Struct):
    """Hands back every recorded roll of a transaction except the disputed one.

    Each roll the re-decided command asks for takes the first recorded roll not yet handed back
    with the same expression and purpose, as a copy (`copy_of`); new dice are drawn only for the
    disputed roll and for rolls that were never recorded (the new result asks for them). A
    recorded roll the command no longer asks for is simply not repeated. Physical cards are handed
    back the same way, by deck and purpose."""

    rolls: list[ev.DiceRolled]
    draws: list[ev.CardDrawn]
    disputed_roll: int
    fresh: DiceSource
    _used: set[int] = msgspec.field(default_factory=set)
    _used_cards: set[int] = msgspec.field(default_factory=set)

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        for index, old in enumerate(self.rolls):
            if index in self._used or old.expression != expression or old.purpose != purpose:
                continue
            self._used.add(index)
            if old.roll == self.disputed_roll:
                break
            return Faces(list(old.faces), old.source, old.epoch, old.roll if old.copy_of is None else old.copy_of)
        return self.fresh.faces(roll, expression, die_sides, purpose)._replace(anew=True)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        # A physical card drawn is on the table: disputing a die does not draw it again. It goes to the
        # draw it was drawn for (same deck and purpose), never to another one the new result asks for.
        for index, old in enumerate(self.draws):
            if index not in self._used_cards and old.deck == deck and old.purpose == purpose and old.card in candidates:
                self._used_cards.add(index)
                return old.card
        return self.fresh.card(deck, purpose, candidates)

    def finish(self) -> None:
        self.fresh.finish()

    def rewind(self) -> None:
        self.fresh.rewind()
        self._used.clear()
        self._used_cards.clear()

    def not_handed_back(self, first_roll: int) -> list[ev.DiceRolled]:
        """Copies, numbered from `first_roll`, of the recorded rolls not handed back yet but the one
        disputed: a decision that stopped pending keeps them, so that its answer hands them back too
        (they were rolled anew, though undisputed)."""
        left = [old for index, old in enumerate(self.rolls) if index not in self._used and old.roll != self.disputed_roll]
        return [msgspec.structs.replace(old, roll=first_roll + n, copy_of=old.roll if old.copy_of is None else old.copy_of)
                for n, old in enumerate(left)]


class NoLedgerDice(msgspec.Struct):
    """Stands in for the ledger dice when their seed is missing or does not match its commitment:
    table dice work as ever, and the first ledger die asked for is refused, saying why."""

    why: str
    error: type[LedgerError] = RuleViolation

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        raise self.error(self.why)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        raise self.error(self.why)

    def finish(self) -> None:
        """Nothing was handed out."""

    def rewind(self) -> None:
        """Nothing was handed out."""


class DealtDice(msgspec.Struct):
    """Ledger dice dealt by a PostgreSQL league server's dice functions (ledger.dealer)."""

    dealer: Dealer
    campaign_id: str
    epoch: int
    commitment: str
    missing: str  # what to say when the database holds no seed of the epoch (ledger.seeds.missing_seed)
    # What to say when its seed of the epoch is not the campaign's (ledger.seeds.foreign_seed): asked only then.
    foreign: Callable[[], str]

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        try:
            dealt = self.dealer.deal(self.campaign_id, self.epoch, self.commitment, roll, die_sides, expression, purpose)
        except NoSeed:
            raise NoSeed(self.missing) from None
        except ForeignSeed:
            raise NotFound(self.foreign()) from None
        return Faces(dealt, "ledger", self.epoch)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        raise NeedsDice(f"{purpose}: {deck} is a physical deck in this campaign: name the card drawn with --card")

    def finish(self) -> None:
        """Ledger dice cannot be over-supplied."""

    def rewind(self) -> None:
        """Nothing to rewind: every roll number is dealt once."""
