"""Spending XP, rules S1-S9 of shared/rules/retinue.md (seed 004), as given/when/then cases.

The cast (tests/retinue/conftest.py): Kestrel, Vampire (baselines Wi 3, CC 4) Warrior of Blood
(casts with Wi); Finch, Human (baselines 2/2/3/3/2/3/3/3/3) Scout; Wren, Human Mystic of Storm
(casts with Sa), recruited with Sa 4."""

from __future__ import annotations

import pytest

from commands.retinue.commands import Buy, Recruit
from commands.shared import Correct
from ledger import events as ev
from ledger.errors import BadInput, RuleViolation

from .conftest import Retinues, stats_of

ATTRIBUTE_COSTS = [("Wi", 6), ("Sa", 6), ("Mt", 7), ("Sk", 7), ("W", 8), ("M", 10), ("Df", 11), ("CC", 12), ("RC", 12)]


def spent(events):
    return [(e.amount, e.on) for e in events if isinstance(e, ev.XPSpent)]


# --- S1 --------------------------------------------------------------------------------------------


def test_S1_the_cost_is_deducted_before_the_advancement_applies(game):
    """"Pay the cost immediately; deduct it from the fighter's XP bank before applying the advancement.\""""
    game.xp("Finch", 7)
    events = game.buy("Finch", "Mt")
    assert [type(e) for e in events] == [ev.XPSpent, ev.StatChanged]
    assert (events[0].amount, events[1].stat, events[1].delta) == (7, "Mt", 1)
    assert (game.fighter("Finch").xp, stats_of(game.state, "Finch")["Mt"]) == (0, 4)


def test_S1_several_purchases_on_one_fighter_in_one_post_game(game):
    """"You may buy multiple advancements on the same fighter in one post-game if they can afford them.\""""
    game.xp("Finch", 9)
    game.buy("Finch", "feat", feat="Tough")
    game.buy("Finch", "Wi")
    assert game.fighter("Finch").xp == 0
    assert game.buy_refused("Finch", "feat", feat="Iron Will") == "S1: Finch has 0 XP; Feat costs 3: 3 XP short"


@pytest.mark.parametrize(("fighter", "xp", "refusal"), [
    ("Finch", 9, "S1: Finch has 9 XP; CC +1 costs 12: 3 XP short"),
    ("Kestrel", 9, "S1, S3: Kestrel has 9 XP; CC +1 costs 12, 14 for a Vampire: 5 XP short"),
    ("Kestrel", 13, "S1, S3: Kestrel has 13 XP; CC +1 costs 12, 14 for a Vampire: 1 XP short"),
])
def test_S1_a_purchase_it_cannot_afford_is_refused_with_the_shortfall(game, fighter, xp, refusal):
    game.xp(fighter, xp)
    assert game.buy_refused(fighter, "CC") == refusal
    assert game.fighter(fighter).xp == xp


# --- S2, S3 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("attribute", "cost"), ATTRIBUTE_COSTS)
def test_S2_attribute_costs(game, attribute, cost):
    """"Wi or Sa +1: 6; Mt or Sk +1: 7; W +1: 8; M +1: 10; Df +1: 11; CC or RC +1: 12\""""
    game.xp("Finch", 20)
    assert spent(game.buy("Finch", attribute)) == [(cost, f"{attribute} +1")]
    assert game.fighter("Finch").xp == 20 - cost


def test_S2_feat_3_caster_9_feat_outside_15(game):
    game.xp("Wren", 30)
    assert spent(game.buy("Wren", "feat", feat="Focus")) == [(3, "Feat")]
    assert spent(game.buy("Wren", "caster", spell="Gust")) == [(9, "Caster")]
    assert spent(game.buy("Wren", "feat-outside", feat="Cleave")) == [(15, "Feat (outside Archetype or Domain)")]
    assert game.fighter("Wren").xp == 3


@pytest.mark.parametrize(("attribute", "cost"), ATTRIBUTE_COSTS)
def test_S3_a_vampire_pays_2_more_on_every_attribute_line_and_gets_the_same(game, attribute, cost):
    """"Fighters with the Vampire keyword must pay 2 XP more than the listed cost for any advancement
    on this table. This adds to the XP price only; it does not change what the advancement grants.\""""
    game.xp("Kestrel", 20)
    events = game.buy("Kestrel", attribute)
    assert spent(events) == [(cost + 2, f"{attribute} +1 ({cost} + 2 for a Vampire)")]
    assert [(e.stat, e.delta) for e in events if isinstance(e, ev.StatChanged)][0] == (attribute, 1)


