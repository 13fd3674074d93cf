"""Every command's refusals exit with the documented code (README, "exit" table; issue 9, item 14):
2 for bad input (an unknown name, a roll already voided, missing dice or answers, a bad type or
value), 1 for a refusal by the rules, 3 for a chain that does not verify. Each refusal prints one
`Error: …` line and writes nothing. The table must name every command of the CLI."""

from __future__ import annotations

import json

import click
import pytest

from ledger.cli import main
from ledger.testing import CampaignRunner

FREE, CORE, TRENCH = "Demo: Freeform Skirmish", "Demo: Coreheim Border Feud", "Demo: Trench Crusade"
SPEED, WARBANDS, RETINUE = "Demo: Speedheim", "Demo: Warhammer Warbands", "Demo: Retinue"
RATS, PILGRIMS, SELLSWORDS = "Reikland Rats", "Pilgrims of Saint Gaius", "Sellswords"

BAD_INPUT, RULES, CHAIN = 2, 1, 3

# (command path, campaign, arguments after the path, exit code, a fragment of the error line)
CASES = [
    # --- the core commands, on the freeform demo --------------------------------------------------------
    ("admin init-roles", None, ["--player", "bob"], BAD_INPUT, "is not a PostgreSQL store"),
    ("answer", FREE, ["keep=1"], BAD_INPUT, "no decision is pending"),
    ("backup", None, ["no-such-folder/copy.db"], BAD_INPUT, "no-such-folder"),
    ("battle record", FREE, ["--warband", RATS, "--warband", "Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("battle record", FREE, ["--warband", RATS, "--warband", "Clan Skrittle", "--ooa", "Nobody"], BAD_INPUT, "Nobody"),
    ("correct", FREE, [RATS, "Nobody", "--reason", "x", "--xp", "1"], BAD_INPUT, "Nobody"),
    ("demo", None, ["--ruleset", "chess"], BAD_INPUT, "no sample campaign for 'chess'"),
    ("draw", FREE, ["tarot", "--for", "x"], BAD_INPUT, "no deck 'tarot'"),
    ("export", FREE, ["--format", "pdf"], BAD_INPUT, "'pdf' is not one of"),
    ("fighter add", FREE, ["Orcs", "Grom", "--role", "leader"], BAD_INPUT, "no warband 'Orcs'"),
    ("fighter rename", FREE, ["Gunnar", "marksmen"], BAD_INPUT, "Reikland Rats already has a fighter called marksmen"),
    ("fighter rename", FREE, ["Gunnar", "Gunnar"], BAD_INPUT, "already called Gunnar"),
    ("fighter show", FREE, ["Nobody"], BAD_INPUT, "Nobody"),
    ("history", FREE, ["Nobody"], BAD_INPUT, "Nobody"),
    ("import", None, ["no-such-trail.jsonl"], BAD_INPUT, "No such file or directory"),
    ("item gain", FREE, ["Orcs", "sword"], BAD_INPUT, "no warband 'Orcs'"),
    ("item lose", FREE, [RATS, "crown"], RULES, "crown"),
    ("list", None, ["--json", "--bogus"], BAD_INPUT, "No such option"),
    ("log", FREE, ["--tail", "0"], BAD_INPUT, "--tail takes a number of rows from 1"),
    ("log", FREE, ["--battle", "99"], BAD_INPUT, "no battle 99"),
    ("new", None, [FREE], BAD_INPUT, "already exists"),
    ("new", None, ["Spring", "--ruleset", "chess"], BAD_INPUT, "no ruleset 'chess'"),
    ("note", FREE, ["a ruling", "--warband", "Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("post-game", FREE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("post-game", CORE, [RATS, "--step", "loot"], BAD_INPUT, "no step 'loot'"),
    ("rebuild", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("replay", FREE, ["--until", "0"], BAD_INPUT, "--until takes a position from 1"),
    ("report", FREE, ["--battle", "99"], BAD_INPUT, "no battle 99"),
    ("reroll", FREE, ["T2", "--reason", "x"], BAD_INPUT, "is not a roll"),
    ("reroll", FREE, ["R99", "--reason", "x"], BAD_INPUT, "no roll R99"),
    ("roll", FREE, ["2Q6", "--for", "x", "--dice", "1"], BAD_INPUT, "not a dice expression"),
    ("roll", FREE, ["2D6", "--for", "x", "--dice", "3"], BAD_INPUT, "1 more die"),
    ("roster", FREE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("rules upgrade", FREE, [], RULES, "nothing to upgrade"),
    ("rulesets", None, ["--bogus"], BAD_INPUT, "No such option"),
    ("pending", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("seed export", "Nowhere", ["-o", "seed.json"], BAD_INPUT, "no campaign 'Nowhere'"),
    ("seed import", None, ["no-such-file.json"], BAD_INPUT, "No such file or directory"),
    ("seed new-epoch", FREE, [], BAD_INPUT, "Missing option '--reason'"),
    ("seed reveal", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("seed where", None, ["--bogus"], BAD_INPUT, "No such option"),
    ("show", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("treasury", FREE, ["Orcs", "5", "--reason", "x"], BAD_INPUT, "no warband 'Orcs'"),
    ("treasury", FREE, [RATS, "five", "--reason", "x"], BAD_INPUT, "'five' is not a valid integer"),
    ("use", None, ["Nowhere"], BAD_INPUT, "no campaign 'Nowhere'"),
    ("verify", FREE, ["--head", "0123456789abcdef"], CHAIN, "0123456789abcdef"),
    ("void", FREE, ["T1", "--reason", "x"], RULES, "belongs to the ledger itself"),
    ("void", FREE, ["T999", "--reason", "x"], BAD_INPUT, "no transaction T999"),
    ("warband add", FREE, [RATS, "--player", "Cid"], BAD_INPUT, "there is already a warband called Reikland Rats"),
    ("fighter add", FREE, [RATS, "Gunnar", "--role", "hero"], BAD_INPUT, "already has a fighter called Gunnar"),
    ("warband list", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("warband show", FREE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("xp award", FREE, ["Nobody", "1", "--reason", "x"], BAD_INPUT, "Nobody"),
    ("xp spend", FREE, ["Gunnar", "999", "--on", "WS +1"], RULES, "XP"),
    # --- coreheim ------------------------------------------------------------------------------------------
    ("coreheim advance", CORE, ["Orcs", "Gunnar"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim buy", CORE, ["Orcs", "sword"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim experience", CORE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim explore", CORE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim explore", CORE, [RATS, "--dice", "1,2,3"], RULES, "Reikland Rats"),
    ("coreheim hire", CORE, ["Orcs", "Grom", "--type", "captain"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim injuries", CORE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim ratings", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("coreheim items", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("coreheim reinforce", CORE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim search", CORE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim sell", CORE, ["Orcs", "sword"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim sell-shards", CORE, ["Orcs", "1"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim underdog", CORE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("coreheim upkeep", CORE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    # --- trench-crusade ----------------------------------------------------------------------------------
    ("trench-crusade advance", TRENCH, ["Orcs", "--roll", "Gaius=ranged,wildcard"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade battle", TRENCH, ["--warband", PILGRIMS, "--warband", "Orcs", "--scenario", "x"], BAD_INPUT,
     "no warband 'Orcs'"),
    ("trench-crusade buy", TRENCH, ["Orcs", "Trench Shield", "--price", "15"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade experience", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade exploration", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade give", TRENCH, ["Orcs", "Gaius", "Trench Shield"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade promotions", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade promotions", TRENCH, [PILGRIMS], RULES, PILGRIMS),
    ("trench-crusade quartermaster", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade ransom", TRENCH, ["Orcs", "Gaius", "--unpaid"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade recruit", TRENCH, ["Orcs", "Dora", "--model", "Trench Pilgrim"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade reinforcements", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade retire", TRENCH, ["Orcs", "Gaius"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade roster", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade sell", TRENCH, ["Orcs", "Trench Shield"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade status", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade stow", TRENCH, ["Orcs", "Gaius", "Trench Shield"], BAD_INPUT, "no warband 'Orcs'"),
    ("trench-crusade trauma", TRENCH, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    # --- speedheim ------------------------------------------------------------------------------------------
    ("speedheim battle", SPEED, ["--warband", SELLSWORDS, "--warband", "Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim buy-attempt", SPEED, ["Orcs", "Gunnar"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim buy-hero-slot", SPEED, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim improvement", SPEED, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim incapacitate", SPEED, ["Orcs", "Gunnar", "Skab"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim income", SPEED, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim learn", SPEED, ["Orcs", "Gunnar", "Cleave"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim modifiers", SPEED, ["Orcs", "Gunnar", "Mel=1"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim promotions", SPEED, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim recruit", SPEED, ["Orcs", "Dora", "--role", "hero"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim scars", SPEED, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim spend-gold", SPEED, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("speedheim status", SPEED, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    # --- warbands ---------------------------------------------------------------------------------------------
    ("warbands advance", WARBANDS, ["Orcs", "Grubnash"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands battle", WARBANDS, ["--warband", "Reiklanders", "--warband", "Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands enlist", WARBANDS, ["Reiklanders", "--player", "Cid", "--type", "Empire"], BAD_INPUT,
     "there is already a warband called Reiklanders"),
    ("warbands experience", WARBANDS, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands injuries", WARBANDS, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands ratings", "Nowhere", [], BAD_INPUT, "no campaign 'Nowhere'"),
    ("warbands recovery", WARBANDS, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands recruit", WARBANDS, ["Orcs", "Spears", "--points", "6"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands status", WARBANDS, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands survival", WARBANDS, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("warbands upgrade", WARBANDS, ["Reiklanders", "Nobody"], BAD_INPUT, "Nobody"),
    ("warbands veteran-recruits", WARBANDS, ["Orcs", "Boyz", "--models", "1"], BAD_INPUT, "no warband 'Orcs'"),
    # --- retinue ----------------------------------------------------------------------------------------------
    ("retinue battle-pass", RETINUE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("retinue buy", RETINUE, ["Orcs", "Kestrel", "x"], BAD_INPUT, "no warband 'Orcs'"),
    ("retinue casualty", RETINUE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("retinue data", None, ["no-such-file.json"], BAD_INPUT, "no-such-file.json"),
    ("retinue doom", RETINUE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("retinue post-game-pass", RETINUE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("retinue recruit", RETINUE, ["Orcs", "Dora", "--ancestry", "Human"], BAD_INPUT, "no warband 'Orcs'"),
    ("retinue scenario-pass", RETINUE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
    ("retinue spending-done", RETINUE, ["Orcs"], BAD_INPUT, "no warband 'Orcs'"),
]


def leaf_commands() -> set[str]:
    ctx = click.Context(main)
    found = set()

    def walk(command: click.Command, path: list[str]) -> None:
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), [*path, name])
        else:
            found.add(" ".join(path))

    walk(main, [])
    return found


def test_the_table_names_every_command():
    assert leaf_commands() - {path for path, *_ in CASES} == set()


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    store = "sqlite:///" + str(tmp_path_factory.mktemp("codes") / "campaign.db")
    assert CampaignRunner(store)("demo").exit_code == 0
    return store


@pytest.mark.parametrize(("path", "campaign", "args", "code", "fragment"), CASES,
                         ids=[f"{c[0]} {' '.join(c[2])}" for c in CASES])
def test_a_refusal_exits_with_its_code_and_writes_nothing(demo_store, tmp_path, monkeypatch, path, campaign, args, code,
                                                         fragment):
    monkeypatch.chdir(tmp_path)  # a refused import or export must leave no file behind either
    runner = CampaignRunner(demo_store)
    before = json.loads(runner("list", "--json").output)
    chosen = ["--campaign", campaign] if campaign else []
    result = runner(*chosen, *path.split(), *args)
    lines = result.output.splitlines()
    assert result.exit_code == code, result.output
    assert any(line.startswith("Error: ") and fragment in line for line in lines), result.output
    assert json.loads(runner("list", "--json").output) == before
    assert list(tmp_path.iterdir()) == []
