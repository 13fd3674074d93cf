"""The report in headless Chromium: no console message or error, the standings read back from the
browser's DOM equal the read models, sorting works, and it is drawn (not blank) at desktop and phone
width without running off the side of a phone."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from . import browser
from ledger.testing import CampaignRunner

from .conftest import FIXTURES, Tables
from .dom import parse, standings

DESKTOP = (1280, 900)
PHONE = (390, 844)


def report_page(demo, name: str, folder: Path) -> Path:
    out = folder / "report.html"
    assert demo("--campaign", name, "report", "-o", str(out)).exit_code == 0
    return out


def with_script(page: Path, script: str) -> Path:
    """A copy of the page with a script run after its own, for what a reader would do (click)."""
    copy = page.with_name("driven-" + page.name)
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", f"<script>{script}</script></body>"),
                    encoding="utf-8")
    return copy


def test_the_console_check_catches_errors(tmp_path):
    """The check below can fail: a page that logs and throws is caught."""
    page = tmp_path / "broken.html"
    page.write_text('<!DOCTYPE html><p>x</p><script>console.error("bad thing"); throw new Error("boom")</script>')
    assert browser.load(page).console == ['"bad thing", source: ' + page.as_uri() + " (1)",
                                          '"Uncaught Error: boom", source: ' + page.as_uri() + " (1)"]


def test_standings_read_back_from_the_browser_equal_the_read_models(fixture_campaign, demo, tmp_path):
    name, tables = fixture_campaign
    loaded = browser.load(report_page(demo, name, tmp_path))
    assert loaded.console == []
    shown = standings(parse(loaded.dom))
    rated = any(w["rating"] is not None for w in tables.rows("rm_warbands"))
    assert shown == {
        w["name"]: {"name": w["name"], "treasury": str(w["treasury"]), "games": str(w["games"]), "wins": str(w["wins"])}
        | ({"rating": str(w["rating"])} if rated else {})
        for w in tables.rows("rm_warbands", "seq")
    }


def test_clicking_a_column_sorts_the_standings(demo, tmp_path):
    name = FIXTURES["coreheim"]["name"]
    page = with_script(report_page(demo, name, tmp_path), """
        document.querySelector('#standings th[data-key="treasury"] button').click();""")
    loaded = browser.load(page)
    assert loaded.console == []
    dom = parse(loaded.dom)
    order = [row.find("td", data_key="treasury").attrs["data-value"]
             for row in dom.find("table", id="standings").find("tbody").find_all("tr")]
    treasuries = sorted((w["treasury"] for w in Tables(demo.store, name).rows("rm_warbands")), reverse=True)
    assert [int(t) for t in order] == treasuries
    assert dom.find("th", data_key="treasury").attrs["aria-sort"] == "descending"


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_page_is_drawn_and_fits_the_width(size, fixture_campaign, demo, tmp_path):
    width, height = size
    page = report_page(demo, fixture_campaign[0], tmp_path)
    shot = Image.open(browser.screenshot(page, tmp_path / f"{width}.png", width, height)).convert("L")
    assert shot.size == size
    dark = sum(shot.histogram()[:128])
    assert dark > 0.01 * width * height  # text and rules drawn, not a blank page
    # Headless Chromium lays a --dump-dom page out at least 500 pixels wide, so the page itself is
    # narrowed to the width; what overflows <main> (other than scrollable tables) widens its
    # scrollWidth, and what overflows a fighter's box (a long profile) widens the box's.
    measured = browser.load(with_script(page, f"""
        document.documentElement.style.width = "{width}px";
        var main = document.querySelector("main");
        var spilling = Array.prototype.filter.call(document.querySelectorAll(".fighter"), function (box) {{
            return box.scrollWidth > box.clientWidth; }});
        var words = Array.prototype.map.call(document.querySelectorAll("svg.chart text"), function (text) {{
            return text.getBoundingClientRect().height; }});
        document.body.setAttribute("data-scroll-width", main.scrollWidth);
        document.body.setAttribute("data-spilling", spilling.length);
        document.body.setAttribute("data-chart-words", words.length ? Math.min.apply(null, words) : "");"""), width, height)
    assert measured.console == []
    body = parse(measured.dom).find("body")
    assert int(body.attrs["data-scroll-width"]) <= width  # no sideways scrolling
    assert body.attrs["data-spilling"] == "0"  # no fighter's profile runs into the next
    if body.attrs["data-chart-words"]:  # a chart's words stay readable (a 9-pixel font's box), on a phone too
        assert float(body.attrs["data-chart-words"]) >= 10


def test_each_roster_card_prints_on_a_page_of_its_own(tmp_path):
    runner = CampaignRunner("sqlite:///" + str(tmp_path / "c.db"))
    for args in (
        ["new", "Small"],
        ["warband", "add", "Rats", "--player", "Ann"],
        ["warband", "add", "Skaven", "--player", "Bob"],
        ["fighter", "add", "Rats", "Gunnar", "--role", "leader"],
        ["fighter", "add", "Skaven", "Snikch", "--role", "leader"],
    ):
        assert runner(*args).exit_code == 0
    page = tmp_path / "small.html"
    assert runner("report", "-o", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    rosters_only = "#house-rules, #chronicle, #audit { display: none; }"  # so that the rest is short

    def pages(name: str, style: str) -> int:
        copy = page.with_name(name + ".html")
        copy.write_text(html.replace("</head>", f"<style>{style}</style></head>"), encoding="utf-8")
        return browser.printed_pages(copy, tmp_path / (name + ".pdf"))

    # Without the print rule that breaks at cards it all fits on one page; with it, each card has its own.
    assert pages("run-on", rosters_only + "@media print { #rosters, .card ~ .card { break-before: auto !important; } }") == 1
    assert pages("cards", rosters_only) == 3
    sheet = tmp_path / "rats.html"
    assert runner("roster", "Rats", "--format", "html", "-o", str(sheet)).exit_code == 0
    assert browser.printed_pages(sheet, tmp_path / "rats.pdf") == 1  # a roster sheet alone: no blank page first


def test_the_chronicle_reads_for_one_warband(demo, tmp_path):
    name = FIXTURES["coreheim"]["name"]
    tables = Tables(demo.store, name)
    rats = next(w["warband"] for w in tables.rows("rm_warbands") if w["name"] == "Reikland Rats")
    page = with_script(report_page(demo, name, tmp_path), f"""
        var filter = document.getElementById("chronicle-filter");
        filter.value = "{rats}";
        filter.dispatchEvent(new Event("change"));""")
    loaded = browser.load(page)
    assert loaded.console == []
    items = parse(loaded.dom).find("section", id="chronicle").find_all("div", class_="tx")
    hidden = [i for i in items if "hidden" in i.attrs]
    shown = [i for i in items if "hidden" not in i.attrs]
    assert hidden and shown
    assert all(rats not in i.attrs["data-warbands"].split() and i.attrs["data-warbands"] for i in hidden)
    assert all(rats in i.attrs["data-warbands"].split() or not i.attrs["data-warbands"] for i in shown)
    hire = next(i for i in items if "Gunnar, leader, joins Reikland Rats." in i.text)
    assert hire.attrs["data-warbands"] == rats and hire in shown


def test_the_dice_of_a_voided_roll_are_struck_as_its_sentence_is(demo, tmp_path):
    """The sentence of a voided roll was struck through, its faces not: they read as dice that stand."""
    page = with_script(report_page(demo, FIXTURES["freeform"]["name"], tmp_path), """
        document.querySelectorAll("#chronicle .die").forEach(function (die) {
            die.setAttribute("data-struck", getComputedStyle(die).textDecorationLine); });""")
    loaded = browser.load(page)
    assert loaded.console == []
    chronicle = parse(loaded.dom).find("section", id="chronicle")
    voided = [die for tx in chronicle.find_all("div") if "voided" in tx.attrs.get("class", "").split()
              for die in tx.find_all("span", class_="die")]
    standing = [die for die in chronicle.find_all("span", class_="die") if die not in voided]
    assert voided and standing  # the freeform demo voids a disputed roll
    assert {die.attrs["data-struck"] for die in voided} == {"line-through"}
    assert {die.attrs["data-struck"] for die in standing} == {"none"}
