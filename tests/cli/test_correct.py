"""`campaign correct`, shared by every ruleset, on each sample campaign: what it refuses of what is typed now."""

import json

import pytest

DEATH_BY_MISTAKE = ("Error: {fighter} is dead: a correction cannot make a dead fighter {becomes}; if the death was "
                    "recorded by mistake, void it (campaign history {fighter} shows which transaction: "
                    "campaign void T… --reason …)\n")


def head(campaign) -> str:
    return json.loads(campaign("show", "--json").output)["head"]


@pytest.mark.parametrize(("ruleset", "warband", "fighter"), [
    ("coreheim", "Reikland Rats", "Hans"),
    ("warbands", "Reiklanders", "Hans"),
    ("retinue", "Hawks of the Mere", "Kestrel"),
    ("trench-crusade", "Pilgrims of Saint Gaius", "Gaius"),
    ("freeform", "Reikland Rats", "Gunnar"),
])
@pytest.mark.parametrize(("status", "becomes"), [("dead", "dead again"), ("captured", "captured"), ("retired", "retired")])
def test_a_dead_fighter_s_status_is_not_corrected_in_any_ruleset(campaign, ruleset, warband, fighter, status, becomes):
    """As Speedheim v9 refuses it: death has no way back but a void of what recorded it, which re-decides what followed."""
    assert campaign("demo", "--ruleset", ruleset).exit_code == 0
    killed = campaign("correct", warband, fighter, "--status", "dead", "--reason", "fell")
    assert killed.exit_code == 0, killed.output
    before = head(campaign)
    refused = campaign("correct", warband, fighter, "--status", status, "--reason", "a second look")
    assert (refused.exit_code, refused.output) == (1, DEATH_BY_MISTAKE.format(fighter=fighter, becomes=becomes))
    assert head(campaign) == before
    # The command the refusal names shows the transaction that recorded the death, the one to void
    killed_in = killed.output.splitlines()[-1].split()[1]  # "Recorded T… (…)"
    timeline = campaign("history", fighter)
    assert timeline.exit_code == 0
    assert [line.split()[1] for line in timeline.output.splitlines() if f"{fighter} is dead" in line] == [killed_in]
    # His record, not his status, is still corrected (a Warbands model has no XP of its own: its warband has)
    record = ("--add-keyword", "Mourned") if ruleset == "warbands" else ("--xp", "1")
    assert campaign("correct", warband, fighter, *record, "--reason", "missed").exit_code == 0


@pytest.mark.parametrize(("warband", "fighter", "said"), [
    ("Clan Skrittle", "Gunnar", "Error: no fighter 'Gunnar' in Clan Skrittle: Gunnar is in Reikland Rats\n"),
    ("Clan Skrittle", "gunnar", "Error: no fighter 'gunnar' in Clan Skrittle: Gunnar is in Reikland Rats\n"),  # his id
    ("Clan Skrittle", "Nobody", "Error: no fighter 'Nobody' in Clan Skrittle\n"),
])
def test_a_fighter_named_in_the_wrong_warband_is_not_found_saying_where_he_is(campaign, warband, fighter, said):
    assert campaign("demo", "--ruleset", "freeform").exit_code == 0
    before = head(campaign)
    refused = campaign("correct", warband, fighter, "--xp", "1", "--reason", "missed")
    assert (refused.exit_code, refused.output) == (2, said)
    assert head(campaign) == before


def corrected_keywords(campaign) -> list[tuple[list[str], list[str]]]:
    """The keywords each correction of the campaign records, given and taken away."""
    trail = [json.loads(line) for line in campaign("export", "--format", "jsonl").output.splitlines()]
    return [(line["payload"]["args"]["add_keywords"], line["payload"]["args"]["remove_keywords"]) for line in trail
            if line.get("type") == "command.recorded" and line["payload"]["command"] == "correct"]


# No keyword of these rulesets holds a comma (their rules' and data's: ELITE, NEGATE FEAR; Veteran +1; Caster, Mortal,
# ancestries, archetypes, domains): "Alpha, Beta" typed now is two keywords, recorded so.
@pytest.mark.parametrize(("ruleset", "warband", "fighter"), [
    ("warbands", "Reiklanders", "Hans"),
    ("retinue", "Hawks of the Mere", "Kestrel"),
    ("trench-crusade", "Pilgrims of Saint Gaius", "Gaius"),
])
def test_keywords_typed_in_one_option_are_read_one_by_one_where_no_keyword_holds_a_comma(campaign, ruleset, warband, fighter):
    assert campaign("demo", "--ruleset", ruleset).exit_code == 0
    given = campaign("correct", warband, fighter, "--add-keyword", "Alpha, Beta", "--reason", "as listed")
    assert (given.exit_code, given.output.splitlines()[:2]) == (0, [f"  {fighter} gains Alpha", f"  {fighter} gains Beta"])
    taken = campaign("correct", warband, fighter, "--remove-keyword", "Alpha,Beta", "--reason", "a second look")
    assert (taken.exit_code, taken.output.splitlines()[:2]) == (0, [f"  {fighter} loses Alpha", f"  {fighter} loses Beta"])
    assert corrected_keywords(campaign)[-2:] == [(["Alpha", "Beta"], []), ([], ["Alpha", "Beta"])]
    assert campaign("replay", "--check").output.endswith("all match.\n")
    # One of them not held: refused, naming it, nothing written
    before = head(campaign)
    refused = campaign("correct", warband, fighter, "--remove-keyword", "Alpha,Beta", "--reason", "again")
    assert (refused.exit_code, refused.output) == (1, f"Error: {fighter} has no keyword Alpha\n")
    assert head(campaign) == before


