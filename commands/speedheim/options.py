"""Speedheim's options (house rules) as one typed Struct: unknown keys and wrong types are refused.

Every ambiguity listed in section 10 of `shared/rules/speedheim.md` is a named option here, with
the default the file proposes (or, where it proposes none, the reading named in the comment).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from ledger.errors import BadInput

from .tables import DEFAULT_TABLES, TableError, with_house_rules


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    dice: Literal["table", "ledger"] = "table"
    decks: Literal["ledger", "physical"] = "ledger"  # digital shuffles, or a physical deck entered card by card
    # The seed's "alternate method": the d20 Hero Improvement Table instead of the deck.
    improvement: Literal["deck", "d20-table"] = "deck"
    # §10: the natural 1–4 fails / natural 20 succeeds rule on the roll-under improvement check: "we assume they do not".
    natural_rolls_on_improvement: bool = False
    # §10: the check uses the base stat or the modified stat (equipment): "we assume base".
    check_against: Literal["base", "modified"] = "base"
    # §10: an Improvement Attempt with Advantage: "the HEAD wording suggests drawing 2 cards and choosing 1";
    # the other reading rolls the check on 2d20 and keeps the lower (better for a roll-under check).
    advantage: Literal["draw-two-choose-one", "lower-of-2d20"] = "draw-two-choose-one"
    # §10: a W/A/Prc/Inj card at its cap: "cannot improve past it plus the Skill card's redraw suggest a redraw".
    capped_card: Literal["redraw", "wasted"] = "redraw"
    # §10: a Leader kill also satisfies the "Hero" cards: "the author's odds say no".
    leader_counts_as_hero: bool = False
    # §10: a hero with Def `-` draws Def, or with Rgd `-` draws Mel/Rgd ("presumably Mel only"): a stat the
    # hero does not have counts as at its cap; the other reading: Def `-` gains a Defence roll of 20.
    missing_stat: Literal["as-cap", "def-becomes-20"] = "as-cap"
    # §10: pending Skill cards count toward the cap when drawn: "we assume yes".
    pending_skills_count: bool = True
    # §10: one deck per table (the campaign) or one per player (each warband); the issue keeps decks per campaign.
    deck_per: Literal["campaign", "warband"] = "campaign"
    # §10: whether the deck stays as it is between games or every game starts from a full, new shuffle.
    deck_between_games: Literal["kept", "reshuffled"] = "kept"
    # §10: the free post-game attempt counts toward the once-per-hero bought attempt: "we assume it does not".
    free_attempt_counts_as_bought: bool = False
    # House-rule tables replacing the defaults by name (deck, hero_d20, henchman_d20, caps, scars, skills).
    tables: dict[str, Any] = {}


DEFAULT_OPTIONS: dict[str, Any] = msgspec.to_builtins(Options())


def options_of(given: dict[str, Any]) -> Options:
    try:
        return msgspec.convert(given, Options)
    except msgspec.ValidationError as error:
        raise BadInput(f"speedheim option: {error}") from None


def check_options(given: dict[str, Any]) -> dict[str, Any]:
    """The campaign's options as pinned: every key known, every value of its type, house tables valid."""
    unknown = sorted(set(given) - set(DEFAULT_OPTIONS))
    if unknown:
        raise BadInput(f"speedheim has no option {', '.join(unknown)} (options: {', '.join(DEFAULT_OPTIONS)})")
    options = options_of(given)
    try:
        with_house_rules(DEFAULT_TABLES, options.tables)
    except TableError as error:
        raise BadInput(str(error)) from None
    return msgspec.to_builtins(options)
