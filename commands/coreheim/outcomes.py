"""Turning what the rules decided (``rules.Outcome`` values) into events, for exploration
results and serious injuries alike; and the consequences that need the whole warband: who is
captured by whom, and who leads when the leader is lost (1.8).

A table row that names a role ("leader", "chosen-hero", "map-holder", "chosen-warrior",
"injured-hero") is mapped to a fighter here; a chosen one is asked for with `ctx.choose`
(answer keys "hero", "map-holder", "warrior"), so the choice is recorded with the command.
What the ledger cannot apply by itself (a free Zombie, a free henchman, a Hired Sword for
the next game) becomes a NoteRecorded pending decision.
"""

from __future__ import annotations

from commands.coreheim import events
from commands.coreheim import model
from commands.coreheim.phase import PHASE
from commands.kit import MoreDice, Rolled, possessive_since, resolve, since
from commands.coreheim import rules
from commands.coreheim import tables as t
from ledger import events as ev
from ledger.decide import Context, Roll
from ledger.errors import RuleViolation
from ledger.state import Battle, CampaignState, Fighter, Warband
from projections.battles import fought

# Answer keys for fighters a table row leaves to the player.
CHOSEN = {"chosen-hero": "hero", "map-holder": "map-holder", "chosen-warrior": "warrior"}
PIT_FIGHT = ("won", "lost")  # a hero's fight in the pits (Serious Injury 36), asked after the D66


