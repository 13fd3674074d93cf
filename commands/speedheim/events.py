"""Speedheim's own events, and their fold into `ext` of the state.

The shared vocabulary carries every consequence: `card.drawn` and `deck.shuffled` (the deck),
`dice.rolled` (checks, d20 tables, Scars), `stat.changed`, `skill.learned`, `keyword.gained`
(special rules from Scars, Blighted, Deathtouched), `injury.suffered`, `fighter.promoted`,
`fighter.died`, `fighter.retired`, `treasury.changed`, `item.gained` and `post-game.step-done`.
An event here records what has no shared name:

- `speedheim.incapacitation`: a unit Incapacitated an opponent, with whom and whether a Leader, a
  Hero or a henchman — recorded the moment it happens, during the battle, while the shared
  `battle.recorded` (with its deeds) comes only at the end;
- `speedheim.game-carried`: a battle was recorded while other warbands' game went on, so that game's
  Incapacitations so far count toward the next battle (battles are numbered as they are recorded);
- `speedheim.card-read`: what one card (or d20 row) meant for the unit that drew it: the card, the
  deck position it came from, the half read, the outcome (improved, check failed, redraw and why,
  Skill pending, promote at the end of the battle, nothing) — `card.drawn` names the card only,
  and the audit trail must explain each improvement and each redraw;
- `speedheim.hero-slots`: the warband's hero slots (3 to start, +1 on a promotion, bought up to 6);
- `speedheim.skill-types`: the Skill types a hero may learn from (its row of the warband's table);
- `speedheim.modifiers`: equipment modifiers of a unit's stats, read by `check_against=modified`.
"""

from __future__ import annotations

from commands.kit.state import Facts, Folds, RulesetFacts
from ledger import events as ev
from ledger.describe import because, fighter_name, signed, warband_name
from ledger.state import CampaignState
from ledger.text import ordinal, possessive

from .options import ID, options_for

def draws_no_more(state: CampaignState) -> str:
    """What a henchman that promotes at the end of the battle no longer does: draw cards, or on the d20 table
    (`improvement=d20-table`), which no card is drawn from, roll."""
    return "rolls no more on the d20 table" if options_for(state.options).improvement == "d20-table" else "draws no more cards"


@ev.event_type
class Incapacitation(ev.Event, frozen=True, kw_only=True, tag="speedheim.incapacitation"):
    warband: str  # the warband of the unit that Incapacitated (of the victim, when no unit is credited)
    fighter: str | None  # the unit that Incapacitated; None: no unit is credited (a fall)
    victim: str  # a fighter id, or the name of an enemy the ledger does not track
    victim_kind: str  # leader, hero or henchman
    battle: int
    draws: bool = True  # False: a henchman that will promote at the end of this battle draws no more

    def describe(self, state: CampaignState) -> str:
        victim = f"{fighter_name(state, self.victim)}, a {self.victim_kind},"
        if self.fighter is None:
            return f"{victim} was Incapacitated {self._in_which_battle(state)} (no unit credited)"
        why = "" if self.draws else f" (promotes at the end of the battle: {draws_no_more(state)})"
        return f"{fighter_name(state, self.fighter)} Incapacitated {victim} {self._in_which_battle(state)}{why}"

    def _in_which_battle(self, state: CampaignState) -> str:
        """"in battle 2" once that battle is recorded. Before, "in the game toward battle 2": the
        battle recorded next, unless another game going on beside this one is recorded first, making
        this one's the battle after (`speedheim.game-carried`); a log row is worded with the state of
        its own transaction, which cannot know which."""
        counted = FACTS.of(state).incapacitations
        battle = next((n for n in range(self.battle, state.battles_fought + 2) if self in counted.get(str(n), ())),
                      self.battle)
        if battle <= state.battles_fought:
            return f"in battle {battle}"
        mine = game_warbands(state, self)
        others = {band for entry in counted.get(str(battle), ())
                  if not (theirs := game_warbands(state, entry)) & mine for band in theirs}
        if not others:
            return f"in the game toward battle {battle}"

        def names(bands: set[str]) -> str:
            return " and ".join(warband_name(state, band) for band in state.warbands if band in bands)
        return f"in the game of {names(mine)} toward battle {battle}, beside that of {names(others)}"


