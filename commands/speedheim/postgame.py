"""Speedheim's post-game steps (shared/rules/speedheim.md §7), each one command, in order for the
warband's latest battle: Income & Loot, Resolve Promotions (before Scars, so a promotee rolls on the
Hero table), Scars and the Blight, one free Improvement Attempt per hero, Learn Skills & Spells, and
Spend Gold (bought Improvement Attempts and hero slots; then `spend-gold` closes the step).

Decisions:
- Update Wins/Losses is done by recording the battle. Income: each Treasure token carried at the end
  (the winner adds 1) rolls a d20, a double-value token 2; gold is their sum + 40g; each natural 20
  gives a Loot roll on the d20 Loot table, whose category goes to the stash (its own table is rolled
  at the table: the public rules' Loot tables are not part of the ledger).
- Learning is done when no Skill/Spell card is left to choose: each choice is its own command
  (`speedheim learn`), and the step has no command of its own (the phase's `done` test says so). The
  choice is asked under `<fighter>.learn` when the command names no Skill, so the walk can be answered
  ahead (`--answer skab.learn=Cleave`, for a hero whose card the free attempts are still to draw too);
  a walk learns each card of each hero with a card to choose for, in one transaction (`LearnEach`), each
  asked under his own key, a hero's second card under `<fighter>.learn.2` ("that hero can learn a new Skill"
  for each card drawn, seed 000). Walks recorded before learned one card of each hero, a second the next run's.
- A promotion that would make a 7th hero asks which hero retires, or `lose the promotion`.
- A warband "must always have a Leader"; "If the Leader dies, another hero gains the `Leader` skill" (rules
  §2): from version 6, when its last Leader dies or is retired to make room for a promotion, the player
  names the hero who gains it (`<leader>.new-leader`; the only hero left gains it unasked), and with no
  hero left the record says the warband has no Leader. Version 5 left it without one, unsaid.
- Blight: Large and Undead units are immune. A Pit Fight (Scar 16) is fought at the table; the
  player answers `<fighter>.pit-fight=won|lost`: a win gives 50g and an Improvement Attempt, a loss the
  keyword Pit Fighter (how many games it then misses is left to the table).
- Learning and Spend Gold are windows of the phase: a Skill is learned after the free attempts and
  before Spend Gold closes the post-game; attempts and hero slots are bought once learning is done.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.text import as_spelled
from commands.kit.phase import Phase, PhaseMessages, PhaseStep, Window
from commands.kit.state import injuries_held
from commands.kit.versions import possessive_since, since
from ledger import events as ev
from ledger.decide import AskChoice, BuildAsk, Command, Context, warriors_named
from ledger.dice import MOST_DICE
from ledger.describe import plural
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband

from . import events as se
from . import rules as r
from .handlers import (
    allowed_to_learn,
    d20_words,
    heroes_of,
    hero_slots,
    IMPROVEMENT_KEYS,
    improvement_attempt,
    is_hero,
    learned_skills,
    member,
    options_for,
    pending,
    promotes_in,
    spells_of,
    succeed_leader,
    tables_for,
)
from .tables import ScarRow

LEARN, BUY = "learn a Skill or Spell", "spend gold"  # the post-game's windows
MAX_TOKENS = 12
INCOME_GOLD = 40
LOSE = "lose the promotion"
BLIGHT_IMMUNE = ("Large", "Undead")
BLIGHTED, DEATHTOUCHED = "Blighted", "Deathtouched"
WON, LOST, PIT_FIGHT_GOLD = "won", "lost", 50
# The Scars step's rolls on a Scars table (`tables.Scars`: hero, henchman, blight), by how their purpose ends.
SCARS_ROLLS = {"Hero Scars": "hero", "Henchman Scars": "henchman", "Blight roll": "blight"}
SCARS_ROLLED = {table: purpose for purpose, table in SCARS_ROLLS.items()}


def answer_choices(state: CampaignState) -> dict[str, list[str]]:
    """Every choice an Improvement's questions and the Pit Fight may offer in this campaign, whatever is drawn or
    rolled: Mel/Rgd is tried as Mel or Rgd, or, with one at its cap, drawn again (rolled again on the d20 table,
    from version 10); the card kept of an Advantage pair is one of the deck's (a row of the d20 table); the Pit
    Fight is won or lost. An answer given ahead that is none of them is refused before the deck is drawn."""
    tables = tables_for(state)
    again = r.words_of(d20=d20_words(state)).again
    kept = ([row.id for row in tables.hero_d20.rows] if options_for(state).improvement == "d20-table"
            else [card.id for card in tables.deck.cards])
    mel_rgd, keep = IMPROVEMENT_KEYS
    return {mel_rgd: ["Mel", "Rgd", again], keep: kept, "FIGHTER.pit-fight": [WON, LOST]}


class Income(Command, frozen=True, kw_only=True, tag="speedheim.income"):
    warband: str
    tokens: int = 0  # Treasure tokens carried at the end of the game (the winner's +1 is added)
    double: int = 0  # of them, double-value tokens (2 dice each)

    answer_keys = ("tokens", "double")  # the guided walk's questions (double: once there are tokens)


class Promotions(Command, frozen=True, kw_only=True, tag="speedheim.promotions"):
    warband: str

    answer_keys = ("promote.FIGHTER", "FIGHTER.new-leader")  # it draws no card: no Improvement question


class Scars(Command, frozen=True, kw_only=True, tag="speedheim.scars"):
    warband: str

    answer_keys = (*IMPROVEMENT_KEYS, "FIGHTER.pit-fight", "FIGHTER.new-leader")


class FreeAttempts(Command, frozen=True, kw_only=True, tag="speedheim.improvement"):
    warband: str

    answer_keys = IMPROVEMENT_KEYS


class Learn(Command, frozen=True, kw_only=True, tag="speedheim.learn"):
    warband: str
    fighter: str
    skill: str = ""  # a Skill of its types, or a Spell of its schools; "": asked (`FIGHTER.learn`)

    answer_keys = ("FIGHTER.learn",)  # asked when no Skill is named (the guided walk names none)


class LearnEach(Command, frozen=True, kw_only=True, tag="speedheim.learn-each"):
    """The guided walk's learning: each Skill/Spell card of each hero with one to choose for, in roster order, a
    hero's second asked under `FIGHTER.learn.2`. Recorded without `every_card`, it learned one card of each hero."""

    warband: str
    every_card: bool = False

    answer_keys = ("FIGHTER.learn", "FIGHTER.learn.N")
    added_later = ("every_card",)


