"""The shared vocabulary of campaign facts.

Every event is a frozen, keyword-only msgspec Struct with an explicit, stable tag (never derived
from a module path), so that moving code never breaks stored events. Rules for evolving them:
new fields get defaults, a field's type never changes, no floats. Rulesets add their own event
types with `@event_type` only where no shared one fits.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Union

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    """Base of every event; the tag is the event's `type` in storage and in the audit trail.

    Fields at their default value are left out of the stored and hashed payload, so that adding a
    field with a default never changes the record (or the hash) of an event stored before it."""


EVENT_TYPES: dict[str, type[Event]] = {}
_decoder_cache: dict[tuple[Callable[[Any], Any], Any, int], Any] = {}


def event_type(cls: type[Event]) -> type[Event]:
    """Register an event class so the one typed decoder knows its tag."""
    tag = cls.__struct_config__.tag
    if not isinstance(tag, str) or cls.__struct_config__.tag == cls.__name__:
        raise TypeError(f"{cls.__name__} needs an explicit string tag")
    existing = EVENT_TYPES.get(tag)
    if existing is not None and existing is not cls:
        raise TypeError(f"event tag {tag!r} is used by {existing.__name__} and {cls.__name__}")
    EVENT_TYPES[tag] = cls
    _decoder_cache.clear()
    return cls


def event_union() -> Any:
    """The union of all registered event types (grows as rulesets register theirs)."""
    return Union[tuple(EVENT_TYPES.values())]  # noqa: UP007 - a runtime union over a tuple


def event_decoder() -> msgspec.json.Decoder:
    return decoder_of_events(_the_union)


def decoder_of_events(shape: Callable[[Any], Any], *, codec: Any = msgspec.json, **options: Any) -> Any:
    """A decoder (JSON, or `codec`'s) of `shape(the union of the registered event types)`, made again
    when rulesets register more (`shape` a module-level function, `options` the same for each call)."""
    key = (shape, codec, len(EVENT_TYPES))
    decoder = _decoder_cache.get(key)
    if decoder is None:
        decoder = _decoder_cache[key] = codec.Decoder(shape(event_union()), **options)
    return decoder


def _the_union(union: Any) -> Any:
    return union


# Called with a tag no registered event has; True when it registered more event types (the ruleset
# registry imports the ruleset whose id prefixes the tag), so decoding is tried again.
_unknown_tag_loaders: list[Callable[[str], bool]] = []


def on_unknown_tag(loader: Callable[[str], bool]) -> None:
    _unknown_tag_loaders.append(loader)


class _Tagged(msgspec.Struct):
    type: str = ""


def _load_unknown(tag: str) -> bool:
    return tag not in EVENT_TYPES and any(load(tag) for load in _unknown_tag_loaders)


def decode_event(data: bytes) -> Event:
    """A stored event's JSON, as its registered type (importing the ruleset that defines it if need be)."""
    try:
        return event_decoder().decode(data)
    except msgspec.ValidationError:
        if not _load_unknown(msgspec.json.decode(data, type=_Tagged).type):
            raise
        return event_decoder().decode(data)


def convert_event(payload: dict[str, Any]) -> Event:
    """An event from plain JSON values with its `type` (a trail's record), like `decode_event`.

    Through JSON and the one cached typed decoder: `msgspec.convert` would analyse the whole
    union of event types again for every event (most of an import's time)."""
    return decode_event(msgspec.json.encode(payload))


def tag_of(event: Event) -> str:
    return type(event).__struct_config__.tag


def payload_of(event: Event) -> dict[str, Any]:
    """The event's payload as stored and hashed: plain JSON values, no tag, defaults left out."""
    payload = msgspec.to_builtins(event)
    payload.pop("type", None)
    return payload


def fields_of(event: Event) -> dict[str, Any]:
    """Every field of the event as plain JSON values, defaults included (for state kept as data)."""
    return msgspec.to_builtins(msgspec.structs.asdict(event))


# --- campaign and ledger bookkeeping -------------------------------------------------------


@event_type
class CampaignStarted(Event, frozen=True, kw_only=True, tag="campaign.started"):
    campaign_id: str
    name: str


@event_type
class RulesetPinned(Event, frozen=True, kw_only=True, tag="ruleset.pinned"):
    ruleset: str
    version: str
    options: dict[str, Any] = {}


@event_type
class RulesetUpgraded(Event, frozen=True, kw_only=True, tag="ruleset.upgraded"):
    """From the next transaction on, the campaign is decided under this version of its ruleset."""

    version: str
    previous: str


@event_type
class CommandRecorded(Event, frozen=True, kw_only=True, tag="command.recorded"):
    """The command that opened a transaction, with every answer given while it ran."""

    command: str
    args: dict[str, Any] = {}
    reason: str = ""


@event_type
class SeedCommitted(Event, frozen=True, kw_only=True, tag="seed.committed"):
    epoch: int
    commitment: str  # sha256(seed) as lowercase hex


@event_type
class SeedRevealed(Event, frozen=True, kw_only=True, tag="seed.revealed"):
    epoch: int
    seed: str  # hex


@event_type
class TransactionVoided(Event, frozen=True, kw_only=True, tag="transaction.voided"):
    target: int  # transaction number
    reason: str
    because_of: int | None = None  # set when voided by a cascade from another transaction


# --- dice and decks --------------------------------------------------------------------------


@event_type
class DiceRolled(Event, frozen=True, kw_only=True, tag="dice.rolled"):
    roll: int  # roll number, contiguous per campaign
    expression: str
    purpose: str
    faces: list[int]  # every physical die, in order (D66: tens then units)
    value: int  # what the roll counts as (sum of kept dice, D66 as 11..66, D3 halved up)
    kept: list[int] = []  # indexes of the faces that count, when an expression keeps some
    source: str  # "table" or "ledger"
    epoch: int | None = None  # ledger dice: the seed epoch that derived the faces
    # Set when a reroll re-decides a transaction and keeps one of its undisputed rolls: the faces
    # are those of roll `copy_of` (so a ledger roll is verified against that roll's number).
    copy_of: int | None = None


@event_type
class DeckShuffled(Event, frozen=True, kw_only=True, tag="deck.shuffled"):
    deck: str
    cards: list[str]  # the new draw order (empty for a physical deck)
    roll: int | None = None  # the roll whose dice drove the Fisher–Yates shuffle
    source: str


@event_type
class CardDrawn(Event, frozen=True, kw_only=True, tag="card.drawn"):
    deck: str
    card: str
    purpose: str
    source: str
    # A card in hand (an Advantage pair's first) when the deck ran out: taken out of the new deck, not
    # drawn from it, it goes to the discards and counts for no position.
    held: bool = False


# --- warbands and fighters ---------------------------------------------------------------------


@event_type
class WarbandEnlisted(Event, frozen=True, kw_only=True, tag="warband.enlisted"):
    warband: str
    name: str
    player: str
    faction: str = ""
    treasury: int = 0


@event_type
class FighterRecruited(Event, frozen=True, kw_only=True, tag="fighter.recruited"):
    warband: str
    fighter: str
    name: str
    role: str
    stats: dict[str, int] = {}
    keywords: list[str] = []
    equipment: list[str] = []
    cost: int = 0
    group_size: int = 1
    xp: int = 0


@event_type
class FighterRenamed(Event, frozen=True, kw_only=True, tag="fighter.renamed"):
    """A fighter takes a new name; the history keeps the old one (`was`)."""

    warband: str
    fighter: str
    name: str
    was: str


class Deed(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What one fighter did in a battle."""

    fighter: str
    out_of_action: bool = False
    took_out: list[str] = []  # fighter ids (or names of enemies the ledger does not know)
    glorious_deeds: list[str] = []
    notes: str = ""


@event_type
class BattleRecorded(Event, frozen=True, kw_only=True, tag="battle.recorded"):
    battle: int
    participants: list[str]
    winner: str | None = None
    scenario: str = ""
    deeds: list[Deed] = []


@event_type
class XPAwarded(Event, frozen=True, kw_only=True, tag="xp.awarded"):
    warband: str
    fighter: str
    amount: int
    reason: str
    requested: int | None = None  # set when a cap cut the award down from this amount


@event_type
class XPSpent(Event, frozen=True, kw_only=True, tag="xp.spent"):
    warband: str
    fighter: str
    amount: int
    on: str


@event_type
class StatChanged(Event, frozen=True, kw_only=True, tag="stat.changed"):
    warband: str
    fighter: str
    stat: str
    delta: int
    reason: str
    row: str = ""  # the table row that caused it


@event_type
class SkillLearned(Event, frozen=True, kw_only=True, tag="skill.learned"):
    warband: str
    fighter: str
    skill: str
    reason: str = ""
    row: str = ""


@event_type
class KeywordGained(Event, frozen=True, kw_only=True, tag="keyword.gained"):
    warband: str
    fighter: str
    keyword: str
    reason: str = ""


@event_type
class KeywordLost(Event, frozen=True, kw_only=True, tag="keyword.lost"):
    warband: str
    fighter: str
    keyword: str
    reason: str = ""


@event_type
class InjurySuffered(Event, frozen=True, kw_only=True, tag="injury.suffered"):
    warband: str
    fighter: str
    injury: str
    row: str = ""
    missed_games: int = 0


@event_type
class FighterDied(Event, frozen=True, kw_only=True, tag="fighter.died"):
    warband: str
    fighter: str
    reason: str = ""
    row: str = ""


@event_type
class FighterCaptured(Event, frozen=True, kw_only=True, tag="fighter.captured"):
    warband: str
    fighter: str
    reason: str = ""
    row: str = ""


@event_type
class FighterRetired(Event, frozen=True, kw_only=True, tag="fighter.retired"):
    warband: str
    fighter: str
    reason: str = ""


@event_type
class FighterPromoted(Event, frozen=True, kw_only=True, tag="fighter.promoted"):
    warband: str
    fighter: str
    role: str  # the new role
    reason: str = ""


@event_type
class ItemGained(Event, frozen=True, kw_only=True, tag="item.gained"):
    warband: str
    item: str
    fighter: str | None = None  # None: the warband's stash
    reason: str = ""


@event_type
class ItemLost(Event, frozen=True, kw_only=True, tag="item.lost"):
    warband: str
    item: str
    fighter: str | None = None
    reason: str = ""


@event_type
class TreasuryChanged(Event, frozen=True, kw_only=True, tag="treasury.changed"):
    warband: str
    delta: int
    reason: str
    row: str = ""


@event_type
class PostGameStepDone(Event, frozen=True, kw_only=True, tag="post-game.step-done"):
    """A step of a ruleset's guided post-game done for a battle of the warband, so the sequence
    resumes from the events alone, even when the step changed nothing."""

    warband: str
    battle: int
    step: str  # the step's key in the ruleset's post-game


@event_type
class NoteRecorded(Event, frozen=True, kw_only=True, tag="note.recorded"):
    """A fact the rules do not model, kept for the chronicle (a pending decision, a ruling)."""

    text: str
    warband: str | None = None
    fighter: str | None = None


# --- decisions left half-way, and epochs whose seed stayed elsewhere ---------------------------


@event_type
class DecisionPending(Event, frozen=True, kw_only=True, tag="decision.pending"):
    """The command that opened this transaction stopped half-way after ledger dice were drawn for
    it (a choice not yet made, a refusal): the transaction keeps its dice and nothing else, until
    `campaign answer` completes it with those very dice, or a void removes it."""

    question: str  # the answer key asked for ("" when the command was refused, not asked)
    prompt: str  # what the player was asked, or the refusal
    options: list[str] = []
    warband: str | None = None  # the warband it concerns; None: the campaign as a whole
    # The transactions a cascade voided and had not decided again when this one, decided again by it, stopped: its
    # answer decides them again after it (`ledger.pending.left_by_a_cascade`).
    leaves: list[int] = []

    def describe(self, state: Any) -> str:
        ask = f" — answer {self.question}=" + "|".join(self.options) if self.question else ""
        return f"pending: {self.prompt}{ask}"


@event_type
class DecisionAnswered(Event, frozen=True, kw_only=True, tag="decision.answered"):
    """A pending transaction completed: the next transaction decides its command again with the
    answers, its recorded dice handed back as copies (`copy_of`)."""

    target: int
    answers: dict[str, str] = {}

    def describe(self, state: Any) -> str:
        given = ", ".join(f"{key}={value}" for key, value in self.answers.items())
        return f"T{self.target} answered{': ' + given if given else ''}"


@event_type
class SeedAbandoned(Event, frozen=True, kw_only=True, tag="seed.abandoned"):
    """The seed of this epoch is not where the campaign is now kept (another machine's key file):
    its ledger dice can no longer be re-derived here; a new epoch is committed in the same
    transaction."""

    epoch: int
    reason: str

    def describe(self, state: Any) -> str:
        return f"dice seed of epoch {self.epoch} left behind, never to be revealed here: {self.reason}"
