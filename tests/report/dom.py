"""A small reader of the report's HTML (standard library only): elements with their attributes,
text and children, enough to read the standings and cards back from a page or Chromium's DOM dump."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID_TAGS = {"meta", "link", "br", "img", "input", "hr", "col", "source", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    children: list[Element] = field(default_factory=list)
    content: list[str | Element] = field(default_factory=list)  # text and children, in document order

    @property
    def text(self) -> str:
        return " ".join(" ".join(part if isinstance(part, str) else part.text for part in self.content).split())

    def iter(self):
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str | None = None, **attrs: str) -> list[Element]:
        return [
            e for e in self.iter()
            if (tag is None or e.tag == tag) and all(e.attrs.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())
        ]

    def find(self, tag: str | None = None, **attrs: str) -> Element:
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag}> with {attrs}"
        return found[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(element)
        self.stack[-1].content.append(element)
        if tag not in VOID_TAGS:
            self.stack.append(element)

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        self.stack[-1].content.append(data)


def parse(html: str) -> Element:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def standings(page: Element) -> dict[str, dict[str, str]]:
    """The standings table: warband name -> column key -> the cell's data-value."""
    table = page.find("table", id="standings")
    return {
        row.find("td", data_key="name").attrs["data-value"]: {
            cell.attrs["data-key"]: cell.attrs["data-value"] for cell in row.find_all("td") if "data-key" in cell.attrs
        }
        for row in table.find("tbody").find_all("tr")
    }
