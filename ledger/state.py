"""Campaign state and the pure fold over the shared vocabulary.

`evolve(state, event)` is total: an event naming a warband or fighter the state does not know
changes nothing rather than failing, so any history can be folded. For speed it updates the
state it is given and returns it; callers that need the old state fold a `copy()`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import Any

import msgspec

from ledger import events as ev
from ledger.errors import BadInput, NewerVersion, NotFound
from ledger.records import LARGEST_NUMBER, Record, beyond_records
from ledger.text import possessive


class Fighter(msgspec.Struct, kw_only=True):
    id: str
    warband: str
    name: str
    role: str
    stats: dict[str, int] = {}
    xp: int = 0
    keywords: list[str] = []
    skills: list[str] = []
    injuries: list[str] = []
    equipment: list[str] = []
    cost: int = 0
    group_size: int = 1
    status: str = "active"  # active, dead, captured, retired
    games: int = 0
    missed_games: int = 0
    ext: dict[str, Any] = {}  # a ruleset's own per-fighter facts

    @property
    def active(self) -> bool:
        return self.status == "active"


class PostGame(msgspec.Struct, kw_only=True):
    """The guided post-game steps a warband has done for one battle, in the order done."""

    battle: int
    done: list[str] = []


class Warband(msgspec.Struct, kw_only=True):
    id: str
    name: str
    player: str
    faction: str = ""
    treasury: int = 0
    stash: list[str] = []
    fighters: list[str] = []  # fighter ids in recruitment order
    games: int = 0
    wins: int = 0
    # Only the battle of the latest step done is kept: the rules ask about the latest battle, and
    # a snapshot stays small however many battles the warband fights.
    post_game: PostGame | None = None
    ext: dict[str, Any] = {}


class Battle(msgspec.Struct, kw_only=True):
    number: int
    participants: list[str]
    winner: str | None
    scenario: str
    tx: int
    # Who fought, who was taken out of action, whom each took out, their glorious deeds: every
    # ruleset's post-game reads them (projections.battles).
    deeds: list[ev.Deed] = []


class Deck(msgspec.Struct, kw_only=True):
    id: str
    draw_pile: list[str] = []  # next card first; empty for a physical deck
    discards: list[str] = []
    drawn: int = 0


class Pending(msgspec.Struct, kw_only=True):
    """A transaction stopped half-way with its dice: what it waits for, and what it blocks."""

    opened_at: int  # position of the transaction's command.recorded (the decision follows it)
    question: str = ""
    prompt: str = ""
    options: list[str] = []
    warband: str | None = None


# The shape of the state a snapshot holds. A snapshot of another shape (taken by an older version of
# the ledger) is not used: loading folds the events instead, and the next snapshot has this shape.
STATE_SCHEMA = 9  # 3: deeds are kept only for a battle that is still the latest of one of its warbands;
# 4: trench-crusade keeps its facts typed in ext["trench-crusade"]; 5: so does coreheim, in ext["coreheim"];
# 6: a count of the battles and only the latest battle of each warband (`latest_battles`), not every battle;
# 7: coreheim keeps the battle in whose post-game a group's Talent! promoted (a snapshot of 6 lacks it);
# 8: trench-crusade keeps the enemy warband a Dark Memory or Prominent Scar is against (`trauma_against`);
# 9: coreheim keeps the prices a warband rolled for items priced with dice (`prices`, version 9) and its
# reinforcement roll held for a later `reinforce` (version 10), and the rare items it found and bought (`found.bought`)


class CampaignState(msgspec.Struct, kw_only=True):
    schema: int = STATE_SCHEMA
    campaign_id: str = ""
    name: str = ""
    ruleset: str = ""
    ruleset_version: str = ""
    options: dict[str, Any] = {}
    warbands: dict[str, Warband] = {}
    fighters: dict[str, Fighter] = {}
    battles_fought: int = 0  # battles standing (a voided one is not folded): the next is numbered one more
    # Only the battles that are still the latest of one of their warbands, in the order fought: the
    # rules ask about a warband's latest battle, and the state (copied by every command, encoded by
    # every snapshot) stays the same size however many battles are fought. Views that list every
    # battle read them from the history (Ledger.battles, ledger.fold.standing_battles).
    latest_battles: list[Battle] = []
    decks: dict[str, Deck] = {}
    # A ruleset's own campaign-wide facts: read from JSON as that JSON (msgspec.Raw), which the
    # ruleset's `Facts.of` types when first asked, so that loading a campaign does not decode a
    # ruleset's history of facts that its command never reads (coreheim's ratings at every battle).
    ext: dict[str, msgspec.Raw] = {}
    # Ledger bookkeeping, counted over every event including voided ones.
    position: int = 0
    transactions: int = 0
    rolls: int = 0
    epoch: int = 0
    commitment: str = ""
    revealed: dict[str, str] = {}  # epoch (as text) -> seed hex
    voided: dict[str, str] = {}  # transaction number (as text) -> reason
    pending: dict[str, Pending] = {}  # transaction number (as text) -> the decision it waits for
    head: str = "0" * 64
    current_tx: int = 0  # the transaction being folded (lets evolve record where a battle came from)

    def copy(self) -> CampaignState:
        return _STATE_DECODER.decode(msgspec.json.encode(self))

    # --- lookups that read as the rules do ---------------------------------------------------

    def latest_battle(self, warband: str) -> Battle | None:
        """The warband's latest battle (None: it has fought none)."""
        return next((b for b in reversed(self.latest_battles) if warband in b.participants), None)

    def warband(self, ref: str) -> Warband:
        found = self.warbands.get(ref) or next(
            (w for w in self.warbands.values() if w.name.lower() == ref.lower()), None
        )
        if found is None:
            known = ", ".join(w.name for w in self.warbands.values()) or "none yet"
            raise NotFound(f"no warband '{ref}' in this campaign (warbands: {known})")
        return found

    def fighter(self, ref: str, warband: str | None = None) -> Fighter:
        by_id = self.fighters.get(ref)  # fighters are kept by id: what most commands name them by
        if by_id is not None and (warband is None or by_id.warband == warband):
            return by_id
        found = self.fighter_among(ref, [f for f in self.fighters.values() if warband is None or f.warband == warband])
        if found is None:
            raise NotFound(self.no_fighter(ref, warband))
        return found

    def no_fighter(self, ref: str, warband: str | None) -> str:
        """How a fighter `ref` not found in `warband` is refused: "no fighter 'Snikch' in Reikland Rats: Snikch
        is in Clan Skrit" (the warband he is in named, if one has him)."""
        return f"no fighter '{ref}'{self._where_else(ref, warband)}"

    def _where_else(self, ref: str, warband: str | None) -> str:
        """Where a fighter not found in `warband` is: in it not, and in which other warband, if one has him."""
        if warband not in self.warbands:
            return ""
        other = next((f for f in self.fighters.values() if ref.lower() in (f.id, f.name.lower())), None)
        elsewhere = f": {other.name} is in {self.warbands[other.warband].name}" if other and other.warband in self.warbands else ""
        return f" in {self.warbands[warband].name}{elsewhere}"

    def fighter_among(self, ref: str, candidates: list[Fighter]) -> Fighter | None:
        """The candidate with this id, else the one with this name (None: no such one); a name several
        candidates share is refused naming them (picking one would act on a fighter nobody chose)."""
        found = next((f for f in candidates if f.id == ref), None)
        named = [f for f in candidates if f.name.lower() == ref.lower()]
        if found is None and len(named) > 1:
            which = ", ".join(f"{f.id} ({self.warbands[f.warband].name if f.warband in self.warbands else f.warband}"
                              f"{'' if f.active else ', ' + f.status})" for f in named)
            raise BadInput(f"{len(named)} fighters are called {ref}: {which}; give the id of the one you mean")
        return found or next(iter(named), None)

    def fighters_of(self, warband: str, *, active_only: bool = True) -> list[Fighter]:
        band = self.warbands.get(warband)
        if band is None:
            return []
        fighters = self.fighters
        if active_only:  # one pass: a rating (every transaction of a rebuild) lists a warband's fighters
            return [f for fid in band.fighters if (f := fighters.get(fid)) is not None and f.active]
        return [fighters[f] for f in band.fighters if f in fighters]


