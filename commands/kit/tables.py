"""One loader for a ruleset's rule tables: JSON data files in its package, validated into frozen
msgspec Structs, with whole tables replaced by house rules (the campaign's `tables` option).

A ruleset declares a Struct whose fields are its tables; each field's default is read from
`<package>/data/<name>.json` (the name a house rule gives the table: the field's by default), or
`<package>/data/<field>.json` where the file is named after the field, decoded strictly
(unknown keys refused, so a typo in a house rule is an error, not a silent default), then checked
for meaning by the ruleset's own `check` (rows covering a die's range, ids that exist…).
Errors are `TableError`s naming the table: `campaign new` turns them into `Error: …`.
"""

from __future__ import annotations

import functools
import json
import pkgutil
from collections.abc import Callable, Mapping
from functools import cached_property, lru_cache
from typing import Any, Generic, TypeVar

import msgspec

from ledger.errors import BadInput

T = TypeVar("T", bound=msgspec.Struct)
R = TypeVar("R")


class TableError(BadInput):
    """A table (shipped or a house rule) does not decode or does not make sense."""


class Tables(Generic[T]):
    """The tables of one ruleset: `defaults`, and `for_options(options)` with its house rules.

    `names` maps a table's name (its house-rule key and data file) to the Struct field that holds it,
    where they differ (e.g. "hero-injury" -> "hero_injury"); by default they are the same."""

    def __init__(self, title: str, tables_type: type[T], package: str, *, names: Mapping[str, str] | None = None,
                 check: Callable[[T], None] | None = None, folder: str = "data") -> None:
        """`package` is the ruleset's package name (`__package__`): its tables are `<package>/<folder>/<name>.json`
        (or `<field>.json`)."""
        self.title = title
        self.tables_type = tables_type
        self.package = package
        self.folder = folder
        self.names = dict(names) if names else {f: f for f in tables_type.__struct_fields__}
        self.check = check
        self._types = {name: msgspec.structs.fields(tables_type)[_index(tables_type, field)].type
                       for name, field in self.names.items()}
        self._for = lru_cache(maxsize=32)(self._replaced)
        self._default = lru_cache(maxsize=None)(self._read_default)

    def decode(self, name: str, content: Any) -> Any:
        """One table from JSON text/bytes or decoded JSON (dicts and lists), strictly."""
        wanted = self._types[name]
        try:
            if isinstance(content, (str, bytes)):
                return msgspec.json.decode(content, type=wanted)
            return msgspec.convert(content, type=wanted)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            raise TableError(f"{self.title} table '{name}' is invalid: {error}") from None

    @cached_property
    def defaults(self) -> T:
        tables = self.tables_type(**{field: self._default(name) for name, field in self.names.items()})
        self._check(tables)
        return tables

    def table(self, name: str, options: Mapping[str, Any]) -> Any:
        """One of the campaign's tables (by its name). While the campaign replaces no table, the
        default is read alone from its file: a command that needs one table (a warband's rating)
        does not decode every other one. The shipped files are checked whole with `defaults`."""
        if not options.get("tables"):
            return self._default(name)
        return getattr(self.for_options(options), self.names[name])

    def _read_default(self, name: str) -> Any:
        # pkgutil, not importlib.resources: the same package data, without importing tempfile,
        # shutil, zipfile… at the start of every command that reads a table.
        def content(file: str) -> bytes:
            data = pkgutil.get_data(self.package, f"{self.folder}/{file}.json")
            if data is None:
                raise TableError(f"{self.title} table '{name}' cannot be read from {self.package}")
            return data

        try:
            found = content(name)  # a file named as house rules name the table,
        except FileNotFoundError:
            found = content(self.names[name])  # or as its field
        return self.decode(name, found)

    def with_house_rules(self, overrides: Mapping[str, Any] | None = None) -> T:
        """The defaults with whole tables replaced (each validated like the defaults); a replacement
        is JSON text/bytes or decoded JSON (dicts and lists)."""
        if not overrides:
            return self.defaults  # most campaigns, at every decision that reads a table
        parsed = {}
        for name, content in overrides.items():
            if isinstance(content, (str, bytes)):
                try:
                    content = msgspec.json.decode(content)
                except msgspec.DecodeError as error:
                    raise TableError(f"{self.title} table '{name}' is invalid: {error}") from None
            parsed[name] = content
        return self._for(msgspec.json.encode(parsed, order="sorted").decode("utf-8"))  # json.dumps's key, faster

    def for_options(self, options: Mapping[str, Any]) -> T:
        """The campaign's tables: its `tables` option replaces whole tables."""
        overrides = options.get("tables") or {}
        if not isinstance(overrides, Mapping):
            raise TableError("option tables maps table names to replacement tables")
        return self.with_house_rules(overrides)

    def _replaced(self, overrides: str) -> T:
        replacing = json.loads(overrides)
        if not replacing:
            return self.defaults
        unknown = sorted(set(replacing) - set(self.names))
        if unknown:
            raise TableError(f"there is no {self.title} table {', '.join(repr(n) for n in unknown)}; "
                             f"tables are: {', '.join(sorted(self.names))}")
        tables = msgspec.structs.replace(
            self.defaults, **{self.names[name]: self.decode(name, content) for name, content in replacing.items()})
        self._check(tables)
        return tables

    def _check(self, tables: T) -> None:
        if self.check is not None:
            try:
                self.check(tables)
            except ValueError as error:
                raise TableError(str(error)) from None


def _index(struct_type: type[msgspec.Struct], field: str) -> int:
    return struct_type.__struct_fields__.index(field)


def derived_from_tables(derive: Callable[[T], R]) -> Callable[[T], R]:
    """`derive(tables)` worked out once for each tables object (the defaults, or one campaign's with
    its house rules) and kept: for a lookup a command makes many times over (an item, a model),
    found by the object's identity, as hashing a tables object costs more than most searches."""
    kept: dict[int, tuple[T, R]] = {}

    @functools.wraps(derive)
    def once(tables: T) -> R:
        hit = kept.get(id(tables))
        if hit is None or hit[0] is not tables:
            hit = kept[id(tables)] = (tables, derive(tables))
        return hit[1]

    return once
