"""`campaign report`: every number the report shows is the read models' (the rm_* tables of the
demo store, read with SQL), for every fixture campaign; cuts, voids, the audit box, empty campaigns
and a ruleset's own words."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from commands.shared import SHARED_HANDLERS
from commands.trench_crusade.tables import TABLES as TRENCH_TABLES
from ledger import audit, rulesets
from ledger.campaigns import Ledger, fold, voids_in
from ledger.store import Store
from ledger.terms import Terms
from ledger.testing import CampaignRunner
from projections import render
from projections.history import void_annotations
from projections.report import Report, Verification, build_report
from projections.roster import warband_row

from .conftest import FIXTURES, Tables
from .dom import parse, standings


def report_of(store_url: str, name: str, **cut) -> Report:
    store = Store(store_url)
    try:
        ledger = Ledger(store)
        return build_report(ledger.history(ledger.find(name)), None, **cut)
    finally:
        store.close()


def state_of(store_url: str, name: str):
    store = Store(store_url)
    try:
        ledger = Ledger(store)
        return fold(ledger.history(ledger.find(name)))
    finally:
        store.close()


def write_report(runner: CampaignRunner, name: str, out: Path, *args: str):
    result = runner("--campaign", name, "report", "-o", str(out), *args)
    assert result.exit_code == 0, result.output
    return parse(out.read_text(encoding="utf-8"))


def rating_at(ratings: list[dict], warband: str, position: int):
    """Independently of the report: the rm_ratings row in force at a position."""
    rows = [r for r in ratings if r["warband"] == warband and r["position"] <= position]
    return rows[-1]["rating"] if rows else None


def test_standings_and_roster_cards_show_the_read_models(fixture_campaign, demo, tmp_path):
    name, tables = fixture_campaign
    page = write_report(demo, name, tmp_path / "report.html")
    warbands = tables.rows("rm_warbands", "seq")
    ruleset = rulesets.get(tables.rows("rm_campaigns")[0]["ruleset"])
    names = rulesets.row_names_of(state_of(demo.store, name))
    rated, terms = ruleset.rating is not None, ruleset.terms
    expected = {
        w["name"]: {"name": w["name"], "treasury": str(w["treasury"]), "games": str(w["games"]), "wins": str(w["wins"])}
        | ({"rating": str(w["rating"])} if rated else {})
        for w in warbands
    }
    assert standings(page) == expected
    assert warbands  # the check above compared something
    headers = [th.text for th in page.find("table", id="standings").find_all("th")]
    assert headers == ["Warband", "Player", *([terms.rating] if rated else []), terms.treasury, "Battles", "Wins"]
    for w in warbands:
        card = page.find("article", data_warband=w["warband"])
        assert card.find("dd", data_key="treasury").text == str(w["treasury"])
        if rated:
            assert card.find("dd", data_key="rating").text == str(w["rating"])
        facts = card.find("dl")
        resources = terms.resources_of(w["ext"])  # declared by the ruleset, or its whole-number facts
        if terms.resources:
            assert resources == [(label, w["ext"].get(key, 0)) for key, label in terms.resources.items()]
        assert [dd.text for dd in facts.find_all("dd", data_key="resource")] == [str(v) for _label, v in resources]
        labels = [dt.text for dt in facts.find_all("dt")]
        assert all(label in labels for label, _value in resources)
        fighters = [f for f in tables.rows("rm_fighters", "seq") if f["warband"] == w["warband"]]
        shown = {s.attrs["data-fighter"]: s for s in card.iter() if "data-fighter" in s.attrs}
        assert set(shown) == {f["fighter"] for f in fighters}
        for f in fighters:
            section = shown[f["fighter"]]
            assert section.find("span", data_key="xp").text == str(f["xp"])
            assert f["name"] in section.find("h4").text
            for item in f["skills"] + f["injuries"] + f["keywords"]:
                assert item in section.text
            for item in f["equipment"]:  # by the name the campaign's tables give it, as the chronicle names it
                assert rulesets.name_in(names, "item", item) in section.text
            if f["stats"]:
                profile = section.find("dl", class_="profile")
                shown_stats = {box.find("dt").text: box.find("dd").text for box in profile.find_all("div")}
                # the read model's stats, and "-" for a characteristic of the game's profile the fighter lacks
                assert {name: int(value) for name, value in shown_stats.items() if value != "-"} == f["stats"]
                assert all(name not in f["stats"] for name, value in shown_stats.items() if value == "-")


def test_charts_follow_the_ratings_and_xp_of_the_read_models(fixture_campaign, demo):
    name, tables = fixture_campaign
    report = report_of(demo.store, name)
    marks = report.marks
    battles = [b for b in tables.rows("rm_battles", "position") if b["voided_by"] is None]
    assert [m.battle for m in marks] == [None] + [b["battle"] for b in battles]
    log = {row["position"]: row for row in tables.rows("rm_log", "position")}
    assert [m.head for m in marks] == [log[m.position]["hash"] for m in marks]
    warbands = tables.rows("rm_warbands", "seq")
    ratings = tables.rows("rm_ratings", "tx")
    if report.has_rating:
        series = {s.name: [p.value for p in s.points] for s in report.rating_chart.series}
        assert series == {
            w["name"]: [rating_at(ratings, w["warband"], m.position) for m in marks] for w in warbands
        }
        assert {name: values[-1] for name, values in series.items()} == {w["name"]: w["rating"] for w in warbands}
    else:
        assert report.rating_chart is None and ratings == []
    fighters = tables.rows("rm_fighters", "seq")
    for card in report.cards:
        if card.xp_chart is None:  # nobody has had XP at any battle's end
            assert all(not f["xp"] for f in fighters if f["warband"] == card.warband["warband"])
            continue
        ends = {s.name: s.points[-1].value for s in card.xp_chart.series}
        assert ends == {f["name"]: f["xp"] for f in fighters if f["warband"] == card.warband["warband"]}


def test_a_roster_card_names_what_the_campaign_keeps_by_id(demo, tmp_path):
    """The cards showed ids where the chronicle shows names: "played by Bob · skaven", "Equipment
    power-scroll", "— hired-sword", "Type ogre-bodyguard", "Skill lists combat, shooting"."""
    coreheim = FIXTURES["coreheim"]["name"]
    assert demo("--campaign", coreheim, "report", "-o", str(tmp_path / "c.html")).exit_code == 0
    html = (tmp_path / "c.html").read_text(encoding="utf-8")
    for fragment in ('<p class="sub">played by Ann · Mercenaries (Reikland)</p>',
                     '<p class="sub">played by Bob · Skaven Clan Eshin</p>',
                     '<p><span class="label">Equipment</span> Power Scroll</p>',
                     '<span class="role">— hired sword, <strong>RETIRED</strong></span>',
                     '<p><span class="label">Type</span> Ogre Bodyguard</p>',
                     '<p><span class="label">Type</span> Youngblood</p>',
                     '<p><span class="label">Skill lists</span> Combat, Shooting</p>'):
        assert fragment in html
    log = json.loads(demo("--campaign", coreheim, "log", "--full", "--all", "--json").output)
    found_in = next(row["tx"] for row in log if row["text"] == "Reikland Rats stash gains Dwarven Ale")
    found = max(row["position"] for row in log if row["tx"] == found_in)  # the end of its transaction
    page = tmp_path / "found.html"
    assert demo("--campaign", coreheim, "report", "-o", str(page), "--until", str(found)).exit_code == 0
    assert "<dt>Stash</dt><dd>Dwarven Ale</dd>" in page.read_text(encoding="utf-8")  # kept as dwarven-ale
    chronicle = demo("--campaign", coreheim, "export", "--format", "md").output
    assert "Played by Bob · Skaven Clan Eshin\n" in chronicle
    assert "| Grok (**retired**) | hired sword<br>Type: Ogre Bodyguard<br>Race: Ogre |" in chronicle
    assert "|  |  | Power Scroll |\n" in chronicle
    trench = FIXTURES["trench-crusade"]["name"]
    assert demo("--campaign", trench, "report", "-o", str(tmp_path / "t.html")).exit_code == 0
    assert '<p class="sub">played by Ann · Trench Pilgrims</p>' in (tmp_path / "t.html").read_text(encoding="utf-8")
    # A faction the tables do not name (freeform's, as typed) is shown as kept.
    freeform = FIXTURES["freeform"]["name"]
    assert demo("--campaign", freeform, "report", "-o", str(tmp_path / "f.html")).exit_code == 0
    assert '<p class="sub">played by Bob · Skaven</p>' in (tmp_path / "f.html").read_text(encoding="utf-8")


