"""Deciding a command: the context a handler runs in, where its dice come from, and its answers.

A handler is `handler(command, ctx)`; it reads `ctx.state`, asks `ctx.roll`, `ctx.draw` and
`ctx.choose`, and `ctx.emit`s events. The context folds each emitted event into its own copy of
the state, so a handler always sees the consequences of its earlier steps. Handlers never read
the clock, the disk or a random generator: everything random comes through a `DiceSource`.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol

import msgspec

from ledger import dice as d
from ledger import events as ev
from ledger.errors import AnswerRefused, BadInput, NeedsAnswer, NeedsDice, NotFound, RuleViolation
from ledger.state import (
    TYPED_NOW, CampaignState, Fighter, RulesetEvolve, Warband, evolve, refuse_hidden_ids, refuse_totals_past_the_limit,
)
from ledger.text import as_spelled, slug


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="command", forbid_unknown_fields=True):
    """Base of every command. `answers` holds each choice made while deciding (key -> option).

    `answer_keys` documents the questions the command may ask, as patterns (`FIGHTER:pit-fight`:
    an upper-case word stands for any name): an answer given for a key the command neither asked
    nor documents is refused, while one documented but not asked this time (it depends on the
    dice) is accepted and left unused; one the handler tells before any roll it will not ask
    (`Context.not_asked`) is refused, and so is one whose warrior is of another warband than the
    command's `warband` (`refuse_other_warbands_fighters`)."""

    answers: dict[str, str] = {}
    answer_keys: ClassVar[tuple[str, ...]] = ()
    # Fields a command gained after campaigns had recorded it: see `recorded_args`.
    added_later: ClassVar[tuple[str, ...]] = ()


# The decks a refusal of an unknown one names at most (a Speedheim campaign may have one per warband and battle).
DECKS_NAMED = 10
# The placeholders of a documented key that stand for a warrior of the campaign ("injury:CHARACTER").
WARRIOR_PLACEHOLDERS = frozenset({"FIGHTER", "HERO", "GROUP", "SWORD", "UNIT", "CHARACTER", "WARRIOR"})


def documents_key(command_type: type[Command], key: str, warriors: Collection[str] | None = None) -> bool:
    """Whether one of the command's documented keys is `key`; with `warriors` (their ids and their
    names as slugs), a placeholder for a warrior must name one of them: `injury:Hnas` is no key."""
    return matches_key(command_type.answer_keys, key, warriors)


def matches_key(patterns: Iterable[str], key: str, warriors: Collection[str] | None = None) -> bool:
    """Whether one of the key `patterns` (as `Command.answer_keys` writes them) is `key`, checked as
    `documents_key` checks a command's."""
    return any(warriors is None or all(named in warriors for named in names) for names in _warriors_in(patterns, key))


def _warriors_in(patterns: Iterable[str], key: str) -> Iterator[tuple[str, ...]]:
    """For each of the key `patterns` that `key` is (as typed or loosely), the warriors its placeholders name, as slugs."""
    loose = loose_key(key)
    for pattern in patterns:
        found = _key_pattern(pattern).fullmatch(key) or _key_pattern(pattern).fullmatch(loose)
        if found:
            yield tuple(slug(named) for named in found.groupdict().values())


@functools.lru_cache(maxsize=256)
def _key_pattern(pattern: str) -> re.Pattern[str]:
    parts = re.split(r"\b([A-Z][A-Z-]*[A-Z]|[A-Z])\b", pattern)
    return re.compile("".join(
        (f"(?P<w{index}>.+?)" if part in WARRIOR_PLACEHOLDERS else ".+?") if index % 2 else re.escape(part)
        for index, part in enumerate(parts)))


def warriors_named(state: CampaignState, among: Iterable[Fighter] | None = None) -> frozenset[str]:
    """Every fighter of the campaign (or those `among` them) by id and by name as a slug: what a key's warrior may be."""
    return frozenset(name for f in (state.fighters.values() if among is None else among) for name in (f.id, slug(f.name)))


