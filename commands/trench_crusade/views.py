"""What `campaign trench-crusade status` shows, read from the state: the CLI only prints it."""

from __future__ import annotations

from typing import Any

from ledger.errors import RuleViolation
from ledger.rulesets import steps_done
from ledger.state import CampaignState

from . import events
from . import rules
from .model import head_wound_promotion, injuries_now, latest_battle, model_of, rules_fighter, tables_for, xp_blocking_rows

# A Head-Wounded model's XP, in `status`: blocked, or restored by a Promotion 6 (house rule `head_wound_promotion`).
XP_BLOCKED, XP_RESTORED = "xp-blocked", "xp-restored"


def status_of(state: CampaignState, warband: str) -> dict[str, Any]:
    band = state.warband(warband)
    fighters = state.fighters_of(band.id)
    tables = tables_for(state)
    facts = events.band_facts(state, band.id)

    def head_wound(fighter: Any) -> str | None:
        if xp_blocking_rows(state, fighter, tables):
            return XP_BLOCKED
        return XP_RESTORED if events.model_facts(state, fighter.id).xp_restored_after is not None else None

    def row(fighter: Any) -> dict[str, Any]:
        # The most XP it may have: 18, or 7 for a model of the Limited Potential list (seed: "cannot
        # have more than 7 Experience Points"), as the rules cap its awards.
        as_rules_read = rules_fighter(state, fighter, tables)
        cap = rules.xp_cap(as_rules_read, band.faction, tables)
        # Seed: "The following models cannot be Promoted to ELITE status": the list's row, so that a player
        # sees which Troops the Promotions step leaves out.
        non_promotable = rules.non_promotable_row(as_rules_read, band.faction, tables)
        return {
            "name": fighter.name,
            "model": model_of(state, fighter),
            "xp": fighter.xp,
            "keywords": list(fighter.keywords),
            "battle_scars": events.model_facts(state, fighter.id).battle_scars or 0,
            "advancements_due": events.model_facts(state, fighter.id).advancements_due or 0,
            "head_wound": head_wound(fighter),
            "trauma_against": list(events.model_facts(state, fighter.id).trauma_against),
            "skills": list(fighter.skills),
            "injuries": injuries_now(state, fighter),
            "xp_cap": cap.cap,
            "limited_potential": cap.row_id,  # the Limited Potential row that caps it, or None
            "cannot_be_promoted": non_promotable.id if non_promotable else None,
        }

    try:
        battle: int | None = latest_battle(state, band).number
    except RuleViolation:  # a warband that has not fought yet has no Campaign Phase
        battle = None
    return {
        "warband": band.name,
        "faction": band.faction,
        "ducats": band.treasury,
        "glory": facts.glory,
        "promotion_streak": facts.promotion_streak,
        "head_wound_promotion": head_wound_promotion(state),
        "elite": [row(f) for f in fighters if rules.ELITE in f.keywords],
        # the 6-ELITE cap's count: Bad Company models are not counted (§6.5)
        "elite_counted": sum(1 for f in fighters if rules.ELITE in f.keywords and rules.BAD_COMPANY not in f.skills),
        "troops": [row(f) for f in fighters if rules.ELITE not in f.keywords],
        "locations_found": list(facts.locations_found),
        "battle": battle,
        "steps_done": steps_done(state, band.id, battle) if battle is not None else [],
    }


