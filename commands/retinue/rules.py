"""Retinue's XP bank as pure functions: no ledger, no dice source, no I/O.

Rule numbers are those of `shared/rules/retinue.md` (E1-E7 earning, S1-S9 spending, A1-A4 the
ambiguities), restating the seed `shared/seeds/004_953ba18e1145b737.txt`. Every refusal is a
`RetinueRuleError` whose message starts with the rule that refused and says by how much.

Readings where the seed is silent:

- E3 "once per enemy fighter": the same fighter credited twice with one enemy earns it once. An
  enemy goes Out of Action once in a battle, so from version 1.3.0 a battle crediting two fighters
  with it is refused (E4: the fighter who resolved the final action earns it; only the players know
  which); 1.0.0 to 1.2.0 gave each of them the award.
- E7 survival or scenario +1 goes to a fighter that survived: not Slain, not dead (a Captured one did;
  E5 denies post-game XP to the Slain alone).
- S4/S5 a fighter's own lists are the Universal list and the lists of every Archetype and Domain
  keyword it has; a feat it already has cannot be bought again.
- S7 the reduction is applied to the attribute the player names; A1 and A2 decide how much and
  what happens at 1 (options, `options.py`).
- S9 counts the fighters still in the retinue (not dead, captured or retired).
- Who rolls on the Doom Table is not said: the player names the fighters (from 1.5.0, among those
  who fought the battle: the table follows it). A fighter Slain there
  without having gone Out of Action loses its "did not go Out of Action" award (E5: "Slain fighters
  do not receive the Did not go Out of Action award", which only a fighter Slain on the Doom Table
  ever had): the battle pass made it before the tables (E2's order), so the post-game pass takes
  it back (version 1.2.0; 1.0.0 and 1.1.0 let it keep it). That +1 is in the bank from the battle
  pass to the Doom Table, and a fighter who spent it there and was then Slain ended below 0 XP, a
  bank holding less than nothing. From 1.5.0 it is held: a purchase may spend the rest of the bank
  but not it until the Doom Table is rolled ("if you have the XP, you can spend it": the fighter
  does not yet have it for sure; the seed spends "usually at the end of this step" anyway).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

from ledger.errors import BadInput
from ledger.text import as_spelled, possessive

from .tables import ATTRIBUTE_MAX, ATTRIBUTE_MIN, ATTRIBUTES, KNOWN_OUTCOMES, OUTCOME_WORDS, OutcomeKind, RetinueData

VAMPIRE, MORTAL, CASTER, PROFICIENCY = "Vampire", "Mortal", "Caster", "Proficiency"
VAMPIRE_SURCHARGE = 2  # S3
NOT_OUT_OF_ACTION_XP = 1  # E3, the "did not go Out of Action" award
Pass = Literal["battle", "scenario", "post-game"]
PASSES: tuple[Pass, ...] = ("battle", "scenario", "post-game")  # E2, in this order


class RetinueRuleError(ValueError):
    """A refusal: the rules do not allow what was asked."""


def _has(keywords: Iterable[str], keyword: str) -> bool:
    return as_spelled(keyword, keywords) is not None


class Fighter(msgspec.Struct, frozen=True, kw_only=True):
    """A fighter as the spending rules see it."""

    id: str
    name: str
    stats: dict[str, int]
    keywords: tuple[str, ...] = ()
    feats: tuple[str, ...] = ()
    xp: int = 0
    held: int = 0  # of `xp`, the "did not go Out of Action" award a Doom Table roll may still take back (E5)

    def has(self, keyword: str) -> bool:
        return _has(self.keywords, keyword)


class Award(msgspec.Struct, frozen=True, kw_only=True):
    fighter: str
    amount: int
    source: str
    pass_: Pass = msgspec.field(name="pass")

    @property
    def reason(self) -> str:
        """The reason recorded on the shared `xp.awarded` event: it starts with the pass (E2)."""
        return f"{self.pass_} pass: {self.source}"


def pass_of(reason: str) -> Pass | None:
    """The pass an `xp.awarded` reason was made in (E2 keeps them distinguishable)."""
    return next((p for p in PASSES if reason.startswith(f"{p} pass: ")), None)


# --- E3, E4: the battle pass ---------------------------------------------------------------------


class Removal(msgspec.Struct, frozen=True, kw_only=True):
    """An enemy taken Out of Action: by whom, whether by a direct action it resolved (E4)."""

    victim: str  # the enemy's name, as it appears in messages
    by: str | None  # the fighter credited, or None (nobody resolved the final action)
    direct: bool = True
    victim_is_leader: bool = False


class BattleDeed(msgspec.Struct, frozen=True, kw_only=True):
    fighter: str
    went_out_of_action: bool = False


def battle_awards(deeds: Sequence[BattleDeed], removals: Sequence[Removal]) -> list[Award]:
    """E3: +1 for not going Out of Action; +1 once per enemy put Out of Action by a direct action,
    +2 instead for the enemy Leader. E4: an indirect removal earns nothing. E5: a fighter later
    Slain keeps these (the pass comes before the Casualty Table)."""
    awards: list[Award] = []
    for deed in deeds:
        if not deed.went_out_of_action:
            awards.append(Award(fighter=deed.fighter, amount=NOT_OUT_OF_ACTION_XP, source="did not go Out of Action",
                                pass_="battle"))
        credited: set[str] = set()
        for removal in removals:
            if removal.by != deed.fighter or not removal.direct or removal.victim.casefold() in credited:
                continue
            credited.add(removal.victim.casefold())
            if removal.victim_is_leader:
                source, amount = f"put the enemy Leader {removal.victim} Out of Action", 2
            else:
                source, amount = f"put {removal.victim} Out of Action", 1
            awards.append(Award(fighter=deed.fighter, amount=amount, source=source, pass_="battle"))
    return awards


# --- E6: the scenario pass -----------------------------------------------------------------------


class ScenarioAward(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    fighter: str  # a named fighter: scenario XP is never retinue-wide
    amount: int
    reason: str


def check_scenario_xp(amount: int) -> None:
    """E6: "Each scenario states which fighters earn XP and how much": the seed bounds no scenario's
    award, so any amount is taken that is an award at all. The one check of it, for `scenario-pass
    --award` and the guided walk's question alike. An amount of 0 or less is no award: bad input, as a
    negative `xp award` is (exit 2), not a refusal of the rules."""
    if amount <= 0:
        raise BadInput(f"E6: a scenario award is a positive amount of XP, not {amount}")


def scenario_awards(awards: Sequence[ScenarioAward], retinue: dict[str, str]) -> list[Award]:
    """E6: per fighter, as the scenario states; `retinue` maps each fighter id to its name, and every
    award names one of them."""
    made = []
    for award in awards:
        check_scenario_xp(award.amount)
        if not award.reason.strip():
            raise BadInput(f"E6: say what the scenario awards {retinue[award.fighter]} XP for")  # left blank: bad input
        made.append(Award(fighter=award.fighter, amount=award.amount, source=award.reason.strip(), pass_="scenario"))
    return made


# --- E5, E7: casualties, doom and the post-game pass ---------------------------------------------


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    fighter: str
    table: Literal["casualty", "doom"]
    outcome: str
    kind: OutcomeKind


def outcome_by_name(table: Literal["casualty", "doom"], name: str, *, loosely_refused: bool = False) -> OutcomeKind:
    """A3 with no table supplied: the outcome is named; Slain, Captured, Hardy and Miraculous are
    known by name (E5, E7), anything else is recorded and changes nothing. `loosely_refused` (1.8.0):
    a name that is a common word for a known outcome of the table, or a near miss of it ('Dead', 'Slian'), is
    refused naming it, as bad input: taken for the group's own, it changed nothing unseen."""
    if not name.strip():
        raise BadInput(f"A3: name the {table.capitalize()} Table outcome")  # left blank: bad input
    kind = KNOWN_OUTCOMES.get(name.strip().casefold(), "none")
    if (table, kind) in (("casualty", "miraculous"), ("doom", "hardy")):
        other = "Doom" if table == "casualty" else "Casualty"
        raise RetinueRuleError(f"E7: {kind.capitalize()} is a {other} Table result, not a {table.capitalize()} Table one")
    if kind == "none" and loosely_refused and (meant := _meant(table, name.strip().casefold())):
        raise BadInput(f"A3: did you mean {meant}? '{name.strip()}' is no {table.capitalize()} Table outcome the rules "
                       f"know: named so, it is recorded as the group's own and changes nothing (name {meant}, or an "
                       "outcome of the group's own in words of its own)")
    return kind