def test_the_text_roster_names_them_as_the_card_does(demo):
    """`campaign roster` said 'Clan Skrit (Bob, skaven)', 'equipment: power-scroll', 'Grok — hired-sword',
    'type: ogre-bodyguard', and a henchman group hired as the lists' generic type 'type: henchman'; its --json
    keeps the ids."""
    coreheim = ("--campaign", FIXTURES["coreheim"]["name"])
    assert demo(*coreheim, "roster", "Clan Skrit").output.splitlines() == [
        "Clan Skrit (Bob, Skaven Clan Eshin)  treasury 377  wyrdstone shards 0  rating 78  games 3  wins 2",
        "  Snikch — leader  XP 27  M6 A1 W1 T-1 WS7 BS8 I6 Ld6", "      type: Assassin", "      race: Skaven",
        "  Skulk — hero  XP 9  M5 A1 W1 T0 WS7 BS8 I7 Ld6", "      equipment: Power Scroll", "      type: Adept",
        "      race: Skaven",
        "  Verminkin x4 — henchman  XP 3  M5 A1 W1 T0 WS9 BS9 I6 Ld8", "      type: Henchman", "      race: Skaven",
        "  Grok — hired sword [retired]  XP 3  M6 A2 W4 T-1 WS8 BS10 I9 Ld8", "      type: Ogre Bodyguard",
        "      race: Ogre",
    ]
    kept = json.loads(demo(*coreheim, "roster", "Clan Skrit", "--json").output)
    assert kept["faction"] == "skaven" and kept["roster"][1]["equipment"] == ["power-scroll"]
    trench = demo("--campaign", FIXTURES["trench-crusade"]["name"], "roster", "Pilgrims of Saint Gaius").output
    assert trench.startswith("Pilgrims of Saint Gaius (Ann, Trench Pilgrims)  treasury 930")


