"""Timing statistics: interleaved rounds in random order, a bootstrap interval, and a confirmation.

A round runs one version's workload `loops` times in that version's own
process; the judge times it with its own clock. Each round pair runs both
versions in an order drawn at random, so drift and warm-up favour neither.
The ratio of a pair is original time / new time; the speedup is the median
ratio with a bootstrap 95% interval. A wide interval or few workloads buy more
rounds, and a claim ("faster") must hold twice: in the first measurement and
in a second, independent one with a new calibration and a new order.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Callable

RoundRunner = Callable[[str, int], float]  # (which: "original" | "candidate", loops) -> seconds
WIDE = 1.15  # an interval whose high/low ratio exceeds this is worth more rounds
FEW_WORKLOADS = 4


def bootstrap_median_ci(values: list[float], resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    generator = random.Random(seed)
    medians = sorted(statistics.median(generator.choices(values, k=len(values))) for _ in range(resamples))
    return medians[int(0.025 * resamples)], medians[int(0.975 * resamples) - 1]


def calibrate(run: Callable[[int], float], min_round: float, precision: float) -> int:
    """Loops per round so that a round lasts at least `min_round` (pytest-benchmark's way)."""
    min_time = max(min_round, precision * 10)
    estimate_from = min_time * 5 / 10
    loops = 1
    while True:
        duration = min(run(loops), run(loops))  # the second run is the warm one
        if duration >= min_time or loops >= 10**7:
            return loops
        if duration >= estimate_from:
            return max(1, math.ceil(min_time * loops / duration))
        loops *= 10


def timer_precision(samples: int = 50) -> float:
    """The smallest step perf_counter shows, measured here (never read from a file a draft could write)."""
    best = float("inf")
    for _ in range(samples):
        start = time.perf_counter()
        now = time.perf_counter()
        while now == start:
            now = time.perf_counter()
        best = min(best, now - start)
    return best


class Measurement:
    """The rounds of one measurement and what they say."""

    def __init__(self, ratios: list[float], original: list[float], candidate: list[float], loops: int) -> None:
        self.ratios, self.original, self.candidate, self.loops = ratios, original, candidate, loops

    @property
    def speedup(self) -> float:
        return statistics.median(self.ratios)

    def interval(self) -> tuple[float, float]:
        return bootstrap_median_ci(self.ratios)


def measure(run: RoundRunner, *, rounds: int, max_rounds: int, min_round: float, deadline: float,
            workloads: int, seed: int, precision: float) -> Measurement:
    """Interleaved rounds in random order, more of them while the interval is wide or workloads few."""
    order = random.Random(seed)
    run("original", 1)  # warm both: first calls pay for caches and lazy imports
    run("candidate", 1)
    loops = calibrate(lambda n: run("original", n), min_round, precision)
    ratios: list[float] = []
    original: list[float] = []
    candidate: list[float] = []
    target = rounds
    while len(ratios) < target:
        if order.random() < 0.5:
            first, second = run("original", loops), run("candidate", loops)
        else:
            second = run("candidate", loops)
            first = run("original", loops)
        original.append(first)
        candidate.append(second)
        ratios.append(first / second if second > 0 else float("inf"))
        if len(ratios) == target and target < max_rounds and time.monotonic() < deadline:
            low, high = bootstrap_median_ci(ratios)
            if high / max(low, 1e-12) > WIDE or workloads < FEW_WORKLOADS:
                target = min(max_rounds, target + 10)
        if time.monotonic() > deadline and len(ratios) >= 5:
            break
    return Measurement(ratios, original, candidate, loops)


def decide(first: Measurement, second: Measurement | None, threshold: float) -> bool:
    """A claim needs both measurements' lower bounds above the threshold."""
    if first.interval()[0] <= threshold:
        return False
    return second is not None and second.interval()[0] > threshold
