"""Answer keys as people write them: a documented key's placeholders, its case and spacing, and a
warrior placeholder that must name a warrior of the campaign."""

from __future__ import annotations

import pytest

from ledger.decide import Command, documents_key, loose_key


class Advance(Command, frozen=True, kw_only=True, tag="test.advance"):
    answer_keys = ("FIGHTER:XP:stat", "keep-N")


@pytest.mark.parametrize(("key", "documented"), [
    ("gunnar:6:stat", True),
    ("Gunnar:6:Stat", True),  # the case the players write: the rules' key is lower case
    ("gunnar:6", False),
    ("keep-2", True),
    ("nobody:6:stat", False),  # no warrior of that name
])
def test_a_documented_key_whatever_its_case_naming_a_warrior_of_the_campaign(key, documented):
    assert documents_key(Advance, key, frozenset({"gunnar", "hans"})) is documented


def test_a_key_is_compared_part_by_part_as_a_slug():
    assert loose_key("recovered:Arrer Boyz") == "recovered:arrer-boyz"
    assert loose_key("Gunnar.Skab.1.Mel-Rgd") == "gunnar.skab.1.mel-rgd"