# Given Kestrel (a Vampire) on a version, when he buys each advancement, then what `xp.spent` records:
# from 1.7.0 the price's make-up goes inside the brackets the label has of its own (1.6.0 put a second pair after them).
VAMPIRE_PURCHASES = [
    (version, advancement, choice, spent_on)
    for version, outside in ((None, "Feat (outside Archetype or Domain; 15 + 2 for a Vampire)"),
                             ("1.6.0", "Feat (outside Archetype or Domain) (15 + 2 for a Vampire)"))
    for advancement, choice, spent_on in (("feat", {"feat": "Cleave"}, (5, "Feat (3 + 2 for a Vampire)")),
                                          ("caster", {"spell": "Drain"}, (11, "Caster (9 + 2 for a Vampire)")),
                                          ("feat-outside", {"feat": "Focus"}, (17, outside)))
]


@pytest.mark.parametrize(("version", "advancement", "choice", "spent_on"), VAMPIRE_PURCHASES)
def test_S3_a_vampire_pays_2_more_for_feats_caster_and_feats_outside(version, advancement, choice, spent_on):
    game = Retinues(version=version)
    game.xp("Kestrel", 40)
    game.stat("Kestrel", "Wi", 1)  # Wi 4: S8 lets a Blood fighter buy Caster
    assert spent(game.buy("Kestrel", advancement, **choice)) == [spent_on]
    assert game.fighter("Kestrel").xp == 40 - spent_on[0]


# --- S4, S5: feats ---------------------------------------------------------------------------------


def test_S4_a_feat_from_the_fighters_archetype_domain_or_universal_list(game):
    """"Select any feat this fighter qualifies for from the Feats lists — Archetype, Domain, or Universal.\""""
    game.xp("Wren", 9)
    learned = [(e.skill, e.row) for name in ("Focus", "Windrunner", "Iron Will")
               for e in game.buy("Wren", "feat", feat=name) if isinstance(e, ev.SkillLearned)]
    assert learned == [("Focus", "feat:Mystic"), ("Windrunner", "feat:Storm"), ("Iron Will", "feat:Universal")]
    assert game.fighter("Wren").skills == ["Focus", "Windrunner", "Iron Will"]


@pytest.mark.parametrize(("fighter", "feat", "refusal"), [
    ("Finch", "Cleave", "S4: Cleave is not on Finch's lists (Universal, Scout); it is on the Warrior list: buy it as a "
                        "feat outside Archetype or Domain"),
    ("Finch", "Juggling", "S4: no feat 'Juggling' on any feat list"),
    ("Kestrel", "Sanguine Rite", "S4: Sanguine Rite requires the Caster keyword, which Kestrel does not have"),
    ("Finch", "Sharpshooter", "S4: Sharpshooter requires RC 3; Finch has RC 2: 1 short"),
])
def test_S4_the_keyword_and_prerequisite_rules_of_recruitment_apply(game, fighter, feat, refusal):
    """"… under the same keyword and prerequisite rules as at recruitment.\""""
    game.xp(fighter, 10)
    if feat == "Sharpshooter":
        game.stat("Finch", "RC", -1)
    assert game.buy_refused(fighter, "feat", feat=feat) == refusal


def test_S4_a_feat_already_held_is_not_bought_again(game):
    game.xp("Finch", 6)
    game.buy("Finch", "feat", feat="Fleet")
    assert game.buy_refused("Finch", "feat", feat="Fleet") == "S4: Finch already has Fleet"


def test_S5_a_feat_outside_costs_15_and_grants_no_keyword(game):
    """"This does not grant the matching Archetype or Domain keyword — the fighter is borrowing
    training, not switching allegiance.\""""
    game.xp("Finch", 15)
    events = game.buy("Finch", "feat-outside", feat="Cleave")
    assert [type(e) for e in events] == [ev.XPSpent, ev.SkillLearned]
    assert events[1].row == "feat:Warrior"
    assert "Warrior" not in game.fighter("Finch").keywords


