"""`campaign coreheim …`: each post-game step and trading action as its own non-interactive
command. Dice with --dice (in the order rolled) or --ledger; choices with --answer KEY=CHOICE
(asked at a terminal otherwise)."""

from __future__ import annotations

import click

from commands.coreheim.commands import (
    Advance, Buy, Experience, Explore, Hire, Injuries, RareSearch, Reinforce, Search, Sell,
    SellShards, SpendUnderdog, UnderdogSword, Upkeep,
)
from commands.coreheim import model
from commands.coreheim.handlers.trading import refuse_hero_named_twice
from commands.coreheim.phase import reinforcing_rolls_no_die
from commands.coreheim.phase import NOTHING, advances_done
from commands.coreheim.views import ratings_by_battle
from commands.kit.cli import DiceChoice, Session, Shell
from ledger.decide import TableDice, check_answers, not_asked, refuse_other_warbands_fighters, warriors_named
from ledger.dice import parse_faces
from ledger.errors import BadInput
from ledger.text import possessive


def register_commands(group: click.Group, shell: Shell) -> None:
    """`campaign coreheim …`: the Ruleset's `register_commands` hook."""
    pass_session, run = shell.pass_session, shell.run
    dice_options, answers_option, emit_json = shell.dice_options, shell.answers_option, shell.emit_json
    parse_pairs, parse_int_pairs = shell.parse_pairs, shell.parse_int_pairs

    warband_argument = click.argument("warband")

    @group.command("hire")
    @warband_argument
    @click.argument("name")
    @click.option("--type", "type_", required=True,
                  help="A hero or henchman type of the warband list (captain, marksman…), a Hired Sword (ogre-bodyguard…), "
                       "or henchman, animal, monster for one the list does not print.")
    @click.option("--race", default="", help="human, dwarf, elf, skaven… (sets the maximum characteristics; default: the list's).")
    @click.option("--stat", "stats", multiple=True, metavar="STAT=N",
                  help="M A W T WS BS I Ld, e.g. WS=6 for 6+ (repeatable); replaces that one of the list's starting profile.")
    @click.option("--cost", type=int, default=None,
                  help="Cost of one henchman, animal or monster the list does not print (the list's types: from the list).")
    @click.option("--size", "group_size", type=int, default=1, show_default=True, help="Members of a henchman group.")
    @click.option("--free", is_flag=True, help="Joins without pay (a warrior an exploration result gave).")
    @pass_session
    def hire(session: Session, warband: str, name: str, type_: str, race: str, stats: tuple[str, ...], cost: int | None,
             group_size: int, free: bool) -> None:
        """Hire warrior NAME into WARBAND (trading step 6, or before the first battle)."""
        run(session, Hire(warband=warband, name=name, type=type_, race=race, stats=parse_int_pairs(stats, "--stat"),
                            cost=cost, group_size=group_size, free=free))


    @group.command("explore")
    @warband_argument
    @click.option("--extra-dice", type=int, default=0, show_default=True, help="Dice a scenario or a skill adds.")
    @click.option("--discard", type=int, default=0, show_default=True, help="Dice to drop before keeping (Bionic Eye…).")
    @dice_options
    @answers_option
    @pass_session
    def explore(session: Session, warband: str, extra_dice: int, discard: int, dice: DiceChoice, answers: dict[str, str]) -> None:
        """Exploration: a D6 per hero (+1 for a win); of seven or more, at most six count (--answer keep=6,5,5,4,3,2,
        or fewer: keep=6,5,4); shards and multiples."""
        run(session, Explore(warband=warband, extra_dice=extra_dice, discard=discard, answers=answers), dice=dice)


    @group.command("injuries")
    @warband_argument
    @dice_options
    @answers_option
    @pass_session
    def injuries(session: Session, warband: str, dice: DiceChoice, answers: dict[str, str]) -> None:
        """Injuries of the warriors taken out of action in WARBAND's latest battle.

        \b
        Dice go in the seed's order, each part in roster order:
        1. a D12 per henchman or Hired Sword taken out of action
           (a group rolls one per member out: --answer GROUP:out=N),
           each followed by his mount's (rules version 4);
        2. a D12 per mount of a hero taken out of action (version 4; a monster's too, version 5);
        3. then a D66 per hero (and per monster, version 5),
           tens then units (55 is --dice 5,5),
           and the extra rolls of a Multiple Injuries."""
        run(session, Injuries(warband=warband, answers=answers), dice=dice)


    @group.command("experience")
    @warband_argument
    @click.option("--scenario-xp", multiple=True, metavar="WARRIOR=N", help="XP the scenario gives (repeatable).")
    @click.option("--henchman-deed", "deeds", multiple=True, metavar="GROUP",
                  help="A group that took out an enemy hero (with the henchman_deed_xp house rule; repeatable).")
    @pass_session
    def experience(session: Session, warband: str, scenario_xp: tuple[str, ...], deeds: tuple[str, ...]) -> None:
        """Experience for the latest battle: survival, enemies taken out, the winning leader."""
        run(session, Experience(warband=warband, scenario_xp=parse_int_pairs(scenario_xp, "--scenario-xp"),
                                  henchman_deeds=list(deeds)))


    @group.command("advance")
    @warband_argument
    @click.argument("fighter", required=False)
    @click.option("--threshold", type=int, default=None, help="The XP threshold to roll for (default: every one reached).")
    @click.option("--name", "names", multiple=True, metavar="GROUP=NAME", help="Name of a henchman Talent! promotes (repeatable).")
    @dice_options
    @answers_option
    @pass_session
    def advance(session: Session, warband: str, fighter: str | None, threshold: int | None, names: tuple[str, ...],
                dice: DiceChoice, answers: dict[str, str]) -> None:
        """Roll the advances reached: every warrior's, or FIGHTER's (one --threshold)."""
        _cid, state = session.state()
        band = state.warband(warband)
        if fighter is None and advances_done(state, band):
            # Nothing owed is not a mistake: the advances step is simply done (see `post-game --list`);
            # answers and dice given for it are, as anywhere a command leaves them unused, and the refusal
            # says why: a key no advance asks as the command's own check says it, one it may ask as not asked.
            nothing = f"{band.name} has no advances to roll"
            if names:
                raise BadInput(f"--name {', '.join(names)}: {nothing}, so no Talent! to promote anyone: "
                               "the advances step is done")
            if answers:
                refuse_other_warbands_fighters(state, [Advance(warband=warband)], answers)
                check_answers(Advance(warband=warband), answers, (), warriors_named(state))
                raise not_asked(list(answers), f"{nothing}: the advances step is done")
            try:
                TableDice(given=parse_faces(dice.text or ""), cards=list(dice.cards)).finish()
            except BadInput as unused:
                raise BadInput(f"{nothing}: {unused}") from None
            click.echo(f"{nothing}: the advances step is done.")
            return
        named = {model.member(state, band, group).id: name for group, name in parse_pairs(names, "--name").items()}
        run(session, Advance(warband=warband, fighter=fighter, threshold=threshold, names=named, answers=answers), dice=dice)


    @group.command("sell-shards")
    @warband_argument
    @click.argument("shards", type=int)
    @pass_session
    def sell_shards(session: Session, warband: str, shards: int) -> None:
        """Trading 1: sell SHARDS wyrdstone shards (0 to keep them all)."""
        run(session, SellShards(warband=warband, shards=shards))


    @group.command("sell")
    @warband_argument
    @click.argument("item")
    @click.option("--fighter", default=None, help="Who carries it (default: the stash).")
    @click.option("--price", type=int, default=None, help="Its base price, if the tables do not price it.")
    @pass_session
    def sell(session: Session, warband: str, item: str, fighter: str | None, price: int | None) -> None:
        """Trading 2: sell ITEM for half its base price, rounded down."""
        run(session, Sell(warband=warband, item=item, fighter=fighter, price=price))


    def _searches(session: Session, warband: str, values: tuple[str, ...]) -> list[RareSearch]:
        searches = []
        # One pair at a time: a hero named twice is refused (one search per hero), not folded into one
        # dict entry that silently keeps only his last search, nor left out looking for nothing.
        pairs = [next(iter(parse_pairs([value], "--search").items())) for value in values]
        _cid, state = session.state()
        refuse_hero_named_twice(state, state.warband(warband), [hero for hero, _wanted in pairs])
        for hero, wanted in pairs:
            item, _, rarity = wanted.partition(":")
            if rarity and not (rarity.isdecimal() and len(rarity) <= 2 and 2 <= int(rarity) <= 12):
                raise BadInput(f"--search {hero}={wanted}: the rarity after ':' is what 2D6 must reach, 2 to 12")
            if wanted != NOTHING:  # the walk's answer for a hero who looks for no item
                searches.append(RareSearch(hero=hero, item=item, rarity=int(rarity) if rarity else None))
        return searches


    @group.command("search")
    @warband_argument
    @click.option("--search", "searches", multiple=True, metavar="HERO=ITEM[:RARITY]",
                  help="A hero looks for an item (repeatable); HERO=nothing: he looks for none.")
    @dice_options
    @pass_session
    def search(session: Session, warband: str, searches: tuple[str, ...], dice: DiceChoice) -> None:
        """Trading 3: heroes not taken out of action look for rare items (2D6 >= rarity)."""
        run(session, Search(warband=warband, searches=_searches(session, warband, searches)), dice=dice)


    @group.command("buy")
    @warband_argument
    @click.argument("item")
    @click.option("--fighter", default=None, help="Who carries it (default: the stash); a group buys one per member.")
    @click.option("--price", type=int, default=None, help="Its price, if the tables do not price it.")
    @dice_options
    @answers_option
    @pass_session
    def buy(session: Session, warband: str, item: str, fighter: str | None, price: int | None, dice: DiceChoice,
            answers: dict[str, str]) -> None:
        """Trading 4: buy ITEM (a rare one found this post-game or, before the first battle, on the warband list);
        a Mordheim Map put in the stash asks which hero holds it (--answer map-holder=HERO)."""
        run(session, Buy(warband=warband, item=item, fighter=fighter, price=price, answers=answers), dice=dice)


    @group.command("items")
    @click.option("--rare", is_flag=True, help="Only the rare items (those a hero must find first).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @pass_session
    def items(session: Session, rare: bool, as_json: bool) -> None:
        """The price chart: what `buy` and `search` know, each item's price and rarity (house rules included)."""
        _cid, state = session.state()
        listed = [i for i in model.tables_for(state.options).price_chart.items if i.rarity is not None or not rare]
        if as_json:
            emit_json([{"id": i.id, "name": i.name, "price": model.price_text(i.price), "rarity": i.rarity} for i in listed])
            return
        for i in listed:
            click.echo(f"{i.id:<24}{model.price_text(i.price):<16}{'Rare ' + str(i.rarity) + '+' if i.rarity else 'Common'}")


    @group.command("upkeep")
    @warband_argument
    @answers_option
    @pass_session
    def upkeep(session: Session, warband: str, answers: dict[str, str]) -> None:
        """Trading 5: pay each Hired Sword's upkeep (--answer SWORD:upkeep=pay|release)."""
        run(session, Upkeep(warband=warband, answers=answers))


    @group.command("reinforce")
    @warband_argument
    @click.option("--price", "prices", multiple=True, metavar="ITEM=GC",
                  help="The base price of an item of the group that the tables do not price (repeatable).")
    @dice_options
    @answers_option
    @pass_session
    def reinforce(session: Session, warband: str, prices: tuple[str, ...], dice: DiceChoice, answers: dict[str, str]) -> None:
        """Trading 7: roll a D6 of experience and add recruits to henchman groups (--answer GROUP:recruits=N); each
        recruit costs a member's hire and his group's gear."""
        _cid, state = session.state()
        dice.refuse_where_none_rolled(reinforcing_rolls_no_die(state, state.warband(warband)))
        run(session, Reinforce(warband=warband, prices=parse_int_pairs(prices, "--price"), answers=answers), dice=dice)


    @group.command("underdog")
    @warband_argument
    @click.option("--xp", "xp", multiple=True, metavar="WARRIOR=N", help="Spend N points on N XP (repeatable).")
    @click.option("--sword", default=None, metavar="NAME", help="Spend a point on Hired Sword NAME, who fought in the battle.")
    @click.option("--type", "type_", default=None, help="The sword's type (ogre-bodyguard, pit-fighter…).")
    @click.option("--race", default="", help="The sword's race (sets his maximum characteristics; default: the table's).")
    @click.option("--stat", "stats", multiple=True, metavar="STAT=N",
                  help="One of the sword's M A W T WS BS I Ld, replacing the table's (repeatable).")
    @click.option("--took-out", "took_out", multiple=True, metavar="ENEMY", help="An enemy the sword took out of action (repeatable).")
    @click.option("--out-of-action", is_flag=True, help="The sword was taken out of action.")
    @pass_session
    def underdog(session: Session, warband: str, xp: tuple[str, ...], sword: str | None, type_: str | None, race: str,
                 stats: tuple[str, ...], took_out: tuple[str, ...], out_of_action: bool) -> None:
        """Spend the underdog points of the latest battle: on experience (before the experience step),
        or one on a Hired Sword who fought in it (before exploring; keep him at the upkeep by paying it)."""
        hired = None
        if sword is None:
            if type_ or race or stats or took_out or out_of_action:
                raise BadInput("--type, --race, --stat, --took-out and --out-of-action describe a Hired Sword: name him with --sword")
        elif type_ is None:
            raise BadInput(f"give {possessive(sword)} Hired Sword type with --type")
        else:
            hired = UnderdogSword(name=sword, type=type_, race=race, stats=parse_int_pairs(stats, "--stat"),
                                    took_out=list(took_out), out_of_action=out_of_action)
        run(session, SpendUnderdog(warband=warband, xp=parse_int_pairs(xp, "--xp"), sword=hired))


    @group.command("ratings")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @pass_session
    def ratings(session: Session, as_json: bool) -> None:
        """Every warband's rating at each battle it fought, and now; wyrdstone held."""
        _cid, state = session.state()
        rows = ratings_by_battle(state)
        if as_json:
            emit_json(rows)
            return
        for row in rows:
            history = ", ".join(f"battle {n}: {r}" for n, r in row["by_battle"].items())
            click.echo(f"{row['warband']}: rating {row['now']} now{'; ' + history if history else ''}; wyrdstone {row['shards']}")
