"""campaign replay: the campaign as it stood earlier, and --check against today's rules."""

import json

from commands.shared import ChangeTreasury
from ledger import events as ev
from ledger import rulesets


def played(c):
    c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Reikland Rats")  # T6
    c("treasury", "Reikland Rats", "20", "--reason", "loot")  # T7
    c("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Clan Skrittle")  # T8
    c("treasury", "Clan Skrittle", "15", "--reason", "loot")  # T9
    return c


def test_replay_until_a_position(two_warbands):
    c = played(two_warbands)
    state = json.loads(c("replay", "--until", "8", "--json").output)
    # Positions 1-4 open the campaign (T1), 5-6 enlist the rats, 7-8 the skaven, 9-11 recruit Gunnar.
    assert (state["events"], [w["name"] for w in state["warbands"]]) == (8, ["Reikland Rats", "Clan Skrittle"])
    assert [w["fighters"] for w in state["warbands"]] == [0, 0]


def test_replay_until_a_position_inside_a_transaction_is_refused_naming_its_bounds(two_warbands):
    """A transaction is stored whole: `--until 9` showed Gunnar recruited and the treasury not yet
    paid for him, a campaign that never stood so. Refused for every view of it, naming the positions
    on either side."""
    c = played(two_warbands)
    refused = "Error: position 9 is inside T4 (positions 9 to 11), which is stored whole: the campaign never " \
              "stood between its events; give --until 8 (before T4) or --until 11 (after it)\n"
    for view in ([], ["--json"], ["--roster", "Reikland Rats"]):
        result = c("replay", "--until", "9", *view)
        assert (result.exit_code, result.output) == (2, refused)
    started = c("replay", "--until", "2")
    assert (started.exit_code, started.output) == (2, (
        "Error: position 2 is inside T1 (positions 1 to 4), which is stored whole: the campaign never stood between "
        "its events; give --until 4 (after it)\n"))
    assert c("replay", "--until", "11", "--roster", "Reikland Rats").output == (
        "Reikland Rats (Ann)  treasury 440  games 0  wins 0\n"
        "  Gunnar — leader  XP 0  WS4\n"
    )


def test_replay_to_a_battle_includes_what_followed_it(two_warbands):
    c = played(two_warbands)
    state = json.loads(c("replay", "--battle", "1", "--json").output)
    assert [b["battle"] for b in state["battles"]] == [1]
    assert [w["treasury"] for w in state["warbands"]] == [460, 210]  # 440 + 20 loot; battle 2's loot not yet
    text = c("replay", "--battle", "2").output.splitlines()
    assert text[2:] == [
        "  Reikland Rats (Ann): 1 fighter, treasury 460, 2 games, 1 win",
        "  Clan Skrittle (Bob): 1 fighter, treasury 225, 2 games, 1 win",
        "  battle 1: Reikland Rats vs Clan Skrittle — Reikland Rats",
        "  battle 2: Reikland Rats vs Clan Skrittle — Clan Skrittle",
    ]


def test_replay_shows_a_roster_as_it_stood(two_warbands):
    c = played(two_warbands)
    assert c("replay", "--battle", "1", "--roster", "Reikland Rats").output == (
        "Reikland Rats (Ann)  treasury 460  games 1  wins 1\n"
        "  Gunnar — leader  XP 0  WS4\n"
    )
    assert c("replay", "--until", "8", "--roster", "Reikland Rats").output == (
        "Reikland Rats (Ann)  treasury 500  games 0  wins 0\n"
    )


def test_replay_refusals(two_warbands):
    assert two_warbands("replay", "--battle", "1").output == "Error: no battle 1 (battles: none yet)\n"
    assert two_warbands("replay", "--until", "0").output == "Error: --until takes a position from 1\n"
    assert two_warbands("replay", "--until", "3", "--battle", "1").output == "Error: give --until or --battle, not both\n"


