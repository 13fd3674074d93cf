"""Commands every ruleset has: warbands, fighters, battles, XP, items, money, corrections, bare
rolls and draws. A ruleset includes `SHARED_HANDLERS` in its own handler table and may replace
any entry with a handler that knows its game's rules."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence

import msgspec

from ledger import events as ev
from ledger import rulesets
from ledger.decide import Command, Context
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband
from ledger.text import as_spelled, possessive, slug


def bearer_of(state: CampaignState, warband: str, name: str, *, ever: bool) -> Fighter | None:
    """The fighter of the warband called `name`, whatever the case: among every fighter it ever had
    (`ever`: a name stays its bearer's whatever became of him), or among those still in it."""
    return next((f for f in state.fighters_of(warband, active_only=not ever) if f.name.lower() == name.lower()), None)


def unique_id(name: str, taken: object) -> str:
    base = slug(name)
    candidate, n = base, 1
    while candidate in taken:  # type: ignore[operator]
        n += 1
        candidate = f"{base}-{n}"
    return candidate


class EnlistWarband(Command, frozen=True, kw_only=True, tag="warband.enlist"):
    name: str
    player: str
    faction: str = ""
    treasury: int = 0


class RecruitFighter(Command, frozen=True, kw_only=True, tag="fighter.recruit"):
    warband: str
    name: str
    role: str
    stats: dict[str, int] = {}
    keywords: list[str] = []
    equipment: list[str] = []
    cost: int = 0
    group_size: int = 1
    paid: bool = True  # False: the fighter joins without paying from the treasury


class RecordBattle(Command, frozen=True, kw_only=True, tag="battle.record"):
    participants: list[str]
    winner: str | None = None
    scenario: str = ""
    deeds: list[ev.Deed] = []


class AwardXP(Command, frozen=True, kw_only=True, tag="xp.award"):
    fighter: str
    amount: int
    reason: str
    warband: str | None = None


class RenameFighter(Command, frozen=True, kw_only=True, tag="fighter.rename"):
    fighter: str
    name: str
    warband: str | None = None


class SpendXP(Command, frozen=True, kw_only=True, tag="xp.spend"):
    fighter: str
    amount: int
    on: str
    warband: str | None = None


class GainItem(Command, frozen=True, kw_only=True, tag="item.gain"):
    warband: str
    item: str
    fighter: str | None = None
    reason: str = ""


class LoseItem(Command, frozen=True, kw_only=True, tag="item.lose"):
    warband: str
    item: str
    fighter: str | None = None
    reason: str = ""


class ChangeTreasury(Command, frozen=True, kw_only=True, tag="treasury.change"):
    warband: str
    delta: int
    reason: str


class Correct(Command, frozen=True, kw_only=True, tag="correct"):
    """An arbiter's correction of a fighter: stats, XP, keywords, status; the reason is required."""

    warband: str
    fighter: str
    reason: str
    stats: dict[str, int] = {}  # stat -> delta
    xp: int = 0
    add_keywords: list[str] = []
    remove_keywords: list[str] = []
    status: str | None = None  # dead, captured, retired


class BareRoll(Command, frozen=True, kw_only=True, tag="roll"):
    expression: str
    purpose: str


class BareDraw(Command, frozen=True, kw_only=True, tag="draw"):
    deck: str
    purpose: str


class RecordNote(Command, frozen=True, kw_only=True, tag="note"):
    text: str
    warband: str | None = None


class UpgradeRules(Command, frozen=True, kw_only=True, tag="rules.upgrade"):
    """Decide the campaign's later transactions under `version` of its ruleset (recorded, so that
    replaying decides it the same way whatever versions exist by then)."""

    version: str


def positive(amount: int, what: str, taken_away: str = "") -> None:
    """`taken_away`: how a negative amount is done instead, said when one is given."""
    if amount <= 0:
        instead = f" ({taken_away})" if amount < 0 and taken_away else ""
        raise BadInput(f"{what} must be a positive whole number, not {amount}{instead}")


XP_TAKEN_AWAY = "XP is taken away by `campaign correct WARBAND FIGHTER --xp -N --reason …`, or the award voided"


def active_fighter(state: CampaignState, ref: str, warband: str | None) -> Fighter:
    band = state.warband(warband).id if warband else None
    fighter = state.fighter(ref, band)
    if not fighter.active:
        raise RuleViolation(f"{fighter.name} is {fighter.status}")
    return fighter


def rename_fighter(cmd: RenameFighter, ctx: Context) -> None:
    """Names are unique within a warband (whatever a fighter's status: the history names them)."""
    fighter = ctx.state.fighter(cmd.fighter, ctx.state.warband(cmd.warband).id if cmd.warband else None)
    name = cmd.name.strip()
    if not name:
        raise BadInput("a fighter needs a name")
    band = ctx.state.warbands[fighter.warband]
    if any(f.name.lower() == name.lower() and f.id != fighter.id
           for f in ctx.state.fighters_of(band.id, active_only=False)):
        raise BadInput(f"{band.name} already has a fighter called {name}")
    if name == fighter.name:
        raise BadInput(f"{fighter.name} is already called {name}")
    ctx.emit(ev.FighterRenamed(warband=band.id, fighter=fighter.id, name=name, was=fighter.name))


def enlist_warband(cmd: EnlistWarband, ctx: Context) -> None:
    if not cmd.name.strip() or not cmd.player.strip():
        raise BadInput("a warband needs a name and a player")
    if cmd.treasury < 0:
        raise BadInput("a treasury cannot start below 0")
    if any(w.name.lower() == cmd.name.strip().lower() for w in ctx.state.warbands.values()):
        raise BadInput(f"there is already a warband called {cmd.name}")
    ctx.emit(
        ev.WarbandEnlisted(
            warband=unique_id(cmd.name, ctx.state.warbands),
            name=cmd.name.strip(),
            player=cmd.player.strip(),
            faction=cmd.faction,
            treasury=cmd.treasury,
        )
    )


def recruit_fighter(cmd: RecruitFighter, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    if not cmd.name.strip():
        raise BadInput("a fighter needs a name")
    if cmd.cost < 0 or cmd.group_size < 1:
        raise BadInput("cost cannot be negative and a group has at least 1 member")
    if any(f.name.lower() == cmd.name.strip().lower() for f in ctx.state.fighters_of(band.id)):
        raise BadInput(f"{band.name} already has a fighter called {cmd.name}")
    total = cmd.cost * cmd.group_size
    if cmd.paid and total > band.treasury:
        raise RuleViolation(f"{band.name} has {band.treasury} in the {rulesets.treasury_word(ctx.state)}; {cmd.name} costs {total}")
    ctx.emit(
        ev.FighterRecruited(
            warband=band.id,
            fighter=unique_id(cmd.name, ctx.state.fighters),
            name=cmd.name.strip(),
            role=cmd.role,
            stats=cmd.stats,
            keywords=cmd.keywords,
            equipment=cmd.equipment,
            cost=cmd.cost,
            group_size=cmd.group_size,
        )
    )
    if cmd.paid and total:
        ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-total, reason=f"recruited {cmd.name.strip()}"))


