"""The timing of both versions: which inputs to time with, one round by the judge's own clock, and
the measurement with its confirmation, as the verdict's contract.Timing (the statistics are
timing.py's)."""

from __future__ import annotations

import time
from typing import Any, Callable

from .. import contract, wire
from .workers import Worker

WORKLOADS = 24  # inputs timed together in each loop of a round
SIZE_GROUP = 8  # inputs timed together for each end of TimingSpec.cost_by_size
SIZE_CALL_LIMIT_S = 0.1  # inputs the original took longer on are left out of it
LOOP_SHARE = 300  # one loop of the workload costs the original at most this share of TimingSpec.max_seconds
WORKLOAD_SOURCES = frozenset({"captured", "fixture", "doctest", "generated"})  # besides the user's examples
SAMPLE_EVERY = 8  # rounds between compared results, after the first two


def choose_workloads(passed: list[tuple[str, bytes, float]], spec: contract.TimingSpec) -> list[bytes]:
    """The function's real workload: the project's pytest-benchmark inputs where it has some; else
    the user's examples (whatever their cost: they say what matters), then the busiest of the
    project's captured calls, the inputs made of its tests' fixtures' values, the docstring's
    examples and the generated inputs (those of `--size` among them), largest first, as many as fit
    in one loop's budget. An input that does not fit is passed over, not the end of the choice: one
    quadratic call on the largest input must not leave only the tiny ones (a draft 50x faster at
    size would be timed at about 1x). Explored, stray and symbolic inputs are checks, not
    workloads. When every input is slow, the quickest few."""
    from .timing import FEW_WORKLOADS

    preferred = [payload for source, payload, _ in passed if source == "benchmark"]
    if preferred:
        return preferred[:WORKLOADS]
    budget = max(2 * spec.min_round_s, spec.max_seconds / LOOP_SHARE)
    chosen = [payload for source, payload, _ in passed if source == "example"][:WORKLOADS]
    spent = sum(seconds for source, _, seconds in passed if source == "example")
    # Where the original returned on no real input (strays alone), what it returned on.
    pool = [item for item in passed if item[0] in WORKLOAD_SOURCES] or [item for item in passed if item[0] != "example"]
    for _, payload, seconds in sorted(pool, key=lambda item: (item[2], len(item[1])), reverse=True):
        if len(chosen) == WORKLOADS:
            break
        if spent + seconds <= budget and payload not in chosen:
            chosen.append(payload)
            spent += seconds
    if len(chosen) < FEW_WORKLOADS:
        quickest = [payload for _, payload, _ in sorted(pool, key=lambda item: item[2]) if payload not in chosen]
        chosen += quickest[: FEW_WORKLOADS - len(chosen)]
    return chosen


class TimedMismatch(Exception):
    """The new version's results while timed differ from the original's on the same inputs."""


def sampled(round_number: int) -> bool:
    """Whether a round's results are compared: the first two (a draft that remembers differs from
    the second call on) and every eighth, besides each measurement's last (compare_last_rounds);
    each costs one encoding of the loop's results, untimed."""
    return round_number <= 2 or round_number % SAMPLE_EVERY == 0


def round_runner(original: Worker, candidate: Worker) -> Callable[[str, int], float]:
    """One timed round of either version, by the judge's own clock; in sampled rounds, the results of
    the round's last loop are compared with the other version's (TimedMismatch): a draft right on the
    checked calls but not on the timed ones (state, a cache) is wrong, not fast."""
    workers = {"original": original, "candidate": candidate}
    rounds = {"original": 0, "candidate": 0}
    samples: dict[str, list[Any]] = {}

    def run(which: str, loops: int) -> float:
        worker = workers[which]
        worker.send({"kind": "round", "loops": loops})
        if not worker.answer(600.0).get("prepared"):
            raise wire.ChannelClosed(f"the {which} failed while its round was prepared")
        started = time.perf_counter()
        worker.send({"kind": "go"})
        answer = worker.answer(600.0)
        elapsed = time.perf_counter() - started
        if "seconds" not in answer:
            raise wire.ChannelClosed(f"the {which} failed while being timed")
        rounds[which] += 1
        if sampled(rounds[which]):
            results = worker.ask({"kind": "sample"}, 600.0).get("results")
            if not isinstance(results, list):
                raise wire.ChannelClosed(f"the {which} gave no results of its timed calls")
            samples[which] = results
            if len(samples) == 2:
                _compare_samples(samples.pop("original"), samples.pop("candidate"))
        return elapsed

    return run


def compare_last_rounds(original: Worker, candidate: Worker) -> None:
    """The results of each version's last round compared (TimedMismatch)."""
    expected, actual = (worker.ask({"kind": "sample"}, 600.0).get("results") for worker in (original, candidate))
    if not (isinstance(expected, list) and isinstance(actual, list)):
        raise wire.ChannelClosed("a version gave no results of its timed calls")
    _compare_samples(expected, actual)


def _compare_samples(expected: list[Any], actual: list[Any]) -> None:
    from ..values.comparison import compare

    if len(expected) != len(actual):
        raise TimedMismatch("its timed calls gave another number of results than the original's")
    for index, (want, got) in enumerate(zip(expected, actual)):
        if want is None or got is None:
            continue  # a result neither could encode is compared nowhere else either
        difference = compare(want, got)
        if difference is not None:
            raise TimedMismatch(
                f"its result on timed input {index + 1} differs from the original's after repeated calls: {difference}"
            )


def measure_both(
    original: Worker,
    candidate: Worker,
    spec: contract.TimingSpec,
    workloads: int,
    confirming: Callable[[], tuple[Worker, Worker]] | None = None,
) -> contract.Timing:
    """The measurement, and where its interval clears the threshold, its confirmation: in the pair
    `confirming()` gives (fresh processes), else in the same one."""
    from . import timing

    precision = timing.timer_precision()
    deadline = time.monotonic() + spec.max_seconds

    def one(seed: int, rounds: int, pair: tuple[Worker, Worker]) -> Any:
        found = timing.measure(
            round_runner(*pair),
            rounds=rounds,
            max_rounds=spec.max_rounds,
            min_round=spec.min_round_s,
            deadline=deadline,
            workloads=workloads,
            seed=seed,
            precision=precision,
            threshold=spec.threshold,
            early=True,
        )
        compare_last_rounds(*pair)  # after the most calls either process will have had
        return found

    first = one(spec.seed, spec.rounds, (original, candidate))
    # The confirmation: a new pair, a new calibration and a new order, half the rounds (more if its
    # interval is wide).
    second = None
    if first.interval()[0] > spec.threshold:
        pair = confirming() if confirming is not None else (original, candidate)
        second = one(spec.seed + 1, max(8, spec.rounds // 2), pair)
    low, high = first.interval()
    calls = workloads  # the measurements are per loop
    return contract.Timing(
        speedup=first.speedup,
        speedup_ci=(low, high),
        faster=timing.decide(first, second, spec.threshold),
        rounds=len(first.ratios) + (len(second.ratios) if second else 0),
        loops=first.loops,
        workloads=workloads,
        original_call_s=sorted(first.original)[len(first.original) // 2] / calls,
        candidate_call_s=sorted(first.candidate)[len(first.candidate) // 2] / calls,
        confirmation_ci=second.interval() if second else None,
    )
