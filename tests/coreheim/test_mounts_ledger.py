"""Mounts are members of the warband (rules 1.10, "General Rules for All": animals, mounts and monsters
"count towards the maximum number of warriors in your warband, thus increasing warband rating"; 2.4:
5 per member), from version 4. A mount is its rider's item; a warrior rides one, a henchman group one
for each member. The Rats: Gunnar, Hans and 3 Marksmen, 5 members, rating 5 x 5 + 20 (Gunnar's XP)."""

from __future__ import annotations

import pytest

from commands.coreheim import model
from commands.coreheim.commands import Buy, Hire, RareSearch, Reinforce, Search
from commands.shared import ChangeTreasury, GainItem
from ledger import events as ev
from ledger.state import decode_state, encode_state

from .conftest import rats_and_skaven_on

RATS = "reikland-rats"


def ride(table, fighter: str, item: str = "horse") -> None:
    table.do(GainItem(warband="Reikland Rats", item=item, fighter=fighter))


@pytest.mark.parametrize(
    "riders, size, rating",
    [
        ([], 5, 45),
        (["Hans"], 6, 50),  # a horse is a member: 5 more
        (["Marksmen"], 8, 60),  # one for each of the 3 Marksmen
        (["Hans", "Hans"], 6, 50),  # a warrior rides one mount; a second is only carried
    ],
)
def test_each_mount_ridden_counts_as_a_member(rats_and_skaven, riders, size, rating):
    for rider in riders:
        ride(rats_and_skaven, rider)
    assert model.warband_size(rats_and_skaven.state, rats_and_skaven.state.warband("Reikland Rats")) == size
    assert model.rating(rats_and_skaven.state, RATS) == rating


def test_a_mount_in_the_stash_is_nobody_s_and_counts_for_nothing(rats_and_skaven):
    rats_and_skaven.do(GainItem(warband="Reikland Rats", item="horse"))
    assert model.rating(rats_and_skaven.state, RATS) == 45


def test_in_casual_mode_a_mount_rates_as_an_animal(house_rules):
    table = house_rules({"mode": "casual"})
    table.rats()
    ride(table, "Hans")
    assert model.rating(table.state, RATS) == 2 * 10 + 3 * 5 + 5


def test_on_version_3_a_mount_counted_for_nothing():
    table = rats_and_skaven_on("3")
    ride(table, "Marksmen")
    assert model.rating(table.state, RATS) == 45
    assert model.warband_size(table.state, table.state.warband("Reikland Rats")) == 5


@pytest.mark.parametrize("spelled", ["horse", " Horse ", "HORSE"])
def test_a_mount_is_ridden_however_its_item_is_spelled(rats_and_skaven, spelled):
    ride(rats_and_skaven, "Hans", spelled)
    assert model.rating(rats_and_skaven.state, RATS) == 50


def test_one_warband_rated_under_another_version_or_house_rules_is_rated_by_those(rats_and_skaven):
    """What a rating reads of the campaign (its version, its house rules) is worked out once for
    each and kept: the same warband, its campaign then on version 3 or in casual mode, is rated as
    that version and mode rate it."""
    ride(rats_and_skaven, "Marksmen")
    state = decode_state(encode_state(rats_and_skaven.state))
    assert model.rating(state, RATS) == 60
    state.ruleset_version = "3"
    assert model.rating(state, RATS) == 45  # no mount counted
    state.ruleset_version, state.options = rats_and_skaven.state.ruleset_version, {**state.options, "mode": "casual"}
    assert model.rating(state, RATS) == 2 * 10 + 3 * 5 + 3 * 5  # heroes 10, henchmen and mounts 5
    state.options = rats_and_skaven.state.options
    assert model.rating(state, RATS) == 60


def fill_to(table, members: int) -> None:
    """Hire groups of henchmen (free) until the Rats have `members` of their 15."""
    size = model.warband_size(table.state, table.state.warband("Reikland Rats"))
    for group, start in enumerate(range(size, members, 5), start=1):
        table.do(Hire(warband="Reikland Rats", name=f"Pikes {group}", type="henchman", cost=25, race="human",
                      group_size=min(5, members - start), free=True,
                      stats={"M": 4, "A": 1, "W": 1, "T": 0, "WS": 9, "BS": 9, "I": 9, "Ld": 8}))


def horses_found_by(table, *heroes: str) -> None:
    """After a battle, at the market: each hero found a horse (Rare 8+, a 12 rolled)."""
    table.battle()
    table.through("search")
    table.do(Search(warband="Reikland Rats", searches=[RareSearch(hero=hero, item="horse") for hero in heroes]),
             [6, 6] * len(heroes))


@pytest.mark.parametrize(
    "members, fighter, refusal",
    [
        (14, "Hans", None),  # the 15th member
        (15, "Hans", "Reikland Rats has 15 members; 1 mount for Hans would pass its maximum of 15 (mounts count towards it, 1.10)"),
        (13, "Marksmen", "Reikland Rats has 13 members; 3 mounts for Marksmen would pass its maximum of 15 "
                         "(mounts count towards it, 1.10)"),
    ],
)
def test_a_mount_bought_for_a_warrior_needs_room_in_the_warband(rats_and_skaven, members, fighter, refusal):
    fill_to(rats_and_skaven, members)
    horses_found_by(rats_and_skaven, "Gunnar")
    buy = Buy(warband="Reikland Rats", item="horse", fighter=fighter)
    if refusal:
        assert rats_and_skaven.refusal(buy) == refusal
    else:
        rats_and_skaven.do(buy)
        assert model.warband_size(rats_and_skaven.state, rats_and_skaven.state.warband("Reikland Rats")) == 15


def test_a_second_mount_or_one_for_the_stash_takes_no_room(rats_and_skaven):
    ride(rats_and_skaven, "Hans")
    fill_to(rats_and_skaven, 15)  # Hans's horse among them: full
    horses_found_by(rats_and_skaven, "Gunnar", "Hans")
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="horse", fighter="Hans"))
    rats_and_skaven.do(Buy(warband="Reikland Rats", item="horse"))
    assert model.warband_size(rats_and_skaven.state, rats_and_skaven.state.warband("Reikland Rats")) == 15


def test_recruits_to_a_mounted_group_bring_their_mounts_into_the_warband(rats_and_skaven):
    # Given mounted Marksmen (3 + 3 horses) and Pikes: 13 members of 15
    ride(rats_and_skaven, "Marksmen")
    fill_to(rats_and_skaven, 13)
    rats_and_skaven.do(ChangeTreasury(warband="Reikland Rats", delta=500, reason="test setup"))
    rats_and_skaven.battle()
    rats_and_skaven.through("reinforce")
    # When one recruit joins the Marksmen, he and his horse make 15; two would make 17
    two = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "2", "pikes-1:recruits": "0"})
    assert rats_and_skaven.refusal(two) == (  # before the D6: none is given
        "Reikland Rats has 13 members; 2 recruits and the 2 mounts they ride would pass its maximum of 15 "
        "(mounts count towards it, 1.10)"
    )
    one = Reinforce(warband="Reikland Rats", answers={"reinforce": "yes", "marksmen:recruits": "1", "pikes-1:recruits": "0"})
    assert ev.TreasuryChanged(warband=RATS, delta=-35, reason="the gear of 1 recruit for Marksmen: horse (35 gc each)") in (
        rats_and_skaven.do(one, [2]))
    assert model.warband_size(rats_and_skaven.state, rats_and_skaven.state.warband("Reikland Rats")) == 15
