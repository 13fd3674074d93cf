"""`campaign speedheim …`: recruiting, Incapacitations (each draws from the Improvement Deck), battles,
equipment modifiers, each post-game step as its own non-interactive command, and the warband's status.

`register_commands(group, shell)` adds them to the group it is handed; `shell` carries the CLI's
helpers (session, dice and answer options, running a command, printing JSON), so this module never
imports the CLI: the ruleset kit's hook (issue #8) takes it as it is.
"""

from __future__ import annotations

import shlex
from typing import Any

import click

from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState
from projections.roster import stats_of

from . import events as se
from . import handlers as h
from . import postgame as pg
from .rules import VICTIM_KINDS


def _victim(text: str) -> tuple[str, str | None]:
    name, sep, kind = text.rpartition(":")
    return (name, kind) if sep and kind in VICTIM_KINDS else (text, None)


def status_of(state: CampaignState, warband: str) -> dict[str, Any]:
    band = state.warband(warband)
    tables = h.tables_for(state)

    def row(fighter: Any) -> dict[str, Any]:
        return {"name": fighter.name, "role": fighter.role, "stats": stats_of(state, fighter),
                "keywords": list(fighter.keywords), "skills": list(fighter.skills), "injuries": pg.injuries_now(state, fighter),
                "learned_skills": len(h.learned_skills(fighter, tables)), "pending": h.pending(state, fighter),
                "promotes_after_battle": None if h.is_hero(fighter) else pg.promotes_after(state, band, fighter)}

    try:
        battle: int | None = pg.latest_battle(state, band)
    except RuleViolation:
        battle = None
    leaders = h.leaders_of(state, band)
    return {"warband": band.name, "gold": band.treasury, "hero_slots": h.hero_slots(state, band),
            "leader": leaders[0].name if leaders else None,
            "heroes": [row(f) for f in h.heroes_of(state, band)],
            "henchmen": [row(f) for f in state.fighters_of(band.id) if not h.is_hero(f)],
            "battle": battle, "next_step": pg.next_step(state, band)}