def refuse_other_warbands_fighters(state: CampaignState, commands: Sequence[Command], keys: Iterable[str]) -> None:
    """Refuse an answer whose key names a fighter of another warband than those the `commands` asking it are about
    (`snikch:2:stat` for the Reikland Rats' advances, Snikch being Clan Skrit's): documented, it was accepted and
    left unused. It reads as another warband's fighter named to a command does ("no fighter 'Snikch' in Reikland
    Rats: Snikch is in Clan Skrit"). A cascade's answers are shared by the commands it decides again, of one warband
    or several: a key is then for a fighter of any warband whose command asks it.
    A name no fighter has (the hero a Talent! will make) is the command's to check."""
    for key in keys:
        asking = [command for command in commands if any(names for names in _warriors_in(type(command).answer_keys, key))]
        bands = [_warband_of(state, command) for command in asking]
        if not asking or None in bands:  # asked by a command about several warbands (a battle), or the campaign
            continue
        own = {band.id: state.fighters_of(band.id, active_only=False) for band in bands}
        if any(matches_key(type(command).answer_keys, key, warriors_named(state, own[band.id]))
               for command, band in zip(asking, bands)):
            continue
        own_ids = {f.id for fighters in own.values() for f in fighters}
        named = {name for command in asking for names in _warriors_in(type(command).answer_keys, key) for name in names}
        other = next((f for f in state.fighters.values() if f.id not in own_ids and (f.id in named or slug(f.name) in named)),
                     None)
        if other is not None:
            raise AnswerRefused(f"--answer {key}: {state.no_fighter(other.name, bands[0].id)}", [key])


def _warband_of(state: CampaignState, command: Command) -> Warband | None:
    """The one warband the command is about (None: several, the campaign, or one a cascade has not added again yet)."""
    warband = getattr(command, "warband", None)
    try:
        return state.warband(warband) if isinstance(warband, str) else None
    except NotFound:
        return None


def check_answers(command: Command, given: Iterable[str], asked: Sequence[str],
                  warriors: Collection[str] | None = None) -> None:
    """Refuse an answer the command neither asked for nor documents, naming the keys it knows."""
    if not given:  # a recorded command decided again (import, replay, a void): nobody answers it now
        return
    asked_as = {loose_key(key) for key in asked}
    unknown = [key for key in given
               if loose_key(key) not in asked_as and not documents_key(type(command), key, warriors)]
    if unknown:
        known = list(dict.fromkeys([*asked, *type(command).answer_keys]))
        keys = ", ".join(known) if known else "none: it asks no questions"
        raise AnswerRefused(f"--answer {', '.join(unknown)}: not a question of {command_name(command)} (its keys: {keys})",
                            unknown)


def refuse_never_offered(choices: Mapping[str, Sequence[str]], answers: Mapping[str, str]) -> None:
    """Refuse an answer given now that none of the choices its question may offer is, whatever the dice or cards
    (`choices`: by key pattern, `Ruleset.answer_choices`): bad input, refused before anything is rolled or drawn. Read
    once ledger faces were dealt, `Context.choose` would drop it and store the decision pending, its question asked
    again; one of the choices that these faces do not offer is still dropped so, once they are seen."""
    for key, answer in answers.items():
        offered = next((options for pattern, options in choices.items() if matches_key([pattern], key)), None)
        if offered is not None and as_spelled(answer, offered) is None:
            raise AnswerRefused(f"--answer {key}: '{answer}' is not one of: {', '.join(offered)}", [key])


def not_asked(keys: Sequence[str], why: str) -> AnswerRefused:
    """The refusal of answers given now for questions the command tells, before any roll, it will not ask."""
    return AnswerRefused(f"--answer {', '.join(keys)}: not asked: {why}", list(keys))


def loose_key(key: str) -> str:
    """An answer key as people may type it: each part between ':' and '.' as a slug, so that
    `injury:Hans` is `injury:hans` and `recovered:Arrer Boyz` is `recovered:arrer-boyz`."""
    return ":".join(".".join(slug(part) for part in segment.split(".")) for segment in key.split(":"))


def written_as(key: str, answers: Iterable[str]) -> str | None:
    """The key of `answers` that is `key` written another way (None: none is)."""
    loose = loose_key(key)
    return next((typed for typed in answers if typed != key and loose_key(typed) == loose), None)


def command_name(command: Command) -> str:
    return type(command).__struct_config__.tag


