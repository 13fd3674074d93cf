"""The root group, its global options, and the helpers every noun shares.

Longer than the project's ~500 lines on purpose: the lazy groups (core nouns and rulesets) and the
`run`/`writes` helpers every command goes through stay together, so that how a command is found,
run and answered (text, `--json`, exit code) reads in one place.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib
import io
import json
import os
import pathlib
import re
import sqlite3
import sys
import uuid
from collections.abc import Callable, Iterator, Sequence
from functools import wraps
from typing import Any

import click
import msgspec

from ledger import dice as d
from ledger.campaigns import Ledger, Outcome, PendingDecision
from ledger.decide import Command, DiceSource, TableDice, loose_key
from ledger.errors import BadInput, LedgerError, NeedsAnswer
from ledger.records import check_typed_number
from ledger.state import CampaignState
from ledger.store import DEFAULT_STORE, Store, new_sqlite_file, store_failure
from ledger.text import check_names, checked_actor, checked_argument, shown, whole_number

# A failure nobody foresaw is a bug: it still gets one `Error:` line, and this exit code (BSD's
# EX_SOFTWARE); CAMPAIGN_DEBUG=1 shows the traceback instead, for whoever fixes it.
BUG_EXIT_CODE = 70


class _Refused(click.ClickException):
    """A refusal before any command runs (a bad argument): `Error: …` and the error's exit code."""

    def __init__(self, error: LedgerError):
        super().__init__(str(error))
        self.exit_code = error.exit_code


def _database_errors() -> tuple[type[BaseException], ...]:
    from eventsourcing.persistence import PersistenceError

    errors: list[type[BaseException]] = [PersistenceError, sqlite3.Error]
    if "psycopg" in sys.modules:  # the PostgreSQL driver is imported only when it is used
        errors.append(sys.modules["psycopg"].Error)
    return tuple(errors)


# The module (under ledger.cli) of each of the core commands, imported when the command is used or
# listed: a command does not pay at start-up for every other command's imports.
COMMAND_MODULES = {
    **dict.fromkeys(["verify", "export", "import"], "audit"),
    "backup": "backup",
    "battle": "battles",
    **dict.fromkeys(["new", "list", "use", "show", "rulesets", "rules", "void", "reroll", "replay"], "campaigns"),
    "seed": "keys",
    "demo": "demo",
    **dict.fromkeys(["roll", "draw", "note"], "dicecmds"),
    **dict.fromkeys(["fighter", "xp", "item", "treasury", "correct"], "fighters"),
    **dict.fromkeys(["log", "history"], "history"),
    "admin": "keys",
    **dict.fromkeys(["answer", "pending"], "pending"),
    "post-game": "postgame",
    "rebuild": "readmodels",
    "report": "report",
    **dict.fromkeys(["warband", "roster"], "warbands"),
}


# A negative whole number given as an argument (`xp award Gunnar -2`, `treasury Rats -10`), which click
# would take for an unknown option.
_NEGATIVE_NUMBER = re.compile(r"-[0-9]+")
# What stands for a negative number while the arguments are checked for unknown options: no argument
# can hold it, as every one is checked for control characters first (ledger.text.checked_argument).
_NUMBER_STAND_IN = "\x00"


