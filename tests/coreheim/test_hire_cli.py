"""`campaign coreheim hire` from the warband list (issue 9, item 7): the type alone hires a warrior
with the list's profile, race and price; `--stat` replaces single characteristics; exact output
and exit codes, through the real CLI on a SQLite file."""

from __future__ import annotations

import json

import pytest

from ledger.testing import CampaignRunner

R = "Reiklanders"


@pytest.fixture
def campaign(tmp_path) -> CampaignRunner:
    """A coreheim campaign with Reiklanders (mercenaries/reikland, 500 gc) and nobody hired yet."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (
        ["new", "League", "--ruleset", "coreheim"],
        ["warband", "add", R, "--player", "Ann", "--faction", "mercenaries/reikland", "--treasury", "500"],
    ):
        assert runner(*args).exit_code == 0
    return runner


def events(campaign) -> int:
    return json.loads(campaign("show", "--json").output)["events"]


def roster(campaign) -> list[str]:
    result = campaign("roster", R)
    assert result.exit_code == 0, result.output
    return result.output.splitlines()[1:]


def test_a_captain_is_hired_by_his_type(campaign):
    result = campaign("coreheim", "hire", R, "Kurt", "--type", "captain")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:-1] == [
        "  Kurt, leader, joins Reiklanders",
        "  Kurt is of type Captain (Human)",
        "  Reiklanders treasury -60 (hired Kurt)",
    ]
    # 3.1, 1 Mercenary Captain: | 7 | 1 | 1 | +0 | 8+ | 8+ | 5+ | 4+ |, Starting Experience: 20
    assert roster(campaign) == ["  Kurt — leader  XP 20  M7 A1 W1 T0 WS8 BS8 I5 Ld4", "      type: Captain", "      race: Human"]


def test_a_stat_given_replaces_only_that_one(campaign):
    result = campaign("coreheim", "hire", R, "Otto", "--type", "sergeant", "--stat", "WS=7")
    assert result.exit_code == 0, result.output
    # Sergeants: WS 8+ BS 9+ I 7+ Ld 6+, and Reikland's "Sergeants start with Ld 4+"
    assert roster(campaign) == ["  Otto — hero  XP 6  M7 A1 W1 T0 WS7 BS9 I7 Ld4", "      type: Sergeant", "      race: Human"]


def test_a_henchman_group_is_hired_by_its_type(campaign):
    result = campaign("coreheim", "hire", R, "Shots", "--type", "marksman", "--size", "3")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:-1] == [
        "  Shots, henchman (group of 3), joins Reiklanders",
        "  Shots is of type Marksmen (Human)",
        "  Reiklanders treasury -75 (hired Shots)",
    ]


@pytest.mark.parametrize("typed", ["Sergeant", "SERGEANT"])
def test_a_type_is_taken_in_any_case_and_kept_as_the_list_spells_it(campaign, typed):
    """"Sergeant" was refused as no type of the list ("sergeant"), exit 2."""
    result = campaign("coreheim", "hire", R, "Otto", "--type", typed)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1] == "  Otto is of type Sergeant (Human)"
    assert roster(campaign)[1] == "      type: Sergeant"  # the roster names the type the list spells "sergeant"
    assert json.loads(campaign("roster", R, "--json").output)["roster"][0]["ext"]["type"] == "sergeant"  # as kept


def test_an_unknown_type_is_refused_naming_the_lists_types(campaign):
    before = events(campaign)
    result = campaign("coreheim", "hire", R, "Ogg", "--type", "wizard")
    assert (result.exit_code, result.output) == (2, (
        "Error: wizard is not a type Reiklanders can hire (captain, sergeant, youngblood, militia, marksman, "
        "state-troop, greatsword, henchman, animal, monster, ogre-bodyguard, halfling-scout, dwarf-slayer, "
        "elven-ranger, pit-fighter, warlock, freelancer, skryre-engineer)\n"
    ))
    assert events(campaign) == before


def test_more_of_a_type_than_the_list_allows_is_a_rule_refusal(campaign):
    assert campaign("coreheim", "hire", R, "Shots", "--type", "marksman", "--size", "5").exit_code == 0
    before = events(campaign)
    result = campaign("coreheim", "hire", R, "More", "--type", "marksman", "--size", "3")
    assert (result.exit_code, result.output) == (1, "Error: Reiklanders may have at most 7 Marksmen; it has 5, so not 3 more\n")
    assert events(campaign) == before


def test_the_roster_sheet_prints_the_profile_in_the_lists_order(campaign):
    """v10 prints `M A W T WS BS I Ld` (shared/rules/coreheim.md section 0); so does the sheet."""
    assert campaign("coreheim", "hire", R, "Kurt", "--type", "captain").exit_code == 0
    sheet = campaign("roster", R, "--format", "md").output.splitlines()
    assert "| Kurt | leader<br>Type: Captain<br>Race: Human | 20 | 0 | 60 | M 7 A 1 W 1 T 0 WS 8 BS 8 I 5 Ld 4 |  |  |  |" in sheet


def test_an_ogre_bodyguard_s_missing_ballistic_skill_is_shown_as_a_dash(campaign):
    # The price chart prints the Ogre Bodyguard's BS as "-": his roster line showed no BS at all
    assert campaign("coreheim", "hire", R, "Grimm", "--type", "ogre-bodyguard").exit_code == 0
    assert roster(campaign)[0] == "  Grimm — hired sword  XP 0  M8 A2 W3 T-1 WS6 BS - I7 Ld6"


def test_race_and_characteristics_are_taken_in_any_case_and_an_unknown_race_is_bad_input(campaign):
    hired = campaign("coreheim", "hire", R, "Kurt", "--type", "Militia", "--race", "Human", "--stat", "ws=4")
    assert hired.exit_code == 0, hired.output
    assert roster(campaign)[0] == "  Kurt — henchman  XP 0  M7 A1 W1 T0 WS4 BS10 I7 Ld8"  # the list's militia, WS as given
    before = events(campaign)
    refused = campaign("coreheim", "hire", R, "Jan", "--type", "henchman", "--race", "Elfish", "--cost", "20",
                       *[arg for stat in ("M=4", "A=1", "W=1", "T=0", "WS=3", "BS=3", "I=3", "Ld=7") for arg in ("--stat", stat)])
    assert (refused.exit_code, refused.output) == (2, (
        "Error: no race 'Elfish' with maximum characteristics (races: beastman, dwarf, elf, ghoul, goblin, "
        "halfling, human, ogre, possessed, skaven, skeleton, vampire)\n"))
    assert events(campaign) == before


def test_the_roster_sheet_names_a_type_the_list_does_not_print_as_it_names_the_others(campaign):
    """A henchman group hired as a generic henchman read 'Type: henchman', in lower case, where a hero's
    type reads as the list names it ('Type: Captain')."""
    hired = campaign("coreheim", "hire", R, "Dogs", "--type", "henchman", "--race", "human", "--cost", "15",
                     *(arg for stat in ("M=6", "A=1", "W=1", "T=0", "WS=9", "BS=12", "I=8", "Ld=12") for arg in ("--stat", stat)))
    assert hired.exit_code == 0, hired.output
    assert "| Dogs | henchman<br>Type: Henchman<br>Race: Human | 0 | 0 | 15 | M 6 A 1 W 1 T 0 WS 9 BS 12 I 8 Ld 12 |  |  |  |" in (
        campaign("roster", R, "--format", "md").output.splitlines())
    assert "      type: Henchman" in campaign("roster", R).output.splitlines()


def test_more_heroes_of_a_type_than_the_list_allows_are_counted_in_the_plural(campaign):
    """The Mercenaries list allows "0-2 Youngbloods": a third is refused as "at most 2 Youngbloods" (it said "at
    most 2 Youngblood"; one of a kind reads "at most 1 Captain")."""
    for name in ("Hans", "Karl"):
        assert campaign("coreheim", "hire", R, name, "--type", "youngblood").exit_code == 0
    assert campaign("coreheim", "hire", R, "Kurt", "--type", "captain").exit_code == 0
    before = events(campaign)
    result = campaign("coreheim", "hire", R, "Fritz", "--type", "youngblood")
    assert (result.exit_code, result.output) == (1, "Error: Reiklanders may have at most 2 Youngbloods; it has 2\n")
    result = campaign("coreheim", "hire", R, "Ulrich", "--type", "captain")
    assert (result.exit_code, result.output) == (1, "Error: Reiklanders may have at most 1 Captain; it has 1\n")
    assert events(campaign) == before