def recorded_args(command: Command) -> dict[str, Any]:
    """The command's fields as its transaction records them. A field `added_later` is left out
    while at its default, so a command recorded before the field existed re-decides to the very
    record it has (replay --check compares them)."""
    args = msgspec.to_builtins(command)
    args.pop("command", None)
    for name, default in _added_later_defaults(type(command)):
        if getattr(command, name) == default:
            args.pop(name)
    return args


@functools.cache  # reading a Struct's fields costs some 70 µs: once a command type, not once a command
def _added_later_defaults(command_type: type[Command]) -> tuple[tuple[str, Any], ...]:
    fields = {f.name: f for f in msgspec.structs.fields(command_type)} if command_type.added_later else {}
    return tuple((name, fields[name].default_factory() if fields[name].default is msgspec.NODEFAULT else fields[name].default)
                 for name in command_type.added_later)


# Asked when a handler needs a choice that the command did not carry: (prompt, options) -> option.
AskChoice = Callable[[str, Sequence[str]], str]
class BuildAsk(Protocol):
    """What a guided post-game step's builder asks with: a question under its answer `key`, so
    `post-game --answer KEY=CHOICE` answers it ahead and `post-game --list` shows it."""

    def __call__(self, prompt: str, options: Sequence[str], key: str | None = None) -> str: ...

    def number(self, prompt: str, key: str, check: Callable[[int], object] | None = None) -> int:
        """A whole number, for an amount no list of choices bounds (`--answer KEY=N`). `check` is the
        rules' own check of it, refusing with a LedgerError or the ruleset's rule error (a ValueError):
        a terminal asks again while it refuses; an answer given ahead is left to the command, which
        refuses it in the same words."""
        ...


# Asked when table dice run out: (prompt naming the roll, die sides) -> faces.
AskDice = Callable[[str, Sequence[int]], list[int]]


class Roll(msgspec.Struct, frozen=True):
    number: int
    faces: list[int]
    value: int
    kept: list[int]
    anew: bool = False  # see Faces.anew


class Faces(NamedTuple):
    faces: list[int]
    source: str  # "table" or "ledger"
    epoch: int | None = None
    copy_of: int | None = None  # a reroll keeps its transaction's undisputed rolls: the roll they copy
    # Rolled anew by a reroll (the disputed roll, or one the new result asks for): what the command said of the
    # roll it disputes (an outcome a player read off it) is not said of this one.
    anew: bool = False


class Diverged(Exception):
    """Re-deciding asked for dice other than those recorded (a void's 'affected' case)."""


class RanOut(Diverged):
    """Re-deciding asked for a roll or a card beyond those recorded: where a decision stored pending
    for want of dice stops again."""


class DiceSource(Protocol):
    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        """The faces for roll number `roll`, one per die in `die_sides`, and where they came from."""

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        """The card drawn from a physical deck."""

    def rewind(self) -> None:
        """Start again from the first die, to decide the same command again after a conflict."""

    def finish(self) -> None:
        """Refuse dice or cards that were given but not used."""


