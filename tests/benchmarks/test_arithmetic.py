"""The benchmark's own arithmetic: the projection of peak memory to 1M events (the slope between two
measured sizes, so that what a process holds at any size is not counted as a cost per event), and
the hashing baseline the trail's throughput is measured against."""

from __future__ import annotations

import uuid

import pytest

from benchmarks.run import Campaign, memory_sizes, projected_peak


def test_the_peak_is_extended_along_the_slope_between_the_two_sizes():
    # 33.3 MB at 1,000 events and 35.9 MB at 10,000: 2.6 MB over 9,000 events
    at_million, per_event = projected_peak((1_000, 33.3), (10_000, 35.9))
    assert per_event == pytest.approx(2.6 / 9_000)
    assert at_million == pytest.approx(35.9 + 2.6 / 9_000 * 990_000)


def test_a_fixed_cost_is_not_projected():
    # The old projection, (peak - baseline) / events x 1M, took 30 MB held at every size for 3 KB an event
    assert projected_peak((1_000, 30.0), (10_000, 30.0)) == (30.0, 0.0)


def test_a_smaller_peak_at_the_larger_size_counts_as_flat():
    assert projected_peak((1_000, 31.0), (10_000, 30.5)) == (30.5, 0.0)


def test_the_slope_is_measured_from_the_largest_smaller_campaign():
    """The MEMORY_LOW campaign where one was built, else the 1k one, else the bare sample."""
    def campaign(events: int) -> Campaign:
        return Campaign("freeform", f"c{events}", "sqlite:///x", uuid.uuid4(), events)

    large, low, small, sample = campaign(10_000), campaign(5_000), campaign(1_000), campaign(42)
    assert memory_sizes(large, [small, sample, low]) == (low, large)
    assert memory_sizes(large, [small, sample]) == (small, large)
    tiny, tiny_small = campaign(300), campaign(300)
    assert memory_sizes(tiny, [tiny_small, sample]) == (sample, tiny)


def test_the_hashing_baseline_is_the_formats_own_definition_in_pure_python():
    from benchmarks.run import pure_python_hash
    from ledger.records import hash_body

    body = {"position": 2, "type": "note.recorded", "recorded_at": "2026-12-01T18:00:00.000000Z", "actor": "Åsa",
            "tx": 1, "payload": {"text": "Skavenblight — “rats” \u2028 ok", "b": [1, {"a": None}]}, "prev_hash": "0" * 64}
    assert pure_python_hash(body) == hash_body(body)
