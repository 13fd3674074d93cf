"""Exploration (post-game step 1): dice kept, shards, multiples."""

from __future__ import annotations

from itertools import combinations

import msgspec

from commands.coreheim import events
from commands.coreheim import facts
from commands.coreheim import model
from commands.kit import MoreDice, Rolled, resolve, since
from commands.coreheim import rules
from commands.coreheim.commands import (
    Explore,
)
from commands.coreheim.phase import PHASE
from commands.coreheim.outcomes import Consequences, name_whom_roll_decides
from ledger.decide import Context, Roll
from ledger.errors import BadInput
from ledger.state import Warband


# --- exploration ------------------------------------------------------------------------------------


def _dice(values: list[int] | tuple[int, ...]) -> str:
    return ",".join(str(v) for v in sorted(values, reverse=True))


def _faces_named(answer: str) -> list[int]:
    """The faces a `keep` answer names ('6,5,4'); a word among them is refused, not passed over
    (which kept fewer dice than the player meant: 'keep=6;5,4' kept the 4 alone)."""
    faces = [face.strip() for face in answer.split(",")] if answer.strip() else []
    if not all(face.isdecimal() for face in faces):
        raise BadInput(f"keep={answer}: name the faces of the dice to keep, separated by commas (keep=6,5,4)")
    return [int(face) for face in faces]


def _refuse_a_keep_no_roll_lets_by(answer: str, band_name: str, count: int, needed: int, at_most: bool) -> None:
    """A `keep` answered ahead that no faces rolled would let by, refused before the roll (a command typed now): not
    faces, a face no D6 shows, or more dice than count (or fewer, where fewer may not). Refused after it, ledger dice
    were seen and the exploration left pending with that answer, which stands: only a void ended it, then rolled anew."""
    named = _faces_named(answer)
    if off := [face for face in named if not 1 <= face <= 6]:
        raise BadInput(f"keep={answer}: {off[0]} is no face of a D6")
    if len(named) > needed or (len(named) < needed and not (at_most and named)):
        raise BadInput(f"keep={answer}: name {needed}{' or fewer' if at_most else ''} of the {count} dice {band_name} rolls")


def explore(cmd: Explore, ctx: Context) -> None:
    state, tables = ctx.state, model.tables_for(ctx.options)
    band = state.warband(cmd.warband)
    battle = PHASE.begin(state, band, "explore")
    if cmd.extra_dice < 0 or cmd.discard < 0:
        raise BadInput("extra and discarded dice cannot be negative")
    listing = model.band_list(band, tables)[0]
    bonus = facts.of(state).warband(band.id).bonus or facts.BonusDice()
    count = rules.exploration_dice_count(
        len(model.heroes(state, band)), won=battle.winner == band.id, extra_dice=cmd.extra_dice + bonus.extra
    )
    discard = cmd.discard + bonus.discard
    if ctx.typed_now and discard > count:
        # Before the roll: after it, ledger dice would be seen and the exploration left pending.
        already = (f" and discards {bonus.discard} of them already (the bonus of its last exploration)"
                   if bonus.discard else "")
        raise BadInput(f"--discard {cmd.discard}: {band.name} rolls {count} exploration dice{already}, "
                       f"so at most {count - bonus.discard}{' more' if bonus.discard else ''} can be discarded")
    needed = min(tables.shards.max_kept_dice, count - discard)
    if needed >= count:
        ctx.not_asked("keep", f"{count} {'die' if count == 1 else 'dice'} for {band.name}, all of which count (the dice "
                              f"to keep are asked only when more than {tables.shards.max_kept_dice} are rolled, or some "
                              "are discarded)")
    if ctx.typed_now and needed < count and "keep" in ctx.answers:
        _refuse_a_keep_no_roll_lets_by(ctx.answers["keep"], band.name, count, needed, at_most=count - discard > needed)
    rolled = ctx.roll(f"{count}D6", purpose=f"exploration of {band.name}").faces if count else []
    # "a maximum of six dice": with more than six left, fewer may count too (named in the answer;
    # the usual pick, six, is what the question lists).
    at_most = len(rolled) - discard > needed
    keep = None
    if needed < len(rolled):
        size = needed
        if "keep" in ctx.answers:  # any order of the faces will do
            named = _faces_named(ctx.answers["keep"])
            ctx.answers["keep"] = _dice(named)
            if at_most and 1 <= len(named) < needed:
                size = len(named)
        options = sorted({_dice(c) for c in combinations(rolled, max(size, 0))}, reverse=True)
        fewer = " (or fewer)" if at_most else ""
        answer = ctx.choose("keep", f"{band.name} rolled {list(rolled)}: which {needed} dice count{fewer}?", options)
        keep = [int(x) for x in answer.split(",")] if answer else []
    kept = rules.keep_exploration_dice(rolled, keep, discard=discard, tables=tables)
    found = rules.shards_found(kept, tables=tables)
    sets = rules.find_multiples(kept)
    chosen = None
    if sets:
        labels = {f"{s.face}x{s.count}": s for s in sets}
        names = ", ".join(f"{label} ({rules.multiples_entry(s, tables=tables).name})" for label, s in labels.items())
        picked = ctx.choose("multiple", f"{band.name} rolled several multiples, {names}: which one counts?", list(labels))
        chosen = rules.choose_multiple(sets, labels[picked])
    effects: Consequences | None = None
    resolution: rules.Resolution | None = None
    if chosen:
        effects = Consequences(ctx, band, battle, f"exploration: {rules.multiples_entry(chosen, tables=tables).name}")
        resolution = _resolve_multiple(ctx, band, chosen, listing.id, effects)
    ctx.emit(events.ExplorationResolved(
        warband=band.id, battle=battle.number, dice=list(rolled), kept=list(kept), total=found.total,
        shards=found.shards, row=found.row_id or "", multiple=f"{chosen.face}x{chosen.count}" if chosen else "",
        rows=list(resolution.rows_used) if resolution else [],
    ))
    if found.shards:
        ctx.emit(events.ShardsChanged(warband=band.id, delta=found.shards, reason=f"explored after battle {battle.number}",
                                  row=found.row_id or ""))
    if effects is not None and resolution is not None:
        for outcome in resolution.outcomes:
            effects.apply(outcome, resolution.rows_used[-1])
    PHASE.finish(ctx, band, battle, "explore")