def battle_record(cmd: RecordBattle, ctx: Context) -> ev.BattleRecorded:
    """The checked battle event, for rulesets that add to what recording a battle does."""
    state = ctx.state
    participants = [state.warband(ref).id for ref in cmd.participants]
    if len(set(participants)) != len(participants) or not participants:
        raise BadInput("name each warband that fought once")
    winner = state.warband(cmd.winner).id if cmd.winner else None
    if winner is not None and winner not in participants:
        raise RuleViolation(f"{cmd.winner} did not fight in this battle")
    deeds = []
    for deed in cmd.deeds:
        fighter = state.fighter(deed.fighter)
        if fighter.warband not in participants:
            raise RuleViolation(f"{possessive(fighter.name)} warband did not fight in this battle")
        if not fighter.active:
            raise RuleViolation(f"{fighter.name} is {fighter.status} and cannot fight")
        if fighter.missed_games:
            raise RuleViolation(f"{fighter.name} must miss this battle (injured): leave them out of it")
        took_out = [enemy_id(state, name, fighter) for name in deed.took_out]
        deeds.append(
            ev.Deed(
                fighter=fighter.id,
                out_of_action=deed.out_of_action,
                took_out=took_out,
                glorious_deeds=deed.glorious_deeds,
                notes=deed.notes,
            )
        )
    if len({deed.fighter for deed in deeds}) != len(deeds):
        raise BadInput("give each fighter's deeds once")
    return ev.BattleRecorded(
        battle=state.battles_fought + 1,
        participants=participants,
        winner=winner,
        scenario=cmd.scenario,
        deeds=deeds,
    )


