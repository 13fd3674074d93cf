"""Given/when/then on the ledger for the options that change which deck is drawn, the shared battle
record in a Speedheim campaign, and promotions with 6 heroes."""

from __future__ import annotations

import pytest

from commands.shared import RecordBattle, RecruitFighter
from commands.speedheim import events as se
from commands.speedheim import handlers as h
from commands.speedheim import postgame as pg
from ledger import events as ev

from .conftest import CAPTAIN, Table, of


def finish(campaign, warband: str, scars=(), improvement_cards=(), improvement_dice=()) -> None:
    """The warband's post-game with no tokens: income (the winner's die 1), promotions, scars, free attempts."""
    band = campaign.state.warband(warband).id
    won = campaign.state.latest_battle(band).winner == band
    campaign.do(pg.Income(warband=warband), [1] if won else [])
    campaign.do(pg.Promotions(warband=warband))
    campaign.do(pg.Scars(warband=warband), scars)
    campaign.do(pg.FreeAttempts(warband=warband), improvement_dice, improvement_cards)


def test_one_deck_per_warband(house_rules):
    """deck_per=warband (one deck per player): each warband's first card is the 1st of its own deck."""
    campaign = house_rules({"deck_per": "warband"})
    first = of(campaign.incap("Gunnar", "Rat", cards=["01"]), se.CardRead)[0]
    second = of(campaign.incap("Skab", "Ivo", cards=["01"]), se.CardRead)[0]
    assert (first.deck, first.position, second.deck, second.position) == (
        "improvement:sellswords", 1, "improvement:skaven", 1)


def test_a_new_full_deck_every_game(house_rules):
    """deck_between_games=reshuffled: battle 2 draws from a deck of its own, card 01 again at position 1."""
    campaign = house_rules({"deck_between_games": "reshuffled"})
    campaign.incap("Gunnar", "Rat", cards=["01"])
    campaign.battle()
    finish(campaign, "Sellswords", improvement_cards=["02", "03"])
    finish(campaign, "Skaven", scars=[12], improvement_cards=["04", "05"])
    campaign.do(pg.SpendGold(warband="Sellswords"))
    campaign.do(pg.Learn(warband="Skaven", fighter="Rikk", skill="Sprint"))
    campaign.do(pg.SpendGold(warband="Skaven"))
    read = of(campaign.incap("Gunnar", "Rat", cards=["01"]), se.CardRead)[0]
    assert (read.deck, read.position) == ("improvement:battle-2", 1)


def test_the_shared_battle_record_draws_for_each_took_out(table):
    """`campaign battle record --took-out Gunnar=Rat --ooa Hound` in a Speedheim campaign: Gunnar draws, the Hound
    was Incapacitated with no unit credited."""
    fighters = [f for band in ("sellswords", "skaven") for f in table.state.fighters_of(band)]
    deeds = [ev.Deed(fighter=f.id, took_out=["rat"] if f.name == "Gunnar" else [], out_of_action=f.name in ("Rat", "Hound"))
             for f in fighters]
    events = table.do(RecordBattle(participants=["Sellswords", "Skaven"], winner="Sellswords", deeds=deeds), cards=["02"])
    assert [(i.fighter, i.victim) for i in of(events, se.Incapacitation)] == [("gunnar", "rat"), (None, "hound")]
    assert of(events, ev.StatChanged)[0].stat == "Atk"


def test_the_shared_fighter_add_is_a_speedheim_recruit(table):
    message = table.refusal(RecruitFighter(warband="Skaven", name="Boss", role="boss", stats=CAPTAIN))
    assert message == "a Speedheim unit is a leader, a hero, a henchman, not 'boss'"


def six_heroes_and_a_promotion(table):
    """The Skaven at 6 heroes (Skab the Leader, Rikk, the Rat promoted, Ada, Bea, Cid) when the Hound draws
    Promote! in battle 2; their Income done."""
    table.incap("Rat", "Gunnar", cards=["04"])  # a Leader card after the Leader: the Rat promotes
    table.battle(winner="Sellswords")
    finish(table, "Skaven", improvement_cards=["05", "06", "07"])  # Skab, Rikk and the Rat, a hero now: Skill cards
    for fighter, skill in (("Skab", "Sprint"), ("Rikk", "Sprint"), ("Rat", "Sprint")):
        table.do(pg.Learn(warband="Skaven", fighter=fighter, skill=skill))
    assert of(table.do(pg.BuyHeroSlot(warband="Skaven")), se.HeroSlots)[0].slots == 5
    assert of(table.do(pg.BuyHeroSlot(warband="Skaven")), se.HeroSlots)[0].slots == 6
    assert "6 hero slots, the most" in table.refusal(pg.BuyHeroSlot(warband="Skaven"))
    for name in ("Ada", "Bea", "Cid"):
        table.do(h.Recruit(warband="Skaven", name=name, role="hero", stats=CAPTAIN, paid=False))
    assert "all taken" in table.refusal(h.Recruit(warband="Skaven", name="Dax", role="hero", stats=CAPTAIN, paid=False))
    table.do(pg.SpendGold(warband="Skaven"))
    finish(table, "Sellswords", scars=[12], improvement_cards=["02", "03"])
    table.do(pg.SpendGold(warband="Sellswords"))
    table.incap("Hound", "Gunnar", cards=["01"])  # Promote!, even for an Animal
    table.battle(winner="Sellswords")
    table.do(pg.Income(warband="Skaven"))
    return table


