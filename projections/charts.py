"""Line charts as plain geometry for the report's inline SVG (the template draws them).

Each series gets a marker shape and a dash pattern as well as a colour, and its name is written
at the end of its line, so a chart reads in black and white print and without colour vision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH = 640
HEIGHT = 260
LEFT, RIGHT, TOP, BOTTOM = 44, 150, 16, 34  # margins: the right one holds the series' names
LABEL_GAP = 13  # least vertical distance between two end labels, in pixels
TICK_GAP = 52  # least horizontal distance between two x labels: "after 12" is some 45 pixels wide
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "plus", "triangle-down", "star")
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 4", "1 5", "12 4", "6 2 1 2")
COLOURS = ("#1b6ca8", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#555555", "#b8860b", "#00838f")


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    value: int
    label: str  # the x label, for the point's tooltip


@dataclass(frozen=True)
class Series:
    name: str
    points: list[Point]
    marker: str
    dash: str
    colour: str
    label_y: float  # where the name is written, right of the plot


@dataclass(frozen=True)
class Chart:
    title: str
    width: int
    height: int
    left: int
    top: int
    plot_width: int
    plot_height: int
    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, int]]
    series: list[Series]


def _nice_step(span: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 6:
            return step
    return max(1, span // 5)


def _spread(wanted: list[float], low: float, high: float) -> list[float]:
    """Move end labels apart, keeping their order, so that none overlaps the next: down from the
    top, then back up from the bottom where that pushed them past it."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = list(wanted)
    previous = low - LABEL_GAP
    for i in order:
        placed[i] = max(wanted[i], previous + LABEL_GAP)
        previous = placed[i]
    limit = high
    for i in reversed(order):
        placed[i] = min(placed[i], limit)
        limit = placed[i] - LABEL_GAP
    return placed


def _x_ticks(x_labels: Sequence[str], x_step: float) -> list[tuple[float, str]]:
    """The x labels written under the axis: every one while they fit, else every second (third, …)
    counted back from the last, so the latest battle is always named and no two labels run together."""
    every = math.ceil(TICK_GAP / x_step) if len(x_labels) > 1 else 1
    last = len(x_labels) - 1
    return [(round(LEFT + i * x_step, 1), label) for i, label in enumerate(x_labels) if (last - i) % every == 0]


def line_chart(title: str, x_labels: Sequence[str], series: Sequence[tuple[str, Sequence[int | None]]]) -> Chart | None:
    """A chart of whole-number series over the same x labels; None values are gaps (not yet there).
    None when no series has a value."""
    values = [v for _name, vs in series for v in vs if v is not None]
    if not values:
        return None
    low, high = min(0, min(values)), max(values)
    step = _nice_step(max(high - low, 1))
    low = (low // step) * step
    high = -(-high // step) * step if high > low else low + step
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    x_step = plot_w / max(len(x_labels) - 1, 1)

    def y_of(value: int) -> float:
        return round(TOP + plot_h - (value - low) * plot_h / (high - low), 1)

    drawn = []
    for n, (name, vs) in enumerate(series):
        points = [
            Point(round(LEFT + i * x_step, 1), y_of(v), v, x_labels[i]) for i, v in enumerate(vs) if v is not None
        ]
        if points:
            drawn.append((n, name, points))
    label_ys = _spread([points[-1].y + 4 for _n, _name, points in drawn], TOP + 4, TOP + plot_h + 4)
    return Chart(
        title=title,
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        top=TOP,
        plot_width=plot_w,
        plot_height=plot_h,
        x_ticks=_x_ticks(x_labels, x_step),
        y_ticks=[(y_of(v), v) for v in range(low, high + 1, step)],
        series=[
            Series(
                name=name,
                points=points,
                marker=MARKERS[n % len(MARKERS)],
                dash=DASHES[n % len(DASHES)],
                colour=COLOURS[n % len(COLOURS)],
                label_y=round(label_y, 1),
            )
            for (n, name, points), label_y in zip(drawn, label_ys)
        ],
    )