# True while a command typed now is decided (not one recorded, decided again): see `refuse_hidden_ids`.
TYPED_NOW: ContextVar[bool] = ContextVar("typed_now", default=False)


def refuse_hidden_ids(state: CampaignState, event: ev.Event) -> None:
    """Refuse a name that would be one fighter's (or warband's) id and another's name: a renamed
    Gunnar ("Old Gunnar") keeps the id `gunnar`, so 'xp award gunnar' meant for a new hero called
    gunnar went to him (a name is looked up as an id first). Checked in commands typed now, where a
    name is given; a recorded command decides again as it did."""
    if isinstance(event, ev.WarbandEnlisted):
        holder = state.warbands.get(event.name.lower())
        if holder is not None and holder.name.lower() != event.name.lower():
            raise BadInput(f"'{event.name}' is the id of the warband {holder.name}: a warband called so would be "
                           "taken for it; choose another name")
    elif isinstance(event, ev.FighterRecruited | ev.FighterRenamed):
        holder = state.fighters.get(event.name.lower())
        if holder is not None and holder.id != event.fighter and holder.name.lower() != event.name.lower():
            raise BadInput(f"'{event.name}' is the id of {holder.name}: a fighter called so would be taken for him; "
                           "choose another name")


def refuse_totals_past_the_limit(state: CampaignState, event: ev.Event) -> None:
    """Refuse XP or a treasury change that would carry its total past what a record holds: each amount is
    checked when sealed, and the total was not (9007199254740991 XP and three awards of 1 made 9007199254740994).
    Checked in commands typed now; a recorded campaign that holds such a total decides again as it did."""
    if isinstance(event, ev.XPAwarded | ev.XPSpent):
        if (fighter := _fighter(state, event.fighter)) is None:
            return
        held, change, what = fighter.xp, event.amount if isinstance(event, ev.XPAwarded) else -event.amount, \
            f"{possessive(fighter.name)} XP"
    elif isinstance(event, ev.TreasuryChanged):
        if (band := state.warbands.get(event.warband)) is None:
            return
        from ledger.rulesets import treasury_word  # noqa: PLC0415 - the rulesets module imports this one

        held, change, what = band.treasury, event.delta, f"{possessive(band.name)} {treasury_word(state)}"
    else:
        return
    if abs(total := held + change) > LARGEST_NUMBER:
        raise BadInput(f"{what} would be {total} ({held} {change:+}), {beyond_records(total)}")