class _OnceEach:
    """Refuses an option that takes one value given twice (`--winner A --winner B`): click keeps the
    last and drops the first without a word, so a slip would record what was not meant. Reads a
    negative number as the argument it is (click would say "No such option '-2'"), so that the
    command itself says what is wrong with it; an unknown option is still refused as click refuses it.
    A whole number past what the ledger records is refused naming its argument or option."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        checked = [_NUMBER_STAND_IN if _NEGATIVE_NUMBER.fullmatch(arg) else arg for arg in args]
        if not ctx.resilient_parsing:
            _, _, order = self.make_parser(ctx).parse_args(args=checked)  # type: ignore[attr-defined]
            once = [p for p in order if isinstance(p, click.Option) and not (p.multiple or p.count or p.is_flag)]
            twice = next((p for i, p in enumerate(once) if p in once[:i]), None)
            if twice is not None:
                raise click.UsageError(f"Option '{twice.opts[0]}' is given more than once: it takes one value", ctx)
        if checked != args:  # a negative number: no other unknown option is left, the check above would refuse it
            ctx.ignore_unknown_options = True
        rest: list[str] = super().parse_args(ctx, args)  # type: ignore[misc]
        if not ctx.resilient_parsing:
            _check_whole_numbers(self.get_params(ctx), ctx)  # type: ignore[attr-defined]
        return rest


def _check_whole_numbers(params: Sequence[click.Parameter], ctx: click.Context) -> None:
    """Every whole number an argument or option takes (`type=int`) is one a record can hold, refused
    naming the argument or option typed (`AMOUNT`, `--xp`): left to the seal, the error named the
    recorded command's field (`command.recorded.args.amount`)."""
    for param in params:
        if isinstance(param.type, click.types.IntParamType):
            value = ctx.params.get(param.name or "")
            for number in value if isinstance(value, tuple) else (value,):
                if isinstance(number, int):
                    try:
                        check_typed_number(number, _typed_as(param))
                    except LedgerError as error:
                        raise _Refused(error) from None


def _typed_as(param: click.Parameter) -> str:
    """How a user names the argument (`AMOUNT`) or option (`--xp`, its long name) he typed."""
    if isinstance(param, click.Option):
        return next((opt for opt in param.opts if opt.startswith("--")), param.opts[0])
    return param.human_readable_name


class OnceEachCommand(_OnceEach, click.Command):
    pass


class OnceEachGroup(_OnceEach, click.Group):
    command_class = OnceEachCommand
    group_class = type  # its groups are of its kind


class LedgerGroup(_OnceEach, click.Group):
    """Turns every failure into `Error: …` and an exit code; never a traceback.

    The core commands are imported when used (COMMAND_MODULES). Each ruleset with commands of its
    own appears as `campaign <ruleset-id>` (see RulesetCommands)."""

    command_class = OnceEachCommand
    group_class = OnceEachGroup

    def main(self, *args: Any, **kwargs: Any) -> Any:
        _escape_what_stdout_cannot_encode()
        return super().main(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # Every argument of every command is checked once here (see ledger.text).
        try:
            args = [checked_argument(arg) for arg in args]
        except LedgerError as error:
            raise _Refused(error) from None
        return super().parse_args(ctx, args)

    def _ruleset_groups(self) -> dict[str, str]:
        from ledger import rulesets

        return {ruleset_id: entry.summary for ruleset_id, entry in rulesets.index().items() if entry.summary}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMAND_MODULES, *self._ruleset_groups()})

    def get_command(self, ctx: click.Context, name: str) -> Any:
        if name not in self.commands and name in COMMAND_MODULES:
            importlib.import_module(f"ledger.cli.{COMMAND_MODULES[name]}")  # registers its commands on `main`
        found = super().get_command(ctx, name)
        if found is None and name in (groups := self._ruleset_groups()):
            found = RulesetCommands(name, groups[name])
            self.add_command(found)
        return found

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except LedgerError as error:
            self._refuse(ctx, error)
        except msgspec.ValidationError as error:
            self._refuse(ctx, BadInput(str(error)))
        except click.Abort:
            # Only the prompts for dice, cards and choices abort; a prompt after new ledger dice
            # comes after they are stored (see settle), and one before them writes nothing more.
            # What the same run committed before the prompt (a walk's earlier steps) stands: say so.
            click.echo(f"\nError: stopped at the prompt (Ctrl-C or end of input): {self._what_stands(ctx, 'nothing was recorded')}",
                       err=True)
            self._say_after_error(ctx)
            self._discard_new_store(ctx)
            ctx.exit(1)
        except (click.exceptions.Exit, click.ClickException):
            raise
        except KeyboardInterrupt:  # Ctrl-C: click says "Aborted!"; an interrupted `new` or `import` leaves no file either
            self._discard_new_store(ctx)
            raise
        except BrokenPipeError:
            raise  # the reader of the output went away (`log --full | head`): click's main stops quietly
        except RecursionError:
            self._refuse(ctx, BadInput("the input is nested too deeply to read"))
        except Exception as error:
            if isinstance(error, _database_errors()):
                self._refuse(ctx, store_failure(ctx.params.get("store_url") or DEFAULT_STORE, error))
            if os.environ.get("CAMPAIGN_DEBUG"):
                raise
            # A failure after a commit (its output could not be written: a full disk) leaves it recorded.
            stood = self._what_stands(ctx, "nothing was recorded unless a line above says so")
            click.echo(f"Error: unexpected failure, a bug in campaign-ledger ({type(error).__name__}: {error}); "
                       f"{stood}. Run again with CAMPAIGN_DEBUG=1 to see where, and report it", err=True)
            self._discard_new_store(ctx)
            ctx.exit(BUG_EXIT_CODE)

    def _refuse(self, ctx: click.Context, error: LedgerError) -> None:
        click.echo(f"Error: {error}", err=True)
        self._say_after_error(ctx)
        self._discard_new_store(ctx)
        ctx.exit(error.exit_code)

    @staticmethod
    def _what_stands(ctx: click.Context, if_none: str) -> str:
        """What the run committed before it stopped stands (a walk's earlier steps): the error names it."""
        committed = ctx.obj.committed if isinstance(ctx.obj, Session) else []
        return f"nothing more was recorded; recorded before it: {', '.join(f'T{tx}' for tx in committed)}" \
            if committed else if_none

    @staticmethod
    def _say_after_error(ctx: click.Context) -> None:
        for line in ctx.obj.after_error if isinstance(ctx.obj, Session) else []:
            click.echo(line, err=True)

    @staticmethod
    def _discard_new_store(ctx: click.Context) -> None:
        if isinstance(ctx.obj, Session):
            ctx.obj.discard_if_new()