def enemy_id(state: CampaignState, name: str, by: Fighter) -> str:
    """A known enemy fighter's id, or the name as given for an enemy the ledger does not track."""
    enemy = state.fighter_among(name, [f for f in state.fighters.values() if f.warband != by.warband])
    if enemy is None and any(name.lower() in (f.id, f.name.lower()) for f in state.fighters_of(by.warband)):
        raise RuleViolation(f"{by.name} cannot take out {name}, a fighter of the same warband")
    return enemy.id if enemy else name


def record_battle(cmd: RecordBattle, ctx: Context) -> None:
    ctx.emit(battle_record(cmd, ctx))


def award_xp(cmd: AwardXP, ctx: Context) -> None:
    positive(cmd.amount, "an XP award", XP_TAKEN_AWAY)
    fighter = active_fighter(ctx.state, cmd.fighter, cmd.warband)
    ctx.emit(ev.XPAwarded(warband=fighter.warband, fighter=fighter.id, amount=cmd.amount, reason=cmd.reason))


def spend_xp(cmd: SpendXP, ctx: Context) -> None:
    positive(cmd.amount, "XP spent")
    fighter = active_fighter(ctx.state, cmd.fighter, cmd.warband)
    if fighter.xp < cmd.amount:
        raise RuleViolation(f"{fighter.name} has {fighter.xp} XP; {cmd.on} costs {cmd.amount} XP")
    ctx.emit(ev.XPSpent(warband=fighter.warband, fighter=fighter.id, amount=cmd.amount, on=cmd.on))


def _holder(ctx: Context, warband: str, fighter: str | None) -> tuple[str, str | None, list[str]]:
    band = ctx.state.warband(warband)
    if fighter is None:
        return band.id, None, band.stash
    found = active_fighter(ctx.state, fighter, band.id)
    return band.id, found.id, found.equipment


def gain_item(cmd: GainItem, ctx: Context) -> None:
    if not cmd.item.strip():
        raise BadInput("name the item")
    band, fighter, _items = _holder(ctx, cmd.warband, cmd.fighter)
    ctx.emit(ev.ItemGained(warband=band, fighter=fighter, item=cmd.item.strip(), reason=cmd.reason))


def lose_item(cmd: LoseItem, ctx: Context) -> None:
    band, fighter, items = _holder(ctx, cmd.warband, cmd.fighter)
    if cmd.item not in items:
        if fighter:
            raise RuleViolation(f"{ctx.state.fighters[fighter].name} has no {cmd.item}")
        raise RuleViolation(f"{ctx.state.warbands[band].name} has no {cmd.item} in its stash")
    ctx.emit(ev.ItemLost(warband=band, fighter=fighter, item=cmd.item, reason=cmd.reason))


def change_treasury(cmd: ChangeTreasury, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    if cmd.delta == 0:
        raise BadInput("a treasury change of 0 changes nothing")
    if band.treasury + cmd.delta < 0:
        raise RuleViolation(f"{band.name} has {band.treasury} in the {rulesets.treasury_word(ctx.state)}; cannot pay {-cmd.delta}")
    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=cmd.delta, reason=cmd.reason))


STATUS_EVENTS = {"dead": ev.FighterDied, "captured": ev.FighterCaptured, "retired": ev.FighterRetired}


def refuse_correcting_the_dead(fighter: Fighter, status: str | None) -> None:
    """A correction makes no dead fighter captured, retired or dead again: a death entered by mistake is undone
    by voiding what recorded it, which re-decides all that followed."""
    if status is not None and fighter.status == "dead":
        becomes = "dead again" if status == "dead" else status
        raise RuleViolation(f"{fighter.name} is dead: a correction cannot make a dead fighter {becomes}; if the "
                            f"death was recorded by mistake, void it (campaign history {shlex.quote(fighter.name)} "
                            "shows which transaction: campaign void T… --reason …)")


def split_keywords(keywords: Sequence[str]) -> list[str]:
    """Keywords as typed, one or several to an option ("Large,Undead"), one by one."""
    return [part.strip() for keyword in keywords for part in keyword.split(",") if part.strip()]