class Consequences:
    """Applies outcomes for one warband; `source` says where they came from (a chart entry)."""

    def __init__(self, ctx: Context, band: Warband, battle: Battle, source: str, injured: Fighter | None = None,
                 holder: Fighter | None = None, enemies: list[str] | None = None, captors: list[str] | None = None):
        self.ctx = ctx
        self.band = band
        self.battle = battle
        self.source = source
        self.injured = injured
        self.holder = holder  # who holds the item gained (one bought for him): the "map-holder"
        self.enemies = battle_enemies(battle, band) if enemies is None else enemies  # whom he fought
        self.captors = self.enemies if captors is None else captors  # whom a capture may give him to
        self.tables = model.tables_for(ctx.options)

    # --- whom a row means ---------------------------------------------------------------------

    def target(self, role: str) -> Fighter:
        state = self.ctx.state
        if role == "injured-hero" and self.injured is not None:
            return state.fighters[self.injured.id]
        if role == "map-holder" and self.holder is not None:
            return state.fighters[self.holder.id]
        if role == "leader":
            found = model.leader(state, self.band)
            if found is None:
                raise RuleViolation(f"{self.band.name} has no leader to take {self.source}")
            return found
        if role not in CHOSEN:
            raise RuleViolation(f"{self.source} names '{role}', which the ledger cannot map to a warrior")
        pool = model.heroes(state, self.band) if role != "chosen-warrior" else _warriors(state, self.band)
        what = "warrior" if role == "chosen-warrior" else "hero"
        picked = self.ctx.choose(CHOSEN[role], f"{self.source}: which {what} of {self.band.name}?", [f.name for f in pool])
        return next(f for f in pool if f.name == picked)

    def nobody(self, role: str) -> str:
        """What the warband lacks where nobody can be the warrior a row names: a hero to pick or to hold an item gained
        (a Mordheim Map's holder) or a warrior to pick (version 11), "" where somebody can (and before). Version 10
        asked whom among none once the exploration had rolled, and refused ("there is nothing to choose from")."""
        if role not in CHOSEN or not since(self.ctx, "11") or (role == "map-holder" and self.holder is not None):
            return ""
        if role == "chosen-warrior":
            return "" if _warriors(self.ctx.state, self.band) else "no warrior to pick"
        if model.heroes(self.ctx.state, self.band):
            return ""
        return "no hero to hold it" if role == "map-holder" else "no hero to pick"

    def said(self, row: str, *, items: bool = False) -> str:
        """What the row says for people ("won the fight against the warhound"), from version 7; ""
        for a row with nothing to say (a warband's variant, an injury) and before. `items`: an item's row
        says what it found too ("the Mordheim Map is genuine")."""
        words = rules.chart_words([row], tables=self.tables, items=items) if since(self.ctx, "7") else ()
        return words[0] if words and words[0] != row else ""

    def cited(self, row: str, *, items: bool = False) -> str:
        """Where an outcome came from, citing its row: "exploration: Guardhouse: won the fight against
        the warhound (multiples:6x4:fight:won)" (version 7; version 6 cited the id alone)."""
        said = self.said(row, items=items)
        return f"{self.source}{f': {said}' if said else ''} ({row})"

    def _done_by_nobody(self, outcome: rules.Outcome, row: str) -> bool:
        """An outcome for a warrior the warband has none to be (`nobody`, version 11), recorded as a note saying so
        ("… the Mordheim Map is genuine (…): Cult has no hero to hold it, so nobody gains Streetwise")."""
        match outcome:
            case t.GainXp(amount=amount):
                done = f"gains +{amount} XP"
            case t.GainSkill(skill=skill):
                done = f"gains {skill}"
            case t.MissGame():
                done = "misses the next battle"
            case _:
                return False
        lacks = self.nobody(outcome.target)
        if lacks:
            said = f"{self.cited(row, items=True)}: {self.band.name} has {lacks}, so nobody {done}"
            self.ctx.emit(ev.NoteRecorded(text=said, warband=self.band.id))
        return bool(lacks)

    # --- one outcome -------------------------------------------------------------------------------

    def apply(self, outcome: rules.Outcome, row: str) -> None:
        ctx, band, why = self.ctx, self.band.id, self.source
        if self._done_by_nobody(outcome, row):
            return
        match outcome:
            case rules.GoldGained(amount=amount, source=gold_row) if amount:
                ctx.emit(ev.TreasuryChanged(warband=band, delta=amount, reason=why, row=gold_row))
            case t.GainItem(item=item, count=count):
                for _ in range(count):
                    ctx.emit(ev.ItemGained(warband=band, item=item, reason=self.cited(row)))
            case t.LoseItem(item=item) if item in ctx.state.warbands[band].stash:
                ctx.emit(ev.ItemLost(warband=band, item=item, reason=self.cited(row)))
            case t.LoseItem(item=item) if self.holder is not None and item in ctx.state.fighters[self.holder.id].equipment:
                ctx.emit(ev.ItemLost(warband=band, fighter=self.holder.id, item=item, reason=self.cited(row)))
            case t.GainShards(count=count):
                ctx.emit(events.ShardsChanged(warband=band, delta=count, reason=why, row=row))
            case t.GainXp(target="leader", amount=amount) if since(ctx, "10") and model.leader(ctx.state, self.band) is None:
                # A warband with no leader (1.8: none left to take over) has nobody to gain it (version 10; version 9
                # refused after the exploration roll, so with ledger dice the exploration was left pending).
                ctx.emit(ev.NoteRecorded(text=f"{self.cited(row)}: +{amount} XP for the leader, and {self.band.name} has "
                                              f"none: nobody gains it", warband=band))
            case t.GainXp(target=role, amount=amount):
                fighter = self.target(role)
                # A monster rolls the hero injury table (version 5) but gains no experience (1.10).
                if model.advance_kind(fighter) is not None:
                    ctx.emit(ev.XPAwarded(warband=band, fighter=fighter.id, amount=amount, reason=self.cited(row)))
            case t.GainSkill(target=role, skill=skill):
                fighter = self.target(role)
                if skill not in fighter.skills:
                    ctx.emit(ev.SkillLearned(warband=band, fighter=fighter.id, skill=skill, reason=why, row=row))
            case t.MissGame(target=role):
                fighter = self.target(role)
                ctx.emit(events.MissesGame(warband=band, fighter=fighter.id, reason=why, row=row))
            case t.ExplorationDice(extra=extra, discard=discard):
                ctx.emit(events.ExplorationBonus(warband=band, extra=extra, discard=discard, row=row))
            case t.StatChange(target=role, stat=stat, delta=delta):
                fighter = self.target(role)
                # A characteristic he does not have ("-": a Vampire's BS) stays so (version 5): an
                # Eye Injury's BS +1 gave him BS 1, better than any.
                if stat in fighter.stats or not since(ctx, "5"):
                    ctx.emit(ev.StatChanged(warband=band, fighter=fighter.id, stat=stat, delta=delta, reason=why, row=row))
            case t.Robbed(target=role):
                fighter = self.target(role)
                mounts = mounts_of(ctx, fighter)
                for item in list(fighter.equipment):
                    if item not in mounts:  # "(mount kept)"
                        ctx.emit(ev.ItemLost(warband=band, fighter=fighter.id, item=item, reason=f"{why}: robbed"))
            case t.Hatred(target=role):
                fighter = self.target(role)
                enemies = ", ".join(ctx.state.warbands[w].name for w in self.enemies)
                # Whom he hates is part of the keyword (version 6), as the roster shows it and as a second
                # enmity adds one: version 5 kept "Hatred" alone, its target only in the event's reason.
                hated = f"Hatred ({enemies or 'an enemy from outside the campaign'})" if since(ctx, "6") else "Hatred"
                ctx.emit(ev.KeywordGained(warband=band, fighter=fighter.id, keyword=hated,
                                          reason=f"{why}: hates {enemies or 'his enemies'}"))
            case t.Dead(target=role):
                fighter = self.target(role)
                stash_mounts(ctx, self.band, fighter, mounts_of(ctx, fighter))  # "all his gear is lost (his mount is not)"
                ctx.emit(ev.FighterDied(warband=band, fighter=fighter.id, reason=why, row=row))
                succeed_leader(ctx, self.band, fighter)
            case t.Captured(target=role):
                capture(ctx, self.band, self.battle, self.target(role), row, self.captors)
            case t.HeroInjuryRoll(target=role):
                # A fight of the exploration chart (the Fighting Pits, a Guardhouse's warhound) is no fight
                # with the battle's enemy (version 7): who captures him is from outside the campaign, and
                # the enemy's Shackles and a Bitter Enmity have no part in it. Version 6 made the battle's
                # opponent his captor.
                hero_injury(ctx, self.band, self.battle, self.target(role), enemies=[] if since(ctx, "7") else None)
            case _:
                self.pending(outcome, row)

    def pending(self, outcome: rules.Outcome, row: str) -> None:
        """Results the ledger records as a decision for the players to make by hand."""
        match outcome:
            case t.FreeUnit(unit=unit, count=count):
                text = f"{count} free {unit}: hire with `campaign coreheim hire … --free`"
            case t.FreeHenchman(max_cost=cost, count=count):
                text = f"{count} free henchman worth up to {cost} gc, no gear, 0 XP: hire with --free"
            case t.HireOption(unit=unit, price=price):
                text = f"may hire a {unit} for {price} gc"
            case rules.FreeHiredSwordGained():
                text = "a free Hired Sword for the next game; keep him by paying his upkeep"
            case _:
                return
        # Version 7 says what the row says, after the decision: "pending decision: 1 free warhound … —
        # exploration: Guardhouse: leader's Ld test passed (multiples:6x4:ld-test:passed)".
        said = f"pending decision: {text} — {self.cited(row)}" if since(self.ctx, "7") else (
            f"pending decision ({self.source}, {row}): {text}")
        self.ctx.emit(ev.NoteRecorded(text=said, warband=self.band.id))