def _escape_what_stdout_cannot_encode() -> None:
    """A character standard output's encoding lacks ('—' in Latin-1, an emoji of a name in cp1252) is
    written as \\u2014, as Python's standard error does: it failed part way through the output
    (exit 70), after a write had been recorded. click already writes UTF-8 where the encoding is ASCII."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors="backslashreplace")


def _json_text(value: Any, **layout: Any) -> str:
    """`value` as JSON for standard output: non-ASCII characters as themselves where its encoding is
    Unicode, else as JSON's \\u escapes (a backslash escape of the stream would not be JSON)."""
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    return json.dumps(value, sort_keys=True, ensure_ascii=not codecs.lookup(encoding).name.startswith("utf"), **layout)


class Session(msgspec.Struct):
    store_url: str
    actor: str
    campaign_ref: str | None
    on_commit: list[Callable[..., None]] = msgspec.field(default_factory=list)
    in_commit: list[Callable[..., Any]] = msgspec.field(default_factory=list)
    creates_store: bool = False  # may this command create a SQLite file that is not there yet?
    answer_json: bool = False  # a write's --json: answer with JSON instead of the event lines
    committed: list[int] = msgspec.field(default_factory=list)  # the transactions this command committed, in order
    # What the command has to say below its `Error:` line, if it ends in one (a walk's answers left unused).
    after_error: list[str] = msgspec.field(default_factory=list)
    _ledger: Ledger | None = None
    _new_file: str | None = None  # a SQLite file this command is creating

    @property
    def ledger(self) -> Ledger:
        if self._ledger is None:
            if self.creates_store:
                self._new_file = new_sqlite_file(self.store_url)
            store = Store(self.store_url, create=self.creates_store)
            self._ledger = Ledger(store, on_commit=[*self.on_commit, self._note_committed], in_commit=self.in_commit)
        return self._ledger

    def _note_committed(self, ledger: Ledger, campaign_id: uuid.UUID, state: CampaignState, records: Any) -> None:
        """The `Ledger.on_commit` hook that keeps `committed` (an adopted history, from `import`, is no
        list of records: nothing that prompts afterwards)."""
        if isinstance(records, list):
            self.committed += sorted({record.tx for record in records} - set(self.committed))

    def discard_if_new(self) -> None:
        """A refused `new` or `import` leaves no file behind where there was none."""
        if self._ledger is None or self._new_file is None or self._ledger.store.campaign_ids():
            return
        self.close()
        self._ledger = None
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(self._new_file + suffix)

    def campaign(self) -> uuid.UUID:
        return self.ledger.find(self.campaign_ref)

    def state(self) -> tuple[uuid.UUID, CampaignState]:
        cid = self.campaign()
        state = self.ledger.load(cid)
        for hook in LOAD_HOOKS:
            hook(self.ledger, cid, state)
        return cid, state

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.store.close()


