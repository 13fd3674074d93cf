"""One hierarchy of foreseeable failures; the CLI turns each into an `Error: …` line and an exit code."""


class LedgerError(Exception):
    """Base of every foreseeable failure. `exit_code` is what the CLI exits with."""

    exit_code = 1


class RuleViolation(LedgerError):
    """The rules of the game refuse the command."""


class NotFound(LedgerError):
    """A campaign, warband, fighter, transaction or roll that does not exist (bad input: exit 2)."""

    exit_code = 2


class NewerVersion(NotFound):
    """A campaign plays a version of its rules this ledger does not have: a newer one recorded it."""


class NeedsDice(LedgerError):
    """A handler needs more table dice (or a choice) than were given and no one can be asked
    (input is missing: exit 2)."""

    exit_code = 2


class NeedsAnswer(NeedsDice):
    """A choice the command did not carry, with no one to ask: its key, question and choices."""

    def __init__(self, key: str, prompt: str, options: list[str], *, how: str | None = None, open_ended: bool = False,
                 number: bool = False):
        """`how` says how to answer when the command has an option of its own for it (not --answer);
        `open_ended`: the options are the names known, and another may be given; `number`: the answer
        is a whole number, not one of `options` (there are none)."""
        self.key, self.prompt, self.options, self.open_ended, self.number = key, prompt, options, open_ended, number
        how = how or (f"answer with --answer {key}={'N' if number else 'CHOICE'}" if key else "run at a terminal to answer it")
        what = "a whole number" if number else f"one of: {', '.join(options)}{', or another name' if open_ended else ''}"
        super().__init__(f"{prompt}: {how} ({what})")


class Conflict(LedgerError):
    """Another writer changed the campaign and retrying did not help, or a void has dependants."""


class IntegrityFailure(LedgerError):
    """The stored history or an exported trail does not verify."""

    exit_code = 3


class BadInput(LedgerError):
    """Malformed input: bad dice faces, a bad expression, a file that does not decode."""

    exit_code = 2


class AnswerRefused(BadInput):
    """An --answer refused as given (not one of the choices, a question not asked): `keys` are those refused."""

    def __init__(self, message: str, keys: list[str]):
        super().__init__(message)
        self.keys = keys
