"""Speedheim commands and their handlers up to the end of a battle: recruiting, Incapacitations and
their draws, recording the battle. The pure rules of `rules.py` run on the ledger: a handler turns
the state into the rules' view (`rules.Unit`), hands the rules `draw`, `roll` and `choose` built on
the context, and emits what they decide. The post-game steps are in `postgame.py`.

Decisions (the rules module's docstring lists the rule readings):

- A fighter's role is `leader`, `hero` or `henchman`; its starting Skills and special rules
  (Animal, Large, a Spellcasting skill such as Divine Magic) are its keywords and never count
  toward the Skill cap; learned Skills and Spells are its skills. A `-` stat is left out of its stats.
- An Incapacitation is recorded the moment it happens (`speedheim incapacitate`, during the battle
  not yet recorded) or with the battle (`speedheim battle --incap`): either way the unit draws then,
  and a hero's stat improves at once. A unit Incapacitated earlier in the battle cannot Incapacitate.
- The deck is the campaign's (`deck_per`, `deck_between_games` name which one): deck ids are
  `improvement`, `improvement:<warband>` and `…:battle-<n>`, each a full copy of the campaign's deck.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any, NamedTuple

import msgspec

from commands.kit.versions import plays
from commands.shared import (Correct, RecordBattle, RecruitFighter, battle_record, correct, enemy_id, keywords_one_by_one,
                             recruit_fighter, refuse_correcting_the_dead, slug, split_keywords, spelled_stats)
from ledger import events as ev
from ledger.decide import Command, Context
from ledger.describe import fighter_name
from ledger.errors import BadInput, RuleViolation
from ledger.state import CampaignState, Fighter, Warband
from ledger.text import as_spelled, possessive

from . import events as se
from . import rules as r
from .options import SpeedheimOptions
from .options import options_for as options_of
from .tables import TABLES, SpeedheimTables

HERO_ROLES, ROLES = ("leader", "hero"), ("leader", "hero", "henchman")
ANIMAL_OR_LARGE = ("Animal", "Large")
STATS = ("Mov", "Mel", "Rgd", "Def", "Agi", "Mrl", "Atk", "Wnd", "Inj", "Prc")
OPTIONAL_STATS = ("Rgd", "Def", "Inj", "Prc")  # those a '-' has a meaning for (rules §1): a recruit may leave them out
# The special rules the rules read by name: from version 3 one typed in another case is recorded as
# the rules spell it ("animal" was no Animal, so it promoted on a Leader card).
KNOWN_KEYWORDS = ("Leader", "Animal", "Large", "Undead", "Berserker", "Fear", "Hatred", "Blighted", "Deathtouched",
                  "Pit Fighter")
DECK = "improvement"
HERO_READS = {"": "no hero half", "Wnd": "+1 Wnd", "Atk": "+1 Atk", "Prc": "+1 Prc", "Inj": "+1 Inj", "Skill": "Skill/Spell",
              "Def": "Def (roll under)", "Mel/Rgd": "Mel/Rgd (roll under)", "Agi": "Agi (roll under)", "Mrl": "Mrl (roll under)"}
HENCHMAN_READS = {"promote": "Promote!", "hero": "Promote if a Hero", "leader": "Promote if a Leader", "": "blank"}


# --- commands ---------------------------------------------------------------------------------------


class Recruit(Command, frozen=True, kw_only=True, tag="speedheim.recruit"):
    warband: str
    name: str
    role: str  # leader, hero or henchman
    stats: dict[str, int] = {}  # base values; leave out a `-` stat
    keywords: list[str] = []  # starting Skills and special rules
    skill_types: list[str] = []  # the Skill types a hero learns from
    equipment: list[str] = []
    cost: int = 0
    paid: bool = True


class Incap(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    fighter: str | None  # None: no unit is credited (a fall)
    victim: str
    kind: str | None = None  # leader, hero or henchman: needed for an enemy the ledger does not track


# The questions an Improvement attempt may ask, depending on the cards drawn (see improvement_attempt).
IMPROVEMENT_KEYS = ("FIGHTER.ATTEMPT.N.mel-rgd", "FIGHTER.ATTEMPT.N.keep")


class Incapacitate(Command, frozen=True, kw_only=True, tag="speedheim.incapacitate"):
    """During the battle: a unit Incapacitated an opponent (it draws now)."""

    warband: str
    fighter: str
    victim: str
    kind: str | None = None

    answer_keys = IMPROVEMENT_KEYS


class RecordSpeedheimBattle(Command, frozen=True, kw_only=True, tag="speedheim.battle"):
    participants: list[str]
    winner: str | None = None
    scenario: str = ""
    absent: list[str] = []  # units that did not fight
    incapacitations: list[Incap] = []  # recorded after the battle, in the order they happened

    answer_keys = IMPROVEMENT_KEYS


class SetModifiers(Command, frozen=True, kw_only=True, tag="speedheim.modifiers"):
    warband: str
    fighter: str
    modifiers: dict[str, int]


# --- the campaign's tables, options and decks ----------------------------------------------------------


def tables_for(state: CampaignState) -> SpeedheimTables:
    """The defaults with the campaign's house-rule tables (a house deck replaces the v0.93 deck)."""
    return TABLES.for_options(state.options)