COMMIT_HOOKS: list[Callable[..., None]] = []  # read models register here (see projections)
IN_COMMIT_HOOKS: list[Callable[..., Any]] = []  # … and here, to write inside the commit's transaction (Ledger)
# Called with (ledger, campaign id, state) whenever a command loads a campaign: read models that
# fell behind (a process killed between its commit and their update) catch up here.
LOAD_HOOKS: list[Callable[..., None]] = []

# Only these start campaigns; any other command on a SQLite file that is not there is refused, so
# a mistyped --store leaves no empty database behind.
STORE_CREATING_COMMANDS = {"new", "import", "demo"}


@click.group(cls=LedgerGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--store", "store_url", envvar="CAMPAIGN_STORE", show_envvar=True, default=DEFAULT_STORE,
              show_default=True,
              help="Where campaigns are kept: sqlite:///PATH, postgresql://USER@HOST:PORT/DB or memory://.")
@click.option("--as", "actor", envvar="CAMPAIGN_ACTOR", show_envvar=True, default="arbiter", show_default=True,
              help="Who is doing this (recorded on every event).")
@click.option("--campaign", "campaign_ref", envvar="CAMPAIGN_NAME", show_envvar=True, default=None,
              help="Campaign name or id; without it, the store's only or current campaign (`campaign use`).")
@click.version_option(package_name="campaign-ledger")
@click.pass_context
def main(ctx: click.Context, store_url: str, actor: str, campaign_ref: str | None) -> None:
    """Keep the books of a skirmish-wargame campaign: every roll, draw, XP award and purchase is an
    immutable event that can be replayed, voided with a reason, and exported as a verifiable trail.

    \b
    Environment variables:
      CAMPAIGN_STORE   the store, as --store
      CAMPAIGN_ACTOR   who is acting, as --as
      CAMPAIGN_NAME    the campaign, as --campaign
    Exit codes: 0 done, 1 refused by the rules, 2 bad input, 3 a chain or store that does not verify,
    70 a bug (CAMPAIGN_DEBUG=1 shows its traceback)."""
    # --as and --campaign may come from the environment, where parse_args did not see them.
    actor, campaign_ref = checked_actor(actor), campaign_ref and checked_argument(campaign_ref)
    session = Session(store_url=store_url, actor=actor, campaign_ref=campaign_ref, on_commit=list(COMMIT_HOOKS),
                      in_commit=list(IN_COMMIT_HOOKS),
                      creates_store=ctx.invoked_subcommand in STORE_CREATING_COMMANDS)
    ctx.obj = session
    ctx.call_on_close(session.close)


pass_session = click.make_pass_decorator(Session)


# --- dice options shared by every command that may roll -------------------------------------------

def dice_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """`--dice 3,5` (table faces, asked for on a terminal when more are needed), `--card` or `--ledger`."""
    return _dice_options(func, cards=True)


def dice_options_without_cards(func: Callable[..., Any]) -> Callable[..., Any]:
    """`--dice` or `--ledger`: a ruleset's commands when its rules draw no card."""
    return _dice_options(func, cards=False)


def _dice_options(func: Callable[..., Any], *, cards: bool) -> Callable[..., Any]:
    @wraps(func)
    def wrapper(*args: Any, dice_texts: Sequence[str], use_ledger: bool, cards: Sequence[str] = (), **kwargs: Any) -> Any:
        # A second --dice adds its faces: it was taken alone, the first dropped without a word.
        kwargs["dice"] = DiceChoice(",".join(t for t in dice_texts if t.strip()) if dice_texts else None, list(cards), use_ledger)
        return func(*args, **kwargs)

    wrapper = click.option("--ledger", "use_ledger", is_flag=True, help="Let the ledger roll verifiable digital dice.")(wrapper)
    if cards:
        wrapper = click.option("--card", "cards", multiple=True, help="A card drawn from a physical deck (repeatable, in order).")(wrapper)
    return click.option("--dice", "dice_texts", multiple=True,
                        help="Table dice faces in the order rolled, e.g. 3,5,6 (repeatable: each one's faces follow the last's).")(wrapper)