def keywords_one_by_one(cmd: Correct, ctx: Context) -> Correct:
    """A correction typed now giving keywords several to an option (`--add-keyword "Leader,Fear"`, `--remove-keyword`
    too), read one by one and recorded so (`Context.record_as`): for a ruleset none of whose keywords holds a comma.
    One recorded before with "Leader,Fear" as one keyword decides again as it did; a keyword the fighter holds so
    (recorded before) is taken away whole."""
    if not ctx.typed_now:
        return cmd
    held = ctx.state.fighter(cmd.fighter, ctx.state.warband(cmd.warband).id).keywords
    split = msgspec.structs.replace(cmd, add_keywords=split_keywords(cmd.add_keywords), remove_keywords=[
        part for keyword in cmd.remove_keywords
        for part in ([keyword.strip()] if keyword.strip() in held else split_keywords([keyword]))])
    if split != cmd:
        ctx.record_as(split)
    return split


def correct_keywords_one_by_one(cmd: Correct, ctx: Context) -> None:
    """`correct` in a ruleset none of whose keywords holds a comma (`keywords_one_by_one`)."""
    correct(keywords_one_by_one(cmd, ctx), ctx)


def spelled_stats(stats: Mapping[str, int], known: Sequence[str], whose: str) -> dict[str, int]:
    """`stats` by the rules' names `known` whatever the case typed; one the rules do not name, or one given twice
    ("mel" and "Mel"), is refused. `whose`: the rules' name for the refusal ("WS: not a Speedheim stat (…)")."""
    unknown = [name for name in stats if as_spelled(name, known) is None]
    if unknown:
        raise BadInput(f"{', '.join(unknown)}: not a {whose} stat ({' '.join(known)})")
    spelled = {as_spelled(name, known) or name: value for name, value in stats.items()}
    if len(spelled) < len(stats):
        raise BadInput(f"a stat is given twice: {', '.join(stats)}")
    return spelled


def stats_the_rules_name(cmd: Correct, ctx: Context) -> Correct:
    """A correction typed now changes only the stats its ruleset names (`Terms.stat_order`), in any case, as its
    recruits read them, and is recorded so (`Context.record_as`): it made a second stat "mel" beside Mel, or a Speedheim
    fighter's "WS". One recorded before decides again as recorded; a ruleset that names no stats takes any."""
    ruleset = rulesets.get(ctx.state.ruleset)
    if not ctx.typed_now or not ruleset.terms.stat_order:
        return cmd
    spelled = spelled_stats(cmd.stats, ruleset.terms.stat_order, ruleset.id.title())
    if spelled == cmd.stats:
        return cmd
    cmd = msgspec.structs.replace(cmd, stats=spelled)
    ctx.record_as(cmd)
    return cmd


def correct(cmd: Correct, ctx: Context) -> None:
    """An arbiter's correction. One typed now does not change a dead fighter's status (`refuse_correcting_the_dead`),
    nor a stat its rules do not name (`stats_the_rules_name`); one recorded so before those refusals is decided again
    as recorded."""
    if not cmd.reason.strip():
        raise BadInput("a correction needs a reason")
    cmd = stats_the_rules_name(cmd, ctx)
    band = ctx.state.warband(cmd.warband)
    fighter = ctx.state.fighter(cmd.fighter, band.id)
    if ctx.typed_now:
        refuse_correcting_the_dead(fighter, cmd.status)
    reason = f"correction: {cmd.reason}"
    emitted = len(ctx.events)
    for stat, delta in sorted(cmd.stats.items()):
        if delta:
            ctx.emit(ev.StatChanged(warband=band.id, fighter=fighter.id, stat=stat, delta=delta, reason=reason))
    if cmd.xp > 0:
        ctx.emit(ev.XPAwarded(warband=band.id, fighter=fighter.id, amount=cmd.xp, reason=reason))
    elif cmd.xp < 0:
        if fighter.xp + cmd.xp < 0:
            raise RuleViolation(f"{fighter.name} has {fighter.xp} XP; cannot remove {-cmd.xp}")
        ctx.emit(ev.XPSpent(warband=band.id, fighter=fighter.id, amount=-cmd.xp, on=reason))
    for keyword in cmd.add_keywords:
        ctx.emit(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=keyword, reason=reason))
    for keyword in cmd.remove_keywords:
        if keyword not in fighter.keywords:
            raise RuleViolation(f"{fighter.name} has no keyword {keyword}")
        ctx.emit(ev.KeywordLost(warband=band.id, fighter=fighter.id, keyword=keyword, reason=reason))
    if cmd.status is not None:
        if cmd.status not in STATUS_EVENTS:
            raise BadInput(f"status must be one of: {', '.join(STATUS_EVENTS)}")
        ctx.emit(STATUS_EVENTS[cmd.status](warband=band.id, fighter=fighter.id, reason=reason))
    if len(ctx.events) == emitted:
        raise BadInput("the correction changes nothing")