_STATE_DECODER = msgspec.json.Decoder(CampaignState)


# How `encode_state` begins a state of this shape (`schema` is its first field). Any other start is
# an older version's (one from before the schema was recorded has none): read by its prefix, not by
# decoding the whole state twice.
_OWN_SHAPE = b'{"schema":%d,' % STATE_SCHEMA


def encode_state(state: CampaignState) -> bytes:
    return msgspec.json.encode(state)


def decode_state(data: bytes) -> CampaignState | None:
    """A snapshot's state, or None when it has the shape of an older version of the ledger."""
    return decode_own(data) if data.startswith(_OWN_SHAPE) else None


def decode_own(data: bytes) -> CampaignState:
    """A state this version of the ledger encoded itself (its shape is known)."""
    return _STATE_DECODER.decode(data)


RulesetEvolve = Callable[[CampaignState, ev.Event], None]


def _fighter(state: CampaignState, fighter_id: str | None) -> Fighter | None:
    return state.fighters.get(fighter_id) if fighter_id else None


def _started(s: CampaignState, e: ev.CampaignStarted) -> None:
    s.campaign_id, s.name = e.campaign_id, e.name


def _pinned(s: CampaignState, e: ev.RulesetPinned) -> None:
    _check_version_known(s.name, e.ruleset, e.version)
    s.ruleset, s.ruleset_version, s.options = e.ruleset, e.version, dict(e.options)


def _upgraded(s: CampaignState, e: ev.RulesetUpgraded) -> None:
    _check_version_known(s.name, s.ruleset, e.version)
    s.ruleset_version = e.version