def options_for(state: CampaignState) -> SpeedheimOptions:
    return options_of(state.options)


def band_deck(options: SpeedheimOptions, warband: str) -> str:
    """The deck's id before its battle: the campaign's deck, or the warband's (`deck_per`)."""
    return DECK + (f":{warband}" if options.deck_per == "warband" else "")


def deck_id(options: SpeedheimOptions, warband: str, battle: int) -> str:
    return band_deck(options, warband) + (f":battle-{battle}" if options.deck_between_games == "reshuffled" else "")


def decks_for(state: CampaignState) -> Mapping[str, list[str]]:
    """Every deck the campaign may draw from now, each a full copy of its deck."""
    return CampaignDecks(state.options, tuple(state.warbands), state.battles_fought + 1)


def deck_order(house_rules: Mapping[str, Any], deck: str) -> list[str] | None:
    """The starting order of one of the campaign's decks (each is a full copy of its deck); None: not one."""
    return [card.id for card in TABLES.for_options(house_rules).deck.cards] if deck.split(":")[0] == DECK else None


class CampaignDecks(Mapping[str, list[str]]):
    """The deck of each `deck_id` for the campaign's options (house rules), the warbands given and
    battles 1 to `battles`, an id found by its parts: listing them all (warbands × battles, with a
    deck per warband and battle) made every decision cost more with each battle fought (0.9 ms at
    200 battles of 14 warbands). Read when first looked up: most decisions draw no card. (The
    options are a mapping the fold replaces, never changes, so the ones given stay the decision's.)"""

    def __init__(self, house_rules: Mapping[str, Any], warbands: tuple[str, ...], battles: int):
        self.house_rules, self.battles = house_rules, battles
        self.warbands_given = warbands

    @cached_property
    def options(self) -> SpeedheimOptions:
        return options_of(self.house_rules)

    @cached_property
    def cards(self) -> list[str]:
        return [card.id for card in TABLES.for_options(self.house_rules).deck.cards]

    @cached_property
    def warbands(self) -> tuple[str, ...]:
        return self.warbands_given if self.options.deck_per == "warband" else ("",)

    @cached_property
    def band_decks(self) -> set[str]:
        return {band_deck(self.options, warband) for warband in self.warbands}

    def __getitem__(self, deck: str) -> list[str]:
        if self.options.deck_between_games != "reshuffled":
            if deck in self.band_decks:
                return self.cards
            raise KeyError(deck)
        # The last ":battle-" is the one deck_id wrote: the number after it holds none.
        band, _separator, battle = deck.rpartition(":battle-")
        number = int(battle) if battle.isascii() and battle.isdigit() and len(battle) < 19 else 0
        if band in self.band_decks and str(number) == battle and 1 <= number <= self.battles:
            return self.cards
        raise KeyError(deck)

    def __iter__(self) -> Iterator[str]:
        ids = (deck_id(self.options, warband, n) for warband in self.warbands for n in range(1, self.battles + 1))
        return iter(dict.fromkeys(ids))

    def __len__(self) -> int:
        return sum(1 for _deck in self)


# --- the rules' view of the state ----------------------------------------------------------------------


def is_hero(fighter: Fighter) -> bool:
    return fighter.role in HERO_ROLES


def kind_of(fighter: Fighter, state: CampaignState) -> str:
    """Leader, hero or henchman, as an Incapacitation reads its victim. From version 3 a hero who
    gained the Leader skill leads (rules §2: "If the Leader dies, another hero gains the `Leader`
    skill"); version 2 read the role alone, which no command changes."""
    if is_hero(fighter) and plays(state, "3") and "Leader" in fighter.keywords:
        return "leader"
    return fighter.role if is_hero(fighter) else "henchman"