def test_the_chronicle_tells_each_battle_and_strikes_voided_actions(demo, tmp_path):
    name = FIXTURES["freeform"]["name"]
    tables = Tables(demo.store, name)
    page = write_report(demo, name, tmp_path / "report.html")
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    names = {w["warband"]: w["name"] for w in tables.rows("rm_warbands")}
    for battle in tables.rows("rm_battles", "position"):
        shown = page.find("div", data_battle=str(battle["battle"]))
        winner = f"won by {names[battle['winner']]}" if battle["winner"] else "a draw"
        assert winner in shown.text
    voided = [row for row in tables.rows("rm_log", "position") if row["voided_by"] is not None]
    assert voided  # the freeform demo voids a disputed roll
    for tx in sorted({row["tx"] for row in voided}):
        row = next(r for r in voided if r["tx"] == tx)
        block = page.find("div", id=f"T{tx}")
        assert "voided" in block.attrs["class"]
        # When, to the minute in UTC ("2026-12-07 17:50 UTC"); the exact time recorded stays in its datetime.
        at, minute = row["voided_at"], f"{row['voided_at'][:10]} {row['voided_at'][11:16]} UTC"
        assert (f'<p class="void-note">Voided by <a href="#T{row["voided_by"]}">T{row["voided_by"]}</a> ({row["voided_by_actor"]}, '
                f'<time datetime="{at}" title="{at}">{minute}</time>): {row["void_reason"]}</p>') in html
        struck = [li for li in block.find_all("li")]
        assert struck and all(li.find_all("del") for li in struck)
    rolled = [row for row in tables.rows("rm_log", "position") if row["event_type"] == "dice.rolled"]
    assert rolled
    for tx in sorted({row["tx"] for row in rolled}):  # the dice that decided things, face by face
        items = page.find("div", id=f"T{tx}").find_all("li", class_="dice")
        assert [[int(die.text) for die in li.find_all("span", class_="die")] for li in items] == [
            row["payload"]["faces"] for row in rolled if row["tx"] == tx
        ]


def test_a_transaction_says_when_to_the_minute_and_keeps_the_exact_time(demo, tmp_path):
    """It said '2026-12-07T17:50:52.946865Z', which a phone broke after '2026-12-'."""
    name = FIXTURES["freeform"]["name"]
    [first] = [row for row in Tables(demo.store, name).rows("rm_log", "position") if row["position"] == 1]
    stamp = first["recorded_at"]
    assert stamp.endswith("Z") and "." in stamp  # as recorded: microseconds, UTC
    minute = f"{stamp[:10]} {stamp[11:16]} UTC"
    assert demo("--campaign", name, "report", "-o", str(tmp_path / "r.html")).exit_code == 0
    assert (f'<div class="tx-head">T1 · <code>campaign new</code> · by arbiter · <time datetime="{stamp}" title="{stamp}">{minute}</time></div>'
            in (tmp_path / "r.html").read_text(encoding="utf-8"))
    assert f"- T1 `campaign new` by arbiter, {minute}\n" in demo("--campaign", name, "export", "--format", "md").output