@pytest.mark.parametrize(("feat", "refusal"), [
    ("Proficiency", "S5: Proficiency is never bought outside the fighter's Archetype or Domain"),
    ("Sharpshooter", "S5: Sharpshooter is on Finch's own Scout list: buy it as a Feat"),
    ("Tough", "S5: Tough is on Finch's own Universal list: buy it as a Feat"),
    ("Stormcaller", "S5: Stormcaller requires the Caster keyword, which Finch does not have"),
])
def test_S5_never_proficiency_never_its_own_lists_and_prerequisites_still_apply(game, feat, refusal):
    """"Select any feat other than Proficiency from an Archetype feat list or Domain feat list this
    fighter's own keywords do not grant. The fighter must still meet any other prerequisite the feat
    itself lists, such as requiring the Caster keyword.\""""
    game.xp("Finch", 20)
    assert game.buy_refused("Finch", "feat-outside", feat=feat) == refusal


# --- S6, S7: attributes ----------------------------------------------------------------------------


def test_S6_an_attribute_is_raised_by_1_to_a_maximum_of_6(game):
    """"Buying an attribute advancement raises the chosen attribute by +1, to a maximum of 6.\""""
    game.xp("Finch", 30)
    game.stat("Finch", "CC", 3)  # CC 6
    assert game.buy_refused("Finch", "CC", reduce="Mt") == "S6: Finch's CC is 6, the maximum of 6"
    game.stat("Finch", "CC", -1)  # CC 5: the raise to 6 is allowed
    game.buy("Finch", "CC", reduce="Mt")
    assert stats_of(game.state, "Finch")["CC"] == 6


def test_S7_up_to_baseline_plus_1_nothing_is_reduced(game):
    game.xp("Finch", 12)
    events = game.buy("Finch", "CC")  # baseline 3 -> 4
    assert [(e.stat, e.delta) for e in events if isinstance(e, ev.StatChanged)] == [("CC", 1)]


def test_S7_beyond_baseline_plus_1_the_player_names_another_attribute_to_reduce(game):
    """"If this purchase would raise an attribute more than +1 above that fighter's ancestry baseline
    for it … select a different attribute on this fighter and reduce it by 1.\""""
    game.xp("Finch", 24)
    game.buy("Finch", "CC")
    events = game.buy("Finch", "CC", reduce="Df")  # CC 5 is 2 above baseline 3
    assert [(e.stat, e.delta, e.reason) for e in events if isinstance(e, ev.StatChanged)] == [
        ("CC", 1, "advancement: CC +1"), ("Df", -1, "S7: CC 5 is beyond the ancestry baseline 3 + 1")]
    assert (stats_of(game.state, "Finch")["CC"], stats_of(game.state, "Finch")["Df"]) == (5, 2)


def test_S7_the_baseline_is_the_ancestrys_not_the_value_after_recruitment_bonuses(game):
    """"… not the value after recruitment bonuses, feats, or prior advancement." Wren was recruited
    with Sa 4; the Human baseline is Sa 2, so Sa 5 is beyond 2 + 1."""
    game.xp("Wren", 6)
    assert game.refusal(Buy(warband="Hawks", fighter="Wren", advancement="Sa")).startswith(
        "Wren's Sa goes beyond its ancestry baseline + 1: reduce which attribute?: answer with --answer reduce=CHOICE")
    events = game.do(Buy(warband="Hawks", fighter="Wren", advancement="Sa", answers={"reduce": "Mt"}))
    assert [(e.stat, e.delta) for e in events if isinstance(e, ev.StatChanged)] == [("Sa", 1), ("Mt", -1)]


def test_S7_the_reduced_attribute_must_be_a_different_one_of_those_it_may_be(game):
    game.xp("Wren", 6)
    game.do(Correct(warband="Hawks", fighter="Wren", stats={"M": 1 - game.fighter("Wren").stats["M"]}, reason="M at 1"))
    refused = game.buy_refused("Wren", "Sa", reduce="Sa")
    # the choices named are those A2 "refuse" lets it reduce: M, now at 1, is not one
    assert refused.startswith("S7: name an attribute of Wren other than Sa to reduce (one of: ")
    assert "M" not in refused.split("(one of: ")[1].rstrip(")").split(", ")


def test_S7_naming_an_attribute_to_reduce_when_none_is_owed_is_refused(game):
    game.xp("Finch", 12)
    assert game.buy_refused("Finch", "CC", reduce="Mt") == (
        "S7: CC +1 stays within Finch's ancestry baseline + 1: nothing to reduce")


