"""Names typed by players, read as the rules spell them."""

from __future__ import annotations

from collections.abc import Iterable


def as_spelled(name: str, known: Iterable[str]) -> str | None:
    """The rules' own spelling of `name`, whatever its case; None when the rules have no such name."""
    folded = name.casefold()
    return next((spelling for spelling in known if spelling.casefold() == folded), None)
