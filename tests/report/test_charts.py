"""The charts' geometry: scales, gaps before a fighter joins, and end labels that never overlap."""

from projections.charts import LABEL_GAP, TICK_GAP, TOP, line_chart


def test_points_are_placed_on_the_scale_and_gaps_are_left_out():
    chart = line_chart("XP", ["start", "after 1", "after 2"], [("Gunnar", [0, 5, 10]), ("Hans", [None, 2, 2])])
    gunnar, hans = chart.series
    assert [p.value for p in gunnar.points] == [0, 5, 10]
    assert [p.label for p in hans.points] == ["after 1", "after 2"]  # not there at the start
    bottom, top = gunnar.points[0].y, gunnar.points[2].y
    assert top == TOP and bottom == TOP + chart.plot_height
    assert gunnar.points[1].y == (top + bottom) / 2
    assert [value for _y, value in chart.y_ticks] == [0, 2, 4, 6, 8, 10]
    assert (gunnar.marker, hans.marker) == ("circle", "square") and gunnar.dash != hans.dash


def test_end_labels_keep_apart_without_leaving_the_plot():
    chart = line_chart("XP", ["start", "after 1"], [("Cain", [0, 5]), ("Baal", [0, 3]), ("Dag", [0, 0]), ("Wret", [0, 0])])
    ys = sorted(s.label_y for s in chart.series)
    assert all(b - a >= LABEL_GAP for a, b in zip(ys, ys[1:]))
    cain = next(s for s in chart.series if s.name == "Cain")
    assert cain.label_y == cain.points[-1].y + 4  # the top label stays by its line
    assert max(ys) <= TOP + chart.plot_height + 4


def test_no_values_no_chart():
    assert line_chart("XP", ["start"], [("Gunnar", [None])]) is None


def test_x_labels_of_a_long_campaign_do_not_run_together():
    """Every mark was labelled: past ten battles "after 9", "after 10", … overlapped into one smudge."""
    few = ["start", "after 1", "after 2", "after 3"]
    assert [label for _x, label in line_chart("XP", few, [("Gunnar", [0, 1, 2, 3])]).x_ticks] == few
    many = ["start", *[f"after {n}" for n in range(1, 16)]]
    ticks = line_chart("XP", many, [("Gunnar", list(range(16)))]).x_ticks
    assert [label for _x, label in ticks] == [f"after {n}" for n in range(1, 16, 2)]  # the latest always
    xs = [x for x, _label in ticks]
    assert all(b - a >= TICK_GAP for a, b in zip(xs, xs[1:]))