def test_check_passes_then_finds_a_rule_that_changed(two_warbands, monkeypatch):
    c = played(two_warbands)
    assert c("replay", "--check").output == "Re-decided 8 transactions from their commands and dice: all match.\n"

    def doubled(cmd, ctx):  # today's rules now pay twice as much
        ctx.emit(ev.TreasuryChanged(warband=ctx.state.warband(cmd.warband).id, delta=cmd.delta * 2, reason=cmd.reason))

    monkeypatch.setitem(rulesets.get("freeform").handlers, ChangeTreasury, doubled)
    result = c("replay", "--check")
    assert result.exit_code == 1
    assert result.output == (
        "T7: event 18 would now be “Reikland Rats treasury +40 (loot)”, not “Reikland Rats treasury +20 (loot)”\n"
        "T9: event 22 would now be “Clan Skrittle treasury +30 (loot)”, not “Clan Skrittle treasury +15 (loot)”\n"
        "Re-decided 8 transactions from their commands and dice: 2 differ.\n"
    )


def post_game_of_battle_1_after_battle_2(campaign):
    """H beat W in battle 1; X and Y fought battle 2 before H's post-game of battle 1 was recorded."""
    for args in (["new", "League", "--ruleset", "retinue"],
                 *[step for w in "HWXY" for step in (["warband", "add", w, "--player", f"p{w}"],
                                                     ["retinue", "recruit", w, f"{w}1", "--ancestry", "Human"])],
                 ["battle", "record", "--warband", "H", "--warband", "W", "--winner", "H"],
                 ["battle", "record", "--warband", "X", "--warband", "Y", "--winner", "X"],
                 ["retinue", "battle-pass", "H"], ["retinue", "scenario-pass", "H"]):
        assert campaign(*args).exit_code == 0, args
    return campaign


def test_a_post_game_recorded_after_the_next_battle_began_is_named_not_shown(campaign):
    """A league records its next game before every post-game is done: the campaign once battle 1 is
    what was recorded before battle 2, and it names what of battle 1's post-game came after."""
    post_game_of_battle_1_after_battle_2(campaign)
    once_battle_1 = campaign("replay", "--battle", "1", "--roster", "H")
    assert (once_battle_1.exit_code, once_battle_1.output.splitlines()[1], once_battle_1.output.splitlines()[-1]) == (
        0, "  H1 — fighter  XP 0  Wi2 Sa2 Mt3 Sk3 W2 M3 Df3 CC3 RC3",
        "Not in it, recorded once a later battle had begun: H's post-game of battle 1 (Battle pass, Scenario pass)")
    assert "Not in it" not in campaign("replay", "--battle", "2").output
    assert json.loads(campaign("replay", "--battle", "1", "--json").output)["events"] == 22
    beyond = campaign("replay", "--until", "999")
    assert (beyond.exit_code, beyond.output) == (2, "Error: no position 999: the campaign has 29 events\n")


def test_the_log_of_a_battle_names_its_post_game_recorded_after_the_next_battle_began(campaign):
    """`log --battle 1` says what `replay --battle 1` and the report say of it: battle 1's post-game,
    recorded once battle 2 had begun, is in battle 2's part of the log, and named under battle 1's."""
    post_game_of_battle_1_after_battle_2(campaign)
    head = json.loads(campaign("show", "--json").output)["head"]
    named = "Not in it, recorded once a later battle had begun: H's post-game of battle 1 (Battle pass, Scenario pass)"
    assert named in campaign("replay", "--battle", "1").output.splitlines()
    battle_1 = campaign("log", "--battle", "1")
    after_1 = json.loads(campaign("replay", "--battle", "1", "--json").output)["head"]
    assert (battle_1.exit_code, battle_1.output.splitlines()) == (
        0, ["   22 T10   arbiter    battle 1: H vs W, won by H", f"      Head after battle 1: {after_1}", named,
            f"Head {head}"])
    assert campaign("log", "--battle", "1", "--warband", "H", "--tail", "1").output.splitlines() == [
        "   22 T10   arbiter    battle 1: H vs W, won by H", f"      Head after battle 1: {after_1}", named, f"Head {head}"]
    assert campaign("log", "--battle", "1", "--warband", "W").output.splitlines() == [  # H's, not W's
        "   22 T10   arbiter    battle 1: H vs W, won by H", f"      Head after battle 1: {after_1}", f"Head {head}"]
    battle_2 = campaign("log", "--battle", "2").output.splitlines()
    assert (battle_2[-2:], [line for line in battle_2 if line.startswith("Not in it")]) == (
        ["   29 T13   arbiter    H: post-game step Scenario pass done for battle 1", f"Head {head}"], [])
    # Like replay's, its JSON is the rows alone.
    assert [row["position"] for row in json.loads(campaign("log", "--battle", "1", "--json").output)] == [22]
