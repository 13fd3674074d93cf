"""`campaign retinue …`: each step of the post-game as its own non-interactive command, recruiting
with ancestry, archetype and domain, and buying advancements."""

from __future__ import annotations

import json
from pathlib import Path

import click

from commands.kit.cli import DiceChoice, Session, Shell, answered_by_options
from ledger.errors import BadInput

from .commands import BattlePass, Bonus, Buy, Casualties, Doom, PostGamePass, Recruit, ScenarioPass, SpendingDone
from .phase import PHASE, scenario_of
from .rules import ScenarioAward
from .tables import TABLES


def outcome_option(key: str) -> str | None:
    """The Casualty and Doom outcome (`casualty:FIGHTER`, `doom:FIGHTER`) is named with the command's
    own --outcome, which takes the fighter's id as well as its name; it has no --answer."""
    table, _, fighter = key.partition(":")
    return f"answer with --outcome {fighter}=CHOICE" if table in ("casualty", "doom") and fighter else None


def buy_option(key: str) -> str | None:
    """buy has no --answer: its own options answer its questions, a second or third attribute to
    reduce (`reduce:2`, … ) with one more --reduce."""
    if key.startswith("reduce:"):
        return "answer with one more --reduce CHOICE"
    return answered_by_options(spell="--spell", reduce="--reduce")(key)