class BuyAttempt(Command, frozen=True, kw_only=True, tag="speedheim.buy-attempt"):
    warband: str
    fighter: str

    answer_keys = IMPROVEMENT_KEYS


class BuyHeroSlot(Command, frozen=True, kw_only=True, tag="speedheim.buy-hero-slot"):
    warband: str


class SpendGold(Command, frozen=True, kw_only=True, tag="speedheim.spend-gold"):
    warband: str


# --- the phase ---------------------------------------------------------------------------------------


def latest_battle(state: CampaignState, band: Warband) -> int:
    battle = PHASE.latest_battle(state, band)
    if battle is None:
        raise RuleViolation(f"{band.name} has not fought a battle yet")
    return battle.number


def learning_left(state: CampaignState, band: Warband) -> list[Fighter]:
    return [f for f in state.fighters_of(band.id) if pending(state, f) > 0]


def _learning_done(state: CampaignState, band: Warband) -> bool:
    """Once the free attempts are done and no card is left to choose; and a closed post-game stays
    closed (a Skill card drawn in the next battle is learned after that one)."""
    recorded = PHASE.recorded(state, band)
    return "improvement" in recorded and ("spend-gold" in recorded or not learning_left(state, band))


def _income(state: CampaignState, warband: str, ask: BuildAsk) -> Command:
    """Asked, or answered ahead (`--answer tokens=N --answer double=N`): with no one to ask, a walk
    took no tokens, and the warband's income went unrolled without a word."""
    tokens = int(ask("Treasure tokens carried at the end of the game (the winner's extra one is added)",
                     [str(n) for n in range(MAX_TOKENS + 1)], key="tokens"))
    double = int(ask(f"Of the {plural(tokens, 'token')}, how many are double-value (2 dice each)?",
                     [str(n) for n in range(tokens + 1)], key="double")) if tokens else 0
    return Income(warband=warband, tokens=tokens, double=double)


