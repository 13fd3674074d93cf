"""One line of plain English per event, for the CLI, the log and the Markdown export."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from ledger import events as ev
from ledger import rulesets
from ledger.state import CampaignState
from ledger.text import possessive, shown


def fighter_name(state: CampaignState, fighter: str | None) -> str:
    """A fighter's name for people (the id when the state does not know it; None is the stash)."""
    if fighter is None:
        return "the stash"
    found = state.fighters.get(fighter)
    return shown(found.name if found else fighter)


def warband_name(state: CampaignState, warband: str | None) -> str:
    found = state.warbands.get(warband or "")
    return shown(found.name if found else (warband or ""))


# The reasons a person typed for the transaction being described (`describe`'s `typed`), kept as typed by
# `because` wherever a ruleset's event says it (a context, not a parameter of every event's sentence).
_TYPED: ContextVar[Collection[str]] = ContextVar("typed_reasons", default=())

# A lowercase id as tables key their rows ("power-scroll", "house/war-prophet"), not a part of a row
# citation ("hero-injury:45-64") nor of a word ("Gunnar's").
_ID = re.compile(r"(?<![\w/'-])(?<!\S:)[a-z0-9]+(?:[-/][a-z0-9]+)*(?![\w/-])(?!:\S)")


def typed_reasons(opened: ev.Event) -> frozenset[str]:
    """The reasons a person typed in the command that opened a transaction (`--reason`, a scenario award's,
    a roll's `--for`): its arguments' `reason` and `purpose` values at any depth, and its own."""
    if not isinstance(opened, ev.CommandRecorded):
        return frozenset()

    def found(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in ("reason", "purpose") and isinstance(inner, str):
                    yield inner
                else:
                    yield from found(inner)
        elif isinstance(value, list):
            for inner in value:
                yield from found(inner)

    return frozenset(reason for reason in (opened.reason, *found(opened.args)) if reason.strip())


class TypedReasons(Collection[str]):
    """`typed_reasons` of a transaction's opening command, looked for the first time a reason is worded
    with them: a log of thousands of transactions words few (none where the ruleset names no rows), and
    walking every command's arguments for them was some 7 % of an import's storing."""

    __slots__ = ("_opened", "_found")

    def __init__(self, opened: ev.Event) -> None:
        self._opened = opened
        self._found: frozenset[str] | None = None

    def _reasons(self) -> frozenset[str]:
        if self._found is None:
            self._found = typed_reasons(self._opened)
        return self._found

    def __iter__(self) -> Iterator[str]:
        return iter(self._reasons())

    def __len__(self) -> int:
        return len(self._reasons())

    def __contains__(self, reason: object) -> bool:
        return reason in self._reasons()


def reason_said(reason: str, names: Mapping[str, str], typed: Collection[str] = (),
                cited_after: rulesets.CitedAfter = ()) -> str:
    """A recorded reason as a player reads it: the ids the campaign's tables know said by their names
    ("bought power-scroll": "bought Power Scroll"), and an aside it ends with said after a comma, since
    `because` puts the reason in parentheses ("survived the battle (battle 1)": "survived the battle,
    battle 1"), or left out where it only gives again, as an id, what comes before it ("Amnesia (amnesia)").
    What a person typed (`typed`) stays as typed. An id that is its name in lower case ("sword") is a word
    already, and often an ordinary one ("captured"): kept, but after the words that cite an id (`cited_after`,
    `Ruleset.ids_cited_after`: "bought sword" is "bought Sword", and where a pattern there matches the text before
    it). Wording only: the recorded reason is unchanged."""
    said = _named(reason, names, typed, cited_after)
    opened = said.rfind("(") if said.endswith(")") else -1
    head, inner = said[:opened].rstrip(), said[opened + 1:-1]
    if opened < 0 or ")" in inner or head.count("(") != head.count(")") or any(
            said.endswith(t) and "(" in t for t in typed):  # an aside typed is as typed
        return said
    if not head or (_ID.fullmatch(inner) and _plain(head).endswith(_plain(names.get(inner, inner)))):
        return head or inner
    return f"{head}, {inner}"


def _named(text: str, names: Mapping[str, str], typed: Collection[str], cited_after: rulesets.CitedAfter = ()) -> str:
    """The text with the ids `names` knows said by their names, but for what a person typed in it; one that is
    its name in lower case only after the words that cite an id (`cited_after`)."""
    if not names:
        return text
    kept = next((t for t in sorted(typed, key=len, reverse=True) if t and t in text), None)
    if kept is not None:
        before, _, after = text.partition(kept)
        return _named(before, names, typed, cited_after) + kept + _named(after, names, typed, cited_after)

    def name_of(found: re.Match[str]) -> str:
        name = names.get(found[0])
        named = name is not None and (name.lower() != found[0] or _cited(text, found.start(), cited_after))
        return name if named else found[0]

    return _ID.sub(name_of, text)


def _cited(text: str, start: int, cited_after: rulesets.CitedAfter) -> bool:
    """Whether the text before `start` ends with words that cite an id, or is what a pattern of them matches."""
    return any(text.endswith(cites, 0, start) if isinstance(cites, str) else cites.search(text, 0, start) is not None
               for cites in cited_after)


def _plain(text: str) -> str:
    return text.lower().replace("-", " ")


class _Worded:
    """The wordings of reasons and roll purposes with one campaign's names (`rulesets.reason_names`, the
    mapping kept for its tables), by the text and the reasons typed: a log says the same few ("serious
    injury: Dead") thousands of times, and each wording's search for ids was some 10 % of an import's
    storing where the tables name rows. Forgotten when the names are others'."""

    LIMIT = 4096

    def __init__(self) -> None:
        self.names: Mapping[str, str] | None = None
        self.said: dict[tuple[Callable[..., str], str, frozenset[str]], str] = {}

    def __call__(self, word: Callable[[str, Mapping[str, str], Collection[str], rulesets.CitedAfter], str], text: str,
                 state: CampaignState) -> str:
        """`word` (reason_said or _named) of the text with the campaign's names and the typed reasons, and its
        ruleset's words that cite an id (the same wherever its names are: looked up only for a new wording)."""
        names, typed = rulesets.reason_names(state), _TYPED.get()
        if not names:  # nothing to name: cheap, and the typed reasons are seldom looked for
            return word(text, names, typed)
        if names is not self.names or len(self.said) >= self.LIMIT:
            self.names, self.said = names, {}
        key = (word, text, frozenset(typed))
        said = self.said.get(key)
        if said is None:
            said = self.said[key] = word(text, names, typed, rulesets.ids_cited_after(state))
        return said


_worded = _Worded()


def because(reason: str, state: CampaignState) -> str:
    """A recorded reason after what it explains, one way for every event of every ruleset: "Gunnar is dead
    (serious injury: Dead)", said as `reason_said` says it with the names the campaign's ruleset gives
    (`Ruleset.row_names`). Reasons often hold a colon of their own, which a colon before them doubled."""
    said = _worded(reason_said, reason, state)
    return f" ({said})" if said else ""


def signed(n: int) -> str:
    """A change as people write it: +2, -1 (0 for none)."""
    return f"+{n}" if n > 0 else str(n)


def plural(count: int, word: str) -> str:
    """`1 game`, `2 games`, `3 dice`, `2 casualties`."""
    many = "dice" if word == "die" else f"{word[:-1]}ies" if word[-2:-1] not in ("", *"aeiou") and word.endswith("y") else f"{word}s"
    return f"{count} {word if count == 1 else many}"


def listed(words: Sequence[str]) -> str:
    """`Hans`, `Hans and Ivo`, `Hans, Ivo and Skab` (at least one word)."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def post_games_left_out_lines(state: CampaignState, steps: list[ev.PostGameStepDone]) -> list[str]:
    """What a view of the campaign once a battle leaves out (`fold.post_games_left_out`): a line per
    warband and battle whose post-game steps were recorded after a later battle began."""
    by_post_game: dict[tuple[int, str], list[str]] = {}
    for step in steps:
        by_post_game.setdefault((step.battle, step.warband), []).append(rulesets.step_name(state, step.step))
    return [f"Not in it, recorded once a later battle had begun: {possessive(warband_name(state, warband))} post-game of "
            f"battle {battle} ({', '.join(done)})" for (battle, warband), done in by_post_game.items()]


def describe(event: ev.Event, state: CampaignState, typed: Collection[str] = ()) -> str:
    """A sentence for the event, or '' for bookkeeping a person need not read. `typed`: the reasons a
    person typed for its transaction (`typed_reasons` of its command), said as typed."""
    token = _TYPED.set(typed)
    try:
        described = _DESCRIBED.get(type(event))
        if described is not None:
            return described(event, state)
        describe_own = getattr(event, "describe", None)
        return describe_own(state) if callable(describe_own) else ev.tag_of(event)
    finally:
        _TYPED.reset(token)


def _voided(e: ev.TransactionVoided, s: CampaignState) -> str:
    return f"T{e.target} voided{'' if e.because_of is None else ' too'}{because(e.reason, s)}"


def _rolled(e: ev.DiceRolled, s: CampaignState) -> str:
    if e.expression.startswith("shuffle"):
        return f"R{e.roll} {e.purpose} ({e.source} dice)"
    meaning = rulesets.roll_meaning(s, e)
    if meaning and e.purpose in _TYPED.get():  # a free roll (`campaign roll --for`): it means what its roller says
        meaning = ""
    purpose = _worded(_named, e.purpose, s)  # "Otto looks for power-scroll"
    return f"R{e.roll} {purpose}: {e.expression} rolled {e.faces} = {e.value} ({e.source}){f'; {meaning}' if meaning else ''}"


def role_words(role: str) -> str:
    """A fighter's role as people write it: a "hired-sword" is a hired sword."""
    return role.replace("-", " ")


def _recruited(e: ev.FighterRecruited, s: CampaignState) -> str:
    group = f" (group of {e.group_size})" if e.group_size > 1 else ""
    return f"{shown(e.name)}, {role_words(e.role)}{group}, joins {warband_name(s, e.warband)}"


def _battle(e: ev.BattleRecorded, s: CampaignState) -> str:
    names = " vs ".join(warband_name(s, w) for w in e.participants)
    result = f", won by {warband_name(s, e.winner)}" if e.winner else ", a draw"
    scenario = f" ({rulesets.row_name(s, 'scenario', e.scenario)})" if e.scenario else ""
    return f"battle {e.battle}{scenario}: {names}{result}"


def _awarded(e: ev.XPAwarded, s: CampaignState) -> str:
    capped = f", capped from {e.requested}" if e.requested is not None else ""
    change = f"gains {e.amount}" if e.amount >= 0 else f"loses {-e.amount}"  # an award taken back
    return f"{fighter_name(s, e.fighter)} {change} XP{capped}{because(e.reason, s)}"


def _stat_changed(e: ev.StatChanged, s: CampaignState) -> str:
    change = f"{e.stat} {signed(e.delta)}"
    # a reason that ends by stating the change again ("advancement: Sa +1") says only why
    return f"{fighter_name(s, e.fighter)} {change}{because(e.reason.removesuffix(f': {change}'), s)}"


def _injured(e: ev.InjurySuffered, s: CampaignState) -> str:
    missed = f", misses {e.missed_games} game{'s' if e.missed_games != 1 else ''}" if e.missed_games else ""
    return f"{fighter_name(s, e.fighter)} suffers {e.injury}{missed}"


def _holder(s: CampaignState, e: ev.ItemGained | ev.ItemLost) -> str:
    return fighter_name(s, e.fighter) if e.fighter else warband_name(s, e.warband) + " stash"


# Each event type's sentence, found by its type: most of a log's rows are described at each
# rebuild and verify, and a match on the type tried every case above the event's own.
_DESCRIBED: dict[type[ev.Event], Callable[[Any, CampaignState], str]] = {
    ev.CampaignStarted: lambda e, s: f"campaign {shown(e.name)} started",
    ev.RulesetPinned: lambda e, s: f"ruleset {e.ruleset} v{e.version}",
    ev.RulesetUpgraded: lambda e, s: f"rules upgraded from v{e.previous} to v{e.version} for the transactions that follow",
    ev.CommandRecorded: lambda e, s: "",
    ev.SeedCommitted: lambda e, s: f"dice seed of epoch {e.epoch} committed: sha256 {e.commitment[:16]}…",
    ev.SeedRevealed: lambda e, s: f"dice seed of epoch {e.epoch} revealed: {e.seed}",
    ev.TransactionVoided: _voided,
    ev.DiceRolled: _rolled,
    ev.DeckShuffled: lambda e, s: f"{e.deck} shuffled ({e.source})",
    ev.CardDrawn: lambda e, s: (f"{e.purpose}: {e.card} is in hand, so it is taken out of the new deck" if e.held
                                else f"{e.purpose}: drew {e.card} from {e.deck}"),
    ev.WarbandEnlisted: lambda e, s: f"{shown(e.name)} enlisted by {shown(e.player)} with {e.treasury} in the {rulesets.treasury_word(s)}",
    ev.FighterRecruited: _recruited,
    ev.FighterRenamed: lambda e, s: f"{shown(e.was)} is now called {shown(e.name)}",
    ev.BattleRecorded: _battle,
    ev.XPAwarded: _awarded,
    ev.XPSpent: lambda e, s: f"{fighter_name(s, e.fighter)} spends {e.amount} XP on {e.on}",
    ev.StatChanged: _stat_changed,
    ev.SkillLearned: lambda e, s: f"{fighter_name(s, e.fighter)} learns {e.skill}",
    ev.KeywordGained: lambda e, s: f"{fighter_name(s, e.fighter)} gains {e.keyword}",
    ev.KeywordLost: lambda e, s: f"{fighter_name(s, e.fighter)} loses {e.keyword}",
    ev.InjurySuffered: _injured,
    ev.FighterDied: lambda e, s: f"{fighter_name(s, e.fighter)} is dead{because(e.reason, s)}",
    ev.FighterCaptured: lambda e, s: f"{fighter_name(s, e.fighter)} is captured{because(e.reason, s)}",
    ev.FighterRetired: lambda e, s: f"{fighter_name(s, e.fighter)} retires{because(e.reason, s)}",
    ev.FighterPromoted: lambda e, s: f"{fighter_name(s, e.fighter)} is promoted to {e.role}",
    ev.ItemGained: lambda e, s: f"{_holder(s, e)} gains {rulesets.row_name(s, 'item', e.item)}",
    ev.ItemLost: lambda e, s: f"{_holder(s, e)} loses {rulesets.row_name(s, 'item', e.item)}",
    ev.TreasuryChanged: lambda e, s: f"{warband_name(s, e.warband)} {rulesets.treasury_word(s)} {signed(e.delta)}{because(e.reason, s)}",
    ev.PostGameStepDone: lambda e, s: (f"{warband_name(s, e.warband)}: post-game step {rulesets.step_name(s, e.step)} "
                                       f"done for battle {e.battle}"),
    ev.NoteRecorded: lambda e, s: f"note: {shown(e.text)}",
}
