"""Retinue campaign options: the rules file's ambiguities A1-A4 as named, typed house rules.

Each default is the first reading the rules file (`shared/rules/retinue.md`) gives. Options are
pinned when the campaign starts (`campaign new --option KEY=VALUE`, `--options-file FILE`), shown
by `campaign show` and in the audit trail's header.
"""

from __future__ import annotations

from typing import Any, Literal

from commands.kit import Options, check_options, option_defaults, options_of
from ledger.state import CampaignState

from .tables import TABLES, RetinueData


class RetinueOptions(Options, frozen=True, kw_only=True):
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
    # whole files replaced by the group's own (file name -> its content), as every ruleset's
    # house-rule tables are.
    tables: dict[str, Any] = {}


DEFAULT_OPTIONS = option_defaults(RetinueOptions)
# Refuses unknown keys, wrong values and data files that do not validate, at `campaign new`.
CHECK_OPTIONS = check_options("retinue", RetinueOptions, lambda options: TABLES.with_house_rules(options.tables))


def options_for(state: CampaignState) -> RetinueOptions:
    return options_of(state.options, RetinueOptions)


def data_for(state: CampaignState) -> RetinueData:
    """The campaign's data: the sample set with the group's files in place of those it replaced."""
    return TABLES.with_house_rules(options_for(state).tables)
