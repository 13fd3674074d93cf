"""A ruleset's post-game phase, declared once: its steps in order, steps taken instead of others,
trading windows between steps, and the checks every step and the next battle go through.

A phase belongs to a warband's latest battle (the core state's `latest_battle`). A step done is a
`post-game.step-done` event (emitted by `finish`), unless the step declares `done` itself (a
step that is over once nothing is left to do in it, like advances once every threshold is
rolled). `begin` refuses a step that is done, out of order, or shut out by a step taken in its
place; `refuse_unfinished` refuses the next battle of a warband whose phase is not finished;
`open_window` refuses a trading action outside its window. The refusals are worded by the
ruleset's `PhaseMessages`, so each game speaks its own words.
"""

from __future__ import annotations

import shlex
from typing import Any
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cached_property

import msgspec

from ledger import events as ev
from ledger.decide import BuildAsk, Command, Context
from ledger.errors import RuleViolation
from ledger.rulesets import Step, steps_done
from ledger.state import Battle, CampaignState, Warband

# (state, warband) -> whether the step is over for the latest battle
StepDone = Callable[[CampaignState, Warband], bool]
# (state, warband, step key) -> None, or a RuleViolation: a ruleset's own condition on beginning a step
StepGate = Callable[[CampaignState, Warband, str], None]
# (state, warband id, ask) -> the step's command, asked for by the guided `campaign post-game`
BuildCommand = Callable[[CampaignState, str, BuildAsk], Command]


class PhaseStep(msgspec.Struct, frozen=True):
    """One step of the phase. `title` is how refusals name it; `name` how players call it (the walk's heading,
    the log's and the report's lines, a warband's status), empty where the title is that name ('Trauma');
    `guide` what the walk's heading says of it after its name ('Exploration: a D6 per hero, …');
    `build` makes its command for the guided walk (None: not offered there); `before` names what a
    player may do with other commands before it (the walk offers to stop there); `done` replaces
    "a step-done event was recorded" for steps that are over once nothing is left to do; `instead_of`
    makes it a step taken in another's place (it then has no place of its own in the order);
    `checked_by_command` keeps it out of the order `begin` enforces (the phase still waits for it
    before the next battle, and the walk offers it): its command checks for itself when it may run;
    `owed` says what is left of a step that another command may reopen (advances after an XP
    correction), or its own command left open, so the next battle's refusal, and that of a step or action
    waiting for it, tell who owes what and how to do it (and the guided walk why it does the step once more); `asks` the
    keys `build` may ask, `asks_once_opened` those it asks only once a step before it has opened
    them, `asks_once_made` those its own command asks of a warrior it makes, `opened_for` whom those
    may name, `made_asked_as` the key one of `asks_once_made` is asked under, `no_more` the answer that
    ends an N-th pick of `asks`, `unasked` the keys of its command this campaign never asks, and `rolls_no_dice`
    why its command rolls no die now (None: it may roll some; the ledger's `Step.asks`, `Step.asks_once_opened`,
    `Step.asks_once_made`, `Step.opened_for`, `Step.made_asked_as`, `Step.no_more`, `Step.unasked` and
    `Step.rolls_no_dice`)."""

    key: str
    title: str
    name: str = ""
    guide: str = ""
    build: BuildCommand | None = None
    before: str = ""
    done: StepDone | None = None
    instead_of: str | None = None
    checked_by_command: bool = False
    owed: Callable[[CampaignState, Warband], str] | None = None
    asks: tuple[str, ...] = ()
    asks_once_opened: tuple[str, ...] = ()
    asks_once_made: tuple[str, ...] = ()
    opened_for: Callable[[CampaignState, str], Collection[str]] | None = None
    made_asked_as: Callable[[CampaignState, str, str], str] | None = None
    no_more: str = ""
    unasked: Callable[[CampaignState], Mapping[str, str]] | None = None
    rolls_no_dice: Callable[[CampaignState, Warband], str | None] | None = None


class PhaseMessages(msgspec.Struct, frozen=True):
    """How the refusals read. Fields: {band} the warband's name, {battle} the battle's number,
    {step} the refused step's title, {name} its name, {first} the title of the step to do first, {order} every
    step's title in order, {taken} the title of the step taken in its place, {action} a trading
    action, {limit} the step that closes a window, {next} the name of the step to do next (and what is
    left of it, where it says), {quoted} the warband's name quoted for a shell. A step is named by its name
    where the refusal says which step, and by its title where it says what to do ("cannot roll injuries yet")."""

    no_battle: str = "{band} has not fought a battle yet: there is no post-game to {step}"
    already_done: str = "{band} has already done the post-game step {name} for battle {battle}"
    not_yet: str = "{band} cannot {step} yet: {first} first (post-game of battle {battle})"
    taken_instead: str = "{band} has done '{taken}' for battle {battle}, taken instead of '{step}'"
    window_closed: str = "{band} can no longer {action} after battle {battle}: '{limit}' is done"
    window_not_open: str = "{band} cannot {action} yet: {first} first (post-game of battle {battle})"
    unfinished: str = "{band} must finish the post-game of battle {battle} first (next: {next})"