@pytest.mark.parametrize(("rule", "reduced"), [("one-per-purchase", -1), ("whole-excess", -2)])
def test_S7_A1_for_each_point_beyond_that_first_plus_1(house_rules, rule, reduced):
    """A1: (a) each purchase that ends above baseline + 1 costs one reduction; (b) the reduction is
    the whole excess, new value - (baseline + 1). Finch's CC 5 (baseline 3) raised to 6."""
    game = house_rules({"baseline_excess": rule})
    game.xp("Finch", 12)
    game.stat("Finch", "CC", 2)
    events = game.buy("Finch", "CC", reduce="Df")
    assert [(e.stat, e.delta) for e in events if isinstance(e, ev.StatChanged)] == [("CC", 1), ("Df", reduced)]


def whole_excess_finch(version: str | None = None, **options: str) -> Retinues:
    """Finch (Human, baseline CC 3) at CC 5 with 12 XP, under A1 "whole-excess": CC +1 owes 2 points."""
    game = Retinues({"baseline_excess": "whole-excess", **options}, version=version)
    game.xp("Finch", 12)
    game.stat("Finch", "CC", 2)
    return game


def reductions(events) -> list[tuple[str, int]]:
    return [(e.stat, e.delta) for e in events if isinstance(e, ev.StatChanged)][1:]


def test_S7_a_reduction_stops_at_1_and_another_attribute_takes_the_rest():
    """"… select a different attribute on this fighter and reduce it by 1, to a minimum of 1, for each
    point beyond that first +1": W 2 takes 1 of the 2 points, Df the other."""
    game = whole_excess_finch()
    assert game.buy_refused("Finch", "CC", reduce="W") == (
        "Finch's W is down to 1, and 1 more point must come off another attribute (S7): reduce which attribute?: "
        "answer with --answer reduce:2=CHOICE (one of: Wi, Sa, Mt, Sk, M, Df, RC)")
    assert reductions(game.buy("Finch", "CC", reduce="W", also_reduce=["df"])) == [("W", -1), ("Df", -1)]
    assert (stats_of(game.state, "Finch")["W"], stats_of(game.state, "Finch")["Df"]) == (1, 2)


def test_S7_the_rest_of_a_reduction_follows_A2_for_an_attribute_at_1():
    """A2 "refuse": the rest named on W, now at 1, is refused; "no-effect": it changes nothing."""
    game = whole_excess_finch()
    assert game.buy_refused("Finch", "CC", reduce="W", also_reduce=["W"]) == (
        "S7, A2: Finch's W is already 1: name another attribute (Wi, Sa, Mt, Sk, M, Df, RC)")
    game = whole_excess_finch(reduce_at_one="no-effect")
    events = game.buy("Finch", "CC", reduce="W", also_reduce=["W"])
    assert reductions(events) == [("W", -1)]
    assert events[-1].text == "S7: CC 6 is beyond the ancestry baseline 3 + 1; Finch's W is already 1: no effect (A2)"


def test_S7_an_attribute_named_beyond_what_is_owed_is_refused():
    game = whole_excess_finch()
    assert game.buy_refused("Finch", "CC", reduce="Df", also_reduce=["Mt"]) == "--reduce Mt: nothing is left to reduce"


def test_on_1_2_0_a_reduction_stopped_at_1_and_the_rest_was_dropped():
    game = whole_excess_finch("1.2.0")
    assert reductions(game.buy("Finch", "CC", reduce="W")) == [("W", -1)]
    assert game.buy_refused("Finch", "W", reduce="Df", also_reduce=["Mt"]) == (
        "one --reduce: this campaign plays retinue 1.2.0, where a purchase reduces one attribute")


def finch_at_cc_4_with_w_1(game: Retinues) -> Retinues:
    """CC +1 takes Finch (Human, baseline CC 3) to 5, beyond baseline + 1; his W is 1."""
    game.xp("Finch", 12)
    game.stat("Finch", "CC", 1)
    game.stat("Finch", "W", -1)
    return game


ALL_BUT_W = {"Wi": -1, "Sa": -1, "Mt": -2, "Sk": -2, "M": -2, "Df": -2, "RC": -2}


