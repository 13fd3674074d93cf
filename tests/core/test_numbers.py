"""What a record may hold: whole numbers up to ±(2**53 - 1), nothing fractional (NaN and infinity
included). Most payloads are found plain without walking them; every other one is walked, and the
refusal names where the number is."""

from __future__ import annotations

import math

import msgspec
import msgspec.inspect
import pytest

from ledger import events as ev
from ledger import rulesets
from ledger.errors import BadInput
from ledger.records import LARGEST_NUMBER, check_numbers


@pytest.mark.parametrize("payload", [
    {},
    {"amount": 3, "reason": "won", "faces": [3, 5], "deeds": [{"fighter": "gunnar", "out": True, "by": None}]},
    {"treasury": LARGEST_NUMBER, "debt": -LARGEST_NUMBER},
    {"text": "9" * 40, "seed": "01" * 32},  # long runs of digits in text are no numbers
    {"nested": [[[[{"deep": [1, 2, 3]}]]]]},
])
def test_whole_numbers_within_bounds_pass(payload):
    check_numbers(payload, "treasury.changed")


@pytest.mark.parametrize("payload, message", [
    ({"delta": 1.5}, "1.5 (treasury.changed.delta) is not a whole number: the ledger records integers only"),
    ({"delta": 2.0}, "2.0 (treasury.changed.delta) is not a whole number: the ledger records integers only"),
    ({"x": [1, {"y": math.nan}]}, "nan (treasury.changed.x[1].y) is not a whole number: the ledger records integers only"),
    ({"x": -math.inf}, "-inf (treasury.changed.x) is not a whole number: the ledger records integers only"),
    ({"delta": LARGEST_NUMBER + 1},
     f"{LARGEST_NUMBER + 1} (treasury.changed.delta) is too large: the ledger records whole numbers up to {LARGEST_NUMBER}"),
    ({"a b": [-(10**30)]},
     f"{-(10**30)} (treasury.changed['a b'][0]) is too small: the ledger records whole numbers down to -{LARGEST_NUMBER}"),
])
def test_a_fraction_or_a_number_too_large_is_refused_naming_where_it_is(payload, message):
    with pytest.raises(BadInput) as refused:
        check_numbers(payload, "treasury.changed")
    assert str(refused.value) == message


def _fraction_fields(info: msgspec.inspect.Type, where: str, seen: set[type]) -> list[str]:
    """Where a type's values may hold a fraction: a float, or a decimal, at any depth."""
    if isinstance(info, (msgspec.inspect.FloatType, msgspec.inspect.DecimalType)):
        return [where]
    if isinstance(info, msgspec.inspect.StructType):
        if info.cls in seen:
            return []
        seen.add(info.cls)
        return [found for f in info.fields for found in _fraction_fields(f.type, f"{where}.{f.name}", seen)]
    inner = [getattr(info, name) for name in ("item_type", "key_type", "value_type") if hasattr(info, name)]
    inner += list(getattr(info, "types", ())) + list(getattr(info, "item_types", ()))
    return [found for kind in inner for found in _fraction_fields(kind, where, seen)]


def test_no_event_type_of_any_ruleset_holds_a_fraction():
    """The fast readers of rows and trail lines rely on it: their decoders refuse a fraction where a
    field takes any value, so an event read by them holds none (ledger.stored_chain, ledger.trail)."""
    rulesets.load_rulesets()
    assert len(ev.EVENT_TYPES) > 50
    assert [found for tag, kind in ev.EVENT_TYPES.items()
            for found in _fraction_fields(msgspec.inspect.type_info(kind), tag, set())] == []
