"""`campaign warbands …`: enlisting and recruiting, recording a battle with each unit's casualties,
each post-game step as its own command, spending XP, and the warband's status with its Warband
Rating explained line by line."""

from __future__ import annotations


import click

from commands.kit.cli import DiceChoice, Session, Shell, answered_by_pair_options

from .events import toward_the_next_ability
from .handlers import (
    PHASE,
    Advance,
    Enlist,
    Experience,
    Injuries,
    RecordWarbandsBattle,
    Recovery,
    Recruit,
    Survival,
    Upgrade,
    VeteranRecruits,
)
from .views import ratings_of, status_of


def register_commands(group: click.Group, shell: Shell) -> None:
    """`campaign warbands …`: the Ruleset's `register_commands` hook."""

    @group.command("enlist")
    @click.argument("name")
    @click.option("--player", required=True, help="Who plays the warband.")
    @click.option("--type", "warband_type", required=True, help="The warband type, a row of the Archetype Table (e.g. Empire).")
    @shell.pass_session
    def enlist(session: Session, name: str, player: str, warband_type: str) -> None:
        """Enlist warband NAME with its starting points (250 unless the campaign says otherwise) to spend on recruits."""
        shell.run(session, Enlist(name=name, player=player, type=warband_type))

    @group.command("recruit")
    @click.argument("warband")
    @click.argument("name")
    @click.option("--points", type=int, required=True, help="Army-book points: per model for a unit, for a character his own.")
    @click.option("--models", type=int, default=None, help="A unit: how many models.")
    @click.option("--archetype", default=None, help="A character: his Archetype (Barbarian, Intellectual, …).")
    @shell.pass_session
    def recruit(session: Session, warband: str, name: str, points: int, models: int | None, archetype: str | None) -> None:
        """Recruit unit or character NAME, paid from the starting points, or in XP once the warband has fought."""
        shell.run(session, Recruit(warband=warband, name=name, points=points, models=models, archetype=archetype))

    @group.command("battle")
    @shell.battle_warbands_option
    @click.option("--winner", default=None, help="The winning warband (omit for a draw).")
    @click.option("--scenario", default="", help="The scenario played.")
    @click.option("--removed", multiple=True, metavar="UNIT=N", help="Models of UNIT removed as casualties (repeatable).")
    @click.option("--fled", multiple=True, metavar="UNIT=N", help="Models of UNIT that fled the table (repeatable).")
    @click.option("--down", multiple=True, metavar="CHARACTER", help="A character removed as a casualty (repeatable).")
    @click.option("--absent", multiple=True, help="A unit or character that did not fight (repeatable).")
    @shell.pass_session
    def battle(session: Session, warbands: tuple[str, ...], winner: str | None, scenario: str, removed: tuple[str, ...],
               fled: tuple[str, ...], down: tuple[str, ...], absent: tuple[str, ...]) -> None:
        """Record a battle: every unit and character not --absent fought with all its models."""
        shell.run(session, RecordWarbandsBattle(participants=list(warbands), winner=winner, scenario=scenario,
                                          removed=shell.parse_int_pairs(removed, "--removed"), fled=shell.parse_int_pairs(fled, "--fled"),
                                          down=list(down), absent=list(absent)))

    @group.command("recovery")
    @click.argument("warband")
    @click.option("--recovered", multiple=True, metavar="UNIT=N",
                  help="Casualties of UNIT that recovered, when the campaign has no recovery table (repeatable).")
    @shell.dice_options
    @shell.pass_session
    def recovery(session: Session, warband: str, recovered: tuple[str, ...], dice: DiceChoice) -> None:
        """Post-game step 2: Recovery of each unit's casualties (on the campaign's table, or as told)."""
        shell.run(session, Recovery(warband=warband, recovered=shell.parse_int_pairs(recovered, "--recovered")), dice=dice,
                  answered_by=answered_by_pair_options(recovered="--recovered"))  # recovery has no --answer

    @group.command("injuries")
    @click.argument("warband")
    @click.option("--outcome", "outcomes", multiple=True, metavar="CHARACTER=EFFECT",
                  help="recovered, dead, amnesia or misses-game, when the campaign has no injury table (repeatable).")
    @shell.dice_options
    @shell.pass_session
    def injuries(session: Session, warband: str, outcomes: tuple[str, ...], dice: DiceChoice) -> None:
        """Post-game step 3: Injuries of each character removed as a casualty."""
        shell.run(session, Injuries(warband=warband, outcomes=shell.parse_pairs(outcomes, "--outcome")), dice=dice,
                  answered_by=answered_by_pair_options(injury="--outcome"))  # injuries has no --answer

    @group.command("survival")
    @click.argument("warband")
    @shell.pass_session
    def survival(session: Session, warband: str) -> None:
        """Post-game step 4: Veteran eligibility or loss for each unit, battles survived for each character."""
        shell.run(session, Survival(warband=warband))

    @group.command("experience")
    @click.argument("warband")
    @click.option("--xp", type=int, default=None, help="XP earned, when the campaign has no XP award table.")
    @shell.pass_session
    def experience(session: Session, warband: str, xp: int | None) -> None:
        """Post-game step 5: the XP the battle earned the warband."""
        shell.run(session, Experience(warband=warband, xp=xp))

    @group.command("upgrade")
    @click.argument("warband")
    @click.argument("unit")
    @shell.pass_session
    def upgrade(session: Session, warband: str, unit: str) -> None:
        """Spend 10 XP on UNIT's next Veteran level (it must be eligible)."""
        shell.run(session, Upgrade(warband=warband, unit=unit))

    @group.command("veteran-recruits")
    @click.argument("warband")
    @click.argument("unit")
    @click.option("--models", type=int, required=True, help="How many recruits join the Veteran unit.")
    @shell.pass_session
    def veteran_recruits(session: Session, warband: str, unit: str, models: int) -> None:
        """Buy recruits for a Veteran UNIT at their points in XP."""
        shell.run(session, VeteranRecruits(warband=warband, unit=unit, models=models))

    @group.command("advance")
    @click.argument("warband")
    @click.argument("character")
    @click.option("--useless", multiple=True, metavar="ABILITY", help="An ability useless to him: rolled again if it comes up (repeatable).")
    @shell.dice_options
    @shell.pass_session
    def advance(session: Session, warband: str, character: str, useless: tuple[str, ...], dice: DiceChoice) -> None:
        """Spend 25 XP on a roll on CHARACTER's Archetype Advancement Table."""
        shell.run(session, Advance(warband=warband, character=character, useless=list(useless)), dice=dice)

    @group.command("status")
    @click.argument("warband")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @shell.pass_session
    def status(session: Session, warband: str, as_json: bool) -> None:
        """WARBAND's points, XP and Warband Rating explained line by line; Veteran Status and Archetypes."""
        _cid, state = session.state()
        row = status_of(state, warband)
        if as_json:
            shell.emit_json(row)
            return
        click.echo(f"{row['name']} ({row['type']}): {row['points']} points, {row['xp']} XP, WBR {row['wbr']}")
        for line in row["wbr_lines"]:
            click.echo(f"  {line['points']:>4}  {line['what']}")
        for unit in row["units"]:
            veteran = f"Veteran +{unit['veteran']}" if unit["veteran"] else "no Veteran Status"
            eligible = ", eligible for the next level" if unit["eligible"] else ""
            click.echo(f"  unit {unit['name']}: {unit['models']} x {unit['points_per_model']} points, {veteran}{eligible}")
        for hero in row["characters"]:
            abilities = ", ".join(hero["abilities"]) or "no Archetype Ability yet"
            toward = toward_the_next_ability(len(hero["abilities"]), hero["survived_since_ability"])
            click.echo(f"  character {hero['name']}: {hero['points']} points, {hero['archetype']} "
                       f"({hero['starting_ability']}); {abilities}; {toward}")
        if row["post_game_next"]:
            click.echo(f"  post-game: {PHASE.step_names[row['post_game_next']]} is next")

    @group.command("ratings")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @shell.pass_session
    def ratings(session: Session, as_json: bool) -> None:
        """Every warband's WBR over the campaign: at the start and after each battle it fought."""
        cid, state = session.state()
        ratings = ratings_of(state, session.ledger.history(cid))
        if as_json:
            shell.emit_json(ratings)
            return
        for row in ratings:
            after = "".join(f", {wbr} after battle {n}" for n, wbr in row["by_battle"].items())
            click.echo(f"{state.warbands[row['warband']].name}: WBR {row['start']} at the start{after}")
