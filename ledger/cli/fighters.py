"""campaign fighter add / show, xp award / spend, item gain / lose, treasury, correct."""

from __future__ import annotations

import click

from commands.shared import AwardXP, ChangeTreasury, Correct, GainItem, LoseItem, RecruitFighter, RenameFighter, SpendXP
from ledger.cli.app import Session, answers_option, emit_json, main, parse_int_pairs, pass_session, run, writes
from projections.roster import fighter_rows


@main.group("fighter")
def fighter() -> None:
    """Fighters (heroes, henchmen groups, troops, units)."""


@fighter.command("add")
@writes
@click.argument("warband")
@click.argument("name")
@click.option("--role", required=True, help="leader, hero, henchman, troop, elite, hired-sword, unit…")
@click.option("--stat", "stats", multiple=True, metavar="STAT=N", help="A characteristic, e.g. WS=4 (repeatable).")
@click.option("--keyword", "keywords", multiple=True, help="A keyword (repeatable).")
@click.option("--item", "equipment", multiple=True, help="A piece of equipment (repeatable).")
@click.option("--cost", type=int, default=0, show_default=True, help="Cost per model, paid from the treasury.")
@click.option("--group-size", type=int, default=1, show_default=True, help="Models in a henchman group or unit.")
@click.option("--free", is_flag=True, help="Join without paying from the treasury.")
@pass_session
def fighter_add(session: Session, warband: str, name: str, role: str, stats: tuple[str, ...],
                keywords: tuple[str, ...], equipment: tuple[str, ...], cost: int, group_size: int, free: bool) -> None:
    """Recruit fighter NAME into WARBAND."""
    run(session, RecruitFighter(
        warband=warband, name=name, role=role, stats=parse_int_pairs(stats, "--stat"),
        keywords=list(keywords), equipment=list(equipment), cost=cost, group_size=group_size, paid=not free,
    ))


@fighter.command("rename")
@writes
@click.argument("fighter_ref", metavar="FIGHTER")
@click.argument("name")
@click.option("--warband", default=None, help="The fighter's warband, when the name is not enough.")
@pass_session
def fighter_rename(session: Session, fighter_ref: str, name: str, warband: str | None) -> None:
    """Give FIGHTER (a name or an id) a new NAME, unique in the warband; the history keeps both."""
    run(session, RenameFighter(fighter=fighter_ref, name=name, warband=warband))


@fighter.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def fighter_show(session: Session, name: str, as_json: bool) -> None:
    """Show one fighter."""
    _cid, state = session.state()
    found = state.fighter(name)
    row = next(r for r in fighter_rows(state, found.warband) if r["fighter"] == found.id)
    if as_json:
        emit_json(row)
        return
    click.echo(f"{row['name']} — {row['role']} of {state.warbands[found.warband].name} [{row['status']}]")
    click.echo(f"  XP {row['xp']}  games {row['games']}  " + " ".join(f"{k}{v}" for k, v in row["stats"].items()))
    for label in ("keywords", "skills", "injuries", "equipment"):
        if row[label]:
            click.echo(f"  {label}: {', '.join(row[label])}")


@main.group("xp")
def xp() -> None:
    """Experience."""


@xp.command("award")
@writes
@click.argument("fighter_ref", metavar="FIGHTER")
@click.argument("amount", type=int)
@click.option("--reason", required=True, help="What the XP is for.")
@click.option("--warband", default=None, help="The fighter's warband, when names repeat.")
@pass_session
def xp_award(session: Session, fighter_ref: str, amount: int, reason: str, warband: str | None) -> None:
    """Award AMOUNT XP to FIGHTER."""
    run(session, AwardXP(fighter=fighter_ref, amount=amount, reason=reason, warband=warband))


@xp.command("spend")
@writes
@click.argument("fighter_ref", metavar="FIGHTER")
@click.argument("amount", type=int)
@click.option("--on", required=True, help="What the XP buys.")
@click.option("--warband", default=None, help="The fighter's warband, when names repeat.")
@pass_session
def xp_spend(session: Session, fighter_ref: str, amount: int, on: str, warband: str | None) -> None:
    """Spend AMOUNT XP of FIGHTER."""
    run(session, SpendXP(fighter=fighter_ref, amount=amount, on=on, warband=warband))


@main.group("item")
def item() -> None:
    """Weapons, armour and equipment."""


@item.command("gain")
@writes
@click.argument("warband")
@click.argument("name")
@click.option("--fighter", default=None, help="Who carries it (default: the warband's stash).")
@click.option("--reason", default="", help="Where it came from.")
@pass_session
def item_gain(session: Session, warband: str, name: str, fighter: str | None, reason: str) -> None:
    """WARBAND gains item NAME."""
    run(session, GainItem(warband=warband, item=name, fighter=fighter, reason=reason))


@item.command("lose")
@writes
@click.argument("warband")
@click.argument("name")
@click.option("--fighter", default=None, help="Who carried it (default: the warband's stash).")
@click.option("--reason", default="", help="What happened to it.")
@pass_session
def item_lose(session: Session, warband: str, name: str, fighter: str | None, reason: str) -> None:
    """WARBAND loses item NAME."""
    run(session, LoseItem(warband=warband, item=name, fighter=fighter, reason=reason))


@main.command("treasury")
@writes
@click.argument("warband")
@click.argument("delta", type=int)
@click.option("--reason", required=True, help="Why the money changes.")
@pass_session
def treasury(session: Session, warband: str, delta: int, reason: str) -> None:
    """Add DELTA to WARBAND's treasury, or take it away when negative (e.g. -10)."""
    run(session, ChangeTreasury(warband=warband, delta=delta, reason=reason))


@main.command("correct")
@writes
@click.argument("warband")
@click.argument("fighter_ref", metavar="FIGHTER")
@click.option("--reason", required=True, help="The arbiter's reason.")
@click.option("--stat", "stats", multiple=True, metavar="STAT=DELTA", help="Change a characteristic, e.g. WS=-1 (repeatable).")
@click.option("--xp", "xp_delta", type=int, default=0, help="Add (or, negative, remove) XP.")
@click.option("--add-keyword", multiple=True,
              help="Give a keyword (repeatable; \"A,B\" is two where the ruleset's keywords hold no comma).")
@click.option("--remove-keyword", multiple=True, help="Take a keyword away (repeatable; \"A,B\" as for --add-keyword).")
@click.option("--status", type=click.Choice(["dead", "captured", "retired"]), default=None,
              help="Mark the fighter dead, captured or retired (not one who is dead: void what recorded the death).")
@answers_option
@pass_session
def correct(session: Session, warband: str, fighter_ref: str, reason: str, stats: tuple[str, ...], xp_delta: int,
            add_keyword: tuple[str, ...], remove_keyword: tuple[str, ...], status: str | None,
            answers: dict[str, str]) -> None:
    """An arbiter's correction of FIGHTER, recorded with its reason. A choice the ruleset asks because of
    it (Speedheim: which hero gains the Leader skill when the last Leader is gone) is answered with
    --answer KEY=CHOICE, or asked at a terminal."""
    run(session, Correct(
        warband=warband, fighter=fighter_ref, reason=reason, stats=parse_int_pairs(stats, "--stat"),
        xp=xp_delta, add_keywords=list(add_keyword), remove_keywords=list(remove_keyword), status=status,
        answers=answers,
    ), reason=reason)