def _warriors(state: CampaignState, band: Warband) -> list[Fighter]:
    """Whom a row for a warrior the player picks may name: heroes and henchmen (no Hired Sword, animal or monster)."""
    return [f for f in state.fighters_of(band.id) if f.role not in (model.HIRED_SWORD, model.ANIMAL, model.MONSTER)]


# --- serious injuries ---------------------------------------------------------------------------


def _lasting(row: t.HeroInjuryRow) -> bool:
    """A result that stays on the roster as an injury: it changes a characteristic, makes the hero
    miss a game, or has an effect the ledger leaves to house rules (Arm Wound, D8)."""
    return row.result != "full-recovery" and all(isinstance(e, (t.StatChange, t.MissGame)) for e in row.effects)


def battle_enemies(battle: Battle, band: Warband) -> list[str]:
    """The warbands the warband fought in the battle (none: an opponent from outside the campaign)."""
    return [w for w in battle.participants if w != band.id]


def _shackles_holder(ctx: Context, battle: Battle, enemies: list[str]) -> tuple[str, str | None] | None:
    """The enemy warband whose Shackles capture "the next enemy hero who rolls Dead", and
    from version 7 the hero who carries them: one who fought the battle and was not taken out of action
    (rules §2.2: "lost if its owner is taken out of action"; 1.11: Shackles are Miscellaneous Equipment,
    which only heroes use). Shackles in a stash are nobody's in the battle and capture nobody: a warband
    hands them to a hero to use them. Version 6 looked only in the stashes, and ignored a hero's."""
    for warband in enemies:
        if not since(ctx, "7"):
            if "shackles" in ctx.state.warbands[warband].stash:
                return warband, None
            continue
        for deed in fought(battle, warband, ctx.state):
            carrier = ctx.state.fighters[deed.fighter]
            if carrier.active and carrier.role in model.HEROES and not deed.out_of_action and "shackles" in carrier.equipment:
                return warband, carrier.id
    return None


