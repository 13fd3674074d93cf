"""The report's templates (files in `projections/templates/`), rendered with Jinja2.

HTML is autoescaped; Markdown is not, and escapes table cells with the `md` filter. The HTML
report inlines its styles and script, so the file it gives needs nothing else to be read.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from functools import cache
from typing import TYPE_CHECKING

from ledger.describe import plural
from ledger.text import written_out

if TYPE_CHECKING:
    import jinja2

    from projections.report import Report

FORMATS = ("html", "md")


# An escaped [ opens no link nor image, & no entity, # no heading (nor closes one: "Skrit #"), @ no
# e-mail link.
MARKDOWN_INLINE = re.compile(r"([\\`*_~<&\[#@])")
# What a renderer turns into a link with no bracket: `http://…` (and any scheme) and `www.…`.
AUTOLINK = re.compile(r"(?i)(?<=[a-z0-9])(:)(?=//)|(?<![a-z0-9])(www)(\.)")
# What makes a line's start a list item or a quote: "- list", "+ x", "> quote", "1. ord", "1) ord".
LINE_START = re.compile(r"^([-+>]|\d+(?=[.)]))")


def md_text(text: object) -> str:
    """Text people typed (names, reasons) as Markdown that shows it as typed: no emphasis, code, link,
    entity, HTML, nor a list, quote or heading where it begins a line, and no control character
    (`written_out`: whatever the store holds)."""
    escaped = MARKDOWN_INLINE.sub(r"\\\1", written_out(str(text)))
    escaped = AUTOLINK.sub(lambda found: "\\:" if found[1] else found[2] + "\\.", escaped)
    return LINE_START.sub(lambda found: "\\" + found[1] if not found[1][0].isdigit() else found[1] + "\\", escaped)


def md_code(text: object) -> str:
    """Text as a Markdown code span, whatever backticks it holds: fenced by one more than its longest run
    (a reason holding a backtick ended the span, and what followed it was Markdown and HTML again), on
    one line (`written_out`)."""
    text = written_out(str(text))
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_cell(text: object) -> str:
    """Text for a Markdown table cell: besides `md_text`, a pipe would end the cell, a newline the row."""
    return _in_cell(md_text(text))


def md_code_cell(text: object) -> str:
    """`md_code` in a table cell, whose pipes are escaped even inside a code span."""
    return _in_cell(md_code(text))


def _in_cell(markdown: str) -> str:
    return markdown.replace("|", "\\|").replace("\n", "<br>")


def when(stamp: str) -> str:
    """A recorded time as people read it, to the minute: "2026-12-07 17:50 UTC" for
    "2026-12-07T17:50:52.946865Z" (the audit trail keeps it whole)."""
    try:
        moment = datetime.fromisoformat(stamp)
    except (TypeError, ValueError):
        return str(stamp)
    if moment.tzinfo is None:
        return f"{moment:%Y-%m-%d %H:%M}"
    return f"{moment.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC"


@cache
def environment() -> jinja2.Environment:
    # Imported here, not with the module: every CLI command imports this one, few render a page.
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("projections", "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["md"] = md_cell
    env.filters["md_text"] = md_text
    env.filters["md_code"] = md_code
    env.filters["plural"] = plural
    env.filters["when"] = when
    return env


def report_html(report: Report) -> str:
    return environment().get_template("report.html.j2").render(report=report)


def chronicle_md(report: Report) -> str:
    return environment().get_template("chronicle.md.j2").render(report=report)


def roster_sheet(report: Report, warband_name: str, fmt: str) -> str:
    """One warband's roster card alone, as a printable HTML page or Markdown."""
    return environment().get_template(f"roster.{fmt}.j2").render(report=report, card_=report.card(warband_name))