def spell_lists(state: CampaignState, tables: SpeedheimTables) -> dict[str, tuple[str, ...]]:
    """Each Spellcasting school's spells a caster may learn: from version 11 not an Arcane school's Basic spell, which
    its casters have innately ("Arcane casters … also have an innate Basic spell", rules §2). Version 10 offered it
    (a Blight Magic caster learned Sewer Filth, and a Skill/Spell card counted it among the spells left)."""
    if not plays(state, "11"):
        return dict(tables.skills.spells)
    return {school: tuple(s for s in spells if s != tables.skills.basic.get(school))
            for school, spells in tables.skills.spells.items()}


def spells_of(state: CampaignState, fighter: Fighter, tables: SpeedheimTables) -> tuple[list[str], list[str]]:
    """(its Spellcasting schools, the spells of those schools it may learn and does not know)."""
    lists = spell_lists(state, tables)
    schools = [k for k in fighter.keywords if k in lists]
    known = set(fighter.skills) | set(fighter.keywords)
    left = [s for school in schools for s in lists[school] if s not in known]
    return schools, list(dict.fromkeys(left))


def learned_skills(fighter: Fighter, tables: SpeedheimTables) -> list[str]:
    spells = {s for names in tables.skills.spells.values() for s in names}
    return [s for s in fighter.skills if s not in spells]


def pending(state: CampaignState, fighter: Fighter) -> int:
    """Skill/Spell cards read and not yet chosen."""
    return se.FACTS.of(state).skill_cards.get(fighter.id, 0) - len(fighter.skills)


def allowed_to_learn(state: CampaignState, fighter: Fighter) -> list[str]:
    """A Skill of the hero's types (none at the Skill cap, never one it has) or a Spell of its schools."""
    tables = tables_for(state)
    schools, _left = spells_of(state, fighter, tables)
    types = se.FACTS.of(state).skill_types.get(fighter.id) or list(tables.skills.skills)
    return r.learnable(types, tables.skills.skills, spell_lists(state, tables), schools, [*fighter.skills, *fighter.keywords],
                       len(learned_skills(fighter, tables)) >= tables.caps.skills)


def unit_of(state: CampaignState, fighter: Fighter, tables: SpeedheimTables) -> r.Unit:
    return r.Unit(
        name=fighter.name,
        hero=is_hero(fighter),
        stats=dict(fighter.stats),
        modifiers=dict(se.FACTS.of(state).modifiers.get(fighter.id, {})),
        animal_or_large=any(k in ANIMAL_OR_LARGE for k in fighter.keywords),
        learned_skills=len(learned_skills(fighter, tables)),
        pending=pending(state, fighter),
        spells_left=len(spells_of(state, fighter, tables)[1]),
        # Version 1 drew a Skill card for a hero with nothing left to learn, whose post-game then
        # waited for a choice that could not be made.
        learnable=len(allowed_to_learn(state, fighter)) if plays(state, "2") else None,
        whole_skill_room=plays(state, "4"),
        says_why=plays(state, "6"),
        pair_is_one_draw=plays(state, "10"),
        d20_words=d20_words(state),
        missing_is_capped=plays(state, "11"),
    )


def d20_words(state: CampaignState) -> bool:
    """Whether a reading words the d20 table as a table ("roll again"), from version 10; else as the deck's cards."""
    return plays(state, "10") and options_for(state).improvement == "d20-table"


def member(state: CampaignState, band: Warband, ref: str) -> Fighter:
    fighter = state.fighter(ref, band.id)
    if not fighter.active:
        raise RuleViolation(f"{fighter.name} is {fighter.status}")
    return fighter


def hero_slots(state: CampaignState, band: Warband) -> int:
    return se.FACTS.of(state).hero_slots.get(band.id, se.STARTING_HERO_SLOTS)


def promotes_in(state: CampaignState, fighter: Fighter) -> int | None:
    """The battle at whose end the henchman promotes (None: it has drawn no promote card it met)."""
    return se.FACTS.of(state).promote_in.get(fighter.id)


def draws_in(state: CampaignState, fighter: Fighter, battle: int) -> bool:
    """Whether an Incapacitation by the unit in `battle` draws: a henchman that promotes at its end "does not
    draw any additional cards from the Improvement Deck for the rest of the battle"."""
    return promotes_in(state, fighter) != battle