def _learn_each(state: CampaignState, warband: str, ask: AskChoice) -> Command:
    """Every card of every hero with one to choose for, in one command, which asks each which Skill (`FIGHTER.learn`,
    `FIGHTER.learn.2`, …): a command for the first hero alone left a third hero's answer given ahead unused (the walk
    does a step once more at most), one for a card of each a hero's second."""
    _heroes_to_learn(state, state.warbands[warband])  # looked ahead to (`post-game --list`) before there are any
    return LearnEach(warband=warband, every_card=True)


def _heroes_to_learn(state: CampaignState, band: Warband) -> list[Fighter]:
    left = learning_left(state, band)
    if not left:
        raise RuleViolation(f"no hero of {band.name} has a Skill or Spell to learn yet")
    return left


def _may_learn(state: CampaignState, warband: str) -> frozenset[str]:
    """Whom a `FIGHTER.learn` answered ahead may name: a unit of the warband (a henchman promoted at the
    promotions step is a hero by then)."""
    return warriors_named(state, state.fighters_of(warband))


def _warband_only(command: type[Command]) -> Callable[[CampaignState, str, AskChoice], Command]:
    return lambda state, warband, ask: command(warband=warband)


PHASE = Phase(
    steps=[
        PhaseStep("income", "Income & Loot", build=_income),
        PhaseStep("promotions", "Resolve Promotions", build=_warband_only(Promotions)),
        PhaseStep("scars", "Scars and the Blight", build=_warband_only(Scars)),
        PhaseStep("improvement", "Free Improvement Attempts", build=_warband_only(FreeAttempts)),
        PhaseStep("learning", "Learn Skills & Spells", build=_learn_each, done=_learning_done,
                  asks_once_opened=LearnEach.answer_keys, opened_for=_may_learn),
        PhaseStep("spend-gold", "Spend Gold", build=_warband_only(SpendGold),
                  before="buy Improvement Attempts (speedheim buy-attempt, 25g, once per hero), hero slots "
                         "(speedheim buy-hero-slot), units (speedheim recruit) and equipment"),
    ],
    windows={LEARN: Window(after="improvement", until="spend-gold"), BUY: Window(after="learning", until="spend-gold")},
    messages=PhaseMessages(
        no_battle="{band} has not fought a battle yet",
        already_done="{band} has already done the {step} step for battle {battle}",
        not_yet="{band} must do the {first} step for battle {battle} first (the post-game goes {order})",
        unfinished="{band} has not finished the post-game of battle {battle}: next is {next} (campaign post-game {quoted})",
    ),
)


def next_step(state: CampaignState, band: Warband) -> str | None:
    return PHASE.next_step(state, band)


def promotes_after(state: CampaignState, band: Warband, fighter: Fighter) -> int | None:
    """The battle after which the henchman promotes, while that is still to come (None: none): once its
    warband has resolved that battle's promotions, it has promoted, or lost the promotion (6 heroes)."""
    battle = promotes_in(state, fighter)
    latest = PHASE.latest_battle(state, band)
    if battle is None or latest is not None and (
            latest.number > battle or latest.number == battle and PHASE.is_done(state, band, "promotions")):
        return None
    return battle


# --- the steps -----------------------------------------------------------------------------------------


