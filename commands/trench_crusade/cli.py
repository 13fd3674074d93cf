"""`campaign trench-crusade …`: each step of the Campaign Phase as its own non-interactive command,
plus recruiting with a Faction List entry, recording a battle with warband-level deeds, ransoms,
the Quartermaster step's activities (retire, buy, sell, give, stow) and the warband's Trench
Crusade status."""

from __future__ import annotations

from typing import Any

import click

from commands.kit.cli import DiceChoice, Session, Shell, answered_by_options
from ledger.describe import plural
from ledger.errors import BadInput
from projections.battles import deeds_for

from . import events
from .commands import (
    Advancement, AdvanceRoll, Allocate, BuyKit, Experience, Exploration, Promotions, Quartermaster,
    Ransom, RecordTrenchBattle, Recruit, Reinforcements, Retire, Roster, SellKit, Trauma,
)
from .model import refuse_naming_a_model_that_must_miss
from .phase import PHASE
from .rules import FAILURES_BEFORE_AUTOMATIC_SIX
from .views import XP_RESTORED, status_of


def register_commands(group: click.Group, shell: Shell) -> None:
    """`campaign trench-crusade …`: the Ruleset's `register_commands` hook."""
    pass_session, run = shell.pass_session, shell.run
    dice_options, emit_json = shell.dice_options, shell.emit_json
    parse_pairs, parse_int_pairs = shell.parse_pairs, shell.parse_int_pairs

    @group.command("recruit")
    @click.argument("warband")
    @click.argument("name")
    @click.option("--model", required=True, help="The Faction List entry, e.g. 'Trench Pilgrim'.")
    @click.option("--elite", is_flag=True, help="An ELITE model.")
    @click.option("--keyword", "keywords", multiple=True, help="A keyword (repeatable), e.g. LEADER.")
    @click.option("--item", "equipment", multiple=True, help="Battlekit carried (repeatable).")
    @click.option("--cost", type=int, default=0, show_default=True, help="Ducats paid from the Strongbox.")
    @click.option("--free", is_flag=True, help="Join without paying.")
    @pass_session
    def recruit(session: Session, warband: str, name: str, model: str, elite: bool, keywords: tuple[str, ...],
                equipment: tuple[str, ...], cost: int, free: bool) -> None:
        """Recruit NAME, a MODEL from the Faction List, into WARBAND."""
        run(session, Recruit(warband=warband, name=name, model=model, elite=elite, keywords=list(keywords),
                             equipment=list(equipment), cost=cost, paid=not free))


    @group.command("battle")
    @shell.battle_warbands_option
    @click.option("--scenario", required=True, help="The scenario, by name or id, e.g. 'Trench Warfare'.")
    @click.option("--winner", default=None, help="The winning warband (omit for a draw).")
    @click.option("--absent", multiple=True, help="A model left out of the Force (repeatable).")
    @click.option("--ooa", "out_of_action", multiple=True, help="A model taken Out of Action (repeatable).")
    @click.option("--took-out", multiple=True, metavar="MODEL=ENEMY", help="MODEL took ENEMY Out of Action (repeatable).")
    @click.option("--glorious", multiple=True, metavar="MODEL=DEED", help="MODEL completed a Glorious Deed (repeatable).")
    @click.option("--warband-deed", "warband_deeds", multiple=True, metavar="WARBAND=DEED",
                  help="A Glorious Deed the warband completed with no doer, e.g. Victory or Death (repeatable).")
    @click.option("--attacker", default=None, help="The attacking warband, for scenarios with attacker and defender deeds.")
    @pass_session
    def battle(session: Session, warbands: tuple[str, ...], scenario: str, winner: str | None, absent: tuple[str, ...],
               out_of_action: tuple[str, ...], took_out: tuple[str, ...], glorious: tuple[str, ...],
               warband_deeds: tuple[str, ...], attacker: str | None) -> None:
        """Record a battle: the Forces, casualties and Glorious Deeds (every model not --absent fought)."""
        _cid, state = session.state()
        by_warband: dict[str, list[str]] = {}
        for pair in warband_deeds:
            for band, deed in parse_pairs([pair], "--warband-deed").items():
                by_warband.setdefault(band, []).append(deed)
        took = shell.parse_pair_list(took_out, "--took-out")
        done = shell.parse_pair_list(glorious, "--glorious")
        refuse_naming_a_model_that_must_miss(
            state, warbands, [*out_of_action, *(name for pair in took for name in pair), *(doer for doer, _deed in done)])
        run(session, RecordTrenchBattle(
            participants=list(warbands), scenario=scenario, winner=winner,
            deeds=deeds_for(state, list(warbands), absent, out_of_action, took, done),
            warband_deeds=by_warband, attacker=attacker,
        ))


    @group.command("trauma")
    @click.argument("warband")
    @dice_options
    @pass_session
    def trauma(session: Session, warband: str, dice: DiceChoice) -> None:
        """Trauma step: a Survival Roll (D6) per Troop and a Trauma roll (D66) per ELITE taken Out of Action."""
        run(session, Trauma(warband=warband), dice=dice)


    @group.command("ransom")
    @click.argument("warband")
    @click.argument("fighter")
    @click.option("--paid", type=int, default=None, help="Ducats paid to the captor.")
    @click.option("--unpaid", is_flag=True, help="The ransom was not paid: the model is executed.")
    @click.option("--to", default=None, help="The captor, when several warbands fought.")
    @pass_session
    def ransom(session: Session, warband: str, fighter: str, paid: int | None, unpaid: bool, to: str | None) -> None:
        """Settle the ransom of a Captured model of WARBAND."""
        if (paid is None) == (not unpaid):
            raise BadInput("give --paid DUCATS or --unpaid")
        run(session, Ransom(warband=warband, fighter=fighter, paid=paid, to=to))


    @group.command("promotions")
    @click.argument("warband")
    @click.option("--assign", multiple=True, metavar="MODEL=DICE", help="Promotion Dice for a Troop (repeatable).")
    @click.option("--even", is_flag=True, help="Spread the dice evenly over the Troops, in roster order.")
    @click.option("--order", default="", metavar="MODEL,MODEL,…",
                  help="Rolling order: one model per die, or each model once to roll its dice together "
                       "(default: each model's dice together, in the --assign order; roster order with --even).")
    @click.option("--extra", multiple=True, metavar="SOURCE=DICE",
                  help="Dice a Skill or Glory Item adds, e.g. wildcard/show-off=1 (repeatable).")
    @dice_options
    @pass_session
    def promotions(session: Session, warband: str, assign: tuple[str, ...], even: bool, order: str,
                   extra: tuple[str, ...], dice: DiceChoice) -> None:
        """Promotions step: pool, assignment to Troops, and the dice rolled one at a time in your order."""
        assigned = parse_int_pairs(assign, "--assign")
        # Without --order the models roll in the order the player assigned them, as the pool line lists them.
        rolling = [name.strip() for name in order.split(",") if name.strip()] or [name for name, n in assigned.items() if n > 0]
        run(session, Promotions(
            warband=warband, assign=assigned, even=even, order=rolling, extra=parse_int_pairs(extra, "--extra"),
        ), dice=dice)


    @group.command("experience")
    @click.argument("warband")
    @click.option("--leader", default=None, help="The ELITE LEADER gaining the XP of a warband-level Glorious Deed.")
    @pass_session
    def experience(session: Session, warband: str, leader: str | None) -> None:
        """Experience step: +1 XP per ELITE that fought and survived, +1 for a Glorious Deed (no dice are rolled)."""
        run(session, Experience(warband=warband, leader=leader))


    @group.command("advance")
    @click.argument("warband")
    @click.option("--roll", "rolls", multiple=True, required=True, metavar="MODEL=TABLE,TABLE",
                  help="An Advancement Roll on two skill tables (repeatable), e.g. Gaius=melee-strength,wildcard.")
    @click.option("--keep", "keeps", multiple=True, metavar="TABLE",
                  help="The table whose result is kept, one per --roll in the same order (repeatable).")
    @dice_options
    @pass_session
    def advance(session: Session, warband: str, rolls: tuple[str, ...], keeps: tuple[str, ...], dice: DiceChoice) -> None:
        """Advancement Rolls owed for reaching circled XP boxes: 2D6 on each of two tables, keep one."""
        if keeps and len(keeps) != len(rolls):
            raise BadInput(f"give one --keep per --roll ({len(rolls)}), or none to be asked")
        chosen = []
        for index, pair in enumerate(rolls):
            fighter, tables = next(iter(parse_pairs([pair], "--roll").items()))
            chosen.append(AdvanceRoll(fighter=fighter, tables=[t.strip() for t in tables.split(",")],
                                      keep=keeps[index] if keeps else None))
        # The command's own option for the kept table is --keep, not an --answer it does not take.
        run(session, Advancement(warband=warband, rolls=chosen), dice=dice,
            answered_by=lambda key: "give --keep TABLE, one per --roll in order" if key.startswith("keep-") else None)


    @group.command("reinforcements")
    @click.argument("warband")
    @pass_session
    def reinforcements(session: Session, warband: str) -> None:
        """Reinforcements instead of Exploration: the Arsenal is discarded and the Strongbox set to 0;
        recruit on the budget with `recruit --free`."""
        run(session, Reinforcements(warband=warband))


    @group.command("exploration")
    @click.argument("warband")
    @click.option("--table", default=None, help="common, rare or legendary (when the stage offers two).")
    @click.option("--skill", "skills", multiple=True, help="An Exploration Skill used: extra-dice, re-roll-dice, seek, circle-back (repeatable).")
    @click.option("--modifier", type=int, default=0, show_default=True, help="Added to the Exploration Roll (Allies, Equipment).")
    @click.option("--reroll", "rerolls", multiple=True, type=int, metavar="DIE", help="Re-roll this die (1 = first; repeatable).")
    @dice_options
    @pass_session
    def exploration(session: Session, warband: str, table: str | None, skills: tuple[str, ...], modifier: int,
                    rerolls: tuple[int, ...], dice: DiceChoice) -> None:
        """Exploration step: roll the stage's dice, re-roll, find a location, loot 10 ducats per point."""
        run(session, Exploration(warband=warband, table=table, skills=list(skills), modifier=modifier,
                                 rerolls=list(rerolls)), dice=dice, answered_by=answered_by_options(table="--table"))


    @group.command("retire")
    @click.argument("warband")
    @click.argument("fighter")
    @pass_session
    def retire(session: Session, warband: str, fighter: str) -> None:
        """Quartermaster: retire a model with 2 Battle Scars; its Battlekit goes to the Arsenal."""
        run(session, Retire(warband=warband, fighter=fighter))


    def _currency(glory: bool) -> str:
        return events.GLORY_POINTS if glory else events.DUCATS


    @group.command("buy")
    @click.argument("warband")
    @click.argument("item")
    @click.option("--price", type=int, required=True, help="Its price in the faction Armoury or Glory Item table.")
    @click.option("--glory", is_flag=True, help="Paid in Glory Points instead of ducats.")
    @click.option("--glory-item", is_flag=True, help="A Glory Item (always paid in Glory).")
    @click.option("--elite-only", is_flag=True, help="ELITE-only Battlekit: only an ELITE model may be given it.")
    @pass_session
    def buy(session: Session, warband: str, item: str, price: int, glory: bool, glory_item: bool, elite_only: bool) -> None:
        """Quartermaster: buy Battlekit or a Glory Item into the Arsenal."""
        run(session, BuyKit(warband=warband, item=item, price=price, currency=_currency(glory or glory_item),
                            glory_item=glory_item, elite_only=elite_only))


    @group.command("sell")
    @click.argument("warband")
    @click.argument("item")
    @click.option("--from", "fighter", default=None, help="The model carrying it (default: from the Arsenal).")
    @click.option("--price", type=int, default=None, help="The price paid, when the ledger does not know it.")
    @click.option("--glory", is_flag=True, help="With --price: it was paid in Glory Points.")
    @pass_session
    def sell(session: Session, warband: str, item: str, fighter: str | None, price: int | None, glory: bool) -> None:
        """Quartermaster: sell Battlekit or a Glory Item for half the price paid, rounded up."""
        if glory and price is None:
            raise BadInput("--glory goes with --price (the currency of the price paid)")
        run(session, SellKit(warband=warband, item=item, fighter=fighter, price=price,
                             currency=_currency(glory) if price is not None else None))


    @group.command("give")
    @click.argument("warband")
    @click.argument("fighter")
    @click.argument("item")
    @pass_session
    def give(session: Session, warband: str, fighter: str, item: str) -> None:
        """Quartermaster: give FIGHTER an ITEM from the Arsenal."""
        run(session, Allocate(warband=warband, fighter=fighter, item=item))


    @group.command("stow")
    @click.argument("warband")
    @click.argument("fighter")
    @click.argument("item")
    @pass_session
    def stow(session: Session, warband: str, fighter: str, item: str) -> None:
        """Quartermaster: put FIGHTER's ITEM back in the Arsenal."""
        run(session, Allocate(warband=warband, fighter=fighter, item=item, to_arsenal=True))


    @group.command("quartermaster")
    @click.argument("warband")
    @pass_session
    def quartermaster(session: Session, warband: str) -> None:
        """Quartermaster step done (retire, recruit, buy, sell, give and stow before this)."""
        run(session, Quartermaster(warband=warband))


    @group.command("roster")
    @click.argument("warband")
    @pass_session
    def roster(session: Session, warband: str) -> None:
        """Roster step done: the roster is up to date, ready for the next game."""
        run(session, Roster(warband=warband))


    def _head_wound_text(head_wound: str, promotion_dice: bool) -> str:
        if head_wound == XP_RESTORED:
            return "Head Wound: gains XP again (a Promotion 6)"
        return "Head Wound: gains no XP" + (", takes Promotion Dice as a Troop" if promotion_dice else "")


    def _xp_text(model: dict[str, Any]) -> str:
        """An ELITE's XP, with its cap where one applies: always a Limited Potential model's, else once reached."""
        if model["limited_potential"]:
            return f"XP {model['xp']} (Limited Potential: at most {model['xp_cap']})"
        return f"XP {model['xp']}" + (f" (at most {model['xp_cap']})" if model["xp"] >= model["xp_cap"] else "")


    @group.command("status")
    @click.argument("warband")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @pass_session
    def status(session: Session, warband: str, as_json: bool) -> None:
        """WARBAND's Trench Crusade roster: ELITE and Troops (XP and its cap, Skills, Battle Scars, injuries),
        Promotion streak, Glory, Campaign Phase progress."""
        _cid, state = session.state()
        shown = status_of(state, warband)
        if as_json:
            emit_json(shown)
            return
        click.echo(f"{shown['warband']} ({shown['faction']})  ducats {shown['ducats']}  Glory {shown['glory']}")
        streak = shown["promotion_streak"]
        # Seed: "Once the total reaches 5 dice, then the next roll (the 6th one), is automatically considered to be a 6."
        next_is_six = ": the next Promotion Die counts as a 6" if streak >= FAILURES_BEFORE_AUTOMATIC_SIX else ""
        click.echo(f"Promotion streak: {plural(streak, 'die')} in a row without a Promotion{next_is_six}")
        counted = shown["elite_counted"]
        beyond = len(shown["elite"]) - counted
        cap = f"{counted} of 6" + (f", and {beyond} with Bad Company, not counted" if beyond else "")
        for section, title in (("elite", f"ELITE models ({cap})"), ("troops", "Troops")):
            click.echo(f"{title}:")
            for model in shown[section]:
                extras = [_xp_text(model)] if section == "elite" else []
                extras += [f"Limited Potential: at most {model['xp_cap']} XP"] if section == "troops" and model["limited_potential"] else []
                extras += ["cannot be Promoted"] if section == "troops" and model["cannot_be_promoted"] else []
                extras += [f"Skills: {', '.join(model['skills'])}"] if model["skills"] else []
                extras += [f"Battle Scars {model['battle_scars']}"] if model["battle_scars"] else []
                extras += [f"Injuries: {', '.join(model['injuries'])}"] if model["injuries"] else []
                extras += [f"Advancement Rolls due {model['advancements_due']}"] if model["advancements_due"] else []
                extras += [_head_wound_text(model["head_wound"], shown["head_wound_promotion"])] if model["head_wound"] else []
                extras += [f"Trauma against {against}" for against in model["trauma_against"]]
                click.echo(f"  {model['name']} — {model['model']}{'  ' + '  '.join(extras) if extras else ''}")
        if shown["battle"] is not None:
            left = PHASE.next_step(state, state.warband(warband))
            click.echo(f"Campaign Phase of battle {shown['battle']}: {f'next {PHASE.step_names[left]}' if left else 'done'}")