class DiceChoice(msgspec.Struct):
    text: str | None
    cards: list[str]
    use_ledger: bool

    def refuse_where_none_rolled(self, why: str | None) -> None:
        """--dice given to a command that rolls no die now, refused saying `why` before it is decided (None: it may
        roll some): "1 die given but only 0 used" said nothing of why."""
        if self.text and why:
            raise BadInput(f"--dice {self.text}: {why}: leave out --dice")

    def source(self, state: CampaignState) -> DiceSource | None:
        """None means ledger dice. Table dice ask at a terminal for what was not given."""
        if self.use_ledger:
            if self.text or self.cards:
                raise BadInput("give either --dice/--card or --ledger, not both")
            return None
        if self.cards and state.options.get("decks", "ledger") != "physical":
            # Refused before deciding: a decision that stops for a question would drop them unread.
            from ledger import rulesets

            how = ("a deck the ledger deals takes none; --option decks=physical enters them"
                   if rulesets.get(state.ruleset).decks_of(state) else "its rules draw no card")
            raise BadInput(f"--card {', '.join(self.cards)}: this campaign draws no card by hand ({how})")
        if self.text is None and not self.cards and state.options.get("dice", "table") == "ledger":
            return None
        interactive = is_interactive()
        return TableDice(
            given=d.parse_faces(self.text or ""),
            ask=ask_dice if interactive else None,
            cards=list(self.cards),
            ask_card=ask_card if interactive else None,
        )


def ask_dice(prompt: str, sides: Sequence[int]) -> list[int]:
    label = ", ".join(f"D{s}" for s in sides)
    while True:
        text = click.prompt(f"{prompt} — enter {len(sides)} {'face' if len(sides) == 1 else 'faces'} ({label})")
        try:
            faces = d.parse_faces(text, given_as="")
            d.check_faces(faces, list(sides), prompt)
            return faces
        except BadInput as error:
            click.echo(f"  {error}", err=True)


def ask_card(prompt: str, candidates: Sequence[str]) -> str:
    return click.prompt(prompt, type=click.Choice(list(candidates)))


def ask_number(prompt: str, check: Callable[[int], object] | None = None) -> int:
    """At a terminal: a whole number, asked again until it is one and `check` (the rules') takes it;
    `check` refuses with a LedgerError or a ruleset's own rule error (a ValueError)."""
    while True:
        try:
            number = parse_int(click.prompt(prompt), prompt)
            if check is not None:
                check(number)
            return number
        except (LedgerError, ValueError) as error:
            click.echo(f"  {error}", err=True)


# A choice that changes nothing: Enter takes it (the walk's "stop here" writes nothing either).
SAFE_DEFAULTS = ("stop here", "no", "none", "nothing", "0")


def ask_choice(prompt: str, options: Sequence[str]) -> str:
    """At a terminal: yes/no read as yes or no; other choices listed by number and picked by number
    or name; Enter takes the choice that changes nothing, where there is one."""
    choices = list(options)
    default = next((o for o in SAFE_DEFAULTS if o in choices), None)
    if sorted(choices) == ["no", "yes"]:
        return "yes" if click.confirm(prompt, default=False) else "no"
    numbered = not all(o.isdecimal() for o in choices)  # numbers are their own names
    if numbered:
        click.echo(prompt)
        for index, option in enumerate(choices, 1):
            click.echo(f"  {index}) {option}")
        prompt = "Choose by number or name"
    else:
        prompt = f"{prompt} ({', '.join(choices)})"
    while True:
        text = click.prompt(prompt, default=default).strip()
        if text in choices:
            return text
        if numbered and (number := whole_number(text)) is not None and 1 <= number <= len(choices):
            return choices[number - 1]
        click.echo(f"  '{shown(text)}' is not one of the choices", err=True)


