"""What a ruleset is, and the registry that maps a ruleset id to one.

The core knows no game rules: rulesets live in the `commands` package, whose `RULESETS` index
names each ruleset's module without importing it. A ruleset's module is imported (and registers
itself) only when something needs that ruleset: a campaign under it, one of its commands, or one
of its events being read (a ruleset's own event tags start with its id and a dot). A ruleset
gives a visible table mapping each of its command types to its handler, its own events' fold,
its decks, its options (house rules), its guided post-game steps, its warband rating, its
versions, and a hook that adds its own commands to the CLI group it is handed.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, wraps
from typing import Any, NamedTuple

import msgspec

from ledger import events as ev
from ledger.decide import BuildAsk, Command, Context, loose_key
from ledger.errors import BadInput, NotFound, RuleViolation
from ledger.state import CampaignState, Fighter, RulesetEvolve, Warband
from ledger.terms import Terms
from ledger.text import as_spelled

Handler = Callable[[Any, Context], None]
# The words after which a ruleset's recorded reasons cite a row by its id, or patterns the text before one matches
# (`Ruleset.ids_cited_after`).
CitedAfter = tuple[str | re.Pattern[str], ...]


def refusing_as_rule_violation(refusal: type[Exception]) -> Callable[[Handler], Handler]:
    """For a ruleset whose pure rules raise their own `refusal` error: wrap each handler so that
    such a refusal reaches the player as a RuleViolation with the same message (one place per ruleset)."""

    def wrap(handler: Handler) -> Handler:
        @wraps(handler)
        def decide(command: Any, ctx: Context) -> None:
            try:
                handler(command, ctx)
            except refusal as error:
                raise RuleViolation(str(error)) from None

        return decide

    return wrap


class Step(msgspec.Struct, frozen=True):
    """One step of a guided post-game sequence; each step is one command, hence one transaction.

    `title` is the walk's heading for it, which begins with the step's name (`Ruleset.step_names`).

    `done(state, warband)` tells from the events alone whether the step has been done for the
    warband's latest battle, which is what makes the sequence resumable: a step's command emits
    `PostGameStepDone`, and `steps_done` reads them back. `build` asks the player for what the
    command needs (dice are asked for later, while deciding). `before` names what the player may
    do with other commands before this step (e.g. buy equipment); at a terminal the walk offers
    to stop there, since once the step is done that window is closed. `asks` names, as patterns
    (`doom-roll:N`: the N-th pick), the questions `build` may ask beyond those it asks on the state
    at hand (`--list` shows them): they are the walk's, not the command's (its `answer_keys`), and
    asked before any dice of the step, so an answer given for one is taken only when `build` asks it.
    `asks_once_opened` names, as patterns too, the questions `build` asks only once a step before it
    has opened them (an Advancement Roll owed once Experience has given the XP): an answer for one
    is accepted ahead while such a step is still to do in the walk, and taken only when asked.
    `asks_once_made` names, as patterns too, the questions the step's own command asks of a warrior it
    makes as it goes (the hero a Talent! makes at the advances, whose own advance is answered under his
    name): an answer for one is accepted ahead while the step is to do in the walk. `made_asked_as` gives
    the key its command asks such an answer under, as its transaction records it (his own advance's, under
    his group's key), so the walk knows it taken; it refuses with BadInput, naming why, one the command
    will not ask after all (his advance at a threshold other than his group's), before anything is written.
    `opened_for` gives the warriors (ids and names as slugs, `ledger.decide.warriors_named`) whom the
    placeholders of those patterns may name, of the warband (the henchman groups a Talent! may promote);
    None: any fighter of the warband (the walk is one warband's). `owed(state, warband)` says what is left of
    the step when its command left some of it to do, which the walk says as it does the step once more.
    `no_more` is the answer that ends a pick of `asks` asked again and again (a pattern ending in `:N`, the
    N-th pick: Retinue's `none`): given for a pick `build` does not ask, past the last it could ask or after
    one answered so, it says what the walk does all the same, so the walk accepts it and says it unused.
    `rolls_no_dice(state, warband)` says why the step's command rolls no die now where the rules tell it before
    deciding (a Coreheim reinforcing roll held from earlier, which stands), None where it may roll: the walk refuses
    --dice given to it saying so, before anything is written, as the command itself does.
    """

    key: str
    title: str
    done: Callable[[CampaignState, str], bool]
    build: Callable[[CampaignState, str, BuildAsk], Command]
    before: str = ""
    asks: tuple[str, ...] = ()
    asks_once_opened: tuple[str, ...] = ()
    asks_once_made: tuple[str, ...] = ()
    opened_for: Callable[[CampaignState, str], Collection[str]] | None = None
    made_asked_as: Callable[[CampaignState, str, str], str] | None = None
    owed: Callable[[CampaignState, str], str] | None = None
    no_more: str = ""
    unasked: Callable[[CampaignState], Mapping[str, str]] | None = None
    rolls_no_dice: Callable[[CampaignState, str], str | None] | None = None

    def unasked_in(self, state: CampaignState) -> Mapping[str, str]:
        """The keys of its command this campaign never asks, each with why (`unasked`)."""
        return self.unasked(state) if self.unasked else {}

    def command_asks(self, state: CampaignState, command: Command) -> list[str]:
        """The keys of `command`'s `answer_keys` it may ask in this campaign (all but `unasked`)."""
        unasked = self.unasked_in(state)
        return [key for key in type(command).answer_keys if key not in unasked]

    def ends_picks(self, key: str, answer: str) -> bool:
        """Whether `answer`, given for `key`, is `no_more` for one of the step's N-th picks (`doom-roll:3=none`)."""
        if not self.no_more or as_spelled(answer, [self.no_more]) is None:
            return False
        picked, _, number = loose_key(key).rpartition(":")
        return number.isdigit() and any(loose_key(pattern.removesuffix(":N")) == picked
                                        for pattern in self.asks if pattern.endswith(":N"))


def steps_done(state: CampaignState, warband: str, battle: int) -> list[str]:
    """The keys of the post-game steps the warband has done for this battle, in the order done
    (none for a battle older than its latest step: the state keeps only that battle's)."""
    band = state.warbands.get(warband)
    progress = band.post_game if band is not None else None
    return list(progress.done) if progress is not None and progress.battle == battle else []


# Options the core reads whatever the ruleset: who rolls by default, and how decks are drawn.
CORE_OPTIONS: Mapping[str, tuple[str, ...]] = {"dice": ("table", "ledger"), "decks": ("ledger", "physical")}


# (the click group `campaign <ruleset-id>`, the shell's helpers) -> None: adds the ruleset's own
# commands to the group. The helpers (`commands.kit.cli.Shell`) are handed over so that a
# ruleset never imports the CLI.
RegisterCommands = Callable[[Any, Any], None]


def commands_in(module: str) -> RegisterCommands:
    """The `register_commands` hook of a ruleset's module of commands (its `cli`), imported only
    when `campaign <ruleset-id>` is used: the core's commands do not load it with the ruleset."""

    def register_commands(group: Any, shell: Any) -> None:
        importlib.import_module(module).register_commands(group, shell)

    return register_commands


@dataclass(frozen=True)
class Ruleset:
    id: str
    version: str  # the newest: what a new campaign pins
    title: str
    handlers: Mapping[type[Command], Handler]
    evolve: RulesetEvolve | None = None
    decks: Mapping[str, list[str]] = field(default_factory=dict)
    # A campaign's own decks, for a ruleset whose decks depend on its options (a house-rule deck,
    # one deck per warband or per battle); None: every campaign uses `decks`.
    decks_for: Callable[[CampaignState], Mapping[str, list[str]]] | None = None
    # Where its rules draw from its decks (Speedheim: a card per Incapacitation): the commands that draw, in the
    # words a refusal of a bare `campaign draw` from one of them names; a card drawn outside the rules would be
    # burned or counted, and every draw after it shift. "": its decks are for bare draws (freeform's cards).
    decks_drawn_by: str = ""
    terms: Terms = Terms()  # its words for people: rating, treasury, resources (report, roster sheets)
    default_options: Mapping[str, Any] = field(default_factory=dict)
    check_options: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    post_game: Callable[[CampaignState, str], Sequence[Step]] | None = None
    # Each post-game step's name by its key, as players call it: what the log, the report and the walk say
    # of a step (its `post-game.step-done` records the key); a key it lacks is shown as recorded.
    step_names: Mapping[str, str] = field(default_factory=dict)
    rating: Callable[[CampaignState, str], int] | None = None
    # A warband's or fighter's own facts as the read models and the report show them (their `ext`),
    # for a ruleset keeping them typed (`commands.kit.Facts.shown_ext`); None: the holder's `ext`.
    shown_ext: Callable[[CampaignState, Warband | Fighter], Mapping[str, Any]] | None = None
    # The injuries a fighter has now, of those recorded (`Fighter.injuries`), as the read models show them: a
    # Speedheim Light Wound only makes him miss the next game, and is healed once he has missed it. Read from
    # the campaign's state and that fighter alone, as `shown_ext`. None: every injury recorded lasts.
    injuries_now: Callable[[CampaignState, Fighter], list[str]] | None = None
    register_commands: RegisterCommands | None = None
    # Every choice each of its questions may offer in a campaign, whatever the dice or cards, by key pattern (as
    # `Command.answer_keys` writes them: Speedheim's `FIGHTER.ATTEMPT.N.mel-rgd` offers Mel, Rgd or "draw again"). An
    # answer given now that is none of them can never be taken: it is refused before anything is rolled or drawn
    # (`ledger.decide.refuse_never_offered`), by a command and by the walk. None: no question's choices are known ahead.
    answer_choices: Callable[[CampaignState], Mapping[str, Sequence[str]]] | None = None
    # The starting order of a deck of a campaign with these options, for a ruleset whose decks depend on
    # them (`decks_for`): what an audit trail's header gives a verifier to re-derive its first shuffle.
    deck_order: Callable[[Mapping[str, Any], str], list[str] | None] | None = None
    # The names a campaign's own tables give the rows its events record by id, by kind ("deed": the
    # glorious deeds, "scenario": the scenarios, "item": the items, "faction": the factions a warband's
    # `faction` names): the chronicle and the roster cards show them (an id the tables no longer know is
    # shown as recorded); None: events record them as named.
    row_names: Callable[[CampaignState], Mapping[str, Mapping[str, str]]] | None = None
    # The words after which its recorded reasons and roll purposes cite a row by its id (Coreheim's "bought
    # sword", "price of telescope"), or a pattern that matches the text before such an id (one ending in `$`: the
    # items a list after "the gear of 2 recruits for Marksmen: " cites): there an id that is its name in lower case
    # is said by its name too ("bought Sword", beside "Gunnar gains Sword"); elsewhere such an id is left a word,
    # often an ordinary one ("survived", "captured").
    ids_cited_after: CitedAfter = ()
    # What a roll meant where no record after it says so (a Speedheim Scars roll of Full Recovery changes
    # nothing: "no effect (Scar 12: Full Recovery)"), said with the roll in the chronicle; "" for any other
    # roll. Not said of a roll whose purpose a person typed (`campaign roll --for`), whatever it says: the
    # ruleset's own rolls only. None: every roll's consequences are records of their own.
    roll_meaning: Callable[[ev.DiceRolled, CampaignState], str] | None = None
    # Whether a roll's or a card draw's purpose names the fighter it is for by this name (a Speedheim Scars roll,
    # "Hilde: Hero Scars"): (purpose, name). Such a roll is in the fighter's history, which shows what it did (a
    # Scars roll of no effect: only the roll). None: the records a roll makes name the fighter themselves.
    purpose_names: Callable[[str, str], bool] | None = None
    # The glorious deeds an event records as done by a warband with no doer, which the core's battle
    # (fighters' deeds only) does not hold: (warband id, deed id) each, for the chronicle's battle line.
    warband_deeds: Callable[[ev.Event], Sequence[tuple[str, str]]] | None = None
    # The words after `campaign` a player types for a recorded command whose tag does not say them (tag,
    # its recorded args -> words: 'trench-crusade.advancement' is `trench-crusade advance`); None: the
    # tag's own words, its dots as spaces (`typed_command`).
    typed_as: Callable[[str, Mapping[str, Any]], str | None] | None = None
    # What a warband starts with when `warband add` names no treasury (the rules' starting gold); None: 0.
    starting_treasury: Callable[[CampaignState], int] | None = None
    # Every version, oldest first, ending with `version`. A rule fix that changes what a recorded
    # command decides is a new version, gated in the handler on `ctx.version`.
    versions: Sequence[str] = ()
    # The version from which a choice recorded with a command that the choices refuse once dice were rolled anew (by a
    # reroll, or dealt by a pending decision being answered: a `multiple=3x2` the new dice do not offer) is dropped and
    # asked again (`Context.choose`); None: it is refused.
    asks_again_after_a_reroll: str | None = None

    def __post_init__(self) -> None:
        if not self.versions:
            object.__setattr__(self, "versions", (self.version,))
        if self.versions[-1] != self.version:
            raise ValueError(f"ruleset {self.id}: the newest of its versions {list(self.versions)} must be {self.version}")

    def plays(self, state: CampaignState, version: str) -> bool:
        """Whether the campaign plays `version` of this ruleset or a later one now (at the transaction being decided)."""
        if version not in self.versions:
            raise ValueError(f"{self.id} has no version {version}: gate on one of {list(self.versions)}")
        current = state.ruleset_version if state.ruleset_version in self.versions else self.versions[0]
        return self.versions.index(current) >= self.versions.index(version)

    @cached_property
    def command_types(self) -> dict[str, type[Command]]:
        return {cls.__struct_config__.tag: cls for cls in self.handlers}

    def command_from(self, name: str, args: Mapping[str, Any]) -> Command:
        """Rebuild a recorded command (or build one from plain values), with msgspec's errors."""
        if name not in self.command_types:
            raise BadInput(f"ruleset {self.id} has no command '{name}'")
        try:
            # Its own type, not the union of the ruleset's commands: msgspec analyses a union again at
            # every call (14 µs a command, most of re-deciding one), a Struct type once.
            return msgspec.convert({**args, "command": name}, self.command_types[name])
        except msgspec.ValidationError as error:
            raise BadInput(f"{name}: {error}") from None

    def ext_of(self, state: CampaignState, holder: Warband | Fighter) -> dict[str, Any]:
        """The warband's or fighter's own facts, as the read models show them."""
        return dict(self.shown_ext(state, holder) if self.shown_ext is not None else holder.ext)

    def injuries_of(self, state: CampaignState, fighter: Fighter) -> list[str]:
        """The injuries the fighter has now, as the read models show them."""
        return list(self.injuries_now(state, fighter) if self.injuries_now is not None else fighter.injuries)

    def answer_choices_in(self, state: CampaignState) -> Mapping[str, Sequence[str]]:
        """Every choice each question may offer in this campaign, by key pattern (`answer_choices`)."""
        return self.answer_choices(state) if self.answer_choices is not None else {}

    def decks_of(self, state: CampaignState) -> Mapping[str, list[str]]:
        """The decks a decision on `state` may draw from (read, never changed: each draw copies its cards)."""
        return self.decks_for(state) if self.decks_for is not None else self.decks

    def handler_for(self, command: Command) -> Handler:
        try:
            return self.handlers[type(command)]
        except KeyError:
            raise BadInput(f"ruleset {self.id} does not handle {type(command).__name__}") from None

    def options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with the campaign's house rules, checked by the ruleset, then the
        options the core itself reads checked for every ruleset: a misspelt value would otherwise
        be pinned for good and quietly read as the default."""
        merged = {**self.default_options, **given}
        checked = self.check_options(merged) if self.check_options else merged
        for key, allowed in CORE_OPTIONS.items():
            if key in checked and checked[key] not in allowed:
                raise BadInput(f"option {key} is {' or '.join(repr(a) for a in allowed)}, not {checked[key]!r}")
        return checked


# The core's commands a player types otherwise than their tags say.
CORE_TYPED: Mapping[str, str] = {
    "campaign.new": "new", "warband.enlist": "warband add", "fighter.recruit": "fighter add",
    "treasury.change": "treasury",
}
# The ledger's own commands, which nobody types, in the words a chronicle heads them with: the dice a
# league server dealt that no command recorded (a face fetched by hand, a crash), burned by the next command.
UNTYPED: Mapping[str, str] = {"dice.burn": "dice burned (dealt but never recorded)"}


def typed_command(ruleset: Ruleset, tag: str, args: Mapping[str, Any]) -> str | None:
    """A recorded command of a campaign of `ruleset` as a player types it, without its arguments:
    'coreheim.hire' is `campaign coreheim hire`, 'warband.enlist' `campaign warband add`. None for one
    nobody types (UNTYPED)."""
    if tag in UNTYPED:
        return None
    own = ruleset.typed_as(tag, args) if ruleset.typed_as is not None else None
    return f"campaign {own or CORE_TYPED.get(tag, tag.replace('.', ' '))}"


class RulesetEntry(NamedTuple):
    """A line of the ruleset index: the module that registers the ruleset, and the one-line help of
    its command group `campaign <id>` (empty: it has no commands of its own)."""

    module: str
    summary: str = ""


_REGISTRY: dict[str, Ruleset] = {}
RULESET_PACKAGE = "commands"


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def index() -> Mapping[str, RulesetEntry]:
    """The ruleset index (`commands.RULESETS`): id -> where its module is and its CLI summary."""
    return importlib.import_module(RULESET_PACKAGE).RULESETS


def load_rulesets() -> dict[str, Ruleset]:
    """Every ruleset, each imported (for `campaign rulesets` and for reading any event)."""
    for ruleset_id in index():
        get(ruleset_id)
    return _REGISTRY


def get(ruleset_id: str) -> Ruleset:
    """A ruleset by id, its module imported the first time it is asked for (folds ask once per record)."""
    found = _REGISTRY.get(ruleset_id)
    if found is not None:
        return found
    entry = index().get(ruleset_id)
    if entry is None:
        raise NotFound(f"no ruleset '{ruleset_id}' (known: {', '.join(sorted({*index(), *_REGISTRY}))})")
    importlib.import_module(entry.module)
    return _REGISTRY[ruleset_id]


def ruleset_of(state: CampaignState) -> Ruleset | None:
    """The campaign's ruleset (None before its `ruleset.pinned` event: a state with no campaign yet)."""
    return get(state.ruleset) if state.ruleset else None


def row_names_of(state: CampaignState) -> Mapping[str, Mapping[str, str]]:
    """The names the campaign's tables give the rows its events record by id (`Ruleset.row_names`),
    by kind; none where its ruleset records them as named."""
    ruleset = ruleset_of(state)
    return ruleset.row_names(state) if ruleset is not None and ruleset.row_names is not None else {}


# The last few campaigns' names of every kind in one mapping, by the `row_names` mapping they came from
# (which rulesets derive once per tables object): a log describes reasons by the thousand.
_NO_NAMES: Mapping[str, str] = {}
# Kinds the roster cards name but no recorded reason holds by id: their ids are also plain words a reason may
# hold ("undead", "captain"), which must not be read as them.
NOT_IN_REASONS = ("faction", "warrior-type")
_REASON_NAMES: dict[int, tuple[Mapping[str, Mapping[str, str]], Mapping[str, str]]] = {}


def reason_names(state: CampaignState) -> Mapping[str, str]:
    """Every id the campaign's tables name (`Ruleset.row_names`, every kind but NOT_IN_REASONS) -> its name, which
    the recorded reasons are said with (`ledger.describe.because`)."""
    by_kind = row_names_of(state)
    if not by_kind:
        return _NO_NAMES
    kept = _REASON_NAMES.get(id(by_kind))
    if kept is None or kept[0] is not by_kind:
        if len(_REASON_NAMES) > 8:
            _REASON_NAMES.clear()
        kept = (by_kind, {row: name for kind, names in by_kind.items() if kind not in NOT_IN_REASONS
                          for row, name in names.items()})
        _REASON_NAMES[id(by_kind)] = kept
    return kept[1]


def ids_cited_after(state: CampaignState) -> CitedAfter:
    """The words after which the campaign's recorded reasons cite a row by its id (`Ruleset.ids_cited_after`)."""
    ruleset = ruleset_of(state)
    return ruleset.ids_cited_after if ruleset is not None else ()


def row_name(state: CampaignState, kind: str, recorded: str) -> str:
    """A row an event recorded (kind "deed", "scenario" or "item") under the name the campaign's tables give
    it, or as recorded where they do not know it (typed as people said it, or dropped by a house rule)."""
    return name_in(row_names_of(state), kind, recorded)


def name_in(names: Mapping[str, Mapping[str, str]], kind: str, recorded: str) -> str:
    """`row_name` from names already looked up (`row_names_of`)."""
    return names.get(kind, {}).get(recorded, recorded)


def treasury_word(state: CampaignState) -> str:
    """What the campaign's log and roster lines call a warband's treasury (`Terms.treasury_word`)."""
    ruleset = ruleset_of(state)
    return ruleset.terms.treasury_word if ruleset is not None else Terms().treasury_word


def step_name(state: CampaignState, key: str) -> str:
    """A post-game step recorded by its key, by the name its ruleset gives it (`Ruleset.step_names`)."""
    ruleset = ruleset_of(state)
    return ruleset.step_names.get(key, key) if ruleset is not None else key


def roll_meaning(state: CampaignState, roll: ev.DiceRolled) -> str:
    """What the roll meant, as its ruleset says it (`Ruleset.roll_meaning`); "" where no record needs it."""
    ruleset = ruleset_of(state)
    return ruleset.roll_meaning(roll, state) if ruleset is not None and ruleset.roll_meaning is not None else ""


def _load_ruleset_of_tag(tag: str) -> bool:
    """An event tag the decoder does not know: import the ruleset whose id prefixes it."""
    ruleset_id = tag.partition(".")[0]
    if ruleset_id in _REGISTRY or ruleset_id not in index():
        return False
    get(ruleset_id)
    return True


ev.on_unknown_tag(_load_ruleset_of_tag)