def heroes_of(state: CampaignState, band: Warband) -> list[Fighter]:
    return [f for f in state.fighters_of(band.id) if is_hero(f)]


def leads(fighter: Fighter) -> bool:
    """A Leader: a hero recruited as the leader, or one who gained the `Leader` skill (rules §2)."""
    return is_hero(fighter) and (fighter.role == "leader" or "Leader" in fighter.keywords)


def leaders_of(state: CampaignState, band: Warband) -> list[Fighter]:
    return [f for f in heroes_of(state, band) if leads(f)]


def heirs_to(ctx: Context, band: Warband, lost: Fighter, gone: str) -> list[Fighter]:
    """The heroes one of whom gains the `Leader` skill now that `lost` is gone (rules §2: "If the Leader
    dies, another hero gains the `Leader` skill"): none unless he was the warband's last Leader. With no
    hero left to gain it the record says the warband has no Leader (`speedheim status` says how to get one)."""
    if not leads(lost) or leaders_of(ctx.state, band):
        return []
    heirs = heroes_of(ctx.state, band)
    if not heirs:
        ctx.emit(ev.NoteRecorded(text=f"{lost.name}, the Leader, {gone}, and no hero is left to gain the Leader skill: "
                                      f"{band.name} has no Leader", warband=band.id))
    return heirs


def succeed_leader(ctx: Context, band: Warband, lost: Fighter, gone: str) -> None:
    """From version 6, when the warband's last Leader is gone, another hero gains the `Leader` skill, the
    player's pick (`<lost>.new-leader`; the only hero left gains it unasked); with no hero left the record
    says the warband has no Leader. The post-game's (a Scar's death, a retirement for a promotion) and, from
    version 8, an arbiter's correction's."""
    heirs = heirs_to(ctx, band, lost, gone) if plays(ctx.state, "6") else []
    if not heirs:
        return
    names = [f.name for f in heirs]
    heir = heirs[names.index(ctx.choose(f"{lost.id}.new-leader", f"{lost.name}, the Leader of {band.name}, {gone}: "
                                        "which hero gains the Leader skill", names))]
    ctx.emit(ev.KeywordGained(warband=band.id, fighter=heir.id, keyword="Leader",
                              reason=f"{lost.name}, the Leader, {gone}: a warband must always have a Leader"))


GONE = {"dead": "died", "captured": "was captured", "retired": "retired"}  # a correction's status, as a Leader's going


def refuse_henchman_leader(role: str) -> None:
    """A henchman leads nothing (rules §2: the Leader is "a hero with the inherent `Leader` skill")."""
    if role not in HERO_ROLES:
        raise RuleViolation(f"a {role} cannot have the Leader skill: a hero leads (rules §2)")


def refuse_second_leader(state: CampaignState, band: Warband, fighter: Fighter | None = None) -> None:
    """A warband has one Leader: no one (a recruit, or `fighter` of its roster) may lead beside another."""
    if led_by := [f for f in leaders_of(state, band) if fighter is None or f.id != fighter.id]:
        raise RuleViolation(f"{band.name} is led by {led_by[0].name}: a warband has one Leader (rules §2: \"a re-hired "
                            "copy of the old Leader type does not get it\")")


def refuse_what_no_correction_makes(ctx: Context, cmd: Correct, band: Warband, fighter: Fighter) -> None:
    """From version 9 a correction makes no Leader that recruiting could not (a henchman, or a second one
    beside the Leader who stands), and no dead fighter captured, retired or dead again: a death entered by
    mistake is undone by voiding what recorded it, which re-decides all that followed. Version 8 recorded both."""
    if not plays(ctx.state, "9"):
        return
    if any(as_spelled(keyword, KNOWN_KEYWORDS) == "Leader" for keyword in cmd.add_keywords):
        refuse_henchman_leader(fighter.role)
        refuse_second_leader(ctx.state, band, fighter)
    refuse_correcting_the_dead(fighter, cmd.status)