def _meant(table: Literal["casualty", "doom"], typed: str) -> str | None:
    """The known outcome of `table` that `typed` (casefolded) is a common word for or a near miss of."""
    known = [name for name, kind in KNOWN_OUTCOMES.items() if kind != ("miraculous" if table == "casualty" else "hardy")]
    word = OUTCOME_WORDS.get(typed)
    meant = word if word in known else next(iter(difflib.get_close_matches(typed, known, n=1, cutoff=0.8)), None)
    return meant.capitalize() if meant else None


POST_GAME_XP: dict[str, tuple[int, str]] = {"hardy": (1, "Hardy (Casualty Table)"), "miraculous": (2, "Miraculous (Doom Table)")}


def post_game_awards(outcomes: Sequence[Outcome], bonus: Sequence[tuple[str, str]], names: dict[str, str],
                     dead: Iterable[str] = (), kept_in: Iterable[str] = ()) -> list[Award]:
    """E7: Hardy +1, Miraculous +2, and +1 to each named surviving fighter of a survival-roll or
    scenario result (`bonus`: the id of a fighter of `names`, reason). E5: a Slain fighter gets none of them, and one of
    `kept_in` (awarded "did not go Out of Action" in the battle pass) Slain since gives it back."""
    slain = {o.fighter for o in outcomes if o.kind == "slain"} | set(dead)
    awards = [Award(fighter=fighter, amount=-NOT_OUT_OF_ACTION_XP, pass_="post-game",
                    source="E5: Slain, so no 'did not go Out of Action' award (made in the battle pass)")
              for fighter in kept_in if fighter in slain]
    for outcome in outcomes:
        if outcome.kind in POST_GAME_XP and outcome.fighter not in slain:
            amount, source = POST_GAME_XP[outcome.kind]
            awards.append(Award(fighter=outcome.fighter, amount=amount, source=source, pass_="post-game"))
    for fighter, reason in bonus:
        if fighter in slain:
            raise RetinueRuleError(f"E5: {names[fighter]} was Slain: a Slain fighter gets no post-game Experience")
        if not reason.strip():
            raise BadInput(f"E7: say which survival roll or scenario result gives {names[fighter]} +1")  # left blank
        awards.append(Award(fighter=fighter, amount=1, source=reason.strip(), pass_="post-game"))
    return awards