@ev.event_type
class GameCarried(ev.Event, frozen=True, kw_only=True, tag="speedheim.game-carried"):
    """Another game was recorded first while these warbands' game went on: its Incapacitations so far
    (numbered `battle`, the next battle when they happened) count toward the battle after it."""

    warbands: list[str]
    battle: int  # the battle recorded first
    incapacitations: int

    def describe(self, state: CampaignState) -> str:
        names = " and ".join(warband_name(state, w) for w in self.warbands)
        so_far = ("the Incapacitation of their game so far counts" if self.incapacitations == 1
                  else f"the {self.incapacitations} Incapacitations of their game so far count")
        return f"{names} are still playing: {so_far} toward battle {self.battle + 1}, since battle {self.battle} was recorded first"

    def carries(self, battle: int, warbands: set[str]) -> bool:
        """Whether a transaction recorded while battle `battle` was played, naming `warbands`, is of the
        game this moves on to the next battle, as its fold moves that game's Incapacitations: what the
        core's views of a battle read to show it with that battle (`ledger.fold.battle_views`)."""
        return battle == self.battle and bool(warbands) and warbands <= set(self.warbands)


@ev.event_type
class CardRead(ev.Event, frozen=True, kw_only=True, tag="speedheim.card-read"):
    warband: str
    fighter: str
    attempt: str  # incapacitation, free, bought, advantage (a Scar 20), pit-fight (a Pit Fight won)
    battle: int
    half: str  # hero or henchman
    card: str = ""  # the card id, or the d20 row; empty when no card was drawn
    deck: str = ""  # the deck it came from (empty: the d20 table)
    position: int | None = None  # its place in the deck since the last shuffle, from 1
    roll: int | None = None  # the d20 table roll, under improvement=d20-table
    reads: str = ""  # the half as printed, e.g. Mel/Rgd, Promote if a Leader
    outcome: str  # improved, failed, redraw, skill, promote, nothing, set-aside
    why: str
    stat: str | None = None
    faces: list[int] = []  # the check's d20
    target: int | None = None

    def describe(self, state: CampaignState) -> str:
        who = fighter_name(state, self.fighter)
        if not self.card:
            return f"{who}: {self.why}"
        if self.deck:
            read = f"the {self.half} half of card {self.card} ({ordinal(self.position or 0)} from the top of {self.deck})"
        else:  # a d20 table's row has no halves: the table is the hero's (the seed's) or the henchman's
            table = "Hero Improvement Table" if self.half == "hero" else "henchman d20 table"
            read = f"row {self.card} of the {table} (R{self.roll})"
        if self.reads == "blank":  # the henchman half as the deck usually has it; its why said "blank henchman half"
            return f"{who} reads {read}, which is blank: it does not promote"
        return f"{who} reads {read}, {self.reads or 'blank'}: {self.why}"


@ev.event_type
class HeroSlots(ev.Event, frozen=True, kw_only=True, tag="speedheim.hero-slots"):
    warband: str
    slots: int  # after the change
    reason: str

    def describe(self, state: CampaignState) -> str:
        return f"{warband_name(state, self.warband)} has {self.slots} hero slots{because(self.reason, state)}"


@ev.event_type
class SkillTypes(ev.Event, frozen=True, kw_only=True, tag="speedheim.skill-types"):
    warband: str
    fighter: str
    types: list[str]

    def describe(self, state: CampaignState) -> str:
        return f"{fighter_name(state, self.fighter)} learns Skills of the types {', '.join(self.types)}"