def correct_fighter(cmd: Correct, ctx: Context) -> None:
    """`campaign correct` in a Speedheim campaign. A correction that takes the warband's last Leader (dead,
    captured, retired) leaves a warband that "must always have a Leader" (rules §2) without one: from version 8
    it does the post-game's succession, another hero gaining the Leader skill (the player's pick, answered as
    `<leader>.new-leader`; the only hero left gains it unasked), or, with no hero left, the note that the
    warband has no Leader. Version 7 recorded that note alone and left a hero to be given the skill by hand
    (`--add-keyword Leader`); version 6 recorded the correction alone. What it refuses from version 9:
    `refuse_what_no_correction_makes`."""
    # Recorded split, as recruiting splits them (version 6): one recorded before as "Leader,Fear" stays one keyword.
    cmd = keywords_one_by_one(cmd, ctx)
    band = ctx.state.warband(cmd.warband)
    lost = ctx.state.fighter(cmd.fighter, band.id)
    refuse_what_no_correction_makes(ctx, cmd, band, lost)
    goes = cmd.status in GONE and lost.active  # read before the correction: the fold updates him in place
    correct(cmd, ctx)
    if not goes:
        return
    if plays(ctx.state, "8"):
        succeed_leader(ctx, band, lost, GONE[cmd.status])
    elif plays(ctx.state, "7"):
        heirs_to(ctx, band, lost, GONE[cmd.status])


# --- drawing and reading cards --------------------------------------------------------------------------


def _drawer(ctx: Context, band: Warband, battle: int, purpose: str, henchman: bool) -> r.Draw:
    """The next card of the campaign's deck, or a row of the d20 table (improvement=d20-table)."""
    options, tables = options_for(ctx.state), tables_for(ctx.state)
    # Version 4 shuffled a card in hand back in: an Advantage pair could be one card twice.
    keeps_held = plays(ctx.state, "5")

    def draw(held: Sequence[str] = ()) -> r.Drawn:
        if options.improvement == "d20-table":
            roll = ctx.roll("D20", purpose)
            if henchman:
                hench = r.d20_row(tables.henchman_d20.rows, roll.value)
                return r.Drawn(hench.id, None, hench.henchman, roll=roll.number)
            row = r.d20_row(tables.hero_d20.rows, roll.value)
            return r.Drawn(row.id, row.hero, roll=roll.number)
        deck = deck_id(options, band.id, battle)
        card = tables.card(ctx.draw(deck, purpose, held if keeps_held else ()))
        return r.Drawn(card.id, card.hero, card.henchman, deck=deck, position=ctx.state.decks[deck].drawn)

    return draw


def _roller(ctx: Context) -> r.Roll:
    def roll(purpose: str, dice: int) -> list[int]:
        return ctx.roll(f"{dice}D20" if dice > 1 else "D20", purpose).faces

    return roll


def _card_read(band: Warband, fighter: Fighter, attempt: str, battle: int, reading: r.Reading, hero: bool) -> se.CardRead:
    drawn = reading.drawn
    reads = "" if drawn is None else HERO_READS[drawn.hero or ""] if hero else HENCHMAN_READS[drawn.henchman]
    return se.CardRead(
        warband=band.id, fighter=fighter.id, attempt=attempt, battle=battle, half="hero" if hero else "henchman",
        card=drawn.ref if drawn else "", deck=drawn.deck if drawn else "", position=drawn.position if drawn else None,
        roll=drawn.roll if drawn else None, reads=reads, outcome=reading.outcome, why=reading.why, stat=reading.stat,
        faces=list(reading.faces), target=reading.target,
    )


def improvement_attempt(ctx: Context, band: Warband, fighter: Fighter, attempt: str, battle: int,
                        *, advantage: bool = False, victim: str = "") -> None:
    """A hero draws (redrawing as the caps demand) and improves at once. The player's choices are
    answered under `<fighter>.<victim or attempt>.<draw>.mel-rgd` (or `.keep`), unique in a command."""
    tables, options = tables_for(ctx.state), options_for(ctx.state)
    halves = ([row.hero for row in tables.hero_d20.rows] if options.improvement == "d20-table"
              else [card.hero for card in tables.deck.cards])
    purpose = f"{fighter.name}: Improvement ({attempt})"
    key = f"{fighter.id}.{slug(victim) if victim else attempt}"
    readings = r.improve_hero(unit_of(ctx.state, fighter, tables), _drawer(ctx, band, battle, purpose, False), halves, tables.caps,
                              options, _roller(ctx), ctx.choose, key, advantage=advantage)
    for reading in readings:
        ctx.emit(_card_read(band, fighter, attempt, battle, reading, True))
    final = readings[-1]
    if final.outcome == "improved" and final.stat:
        ref = final.drawn.ref if final.drawn else ""
        source = f"card {ref}" if final.drawn and final.drawn.deck else f"d20 row {ref}"
        ctx.emit(ev.StatChanged(warband=band.id, fighter=fighter.id, stat=final.stat, delta=final.delta,
                                reason=f"Improvement ({attempt}), {source}", row=ref))