def income(cmd: Income, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    battle = PHASE.begin(ctx.state, band, "income")
    negative = [f"--{option} {count}" for option, count in (("tokens", cmd.tokens), ("double", cmd.double)) if count < 0]
    if negative:
        raise BadInput(f"{', '.join(negative)}: tokens cannot be negative")
    if cmd.double > cmd.tokens:
        raise BadInput(f"--double {cmd.double} is more than --tokens {cmd.tokens}: double-value tokens are some of the tokens")
    won = battle.winner == band.id
    dice = cmd.tokens + cmd.double + int(won)
    if dice > MOST_DICE:  # refused so by the roll before, naming neither --tokens nor how many dice it takes
        given = f"--tokens {cmd.tokens}" + (f" --double {cmd.double}" if cmd.double else "")
        raise BadInput(f"{given}: a warband rolls at most {MOST_DICE} Treasure dice (a d20 a token, 2 a double-value one, "
                       f"1 for the winner): these make {dice}")
    # From version 10 one die is "1 Treasure die", in the roll and the treasury's reason; 9 wrote "dice" whatever the count.
    treasure = "Treasure die" if dice == 1 and since(ctx, "10") else "Treasure dice"
    faces = ctx.roll(f"{dice}D20", f"{band.name}: income, {dice} {treasure}").faces if dice else []
    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=sum(faces) + INCOME_GOLD,
                                reason=f"income: {treasure} {sum(faces)} + {INCOME_GOLD}g"))
    for _ in range(faces.count(20)):
        roll = ctx.roll("D20", f"{band.name}: Loot (a natural 20 on a Treasure die)")
        row = r.d20_row(tables_for(ctx.state).loot.rows, roll.value)
        ctx.emit(ev.ItemGained(warband=band.id, item=f"Loot: {row.name}", reason=f"Loot roll {roll.value}"))
    PHASE.finish(ctx, band, battle, "income")


def promotions(cmd: Promotions, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    battle = PHASE.begin(ctx.state, band, "promotions").number
    for fighter in ctx.state.fighters_of(band.id):
        if is_hero(fighter) or promotes_in(ctx.state, fighter) != battle:
            continue
        outcome = r.promotion(len(heroes_of(ctx.state, band)), hero_slots(ctx.state, band))
        retired = None
        if outcome.retire_needed:
            names = [h.name for h in heroes_of(ctx.state, band)]
            choice = ctx.choose(f"promote.{fighter.id}", f"{band.name} would have 7 heroes: retire a hero to promote "
                                f"{fighter.name}, or lose the promotion", [*names, LOSE])
            if choice == LOSE:
                ctx.emit(ev.NoteRecorded(text=f"{possessive_since(ctx, '11', fighter.name)} promotion is lost: 6 heroes",
                                         warband=band.id))
                continue
            retired = member(ctx.state, band, choice)
            ctx.emit(ev.FighterRetired(warband=band.id, fighter=retired.id, reason=f"to make room for {fighter.name}"))
        ctx.emit(ev.FighterPromoted(warband=band.id, fighter=fighter.id, role="hero",
                                    reason=f"promote card drawn in battle {battle}: keeps its unit type and stat line"))
        if outcome.slots != hero_slots(ctx.state, band):
            ctx.emit(se.HeroSlots(warband=band.id, slots=outcome.slots, reason=f"{fighter.name} promoted"))
        if retired is not None:
            succeed_leader(ctx, band, retired, f"retired to make room for {fighter.name}")
    PHASE.finish(ctx, band, battle, "promotions")


def _dies(ctx: Context, band: Warband, fighter: Fighter, reason: str) -> None:
    ctx.emit(ev.FighterDied(warband=band.id, fighter=fighter.id, reason=reason))
    succeed_leader(ctx, band, fighter, "died")


def _blighted(ctx: Context, band: Warband, fighter: Fighter, worse: bool, reason: str) -> None:
    """Blight (Scar 1) on a unit, or the Blight taking hold of a Blighted one (a henchman dies, a hero is
    Deathtouched)."""
    if not worse:
        ctx.emit(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=BLIGHTED, reason=reason))
    elif is_hero(fighter):
        _deathtouched(ctx, band, fighter, reason)
    else:
        _dies(ctx, band, fighter, reason)


