"""Who fights a battle, who must miss it, and what each did: read from the core state, for every ruleset."""

from __future__ import annotations

from collections.abc import Sequence

from ledger import events as ev
from ledger.errors import BadInput
from ledger.state import Battle, CampaignState, Fighter


def must_miss(state: CampaignState, warband: str) -> list[Fighter]:
    """Active fighters of the warband with games still to miss for an injury."""
    return [f for f in state.fighters_of(warband) if f.missed_games]


def did_not_fight(fighter: Fighter) -> str:
    """Why a fighter named in a battle was not in it: one left out for an injury (`must_miss`) is told so."""
    if fighter.active and fighter.missed_games:
        injury = f": {fighter.injuries[-1]}" if fighter.injuries else ""
        return f"{fighter.name} must miss this battle (injured{injury}), so did not fight in it"
    return f"{fighter.name} did not fight in this battle"


def deeds_for(state: CampaignState, warbands: Sequence[str], absent: Sequence[str], out_of_action: Sequence[str],
              took_out: Sequence[tuple[str, str]], glorious: Sequence[tuple[str, str]],
              not_out: Sequence[str] = ()) -> list[ev.Deed]:
    """Every active fighter of the warbands fought, unless absent or missing games for an injury;
    the pairs (fighter, enemy taken out) and (fighter, glorious deed) add what each did. An enemy
    taken out who fought in the battle is out of action too, unless named in `not_out` (the
    record says otherwise)."""
    band_ids = [state.warband(w).id for w in warbands]
    missing_games = {f.id for b in band_ids for f in must_miss(state, b)}
    fighters = [f for b in band_ids for f in state.fighters_of(b) if f.id not in missing_games]
    theirs = [f for b in band_ids for f in state.fighters_of(b, active_only=False)]

    def fighter_id(name: str) -> str:
        """A fighter of the warbands that fought first: a name another warband shares is theirs."""
        return (state.fighter_among(name, theirs) or state.fighter(name)).id

    def called(fighter: Fighter, enemy: str) -> bool:
        return enemy.lower() in (fighter.id, fighter.name.lower())

    missing = {fighter_id(name) for name in absent}
    ooa = {fighter_id(name) for name in out_of_action}
    took: dict[str, list[str]] = {}
    for fighter_name, enemy in took_out:
        took.setdefault(fighter_id(fighter_name), []).append(enemy)
    deeds_of: dict[str, list[str]] = {}
    for fighter_name, deed in glorious:
        deeds_of.setdefault(fighter_id(fighter_name), []).append(deed)
    fought = {f.id for f in fighters if f.id not in missing}
    kept_in = {fighter_id(name) for name in not_out}
    for taker, enemies in took.items():
        for index, enemy in enumerate(enemies):
            taken_by = state.fighters[taker]
            foes = [f for f in theirs if f.warband != taken_by.warband and called(f, enemy)]
            if foes and not any(f.id in fought for f in foes):
                raise BadInput(f"{did_not_fight(foes[0])}: {taken_by.name} cannot have taken him out")
            if not foes and (elsewhere := [f for f in state.fighters.values() if f.warband not in band_ids and called(f, enemy)]):
                raise BadInput(f"{elsewhere[0].name} of {state.warbands[elsewhere[0].warband].name} did not fight in this "
                               f"battle: {taken_by.name} cannot have taken him out (an enemy from outside the campaign "
                               "needs a name of its own)")
            if len(foes) == 1:
                enemies[index] = foes[0].id  # the one who fought: another warband's fighter of the name did not
            ooa |= {f.id for f in foes if f.id in fought and f.id not in kept_in}
    for named in ooa | set(took) | set(deeds_of) | kept_in:
        if named not in fought:
            raise BadInput(did_not_fight(state.fighters[named]))
    return [
        ev.Deed(fighter=f.id, out_of_action=f.id in ooa, took_out=took.get(f.id, []), glorious_deeds=deeds_of.get(f.id, []))
        for f in fighters
        if f.id in fought
    ]


def fought(battle: Battle, warband: str, state: CampaignState) -> list[ev.Deed]:
    """The deeds of the warband's fighters in the battle, in the order recorded (roster order)."""
    return [deed for deed in battle.deeds if (f := state.fighters.get(deed.fighter)) is not None and f.warband == warband]


def out_of_action(battle: Battle, warband: str, state: CampaignState) -> list[str]:
    """Ids of the warband's fighters taken out of action in the battle."""
    return [deed.fighter for deed in fought(battle, warband, state) if deed.out_of_action]