def henchman_draw(ctx: Context, band: Warband, fighter: Fighter, victim_kind: str, battle: int) -> None:
    purpose = f"{fighter.name}: Incapacitated a {victim_kind}"
    drawn = _drawer(ctx, band, battle, purpose, True)()
    reading = r.read_henchman(unit_of(ctx.state, fighter, tables_for(ctx.state)), drawn, victim_kind, options_for(ctx.state))
    ctx.emit(_card_read(band, fighter, "incapacitation", battle, reading, False))


# --- handlers ---------------------------------------------------------------------------------------------


def spelled_as_the_rules(ctx: Context, stats: Mapping[str, int], *, negative: bool) -> dict[str, int]:
    """Stats by the rules' names whatever the case typed, from version 3; an unknown one (or, unless
    `negative`, a value below 0) is refused. Version 2 took any name and value as typed."""
    if not plays(ctx.state, "3"):
        return dict(stats)
    spelled = spelled_stats(stats, STATS, "Speedheim")
    if not negative and (below := [f"{name}={value}" for name, value in spelled.items() if value < 0]):
        raise BadInput(f"{', '.join(below)}: a stat is 0 or more (leave a '-' stat out)")
    return spelled


def recruit(cmd: Recruit, ctx: Context) -> None:
    from .postgame import BUY, PHASE  # the phase reads this module's views

    band = ctx.state.warband(cmd.warband)
    if cmd.role not in ROLES:
        raise BadInput(f"a Speedheim unit is a {', a '.join(ROLES)}, not {cmd.role!r}")
    stats, keywords = spelled_as_the_rules(ctx, cmd.stats, negative=False), list(cmd.keywords)
    if ctx.typed_now and plays(ctx.state, "3") and (
            lacking := [stat for stat in STATS if stat not in OPTIONAL_STATS and stat not in stats]):
        # Typed now only: a recruit recorded without them (an empty stat line) decides again as recorded. Version 2
        # took any stat as typed ("mel"), so it is not asked for the rules' names.
        required = [stat for stat in STATS if stat not in OPTIONAL_STATS]
        raise BadInput(f"{cmd.name} lacks {', '.join(lacking)}: a Speedheim unit has each of {', '.join(required[:-1])} and "
                       f"{required[-1]} (a '-' is for {', '.join(OPTIONAL_STATS[:-1])} or {OPTIONAL_STATS[-1]} alone: leave those out)")
    if plays(ctx.state, "6"):  # "Large,Undead" was one keyword, so the unit was neither Large nor Undead
        keywords = split_keywords(keywords)
    if plays(ctx.state, "3"):
        keywords = [as_spelled(keyword, KNOWN_KEYWORDS) or keyword for keyword in keywords]
    if plays(ctx.state, "6"):
        keywords = list(dict.fromkeys(keywords))  # "Animal, animal" is one keyword
        if "Leader" in keywords:
            # It made no Leader (a henchman leads nothing), and let a second one be recruited beside it.
            refuse_henchman_leader(cmd.role)
    if "Large" in keywords and ctx.state.latest_battle(band.id) is None:
        raise RuleViolation(f"{band.name} cannot buy a Large unit at warband creation: only after its first game")
    if plays(ctx.state, "5") and PHASE.next_step(ctx.state, band) is not None:
        # Rules §7 hires units at step 7, Spend Gold: version 4 took a recruit at any step, and a hero
        # hired before step 5 made a free Improvement Attempt for a game it never played.
        PHASE.open_window(ctx.state, band, BUY)
    if cmd.role in HERO_ROLES and len(heroes_of(ctx.state, band)) >= hero_slots(ctx.state, band):
        raise RuleViolation(f"{band.name} has {hero_slots(ctx.state, band)} hero slots, all taken")
    if plays(ctx.state, "6") and (cmd.role == "leader" or "Leader" in keywords):
        # Version 5 took a second one; a succession then never asked, the warband being led.
        refuse_second_leader(ctx.state, band)
    unknown = [t for t in cmd.skill_types if t not in tables_for(ctx.state).skills.skills]
    if unknown:
        raise BadInput(f"no Skill type {', '.join(unknown)} (types: {', '.join(tables_for(ctx.state).skills.skills)})")
    recruit_fighter(RecruitFighter(warband=band.id, name=cmd.name, role=cmd.role, stats=stats,
                                   keywords=keywords, equipment=cmd.equipment, cost=cmd.cost, paid=cmd.paid), ctx)
    if cmd.skill_types:
        fighter = ctx.state.fighter(cmd.name, band.id)
        ctx.emit(se.SkillTypes(warband=band.id, fighter=fighter.id, types=list(cmd.skill_types)))