def _deathtouched(ctx: Context, band: Warband, fighter: Fighter, reason: str) -> None:
    if DEATHTOUCHED in fighter.keywords:
        _dies(ctx, band, fighter, f"{reason}: Deathtouched a second time")
    else:
        ctx.emit(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=DEATHTOUCHED, reason=reason))


def _scar(ctx: Context, band: Warband, fighter: Fighter, battle: int) -> None:
    """One Scar roll. Lasting harm is an injury (Light Wound, Major Wound); a special rule gained, Blight and
    Deathtouched are keywords; each names its Scar row."""
    tables = tables_for(ctx.state).scars
    table = "hero" if is_hero(fighter) else "henchman"
    roll = ctx.roll("D20", f"{fighter.name}: {SCARS_ROLLED[table]}")
    row = r.d20_row(getattr(tables, table), roll.value)
    effect, reason = row.effect, _scar_reason(table, roll.value, row)
    if effect in ("miss-game", "major-wound"):
        ctx.emit(ev.InjurySuffered(warband=band.id, fighter=fighter.id, injury=row.name, row=row.id,
                                   missed_games=int(effect == "miss-game")))
    if effect == "blight":
        if any(k in BLIGHT_IMMUNE for k in fighter.keywords):
            ctx.emit(ev.NoteRecorded(text=f"{fighter.name} is immune to the Blight ({reason})", warband=band.id))
        else:
            _blighted(ctx, band, fighter, BLIGHTED in fighter.keywords, reason)
    elif effect == "deathtouched":
        _deathtouched(ctx, band, fighter, reason)
    elif effect == "dead":
        _dies(ctx, band, fighter, reason)
    elif effect == "skill":
        ctx.emit(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword=row.skill, reason=reason))
    elif effect == "major-wound":
        wound = r.d20_row(tables.major_wound, ctx.roll("D20", f"{fighter.name}: Major Wound").value)
        stat = wound.stat
        if stat in fighter.stats:
            ctx.emit(ev.StatChanged(warband=band.id, fighter=fighter.id, stat=stat, delta=2,
                                    reason="Major Wound: 2 points worse", row=wound.id))
        else:
            ctx.emit(ev.NoteRecorded(text=f"{fighter.name} has no {stat} (`-`): the Major Wound changes nothing",
                                     warband=band.id))
    elif effect == "pit-fight":
        _pit_fight(ctx, band, fighter, battle)
    elif effect == "attempt-advantage":
        improvement_attempt(ctx, band, ctx.state.fighters[fighter.id], "advantage", battle, advantage=True)


def _pit_fight(ctx: Context, band: Warband, fighter: Fighter, battle: int) -> None:
    """Scar 16: the hero duels the Pit Fighter at the table; the player says how it went. A win gives an
    Improvement Attempt and 50g; a loss makes the hero the new Pit Fighter (a keyword: it misses games
    as the table rules it)."""
    result = ctx.choose(f"{fighter.id}.pit-fight", f"{fighter.name} duels the Pit Fighter (Scar 16)", [WON, LOST])
    if result == LOST:
        ctx.emit(ev.KeywordGained(warband=band.id, fighter=fighter.id, keyword="Pit Fighter", reason="lost the Pit Fight"))
        return
    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=PIT_FIGHT_GOLD, reason=f"{fighter.name} won the Pit Fight"))
    improvement_attempt(ctx, band, ctx.state.fighters[fighter.id], "pit-fight", battle)