# A keyword of these may hold a comma: Coreheim's own "Hatred (Reikland Rats, Clan Skrit)" (version 6) names every
# warband hated, and a freeform keyword is the group's own words ("Hates (Elves, Dwarfs)"): one option, one keyword.
@pytest.mark.parametrize(("ruleset", "warband", "fighter"), [
    ("coreheim", "Reikland Rats", "Hans"),
    ("freeform", "Reikland Rats", "Gunnar"),
])
def test_a_keyword_typed_with_a_comma_is_one_keyword_where_keywords_may_hold_one(campaign, ruleset, warband, fighter):
    assert campaign("demo", "--ruleset", ruleset).exit_code == 0
    hatred = "Hatred (Reikland Rats, Clan Skrit)"
    given = campaign("correct", warband, fighter, "--add-keyword", hatred, "--reason", "as the roster says")
    assert (given.exit_code, given.output.splitlines()[0]) == (0, f"  {fighter} gains {hatred}")
    taken = campaign("correct", warband, fighter, "--remove-keyword", hatred, "--reason", "made peace")
    assert (taken.exit_code, taken.output.splitlines()[0]) == (0, f"  {fighter} loses {hatred}")
    assert corrected_keywords(campaign)[-2:] == [([hatred], []), ([], [hatred])]


def corrected_stats(campaign) -> list[dict[str, int]]:
    """The stats each correction of the campaign records, with their deltas."""
    trail = [json.loads(line) for line in campaign("export", "--format", "jsonl").output.splitlines()]
    return [line["payload"]["args"]["stats"] for line in trail
            if line.get("type") == "command.recorded" and line["payload"]["command"] == "correct"]


# The rulesets that name their stats (Terms.stat_order): a stat typed now is one of them, in any case, as their
# recruits read them; recorded as the rules spell it, so that it replays as it decided.
@pytest.mark.parametrize(("ruleset", "warband", "fighter", "typed", "spelled", "unknown", "refused"), [
    ("speedheim", "Sellswords", "Hilde", "mel=-1", "Mel", "WS=1",
     "Error: WS: not a Speedheim stat (Mov Mel Rgd Def Agi Mrl Atk Wnd Inj Prc)\n"),
    ("coreheim", "Reikland Rats", "Hans", "ws=1", "WS", "Mel=-1",
     "Error: Mel: not a Coreheim stat (M A W T WS BS I Ld)\n"),
    ("retinue", "Hawks of the Mere", "Kestrel", "cc=1", "CC", "WS=1",
     "Error: WS: not a Retinue stat (Wi Sa Mt Sk W M Df CC RC)\n"),
])
def test_a_corrected_stat_is_one_the_rules_name_in_any_case(campaign, ruleset, warband, fighter, typed, spelled, unknown,
                                                           refused):
    assert campaign("demo", "--ruleset", ruleset).exit_code == 0
    shown = json.loads(campaign("fighter", "show", fighter, "--json").output)["stats"]
    delta = int(typed.split("=")[1])
    given = campaign("correct", warband, fighter, "--stat", typed, "--reason", "as the roster says")
    assert (given.exit_code, given.output.splitlines()[0]) == (0, f"  {fighter} {spelled} {delta:+d} (correction: as the roster says)")
    assert json.loads(campaign("fighter", "show", fighter, "--json").output)["stats"] == {**shown, spelled: shown[spelled] + delta}
    assert corrected_stats(campaign)[-1] == {spelled: delta}
    assert campaign("replay", "--check").output.endswith("all match.\n")
    before = head(campaign)
    for stats in ([unknown], [typed, f"{spelled}=1"]):
        said = refused if len(stats) == 1 else f"Error: a stat is given twice: {typed.split('=')[0]}, {spelled}\n"
        result = campaign("correct", warband, fighter, *[a for s in stats for a in ("--stat", s)], "--reason", "again")
        assert (result.exit_code, result.output) == (2, said)
    assert head(campaign) == before


def test_a_warbands_correction_gives_no_model_xp(campaign):
    """R25: Experience Points belong to the warband (its XP pool), as `xp award` says; a correction typed now gave a model
    XP ('Hans gains 5 XP')."""
    assert campaign("demo", "--ruleset", "warbands").exit_code == 0
    before = head(campaign)
    refused = campaign("correct", "Reiklanders", "Hans", "--xp", "5", "--reason", "x")
    award = campaign("xp", "award", "Hans", "5", "--reason", "x")
    assert (refused.exit_code, refused.output) == (award.exit_code, award.output) == (
        1, "Error: in a Warbands campaign Experience Points belong to the warband, not a model: they are its XP pool "
           "(campaign warbands experience, or campaign treasury WARBAND N --reason …)\n")
    assert head(campaign) == before