@pytest.mark.parametrize(("answer", "heroes"), [("Rikk", ["Skab", "Rat", "Hound", "Ada", "Bea", "Cid"]),
                                                 (pg.LOSE, ["Skab", "Rikk", "Rat", "Ada", "Bea", "Cid"])])
def test_a_seventh_hero_retires_one_or_loses_the_promotion(table, answer, heroes):
    """"If the warband would have more than 6 heroes, the player retires an existing hero; otherwise the promotion
    is lost" (rules file §6)."""
    events = six_heroes_and_a_promotion(table).do(pg.Promotions(warband="Skaven", answers={"promote.hound": answer}))
    assert [f.name for f in h.heroes_of(table.state, table.state.warband("Skaven"))] == heroes
    assert of(events, se.HeroSlots) == []  # already 6
    assert [f.name for f in h.leaders_of(table.state, table.state.warband("Skaven"))] == ["Skab"]


def test_the_leader_retired_for_a_promotion_is_succeeded_by_the_hero_the_player_names(table):
    """A warband "must always have a Leader"; "If the Leader dies, another hero gains the `Leader` skill" (rules
    file §2), and so when the Leader retires to make room for a promotion (version 6)."""
    six_heroes_and_a_promotion(table)
    # When Skab, the Leader, retires for the Hound, with no hero named to lead
    asked = table.refusal(pg.Promotions(warband="Skaven", answers={"promote.hound": "Skab"}))
    # Then the player is asked which hero gains the Leader skill, the Hound promoted among them
    assert asked == ("Skab, the Leader of Skaven, retired to make room for Hound: which hero gains the Leader skill: "
                     "answer with --answer skab.new-leader=CHOICE (one of: Rikk, Rat, Hound, Ada, Bea, Cid)")
    events = table.do(pg.Promotions(warband="Skaven", answers={"promote.hound": "Skab", "skab.new-leader": "Rat"}))
    assert of(events, ev.KeywordGained) == [ev.KeywordGained(
        warband="skaven", fighter="rat", keyword="Leader",
        reason="Skab, the Leader, retired to make room for Hound: a warband must always have a Leader")]
    assert [f.name for f in h.leaders_of(table.state, table.state.warband("Skaven"))] == ["Rat"]


def test_on_version_5_the_leader_retired_for_a_promotion_left_the_warband_without_one():
    table = Table({}, version="5")
    table.warbands()
    events = six_heroes_and_a_promotion(table).do(pg.Promotions(warband="Skaven", answers={"promote.hound": "Skab"}))
    assert of(events, ev.KeywordGained) == [] and h.leaders_of(table.state, table.state.warband("Skaven")) == []


@pytest.mark.parametrize("deck_per", ["campaign", "warband"])
@pytest.mark.parametrize("between_games", ["kept", "reshuffled"])
def test_the_decks_a_decision_may_draw_from_are_each_deck_id_of_its_warbands_and_battles(deck_per, between_games):
    """Given a campaign's options, warbands and battles fought, a deck id is one to draw from exactly
    when `deck_id` gives it for one of the warbands and battles 1 to the next; found by its parts."""
    house_rules = {"deck_per": deck_per, "deck_between_games": between_games}
    options, cards = h.options_of(house_rules), [card.id for card in h.TABLES.defaults.deck.cards]
    warbands = ["sellswords", "skaven:battle-2", "battle-3"]  # ids that hold the separator's words too
    decks = h.CampaignDecks(house_rules, tuple(warbands), 3)
    listed = {h.deck_id(options, band, n) for band in warbands for n in range(1, 4)}
    near = {deck + suffix for deck in listed for suffix in ("", "0", "1", ":battle-1", "x")} | {
        "improvement", "improvement:", "improvement:battle-0", "improvement:battle-4", "improvement:battle-01",
        "improvement:battle-+1", "improvement:battle-١", "improvement:sellswords:battle-" + "9" * 5000,
        "improvement:nobody", "improvement:nobody:battle-1"}
    assert {deck for deck in near if deck in decks} == listed
    assert all(decks[deck] == cards for deck in listed)
    assert list(decks) == list(dict.fromkeys(h.deck_id(options, band, n) for band in warbands for n in range(1, 4)))
    assert len(decks) == len(listed)
