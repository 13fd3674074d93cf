"""campaign new / list / show, void, reroll, replay."""

from __future__ import annotations

import json
from typing import BinaryIO

import click

from commands.shared import UpgradeRules
from ledger import audit, rulesets
from ledger.cli.app import (
    DiceChoice,
    Session,
    answers_option,
    dice_options,
    emit_json,
    interactive_ask,
    main,
    parse_pairs,
    pass_session,
    report,
    run,
    settle,
    writes,
)
from ledger.cli.views import campaign_summary, print_campaign, print_roster
from ledger import describe
from ledger.describe import plural
from ledger.fold import cut, fold, post_games_left_out, standing_battles
from projections.roster import roster as roster_view
from ledger.errors import BadInput
from ledger.text import check_name
from ledger.trail_json import refuse_lone_surrogates


def _option_value(key: str, text: str) -> object:
    """House-rule values are JSON when they parse as JSON (numbers, lists, tables), else text."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    try:
        refuse_lone_surrogates(value)
    except ValueError as error:
        raise BadInput(f"--option {key}: {error}") from None
    return value


HOUSE_RULES_LIMIT = 1_000_000  # bytes: house rules are tables, not archives


def _json_object(file: BinaryIO, what: str) -> dict[str, object]:
    """An --options-file or --tables file: a JSON object in UTF-8, integers only, no key twice, at most 1 MB."""
    data = file.read(HOUSE_RULES_LIMIT + 1)
    if len(data) > HOUSE_RULES_LIMIT:
        raise BadInput(f"{file.name}: larger than {HOUSE_RULES_LIMIT:,} bytes; house rules are tables, not archives")
    try:
        loaded = audit.strict_json(data.decode("utf-8"))
    except UnicodeDecodeError as error:
        raise BadInput(f"{file.name}: not UTF-8 text (byte {error.start})") from None
    except ValueError as error:  # json.JSONDecodeError, a float, a key twice, too deep, too many digits
        raise BadInput(f"{file.name}: not JSON the ledger takes ({error})") from None
    if not isinstance(loaded, dict):
        raise BadInput(f"{file.name}: {what} must be a JSON object")
    return loaded


@main.command("new")
@writes
@click.argument("name")
@click.option("--ruleset", "ruleset_id", default="freeform", show_default=True,
              help="The game's rules (see `campaign rulesets`).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="A house rule or setting, e.g. dice=ledger or decks=physical (repeatable; JSON values allowed).")
@click.option("--options-file", type=click.File("rb"), help="House rules as a JSON object (e.g. replacement tables).")
@click.option("--tables", "tables_file", type=click.File("rb"),
              help="The group's own rule tables as a JSON object, table name -> table (the ruleset's `tables` option).")
@pass_session
def new(session: Session, name: str, ruleset_id: str, options: tuple[str, ...], options_file, tables_file) -> None:
    """Start a campaign NAME under a ruleset, committing to the secret seed of its ledger dice."""
    chosen: dict[str, object] = {}
    if options_file is not None:
        chosen.update(_json_object(options_file, "house rules"))
    if tables_file is not None:
        if "tables" in chosen:
            raise BadInput(f"{options_file.name} gives tables too: give them in one place, --tables or --options-file")
        chosen["tables"] = _json_object(tables_file, "tables")
    chosen.update({k: _option_value(k, v) for k, v in parse_pairs(options, "--option").items()})
    check_name(name.strip(), "the campaign name")
    outcome = session.ledger.start(name, ruleset_id, chosen, session.actor)
    report(outcome)


@main.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def list_campaigns(session: Session, as_json: bool) -> None:
    """List the campaigns in the store."""
    states = session.ledger.campaigns()
    current = session.ledger.store.current_campaign() if len(states) > 1 else None
    summaries = [{**campaign_summary(state), "current": str(current) == state.campaign_id} for state in states]
    if as_json:
        emit_json(summaries)
        return
    if not summaries:
        click.echo("No campaigns yet: start one with `campaign new NAME --ruleset RULESET`.")
    marked = any(s["current"] for s in summaries)  # the others are indented as far, so that the names line up
    for s in summaries:
        mark = ("* " if s["current"] else "  ") if marked else ""
        click.echo(f"{mark}{s['name']}  {s['ruleset']}  {plural(s['warbands'], 'warband')}  {plural(s['battles'], 'battle')}  "
                   f"{plural(s['events'], 'event')}  head {s['head'][:16]}")


@main.command("use")
@click.argument("name")
@pass_session
def use(session: Session, name: str) -> None:
    """Make campaign NAME the store's current one: commands without --campaign then mean it.

    Kept in the store, so everyone using that store shares it; `campaign new` and `campaign import`
    make the campaign they create current."""
    state = session.ledger.use(name)
    click.echo(f"Now using {state.name} ({state.ruleset}) in {session.ledger.store.url}.")


@main.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def show(session: Session, as_json: bool) -> None:
    """Show the campaign: ruleset and its options (house rules), warbands with their ratings, battles, head hash."""
    cid, state = session.state()
    battles = session.ledger.battles(cid, state)
    if as_json:
        emit_json(campaign_summary(state, battles))
    else:
        print_campaign(state, battles)
        if state.options:
            click.echo("options: " + ", ".join(f"{key}={json.dumps(value, sort_keys=True)}"
                                               for key, value in state.options.items()))


@main.command("rulesets")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def list_rulesets(as_json: bool) -> None:
    """List the rulesets this ledger knows."""
    known = rulesets.load_rulesets()
    rows = [{"id": r.id, "version": r.version, "title": r.title} for r in known.values()]
    if as_json:
        emit_json(rows)
        return
    for row in rows:
        click.echo(f"{row['id']}  v{row['version']}  {row['title']}")


@main.group("rules")
def rules() -> None:
    """The version of its ruleset a campaign is decided under."""


@rules.command("upgrade")
@writes
@click.option("--reason", default="", help="Why (kept in the audit trail).")
@pass_session
def rules_upgrade(session: Session, reason: str) -> None:
    """Decide the campaign's later transactions under the newest version of its ruleset.

    Earlier transactions keep the version they were decided under: replay, voids and import
    decide each transaction under the version in force at it. Refused while a warband is part
    way through a battle's post-game: finish it first (campaign post-game WARBAND)."""
    _cid, state = session.state()
    newest = rulesets.get(state.ruleset).version
    run(session, UpgradeRules(version=newest), reason=reason)