def scars(cmd: Scars, ctx: Context) -> None:
    """Every unit of the warband Incapacitated in the game rolls for Scars, then every Blighted unit
    rolls for the Blight."""
    band = ctx.state.warband(cmd.warband)
    battle = PHASE.begin(ctx.state, band, "scars").number
    victims = [e.victim for e in se.incapacitations(ctx.state, battle)]
    for fighter_id in dict.fromkeys(victims):
        fighter = ctx.state.fighters.get(fighter_id)
        if fighter is not None and fighter.warband == band.id and fighter.active:
            _scar(ctx, band, fighter, battle)
    for fighter in ctx.state.fighters_of(band.id):
        if BLIGHTED in fighter.keywords and not any(k in BLIGHT_IMMUNE for k in fighter.keywords):
            roll = ctx.roll("D20", f"{fighter.name}: {SCARS_ROLLED['blight']}")
            row = r.d20_row(tables_for(ctx.state).scars.blight, roll.value)
            if row.effect == "blight-worsens":
                _blighted(ctx, band, fighter, True, _scar_reason("blight", roll.value, row))
            elif row.effect == "cured":
                ctx.emit(ev.KeywordLost(warband=band.id, fighter=fighter.id, keyword=BLIGHTED, reason="cured of the Blight"))
    PHASE.finish(ctx, band, battle, "scars")


def _scar_reason(table: str, value: int, row: ScarRow) -> str:
    """A Scars table's row as the records it makes give it as their reason: "Scar 7: Madness", "Blight roll: Cured"."""
    return f"Blight roll: {row.name}" if table == "blight" else f"Scar {value}: {row.name}"


def roll_meaning(roll: ev.DiceRolled, state: CampaignState) -> str:
    """What a Scars step's roll meant when its row changes nothing (Full Recovery, the Blight's No change), which
    no record after it says: the log showed the roll and nothing of its outcome ("no effect (Scar 12: Full
    Recovery)"). "" for any other roll: what it did is recorded, with the row as its reason."""
    table = SCARS_ROLLS.get(roll.purpose.rpartition(": ")[2])
    if table is None or roll.expression != "D20":  # a free roll's purpose saying so is left out by the core
        return ""
    row = r.d20_row(getattr(tables_for(state).scars, table), roll.value)
    return f"no effect ({_scar_reason(table, roll.value, row)})" if row.effect == "none" else ""


def injuries_now(state: CampaignState, fighter: Fighter) -> list[str]:
    """The injuries a unit has now: a Light Wound (Scar 10) "misses the next game" (rules §7) and no more, so once
    that game is missed it is healed and no roster lists it. Each is one game to miss, and the games are missed
    in turn, so the unit still has as many of them as games it has still to miss: the latest, the earlier ones
    healed. A Major Wound lasts (its stat stays 2 worse)."""
    return injuries_held(fighter, {row.name: 1 for row in tables_for(state).scars.hero if row.effect == "miss-game"})