def lose_shackles(ctx: Context, band: Warband, fighter: Fighter) -> None:
    """Shackles are "lost if its owner is taken out of action" (rules §2.2), from version 7: his own
    warband's injuries step takes them from a warrior who was."""
    if since(ctx, "7") and "shackles" in fighter.equipment:
        ctx.emit(ev.ItemLost(warband=band.id, fighter=fighter.id, item="shackles",
                             reason=f"{fighter.name} was taken out of action: Shackles are lost when their owner is"))


def hero_injury(ctx: Context, band: Warband, battle: Battle, hero: Fighter, *, enemies: list[str] | None = None) -> None:
    """D66 for a hero taken out of action (from version 5 a monster too), with Multiple Injuries'
    extra rolls, and its consequences; `enemies` are the warbands he fought (the battle's others
    unless told). Shackles capture "the next enemy hero" only."""
    tables = model.tables_for(ctx.options)
    enemies = battle_enemies(battle, band) if enemies is None else enemies
    holder = _shackles_holder(ctx, battle, enemies) if hero.role in model.HEROES else None
    rolled = Rolled()
    pit_fight_won: bool | None = None

    def injury(dice: Rolled) -> rules.HeroInjuryResolution:
        return rules.resolve_hero_injury(
            [(tens, units) for tens, units in dice.faces.values()],
            hero=hero.name,
            warband_game_number=ctx.state.warbands[band.id].games,
            pit_fight_won=pit_fight_won,
            enemy_has_shackles=holder is not None,
            immortal=model.warrior(ctx.state, hero).type == "vampire",
            tables=tables,
        )

    def roll(need: MoreDice) -> Roll:
        return ctx.roll(need.expression, purpose=f"serious injury of {hero.name}")

    while not (resolution := resolve(ctx, injury, rolled, roll=roll)).complete:
        answer = ctx.choose(f"{hero.id}:pit-fight", f"Did {hero.name} win the fight in the pits?", list(PIT_FIGHT))
        pit_fight_won = answer == PIT_FIGHT[0]
    rows = {row.id: row for row in tables.hero_injury.rows}
    for roll in resolution.rolls:
        ctx.emit(events.InjuryRolled(warband=band.id, fighter=hero.id, d66=roll.d66, row=roll.row_id,
                                 result=roll.result, counted=roll.counted, note=roll.note))
        if not roll.counted:
            continue
        row = rows[roll.row_applied]
        # The Shackles that turned his death into a capture are his captor's (version 7: a hero's, so
        # known): in a battle of several warbands another one took him out, or nobody is named.
        captors = [holder[0]] if resolution.shackles_used and holder is not None and since(ctx, "7") else None
        effects = Consequences(ctx, band, battle, f"serious injury: {row.name}", injured=hero, enemies=enemies,
                               captors=captors)
        if _lasting(row):
            missed = sum(1 for o in roll.outcomes if isinstance(o, t.MissGame))
            ctx.emit(ev.InjurySuffered(warband=band.id, fighter=hero.id, injury=row.name, row=row.id, missed_games=missed))
        for outcome in roll.outcomes:
            if not isinstance(outcome, t.MissGame):  # counted on the injury itself
                effects.apply(outcome, row.id)
    if resolution.shackles_used and holder is not None:
        ctx.emit(ev.ItemLost(warband=holder[0], fighter=holder[1], item="shackles", reason=f"used to capture {hero.name}"))


