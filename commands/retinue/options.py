"""Retinue campaign options: the rules file's ambiguities A1-A4 as named, typed house rules.

Each default is the first reading the rules file (`shared/rules/retinue.md`) gives. Options are
pinned when the campaign starts (`campaign new --option KEY=VALUE`, `--options-file FILE`), shown
by `campaign show` and in the audit trail's header.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from ledger.errors import BadInput

from .tables import DataError, data_for


class RetinueOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    dice: Literal["table", "ledger"] = "table"
    # A1, S7 "for each point beyond that first +1": one reduction per purchase that ends above
    # baseline + 1 (it raises one point), or the whole excess (new value - (baseline + 1)) each time.
    baseline_excess: Literal["one-per-purchase", "whole-excess"] = "one-per-purchase"
    # A2, S7 when the named attribute is already 1: refused (name another; none left above 1: the
    # purchase is refused), or allowed with no effect.
    reduce_at_one: Literal["refuse", "no-effect"] = "refuse"
    # A3, the Casualty (D6) and Doom (2D6) tables are not in the seed: the outcome is entered by
    # name with the roll, or read from the `casualty` and `doom` data files.
    outcome_tables: Literal["by-name", "data"] = "by-name"
    # A4, ancestries, archetypes, domains, feats and the two tables: the shipped sample set, with
    # whole files replaced by the group's own (file name -> its content).
    data: dict[str, Any] = {}


DEFAULT_OPTIONS: dict[str, Any] = msgspec.to_builtins(RetinueOptions())


def parse(options: dict[str, Any]) -> RetinueOptions:
    try:
        return msgspec.convert(options, RetinueOptions)
    except msgspec.ValidationError as error:
        raise BadInput(f"retinue option: {error}") from None


def check_options(options: dict[str, Any]) -> dict[str, Any]:
    """Refuse unknown keys, wrong values and data files that do not validate, at `campaign new`."""
    parsed = parse(options)
    try:
        data_for(parsed.data)
    except DataError as error:
        raise BadInput(f"retinue data: {error}") from None
    return msgspec.to_builtins(parsed)