def register_commands(group: click.Group, shell: Shell) -> None:
    """`campaign retinue …`: the Ruleset's `register_commands` hook."""
    pass_session, run, dice_options = shell.pass_session, shell.run, shell.dice_options
    parse_pairs, parse_int_pairs = shell.parse_pairs, shell.parse_int_pairs

    @group.command("recruit")
    @click.argument("warband")
    @click.argument("name")
    @click.option("--ancestry", required=True, help="The fighter's ancestry (its attribute baselines), e.g. Human.")
    @click.option("--archetype", default=None, help="Its Archetype, e.g. Warrior.")
    @click.option("--domain", default=None, help="Its Domain, e.g. Blood.")
    @click.option("--keyword", "keywords", multiple=True, help="Another keyword (repeatable), e.g. Caster.")
    @click.option("--stat", "stats", multiple=True, metavar="ATTRIBUTE=N", help="A value other than the baseline (repeatable).")
    @click.option("--leader", is_flag=True, help="The retinue's Leader.")
    @click.option("--cost", type=int, default=0, show_default=True, help="Paid from the treasury.")
    @click.option("--free", is_flag=True, help="Join without paying.")
    @pass_session
    def recruit(session: Session, warband: str, name: str, ancestry: str, archetype: str | None, domain: str | None,
                keywords: tuple[str, ...], stats: tuple[str, ...], leader: bool, cost: int, free: bool) -> None:
        """Recruit NAME into WARBAND; attributes not given are the ancestry's baselines."""
        run(session, Recruit(warband=warband, name=name, ancestry=ancestry, archetype=archetype, domain=domain,
                             keywords=list(keywords), stats=parse_int_pairs(stats, "--stat"), leader=leader, cost=cost,
                             paid=not free))


    @group.command("battle-pass")
    @click.argument("warband")
    @pass_session
    def battle_pass(session: Session, warband: str) -> None:
        """Battle pass (E3, E4): +1 for not going Out of Action, +1 per enemy put Out of Action by a
        direct action (`battle record --took-out`), +2 for the enemy Leader instead."""
        run(session, BattlePass(warband=warband))


    @group.command("scenario-pass")
    @click.argument("warband")
    @click.option("--award", "awards", multiple=True, metavar="FIGHTER=XP", help="XP the scenario gives a named fighter (repeatable).")
    @click.option("--for", "reason", default=None, help="What the scenario awards it for (default: the battle's scenario, else 'the scenario').")
    @pass_session
    def scenario_pass(session: Session, warband: str, awards: tuple[str, ...], reason: str | None) -> None:
        """Scenario pass (E6): XP to the fighters the scenario names; none is a pass with no awards."""
        _cid, state = session.state()
        why = reason or scenario_of(PHASE.latest_battle(state, state.warband(warband)))
        run(session, ScenarioPass(warband=warband, awards=[
            ScenarioAward(fighter=fighter, amount=amount, reason=why) for fighter, amount in parse_int_pairs(awards, "--award").items()
        ]))


    @group.command("casualty")
    @click.argument("warband")
    @click.option("--outcome", "outcomes", multiple=True, metavar="FIGHTER=OUTCOME",
                  help="The outcome named by the player (A3 by-name), e.g. Kestrel=Hardy (repeatable).")
    @dice_options
    @pass_session
    def casualty(session: Session, warband: str, outcomes: tuple[str, ...], dice: DiceChoice) -> None:
        """Casualty Table: a D6 for each fighter of WARBAND that went Out of Action."""
        run(session, Casualties(warband=warband, outcomes=parse_pairs(outcomes, "--outcome")), dice=dice,
            answered_by=outcome_option)


    @group.command("doom")
    @click.argument("warband")
    @click.option("--fighter", "fighters", multiple=True, help="A fighter who rolls on the Doom Table (repeatable).")
    @click.option("--outcome", "outcomes", multiple=True, metavar="FIGHTER=OUTCOME",
                  help="The outcome named by the player (A3 by-name), e.g. Kestrel=Miraculous (repeatable).")
    @dice_options
    @pass_session
    def doom(session: Session, warband: str, fighters: tuple[str, ...], outcomes: tuple[str, ...], dice: DiceChoice) -> None:
        """Doom Table: 2D6 for each fighter named (none: the step is done with no roll)."""
        run(session, Doom(warband=warband, fighters=list(fighters), outcomes=parse_pairs(outcomes, "--outcome")), dice=dice,
            answered_by=outcome_option)


    @group.command("post-game-pass")
    @click.argument("warband")
    @click.option("--bonus", "bonuses", multiple=True, metavar="FIGHTER=REASON",
                  help="+1 to a surviving fighter of the battle (not Slain: a Captured one too) from a survival roll or "
                       "scenario result (repeatable; from version 1.5.0 one who did not fight it is refused).")
    @pass_session
    def post_game_pass(session: Session, warband: str, bonuses: tuple[str, ...]) -> None:
        """Post-game pass (E5, E7): Hardy +1, Miraculous +2, survival +1; nothing for the Slain."""
        run(session, PostGamePass(warband=warband, bonus=[
            # A fighter may be named by two results: each gives its +1 (E7).
            Bonus(fighter=fighter, reason=reason) for fighter, reason in shell.parse_pair_list(bonuses, "--bonus")
        ]))


    @group.command("buy")
    @click.argument("warband")
    @click.argument("fighter")
    @click.argument("advancement")
    @click.option("--feat", default=None, help="The feat bought (feat, feat-outside).")
    @click.option("--spell", default=None, help="The spell chosen with Caster, from the fighter's Domain.")
    @click.option("--reduce", "reduce", multiple=True,
                  help="The attribute reduced when the raise goes beyond baseline + 1 (S7); again for the points it cannot "
                       "take, as it stops at 1 (A1 whole-excess; repeatable).")
    @pass_session
    def buy(session: Session, warband: str, fighter: str, advancement: str, feat: str | None, spell: str | None,
            reduce: tuple[str, ...]) -> None:
        """Buy one ADVANCEMENT for FIGHTER, paid from its XP bank (S1-S9).

        ADVANCEMENT is a row of the price table: feat, Wi, Sa, Mt, Sk, W, caster, M, Df, CC, RC, feat-outside."""
        first, *more = reduce or (None,)
        run(session, Buy(warband=warband, fighter=fighter, advancement=advancement, feat=feat, spell=spell, reduce=first,
                         also_reduce=more), answered_by=buy_option)


    @group.command("spending-done")
    @click.argument("warband")
    @pass_session
    def spending_done(session: Session, warband: str) -> None:
        """Close the post-game of WARBAND's latest battle: its next battle may be recorded."""
        run(session, SpendingDone(warband=warband))


    @group.command("data")
    @click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
    def data(files: tuple[str, ...]) -> None:
        """Check a group's own data FILES (named ancestries.json, archetypes.json, domains.json,
        feats.json, casualty.json, doom.json) with the sample set for the others, and print the house
        rules that use them: save the output and pass it to `campaign new --options-file`."""
        replaced = {}
        for path in files:
            name = Path(path).stem
            if name not in TABLES.names:
                raise BadInput(f"{path}: a retinue data file is named after what it holds ({', '.join(f'{n}.json' for n in TABLES.names)})")
            try:
                replaced[name] = json.loads(Path(path).read_text(encoding="utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                raise BadInput(f"{path}: not JSON ({error})") from None
        TABLES.with_house_rules(replaced)
        shell.emit_json({"tables": replaced})
