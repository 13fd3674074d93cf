"""campaign post-game WARBAND: the ruleset's post-battle sequence, step by step, resumable.

Without a terminal the walk runs on through every step it can do with what it was given (the
`--dice` go to the first step of the run; later steps roll with `--ledger` or stop for dice) and
stops, saying what comes next, at the first step that needs dice or an answer it was not given,
or before one that closes what other commands may still do (buying, hiring), unless the run began
with it or was told to go on (`--go-on`). A step refused (an answer given ahead that is not one of
the choices, or that the rules refuse to carry out) ends it with that error and its exit code.
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import click
import msgspec

from ledger import events as ev
from ledger import rulesets
from ledger.campaigns import Outcome, decide
from ledger.cli.app import (
    DiceChoice,
    Session,
    answers_option,
    ask_number,
    dice_options,
    emit_json,
    interactive_ask,
    main,
    parse_int,
    pass_session,
    report,
    settle,
)
from ledger.decide import (
    AskChoice,
    Command,
    Faces,
    TableDice,
    documents_key,
    loose_key,
    matches_key,
    refuse_never_offered,
    warriors_named,
    written_as,
)
from ledger.errors import AnswerRefused, BadInput, LedgerError, NeedsAnswer, NeedsDice
from ledger.pending import PendingDecision
from ledger.state import CampaignState
from ledger.text import as_spelled

GO_ON, STOP = "go on", "stop here"


@main.command("post-game")
@click.argument("warband_ref", metavar="WARBAND")
@click.option("--step", "only", default=None, help="Do just this step (by key).")
@click.option("--list", "list_only", is_flag=True,
              help="Show the steps, which are done, and the questions still open (keys and choices); do nothing.")
@click.option("--json", "as_json", is_flag=True,
              help="With --list: print JSON. Otherwise answer each step done with a line of JSON.")
@click.option("--go-on", "go_on", is_flag=True,
              help="Without a terminal, go on past the steps that close buying, selling or hiring.")
@answers_option
@dice_options
@pass_session
def post_game(session: Session, warband_ref: str, only: str | None, list_only: bool, as_json: bool, go_on: bool,
              dice: DiceChoice, answers: dict[str, str]) -> None:
    """Walk WARBAND through its game's post-battle sequence in order.

    Each step is one transaction: if you stop half way, run this again and it carries on with the
    first step not yet done for the warband's latest battle. At a terminal dice and choices are
    asked for as they come up. Without one, --dice are the first step's; the walk goes on through
    the steps that need no dice and no answer (with --ledger, through every step) and stops at the
    first that needs what it was not given, or before a step that closes buying, selling or hiring
    (unless the run began with it, or --go-on is given). --answer KEY=CHOICE answers any step's
    question ahead: --list shows the keys."""
    cid, state = session.state()
    ruleset = rulesets.get(state.ruleset)
    band = state.warband(warband_ref)
    if ruleset.post_game is None:
        # Not a mistake to refuse: there is simply no sequence to walk, so say what to use instead.
        click.echo(f"{ruleset.title} has no post-battle sequence to walk: record what happened to {band.name} "
                   "with the shared commands — `campaign xp award`, `campaign roll`, `campaign item gain|lose`, "
                   "`campaign treasury`, `campaign correct` and `campaign note`.")
        return
    steps = list(ruleset.post_game(state, band.id))
    if only is not None and only not in {s.key for s in steps}:
        raise BadInput(f"no step '{only}' (steps: {', '.join(s.key for s in steps)})")
    chosen = [s for s in steps if only is None or s.key == only]
    if list_only:
        _list(ruleset, state, band.id, steps, answers, as_json)
        return
    open_steps = [s for s in chosen if not s.done(state, band.id)]
    # Built ahead only to check the answers given: with none, there is nothing to check.
    built_ahead = [_built(step, state, band.id, answers) for step in open_steps] if answers else []
    asking = _steps_asking(ruleset, state, band.id, open_steps, built_ahead, answers)
    _refuse_unknown_answers(asking, answers, [refused for ahead in built_ahead for refused in ahead.refused])
    refuse_never_offered(ruleset.answer_choices_in(state), answers)  # as each step's command would, after those before it
    # What each open step's builder takes of the answers given, built ahead on this state (a step
    # opened only by one before it, as advances by the XP of experience, takes none): see `_refuse_untaken`.
    taken_ahead = {step.key: ahead.taken for step, ahead in zip(open_steps, built_ahead)}
    session.answer_json = as_json
    say = (lambda text: None) if as_json else click.echo
    ask = interactive_ask()
    unused = _LeftUnused(answers, asking.meant_for, asking.asked_as,
                         {s.key: rulesets.step_name(state, s.key) for s in open_steps})
    # Said where the walk stops, to be run as it stands: a name with a space is quoted.
    walk_again = f"campaign post-game {shlex.quote(warband_ref)}"
    did = 0
    step = None
    try:
        walking = list(chosen)
        # The steps a command of theirs left open, run once more, each with the answers (loose keys) that command
        # took: an answer given ahead answers one question, and the run once more is not handed it again (a
        # Speedheim hero's second Skill card asks the key his first took, whose Skill he now knows).
        again: dict[str, set[str]] = {}
        while walking:
            step = walking.pop(0)
            if step.done(state, band.id):
                continue
            if step.key not in again:
                say(f"== {step.title}")
            else:  # its heading said already: its name, and why it is done once more
                why = step.owed(state, band.id) if step.owed else "its command left some of it to do"
                say(f"== {rulesets.step_name(state, step.key)} once more: {why}")
            # A step that closes what other commands may still do (buying, hiring) is asked about at a
            # terminal; without one the walk stops before it, unless the run began with it or goes on.
            if step.before and (ask(f"Before this step: {step.before}", [GO_ON, STOP]) == STOP if ask is not None
                                else did > 0 and not go_on):
                if ask is None:
                    say(f"Before this step: {step.before}")
                # Without a terminal a run stops before each such step: --go-on is how to finish in one run.
                go_on_too = ("" if ask is not None
                             else ", or with --go-on to go past the steps that close buying, selling or hiring")
                say(f"Stopped before {rulesets.step_name(state, step.key)}: run `{walk_again}` again to carry on{go_on_too}.")
                if did and (line := unused.said(step.key, begun=False)):
                    say(line)
                return
            # The --dice are the first step's; later steps roll with --ledger, at a terminal, or stop for dice.
            given = dice if did == 0 else DiceChoice(None, [], dice.use_ledger)
            if step.rolls_no_dice is not None:  # refused saying why the step rolls none now, as its command does
                given.refuse_where_none_rolled(step.rolls_no_dice(state, band.id))
            source = given.source(state)
            if isinstance(source, TableDice):
                source.used_by = f"the {rulesets.step_name(state, step.key)} step"
            try:
                offered = {key: answer for key, answer in answers.items() if loose_key(key) not in again.get(step.key, ())}
                step_ask = StepAsk(offered, ask)
                command = step_ask.build(step, state, band.id)
                _refuse_untaken(state, step, taken_ahead.get(step.key, []), step_ask.taken, answers)
                # Offered, not carried: the step records only the answers it asks, not those for later steps.
                # Those given for this step alone were typed now for it: a question it tells it will not ask
                # refuses them (`Context.not_asked`), as its own command would.
                typed_now = [key for key in unused.given_for(step.key, command) if key in offered]
                outcome = settle(session, lambda: session.ledger.execute(  # noqa: B023 - called at once
                    cid, command, actor=session.actor, dice=source, ask=ask, answered_now=typed_now, offered=offered))
            except LedgerError as need:
                if isinstance(need, PendingDecision) and need.outcome is not None:
                    unused.took(step_ask.taken, need.outcome)  # kept with its dice: answering it goes on with them
                # The run's first step cannot go on: an error. A later one that waits for dice or an
                # answer it was not given (with its ledger dice stored pending, if it drew some): the walk
                # did what it could, and a later run gives them. Any other stop is an error, whatever was
                # recorded before it: what was given ahead is wrong (an answer not one of the choices, a
                # negative XP) or the rules refuse to carry it out (an upkeep the treasury cannot pay),
                # and running the walk again would only be refused again.
                if did == 0 or not isinstance(need.cause if isinstance(need, PendingDecision) else need, NeedsDice):
                    raise
                say(f"Next step: {rulesets.step_name(state, step.key)} — {need}; "
                    f"then run `{walk_again}` again.")
                if line := unused.said(step.key, begun=True):
                    say(line)
                return
            took = unused.took(step_ask.taken, outcome)
            report(outcome)
            state = outcome.state
            did += 1
            if not step.done(state, band.id) and step.key not in again:
                # Its command left something of it to do (a hero a Coreheim v7 Talent! made, owing an advance
                # at a later threshold): done again before the walk goes on, which the next step would refuse.
                again[step.key] = took
                walking.insert(0, step)
    except (LedgerError, click.Abort) as error:
        # Said below the error: once steps are recorded, a run again begins after them without these.
        if did and step is not None and not as_json and (line := unused.said(step.key, begun=True, refused=_refused(error))):
            session.after_error.append(line)
        raise
    if all(s.done(state, band.id) for s in steps):
        say("Post-game sequence complete.")
    if line := unused.said(None, begun=False):
        say(line)


class _LeftUnused:
    """The --answers that no step the walk recorded took, each with the step it is for: said when the
    walk ends, having recorded steps. One for a step still to do can be given again (a run again
    carries on after the steps recorded, and takes only the answers given to it); one for a step
    passed was not asked after all (its dice never opened the question)."""

    def __init__(self, answers: dict[str, str], meant_for: dict[str, list[str]], asked_as: dict[str, str],
                 open_steps: dict[str, str]):
        """`open_steps`: the keys of the steps still to do, in order, each with its name (what the line says)."""
        self.answers, self.meant_for, self.asked_as = answers, meant_for, asked_as
        self.open_steps, self.step_names = list(open_steps), open_steps
        self.used: set[str] = set()  # as loose keys: a step records an answer under the key it asks

    def given_for(self, step: str, command: Command) -> list[str]:
        """The keys of the answers that only `step` may ask of the open steps and that its command documents,
        but for a warrior it makes (`asked_as`): the dice may make none, and leave the answer unused."""
        return [key for key in self.answers
                if self.meant_for.get(key) == [step] and documents_key(type(command), key) and key not in self.asked_as]

    def took(self, taken: list[str], outcome: Outcome) -> set[str]:
        """What a step recorded took (returned, as loose keys): the answers its builder took, and those its
        transactions record."""
        recorded = [key for record in outcome.records if isinstance(record.event, ev.CommandRecorded)
                    for key in record.event.args.get("answers", {})]
        took = {loose_key(key) for key in (*taken, *recorded)}
        # One for a warrior the step made is recorded under the key the command asked it under.
        took |= {loose_key(given) for given, asked in self.asked_as.items() if loose_key(asked) in took}
        self.used |= took
        return took

    def said(self, stopped_at: str | None, *, begun: bool, refused: Sequence[str] = ()) -> str | None:
        """The line naming them, the walk stopped at step `stopped_at` (None: it went through every open
        step; the line is None when no answer is left unused). Each is named with the first step still to
        do that may ask it, else the last step passed that might have; one the error the walk ended with
        `refused` is named there, not here."""
        passed = self.open_steps if stopped_at is None else self.open_steps[:self.open_steps.index(stopped_at)]
        not_again = self.used | {loose_key(key) for key in refused}
        by_step: dict[str, list[str]] = {}
        for key, answer in self.answers.items():
            meant = self.meant_for.get(key, [])
            step = next((s for s in meant if s not in passed), meant[-1] if meant else None)
            if step is not None and loose_key(key) not in not_again:
                by_step.setdefault(step, []).append(f"{key}={answer}")
        said = [f"{', '.join(given)} ({self._why(step, self.step_names[step], stopped_at, begun, passed, len(given))})"
                for step in self.open_steps if (given := by_step.get(step))]
        return f"Not used: {'; '.join(said)}" if said else None

    @staticmethod
    def _why(step: str, name: str, stopped_at: str | None, begun: bool, passed: list[str], count: int) -> str:
        if step in passed:
            return f"the {name} step did not ask {'it' if count == 1 else 'them'}"
        return f"the {name} step was not {'done' if begun and step == stopped_at else 'reached'}"


def _refused(error: BaseException) -> list[str]:
    """The keys of the --answers `error` refuses (a pending decision's, what stopped it)."""
    cause = error.cause if isinstance(error, PendingDecision) else error
    return cause.keys if isinstance(cause, AnswerRefused) else []


def _refuse_untaken(state: CampaignState, step: rulesets.Step, taken_ahead: list[str], taken: list[str],
                    answers: dict[str, str]) -> None:
    """Before `step` is written: an answer its builder took when built ahead but does not take now
    is refused. The steps before it, written in this run, changed what it asks (a fighter slain on
    the Casualty Table is no longer there to pick for the Doom Table): only now can that be known.
    One that ends its picks (`Step.ends_picks`) is not: no more were picked all the same."""
    if untaken := [key for key in taken_ahead if key not in taken and not step.ends_picks(key, answers[key])]:
        asked = f"of the answers given it asked {', '.join(taken)}" if taken else "it asked none of the answers given"
        raise AnswerRefused(f"--answer {', '.join(untaken)}: the {rulesets.step_name(state, step.key)} step did not ask "
                            f"it after all, once the steps before it were recorded ({asked}); nothing of the step was "
                            "recorded", untaken)


class StepAsk:
    """What a step's builder asks with: the answer given for the question's key, else the
    person at the terminal, else a refusal naming the key (a builder that names no key can only
    be answered at a terminal). An answer given that the question refuses is refused once the
    builder is done (`build`), with every other it refuses: the builder goes on past it with the
    question's first choice (a number: 1) to find them, and the questions that follow."""

    def __init__(self, answers: dict[str, str], ask: AskChoice | None):
        self.answers, self.ask = answers, ask
        self.taken: list[str] = []  # the keys of the answers given ahead that a question took, as typed
        self.refused: list[AnswerRefused] = []

    def build(self, step: rulesets.Step, state: CampaignState, warband: str) -> Command:
        """`step`'s command, built asking this; the answers it refused, all in one refusal."""
        try:
            command = step.build(state, warband, self)
        except LedgerError:
            if self.refused:  # what the answers refused led it to
                raise refused_together(self.refused) from None
            raise
        if self.refused:
            raise refused_together(self.refused)
        return command

    def __call__(self, prompt: str, options: Sequence[str], key: str | None = None) -> str:
        if (given := self._given(key)) is not None:
            spelled = as_spelled(given, options)
            if spelled is None:
                self.refused.append(AnswerRefused(f"{prompt}: '{given}' is not one of: {', '.join(options)}",
                                                  [self.taken[-1]]))
                return options[0]
            return spelled
        if self.ask is not None:
            return self.ask(prompt, options)
        raise NeedsAnswer(key or "", prompt, list(options))

    def number(self, prompt: str, key: str, check: Callable[[int], object] | None = None) -> int:
        """A whole number given for `key`, else typed at the terminal, else a refusal naming the key.
        One given ahead is not checked here: the command refuses it as it refuses one given its own way."""
        if (given := self._given(key)) is not None:
            try:
                return parse_int(given, prompt)
            except BadInput as refused:
                self.refused.append(AnswerRefused(str(refused), [self.taken[-1]]))
                return 1
        if self.ask is not None:
            return ask_number(prompt, check)
        raise NeedsAnswer(key, prompt, [], number=True)

    def _given(self, key: str | None) -> str | None:
        """The answer given ahead for `key`, however its key was written (None: none given)."""
        typed = key if key is None or key in self.answers else written_as(key, self.answers)
        if typed is None:
            return None
        self.taken.append(typed)
        return self.answers[typed]


def refused_together(refused: Sequence[AnswerRefused]) -> AnswerRefused:
    """The answers `refused`, in one refusal (one `Error:` line) naming each."""
    return AnswerRefused("; ".join(str(one) for one in refused), [key for one in refused for key in one.keys])


# --- what is still open --------------------------------------------------------------------------


class _Questions(StepAsk):
    """Records a builder's questions: each answered as given, else with its first choice to find the
    next (one for each hero, say), as `_open_questions` looks ahead in a command."""

    def __init__(self, answers: dict[str, str]):
        super().__init__(answers, None)
        self.asked: list[dict[str, Any]] = []

    def __call__(self, prompt: str, options: Sequence[str], key: str | None = None) -> str:
        self.asked.append({"key": key or "", "prompt": prompt, "choices": list(options)})
        try:
            return super().__call__(prompt, options, key)
        except NeedsAnswer:
            if not key or not options:
                raise
            return options[0]

    def number(self, prompt: str, key: str, check: Callable[[int], object] | None = None) -> int:
        self.asked.append({"key": key, "prompt": prompt, "choices": [], "number": True})
        try:
            return super().number(prompt, key)
        except NeedsAnswer:
            return 1  # any amount will do to find the questions that follow


class _StopAtFirstRoll(Exception):
    pass


class _NoDiceYet:
    """Dice for a look ahead: the questions before the first roll are the ones known now."""

    def faces(self, roll: int, expression: str, die_sides: list[int], purpose: str) -> Faces:
        raise _StopAtFirstRoll

    def card(self, deck: str, purpose: str, candidates: Sequence[str]) -> str:
        raise _StopAtFirstRoll

    def rewind(self) -> None:
        """Nothing to rewind."""

    def finish(self) -> None:
        """Nothing given, nothing left over."""


class _Built(NamedTuple):
    """A step's command built ahead on the state at hand (None: its builder refused), the questions
    its builder asked, the answers given ahead that it took, and those it refused."""

    command: Command | None
    asked: list[dict[str, Any]]
    taken: list[str]
    refused: list[AnswerRefused]


def _built(step: rulesets.Step, state: CampaignState, warband: str, answers: dict[str, str]) -> _Built:
    questions = _Questions(answers)
    try:
        command = step.build(state, warband, questions)
    except LedgerError:
        command = None
    return _Built(command, questions.asked, questions.taken, questions.refused)


def _open_questions(ruleset: rulesets.Ruleset, state: CampaignState, command: Command) -> list[dict[str, Any]]:
    """The questions the command asks before its first roll, on this state: each answered with its
    first choice to find the next, until a roll, the end, or a refusal."""
    asked: list[dict[str, Any]] = []
    answers = dict(command.answers)
    for _ in range(100):  # a bound: every round answers one more question
        try:
            decide(ruleset, state, msgspec.structs.replace(command, answers=answers), dice=_NoDiceYet(),
                   shuffle_dice=_NoDiceYet())
        except NeedsAnswer as need:
            asked.append({"key": need.key, "prompt": need.prompt, "choices": need.options})
            answers[need.key] = need.options[0]
            continue
        except (LedgerError, _StopAtFirstRoll):
            pass
        break
    return asked


def _asked_ahead(ruleset: rulesets.Ruleset, state: CampaignState, warband: str, step: rulesets.Step, first_open: bool,
                 answers: dict[str, str]) -> _Built:
    """`step` built ahead given `answers`, with its builder's questions and, for the first open step, its
    command's before its first roll."""
    built = _built(step, state, warband, answers)
    if first_open and built.command is not None:
        built.asked.extend(_open_questions(ruleset, state, msgspec.structs.replace(built.command, answers={**answers})))
    return built


def _with_choices_of_any_earlier_answer(asked: list[dict[str, Any]], answers: dict[str, str],
                                        asked_given: Callable[[dict[str, str]], list[dict[str, Any]]]) -> None:
    """Gives each question of `asked` whose choices depend on an earlier one not answered here the choices
    it offers after any answer to it, and names it (`depends_on`): the look ahead reached it by answering
    the earlier one with its first choice, after which a second Skill card offered all but that Skill, a
    choice the player may well make there. `asked_given` asks ahead again, given other answers."""
    offered = {q["key"]: list(q["choices"]) for q in asked if q["key"] and not q.get("number")}
    for index, earlier in enumerate(asked):
        later = {q["key"]: q for q in asked[index + 1:] if q["key"] in offered and q["key"] not in answers}
        if earlier["key"] not in offered or earlier["key"] in answers or not later:
            continue
        for choice in earlier["choices"][1:]:
            for question in asked_given({**answers, earlier["key"]: choice}):
                if question["key"] not in later or question["choices"] == offered[question["key"]]:
                    continue
                dependent = later[question["key"]]
                dependent["choices"] = _merged(dependent["choices"], question["choices"])
                depends_on = dependent.setdefault("depends_on", [])
                if earlier["key"] not in depends_on:
                    depends_on.append(earlier["key"])


def _merged(choices: list[str], more: list[str]) -> list[str]:
    """`choices` and those of `more` it lacks, each placed after the one it follows in `more` (first if none)."""
    merged = list(choices)
    for index, choice in enumerate(more):
        if choice not in merged:
            merged.insert(merged.index(more[index - 1]) + 1 if index else 0, choice)
    return merged


def _list(ruleset: rulesets.Ruleset, state: CampaignState, warband: str, steps: list[rulesets.Step],
          answers: dict[str, str], as_json: bool) -> None:
    """Each step, done or not; for the next step the questions it asks now (before any dice; one whose
    choices depend on an earlier answer not given, with those of any answer), and
    for every open step the keys it may ask, depending on what comes up (dice, answers, what is given).
    Answers given that the steps' questions refuse are refused, all in one."""
    rows = []
    refused: list[AnswerRefused] = []
    first_open = True
    for step in steps:
        done = step.done(state, warband)
        row: dict[str, Any] = {"key": step.key, "title": step.title, "done": done, "questions": [], "may_ask": []}
        if not done:
            ask = functools.partial(_asked_ahead, ruleset, state, warband, step, first_open)
            command, asked, _, refused_here = ask(answers)
            refused += refused_here
            _with_choices_of_any_earlier_answer(asked, answers, lambda given: ask(given).asked)
            first_open = False
            row["questions"] = [q for q in asked if q["key"] not in answers]
            known = {q["key"] for q in asked}
            documented = step.command_asks(state, command) if command else ()
            row["may_ask"] = [k for k in dict.fromkeys((*documented, *step.asks, *step.asks_once_opened, *step.asks_once_made))
                              if k not in known]
        rows.append(row)
    if refused:
        raise refused_together(refused)
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        click.echo(f"[{'x' if row['done'] else ' '}] {row['key']}: {row['title']}")
        for q in row["questions"]:
            key = f"--answer {q['key']}=" if q["key"] else "(at a terminal) "
            depends = f"; its choices depend on the answer to {', '.join(q['depends_on'])}" if "depends_on" in q else ""
            click.echo(f"      {key}{'N' if q.get('number') else '|'.join(q['choices'])}  {q['prompt']}{depends}")
        if row["may_ask"]:
            click.echo(f"      may ask, depending on what comes up: {', '.join(row['may_ask'])}")


class _Asking(NamedTuple):
    """What the open steps of a walk may ask of the answers given (`_steps_asking`)."""

    meant_for: dict[str, list[str]]
    known: list[str]
    asked_as: dict[str, str]
    not_asked: dict[str, str]


def _steps_asking(ruleset: rulesets.Ruleset, state: CampaignState, warband: str, open_steps: list[rulesets.Step],
                  built_ahead: list[_Built], answers: dict[str, str]) -> _Asking:
    """For each --answer, the keys of the open steps that may ask it, in order (none: no step may), every
    key the open steps may ask, and of the answers for a warrior a step's command makes, the key it asks
    each under, or why it will not ask it (`Step.made_asked_as`). A step may ask what its command
    documents, and what its builder asks, built ahead with the answers given (for the first step, with
    its questions before its first roll); a builder's own pattern (a `Step.asks` key, such as the N-th
    pick) counts only when so asked: it comes before any dice, but for an answer that ends its picks
    (`Step.ends_picks`), which says what the walk does anyway and is left unused. A step after one
    the walk can do first may also ask what that step opens (`Step.asks_once_opened`, naming whom `Step.opened_for` gives), which the state at
    hand cannot show; a step that can be done, what its own command asks of a warrior it makes
    (`Step.asks_once_made`, naming whom `Step.opened_for` gives); none asks what the campaign's options decide
    (`Step.unasked`), which is refused saying why. A key's warrior is one of the warband's:
    the walk is its own (`ghost.learn` for another warband's Ghost no step of it may ask)."""
    warriors = warriors_named(state, state.fighters_of(warband, active_only=False))
    meant_for: dict[str, list[str]] = {}
    known: list[str] = []
    asked_as: dict[str, str] = {}  # the key a step's command asks an answer of a warrior it makes under
    not_asked: dict[str, str] = {}  # why a step's command will not ask one
    opened = False  # whether a step before this one can be done, and so open its questions
    for index, (step, (command, asked, _, _)) in enumerate(zip(open_steps, built_ahead)):
        keys = [q["key"] for q in asked if q["key"]]
        if command is not None:
            keys += step.command_asks(state, command)
            if index == 0:
                keys += [q["key"] for q in _open_questions(ruleset, state, command)]
        once_opened = list(step.asks_once_opened) if opened else []
        once_made = list(step.asks_once_made) if command is not None else []
        opened_for = step.opened_for(state, warband) if step.opened_for else warriors
        unasked = step.unasked_in(state)
        known += keys + once_opened + once_made
        loose = {loose_key(k) for k in keys}
        for key in answers:
            why = next((why for pattern, why in unasked.items() if matches_key([pattern], key, warriors)), None)
            if why is not None:  # its command would refuse it, after the steps before it are written
                not_asked.setdefault(key, f"not asked: {why}")
                continue
            asks = (loose_key(key) in loose or (command is not None and documents_key(type(command), key, warriors))
                    or matches_key(once_opened, key, opened_for) or step.ends_picks(key, answers[key]))
            if not asks and matches_key(once_made, key, opened_for):
                try:
                    asked_as[key] = step.made_asked_as(state, warband, key) if step.made_asked_as else key
                    asks = True
                except BadInput as why:
                    not_asked.setdefault(key, str(why))
            if asks:
                meant_for.setdefault(key, []).append(step.key)
        opened = opened or command is not None
    return _Asking(meant_for, list(dict.fromkeys(known)), asked_as, not_asked)


def _refuse_unknown_answers(asking: _Asking, answers: dict[str, str], refused_ahead: list[AnswerRefused]) -> None:
    """Before anything is written: every --answer must be one an open step may ask (`_steps_asking`); one
    that a step's command would have asked of a warrior it makes, but will not, is refused saying why.
    Those a step's questions refused built ahead (`refused_ahead`) are named first, as what is wrong, the
    questions an answer no step asks may depend on; left alone, each is refused by its step as the walk
    reaches it."""
    untaken = [key for key in answers if key not in asking.meant_for]
    unknown = [key for key in untaken if key not in asking.not_asked]
    refusals = [f"--answer {key}: {asking.not_asked[key]}" for key in untaken if key in asking.not_asked]
    if unknown:
        given = " with those answers" if refused_ahead else ""
        refusals.insert(0, f"--answer {', '.join(unknown)}: no open step of the post-game asks it{given} "
                           f"(keys: {', '.join(asking.known) or 'none'})")
    if refusals:
        raise BadInput("; ".join([*(str(refused) for refused in refused_ahead), *refusals]))
