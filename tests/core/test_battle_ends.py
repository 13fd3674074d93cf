"""Where each battle ends (for `replay --battle K` and the report): before the first transaction
of a later-numbered battle that stands, or at the last record; voided battles do not count."""

import uuid

import pytest

from commands.shared import AwardXP, EnlistWarband, RecordBattle, RecruitFighter
from ledger.campaigns import Ledger, battle_ends, end_of_battle
from ledger.errors import NotFound
from ledger.store import Store


def test_a_battle_ends_where_the_next_standing_battle_begins(clock):
    ledger = Ledger(Store("memory://"), clock=clock)
    cid = uuid.UUID(ledger.start("League", "freeform", {}, actor="Ann").state.campaign_id)

    def do(command) -> int:
        """The command's first position."""
        return ledger.execute(cid, command, actor="Ann").records[0].position

    do(EnlistWarband(name="Rats", player="Ann"))
    do(EnlistWarband(name="Skaven", player="Bob"))
    do(RecruitFighter(warband="Rats", name="Gunnar", role="leader"))
    do(RecordBattle(participants=["rats", "skaven"], winner="rats"))  # battle 1
    do(AwardXP(fighter="gunnar", amount=1, reason="won"))
    voided_start = do(RecordBattle(participants=["rats", "skaven"]))  # battle 2, voided below
    voided_tx = ledger.history(cid)[voided_start - 1].tx
    ledger.void(cid, f"T{voided_tx}", reason="recorded twice", actor="Ann")
    again = do(RecordBattle(participants=["rats", "skaven"], winner="skaven"))  # battle 2 again
    do(AwardXP(fighter="gunnar", amount=1, reason="survived"))
    records = ledger.history(cid)

    assert battle_ends(records) == {1: again - 1, 2: records[-1].position}
    assert end_of_battle(records, 1) == again - 1
    with pytest.raises(NotFound, match=r"no battle 3 \(battles: 1, 2\)"):
        end_of_battle(records, 3)
    assert battle_ends(records[: voided_start - 1]) == {1: voided_start - 1}