def _check_version_known(campaign: str, ruleset: str, version: str) -> None:
    """A version of its rules this ledger does not have was played as the first it has (a downgrade)."""
    from ledger import rulesets  # deferred: the rulesets are made of states

    versions = rulesets.get(ruleset).versions
    if version not in versions:
        raise NewerVersion(f"campaign '{campaign}' plays {ruleset} v{version}, and this campaign-ledger knows "
                           f"v{', v'.join(versions)}: it was recorded by a newer campaign-ledger; upgrade to open it")


def _committed(s: CampaignState, e: ev.SeedCommitted) -> None:
    s.epoch, s.commitment = e.epoch, e.commitment


def _revealed(s: CampaignState, e: ev.SeedRevealed) -> None:
    s.revealed[str(e.epoch)] = e.seed


def _voided(s: CampaignState, e: ev.TransactionVoided) -> None:
    s.voided[str(e.target)] = e.reason
    s.pending.pop(str(e.target), None)


def _pending(s: CampaignState, e: ev.DecisionPending) -> None:
    s.pending[str(s.current_tx)] = Pending(
        opened_at=s.position - 1, question=e.question, prompt=e.prompt, options=list(e.options), warband=e.warband
    )


def _answered(s: CampaignState, e: ev.DecisionAnswered) -> None:
    s.pending.pop(str(e.target), None)


def _rolled(s: CampaignState, e: ev.DiceRolled) -> None:
    s.rolls = max(s.rolls, e.roll + 1)


def _shuffled(s: CampaignState, e: ev.DeckShuffled) -> None:
    s.decks[e.deck] = Deck(id=e.deck, draw_pile=list(e.cards), discards=[], drawn=0)


def _drawn(s: CampaignState, e: ev.CardDrawn) -> None:
    deck = s.decks.setdefault(e.deck, Deck(id=e.deck))
    if e.card in deck.draw_pile:
        deck.draw_pile.remove(e.card)
    deck.discards.append(e.card)
    deck.drawn += not e.held


def _enlisted(s: CampaignState, e: ev.WarbandEnlisted) -> None:
    s.warbands[e.warband] = Warband(
        id=e.warband, name=e.name, player=e.player, faction=e.faction, treasury=e.treasury
    )


def _renamed(s: CampaignState, e: ev.FighterRenamed) -> None:
    if e.fighter in s.fighters:
        s.fighters[e.fighter].name = e.name


def _recruited(s: CampaignState, e: ev.FighterRecruited) -> None:
    band = s.warbands.get(e.warband)
    if band is None:
        return
    s.fighters[e.fighter] = Fighter(
        id=e.fighter,
        warband=e.warband,
        name=e.name,
        role=e.role,
        stats=dict(e.stats),
        xp=e.xp,
        keywords=list(e.keywords),
        equipment=list(e.equipment),
        cost=e.cost,
        group_size=e.group_size,
    )
    band.fighters.append(e.fighter)


def battle_of(e: ev.BattleRecorded, tx: int) -> Battle:
    """The battle the event records in transaction `tx`, with the deeds recorded with it."""
    return Battle(number=e.battle, participants=list(e.participants), winner=e.winner, scenario=e.scenario, tx=tx,
                  deeds=list(e.deeds))


def _battle(s: CampaignState, e: ev.BattleRecorded) -> None:
    s.battles_fought += 1
    s.latest_battles.append(battle_of(e, s.current_tx))
    # A battle every one of whose warbands has fought again is no rule's concern any more.
    s.latest_battles = [b for b in s.latest_battles if any(s.latest_battle(w) is b for w in b.participants)]
    for warband_id in e.participants:
        band = s.warbands.get(warband_id)
        if band is not None:
            band.games += 1
            band.wins += int(e.winner == warband_id)
    fought = {deed.fighter for deed in e.deeds}
    for fighter_id in fought:
        if fighter := s.fighters.get(fighter_id):
            fighter.games += 1
    # A warrior who has games to miss sits this battle out, which pays off one of them.
    for warband_id in e.participants:
        for fighter in s.fighters_of(warband_id):
            if fighter.missed_games and fighter.id not in fought:
                fighter.missed_games -= 1


