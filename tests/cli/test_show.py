"""campaign show / replay / list: every battle that stands, though the state keeps only the latest
battle of each warband (the rest are read from the read models, or else the history)."""

import json
import sqlite3


def fought_three_and_voided_one(c):
    for winner in ("Reikland Rats", "Clan Skrittle", "Clan Skrittle"):  # T6, T7, T8: battles 1-3
        c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", winner)
    c("void", "T8", "--reason", "wrong table")  # T9
    c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--scenario", "Skirmish")  # T10
    return c


def test_show_lists_every_battle_that_stands_in_order(two_warbands):
    c = fought_three_and_voided_one(two_warbands)
    shown_lines = c("show").output.splitlines()
    assert shown_lines[2:] == [
        "  Reikland Rats (Ann): 1 fighter, treasury 440, 3 games, 1 win",
        "  Clan Skrittle (Bob): 1 fighter, treasury 210, 3 games, 1 win",
        "  battle 1: Reikland Rats vs Clan Skrittle — Reikland Rats",
        "  battle 2: Reikland Rats vs Clan Skrittle — Clan Skrittle",
        "  battle 3: Reikland Rats vs Clan Skrittle — draw",
        'options: decks="ledger"',
    ]
    shown = json.loads(c("show", "--json").output)
    assert [(b["battle"], b["tx"], b["winner"], b["scenario"]) for b in shown["battles"]] == [
        (1, 6, "reikland-rats", ""), (2, 7, "clan-skrittle", ""), (3, 10, None, "Skirmish")]
    assert shown["battles"][0]["participants"] == ["reikland-rats", "clan-skrittle"]
    assert "3 battles" in c("list").output
    assert c("replay").output.splitlines() == shown_lines[:-1]  # the full fold, battles read from the history


def test_show_of_a_store_whose_battle_records_were_tampered_with_is_an_error(two_warbands):
    c = fought_three_and_voided_one(two_warbands)
    first_battle = "rowid = (SELECT min(rowid) FROM stored_events WHERE topic = 'battle.recorded')"
    with sqlite3.connect(c.store.removeprefix("sqlite:///")) as db:  # battle 1 no longer found by its tag
        db.execute(f"UPDATE stored_events SET topic = 'note.recorded' WHERE {first_battle}")
    assert c("show").output == ("Error: the store holds 2 battles where its events count 3; the store was damaged "
                                "or edited, and `campaign verify` says where\n")
    with sqlite3.connect(c.store.removeprefix("sqlite:///")) as db:
        db.execute("UPDATE stored_events SET topic = 'battle.recorded' WHERE topic = 'note.recorded'")
        db.execute("UPDATE stored_events SET state = replace(state, 'Skirmish', 'Ambush!!')")  # T10's battle
    assert c("show").output == ("Error: position 23: the stored event does not match its hash; the store was "
                                "damaged or edited, and `campaign verify` says where\n")


def test_show_and_replay_count_one_transaction_in_the_singular(campaign):
    """A new campaign is one transaction: show and replay said "4 events in 1 transactions"."""
    assert campaign("new", "League").exit_code == 0
    assert campaign("show").output.splitlines()[1].startswith("4 events in 1 transaction; head ")
    assert campaign("replay", "--until", "4").output.splitlines()[1].startswith("4 events in 1 transaction; head ")
