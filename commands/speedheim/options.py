"""Speedheim's options (house rules) as one typed Struct on the kit's `Options`: unknown keys and
wrong types are refused at `campaign new`.

Every ambiguity listed in section 10 of `shared/rules/speedheim.md` is a named option here, with
the default the file proposes (or, where it proposes none, the reading named in the comment).
"""

from __future__ import annotations

from typing import Any, Literal

from commands.kit.options import Options, check_options, option_defaults, options_of
from ledger.errors import BadInput

from .tables import TABLES

ID = "speedheim"


class SpeedheimOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
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
    # House-rule tables replacing the defaults by name (deck, hero_d20, henchman_d20, caps, scars, loot, skills).
    tables: dict[str, Any] = {}


DEFAULT_OPTIONS: dict[str, Any] = option_defaults(SpeedheimOptions)


def _check_tables(options: SpeedheimOptions) -> None:
    """The house-rule tables load, and a house deck can give what the options draw from it: an Improvement
    Attempt with Advantage (Scar 20) draws two cards and keeps one, which a deck of one card cannot give."""
    cards = TABLES.for_options({"tables": options.tables}).deck.cards
    if options.improvement == "deck" and options.advantage == "draw-two-choose-one" and len(cards) < 2:
        raise BadInput(f"speedheim option tables: the house deck has {len(cards)} card, and an Improvement Attempt "
                       "with Advantage (Scar 20) draws two and keeps one: give the deck two cards or more "
                       "(or --option advantage=lower-of-2d20)")


check = check_options(ID, SpeedheimOptions, _check_tables)


def options_for(state_options: dict[str, Any]) -> SpeedheimOptions:
    return options_of(state_options, SpeedheimOptions)