def _xp_awarded(s: CampaignState, e: ev.XPAwarded) -> None:
    if fighter := _fighter(s, e.fighter):
        fighter.xp += e.amount


def _xp_spent(s: CampaignState, e: ev.XPSpent) -> None:
    if fighter := _fighter(s, e.fighter):
        fighter.xp -= e.amount


def _stat(s: CampaignState, e: ev.StatChanged) -> None:
    if fighter := _fighter(s, e.fighter):
        fighter.stats[e.stat] = fighter.stats.get(e.stat, 0) + e.delta


def _skill(s: CampaignState, e: ev.SkillLearned) -> None:
    if fighter := _fighter(s, e.fighter):
        fighter.skills.append(e.skill)


def _keyword_gained(s: CampaignState, e: ev.KeywordGained) -> None:
    if (fighter := _fighter(s, e.fighter)) and e.keyword not in fighter.keywords:
        fighter.keywords.append(e.keyword)


def _keyword_lost(s: CampaignState, e: ev.KeywordLost) -> None:
    if (fighter := _fighter(s, e.fighter)) and e.keyword in fighter.keywords:
        fighter.keywords.remove(e.keyword)


def _injury(s: CampaignState, e: ev.InjurySuffered) -> None:
    if fighter := _fighter(s, e.fighter):
        fighter.injuries.append(e.injury)
        fighter.missed_games += e.missed_games


def _status(status: str) -> Callable[[CampaignState, Any], None]:
    def apply(s: CampaignState, e: Any) -> None:
        if fighter := _fighter(s, e.fighter):
            fighter.status = status
            if status == "dead":
                fighter.equipment = []  # a dead warrior's weapons, armour and equipment are lost

    return apply


def _promoted(s: CampaignState, e: ev.FighterPromoted) -> None:
    if fighter := _fighter(s, e.fighter):
        fighter.role = e.role


def _item_gained(s: CampaignState, e: ev.ItemGained) -> None:
    if e.fighter is None:
        if band := s.warbands.get(e.warband):
            band.stash.append(e.item)
    elif fighter := _fighter(s, e.fighter):
        fighter.equipment.append(e.item)


def _item_lost(s: CampaignState, e: ev.ItemLost) -> None:
    holder: list[str] | None = None
    if e.fighter is None:
        if band := s.warbands.get(e.warband):
            holder = band.stash
    elif fighter := _fighter(s, e.fighter):
        holder = fighter.equipment
    if holder is not None and e.item in holder:
        holder.remove(e.item)


def _treasury(s: CampaignState, e: ev.TreasuryChanged) -> None:
    if band := s.warbands.get(e.warband):
        band.treasury += e.delta


def _step_done(s: CampaignState, e: ev.PostGameStepDone) -> None:
    if band := s.warbands.get(e.warband):
        if band.post_game is None or band.post_game.battle != e.battle:
            band.post_game = PostGame(battle=e.battle)
        band.post_game.done.append(e.step)


def _nothing(s: CampaignState, e: Any) -> None:
    """Facts kept for the record only (commands, notes)."""


EVOLVERS: dict[type[ev.Event], Callable[[CampaignState, Any], None]] = {
    ev.CampaignStarted: _started,
    ev.RulesetPinned: _pinned,
    ev.RulesetUpgraded: _upgraded,
    ev.CommandRecorded: _nothing,
    ev.SeedCommitted: _committed,
    ev.SeedRevealed: _revealed,
    ev.TransactionVoided: _voided,
    ev.DiceRolled: _rolled,
    ev.DeckShuffled: _shuffled,
    ev.CardDrawn: _drawn,
    ev.WarbandEnlisted: _enlisted,
    ev.FighterRecruited: _recruited,
    ev.FighterRenamed: _renamed,
    ev.BattleRecorded: _battle,
    ev.XPAwarded: _xp_awarded,
    ev.XPSpent: _xp_spent,
    ev.StatChanged: _stat,
    ev.SkillLearned: _skill,
    ev.KeywordGained: _keyword_gained,
    ev.KeywordLost: _keyword_lost,
    ev.InjurySuffered: _injury,
    ev.FighterDied: _status("dead"),
    ev.FighterCaptured: _status("captured"),
    ev.FighterRetired: _status("retired"),
    ev.FighterPromoted: _promoted,
    ev.ItemGained: _item_gained,
    ev.ItemLost: _item_lost,
    ev.TreasuryChanged: _treasury,
    ev.PostGameStepDone: _step_done,
    ev.NoteRecorded: _nothing,
    ev.DecisionPending: _pending,
    ev.DecisionAnswered: _answered,
    ev.SeedAbandoned: _nothing,
}

