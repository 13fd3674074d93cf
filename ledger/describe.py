"""One line of plain English per event, for the CLI, the log and the Markdown export."""

from __future__ import annotations

from ledger import events as ev
from ledger.state import CampaignState
from ledger.text import shown


def fighter_name(state: CampaignState, fighter: str | None) -> str:
    """A fighter's name for people (the id when the state does not know it; None is the stash)."""
    if fighter is None:
        return "the stash"
    found = state.fighters.get(fighter)
    return shown(found.name if found else fighter)


def warband_name(state: CampaignState, warband: str | None) -> str:
    found = state.warbands.get(warband or "")
    return shown(found.name if found else (warband or ""))


def signed(n: int) -> str:
    """A change as people write it: +2, -1 (0 for none)."""
    return f"+{n}" if n > 0 else str(n)


def plural(count: int, word: str) -> str:
    """`1 game`, `2 games`, `3 dice`."""
    many = "dice" if word == "die" else f"{word}s"
    return f"{count} {word if count == 1 else many}"


def describe(event: ev.Event, state: CampaignState) -> str:
    """A sentence for the event, or '' for bookkeeping a person need not read."""
    match event:
        case ev.CampaignStarted(name=name):
            return f"campaign {shown(name)} started"
        case ev.RulesetPinned(ruleset=ruleset, version=version):
            return f"ruleset {ruleset} v{version}"
        case ev.RulesetUpgraded(version=version, previous=previous):
            return f"rules upgraded from v{previous} to v{version} for the transactions that follow"
        case ev.CommandRecorded():
            return ""
        case ev.SeedCommitted(epoch=epoch, commitment=c):
            return f"dice seed of epoch {epoch} committed: sha256 {c[:16]}…"
        case ev.SeedRevealed(epoch=epoch, seed=seed):
            return f"dice seed of epoch {epoch} revealed: {seed}"
        case ev.TransactionVoided(target=t, reason=reason, because_of=None):
            return f"T{t} voided: {reason}"
        case ev.TransactionVoided(target=t, reason=reason):
            return f"T{t} voided too: {reason}"
        case ev.DiceRolled(roll=n, expression=e, purpose=p, faces=f, value=v, source=s):
            if e.startswith("shuffle"):
                return f"R{n} {p} ({s} dice)"
            return f"R{n} {p}: {e} rolled {f} = {v} ({s})"
        case ev.DeckShuffled(deck=deck, source=s):
            return f"{deck} shuffled ({s})"
        case ev.CardDrawn(deck=deck, card=card, purpose=p):
            return f"{p}: drew {card} from {deck}"
        case ev.WarbandEnlisted(name=name, player=player, treasury=t):
            return f"{shown(name)} enlisted by {shown(player)} with {t} in the treasury"
        case ev.FighterRecruited(name=name, role=role, warband=w, group_size=size):
            group = f" (group of {size})" if size > 1 else ""
            return f"{shown(name)}, {role}{group}, joins {warband_name(state, w)}"
        case ev.FighterRenamed(name=name, was=was):
            return f"{shown(was)} is now called {shown(name)}"
        case ev.BattleRecorded(battle=n, participants=p, winner=winner, scenario=scenario):
            names = " vs ".join(warband_name(state, w) for w in p)
            result = f", won by {warband_name(state, winner)}" if winner else ", a draw"
            return f"battle {n}{' (' + scenario + ')' if scenario else ''}: {names}{result}"
        case ev.XPAwarded(fighter=f, amount=a, reason=r, requested=req):
            capped = f" (capped from {req})" if req is not None else ""
            return f"{fighter_name(state, f)} gains {a} XP{capped}: {r}"
        case ev.XPSpent(fighter=f, amount=a, on=on):
            return f"{fighter_name(state, f)} spends {a} XP on {on}"
        case ev.StatChanged(fighter=f, stat=stat, delta=delta, reason=r):
            return f"{fighter_name(state, f)} {stat} {signed(delta)}: {r}"
        case ev.SkillLearned(fighter=f, skill=skill):
            return f"{fighter_name(state, f)} learns {skill}"
        case ev.KeywordGained(fighter=f, keyword=k):
            return f"{fighter_name(state, f)} gains {k}"
        case ev.KeywordLost(fighter=f, keyword=k):
            return f"{fighter_name(state, f)} loses {k}"
        case ev.InjurySuffered(fighter=f, injury=i, missed_games=m):
            missed = f", misses {m} game{'s' if m != 1 else ''}" if m else ""
            return f"{fighter_name(state, f)} suffers {i}{missed}"
        case ev.FighterDied(fighter=f, reason=r):
            return f"{fighter_name(state, f)} is dead{': ' + r if r else ''}"
        case ev.FighterCaptured(fighter=f):
            return f"{fighter_name(state, f)} is captured"
        case ev.FighterRetired(fighter=f, reason=r):
            return f"{fighter_name(state, f)} retires{': ' + r if r else ''}"
        case ev.FighterPromoted(fighter=f, role=role):
            return f"{fighter_name(state, f)} is promoted to {role}"
        case ev.ItemGained(fighter=f, item=item, warband=w):
            return f"{fighter_name(state, f) if f else warband_name(state, w) + ' stash'} gains {item}"
        case ev.ItemLost(fighter=f, item=item, warband=w):
            return f"{fighter_name(state, f) if f else warband_name(state, w) + ' stash'} loses {item}"
        case ev.TreasuryChanged(warband=w, delta=delta, reason=r):
            return f"{warband_name(state, w)} treasury {signed(delta)}: {r}"
        case ev.PostGameStepDone(warband=w, battle=n, step=step):
            return f"{warband_name(state, w)}: post-game step {step} done for battle {n}"
        case ev.NoteRecorded(text=text):
            return f"note: {shown(text)}"
    describe_own = getattr(event, "describe", None)
    return describe_own(state) if callable(describe_own) else ev.tag_of(event)
