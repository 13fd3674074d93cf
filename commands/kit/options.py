"""A ruleset's options (house rules) as one typed msgspec Struct.

`campaign new --option KEY=VALUE` is checked against the ruleset's `Options` subclass: an unknown
key or a value of the wrong type is refused with a message naming it, and the options pinned for
the campaign are the Struct's fields (defaults included). Reading them back (`options_of`) is
lenient on purpose: campaigns recorded before options were typed may hold keys or values the
Struct would refuse today, and they must still open and replay; unknown keys are ignored and a
value the type refuses reads as the default, which is what the rules read before.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Literal, TypeVar, get_args, get_origin

import msgspec

from ledger.errors import BadInput


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of every ruleset's options: the ones the core itself reads. Subclasses add fields with
    defaults (the default is what the seed says; a house rule changes it)."""

    dice: Literal["table", "ledger"] = "table"  # who rolls when a command gives no --dice


O = TypeVar("O", bound=Options)


def _field_names(options_type: type[Options]) -> tuple[str, ...]:
    return options_type.__struct_fields__


def option_defaults(options_type: type[Options]) -> dict[str, Any]:
    """Every option at its default: a ruleset's `default_options`, so that a campaign pins them all."""
    return msgspec.to_builtins(options_type())


def check_options(ruleset_id: str, options_type: type[O],
                  more: Callable[[O], None] | None = None) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """The `Ruleset.check_options` of a typed ruleset: the options given (overlaid on the ruleset's
    `default_options`) -> the options to pin, the same keys with their values checked against the
    type. `more` checks what a type cannot say (a house-rule table that must load)."""
    names = _field_names(options_type)

    def check(given: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(given) - set(names))
        if unknown:
            shown = ", ".join(name if name.isidentifier() else repr(name) for name in unknown)  # one line, whatever the key
            raise BadInput(f"{ruleset_id} has no option {shown} (options: {', '.join(names)})")
        try:
            typed = msgspec.convert(given, options_type)
        except msgspec.ValidationError as error:
            raise BadInput(f"{ruleset_id} option {_where(error, options_type)}") from None
        if more is not None:
            more(typed)
        return {name: value for name, value in msgspec.to_builtins(typed).items() if name in given}

    return check


def _where(error: msgspec.ValidationError, options_type: type[Options]) -> str:
    """msgspec says `Expected `bool`, got `str` - at `$.henchman_deed_xp``: name the option first,
    and the values a closed choice allows."""
    text = str(error)
    message, _, path = text.rpartition(" - at `$.")
    if not path:
        return text
    name = path.rstrip("`")
    allowed = next((get_args(f.type) for f in msgspec.structs.fields(options_type)
                    if f.name == name and get_origin(f.type) is Literal), ())
    return f"{name}: {message}" + (f" (one of: {', '.join(map(str, allowed))})" if allowed else "")


@lru_cache(maxsize=64)
def _read(options_type: type[Options], recorded: str) -> Options:
    values = json.loads(recorded)
    known = {}
    for name in _field_names(options_type):
        if name in values:
            try:  # one field at a time, so one odd value falls back to its default alone
                msgspec.convert({name: values[name]}, options_type)
                known[name] = values[name]
            except msgspec.ValidationError:
                pass
    return msgspec.convert(known, options_type)


def options_key(options: Mapping[str, Any]) -> str:
    """The campaign's options as sorted JSON text (`json.dumps`'s), the key what is worked out from
    them is kept under."""
    try:
        return msgspec.json.encode(options, order="sorted").decode("utf-8")  # json.dumps's text, faster
    except TypeError:  # what JSON does not hold (options are read from JSON, so only by mistake)
        return json.dumps(options, sort_keys=True, default=str)


def options_of(options: Mapping[str, Any], options_type: type[O]) -> O:
    """The campaign's options as the ruleset's Struct (cached: folds and handlers read them often,
    a rating at every transaction of the read models)."""
    return _read(options_type, options_key(options))  # type: ignore[return-value]