def set_modifiers(cmd: SetModifiers, ctx: Context) -> None:
    band = ctx.state.warband(cmd.warband)
    fighter = member(ctx.state, band, cmd.fighter)
    modifiers = spelled_as_the_rules(ctx, cmd.modifiers, negative=True)
    ctx.emit(se.Modifiers(warband=band.id, fighter=fighter.id, modifiers=modifiers))


class Checked(NamedTuple):
    """An Incapacitation the rules allow: who made it (None: a fall), the victim's id, and the victim's kind."""

    attacker: Fighter | None
    victim: str
    kind: str


def checked_incapacitation(state: CampaignState, battle: int, participants: list[str], entry: Incap,
                           down: set[str]) -> Checked:
    """The Incapacitation `entry`, refused where the rules do not allow it; `down`: the units Incapacitated before it
    in the battle."""
    attacker = state.fighter(entry.fighter) if entry.fighter else None
    if attacker is not None:
        if attacker.warband not in participants:
            raise RuleViolation(f"{possessive(attacker.name)} warband did not fight in this battle")
        if not attacker.active:
            raise RuleViolation(f"{attacker.name} is {attacker.status}")
        if attacker.id in down:
            raise RuleViolation(f"{attacker.name} was Incapacitated earlier in battle {battle}: it is out of the game")
        if attacker.missed_games:
            raise RuleViolation(f"{attacker.name} must miss this battle (injured)")
    victim_id = enemy_id(state, entry.victim, attacker) if attacker else state.fighter(entry.victim).id
    victim = state.fighters.get(victim_id)
    if victim is not None and victim.warband not in participants:
        raise RuleViolation(f"{possessive(victim.name)} warband did not fight in this battle")
    if victim is not None and (victim.missed_games or not victim.active):
        raise RuleViolation(f"{victim.name} is not in this battle ({victim.status if not victim.active else 'injured: misses it'})")
    if victim_id in down:
        raise RuleViolation(f"{fighter_label(state, victim_id)} is already Incapacitated in battle {battle}")
    kind = kind_of(victim, state) if victim is not None else entry.kind
    if kind not in r.VICTIM_KINDS:
        raise BadInput(f"say whether {entry.victim} is a leader, a hero or a henchman (the ledger does not know it)")
    if victim is not None and entry.kind is not None and entry.kind != kind:
        raise RuleViolation(f"{victim.name} is a {kind}, not a {entry.kind}")
    return Checked(attacker, victim_id, kind)


def incapacitation(ctx: Context, battle: int, participants: list[str], entry: Incap) -> None:
    """Record one Incapacitation and let the unit that made it draw."""
    state = ctx.state
    attacker, victim_id, kind = checked_incapacitation(state, battle, participants, entry,
                                                       {e.victim for e in se.incapacitations(state, battle)})
    victim = state.fighters.get(victim_id)
    credited = attacker or victim  # a fall (no attacker) names a fighter the ledger knows: state.fighter found it
    assert credited is not None
    band = state.warbands[credited.warband]
    draws = attacker is not None and draws_in(state, attacker, battle)
    ctx.emit(se.Incapacitation(warband=band.id, fighter=attacker.id if attacker else None, victim=victim_id,
                               victim_kind=kind, battle=battle, draws=draws))
    if not draws or attacker is None:
        return
    if is_hero(attacker):
        improvement_attempt(ctx, band, attacker, "incapacitation", battle, victim=victim_id)
    else:
        henchman_draw(ctx, band, attacker, kind, battle)


def fighter_label(state: CampaignState, ref: str) -> str:
    found = state.fighters.get(ref)
    return found.name if found else ref