def is_interactive() -> bool:
    """Ask for missing dice and choices only when a person is at the terminal."""
    return sys.stdin.isatty()


def interactive_ask() -> Callable[[str, Sequence[str]], str] | None:
    return ask_choice if is_interactive() else None


# Every ruleset's battle command takes its warbands as `battle record` does, worded once.
battle_warbands_option = click.option("--warband", "warbands", multiple=True, required=True,
                                      help="A warband that fought (repeatable).")


def answers_option(func: Callable[..., Any]) -> Callable[..., Any]:
    @click.option("--answer", "answers", multiple=True, metavar="KEY=CHOICE",
                  help="Answer a choice the rules ask for (repeatable); asked at a terminal otherwise.")
    @wraps(func)
    def wrapper(*args: Any, answers: Sequence[str], **kwargs: Any) -> Any:
        kwargs["answers"] = parse_answers(answers, "--answer")
        return func(*args, **kwargs)

    return wrapper


class FileToWrite(click.Path):
    """The name of a file a command writes (`-o`, backup's TARGET): not a folder. A name ending in
    a slash names a folder that does not exist yet, and was written as a file of that name (`-o
    reports/` wrote the file `reports`): it is refused, as an existing folder is. So is `-`, which
    made a file of that name where standard output was meant (`seed export -o -` hid the secret seed
    in the file `-`)."""

    def __init__(self) -> None:
        super().__init__(dir_okay=False, path_type=pathlib.Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and value.endswith(("/", os.sep)):
            self.fail(f"{value!r} names a folder: name the file to write", param, ctx)
        if value == "-":
            self.fail("'-' would be a file named '-', not standard output: name the file to write (./- for that one)",
                      param, ctx)
        return super().convert(value, param, ctx)


# Every command that writes a file (ledger.files) takes it, in these words: none writes over a file unasked.
force_option = click.option("--force", is_flag=True,
                            help="Replace the file if it exists (a symbolic link: the link, never its target).")


def parse_answers(pairs: Sequence[str], option: str) -> dict[str, str]:
    """KEY=CHOICE pairs; a key is the rules' whatever its case and spacing (`injury:Hans` answers
    `injury:hans`, see `loose_key`), so two ways of writing one key are one key given twice."""
    answers = parse_pairs(pairs, option)
    seen: set[str] = set()
    for key in answers:
        if loose_key(key) in seen:
            raise BadInput(f"{option} {key} is given twice")
        seen.add(loose_key(key))
    return answers


def parse_pairs(pairs: Sequence[str], option: str) -> dict[str, str]:
    parsed = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadInput(f"{option} takes KEY=VALUE, not '{pair}'")
        if key.strip() in parsed:
            raise BadInput(f"{option} {key.strip()} is given twice")
        parsed[key.strip()] = value.strip()
    return parsed


def parse_pair_list(values: Sequence[str], option: str) -> list[tuple[str, str]]:
    """KEY=VALUE options where a key may come back (one fighter taking out two enemies)."""
    pairs = []
    for value in values:
        pairs.extend(parse_pairs([value], option).items())
    return pairs


def parse_int_pairs(pairs: Sequence[str], option: str) -> dict[str, int]:
    return {key: parse_int(value, f"{option} {key}") for key, value in parse_pairs(pairs, option).items()}


def parse_int(value: str, what: str) -> int:
    """`value` as a whole number, as an option or an answer gives it; a sign is taken, so that a
    negative amount is refused by the rules in their own words, whichever way it was given."""
    try:
        number = int(value)
    except ValueError:
        raise BadInput(f"{what}: '{value}' is not a whole number") from None
    return check_typed_number(number, what)


def run(session: Session, command: Command, *, dice: DiceChoice | None = None, reason: str = "",
        answered_by: Callable[[str], str | None] | None = None) -> Outcome:
    """Record one command in the session's campaign and report what happened. `answered_by` names,
    for a question's answer key, the command's own option that answers it (None: `--answer`)."""
    check_names(command)
    cid, state = session.state()
    source = dice.source(state) if dice else None
    try:
        outcome = settle(session, lambda: session.ledger.execute(
            cid, command, actor=session.actor, dice=source, ask=interactive_ask(), reason=reason
        ))
    except NeedsAnswer as need:
        how = answered_by(need.key) if answered_by is not None else None
        if how is None:
            raise
        raise NeedsAnswer(need.key, need.prompt, need.options, how=how, open_ended=need.open_ended, number=need.number) from None
    report(outcome)
    return outcome


ANSWER_JSON_HELP = "Answer with JSON: the transactions recorded, their rolls and events, and the new head."


def _answering_json(func: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(func)
    def wrapper(*args: Any, answer_json: bool, **kwargs: Any) -> Any:
        click.get_current_context().find_object(Session).answer_json = answer_json
        return func(*args, **kwargs)

    return wrapper


def writes(func: Callable[..., Any]) -> Callable[..., Any]:
    """A command that records: `--json` makes it answer with JSON (see `outcome_json`)."""
    return click.option("--json", "answer_json", is_flag=True, help=ANSWER_JSON_HELP)(_answering_json(func))


def made_a_write(command: click.Command) -> None:
    """`writes` for a command already made: a ruleset's, handed over by its hook (`RulesetCommands`)."""
    command.params.append(click.Option(["--json", "answer_json"], is_flag=True, help=ANSWER_JSON_HELP))
    command.callback = _answering_json(command.callback)


def campaign_command(func: Callable[..., Any]) -> Callable[..., Any]:
    """The shell's `pass_session`: hands a ruleset's command its Session, and marks it as one that
    reads or records the campaign (so `RulesetCommands` can tell its writes)."""
    passed = pass_session(func)
    passed.uses_campaign = True  # type: ignore[attr-defined]  # kept by the option decorators' functools.wraps
    return passed


def records(command: click.Command) -> bool:
    """A ruleset's command records when it uses the campaign and prints no read: a read declares its
    own `--json`."""
    own_json = any("--json" in getattr(param, "opts", ()) for param in command.params)
    return getattr(command.callback, "uses_campaign", False) and not own_json


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """What a write recorded, for scripts: one object per commit (a reroll's void and new decision
    are one commit), on one line."""
    from ledger import events as ev  # deferred: formatting is only needed when printing

    return {
        "transactions": sorted({r.tx for r in outcome.records}),
        "rolls": [
            {"roll": e.roll, "tx": r.tx, "expression": e.expression, "purpose": e.purpose, "faces": e.faces,
             "value": e.value, "source": e.source, "copy_of": e.copy_of}
            for r in outcome.records if isinstance(e := r.event, ev.DiceRolled)
        ],
        "events": [
            {"position": r.position, "tx": r.tx, "type": ev.tag_of(r.event), "text": text}
            for r, text in zip(outcome.records, outcome_lines(outcome))
        ],
        "head": outcome.state.head,
    }


def settle(session: Session, write: Callable[[], Outcome]) -> Outcome:
    """Do `write`; when it stops on a pending decision (its dice stored), show what was recorded
    and, at a terminal, ask the question and answer it, until the decision is complete."""
    ask = interactive_ask()
    try:
        return write()
    except PendingDecision as pending:
        stopped = pending
    while True:
        if stopped.outcome is not None:
            report(stopped.outcome)
        if ask is None or not stopped.waiting.question:
            raise stopped
        try:
            choice = ask(stopped.waiting.prompt, stopped.waiting.options)
        except click.Abort:
            click.echo("", err=True)  # end the prompt's line
            raise PendingDecision(stopped.tx, stopped.waiting, KeyboardInterrupt(), stopped.pending) from None
        cid = session.campaign()
        try:
            return session.ledger.answer(cid, {stopped.waiting.question: choice}, target=stopped.tx,
                                         actor=session.actor, ask=ask)
        except PendingDecision as again:
            stopped = again


def outcome_lines(outcome: Outcome) -> list[str]:
    """The log's line of each record a write committed, its rm_log row's (`campaign log` shows the
    same): worded as the campaign stood just after the record's own transaction. That is the state
    after the commit where it is one transaction; a commit of several (a reroll's void and new
    decision, and the later transactions a cascade decided again) has its rows read, or computed."""
    from ledger.cli.history import chronicle  # deferred: formatting is only needed when printing
    from projections.history import record_text, typed_by_transaction

    if len({record.tx for record in outcome.records}) == 1:
        typed = typed_by_transaction(outcome.records)
        return [record_text(record, outcome.state, typed) for record in outcome.records]
    session = click.get_current_context().find_object(Session)
    rows = chronicle(session, uuid.UUID(outcome.state.campaign_id), outcome.state, outcome.records)
    text = {row["position"]: row["text"] for row in rows}
    return [text[record.position] for record in outcome.records]


def report(outcome: Outcome) -> None:
    """One line per event a person cares about (`outcome_lines`), then the transaction and head hash
    (or, after a write's --json, one line of JSON)."""
    from ledger import events as ev  # deferred: formatting is only needed when printing

    session = click.get_current_context().find_object(Session)
    if session is not None and session.answer_json:
        click.echo(_json_text(outcome_json(outcome)))
        return
    for record, line in zip(outcome.records, outcome_lines(outcome)):
        if line and not isinstance(record.event, ev.CommandRecorded):  # the command typed is not repeated
            click.echo(f"  {line}")
    txs = sorted({r.tx for r in outcome.records})
    label = ", ".join(f"T{t}" for t in txs)
    click.echo(f"Recorded {label} ({len(outcome.records)} events). Head {outcome.state.head[:16]}")


PROGRESS_EVENTS = 5000  # work over at least this many events shows a progress bar on standard error


@contextlib.contextmanager
def progress(label: str, events: int) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on standard error over `events` (its update), when there are enough of them to
    wait for; None otherwise. Not a terminal: click prints the label once instead."""
    if events < PROGRESS_EVENTS:
        yield None
        return
    with click.progressbar(length=events, label=label, file=sys.stderr) as bar:
        yield bar.update


def emit_json(value: Any) -> None:
    click.echo(_json_text(msgspec.to_builtins(value), indent=2))


class Shell(msgspec.Struct, frozen=True):
    """The helpers a ruleset's `register_commands(group, shell)` hook is handed (commands.kit.cli.Shell)."""

    pass_session: Callable[..., Any]
    dice_options: Callable[..., Any]
    answers_option: Callable[..., Any]
    battle_warbands_option: Callable[..., Any]
    run: Callable[..., Outcome]
    emit_json: Callable[[Any], None]
    parse_pairs: Callable[[Sequence[str], str], dict[str, str]]
    parse_int_pairs: Callable[[Sequence[str], str], dict[str, int]]
    parse_pair_list: Callable[[Sequence[str], str], list[tuple[str, str]]]


SHELL = Shell(pass_session=campaign_command, dice_options=dice_options, answers_option=answers_option,
              battle_warbands_option=battle_warbands_option, run=run,
              emit_json=emit_json, parse_pairs=parse_pairs, parse_int_pairs=parse_int_pairs,
              parse_pair_list=parse_pair_list)


class RulesetCommands(OnceEachGroup):
    """`campaign <ruleset-id>`: the ruleset is imported, and hands its commands over through its
    `register_commands` hook, only when the group is used (its help line comes from the index).
    Each of its commands that records (`records`) gets the writes' `--json` here."""

    def __init__(self, ruleset_id: str, summary: str) -> None:
        super().__init__(ruleset_id, help=summary)
        self._registered = False

    def _register(self) -> None:
        if not self._registered:
            from ledger import rulesets

            self._registered = True
            ruleset = rulesets.get(self.name or "")
            if ruleset.register_commands is not None:
                # Rules that draw no card take no --card: it was offered, and refused when given.
                draws = bool(ruleset.decks) or ruleset.decks_for is not None
                ruleset.register_commands(self, SHELL if draws else msgspec.structs.replace(
                    SHELL, dice_options=dice_options_without_cards))
            # Every write of a ruleset answers --json as the shared writes do, from this one place.
            for command in self.commands.values():
                if records(command):
                    made_a_write(command)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._register()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> Any:
        self._register()
        return super().get_command(ctx, name)