def henchman_injury(ctx: Context, band: Warband, fighter: Fighter) -> None:
    """D12 for each member taken out of action: 1-4 dead (a dead member's gear is lost with him)."""
    tables = model.tables_for(ctx.options)
    listing_variant = model.band_list(band, tables)[1]
    size = fighter.group_size
    out = 1 if size == 1 else int(ctx.choose(
        f"{fighter.id}:out", f"How many of {fighter.name} ({size}) were taken out of action?",
        [str(n) for n in range(1, size + 1)],
    ))
    marienburg_sword = fighter.role == model.HIRED_SWORD and listing_variant == "marienburg"
    mount = ridden_mount(ctx, fighter)
    riderless = unhorsed = 0
    for n in range(1, out + 1):
        which = f" ({n} of {out})" if out > 1 else ""
        face = ctx.roll("D12", purpose=f"injury of {fighter.name}{which}").value
        injury = rules.resolve_henchman_injury(face, marienburg_hired_sword=marienburg_sword, tables=tables)
        if since(ctx, "2"):  # v2: each D12 says what it gave, as a hero's D66 does; a survivor's said nothing
            ctx.emit(events.HenchmanInjuryRolled(warband=band.id, fighter=fighter.id, face=face, row=injury.row_id,
                                                 result="dead" if injury.dead else "survives"))
        if injury.dead and ctx.state.fighters[fighter.id].group_size > 1:
            ctx.emit(events.GroupSizeChanged(warband=band.id, fighter=fighter.id, delta=-1, reason="a member died of his wounds",
                                         row=injury.row_id))
        elif injury.dead:
            ctx.emit(ev.FighterDied(warband=band.id, fighter=fighter.id, reason="died of his wounds", row=injury.row_id))
        if mount is not None:
            survives = mount_survives(ctx, band, fighter, mount, which)
            if injury.dead and survives:
                riderless += 1
            elif not injury.dead and not survives:
                unhorsed += 1
    if mount is not None:
        _settle_group_mounts(ctx, band, ctx.state.fighters[fighter.id], mount, riderless=riderless, unhorsed=unhorsed)


def ridden_mount(ctx: Context, fighter: Fighter) -> str | None:
    """The mount a warrior rode into battle, from version 4 (the first he has: a warrior rides one)."""
    return next(iter(mounts_of(ctx, fighter)), None) if since(ctx, "4") else None


def mount_survives(ctx: Context, band: Warband, rider: Fighter, mount: str, which: str = "") -> bool:
    """The D12 of a mount whose rider was taken out of action, as he was (rules 1.10): seed 2.1 "Roll
    a D12 for each henchman, mount, and Hired Sword that was taken out of action", 1-4 killed."""
    face = ctx.roll("D12", purpose=f"injury of {whose(ctx, rider.name)} {mount}{which}").value
    injury = rules.resolve_henchman_injury(face, tables=model.tables_for(ctx.options))
    ctx.emit(events.MountInjuryRolled(warband=band.id, fighter=rider.id, mount=mount, face=face, row=injury.row_id,
                                      result="killed" if injury.dead else "survives"))
    return not injury.dead


def hero_mount_injury(ctx: Context, band: Warband, hero: Fighter) -> None:
    """A hero's mount rolls its own D12 before his D66 (version 4); a killed mount is lost."""
    mount = ridden_mount(ctx, hero)
    if mount is not None and not mount_survives(ctx, band, hero, mount):
        ctx.emit(ev.ItemLost(warband=band.id, fighter=hero.id, item=mount, reason=f"{whose(ctx, hero.name)} {mount} was killed"))


def _settle_group_mounts(ctx: Context, band: Warband, group: Fighter, mount: str, *, riderless: int, unhorsed: int) -> None:
    """A group's mount is one per member. The mount of a member who died goes to the stash ("A mount
    is never lost because of what happens to its rider"); when a surviving member's mount was
    killed, the group no longer rides ("Members of the same henchman group must ride the same type
    of mount", 1.10): the mounts its members still have go to the stash."""
    for _ in range(riderless):
        ctx.emit(ev.ItemGained(warband=band.id, item=mount, reason=f"the {mount} of a member of {group.name} who died"))
    if unhorsed:
        ctx.emit(ev.ItemLost(warband=band.id, fighter=group.id, item=mount,
                             reason=f"{group.name} no longer ride: {unhorsed} of their mounts ({mount}) "
                                    f"{'was' if unhorsed == 1 else 'were'} killed"))
        for _ in range(group.group_size - unhorsed):
            ctx.emit(ev.ItemGained(warband=band.id, item=mount, reason=f"{whose(ctx, group.name)}, no longer ridden"))


# --- capture and succession -------------------------------------------------------------------------