class Window(msgspec.Struct, frozen=True):
    """A trading action open after step `after` is done and until step `until` is done."""

    after: str
    until: str


class Phase(msgspec.Struct, frozen=True, dict=True):  # dict: its lookups are cached (cached_property)
    steps: Sequence[PhaseStep]
    windows: Mapping[str, Window] = msgspec.field(default_factory=dict)
    messages: PhaseMessages = PhaseMessages()
    gate: StepGate | None = None

    def __post_init__(self) -> None:
        keys = [step.key for step in self.steps]
        if len(set(keys)) != len(keys):
            raise ValueError(f"a phase lists a step twice: {keys}")
        for step in self.steps:
            if step.instead_of is not None and step.instead_of not in self.sequence:
                raise ValueError(f"step {step.key} is taken instead of {step.instead_of}, which is not in the order")
        for action, window in self.windows.items():
            if window.after not in self.sequence or window.until not in self.sequence:
                raise ValueError(f"window {action} must lie between two steps of the order")

    # --- the declaration read back ---------------------------------------------------------------

    # Read back by every post-game command and every check of one (tens of times a transaction when
    # a history is decided again): computed once.
    @cached_property
    def sequence(self) -> tuple[str, ...]:
        """The keys of the steps with a place of their own, in order: what finishes the phase."""
        return tuple(step.key for step in self.steps if step.instead_of is None)

    @cached_property
    def order(self) -> tuple[str, ...]:
        """The part of the sequence that `begin` enforces."""
        return tuple(key for key in self.sequence if not self.step(key).checked_by_command)

    @cached_property
    def _enforced_before(self) -> dict[str, tuple[str, ...]]:
        """For each place in the sequence, the steps of the order before it (what `begin` checks done)."""
        return {place: tuple(k for k in self.sequence[:n] if k in self.order) for n, place in enumerate(self.sequence)}

    @cached_property
    def _steps_by_key(self) -> dict[str, PhaseStep]:
        return {step.key: step for step in self.steps}

    def step(self, key: str) -> PhaseStep:
        return self._steps_by_key[key]

    def title(self, key: str) -> str:
        return self.step(key).title

    @cached_property
    def step_names(self) -> dict[str, str]:
        """Each step's name by its key, steps taken instead of others too (the ruleset's `step_names`)."""
        return {step.key: step.name or step.title for step in self.steps}

    def place(self, key: str) -> str:
        """The place in the order a step takes: its own, or the one of the step it replaces."""
        return self.step(key).instead_of or key

    # --- where a warband stands --------------------------------------------------------------------

    @staticmethod
    def latest_battle(state: CampaignState, band: Warband) -> Battle | None:
        return state.latest_battle(band.id)

    def recorded(self, state: CampaignState, band: Warband) -> list[str]:
        """Step keys recorded done for the latest battle, in the order done."""
        battle = self.latest_battle(state, band)
        return steps_done(state, band.id, battle.number) if battle is not None else []

    def is_done(self, state: CampaignState, band: Warband, key: str) -> bool:
        """Done for the latest battle: recorded (itself or a step taken in its place), or over by its own test."""
        if self.latest_battle(state, band) is None:
            return False
        return self._done(state, band, key, self.recorded(state, band))

    def _done(self, state: CampaignState, band: Warband, key: str, recorded: list[str]) -> bool:
        """`is_done`, the latest battle's recorded steps given (read once for all the steps asked about)."""
        own = self.step(key).done
        if own is not None:
            return own(state, band)
        return any(self.place(done) == key or done == key for done in recorded)

    def next_step(self, state: CampaignState, band: Warband) -> str | None:
        """The first step of the sequence not done for the latest battle (None: finished, or no battle)."""
        if self.latest_battle(state, band) is None:
            return None
        recorded = self.recorded(state, band)
        return next((key for key in self.sequence if not self._done(state, band, key, recorded)), None)

    # --- the checks --------------------------------------------------------------------------------

    def _say(self, template: str, band: Warband, battle: Battle | None, **more: str) -> RuleViolation:
        return RuleViolation(template.format(band=band.name, battle=battle.number if battle else 0,
                                             order=", ".join(self.title(k) for k in self.sequence),
                                             quoted=shlex.quote(band.name), **more))

    def _first(self, template: str, state: CampaignState, band: Warband, battle: Battle, first: str,
               **more: str) -> RuleViolation:
        """A refusal naming the step to do `first`, and what is left of it if it says (`owed`: the advances the
        hero a Talent! made at one threshold owes at a later one, `campaign coreheim advance WARBAND` to roll them)."""
        refusal = self._say(template, band, battle, first=self.title(first), **more)
        owed = self.step(first).owed
        return refusal if owed is None else RuleViolation(f"{refusal}: {owed(state, band)}")

    def begin(self, state: CampaignState, band: Warband, key: str) -> Battle:
        """The battle whose phase this step belongs to, once it may be taken now."""
        battle = self.latest_battle(state, band)
        title = self.title(key)
        if battle is None:
            raise self._say(self.messages.no_battle, band, None, step=title)
        recorded = self.recorded(state, band)
        if key in recorded or (self.step(key).done is not None and self.step(key).done(state, band)):
            raise self._say(self.messages.already_done, band, battle, step=title, name=self.step_names[key])
        place = self.place(key)
        taken = next((other for other in recorded if other != key and self.place(other) == place), None)
        if taken is not None:
            raise self._say(self.messages.taken_instead, band, battle, step=title, taken=self.title(taken))
        first = next((k for k in self._enforced_before[place] if not self._done(state, band, k, recorded)), None)
        if first is not None:
            raise self._first(self.messages.not_yet, state, band, battle, first, step=title)
        if self.gate is not None:
            self.gate(state, band, key)
        return battle

    @staticmethod
    def finish(ctx: Context, band: Warband, battle: Battle | int, key: str) -> None:
        number = battle if isinstance(battle, int) else battle.number
        ctx.emit(ev.PostGameStepDone(warband=band.id, battle=number, step=key))

    def open_window(self, state: CampaignState, band: Warband, action: str) -> None:
        """Refuse a trading action outside its window (before the first battle every window is open)."""
        battle = self.latest_battle(state, band)
        if battle is None:
            return
        window = self.windows[action]
        if self.is_done(state, band, window.until):
            raise self._say(self.messages.window_closed, band, battle, action=action, limit=self.title(window.until))
        if not self.is_done(state, band, window.after):
            first = self.next_step(state, band) or window.after
            raise self._first(self.messages.window_not_open, state, band, battle, first, action=action)

    def refuse_unfinished(self, state: CampaignState, participants: Sequence[str]) -> None:
        """A warband fights again only once the phase of its latest battle is finished: the steps
        belong to the latest battle, so those left would be dropped without a word."""
        for band_id in participants:
            band = state.warbands[band_id]
            first = self.next_step(state, band)
            if first is not None:
                owed = self.step(first).owed
                left = f", {owed(state, band)}" if owed else ""
                raise self._say(self.messages.unfinished, band, self.latest_battle(state, band),
                                first=self.title(first) + left, next=self.step_names[first] + left)

    # --- the guided walk (`campaign post-game WARBAND`) -----------------------------------------------

    def guided_steps(self, state: CampaignState, warband: str) -> list[Step]:
        """The steps the guided walk offers, each done as this phase says (the ruleset's `post_game`)."""

        def done_test(key: str) -> Callable[[CampaignState, str], bool]:
            return lambda state, warband: self.is_done(state, state.warbands[warband], key)

        def by_id(said: Callable[[CampaignState, Warband], Any] | None) -> Callable[[CampaignState, str], Any] | None:
            """What a step says of a warband (`owed`, `rolls_no_dice`), asked by the walk by its id."""
            return None if said is None else lambda state, warband: said(state, state.warbands[warband])

        def heading(step: PhaseStep) -> str:
            name = self.step_names[step.key]
            return f"{name}: {step.guide}" if step.guide else name

        return [Step(key=step.key, title=heading(step), done=done_test(step.key), build=step.build,
                     before=step.before, asks=step.asks, asks_once_opened=step.asks_once_opened,
                     asks_once_made=step.asks_once_made, opened_for=step.opened_for,
                     made_asked_as=step.made_asked_as, owed=by_id(step.owed), no_more=step.no_more,
                     unasked=step.unasked, rolls_no_dice=by_id(step.rolls_no_dice))
                for step in self.steps if step.build is not None and step.instead_of is None]