# Facts about the ledger itself: they count even when their transaction is voided, because a
# voided roll keeps its number and a void is never undone.
LEDGER_EVENTS = (ev.DiceRolled, ev.SeedCommitted, ev.SeedRevealed, ev.TransactionVoided)

# Events whose evolvers above change nothing of the warbands, the fighters or the campaign's options
# and facts, only the ledger's own bookkeeping (roll numbers, decks, seeds, pending decisions, voids),
# or nothing at all: a transaction of these alone leaves every roster row and rating as it was.
BOOKKEEPING_EVENTS = frozenset({
    ev.CommandRecorded, ev.NoteRecorded, ev.DiceRolled, ev.DeckShuffled, ev.CardDrawn, ev.SeedCommitted,
    ev.SeedRevealed, ev.SeedAbandoned, ev.DecisionPending, ev.DecisionAnswered, ev.TransactionVoided,
})


# Events whose evolvers above change at most one fighter (its warband's roster) or one warband's
# treasury, stash or post-game steps, and nothing campaign-wide. (Not a recruit: a recruit given
# another warband's fighter's id takes that fighter's place in both warbands.)
ONE_WARBAND_EVENTS = frozenset({
    ev.FighterRenamed, ev.XPAwarded, ev.XPSpent, ev.StatChanged, ev.SkillLearned, ev.KeywordGained,
    ev.KeywordLost, ev.InjurySuffered, ev.FighterDied, ev.FighterCaptured, ev.FighterRetired, ev.FighterPromoted,
    ev.ItemGained, ev.ItemLost, ev.TreasuryChanged, ev.PostGameStepDone,
})


# Of ONE_WARBAND_EVENTS, those that change a warband's treasury or post-game steps alone: no rating
# reads either (commands/README.md), so a transaction of these and bookkeeping leaves the ratings.
UNRATED_EVENTS = frozenset({ev.TreasuryChanged, ev.PostGameStepDone})


def warbands_changed(records: Iterable[Record], after: CampaignState, voided: bool = False, *,
                     ignoring: frozenset[type] = frozenset()) -> set[str] | None:
    """The warbands whose rosters folding these records (of a transaction, `voided` or not) may have
    changed, `after` being the state they were folded into: none for BOOKKEEPING_EVENTS alone, or
    when voided (only its LEDGER_EVENTS were folded); None where any warband or anything
    campaign-wide may have changed. Events of a kind in `ignoring` (UNRATED_EVENTS, for the
    ratings) are passed over as bookkeeping is."""
    changed: set[str] = set()
    if voided:  # only its LEDGER_EVENTS were folded
        return changed
    for record in records:
        event, kind = record.event, type(record.event)
        if kind in BOOKKEEPING_EVENTS or kind in ignoring:
            continue
        if kind not in ONE_WARBAND_EVENTS:
            return None
        fighter_id = getattr(event, "fighter", None)
        if fighter_id is None:
            changed.add(event.warband)
        elif (fighter := after.fighters.get(fighter_id)) is not None:  # else the event changed nothing
            changed.add(fighter.warband)
    return changed


def evolve(
    state: CampaignState, event: ev.Event, ruleset_evolve: RulesetEvolve | None = None
) -> CampaignState:
    """Fold one event of a live (not voided) transaction into the state."""
    shared = EVOLVERS.get(type(event))
    if shared is not None:
        shared(state, event)
    elif ruleset_evolve is not None:
        ruleset_evolve(state, event)
    return state