def test_a_transaction_is_headed_by_its_command_as_a_player_types_it(tmp_path):
    """It was headed by the tag the command is recorded under ('coreheim.hire', 'reroll (the die fell off
    the table)'), which the log keeps: its rm_log rows are as they were."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (["new", "League", "--ruleset", "coreheim"],
                 ["warband", "add", "Rats", "--player", "Ann", "--faction", "mercenaries/reikland"],
                 ["coreheim", "hire", "Rats", "Gunnar", "--type", "captain"], ["roll", "D6", "--for", "loot", "--dice", "2"],
                 ["reroll", "R0", "--reason", "the die fell off the table", "--dice", "5"]):
        assert runner(*args).exit_code == 0, args
    assert runner("report", "-o", str(tmp_path / "r.html")).exit_code == 0
    heads = [div.text for div in parse((tmp_path / "r.html").read_text(encoding="utf-8")).find_all("div", class_="tx-head")]
    assert [head.split(" · by ")[0] for head in heads] == [
        "T1 · campaign new", "T2 · campaign warband add", "T3 · campaign coreheim hire", "T4 · campaign roll",
        "T5 · campaign reroll (the die fell off the table)", "T6 · campaign roll",
    ]
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<div class="tx-head">T3 · <code>campaign coreheim hire</code> · by arbiter · <time' in html
    assert '<div class="tx-head">T5 · <code>campaign reroll</code> (the die fell off the table) · by arbiter · <time' in html
    chronicle = runner("export", "--format", "md").output
    assert "\n- T3 `campaign coreheim hire` by arbiter, " in chronicle
    assert "\n- T5 `campaign reroll` (the die fell off the table) by arbiter, " in chronicle
    recorded = [row["text"] for row in json.loads(runner("log", "--all", "--json").output) if row["type"] == "command.recorded"]
    assert recorded == ["campaign.new", "warband.enlist", "coreheim.hire", "roll", "reroll (the die fell off the table)", "roll"]


@pytest.mark.parametrize(("stamp", "shown"), [
    ("2026-12-07T17:50:52.946865Z", "2026-12-07 17:50 UTC"),
    ("2026-12-07T23:59:59+02:00", "2026-12-07 21:59 UTC"),  # said in UTC, as the rest
    ("2026-12-07T17:50:52", "2026-12-07 17:50"),  # no zone recorded: none claimed
    ("yesterday", "yesterday"),  # not a time: as recorded
])
def test_when(stamp, shown):
    assert render.when(stamp) == shown


def test_the_group_s_own_tables_are_named_among_the_house_rules_not_printed_whole(tmp_path):
    """A campaign started with --tables showed the whole JSON of its tables in the house rules (the
    glorious deeds: 10 KB of it, a wall across the top of the page and on the Markdown's first lines)."""
    deeds = msgspec.to_builtins(TRENCH_TABLES.defaults.glorious_deeds)
    (tmp_path / "tables.json").write_bytes(msgspec.json.encode({"glorious-deeds": deeds}))
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    assert runner("new", "League", "--ruleset", "trench-crusade", "--tables", str(tmp_path / "tables.json")).exit_code == 0
    assert runner("report", "-o", str(tmp_path / "r.html")).exit_code == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert ("<tr><th>promotion_stop_rule</th><td><code>first-six</code></td></tr>\n"
            "    <tr><th>tables</th><td>the group&#39;s own glorious-deeds table (whole in the exported audit trail)</td></tr>"
            in html)
    assert "back-to-the-mud" not in html
    assert runner("export", "--format", "md").output.splitlines()[4] == (
        "House rules: `dice=table`, `head_wound_promotion=false`, `promotion_stop_rule=first-six`, "
        "`tables`: the group's own glorious-deeds table (whole in the exported audit trail)")
    header = json.loads(runner("export", "--format", "jsonl").output.splitlines()[0])
    assert header["ruleset"]["options"]["tables"] == json.loads((tmp_path / "tables.json").read_text())  # whole there


def test_a_campaign_with_the_ruleset_s_own_tables_says_so(demo, tmp_path):
    page = tmp_path / "r.html"
    assert demo("--campaign", FIXTURES["coreheim"]["name"], "report", "-o", str(page)).exit_code == 0
    assert "<tr><th>tables</th><td>none: the ruleset&#39;s own</td></tr>" in page.read_text(encoding="utf-8")  # was {}


def test_the_audit_box_shows_heads_verification_and_revealed_seeds(demo, tmp_path):
    name = FIXTURES["coreheim"]["name"]
    assert demo("--campaign", name, "seed", "reveal").exit_code == 0
    tables = Tables(demo.store, name)
    page = write_report(demo, name, tmp_path / "report.html")
    [campaign] = tables.rows("rm_campaigns")
    assert page.find(id="head").text == campaign["head"]
    assert page.find(id="verdict").text == (
        f"Hash chain intact: {campaign['events']} events in {campaign['transactions']} transactions, "
        "checked when this was written."
    )
    [revealed] = [row for row in tables.rows("rm_log", "position") if row["event_type"] == "seed.revealed"]
    assert revealed["payload"]["seed"] in page.find("section", id="audit").text
    log = {row["position"]: row["hash"] for row in tables.rows("rm_log", "position")}
    heads = page.find("table", id="heads").find_all("tr")[1:]
    assert [(int(r.find_all("td")[1].text), r.find_all("td")[2].text) for r in heads] == [
        (p, log[p]) for p in [int(r.find_all("td")[1].text) for r in heads]
    ]
    assert len(heads) == 1 + campaign["battles"]


def test_the_audit_box_says_plainly_when_no_ledger_dice_were_used(tmp_path):
    """Of a campaign whose dice were all typed in it said 'Ledger dice: none rolled.', then 'None yet: the
    ledger dice of the open epoch are proved once its seed is revealed', as if a proof were pending."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    page = tmp_path / "r.html"
    assert runner("new", "League").exit_code == 0
    assert runner("roll", "D6", "--for", "weather", "--dice", "4").exit_code == 0
    assert runner("report", "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "<p>Ledger dice: none used (table dice only).</p>" in html
    assert '<p class="empty">None: no ledger dice were used (table dice only), so there is no seed to reveal.</p>' in html
    assert "Revealed dice seeds: none: no ledger dice were used (table dice only).\n" in runner("export", "--format", "md").output
    assert runner("roll", "D6", "--for", "omens", "--ledger").exit_code == 0  # one ledger roll: its proof waits
    assert runner("report", "-o", str(page), "--force").exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "<p>Ledger dice: 1 roll of epoch 0 waits for its seed to be revealed.</p>" in html
    assert ('<p class="empty">None yet: the ledger dice of the open epoch are proved once its seed is revealed '
            "(<code>campaign seed reveal</code>).</p>") in html
    assert "Revealed dice seeds: none yet.\n" in runner("export", "--format", "md").output


def test_the_dice_boxes_repeat_the_faces_for_the_eye_alone(tmp_path):
    """A roll's sentence says its faces; the boxes are hidden from screen readers, which ignored the
    aria-label a plain <span> had ('faces', said of nothing)."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    assert runner("new", "League").exit_code == 0
    assert runner("roll", "2D6", "--for", "weather", "--dice", "4,1").exit_code == 0
    assert runner("report", "-o", str(tmp_path / "r.html")).exit_code == 0
    assert ('<li class="dice">R0 weather: 2D6 rolled [4, 1] = 5 (table). <span class="faces" aria-hidden="true">'
            '<span class="die">4</span><span class="die">1</span></span></li>') in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_battle_and_until_show_the_campaign_as_it_stood(demo, tmp_path):
    name = FIXTURES["coreheim"]["name"]
    then = json.loads(demo("--campaign", name, "replay", "--battle", "1", "--json").output)
    page = write_report(demo, name, tmp_path / "b1.html", "--battle", "1")
    assert standings(page) == {
        w["name"]: {"name": w["name"], "rating": str(w["rating"]), "treasury": str(w["treasury"]),
                    "games": str(w["games"]), "wins": str(w["wins"])}
        for w in then["warbands"]
    }
    assert page.find(id="cut").text == (
        f"The campaign as it stood after battle 1 (position {then['events']}), not as it stands now."
    )
    assert page.find(id="head").text == then["head"]
    assert [h.text for h in page.find("section", id="chronicle").find_all("h3")] == ["Before the first battle", "Battle 1"]
    until = write_report(demo, name, tmp_path / "u20.html", "--until", "20")
    log = {row["position"]: row["hash"] for row in Tables(demo.store, name).rows("rm_log")}
    assert until.find(id="head").text == log[20]
    assert "The campaign as it stood at position 20" in until.find(id="cut").text


@pytest.mark.parametrize("ruleset", ["freeform", "coreheim", "trench-crusade"])
def test_an_empty_campaign_has_a_report(ruleset, tmp_path):
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    assert runner("new", "Empty", "--ruleset", ruleset).exit_code == 0
    page = write_report(runner, "Empty", tmp_path / "empty.html")
    assert page.find("section", id="standings-section").find("p", class_="empty").text == "No warbands yet."
    assert [h.text for h in page.find("section", id="chronicle").find_all("h3")] == ["Before the first battle"]
    assert "Campaign Empty started." in page.find("section", id="chronicle").text
    assert not page.find_all("svg")


WBR_TEST = rulesets.Ruleset(
    id="wbr-test",
    version="1",
    title="Shared commands with a WBR and a Renown resource, named only by their terms",
    handlers=SHARED_HANDLERS,
    rating=lambda state, warband: 100 + sum(f.xp for f in state.fighters_of(warband)),
    terms=Terms(rating="WBR", treasury="Crowns", resources={"renown": "Renown"}),
)


def test_a_ruleset_names_its_rating_and_resources_with_its_terms(monkeypatch, tmp_path):
    monkeypatch.setitem(rulesets.load_rulesets(), WBR_TEST.id, WBR_TEST)
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (
        ["new", "League", "--ruleset", "wbr-test"],
        ["warband", "add", "Rats", "--player", "Ann", "--treasury", "50"],
        ["fighter", "add", "Rats", "Gunnar", "--role", "leader"],
        ["xp", "award", "Gunnar", "4", "--reason", "won"],
    ):
        assert runner(*args).exit_code == 0, runner(*args).output
    page = write_report(runner, "League", tmp_path / "r.html")
    headers = [th.text for th in page.find("table", id="standings").find_all("th")]
    assert headers == ["Warband", "Player", "WBR", "Crowns", "Battles", "Wins"]
    assert standings(page)["Rats"]["rating"] == "104"
    facts = page.find("article", data_warband="rats").find("dl").text
    assert "WBR 104" in facts and "Crowns 50" in facts and "Renown 0" in facts


GOLDEN = sorted((Path(__file__).parent.parent / "golden").glob("*.jsonl"))


@pytest.mark.parametrize("trail", GOLDEN, ids=lambda path: path.stem)
def test_every_golden_campaign_has_a_report_that_agrees_with_its_fold(trail):
    """Campaigns of every ruleset, with voids, rerolls and refusals: the page renders, and its
    standings, XP and voids are those of the campaign folded from its events."""
    chain = audit.read_trail(trail.read_bytes(), void_annotations)
    state = fold(chain.records)
    report = build_report(chain.records, Verification(ok=True, summary="checked"))
    page = parse(render.report_html(report))
    expected = {}
    for warband in state.warbands:
        row = warband_row(state, warband)
        expected[row["name"]] = {"name": row["name"], "treasury": str(row["treasury"]), "games": str(row["games"]),
                                 "wins": str(row["wins"])} | ({"rating": str(row["rating"])} if report.has_rating else {})
    assert (standings(page) if state.warbands else {}) == expected
    for card in report.cards:
        if card.xp_chart is not None:
            assert len(card.xp_chart.series) == len(card.fighters)
            for series, fighter in zip(card.xp_chart.series, card.fighters):
                assert (series.name, series.points[-1].value) == (fighter["name"], state.fighters[fighter["fighter"]].xp)
    for tx in voids_in(chain.records):
        assert "voided" in page.find("div", id=f"T{tx}").attrs["class"]
    assert render.chronicle_md(report).startswith(f"# {state.name}\n")


def test_a_voided_battle_is_told_where_it_was_recorded():
    """Battles 2 and 3, voided with the Promotions roll before them, stay in battle 1's chapter; they
    were told at its top, before battle 1's own record (T9), and read as fought before it."""
    [trail] = [path for path in GOLDEN if "voiding-a-promotion-roll" in path.stem]
    report = build_report(audit.read_trail(trail.read_bytes(), void_annotations).records, None)
    [chapter] = [c for c in report.chapters if c.title == "Battle 1"]
    assert [(b.number, b.tx, bool(b.voided)) for b in chapter.battles] == [(1, 9, False), (2, 22, True), (3, 37, True)]
    html = render.report_html(report)
    at = {key: html.index(key) for key in ('<h3>Battle 1</h3>', 'data-battle="1"', 'id="T9"', 'id="T21"',
                                           'data-battle="2"', 'id="T22"', 'id="T36"', 'data-battle="3"', 'id="T37"')}
    assert list(at) == sorted(at, key=at.get)  # each battle right before the transaction that recorded it
    markdown = render.chronicle_md(report)
    assert "### Battle 1\n\n**Battle 1 (Trench Warfare):** Pilgrims vs Legion — won by Pilgrims." in markdown
    assert ("  - Legion: post-game step Roster done for battle 1.\n\n*Voided by T40:* ~~**Battle 2 (Trench Warfare):** "
            "Pilgrims vs Legion — won by Pilgrims. Anna: glorious deed Good Hunting. Bert: glorious deed Headshot.~~\n\n"
            "- T22 `campaign trench-crusade battle`") in markdown


def test_an_xp_chart_needs_a_battle_and_some_xp(tmp_path):
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (["new", "League"], ["warband", "add", "Rats", "--player", "Ann"],
                 ["warband", "add", "Skaven", "--player", "Bob"], ["fighter", "add", "Rats", "Gunnar", "--role", "leader"],
                 ["battle", "record", "--warband", "Rats", "--warband", "Skaven", "--winner", "Rats"]):
        assert runner(*args).exit_code == 0
    captions = lambda page: [c.text for c in page.find_all("figcaption")]  # noqa: E731
    assert captions(write_report(runner, "League", tmp_path / "a.html")) == []  # nobody has XP yet
    assert runner("xp", "award", "Gunnar", "2", "--reason", "won").exit_code == 0
    assert captions(write_report(runner, "League", tmp_path / "b.html")) == ["Rats: each fighter's XP over the battles"]


def test_warbands_shows_its_rating_as_wbr(demo, tmp_path):
    """The issue: every ruleset "with its own rating and terms — WBR for warbands"."""
    page = write_report(demo, FIXTURES["warbands"]["name"], tmp_path / "w.html")
    assert [th.text for th in page.find("table", id="standings").find_all("th")][2:4] == ["WBR", "XP pool"]


def test_a_battle_s_post_game_recorded_after_the_next_battle_began_is_named_in_the_notice(tmp_path):
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (["new", "League", "--ruleset", "retinue"],
                 *[step for w in "HWXY" for step in (["warband", "add", w, "--player", f"p{w}"],
                                                     ["retinue", "recruit", w, f"{w}1", "--ancestry", "Human"])],
                 ["battle", "record", "--warband", "H", "--warband", "W", "--winner", "H"],
                 ["battle", "record", "--warband", "X", "--warband", "Y", "--winner", "X"],
                 ["retinue", "battle-pass", "H"]):
        assert runner(*args).exit_code == 0, args
    page = write_report(runner, "League", tmp_path / "b1.html", "--battle", "1")
    assert page.find(id="cut").text == (
        "The campaign as it stood after battle 1 (position 22), not as it stands now. Not in it, recorded once a "
        "later battle had begun: H's post-game of battle 1 (Battle pass).")


def test_a_battle_begins_with_the_incapacitations_recorded_while_it_was_played(demo):
    """Speedheim's Incapacitations are recorded during the game, before its battle: they named battle 2
    and were shown (and folded) in the campaign once battle 1."""
    speedheim = ("--campaign", FIXTURES["speedheim"]["name"])
    # each worded as when it was recorded: "in the game toward battle 2" while it was played
    in_battle_2 = [line for line in demo(*speedheim, "log", "--battle", "2", "--all").output.splitlines()
                   if line.endswith(("in the game toward battle 2", "in battle 2"))]
    assert [line.endswith("in battle 2") for line in in_battle_2] == [False] * 3 + [True]  # then the battle's record
    assert not [line for line in demo(*speedheim, "log", "--battle", "1", "--all").output.splitlines()
                if "battle 2" in line]
    first_tx = int(in_battle_2[0].split()[1][1:])  # "T32"
    log = json.loads(demo(*speedheim, "log", "--full", "--all", "--json").output)
    once_1 = json.loads(demo(*speedheim, "replay", "--battle", "1", "--json").output)
    assert once_1["events"] == min(row["position"] for row in log if row["tx"] == first_tx) - 1


def test_the_muster_ends_where_battle_1_begins_with_what_was_recorded_while_it_was_played(demo):
    """The chronicle put battle 1's Incapacitations before the first battle, while replay and log
    --battle 1 counted them in it: the muster ends where battle 1 begins."""
    speedheim = ("--campaign", FIXTURES["speedheim"]["name"])
    log = json.loads(demo(*speedheim, "log", "--full", "--all", "--json").output)
    first_incap = min(row["position"] for row in log if row["text"].endswith(("in the game toward battle 1", "in battle 1")))
    chronicle = demo(*speedheim, "export", "--format", "md").output
    muster = next(line for line in chronicle.splitlines() if line.startswith("| the muster (before battle 1) |"))
    begins = min(row["position"] for row in log if row["tx"] == next(r["tx"] for r in log if r["position"] == first_incap))
    assert muster.split(" | ")[1] == str(begins - 1)


def test_a_name_typed_in_lower_case_begins_its_chronicle_line_as_typed(tmp_path):
    """The chronicle made each line a sentence by capitalising its first letter, and so wrote the
    names people typed in lower case otherwise than the log, the roster and the standings: "Uruk
    enlisted by dan", "D'Artagnan gains 2 XP". The ledger's own words still begin with a capital."""
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (["new", "League"], ["warband", "add", "uruk", "--player", "dan"],
                 ["fighter", "add", "uruk", "d'Artagnan", "--role", "leader"],
                 ["xp", "award", "d'Artagnan", "2", "--reason", "won"],
                 ["fighter", "rename", "d'Artagnan", "athos"], ["xp", "award", "athos", "1", "--reason", "won"]):
        assert runner(*args).exit_code == 0, args
    page = write_report(runner, "League", tmp_path / "r.html")
    lines = [li.text for li in page.find("section", id="chronicle").find_all("li")]
    assert lines[0] == "Campaign League started."
    assert lines[3:] == ["uruk enlisted by dan with 0 in the treasury.", "d'Artagnan, leader, joins uruk.",
                         "d'Artagnan gains 2 XP (won).", "d'Artagnan is now called athos.", "athos gains 1 XP (won)."]
    chronicle = runner("export", "--format", "md").output
    assert "  - uruk enlisted by dan with 0 in the treasury.\n" in chronicle
    assert "  - athos gains 1 XP (won).\n" in chronicle


def test_a_cut_inside_the_hire_of_a_hired_sword_is_refused_and_either_side_rates_him_once_typed(demo, tmp_path):
    """Between a Hired Sword's recruit and his type (one transaction: `coreheim hire`), `report --until`
    and `replay --until` failed with exit 70 ('' is not a Hired Sword): the rating read his type. The
    campaign never stood there (a transaction is stored whole): both refuse it alike, naming the hire's
    bounds; before and after it, he is rated once typed."""
    name = FIXTURES["coreheim"]["name"]
    log = json.loads(demo("--campaign", name, "log", "--full", "--all", "--json").output)
    joins = next(row for row in log if row["text"] == "Grok, hired sword, joins Clan Skrit")
    assert next(row for row in log if row["position"] == joins["position"] + 1)["text"] == "Grok is an Ogre Bodyguard (Ogre)"
    hire = [row["position"] for row in log if row["tx"] == joins["tx"]]
    refused = (f"Error: position {joins['position']} is inside T{joins['tx']} (positions {hire[0]} to {hire[-1]}), "
               "which is stored whole: the campaign never stood between its events; give "
               f"--until {hire[0] - 1} (before T{joins['tx']}) or --until {hire[-1]} (after it)\n")
    for command in (["replay", "--json"], ["report", "-o", str(tmp_path / "inside.html")]):
        inside = demo("--campaign", name, *command, "--until", str(joins["position"]))
        assert (inside.exit_code, inside.output) == (2, refused)
    assert not (tmp_path / "inside.html").exists()
    ratings = {}
    for position in (hire[0] - 1, hire[-1]):
        replayed = demo("--campaign", name, "replay", "--until", str(position), "--json")
        assert replayed.exit_code == 0, replayed.output
        ratings[position] = {w["name"]: w["rating"] for w in json.loads(replayed.output)["warbands"]}["Clan Skrit"]
        page = write_report(demo, name, tmp_path / f"u{position}.html", "--until", str(position))
        assert standings(page)["Clan Skrit"]["rating"] == str(ratings[position])
    assert ratings[hire[0] - 1] < ratings[hire[-1]]  # counted once his type is on record


def test_a_cut_at_the_head_does_not_say_the_campaign_stands_otherwise_now(two_battles, tmp_path):
    """`--battle K` of the latest battle (or `--until` its last position) said "not as it stands now"
    of the campaign exactly as it stands."""
    runner, events = two_battles
    for args, cut in ((["--battle", "2"], f"after battle 2 (position {events})"), (["--until", str(events)], f"at position {events}")):
        page = write_report(runner, "League", tmp_path / "now.html", *args, "--force")
        assert page.find(id="cut").text == f"The campaign as it stood {cut}, as it still stands: nothing was recorded after it."
    page = write_report(runner, "League", tmp_path / "then.html", "--battle", "1")
    assert page.find(id="cut").text.endswith(", not as it stands now.")


@pytest.fixture
def two_battles(tmp_path):
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (["new", "League"], ["warband", "add", "Rats", "--player", "Ann"], ["warband", "add", "Skaven", "--player", "Bob"],
                 ["battle", "record", "--warband", "Rats", "--warband", "Skaven", "--winner", "Rats"],
                 ["battle", "record", "--warband", "Rats", "--warband", "Skaven", "--winner", "Skaven"]):
        assert runner(*args).exit_code == 0, args
    return runner, json.loads(runner("show", "--json").output)["events"]