@main.command("void")
@writes
@click.argument("ref")
@click.option("--reason", required=True, help="Why (kept in the audit trail).")
@click.option("--cascade", is_flag=True, help="Also void later transactions that no longer follow.")
@answers_option
@dice_options
@pass_session
def void(session: Session, ref: str, reason: str, cascade: bool, answers: dict[str, str], dice: DiceChoice) -> None:
    """Void a transaction (T12), a roll (R5) or an event (E40): nothing is deleted.

    Every later transaction is re-decided with its own recorded dice; if any would now fail or
    come out differently, the void is refused with the list, unless --cascade. With --cascade and
    --answer or --dice (or --ledger), those later transactions are decided again after the void, as
    reroll does: their recorded dice handed back, the answers for the questions they now ask, new
    dice for rolls they newly ask for; one the rules now refuse stays voided."""
    cid, state = session.state()
    decide_again = bool(answers or dice.text or dice.cards or dice.use_ledger)
    report(session.ledger.void(cid, ref, reason=reason, actor=session.actor, cascade=cascade,
                               decide_again=decide_again, answers=answers,
                               dice=dice.source(state) if decide_again else None, ask=interactive_ask()))


@main.command("reroll")
@writes
@click.argument("roll")
@click.option("--reason", required=True, help="Why the roll is disputed.")
@click.option("--cascade", is_flag=True,
              help="Also void later transactions that no longer follow, and decide each again after the new roll.")
@answers_option
@dice_options
@pass_session
def reroll(session: Session, roll: str, reason: str, cascade: bool, dice: DiceChoice, answers: dict[str, str]) -> None:
    """Void the transaction of a disputed roll (R5) and record its command again with a new roll.

    Only the disputed roll is rolled again (--dice or --ledger); the transaction's other rolls are
    handed back. If the new result asks a question, answer it with --answer KEY=CHOICE.

    With --cascade, the later transactions the new result unsettles are decided again after it, in
    order, each with its own recorded dice (new dice only for rolls they newly ask for, from the
    same --dice or --ledger; --answer for questions they newly ask); one the rules now refuse stays
    voided."""
    cid, state = session.state()
    # A reroll stopped pending shows what it recorded, and at a terminal asks its question, as every command does
    report(settle(session, lambda: session.ledger.reroll(
        cid, roll, reason=reason, actor=session.actor, dice=dice.source(state), cascade=cascade, answers=answers,
        ask=interactive_ask(),
    )))


@main.command("replay")
@click.option("--until", type=int, help="Stop at this event position.")
@click.option("--battle", type=int, help="Stop after battle K and what followed it before the next battle.")
@click.option("--check", is_flag=True, help="Re-decide every transaction and compare with the stored events.")
@click.option("--roster", "roster_of", default=None, metavar="WARBAND", help="Show this warband's roster as it stood.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_session
def replay(session: Session, until: int | None, battle: int | None, check: bool, roster_of: str | None,
           as_json: bool) -> None:
    """Rebuild the campaign from its events alone, optionally as it stood at an earlier point."""
    cid = session.campaign()
    if check:
        if until is not None or battle is not None:
            raise BadInput("--check re-decides the whole history: drop --until/--battle")
        checked, differences = session.ledger.check(cid)
        if as_json:
            emit_json({"checked": checked, "differences": differences})
        else:
            for line in differences:
                click.echo(line)
            verdict = "all match" if not differences else f"{len(differences)} differ"
            sources = "its command" if checked == 1 else "their commands"
            click.echo(f"Re-decided {plural(checked, 'transaction')} from {sources} and dice: {verdict}.")
        if differences:
            raise click.exceptions.Exit(1)
        return
    everything = session.ledger.history(cid)
    records = cut(everything, until=until, battle=battle)
    state = fold(records)
    if roster_of is not None:
        band = state.warband(roster_of)
        if as_json:
            emit_json(roster_view(state, band.id))
        else:
            print_roster(state, band.id)
    elif as_json:
        emit_json(campaign_summary(state, standing_battles(records)))
    else:
        print_campaign(state, standing_battles(records))
    if battle is not None and not as_json:
        for line in describe.post_games_left_out_lines(state, post_games_left_out(everything, battle)):
            click.echo(line)