class TableDice(msgspec.Struct):
    """Faces typed by people: given up front, then asked for when a handler needs more."""

    given: list[int] = msgspec.field(default_factory=list)
    ask: AskDice | None = None
    cards: list[str] = msgspec.field(default_factory=list)
    ask_card: Callable[[str, Sequence[str]], str] | None = None
    used_by: str = ""  # the post-game walk's first step, given the walk's --dice: named when they go unused
    _next: int = 0
    _next_card: int = 0

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        sides = die_sides
        available = self.given[self._next : self._next + len(sides)]
        if len(available) < len(sides):
            missing = sides[len(available) :]
            if self.ask is None:
                raise NeedsDice(
                    f"{purpose} needs {expression} ({len(missing)} more "
                    f"{'die' if len(missing) == 1 else 'dice'}): pass them with --dice, or use --ledger"
                )
            prompt = f"{purpose} ({expression})" + (f", {len(missing)} more" if available else "")
            extra = self.ask(prompt, missing)
            d.check_faces([*available, *extra], sides, purpose, expression)  # each die named by its place in the roll
            # Keep what was typed so a retry after a conflict does not ask again.
            self.given[self._next + len(available) : self._next + len(available)] = extra
            available = self.given[self._next : self._next + len(sides)]
        d.check_faces(available, sides, purpose, expression)
        self._next += len(sides)
        return Faces(available, "table")

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        if self._next_card < len(self.cards):
            card = self.cards[self._next_card]
        elif self.ask_card is not None:
            card = self.ask_card(f"{purpose}: card drawn from {deck}", candidates)
            self.cards.append(card)
        else:
            raise NeedsDice(f"{purpose}: name the card drawn from {deck} with --card")
        named = card if card in candidates else _card_named(card, candidates)
        if named is None:
            raise BadInput(f"{purpose}: '{card}' is not a card left in {deck}")
        self._next_card += 1
        return named

    def rewind(self) -> None:
        self._next = self._next_card = 0

    def _left_over_by_the_walk(self) -> str:
        """Why the walk's first step (`used_by`) left dice over: the walk's --dice are that step's alone, so no later
        step takes them, whatever it rolls."""
        def faces(given: Sequence[int]) -> str:
            return ",".join(map(str, given))
        alone = "the walk's --dice are its first step's alone"
        later = "a later step that rolls is given its own when the walk reaches it"
        if self._next == 0:
            return f"--dice {faces(self.given)}: {self.used_by} rolls no dice, and {alone}: leave them out ({later})"
        rolled = f"{self._next} {'die' if self._next == 1 else 'dice'} ({faces(self.given[:self._next])})"
        return (f"--dice {faces(self.given)}: {self.used_by} rolls {rolled}, and {alone}: "
                f"{faces(self.given[self._next:])} left over ({later})")

    def finish(self) -> None:
        unused = len(self.given) - self._next
        if unused > 0:
            if self.used_by:
                raise BadInput(self._left_over_by_the_walk())
            given = f"{len(self.given)} {'die' if len(self.given) == 1 else 'dice'}"
            raise BadInput(f"{given} given but only {self._next} used: check --dice")
        if len(self.cards) > self._next_card:
            given = f"{len(self.cards)} {'card' if len(self.cards) == 1 else 'cards'}"
            raise BadInput(f"{given} given but only {self._next_card} drawn from a physical deck: check --card "
                           "(a deck the ledger deals takes none)")


def _card_named(typed: str, candidates: Sequence[str]) -> str | None:
    """The card `typed` names another way: in another case ("as" for AS), or a number without its
    leading zeros ("6" for 06)."""
    spelled = as_spelled(typed, candidates)
    if spelled is not None or not (typed.isascii() and typed.isdigit()):
        return spelled
    return next((card for card in candidates if card.isascii() and card.isdigit() and card.lstrip("0") == typed.lstrip("0")),
                None)


class LedgerDice(msgspec.Struct):
    """Verifiable digital dice derived from the campaign's secret seed of this epoch."""

    seed: bytes
    epoch: int
    campaign_id: str
    # Why the seed may be public now, asked before the first die (None: it is not): a look-up a command that
    # rolls nothing never makes (`SeedKeeping.seed_left_elsewhere`).
    left_elsewhere: Callable[[], str | None] | None = None

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        if self.left_elsewhere is not None:
            if why := self.left_elsewhere():
                raise RuleViolation(why)
            self.left_elsewhere = None  # asked once: the store's seeds do not change within a command
        return Faces(d.ledger_faces(self.seed, self.campaign_id, roll, die_sides), "ledger", self.epoch)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        raise NeedsDice(f"{purpose}: {deck} is a physical deck in this campaign: name the card drawn with --card")

    def finish(self) -> None:
        """Ledger dice cannot be over-supplied."""

    def rewind(self) -> None:
        """Nothing to rewind: faces are derived from the roll number."""


class RecordedDice(msgspec.Struct):
    """The dice and cards a transaction recorded, handed back when it is re-decided."""

    rolls: list[ev.DiceRolled]
    draws: list[ev.CardDrawn]
    _next: int = 0
    _next_card: int = 0

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        if self._next >= len(self.rolls):
            raise RanOut(f"now needs a roll of {expression} for {purpose} that was never made")
        recorded = self.rolls[self._next]
        if recorded.expression != expression or recorded.purpose != purpose:
            raise Diverged(
                f"now rolls {expression} for {purpose}, but {recorded.expression} "
                f"for {recorded.purpose} was recorded"
            )
        self._next += 1
        return Faces(list(recorded.faces), recorded.source, recorded.epoch, recorded.copy_of)

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        if self._next_card >= len(self.draws):
            raise RanOut(f"now draws from {deck} for {purpose}, which was never drawn")
        card = self.draws[self._next_card].card
        if card not in candidates:
            raise Diverged(f"{card} is no longer in {deck}")
        self._next_card += 1
        return card

    def finish(self) -> None:
        """Unused recorded dice show up as different events; nothing to check here."""

    def rewind(self) -> None:
        self._next = self._next_card = 0