def capture(ctx: Context, band: Warband, battle: Battle, hero: Fighter, row: str, enemies: list[str]) -> None:
    """The hero leaves the roster; his gear goes to the stash of the warband among `enemies` that
    took him out (with one enemy, that one; with several and no record of who, the player names
    it). Taken by an opponent outside the campaign ("A battle may name one warband", README; from
    version 7 a pit fight's), he and his gear are gone: asking for a captor among no warband
    stopped the post-game for good."""
    captor = _captor(ctx, battle, band, hero, enemies) if enemies else None
    taker = ctx.state.warbands[captor].name if captor else "the enemy from outside the campaign"
    ctx.emit(ev.FighterCaptured(warband=band.id, fighter=hero.id, reason=f"captured by {taker}", row=row))
    mounts = mounts_of(ctx, hero)  # his gear goes to the captor's stash "(mount excluded)"
    for item in list(hero.equipment):
        if item not in mounts:
            ctx.emit(ev.ItemLost(warband=band.id, fighter=hero.id, item=item, reason=f"taken by {taker}"))
            if captor:
                ctx.emit(ev.ItemGained(warband=captor, item=item, reason=f"{whose(ctx, hero.name)}, captured"))
    stash_mounts(ctx, band, hero, mounts)
    if captor:
        ctx.emit(ev.NoteRecorded(text=f"pending decision: {taker} holds {hero.name} captive (no rules for captives in v10)",
                                 warband=captor, fighter=hero.id))
    succeed_leader(ctx, band, hero)


def _captor(ctx: Context, battle: Battle, band: Warband, hero: Fighter, enemies: list[str]) -> str:
    state = ctx.state
    # Only an enemy for whom this is still the latest battle is asked: one who fought again since
    # is not (as the deeds were kept when this rule was recorded), and the player names the captor.
    takers = [w for w in enemies if _latest_number(state, w) == battle.number
              and any(hero.id in deed.took_out for deed in fought(battle, w, state))]
    if takers:
        return takers[0]
    names = [state.warbands[w].name for w in enemies]
    picked = ctx.choose(f"{hero.id}:captor", f"Which warband captured {hero.name}?", names)
    return enemies[names.index(picked)]


def restate_deeds(ctx: Context, warband: str, battle: Battle, fighter: str, *, joins: bool = False,
                  out_of_action: bool = False, took_out: list[str] | None = None) -> None:
    """The warband's deeds in the battle stated again (`coreheim.battle-deeds`) with `fighter`: one
    who joins them after the battle was recorded (an underdog Hired Sword, a member Talent!
    promotes), out of action or not and taking out `took_out`; or one of them, now out of action."""
    deeds = fought(battle, warband, ctx.state)
    ctx.emit(events.BattleDeeds(
        warband=warband, battle=battle.number, fought=[*(d.fighter for d in deeds), *([fighter] if joins else [])],
        out_of_action=[*(d.fighter for d in deeds if d.out_of_action or (out_of_action and d.fighter == fighter)),
                       *([fighter] if joins and out_of_action else [])],
        took_out={**{d.fighter: list(d.took_out) for d in deeds if d.took_out}, **({fighter: took_out} if took_out else {})},
    ))


def mounts_of(ctx: Context, fighter: Fighter) -> list[str]:
    """The mounts the fighter rides, which stay with the warband whatever befalls him (rules 2.1: "A
    mount is never robbed or lost because of what happens to its rider"). Version 2 and before
    kept none apart from his other gear."""
    if not since(ctx, "3"):
        return []
    tables = model.tables_for(ctx.options)
    return [item for item in fighter.equipment if model.is_mount(tables, item)]


def stash_mounts(ctx: Context, band: Warband, rider: Fighter, mounts: list[str]) -> None:
    """The mounts of a rider who leaves the roster go to his warband's stash."""
    for item in mounts:
        rider_s = whose(ctx, rider.name)
        ctx.emit(ev.ItemLost(warband=band.id, fighter=rider.id, item=item, reason=f"{rider_s} mount stays with {band.name}"),
                 ev.ItemGained(warband=band.id, item=item, reason=f"{rider_s} mount"))


def _latest_number(state: CampaignState, warband: str) -> int | None:
    latest = PHASE.latest_battle(state, state.warbands[warband])
    return latest.number if latest is not None else None


def succeed_leader(ctx: Context, band: Warband, lost: Fighter) -> None:
    """1.8: when the leader is lost, the hero with the best Leadership takes over; on a tie the player chooses."""
    if lost.role != model.LEADER:
        return
    candidates = model.heroes(ctx.state, band)
    if not candidates:
        ctx.emit(ev.NoteRecorded(text=f"{band.name} has no hero left to lead it", warband=band.id))
        return
    worst = 99  # a hero without a Leadership target ranks last
    best = min(f.stats.get("Ld", worst) for f in candidates)
    tied = [f for f in candidates if f.stats.get("Ld", worst) == best]
    names = [f.name for f in tied]
    picked = ctx.choose("new-leader", f"{lost.name} is lost: who leads {band.name}? (Ld {best}+)", names)
    heir = tied[names.index(picked)]
    ctx.emit(ev.FighterPromoted(warband=band.id, fighter=heir.id, role=model.LEADER,
                                reason=f"takes over from {lost.name}: best Leadership ({best}+)"))