@ev.event_type
class Modifiers(ev.Event, frozen=True, kw_only=True, tag="speedheim.modifiers"):
    warband: str
    fighter: str
    modifiers: dict[str, int]  # stat -> what equipment adds to the base value

    def describe(self, state: CampaignState) -> str:
        shown = ", ".join(f"{stat} {signed(n)}" for stat, n in sorted(self.modifiers.items())) or "none"
        return f"{possessive(fighter_name(state, self.fighter))} equipment modifiers: {shown}"


class SpeedheimFacts(RulesetFacts, kw_only=True):
    """What only Speedheim keeps, by fighter or warband id."""

    skill_cards: dict[str, int] = {}  # Skill/Spell cards read (pending = these - skills learned)
    promote_in: dict[str, int] = {}  # the battle at whose end a henchman promotes
    bought_after: dict[str, int] = {}  # the battle after which a hero bought its Improvement Attempt
    skill_types: dict[str, list[str]] = {}
    modifiers: dict[str, dict[str, int]] = {}
    hero_slots: dict[str, int] = {}  # by warband; 3 until it changes
    # Every battle's Incapacitations (battle number as text), in order: a warband's Scars may be rolled
    # after other warbands have fought again, and the battle in progress has no core record yet.
    incapacitations: dict[str, list[Incapacitation]] = {}


FACTS = Facts(ID, SpeedheimFacts)
FOLDS = Folds(FACTS)
STARTING_HERO_SLOTS = 3


@FOLDS.on(Incapacitation)
def _incapacitation(facts: SpeedheimFacts, event: Incapacitation, state: CampaignState) -> None:
    facts.incapacitations.setdefault(str(event.battle), []).append(event)


@FOLDS.on(GameCarried)
def _game_carried(facts: SpeedheimFacts, event: GameCarried, state: CampaignState) -> None:
    left, carried = [], []
    for entry in facts.incapacitations.get(str(event.battle), []):
        (carried if entry.warband in event.warbands else left).append(entry)
    facts.incapacitations[str(event.battle)] = left
    facts.incapacitations[str(event.battle + 1)] = carried + facts.incapacitations.get(str(event.battle + 1), [])
    for fighter, battle in list(facts.promote_in.items()):
        if battle == event.battle and state.fighters[fighter].warband in event.warbands:
            facts.promote_in[fighter] = battle + 1


@FOLDS.on(CardRead)
def _card_read(facts: SpeedheimFacts, event: CardRead, state: CampaignState) -> None:
    if event.outcome == "skill":
        facts.skill_cards[event.fighter] = facts.skill_cards.get(event.fighter, 0) + 1
    elif event.outcome == "promote":
        facts.promote_in[event.fighter] = event.battle
    if event.attempt == "bought":
        facts.bought_after[event.fighter] = event.battle


@FOLDS.on(HeroSlots)
def _hero_slots(facts: SpeedheimFacts, event: HeroSlots, state: CampaignState) -> None:
    facts.hero_slots[event.warband] = event.slots


@FOLDS.on(SkillTypes)
def _skill_types(facts: SpeedheimFacts, event: SkillTypes, state: CampaignState) -> None:
    facts.skill_types[event.fighter] = list(event.types)


@FOLDS.on(Modifiers)
def _modifiers(facts: SpeedheimFacts, event: Modifiers, state: CampaignState) -> None:
    facts.modifiers[event.fighter] = dict(event.modifiers)


def game_warbands(state: CampaignState, entry: Incapacitation) -> set[str]:
    """The warbands an Incapacitation shows to be playing one game: its unit's, and its victim's."""
    victim = state.fighters.get(entry.victim)
    return {entry.warband} | ({victim.warband} if victim else set())


def incapacitations(state: CampaignState, battle: int) -> list[Incapacitation]:
    """The Incapacitations of a battle (the one in progress too), in the order recorded."""
    return list(FACTS.of(state).incapacitations.get(str(battle), []))