def _offered(answer: str, options: Sequence[str], open_ended: bool) -> str | None:
    """The choice of `options` `answer` names, as the rules spell it (None: none): typed in another case, it is
    that choice ("mel" for Mel); `open_ended`, any other name too (a group's own table row), as typed."""
    if answer in options:
        return answer
    spelled = as_spelled(answer, options)
    if spelled is None and open_ended and answer.strip():
        return answer.strip()
    return spelled


class Context:
    """What a handler sees while deciding one command."""

    def __init__(
        self,
        state: CampaignState,
        *,
        dice: DiceSource,
        shuffle_dice: DiceSource | None,
        answers: dict[str, str],
        ask: AskChoice | None,
        ruleset_evolve: RulesetEvolve | None,
        decks: Mapping[str, list[str]],
        options: dict[str, Any],
        answered_now: Iterable[str] = (),
        asks_again_after_a_reroll: bool = False,
        dealt_since_the_answers: bool = False,
    ):
        """`asks_again_after_a_reroll`: a recorded answer the choices refuse once dice were rolled anew is dropped
        and its question asked again (`Ruleset.asks_again_after_a_reroll`); `dealt_since_the_answers`: the dice
        handed back were dealt after the answers recorded (a pending decision answered), so they count as anew."""
        self.state = state
        self.events: list[ev.Event] = []
        self.answers = dict(answers)
        self.asked: list[str] = []  # the keys `choose` was asked for (and `given` read), in order
        self._answered_now = frozenset(loose_key(key) for key in answered_now)  # given by a person for this decision
        self.recorded_as: Command | None = None  # what the transaction records in place of the command typed (`record_as`)
        self.options = options
        self._dice = dice
        self._shuffle_dice = shuffle_dice
        self._ask = ask
        self._evolve = ruleset_evolve
        self._decks = decks
        self._asks_again_after_a_reroll = asks_again_after_a_reroll
        # the dice were dealt after the answers recorded: by a reroll (a roll's `Faces.anew`), or, answering a pending
        # decision, by it
        self._rolled_anew = dealt_since_the_answers

    @property
    def version(self) -> str:
        """The ruleset version in force at this transaction: a rule fix is gated on it, so campaigns
        recorded under an older version keep deciding as they did (`campaign rules upgrade` moves on)."""
        return self.state.ruleset_version

    @property
    def typed_now(self) -> bool:
        """Whether the command was typed now, not a recorded one decided again (replay, void, import): a
        refusal of new input only, which recorded commands never meet, reads it instead of a new version."""
        return TYPED_NOW.get()

    def record_as(self, command: Command) -> None:
        """Record the command typed now as the rules read it (`--add-keyword "Leader,Fear"` as two keywords), so
        that decided again (replay, voids, import) it reads what it did; a recorded one keeps its record."""
        if self.typed_now:
            self.recorded_as = command

    def record_without(self, command: Command) -> None:
        """Record `command`, which leaves out what the command decided said of a roll a reroll made anew
        (`Roll.anew`; an outcome read off the disputed roll): decided again (replay, import, a pending
        decision answered) from its record, it asks for that as this decision did."""
        self.recorded_as = command

    def emit(self, *events: ev.Event) -> None:
        for event in events:
            if TYPED_NOW.get():
                refuse_hidden_ids(self.state, event)
                refuse_totals_past_the_limit(self.state, event)
            self.events.append(event)
            evolve(self.state, event, self._evolve)

    def roll(self, expression: str, purpose: str) -> Roll:
        parsed = d.parse_expression(expression)
        text = str(parsed)
        number = self.state.rolls
        thrown = self._dice.faces(number, text, parsed.die_sides, purpose)
        value, kept = parsed.evaluate(thrown.faces)
        self._rolled_anew = self._rolled_anew or thrown.anew
        self.emit(
            ev.DiceRolled(
                roll=number,
                expression=text,
                purpose=purpose,
                faces=thrown.faces,
                value=value,
                kept=kept,
                source=thrown.source,
                epoch=thrown.epoch,
                copy_of=thrown.copy_of,
            )
        )
        return Roll(number=number, faces=thrown.faces, value=value, kept=kept, anew=thrown.anew)

    def choose(self, key: str, prompt: str, options: Sequence[str], *, open_ended: bool = False) -> str:
        """The option the player picked for `key`: from the command's answers, or asked now.
        `open_ended`: the options are the names the rules know, and an answer may name another
        (a group's own table row), recorded as typed."""
        if not options:
            raise RuleViolation(f"{prompt}: there is nothing to choose from")
        self.asked.append(key)
        if key in self.answers and not self._dropped_as_read_off_disputed_dice(key, options, open_ended):
            answer = self.answers[key]
        elif len(options) == 1:
            return options[0]
        elif (typed := written_as(key, self.answers)) is not None:
            answer = self.answers.pop(typed)  # recorded under the key the rules ask
        elif self._ask is not None and not self.dealt_ledger_faces():
            answer = self._ask(prompt, options)
        else:
            # After new ledger dice or a ledger card no prompt may show them before they are stored:
            # the service stores the transaction as pending and asks then.
            raise NeedsAnswer(key, prompt, list(options), open_ended=open_ended)
        chosen = _offered(answer, options, open_ended)
        if chosen is None:
            if self._dropped_after_ledger_faces(key):
                raise NeedsAnswer(key, f"{prompt} ('{answer}', given ahead, is not one of them)", list(options),
                                  open_ended=open_ended)
            raise AnswerRefused(f"{prompt}: '{answer}' is not one of: {', '.join(options)}" if not open_ended
                                else f"{prompt}: '{answer}' names nothing: give one of {', '.join(options)}, or another name",
                                [key])
        self.answers[key] = chosen
        return chosen

    def answered_now(self, key: str) -> bool:
        """Was `key` answered by a person for this decision (the command typed now, or `campaign answer`),
        not read from a record decided again?"""
        return loose_key(key) in self._answered_now

    def _dropped_after_ledger_faces(self, key: str) -> bool:
        """Drops the answer for `key` that the choices refuse where a person gave it now, ahead of faces the
        ledger dealt since (True): refused, it would stay with the pending decision those faces make, which
        only a void (and new faces) would end; dropped, its question is asked once the decision is stored."""
        if not self.answered_now(key) or not self.dealt_ledger_faces():
            return False
        self._drop(key)
        return True

    def _dropped_as_read_off_disputed_dice(self, key: str, options: Sequence[str], open_ended: bool) -> bool:
        """Drops the recorded answer for `key` that the choices refuse once dice were rolled anew (True): by a reroll,
        or dealt by the pending decision being answered. It was chosen of what the
        disputed dice offered, or given ahead of the dice dealt, and its question is asked again of what the new ones
        offer (a choice of one is taken). Refused, it stood: with ledger dice the decision stayed pending with it,
        which no answer could settle and only a void ended, after which the command typed again rolled every die
        anew. Left out of what the transaction records, it is asked again alike when decided from its record."""
        if (not self._asks_again_after_a_reroll or not self._rolled_anew or self.answered_now(key)
                or _offered(self.answers[key], options, open_ended) is not None):
            return False
        self._drop(key)
        return True

    def _drop(self, key: str) -> None:
        self.answers = {given: value for given, value in self.answers.items() if loose_key(given) != loose_key(key)}

    def not_asked(self, key: str, why: str) -> None:
        """A question the command documents but does not ask this time, as it can tell before any roll: an
        answer a person gave now for it is refused saying `why`, nothing rolled or written. One recorded with
        a command decided again is left unused, as it was when recorded."""
        if self.answered_now(key):
            raise not_asked([key], why)

    def given(self, key: str) -> str | None:
        """The answer given for `key` where the command reads a value rather than asks a choice (None:
        none given). Counted as asked: an answer offered from outside the command (a reroll's
        --answer) is then recorded with it, as its re-deciding needs."""
        if key in self.answers:
            self.asked.append(key)
        return self.answers.get(key)

    def dealt_ledger_faces(self) -> bool:
        """Did the ledger deal faces while deciding: new ledger dice (not copies of stored ones), or a card
        from a deck it shuffled (in this transaction or an earlier one)?"""
        return any(
            (isinstance(e, ev.DiceRolled) and e.source == "ledger" and e.copy_of is None)
            or (isinstance(e, ev.CardDrawn) and e.source == "ledger")
            for e in self.events
        )

    def draw(self, deck_id: str, purpose: str, held: Sequence[str] = ()) -> str:
        """Draw the next card. A digital deck is shuffled with ledger dice whenever it runs out;
        a physical deck's card is typed in, and it counts as reshuffled once every card is out.
        `held`: cards drawn and still in hand (an Advantage pair's first), kept out of a reshuffle."""
        if deck_id not in self._decks:
            known = list(itertools.islice(self._decks, DECKS_NAMED + 1))
            named = ", ".join(known[:DECKS_NAMED]) + (", …" if len(known) > DECKS_NAMED else "")
            raise BadInput(f"there is no deck '{deck_id}' in this campaign"
                           + (f" (decks: {named})" if known else ": its ruleset has no decks"))
        deck = self.state.decks.get(deck_id)
        if self.options.get("decks", "ledger") == "physical":
            remaining = list(self._decks[deck_id])
            for seen in deck.discards if deck else []:
                if seen in remaining:
                    remaining.remove(seen)
            if not remaining:
                remaining = list(self._decks[deck_id])
                _refuse_all_in_hand(deck_id, purpose, remaining, held)
                self.emit(ev.DeckShuffled(deck=deck_id, cards=[], roll=None, source="table"))
                for card in self._set_aside(deck_id, purpose, held, "table"):
                    remaining.remove(card)
            card = self._dice.card(deck_id, purpose, sorted(set(remaining), key=remaining.index))
            self.emit(ev.CardDrawn(deck=deck_id, card=card, purpose=purpose, source="table"))
            return card
        if deck is None or not deck.draw_pile:
            cards = list(self._decks[deck_id]) if deck is None else list(deck.discards)
            _refuse_all_in_hand(deck_id, purpose, cards, held)
            self._shuffle(deck_id, cards)
            self._set_aside(deck_id, purpose, held, "ledger")
            deck = self.state.decks[deck_id]
        card = deck.draw_pile[0]
        self.emit(ev.CardDrawn(deck=deck_id, card=card, purpose=purpose, source="ledger"))
        return card

    def _set_aside(self, deck_id: str, purpose: str, held: Sequence[str], source: str) -> Sequence[str]:
        """Cards in hand when the deck ran out are not in the new one: each is taken out of it as
        drawn (onto the discards, where it goes once read), so the next draw cannot deal it again."""
        for card in held:
            self.emit(ev.CardDrawn(deck=deck_id, card=card, purpose=purpose, source=source, held=True))
        return held

    def _shuffle(self, deck_id: str, cards: list[str]) -> None:
        if self._shuffle_dice is None:
            raise RuleViolation("ledger dice are not available to shuffle the deck")
        number = self.state.rolls
        label = f"shuffle {len(cards)}"
        purpose = f"shuffle {deck_id}"
        thrown = self._shuffle_dice.faces(number, label, d.shuffle_die_sides(len(cards)), purpose)
        self._rolled_anew = self._rolled_anew or thrown.anew  # the cards drawn of it are dealt anew too
        self.emit(
            ev.DiceRolled(
                roll=number,
                expression=label,
                purpose=purpose,
                faces=thrown.faces,
                value=0,
                source=thrown.source,
                epoch=thrown.epoch,
                copy_of=thrown.copy_of,
            ),
            ev.DeckShuffled(deck=deck_id, cards=d.shuffled(cards, thrown.faces), roll=number, source=thrown.source),
        )


def _refuse_all_in_hand(deck_id: str, purpose: str, cards: Sequence[str], held: Sequence[str]) -> None:
    """A deck run out is shuffled anew from `cards`, less those in hand (`held`): none left, no card can be
    drawn, and the draw is refused before any shuffle (a house deck of one card asked for a pair)."""
    if all(card in held for card in cards):
        shown = list(dict.fromkeys(cards))
        raise RuleViolation(f"{purpose}: no card of {deck_id} is left to draw: {', '.join(shown)} "
                            f"{'is' if len(shown) == 1 else 'are'} in hand, and no other to shuffle into a new deck")