def _gaining(ctx: Context, band: Warband, battle: Battle, item: str, holder: Fighter | None) -> tuple[Consequences, t.Item] | None:
    """What gaining `item` does (its row of the equipment table; None: an item it does not list), and to whom."""
    equipment = next((i for i in model.tables_for(ctx.options).equipment.items if i.id == item), None)
    return None if equipment is None else (Consequences(ctx, band, battle, f"{equipment.name} gained", holder=holder), equipment)


def name_whom_roll_decides(effects: Consequences, roll: str) -> None:
    """The warriors whose fate roll `roll` decides (a row id), named before its face is seen (the answers are kept for
    the result); none where the warband has nobody to be him (version 11: what the roll does to him is done to
    nobody, `Consequences.nobody`), which version 10 asked for among none and refused."""
    for role in sorted(model.whom_rolls_decide(effects.tables).get(roll, frozenset()) & CHOSEN.keys()):
        if not effects.nobody(role):
            effects.target(role)


def name_whom_gaining_decides(ctx: Context, band: Warband, battle: Battle, item: str, holder: Fighter | None) -> None:
    """Ask now for the warriors whose fate gaining `item` decides (the hero whose Mordheim Map's D6 it is): `buy`
    asks before it rolls a price (version 9), so that no question stops it once a price is seen."""
    if (gaining := _gaining(ctx, band, battle, item, holder)) is not None:
        effects, equipment = gaining
        for effect in equipment.on_gain:
            if isinstance(effect, t.RollTable):
                name_whom_roll_decides(effects, effect.id)


def whose(ctx: Context, name: str) -> str:
    """`name`'s, as coreheim stores it (a reason, a roll's purpose, a question): from version 10 "Reikland Rats'";
    version 9 and before wrote "Reikland Rats's"."""
    return possessive_since(ctx, "10", name)


def holder_not_asked(ctx: Context, band: Warband, battle: Battle | None, item: str, holder: Fighter | None) -> str | None:
    """Why gaining `item` does not ask which hero holds it (map-holder), None where it does: one put in the stash
    after a battle whose roll decides its holder's fate (a Mordheim Map; version 4 rolled only for one found
    exploring), by a warband with a hero to hold it (version 11: with none, the roll's result is done to nobody)."""
    gaining = None if holder is not None or battle is None or not since(ctx, "5") else _gaining(ctx, band, battle, item,
                                                                                                  holder)
    if gaining is not None:
        effects, equipment = gaining
        decides = model.whom_rolls_decide(effects.tables)
        if any("map-holder" in decides.get(roll.id, ()) for roll in equipment.on_gain if isinstance(roll, t.RollTable)):
            lacks = effects.nobody("map-holder")
            return f"{band.name} has {lacks}: what its roll does to its holder is done to nobody" if lacks else None
    bought_for = f"bought for {holder.name}, who holds it: " if holder is not None else ""
    return f"{bought_for}only a Mordheim Map bought into the stash after a battle asks which hero holds it"


def on_gain(ctx: Context, band: Warband, battle: Battle, item: str, holder: Fighter | None) -> None:
    """What gaining an item does, as when it is found exploring (rules 1, "Effects that happen when
    an item is gained": a Mordheim Map's D6, fake or genuine), for one bought: its `holder`, or the
    hero the player names for one put in the stash, before the roll."""
    if (gaining := _gaining(ctx, band, battle, item, holder)) is None:
        return
    effects, equipment = gaining
    for effect in equipment.on_gain:
        if not isinstance(effect, t.RollTable):
            effects.apply(effect, item)
            continue
        name_whom_roll_decides(effects, effect.id)
        # Version 7 names the die, not the row id ("Mordheim Map (item:mordheim-map:authenticity)").
        face = ctx.roll(effect.dice, purpose=f"{equipment.name} ({effect.dice if since(ctx, '7') else effect.id})").value
        row = next(r for r in effect.rows if r.min <= face <= r.max)
        for outcome in row.effects:
            effects.apply(outcome, row.id)