def bare_roll(cmd: BareRoll, ctx: Context) -> None:
    if not cmd.purpose.strip():
        raise BadInput("say what the roll is for with --for")
    ctx.roll(cmd.expression, cmd.purpose)


def bare_draw(cmd: BareDraw, ctx: Context) -> None:
    """A card drawn outside the rules, from a deck the rules do not draw from: typed now, one from theirs is
    refused (a bare draw recorded before this refusal is decided again as recorded)."""
    if not cmd.purpose.strip():
        raise BadInput("say what the draw is for with --for")
    ruleset = rulesets.get(ctx.state.ruleset)
    if ctx.typed_now and ruleset.decks_drawn_by and cmd.deck in ruleset.decks_of(ctx.state):
        raise RuleViolation(f"{cmd.deck} is a deck the {ruleset.id} rules draw from, each card at its rule: a card "
                            f"drawn outside them would be out of the deck, and every draw after it shift; "
                            f"{ruleset.decks_drawn_by}")
    ctx.draw(cmd.deck, cmd.purpose)


def record_note(cmd: RecordNote, ctx: Context) -> None:
    if not cmd.text.strip():
        raise BadInput("the note is empty")
    band = ctx.state.warband(cmd.warband).id if cmd.warband else None
    ctx.emit(ev.NoteRecorded(text=cmd.text.strip(), warband=band))


def upgrade_rules(cmd: UpgradeRules, ctx: Context) -> None:
    """The switch, refused (typed now) while a warband is part way through a battle's post-game: that
    post-game would be decided partly under one version and partly under the other (a Retinue 1.4.0
    fighter who spent the battle pass's +1 that 1.5.0 holds until the Doom Table would end at -1 XP).
    An upgrade recorded there before this refusal existed is decided again as it was."""
    ruleset = rulesets.get(ctx.state.ruleset)
    versions = list(ruleset.versions)
    current = ctx.version
    if cmd.version not in versions:
        raise BadInput(f"{ctx.state.ruleset} has no version {cmd.version} (versions: {', '.join(versions)})")
    if current in versions and versions.index(cmd.version) <= versions.index(current):
        raise RuleViolation(f"the campaign already plays {ctx.state.ruleset} v{current}: nothing to upgrade to "
                            f"(the newest is v{versions[-1]})")
    part_way = {band.name: where for band in ctx.state.warbands.values()
                if ctx.typed_now and (where := post_game_part_way(ruleset, ctx.state, band))}
    if part_way:
        walks = ", ".join(f"campaign post-game {shlex.quote(name)}" for name in part_way)
        raise RuleViolation(f"{'; '.join(part_way.values())}: a battle's post-game is decided under one version, "
                            f"so finish {'it' if len(part_way) == 1 else 'them'} first ({walks}), then upgrade "
                            f"from v{current} to v{cmd.version}")
    ctx.emit(ev.RulesetUpgraded(version=cmd.version, previous=current))


def post_game_part_way(ruleset: rulesets.Ruleset, state: CampaignState, band: Warband) -> str:
    """Where the warband stands in the guided post-game of its latest battle when it is part way through
    it (some steps recorded, not every step done), the steps named as the walk's headings name them; ""
    when it is not: no battle, no step recorded yet, or every step done."""
    battle = state.latest_battle(band.id)
    if ruleset.post_game is None or battle is None or not rulesets.steps_done(state, band.id, battle.number):
        return ""
    steps = ruleset.post_game(state, band.id)
    left = [step.key for step in steps if not step.done(state, band.id)]
    if not left:
        return ""
    done = [rulesets.step_name(state, step.key) for step in steps if step.key not in left]
    return (f"{band.name} is part way through the post-game of battle {battle.number} "
            f"(done: {', '.join(done)}; next: {rulesets.step_name(state, left[0])})")


SHARED_HANDLERS = {
    EnlistWarband: enlist_warband,
    RecruitFighter: recruit_fighter,
    RenameFighter: rename_fighter,
    RecordBattle: record_battle,
    AwardXP: award_xp,
    SpendXP: spend_xp,
    GainItem: gain_item,
    LoseItem: lose_item,
    ChangeTreasury: change_treasury,
    Correct: correct,
    BareRoll: bare_roll,
    BareDraw: bare_draw,
    RecordNote: record_note,
    UpgradeRules: upgrade_rules,
}