def register_commands(group: click.Group, shell: Any) -> None:
    """`campaign speedheim …`."""
    pass_session, run, dice_options, answers_option = shell.pass_session, shell.run, shell.dice_options, shell.answers_option
    emit_json, parse_int_pairs = shell.emit_json, shell.parse_int_pairs

    def stats_of(pairs: tuple[str, ...], given_as: str = "--stats") -> dict[str, int]:
        return parse_int_pairs([p for text in pairs for p in text.split(",") if p], given_as)

    @group.command("recruit")
    @click.argument("warband")
    @click.argument("name")
    @click.option("--role", required=True, type=click.Choice(h.ROLES), help="leader, hero or henchman.")
    @click.option("--stats", multiple=True, metavar="STAT=N,…", help="Base stats, e.g. Mov=6,Mel=12,Rgd=12 (leave out a `-`; repeatable).")
    @click.option("--keyword", "keywords", multiple=True, help="A starting Skill or special rule (repeatable), e.g. Animal.")
    @click.option("--skill-type", "skill_types", multiple=True, help="A Skill type it learns from (repeatable), e.g. Melee.")
    @click.option("--item", "equipment", multiple=True, help="Equipment carried (repeatable).")
    @click.option("--cost", type=int, default=0, show_default=True, help="Gold paid from the treasury.")
    @click.option("--free", is_flag=True, help="Join without paying.")
    @pass_session
    def recruit(session: Any, warband: str, name: str, role: str, stats: tuple[str, ...], keywords: tuple[str, ...],
                skill_types: tuple[str, ...], equipment: tuple[str, ...], cost: int, free: bool) -> None:
        """Recruit NAME into WARBAND."""
        run(session, h.Recruit(warband=warband, name=name, role=role, stats=stats_of(stats), keywords=list(keywords),
                               skill_types=list(skill_types), equipment=list(equipment), cost=cost, paid=not free))

    @group.command("modifiers")
    @click.argument("warband")
    @click.argument("fighter")
    @click.argument("modifiers", nargs=-1)
    @pass_session
    def modifiers(session: Any, warband: str, fighter: str, modifiers: tuple[str, ...]) -> None:
        """Set FIGHTER's equipment MODIFIERS (STAT=N …), read by a check under check_against=modified."""
        run(session, h.SetModifiers(warband=warband, fighter=fighter, modifiers=stats_of(modifiers, "MODIFIERS")))

    @group.command("incapacitate")
    @click.argument("warband")
    @click.argument("fighter")
    @click.argument("victim")
    @click.option("--kind", type=click.Choice(VICTIM_KINDS), default=None,
                  help="The victim is a leader, hero or henchman (needed for an enemy the ledger does not know).")
    @answers_option
    @dice_options
    @pass_session
    def incapacitate(session: Any, warband: str, fighter: str, victim: str, kind: str | None, dice: Any,
                     answers: dict[str, str]) -> None:
        """During the battle: FIGHTER of WARBAND Incapacitated VICTIM, and draws from the Improvement Deck now."""
        if dice.cards or dice.text:  # refused before deciding, as a card or die left over is, but saying why none is used
            _cid, state = session.state()
            unit, battle = state.fighter(fighter, state.warband(warband).id), state.battles_fought + 1
            if not h.draws_in(state, unit, battle):
                given = [*([f"--card {', '.join(dice.cards)}"] if dice.cards else []), *([f"--dice {dice.text}"] if dice.text else [])]
                options = " and ".join(option.split()[0] for option in given)
                raise BadInput(f"{', '.join(given)}: {unit.name} promotes at the end of battle {battle}, "
                               f"so it {se.draws_no_more(state)} this battle (leave out {options})")
        run(session, h.Incapacitate(warband=warband, fighter=fighter, victim=victim, kind=kind, answers=answers), dice=dice)

    @group.command("battle")
    @shell.battle_warbands_option
    @click.option("--winner", default=None, help="The winning warband (omit for a draw).")
    @click.option("--scenario", default="", help="The scenario played.")
    @click.option("--absent", multiple=True, help="A unit that did not fight (repeatable).")
    @click.option("--incap", "incaps", multiple=True, metavar="UNIT=VICTIM[:KIND]",
                  help="UNIT Incapacitated VICTIM (KIND leader/hero/henchman for an enemy the ledger does not know); "
                       "in the order they happened, each draws (repeatable).")
    @click.option("--fall", "falls", multiple=True, metavar="UNIT", help="UNIT was Incapacitated with no unit credited (repeatable).")
    @answers_option
    @dice_options
    @pass_session
    def battle(session: Any, warbands: tuple[str, ...], winner: str | None, scenario: str, absent: tuple[str, ...],
               incaps: tuple[str, ...], falls: tuple[str, ...], dice: Any, answers: dict[str, str]) -> None:
        """Record a battle, with the Incapacitations not yet recorded during it."""
        entries = []
        for text in incaps:
            unit, sep, victim = text.partition("=")
            if not sep or not unit.strip() or not victim.strip():
                raise BadInput(f"--incap takes UNIT=VICTIM[:KIND], not '{text}'")
            name, kind = _victim(victim.strip())
            entries.append(h.Incap(fighter=unit.strip(), victim=name, kind=kind))
        entries += [h.Incap(fighter=None, victim=unit) for unit in falls]
        run(session, h.RecordSpeedheimBattle(participants=list(warbands), winner=winner, scenario=scenario,
                                             absent=list(absent), incapacitations=entries, answers=answers), dice=dice)

    @group.command("income")
    @click.argument("warband")
    @click.option("--tokens", type=int, default=0, show_default=True, help="Treasure tokens carried at the end.")
    @click.option("--double", type=int, default=0, show_default=True, help="Of them, double-value tokens.")
    @dice_options
    @pass_session
    def income(session: Any, warband: str, tokens: int, double: int, dice: Any) -> None:
        """Income & Loot: a d20 per Treasure token (the winner adds 1) + 40g; a natural 20 rolls for Loot."""
        run(session, pg.Income(warband=warband, tokens=tokens, double=double), dice=dice)

    def step_command(name: str, command: type, doc: str, *, draws: bool = True, asks: bool = True) -> None:
        """A step of WARBAND's post-game; one that `draws` takes dice and cards, one that `asks` answers (the
        others offered them in their help, and took none)."""

        @pass_session
        def step(session: Any, warband: str, dice: Any = None, answers: dict[str, str] | None = None) -> None:
            run(session, command(warband=warband, answers=answers or {}), dice=dice)

        taking = dice_options(step) if draws else step
        group.command(name, help=doc)(click.argument("warband")(answers_option(taking) if asks else taking))

    step_command("promotions", pg.Promotions, "Resolve Promotions: each henchman that drew a promote card it met becomes a hero.",
                 draws=False)
    step_command("scars", pg.Scars, "Scars and the Blight: a d20 for each unit Incapacitated, then for each Blighted unit.")
    step_command("improvement", pg.FreeAttempts, "One free Improvement Attempt per hero.")
    step_command("buy-hero-slot", pg.BuyHeroSlot, "Spend Gold: buy the next hero slot (4th 50g, 5th 100g, 6th 150g).",
                 draws=False, asks=False)
    step_command("spend-gold", pg.SpendGold, "Spend Gold is done: closes the post-game.", draws=False, asks=False)

    @group.command("learn")
    @click.argument("warband")
    @click.argument("fighter")
    @click.argument("skill", required=False, default="")
    @answers_option
    @pass_session
    def learn(session: Any, warband: str, fighter: str, skill: str, answers: dict[str, str]) -> None:
        """FIGHTER learns SKILL (or a Spell) for a Skill/Spell card drawn; without SKILL, it is asked
        (--answer FIGHTER.learn=SKILL)."""
        run(session, pg.Learn(warband=warband, fighter=fighter, skill=skill, answers=answers))

    @group.command("buy-attempt")
    @click.argument("warband")
    @click.argument("fighter")
    @answers_option
    @dice_options
    @pass_session
    def buy_attempt(session: Any, warband: str, fighter: str, dice: Any, answers: dict[str, str]) -> None:
        """Spend Gold: an Improvement Attempt for FIGHTER, 25g, once per hero between games."""
        run(session, pg.BuyAttempt(warband=warband, fighter=fighter, answers=answers), dice=dice)

    @group.command("status")
    @click.argument("warband")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON.")
    @pass_session
    def status(session: Any, warband: str, as_json: bool) -> None:
        """WARBAND's heroes and henchmen with their stats, pending Skills and promotions, and post-game progress."""
        _cid, state = session.state()
        shown = status_of(state, warband)
        if as_json:
            emit_json(shown)
            return
        click.echo(f"{shown['warband']}  gold {shown['gold']}  hero slots {shown['hero_slots']}")
        if shown["leader"] is None:
            # Rules §2: a warband "must always have a Leader" (version 5 let the last one die or retire unreplaced).
            band = shlex.quote(shown["warband"])
            click.echo("No Leader: a warband must always have one; " + (
                f"give a hero the Leader skill: campaign correct {band} HERO --add-keyword Leader --reason …"
                if shown["heroes"] else f"recruit one: campaign speedheim recruit {band} NAME --role leader …"))
        for section in ("heroes", "henchmen"):
            click.echo(f"{section.capitalize()}:")
            for unit in shown[section]:
                stats = " ".join(f"{k} {v}" for k, v in unit["stats"].items())
                extras = [f"{kind}: {', '.join(unit[kind])}" for kind in ("keywords", "skills", "injuries") if unit[kind]]
                extras += [f"Skill/Spell to choose: {unit['pending']}"] if unit["pending"] else []
                extras += [f"promotes after battle {unit['promotes_after_battle']}"] if unit["promotes_after_battle"] else []
                click.echo(f"  {unit['name']} ({unit['role']}) {stats}{'  ' + '; '.join(extras) if extras else ''}")
        if shown["battle"] is not None:
            left = shown["next_step"]
            click.echo(f"Post-game of battle {shown['battle']}: {f'next {pg.PHASE.step_names[left]}' if left else 'done'}")