def _resolve_multiple(ctx: Context, band: Warband, chosen: rules.MultipleSet, listing: str,
                      effects: Consequences) -> rules.Resolution:
    """Resolve a chart entry, rolling and asking for what it needs one layer at a time. From version
    5 a roll that decides a chosen warrior's fate (the Well's D6: "Pick a hero and roll D6", a Map's)
    asks whom first: version 4 asked after showing the face."""
    tables = model.tables_for(ctx.options)
    leader = model.leader(ctx.state, band)
    no_hero = not model.heroes(ctx.state, band) and since(ctx, "10")
    rolled = Rolled()  # the faces as the rules read them, by the rules' roll id
    choices: dict[str, bool] = {}

    def entry(dice: Rolled) -> rules.Resolution:
        return rules.resolve_multiples(chosen, warband=listing, rolls=dice.faces, choices=choices,
                                       leader_ld=leader.stats.get("Ld") if leader else None,
                                       no_leader=leader is None and since(ctx, "10"), no_hero=no_hero, tables=tables)

    def roll(need: MoreDice) -> Roll:
        """Named for the warband; a D3 is read as 1-3 (the ledger rolls a D6 for it)."""
        if since(ctx, "5"):
            name_whom_roll_decides(effects, need.key)  # the answers are kept: applying the result names the same warrior
        made = ctx.roll(need.expression, purpose=f"{_purpose(ctx, need, effects)} for {band.name}")
        if need.expression.upper().endswith("D3"):
            return msgspec.structs.replace(made, faces=[(face + 1) // 2 for face in made.faces])
        return made

    while not (resolution := resolve(ctx, entry, rolled, roll=roll)).complete:
        for request in resolution.pending:
            choices[request.id] = ctx.choose(request.id, _question(ctx, request, effects), ["yes", "no"]) == "yes"
    return resolution


def _purpose(ctx: Context, need: MoreDice, effects: Consequences) -> str:
    """What a roll of the chart is for. From version 7 a follow-up roll says which entry (and item)
    it is for, "exploration: Library: Mordheim Map (D6)"; version 6 said its row id, "exploration
    chart follow-up item:mordheim-map:authenticity"."""
    tables = model.tables_for(ctx.options)
    if not since(ctx, "7") or need.key not in model.whom_rolls_decide(tables):
        return need.purpose
    item = model.rolled_for_items(tables).get(need.key)
    return f"{effects.source}{f': {item}' if item else ''} ({need.expression})"


def _question(ctx: Context, request: rules.ChoiceRequest, effects: Consequences) -> str:
    """The chart's question. From version 7 a fight's names the hero who fights, picked before it is
    asked, "Did Otto win the fight against the warhound?"; version 6 asked of "the hero", and who he
    was after."""
    fight = model.fights(model.tables_for(ctx.options)).get(request.id)
    if fight is None or not since(ctx, "7"):
        return request.question
    return f"Did {effects.target(fight.target).name} win the fight against the {fight.opponent}?"