def test_S7_A2_refuse_an_attribute_already_at_1_is_refused(game):
    """A2 (a): "refused, name another; if no other attribute is above 1 the purchase is refused". Named with the
    command or answered, it is bad input, told from the command and the state alone; the purchase refused, a rule."""
    finch_at_cc_4_with_w_1(game)
    assert game.buy_refused("Finch", "CC", reduce="W") == (
        "S7, A2: Finch's W is already 1: name another attribute (Wi, Sa, Mt, Sk, M, Df, RC)")
    for named in ({"reduce": "W"}, {"answers": {"reduce": "W"}}):
        with pytest.raises(BadInput):
            game.buy("Finch", "CC", **named)
    game.do(Correct(warband="Hawks", fighter="Finch", reason="test setup", stats=ALL_BUT_W))
    assert game.buy_refused("Finch", "CC", reduce="W") == (
        "S7, A2: Finch has no attribute above 1 but CC to reduce: CC +1 is refused")
    with pytest.raises(RuleViolation):
        game.buy("Finch", "CC", reduce="W")


def test_S7_A2_no_effect_reducing_an_attribute_at_1_is_allowed_and_changes_nothing(house_rules):
    """A2 (b): "allowed with no effect"."""
    game = finch_at_cc_4_with_w_1(house_rules({"reduce_at_one": "no-effect"}))
    events = game.buy("Finch", "CC", reduce="W")
    assert [type(e) for e in events] == [ev.XPSpent, ev.StatChanged, ev.NoteRecorded]
    assert events[2].text == "S7: CC 5 is beyond the ancestry baseline 3 + 1; Finch's W is already 1: no effect (A2)"
    assert stats_of(game.state, "Finch")["W"] == 1


@pytest.mark.parametrize(("version", "offered"), [(None, "Wi, Sa, Mt, Sk, M, Df, RC"), ("1.2.0", "Wi, Sa, Mt, Sk, W, M, Df, RC")])
def test_S7_the_question_offers_the_attributes_a_reduction_changes(version, offered):
    """Under A2 "no-effect" naming W at 1 is allowed, but the question lists only what a reduction
    changes (1.3.0); 1.2.0 offered W too."""
    game = finch_at_cc_4_with_w_1(Retinues({"reduce_at_one": "no-effect"}, version=version))
    assert game.buy_refused("Finch", "CC") == (
        "Finch's CC goes beyond its ancestry baseline + 1: reduce which attribute?: answer with --answer reduce=CHOICE "
        f"(one of: {offered})")


def test_S7_A2_refuse_with_no_attribute_above_1_the_purchase_is_refused_before_any_question(game):
    finch_at_cc_4_with_w_1(game)
    game.do(Correct(warband="Hawks", fighter="Finch", reason="test setup", stats=ALL_BUT_W))
    assert game.buy_refused("Finch", "CC") == "S7, A2: Finch has no attribute above 1 but CC to reduce: CC +1 is refused"


def test_on_1_2_0_with_no_attribute_above_1_the_question_offered_them_all():
    game = finch_at_cc_4_with_w_1(Retinues(version="1.2.0"))
    game.do(Correct(warband="Hawks", fighter="Finch", reason="test setup", stats=ALL_BUT_W))
    assert game.buy_refused("Finch", "CC").endswith("(one of: Wi, Sa, Mt, Sk, W, M, Df, RC)")


# --- S8, S9: Caster --------------------------------------------------------------------------------


def test_S8_caster_grants_the_keyword_and_a_spell_of_the_domain_chosen_at_purchase(game):
    """"Buying Caster grants the Cast action and 1 spell from the fighter's Domain list, chosen at purchase.\""""
    game.xp("Wren", 9)
    events = game.buy("Wren", "caster", spell="Lightning")
    assert [type(e) for e in events] == [ev.XPSpent, ev.KeywordGained, ev.SkillLearned]
    assert (events[1].keyword, events[2].skill, events[2].row) == ("Caster", "Lightning", "spell:Storm")


@pytest.mark.parametrize(("fighter", "spell", "refusal"), [
    ("Kestrel", "Drain", "S8: Kestrel has Wi 3; Caster needs Wi 4 or higher (the Blood Domain casts with Wi): 1 short"),
    ("Finch", "Drain", "S8: Finch has no Domain keyword (Blood, Storm), so no attribute governs its casting roll"),
    ("Wren", "Drain", "S8: Drain is not a spell of the Storm Domain (spells: Lightning, Gust, Thunderclap)"),
])
def test_S8_caster_needs_the_governing_attribute_at_4_and_a_spell_of_its_own_domain(game, fighter, spell, refusal):
    """"A fighter may buy Caster only if they have Wi 4 or higher, or Sa 4 or higher — whichever
    attribute governs their Domain's casting roll." Kestrel's Sa 4 does not help: Blood casts with Wi."""
    game.xp(fighter, 11)
    game.stat("Kestrel", "Sa", 2)
    assert game.buy_refused(fighter, "caster", spell=spell) == refusal