def free_attempts(cmd: FreeAttempts, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    battle = PHASE.begin(ctx.state, band, "improvement").number
    for hero in heroes_of(ctx.state, band):
        improvement_attempt(ctx, band, ctx.state.fighters[hero.id], "free", battle)
    PHASE.finish(ctx, band, battle, "improvement")


def learn(cmd: Learn, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    fighter = member(ctx.state, band, cmd.fighter)
    if pending(ctx.state, fighter) <= 0:
        raise RuleViolation(f"{fighter.name} has no Skill/Spell card to choose for")
    latest_battle(ctx.state, band)
    PHASE.open_window(ctx.state, band, LEARN)
    _learn_skill(ctx, band, fighter, cmd.skill)


def learn_each(cmd: LearnEach, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    latest_battle(ctx.state, band)
    heroes = _heroes_to_learn(ctx.state, band)
    PHASE.open_window(ctx.state, band, LEARN)
    for hero in heroes:
        cards = pending(ctx.state, hero) if cmd.every_card else 1
        for card in range(1, cards + 1):
            _learn_skill(ctx, band, ctx.state.fighters[hero.id], "", card=card, cards=cards)


def _learn_skill(ctx: Context, band: Warband, fighter: Fighter, skill_named: str, *, card: int = 1, cards: int = 1) -> None:
    """The Skill or Spell `fighter` learns for one of his cards (`card` of the `cards` learned now): `skill_named`,
    or asked (`FIGHTER.learn`, a second card's `FIGHTER.learn.2`)."""
    allowed = allowed_to_learn(ctx.state, fighter)
    key = f"{fighter.id}.learn" + (f".{card}" if card > 1 else "")
    if skill_named:
        ctx.not_asked(key, f"{fighter.name} learns {skill_named}, named as SKILL")
    which = f" (card {card} of {cards})" if cards > 1 else ""
    typed = skill_named or ctx.choose(key, f"{fighter.name} learns a Skill or Spell{which}", allowed)
    skill = as_spelled(typed, allowed)  # "iron will" is Iron Will: a name in another case was refused
    if skill is None and (known := as_spelled(skill_named, [*fighter.skills, *fighter.keywords])) is not None:
        raise RuleViolation(f"{fighter.name} already knows {known}: the same Skill cannot be taken twice")
    if skill is None:
        lists = tables_for(ctx.state).skills
        known_to_the_tables = [name for names in (*lists.skills.values(), *lists.spells.values()) for name in names]
        if as_spelled(typed, known_to_the_tables) is None:  # a slip of the keyboard, not a rule (exit 2)
            raise BadInput(f"no Skill or Spell '{typed}' in the tables ({fighter.name} can learn: "
                           f"{', '.join(allowed) or 'nothing'})")
        innate = next((f"{spell}, the Basic spell of {school}: an Arcane caster has it innately and does not learn it"
                       for school, spell in lists.basic.items() if school in fighter.keywords and as_spelled(typed, [spell])),
                      f"{typed}")
        raise RuleViolation(f"{fighter.name} cannot learn {innate} (can learn: {', '.join(allowed) or 'nothing'})")
    ctx.emit(ev.SkillLearned(warband=band.id, fighter=fighter.id, skill=skill, reason="Skill/Spell card"))


def _spend_gold_window(state: CampaignState, band: Warband) -> int:
    battle = latest_battle(state, band)
    PHASE.open_window(state, band, BUY)
    return battle


def _pay(ctx: Context, band: Warband, price: int, what: str) -> None:
    if band.treasury < price:
        raise RuleViolation(f"{band.name} has {band.treasury}g; {what} costs {price}g")
    ctx.emit(ev.TreasuryChanged(warband=band.id, delta=-price, reason=what))


def buy_attempt(cmd: BuyAttempt, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    battle = _spend_gold_window(ctx.state, band)
    fighter = member(ctx.state, band, cmd.fighter)
    if not is_hero(fighter):
        raise RuleViolation(f"{fighter.name} is a henchman: only heroes make Improvement Attempts")
    if se.FACTS.of(ctx.state).bought_after.get(fighter.id) == battle:
        raise RuleViolation(f"{fighter.name} has bought its Improvement Attempt since battle {battle} (once per hero between games)")
    if options_for(ctx.state).free_attempt_counts_as_bought:
        raise RuleViolation(f"{fighter.name} made its free attempt (option free_attempt_counts_as_bought)")
    _pay(ctx, band, r.IMPROVEMENT_PRICE, f"an Improvement Attempt for {fighter.name}")
    improvement_attempt(ctx, band, fighter, "bought", battle)


def buy_hero_slot(cmd: BuyHeroSlot, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    _spend_gold_window(ctx.state, band)
    slots = hero_slots(ctx.state, band) + 1
    if slots > r.MAX_HERO_SLOTS:
        raise RuleViolation(f"{band.name} has {r.MAX_HERO_SLOTS} hero slots, the most a warband can have")
    _pay(ctx, band, r.HERO_SLOT_PRICES[slots], f"hero slot {slots}")
    ctx.emit(se.HeroSlots(warband=band.id, slots=slots, reason="bought"))


def spend_gold(cmd: SpendGold, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    battle = PHASE.begin(ctx.state, band, "spend-gold").number
    left = learning_left(ctx.state, band)
    if left:
        raise RuleViolation(f"{', '.join(f.name for f in left)} must first choose a Skill or Spell (speedheim learn)")
    PHASE.finish(ctx, band, battle, "spend-gold")
