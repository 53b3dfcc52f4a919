"""Timing statistics: interleaved rounds in random order, a bootstrap interval, and a confirmation.

A round runs one version's workload `loops` times (each version calibrated
alone) in that version's own process; the judge times it with its own clock.
Each round pair runs both versions in an order drawn at random, so drift and
warm-up favour neither. The ratio of a pair is original time / new time, per
loop; the speedup is the median ratio with a bootstrap 95% interval. Few
workloads, or a wide interval that reaches above the threshold, buy more
rounds, and a claim ("faster") must hold twice: in the first measurement and
in a second, independent one with a new calibration and a new order.
"""

from __future__ import annotations

import functools
import math
import random
import statistics
import time
from typing import Callable

RoundRunner = Callable[[str, int], float]  # (which: "original" | "candidate", loops) -> seconds
WIDE = 1.15  # an interval whose high/low ratio exceeds this is worth more rounds
FEW_WORKLOADS = 4
# Sequential testing: from this many rounds on, a measurement whose interval has decided stops there.
# Not faster: the 95% interval lies wholly below the threshold (stopping so never makes a claim).
# Faster: the wider EARLY_LEVEL interval lies wholly above it, a stricter bar than the last round's,
# which keeps the looks from adding false claims (and a claim needs its confirmation still).
EARLY_ROUNDS = 6
EARLY_LEVEL = 0.99


def bootstrap_median_ci(
    values: list[float], resamples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float]:
    generator = random.Random(seed)
    medians = sorted(statistics.median(generator.choices(values, k=len(values))) for _ in range(resamples))
    tail = (1.0 - level) / 2
    return medians[int(tail * resamples)], medians[int((1.0 - tail) * resamples) - 1]


def calibrate(run: Callable[[int], float], min_round: float, precision: float) -> int:
    """Loops per round so that a round lasts at least `min_round` (pytest-benchmark's way), estimated
    from the first duration long enough to trust: stepping by ten alone could make rounds ten
    times longer than needed.

    A round may also cost time nobody times: the fresh copies of its inputs that a function which
    changes them needs before every call (pytest-benchmark times such a function one call per
    round). Where copying outweighs the calls, the timed part of a round shrinks so that the whole
    round, copies included, lasts about `min_round`, but never below `min_round / 20`.
    """
    min_time = max(min_round, precision * 10)
    floor = max(min_time / 20, precision * 1000)
    loops = 1
    while True:
        started = time.perf_counter()
        duration = min(run(loops), run(loops))  # the second run is the warm one
        timed_share = 2 * duration / max(time.perf_counter() - started, 1e-12)
        target = max(floor, min_time * min(1.0, timed_share))
        if loops >= 10**7 or (loops == 1 and duration >= target):
            return loops
        if duration >= floor:
            return max(1, math.ceil(target * loops / duration))
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
        # `original`, `candidate`: seconds per loop in each round; `loops`: the original's per round.
        self.ratios, self.original, self.candidate, self.loops = ratios, original, candidate, loops

    @property
    def speedup(self) -> float:
        return statistics.median(self.ratios)

    def interval(self) -> tuple[float, float]:
        return bootstrap_median_ci(self.ratios)


def measure(
    run: RoundRunner,
    *,
    rounds: int,
    max_rounds: int,
    min_round: float,
    deadline: float,
    workloads: int,
    seed: int,
    precision: float,
    threshold: float = 1.05,
    early: bool = False,
) -> Measurement:
    """Interleaved rounds in random order, more of them while the workloads are few, or the interval
    is wide and reaches above `threshold` (below it nothing is claimed, however wide it is); with
    `early`, fewer where the interval has decided before the last round (see EARLY_ROUNDS)."""
    order = random.Random(seed)
    run("original", 1)  # warm both: first calls pay for caches and lazy imports
    run("candidate", 1)
    # Each version's own loops: a draft 100x faster timed with the original's would run rounds
    # far below the timer's reach, and its ratios would be noise.
    loops = {
        which: calibrate(functools.partial(run, which), min_round, precision) for which in ("original", "candidate")
    }

    def per_loop(which: str) -> float:
        return run(which, loops[which]) / loops[which]

    ratios: list[float] = []
    original: list[float] = []
    candidate: list[float] = []
    target = rounds
    while len(ratios) < target:
        if order.random() < 0.5:
            first, second = per_loop("original"), per_loop("candidate")
        else:
            second = per_loop("candidate")
            first = per_loop("original")
        original.append(first)
        candidate.append(second)
        ratios.append(first / second if second > 0 else float("inf"))
        if early and EARLY_ROUNDS <= len(ratios) < target and workloads >= FEW_WORKLOADS and decided(ratios, threshold):
            break
        if len(ratios) == target and target < max_rounds and time.monotonic() < deadline:
            low, high = bootstrap_median_ci(ratios)
            if (high / max(low, 1e-12) > WIDE and high > threshold) or workloads < FEW_WORKLOADS:
                target = min(max_rounds, target + 10)
        if time.monotonic() > deadline and len(ratios) >= 5:
            break
    return Measurement(ratios, original, candidate, loops["original"])


def decided(ratios: list[float], threshold: float) -> bool:
    """Whether the rounds so far settle the question either way (see EARLY_ROUNDS). Asked after every
    round, so by the median's distribution-free interval (order statistics): no resampling, and for
    few rounds no narrower than the bootstrap's."""
    if median_interval(ratios, 0.95)[1] < threshold:
        return True
    return median_interval(ratios, EARLY_LEVEL)[0] > threshold


def median_interval(values: list[float], level: float) -> tuple[float, float]:
    """The narrowest interval of order statistics that holds the median with at least `level`
    probability (each value falls on either side of it with one chance in two); unbounded where the
    values are too few for `level` even from the smallest to the largest."""
    ordered, count = sorted(values), len(values)
    outside = 2 * 0.5**count  # the chance that all fall on one side: [min, max] misses the median
    if 1.0 - outside < level:
        return -math.inf, math.inf
    cut = 0  # values left out at each end
    while cut + 1 < count - cut - 1:
        # [x(cut + 2), x(n - cut - 1)] misses the median where at most cut + 1 values fall on one side.
        outside += 2 * math.comb(count, cut + 1) * 0.5**count
        if 1.0 - outside < level:
            break
        cut += 1
    return ordered[cut], ordered[count - 1 - cut]


def decide(first: Measurement, second: Measurement | None, threshold: float) -> bool:
    """A claim needs both measurements' lower bounds above the threshold."""
    if first.interval()[0] <= threshold:
        return False
    return second is not None and second.interval()[0] > threshold
