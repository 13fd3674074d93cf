"""campaign report, and roster --format html|md: what they print, what they write, how they refuse."""

from tests.report.dom import parse, standings


def test_report_writes_one_self_contained_page(two_warbands, tmp_path):
    out = tmp_path / "league.html"
    head = two_warbands("show", "--json").output.split('"head": "')[1].split('"')[0]
    result = two_warbands("report", "--out", str(out))
    assert (result.exit_code, result.output) == (0, f"Wrote the report of Test League to {out}. Head {head}\n")
    html = out.read_text(encoding="utf-8")
    # Self-contained: no file, stylesheet, script or image is fetched from anywhere.
    for fetched in ("src=", "href=\"http", "@import", "url(", "<link"):
        assert fetched not in html
    assert standings(parse(html)) == {
        "Reikland Rats": {"name": "Reikland Rats", "treasury": "440", "games": "0", "wins": "0"},
        "Clan Skrittle": {"name": "Clan Skrittle", "treasury": "210", "games": "0", "wins": "0"},
    }


def test_report_is_named_after_the_campaign_by_default(two_warbands, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = two_warbands("report")
    assert result.exit_code == 0
    assert result.output.startswith("Wrote the report of Test League to test-league-report.html. Head ")
    assert (tmp_path / "test-league-report.html").is_file()
    # Written again after the next session: not over the last one unasked (it was), with --force over it
    again = two_warbands("report")
    assert (again.exit_code, again.output) == (
        2, "Error: test-league-report.html already exists: nothing written; --force replaces it\n")
    assert two_warbands("report", "--force").output.startswith("Wrote the report of Test League to test-league-report.html.")


def test_report_refuses_bad_cuts_and_paths_writing_nothing(two_warbands, tmp_path):
    out = tmp_path / "r.html"
    for args, code, message in [
        (["--until", "0"], 2, "Error: --until takes a position from 1\n"),
        (["--until", "5", "--battle", "1"], 2, "Error: give --until or --battle, not both\n"),
        (["--until", "99"], 2, "Error: no position 99: the campaign has 14 events\n"),
        (["--battle", "1"], 2, "Error: no battle 1 (battles: none yet)\n"),
        # Inside a transaction, which is stored whole: the report showed a campaign that never stood so
        # (before the first one's ruleset was pinned it said "no ruleset ''").
        *[(["--until", str(position)], 2, f"Error: position {position} is inside T1 (positions 1 to 4), which is "
           "stored whole: the campaign never stood between its events; give --until 4 (after it)\n")
          for position in (1, 2, 3)],
        (["--until", "9"], 2, "Error: position 9 is inside T4 (positions 9 to 11), which is stored whole: the "
         "campaign never stood between its events; give --until 8 (before T4) or --until 11 (after it)\n"),
    ]:
        result = two_warbands("report", "--out", str(out), *args)
        assert (result.exit_code, result.output) == (code, message)
        assert not out.exists()
    assert two_warbands("report", "--out", str(out), "--until", "4").exit_code == 0  # the campaign started
    missing = tmp_path / "no-such-folder" / "r.html"
    result = two_warbands("report", "--out", str(missing))
    assert (result.exit_code, result.output) == (2, f"Error: cannot write {missing}: No such file or directory\n")


def test_roster_sheet_in_markdown(two_warbands):
    two_warbands("item", "gain", "Reikland Rats", "sword", "--fighter", "Gunnar")
    two_warbands("fighter", "add", "Reikland Rats", "Marksmen", "--role", "henchman", "--group-size", "3", "--cost", "25")
    head = two_warbands("show", "--json").output.split('"head": "')[1].split('"')[0]
    assert two_warbands("roster", "Reikland Rats", "--format", "md").output == (
        "# Reikland Rats\n"
        "\n"
        "Played by Ann\n"
        "\n"
        "- **Treasury:** 365\n"
        "- **Battles:** 0 fought, 0 won\n"
        "- **Fighters:** 2 active\n"
        "- **Stash:** empty\n"
        "\n"
        "| Fighter | Role | XP | Battles | Cost | Profile | Skills, keywords | Injuries | Equipment |\n"
        "|---|---|---:|---:|---:|---|---|---|---|\n"
        "| Gunnar | leader | 0 | 0 | 60 | WS 4 |  |  | sword |\n"
        "| Marksmen ×3 | henchman | 0 | 0 | 25 |  |  |  |  |\n"
        "\n"
        f"*Test League · Freeform (shared commands only) · head {head[:16]}*\n"
    )


def test_the_markdown_roster_sheet_holds_what_the_html_card_does(two_warbands, tmp_path):
    """`--format md` is "the same in Markdown": it left out the fighters in service and each fighter's
    battles and cost, which the HTML card shows."""
    two_warbands("battle", "record", "--warband", "Reikland Rats", "--warband", "Clan Skrittle", "--winner", "Reikland Rats")
    two_warbands("fighter", "add", "Reikland Rats", "Marksmen", "--role", "henchman", "--group-size", "3", "--cost", "25")
    out = tmp_path / "rats.html"
    assert two_warbands("roster", "Reikland Rats", "--format", "html", "-o", str(out)).exit_code == 0
    card = parse(out.read_text(encoding="utf-8")).find("article")
    markdown = two_warbands("roster", "Reikland Rats", "--format", "md").output
    assert f"- **Fighters:** {card.find('dd', data_key='fighters').text}\n" in markdown
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ") for line in markdown.splitlines() if line.startswith("| ")}
    for section in card.find_all("section"):
        name = section.find("h4").text.split(" — ")[0]
        xp, battles, cost = rows[name][2:5]
        assert section.find("p").text == (f"XP {xp} · {battles} {'battle' if battles == '1' else 'battles'}"
                                          + (f" · cost {cost}" if cost else ""))


def test_roster_sheet_in_html_to_a_file(two_warbands, tmp_path):
    out = tmp_path / "rats.html"
    result = two_warbands("roster", "reikland-rats", "--format", "html", "-o", str(out))
    assert (result.exit_code, result.output) == (0, f"Wrote the roster sheet of Reikland Rats to {out} (html).\n")
    page = parse(out.read_text(encoding="utf-8"))
    [card] = page.find_all("article")
    assert card.attrs["data-warband"] == "reikland-rats"
    assert card.find("dd", data_key="treasury").text == "440"
    assert card.find("section", data_fighter="gunnar").find("h4").text == "Gunnar — leader"


def test_roster_sheet_refusals(two_warbands, tmp_path):
    for args, message in [
        (["--format", "md", "--json"], "Error: give --json or --format md, not both\n"),
        (["--output", str(tmp_path / "x.md")], "Error: --out writes a roster sheet: add --format html or --format md\n"),
    ]:
        result = two_warbands("roster", "Reikland Rats", *args)
        assert (result.exit_code, result.output) == (2, message)
    result = two_warbands("roster", "Nobody", "--format", "md")
    assert result.exit_code == 2 and result.output.startswith("Error: no warband 'Nobody'")


def test_names_people_typed_are_shown_as_typed(campaign, tmp_path):
    """Markup in a name or reason is text: escaped in HTML, backslashed in Markdown."""
    name = "<script>alert(1)</script> *Rats*_|"
    for args in (["new", "League"], ["warband", "add", name, "--player", "Ann"],
                 ["note", "a `tick` and ~tilde~", "--warband", name]):
        assert campaign(*args).exit_code == 0
    out = tmp_path / "r.html"
    assert campaign("report", "-o", str(out)).exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; *Rats*_|" in html
    chronicle = campaign("export", "--format", "md").output
    assert "### \\<script>alert(1)\\</script> \\*Rats\\*\\_|\n" in chronicle
    assert "| \\<script>alert(1)\\</script> \\*Rats\\*\\_\\| | Ann |" in chronicle
    assert "  - Note: a \\`tick\\` and \\~tilde\\~.\n" in chronicle


def test_a_card_drawn_is_a_line_of_the_chronicle_not_a_roster_card(two_warbands, tmp_path):
    assert two_warbands("draw", "cards", "--for", "fate", "--ledger").exit_code == 0
    out = tmp_path / "r.html"
    assert two_warbands("report", "-o", str(out)).exit_code == 0
    page = parse(out.read_text(encoding="utf-8"))
    [drawn] = page.find_all("li", class_="draw")
    assert drawn.text.startswith("Fate: drew ") and drawn.text.endswith(" from cards.")
    assert {e.tag for e in page.iter() if "card" in e.attrs.get("class", "").split()} == {"article"}