def test_S9_only_one_caster_in_a_retinue(game):
    """"… only 1 fighter in the retinue may have the Caster keyword\""""
    game.xp("Wren", 9)
    game.buy("Wren", "caster", spell="Gust")
    game.xp("Kestrel", 11)
    game.stat("Kestrel", "Wi", 1)
    assert game.buy_refused("Kestrel", "caster", spell="Drain") == (
        "S9: Wren already has the Caster keyword: only 1 fighter in a retinue may have it")
    assert game.buy_refused("Wren", "caster", spell="Lightning") == "S9: Wren already has the Caster keyword"
    assert game.refusal(Recruit(
        warband="Hawks", name="Ibis", ancestry="Human", keywords=["Caster"])) == (
        "S9: only 1 fighter in a retinue may have the Caster keyword (Wren, Ibis)")


def test_S9_no_caster_while_any_fighter_of_the_retinue_is_mortal(game):
    """"… no fighter may buy Caster if any fighter in the retinue has the Mortal keyword.\""""
    game.recruit("Hawks", "Tam", ancestry="Thrall")
    game.xp("Wren", 9)
    assert game.buy_refused("Wren", "caster", spell="Gust") == (
        "S9: Tam has the Mortal keyword: no fighter may buy Caster while one does")


def test_S9_at_recruitment_no_caster_joins_a_retinue_with_a_mortal_nor_a_mortal_one_with_a_caster(game):
    """"The recruitment restrictions on Caster still apply: … no fighter may buy Caster if any fighter in the
    retinue has the Mortal keyword." The refusal names the Mortal fighter and the Caster: the newcomer is one of
    them, and a player told only of the Mortal one looked for the Caster."""
    assert game.refusal(Recruit(warband="Hawks", name="Hag", ancestry="Thrall", keywords=["Caster"])) == (
        "S9: Hag has the Mortal keyword and the Caster keyword too: no fighter of a retinue with a Mortal one may have Caster")
    game.recruit("Hawks", "Tam", ancestry="Thrall")
    assert game.refusal(Recruit(warband="Hawks", name="Ibis", ancestry="Human", keywords=["Caster"])) == (
        "S9: Tam has the Mortal keyword and Ibis the Caster keyword: no fighter of a retinue with a Mortal one may have Caster")
    game.recruit("Wolves", "Moth", ancestry="Human", keywords=["Caster"])
    assert game.refusal(Recruit(warband="Wolves", name="Serf", ancestry="Thrall")) == (
        "S9: Serf has the Mortal keyword and Moth the Caster keyword: no fighter of a retinue with a Mortal one may have Caster")


# --- what a purchase reads (1.2.0), and names whatever their case ----------------------------------


@pytest.mark.parametrize(("advancement", "choice", "refusal"), [
    ("M", {"feat": "Tough"}, "--feat: not read when buying M +1"),
    ("feat", {"feat": "Tough", "reduce": "Mt"}, "--reduce: not read when buying Feat"),
    ("caster", {"spell": "Gust", "feat": "Tough"}, "--feat: not read when buying Caster"),
])
def test_an_option_the_advancement_does_not_read_is_refused_not_dropped(game, advancement, choice, refusal):
    """`buy Finch M --feat Tough` spent 10 XP on M +1: a slip in ADVANCEMENT bought something else."""
    game.xp("Wren", 20)
    assert game.buy_refused("Wren", advancement, **choice) == refusal


def test_on_1_1_0_an_option_the_advancement_does_not_read_was_dropped():
    game = Retinues(version="1.1.0")
    game.xp("Finch", 10)
    assert spent(game.buy("Finch", "M", feat="Tough")) == [(10, "M +1")]


def test_a_fighter_who_cannot_pay_is_told_the_shortfall_not_asked_what_to_reduce(game):
    game.xp("Wren", 5)  # Sa +1 costs 6, and Sa 5 would be beyond the Human baseline 2 + 1: a reduction is owed
    assert game.refusal(Buy(warband="Hawks", fighter="Wren", advancement="Sa")) == "S1: Wren has 5 XP; Sa +1 costs 6: 1 XP short"