# --- S1-S3: prices -------------------------------------------------------------------------------


class Advancement(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    label: str
    cost: int
    attribute: str | None = None


def _attribute(attribute: str, cost: int) -> Advancement:
    return Advancement(id=attribute, label=f"{attribute} +1", cost=cost, attribute=attribute)


# S2, in the seed's order.
ADVANCEMENTS: dict[str, Advancement] = {
    a.id: a
    for a in (
        Advancement(id="feat", label="Feat", cost=3),
        _attribute("Wi", 6), _attribute("Sa", 6),
        _attribute("Mt", 7), _attribute("Sk", 7),
        _attribute("W", 8),
        Advancement(id="caster", label="Caster", cost=9),
        _attribute("M", 10),
        _attribute("Df", 11),
        _attribute("CC", 12), _attribute("RC", 12),
        Advancement(id="feat-outside", label="Feat (outside Archetype or Domain)", cost=15),
    )
}


def price(fighter: Fighter, bought: Advancement) -> int:
    """S2 with S3: a Vampire pays 2 XP more for every advancement on the table."""
    return bought.cost + (VAMPIRE_SURCHARGE if fighter.has(VAMPIRE) else 0)


def price_text(fighter: Fighter, bought: Advancement) -> str:
    """'CC +1 costs 12' or 'CC +1 costs 12, 14 for a Vampire'."""
    surcharge = f", {price(fighter, bought)} for a Vampire" if fighter.has(VAMPIRE) else ""
    return f"{bought.label} costs {bought.cost}{surcharge}"


def spent_on(bought: Advancement, cost: int, *, brackets_once: bool) -> str:
    """What an `xp.spent` says was bought (S1), with a Vampire's price made up (S3): 'Feat (3 + 2 for a
    Vampire)'. `brackets_once` (1.7.0): a label with brackets of its own takes the make-up inside them,
    'Feat (outside Archetype or Domain; 15 + 2 for a Vampire)'; 1.6.0 put a second pair after them."""
    if cost == bought.cost:
        return bought.label
    made_up = f"{bought.cost} + {VAMPIRE_SURCHARGE} for a Vampire"
    if brackets_once and bought.label.endswith(")"):
        return f"{bought.label[:-1]}; {made_up})"
    return f"{bought.label} ({made_up})"


def check_affordable(fighter: Fighter, bought: Advancement) -> int:
    """S1: the fighter's bank must hold the whole price, not counting what it holds back (`held`, E5);
    the refusal says the shortfall."""
    cost = price(fighter, bought)
    rule = "S1, S3" if fighter.has(VAMPIRE) else "S1"
    if fighter.xp < cost:
        raise RetinueRuleError(f"{rule}: {fighter.name} has {fighter.xp} XP; {price_text(fighter, bought)}: "
                               f"{cost - fighter.xp} XP short")
    if fighter.xp - fighter.held < cost:
        raise RetinueRuleError(
            f"{rule}, E5: {fighter.name} has {fighter.xp} XP, {fighter.held} of it the 'did not go Out of Action' award, "
            f"which a fighter Slain on the Doom Table gives back: {fighter.xp - fighter.held} XP to spend until the Doom "
            f"Table is rolled; {price_text(fighter, bought)}: {cost - fighter.xp + fighter.held} XP short")
    return cost


# --- S6, S7: attributes --------------------------------------------------------------------------


def baseline(fighter: Fighter, attribute: str, data: RetinueData) -> int:
    ancestry = data.ancestry_of(fighter.keywords)
    if ancestry is None:
        raise RetinueRuleError(f"S7: {fighter.name} has no ancestry keyword ({', '.join(data.ancestries)}), "
                               "so the baseline of an attribute is unknown")
    return data.ancestries[ancestry].baselines[attribute]


def check_attribute_raise(fighter: Fighter, attribute: str) -> int:
    """S6: +1 to at most 6. The new value."""
    current = fighter.stats.get(attribute, 0)
    if current >= ATTRIBUTE_MAX:
        raise RetinueRuleError(f"S6: {possessive(fighter.name)} {attribute} is {current}, the maximum of {ATTRIBUTE_MAX}")
    return current + 1


def reduction_owed(fighter: Fighter, attribute: str, data: RetinueData, excess_rule: str) -> int:
    """S7, read by A1: how many points another attribute loses for this purchase (0: none)."""
    new = check_attribute_raise(fighter, attribute)
    excess = new - (baseline(fighter, attribute, data) + 1)
    if excess <= 0:
        return 0
    return 1 if excess_rule == "one-per-purchase" else excess


def _others(fighter: Fighter, raised: str) -> list[str]:
    return [a for a in ATTRIBUTES if a != raised and a in fighter.stats]


def reducible(fighter: Fighter, raised: str, at_one_rule: str) -> list[str]:
    """The attributes the player may name for an S7 reduction (A2 "refuse": only those above 1)."""
    others = _others(fighter, raised)
    return [a for a in others if fighter.stats[a] > ATTRIBUTE_MIN] if at_one_rule == "refuse" else others


def _nothing_above_one(fighter: Fighter, raised: str) -> RetinueRuleError:
    return RetinueRuleError(f"S7, A2: {fighter.name} has no attribute above {ATTRIBUTE_MIN} but {raised} to reduce: "
                            f"{raised} +1 is refused")


def offered_to_reduce(fighter: Fighter, raised: str, at_one_rule: str) -> list[str]:
    """What the S7 question offers (version 1.3.0): the attributes above 1, which a reduction
    changes. Only when none is left: under A2 "no-effect" those at 1 (it changes nothing), under
    "refuse" the purchase is refused."""
    above = reducible(fighter, raised, "refuse")
    if above or at_one_rule == "no-effect":
        return above or _others(fighter, raised)
    raise _nothing_above_one(fighter, raised)


def reduction(fighter: Fighter, raised: str, named: str, owed: int, at_one_rule: str) -> int:
    """S7 with A2: the (negative) change to the named attribute, to a minimum of 1. Naming the attribute
    raised ("select a different attribute") is no choice the question offers: bad input (exit 2); so is naming,
    under A2 "refuse", one already at 1 while another is above it ("refused, name another"), told from the
    command and the state alone, as the question refuses it. With none above 1 the purchase is refused (exit 1)."""
    if named == raised or named not in ATTRIBUTES:
        raise BadInput(f"S7: name an attribute of {fighter.name} other than {raised} to reduce "
                       f"(one of: {', '.join(reducible(fighter, raised, at_one_rule) or _others(fighter, raised))})")
    value = fighter.stats.get(named, 0)
    if value <= ATTRIBUTE_MIN and at_one_rule == "refuse":
        left = reducible(fighter, raised, at_one_rule)
        if not left:
            raise _nothing_above_one(fighter, raised)
        raise BadInput(f"S7, A2: {possessive(fighter.name)} {named} is already {ATTRIBUTE_MIN}: name another "
                       f"attribute ({', '.join(left)})")
    return -min(owed, max(value - ATTRIBUTE_MIN, 0))


# --- S4, S5: feats -------------------------------------------------------------------------------


def feat_lists(data: RetinueData) -> dict[str, tuple[str, ...]]:
    """Every feat list by name: the Universal list, each Archetype's and each Domain's."""
    return {"Universal": data.feats.universal, **{a: x.feats for a, x in data.archetypes.items()},
            **{d: x.feats for d, x in data.domains.items()}}


def own_lists(fighter: Fighter, data: RetinueData) -> dict[str, tuple[str, ...]]:
    """The feat lists the fighter's keywords grant (S4), by list name."""
    lists = {"Universal": data.feats.universal}
    lists.update({a: data.archetypes[a].feats for a in fighter.keywords if a in data.archetypes})
    lists.update({d: data.domains[d].feats for d in fighter.keywords if d in data.domains})
    return lists


def other_lists(fighter: Fighter, data: RetinueData) -> dict[str, tuple[str, ...]]:
    """The Archetype and Domain lists the fighter's own keywords do not grant (S5)."""
    own = own_lists(fighter, data)
    return {name: feats for name, feats in feat_lists(data).items() if name not in own}


def _list_holding(feat: str, lists: dict[str, tuple[str, ...]]) -> str | None:
    return next((name for name, feats in lists.items() if feat in feats), None)


def _check_prerequisites(fighter: Fighter, feat: str, data: RetinueData, rule: str) -> None:
    """`rule`: S4 for a Feat, S5 for one outside Archetype or Domain (its prerequisites "still apply")."""
    if feat in fighter.feats:
        raise RetinueRuleError(f"{rule}: {fighter.name} already has {feat}")
    needed = data.feats.prerequisites.get(feat)
    if needed is None:
        return
    for keyword in needed.keywords:
        if not fighter.has(keyword):
            raise RetinueRuleError(f"{rule}: {feat} requires the {keyword} keyword, which {fighter.name} does not have")
    for attribute, minimum in needed.attributes.items():
        value = fighter.stats.get(attribute, 0)
        if value < minimum:
            raise RetinueRuleError(f"{rule}: {feat} requires {attribute} {minimum}; {fighter.name} has {attribute} {value}: "
                                   f"{minimum - value} short")


def check_feat(fighter: Fighter, feat: str, data: RetinueData) -> str:
    """S4: a feat from the fighter's own lists it qualifies for (`feat` is on one of `feat_lists`).
    The list it comes from."""
    own = own_lists(fighter, data)
    source = _list_holding(feat, own)
    if source is None:
        raise RetinueRuleError(f"S4: {feat} is not on {possessive(fighter.name)} lists ({', '.join(own)}); it is on the "
                               f"{_list_holding(feat, other_lists(fighter, data))} list: buy it as a feat outside Archetype or Domain")
    _check_prerequisites(fighter, feat, data, "S4")
    return source


def check_feat_outside(fighter: Fighter, feat: str, data: RetinueData) -> str:
    """S5: any feat but Proficiency from an Archetype or Domain list the fighter's keywords do not
    grant (`feat` is on one of `feat_lists`); prerequisites still apply; no keyword is granted. The
    list it comes from."""
    if feat == PROFICIENCY:
        raise RetinueRuleError(f"S5: {PROFICIENCY} is never bought outside the fighter's Archetype or Domain")
    own = _list_holding(feat, own_lists(fighter, data))
    if own is not None:
        raise RetinueRuleError(f"S5: {feat} is on {possessive(fighter.name)} own {own} list: buy it as a Feat")
    _check_prerequisites(fighter, feat, data, "S5")
    return next(name for name, feats in other_lists(fighter, data).items() if feat in feats)


# --- S8, S9: Caster ------------------------------------------------------------------------------


def check_caster(fighter: Fighter, retinue: Sequence[Fighter], data: RetinueData) -> str:
    """S8 and S9. The fighter's Domain (whose list the spell comes from)."""
    if fighter.has(CASTER):
        raise RetinueRuleError(f"S9: {fighter.name} already has the {CASTER} keyword")
    others = [f for f in retinue if f.id != fighter.id]
    caster = next((f for f in others if f.has(CASTER)), None)
    if caster is not None:
        raise RetinueRuleError(f"S9: {caster.name} already has the {CASTER} keyword: only 1 fighter in a retinue may have it")
    mortal = next((f for f in retinue if f.has(MORTAL)), None)
    if mortal is not None:
        raise RetinueRuleError(f"S9: {mortal.name} has the {MORTAL} keyword: no fighter may buy {CASTER} while one does")
    domain = data.domain_of(fighter.keywords)
    if domain is None:
        raise RetinueRuleError(f"S8: {fighter.name} has no Domain keyword ({', '.join(data.domains)}), "
                               "so no attribute governs its casting roll")
    governing = data.domains[domain].casting
    value = fighter.stats.get(governing, 0)
    if value < 4:
        raise RetinueRuleError(f"S8: {fighter.name} has {governing} {value}; {CASTER} needs {governing} 4 or higher "
                               f"(the {domain} Domain casts with {governing}): {4 - value} short")
    return domain


def check_caster_limits(retinue: Sequence[Fighter]) -> None:
    """S9 as recruitment applies it to a retinue with a newcomer: at most 1 Caster, and no Caster
    with a Mortal fighter."""
    casters = [f.name for f in retinue if f.has(CASTER)]
    if len(casters) > 1:
        raise RetinueRuleError(f"S9: only 1 fighter in a retinue may have the {CASTER} keyword ({', '.join(casters)})")
    mortal = next((f.name for f in retinue if f.has(MORTAL)), None)
    if casters and mortal is not None:
        caster = f"the {CASTER} keyword too" if casters[0] == mortal else f"{casters[0]} the {CASTER} keyword"
        raise RetinueRuleError(f"S9: {mortal} has the {MORTAL} keyword and {caster}: no fighter of a retinue with a {MORTAL} "
                               f"one may have {CASTER}")


def check_spell(domain: str, spell: str, data: RetinueData) -> None:
    spells = data.domains[domain].spells
    if spell not in spells:
        raise RetinueRuleError(f"S8: {spell} is not a spell of the {domain} Domain (spells: {', '.join(spells)})")