def incapacitate(cmd: Incapacitate, ctx: Context) -> None:
    from .postgame import PHASE  # the phase reads this module's views

    band = ctx.state.warband(cmd.warband)
    attacker = member(ctx.state, band, cmd.fighter)
    battle = ctx.state.battles_fought + 1
    victim = ctx.state.fighters.get(enemy_id(ctx.state, cmd.victim, attacker))
    participants = [band.id] + ([victim.warband] if victim else [])
    PHASE.refuse_unfinished(ctx.state, participants)
    incapacitation(ctx, battle, participants, Incap(fighter=attacker.id, victim=cmd.victim, kind=cmd.kind))


def carry_other_games(ctx: Context, battle: int, participants: list[str],
                      earlier: list[se.Incapacitation]) -> list[se.Incapacitation]:
    """From version 5 a league plays games side by side: the Incapacitations recorded while this
    battle went on by warbands none of whose units met the participants' are another game's, which
    goes on and counts toward the next battle. Version 4 refused the battle (and the other game's
    too), so neither could be recorded. Returns the Incapacitations left to this battle."""
    def warbands_of(entry: se.Incapacitation) -> set[str]:
        return se.game_warbands(ctx.state, entry)

    mine: list[se.Incapacitation] = []
    others: list[se.Incapacitation] = []
    for entry in earlier:
        (mine if warbands_of(entry) & set(participants) else others).append(entry)
    if others:
        warbands = sorted(set().union(*map(warbands_of, others)), key=list(ctx.state.warbands).index)
        ctx.emit(se.GameCarried(warbands=warbands, battle=battle, incapacitations=len(others)))
    return mine


def record_battle(cmd: RecordSpeedheimBattle, ctx: Context) -> None:
    from .postgame import PHASE

    state = ctx.state
    participants = [state.warband(ref).id for ref in cmd.participants]
    PHASE.refuse_unfinished(state, participants)
    battle = state.battles_fought + 1
    absent = {state.fighter(ref).id for ref in cmd.absent}
    earlier = se.incapacitations(state, battle)
    if plays(state, "5"):
        earlier = carry_other_games(ctx, battle, participants, earlier)
    strays = sorted({e.warband for e in earlier} - set(participants))
    if strays:
        raise RuleViolation(f"{', '.join(state.warbands[w].name for w in strays)} recorded Incapacitations in this "
                            "battle: name it as a warband that fought")
    record = RecordBattle(participants=participants, winner=cmd.winner, scenario=cmd.scenario)
    if ctx.typed_now and cmd.incapacitations:
        # Everything is checked before the first draw: a later Incapacitation, an --absent unit in one, or the battle's
        # own record refused after an earlier draw left the ledger's shuffle and cards seen and the battle pending.
        down = {e.victim for e in se.incapacitations(state, battle)}
        pairs = [(e.fighter, e.victim) for e in se.incapacitations(state, battle)]
        for entry in cmd.incapacitations:
            checked = checked_incapacitation(state, battle, participants, entry, down)
            down.add(checked.victim)
            pairs.append((checked.attacker.id if checked.attacker else None, checked.victim))
        refuse_absent_units(state, absent, pairs)
        battle_record(record, ctx)
    for entry in cmd.incapacitations:
        incapacitation(ctx, battle, participants, entry)
    entries = se.incapacitations(ctx.state, battle)
    refuse_absent_units(state, absent, [(e.fighter, e.victim) for e in entries])
    took_out: dict[str, list[str]] = {}
    for e in entries:
        if e.fighter:
            took_out.setdefault(e.fighter, []).append(e.victim)
    down = {e.victim for e in entries}
    deeds = [ev.Deed(fighter=f.id, out_of_action=f.id in down, took_out=took_out.get(f.id, []))
             for band in participants for f in ctx.state.fighters_of(band) if f.id not in absent and not f.missed_games]
    ctx.emit(battle_record(msgspec.structs.replace(record, deeds=deeds), ctx))


def refuse_absent_units(state: CampaignState, absent: set[str], incapacitations: list[tuple[str | None, str]]) -> None:
    """From version 3 a unit that did not fight neither Incapacitated nor was Incapacitated (version 2 took both):
    `incapacitations` are (the unit that made it, or None, and its victim)."""
    if not plays(state, "3"):
        return
    for fighter, victim in incapacitations:
        for unit, did in ((fighter, f"Incapacitated {fighter_name(state, victim)}"), (victim, "was Incapacitated")):
            if unit in absent:
                raise RuleViolation(f"{state.fighters[unit].name} is --absent, yet {did} in this battle")