def test_an_attribute_to_reduce_is_named_whatever_its_case(game):
    game.xp("Wren", 6)
    events = game.buy("Wren", "Sa", reduce="mt")
    assert [(e.stat, e.delta) for e in events if isinstance(e, ev.StatChanged)] == [("Sa", 1), ("Mt", -1)]


def test_a_recruit_s_ancestry_archetype_domain_and_attributes_are_named_whatever_their_case(game):
    game.do(Recruit(warband="Hawks", name="Plover", ancestry="human", archetype="scout", stats={"wi": 4}))
    plover = game.fighter("Plover")
    assert (plover.keywords[:2], plover.stats["Wi"]) == (["Human", "Scout"], 4)


def test_an_attribute_given_twice_in_two_cases_is_refused_not_one_dropped(game):
    assert game.refusal(Recruit(warband="Hawks", name="Plover", ancestry="Human", stats={"Wi": 3, "wi": 4})) == (
        "an attribute is given twice: Wi, wi")


def test_a_retinue_has_one_leader(game):
    """E3 "Put the enemy Leader Out of Action … +2": a retinue's Leader is one fighter."""
    for second in (dict(leader=True), dict(keywords=["leader"])):
        assert game.refusal(Recruit(warband="Hawks", name="Plover", ancestry="Human", **second)) == (
            'Hawks is led by Kestrel: a retinue has one Leader ("the enemy Leader", E3)')


def test_on_1_1_0_a_second_leader_was_recruited():
    game = Retinues(version="1.1.0")
    game.do(Recruit(warband="Hawks", name="Plover", ancestry="Human", leader=True))
    assert game.fighter("Plover").role == "leader"


def test_a_fighter_who_cannot_pay_is_told_the_shortfall_before_what_is_wrong_with_the_reduction(game):
    game.xp("Wren", 5)  # Sa +1 costs 6; reducing Sa itself is refused, but only once it could be paid
    assert game.refusal(Buy(warband="Hawks", fighter="Wren", advancement="Sa", reduce="Sa")) == "S1: Wren has 5 XP; Sa +1 costs 6: 1 XP short"
    game.xp("Wren", 1)
    assert game.refusal(Buy(warband="Hawks", fighter="Wren", advancement="Sa", reduce="Sa")).startswith("S7")


@pytest.mark.parametrize(("keyword", "refusal"), [
    ("Dwarf", "--keyword Dwarf is an ancestry: a fighter has one, given with --ancestry"),
    ("warrior", "--keyword warrior is an Archetype: a fighter has one, given with --archetype"),
    ("Storm", "--keyword Storm is a Domain: a fighter has one, given with --domain"),
    (" Warrior ", "--keyword Warrior is an Archetype: a fighter has one, given with --archetype"),
])
def test_an_ancestry_archetype_or_domain_given_as_a_keyword_is_refused(game, keyword, refusal):
    """S7 reads "that fighter's ancestry baseline": `--ancestry Human --keyword Dwarf` made a second one,
    and which baselines S7 read hung on the order of the keywords."""
    assert game.refusal(Recruit(warband="Hawks", name="Plover", ancestry="Human", archetype="Scout",
                                keywords=[keyword])) == refusal


def test_on_1_3_0_an_ancestry_given_as_a_keyword_was_taken():
    game = Retinues(version="1.3.0")
    game.recruit("Hawks", "Plover", ancestry="Human", keywords=["Dwarf"])
    assert game.fighter("Plover").keywords == ["Human", "Dwarf"]


@pytest.mark.parametrize(("version", "whose"), [("1.7.0", "Lucius's"), ("1.8.0", "Lucius'")])
def test_S7_the_note_of_a_reduction_at_1_names_a_fighter_ending_in_s_in_an_apostrophe_alone_from_1_8_0(version, whose):
    """As above for Lucius (a Human Scout, as Finch is): 1.8.0 notes "Lucius' W"; 1.7.0 noted "Lucius's W", and keeps it."""
    game = Retinues({"baseline_excess": "whole-excess", "reduce_at_one": "no-effect"}, version=version)
    game.recruit("Hawks", "Lucius", ancestry="Human", archetype="Scout")
    game.xp("Lucius", 12)
    game.stat("Lucius", "CC", 2)
    events = game.buy("Lucius", "CC", reduce="W", also_reduce=["W"])
    assert events[-1].text == f"S7: CC 6 is beyond the ancestry baseline 3 + 1; {whose} W is already 1: no effect (A2)"
