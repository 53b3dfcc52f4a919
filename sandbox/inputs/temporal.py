"""Datetimes, dates, times and durations like those seen, widened in their kind: a point in time is
drawn as a count (of seconds, days or microseconds) around the counts seen, and keeps the time zone
of one seen, in either fold, and the microseconds of one seen (or none). Only sampled, a zone's
helper that the tests reach with two instants (`_isdst(dt)`) would have two inputs, and a draft
wrong at the change of summer time would pass."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from .drawing import Context, Element, ints, sample

KINDS: dict[type, str] = {
    datetime.datetime: "datetime",
    datetime.date: "date",
    datetime.time: "time",
    datetime.timedelta: "timedelta",
}

_EPOCH = datetime.datetime(1970, 1, 1)
_SECOND = datetime.timedelta(seconds=1)
_MICROSECOND = datetime.timedelta(microseconds=1)
_LEAST_MARGIN = {"datetime": 400 * 86400, "date": 400, "time": 3600, "timedelta": 86400 * 10**6}


def shape(kind: str, values: list[Any], context: Context) -> Element:
    """Values of `kind` ("datetime", "date", "time", "timedelta") around those seen; these too."""
    count, made = _COUNTS[kind]
    counts = [count(value) for value in values]
    low, high = min(counts), max(counts)
    margin = max(_LEAST_MARGIN[kind], (high - low) // 2)
    number = ints(context, low - margin, high + margin, [low, high])
    zones = [getattr(value, "tzinfo", None) for value in values]
    micros = sorted({0, *(getattr(value, "microsecond", 0) for value in values)})

    def build(drawn: int, zone: Any, fold: int, micro: int) -> Any:
        try:
            value = made(drawn, zone, fold)
            return value.replace(microsecond=micro) if hasattr(value, "microsecond") else value
        except (OverflowError, ValueError):  # past the calendar's ends: one seen
            return values[0]

    parts = (sample(zones).strategy, st.integers(0, 1), st.sampled_from(micros))
    strategy = st.builds(build, number.strategy, *parts)
    fresh = number.fresh

    def fresh_value(rng: random.Random, size: int) -> Any:
        drawn = fresh(rng, size) if fresh else low
        return build(drawn, rng.choice(zones), rng.randint(0, 1), rng.choice(micros))

    return Element(st.one_of(sample(values).strategy, strategy), fresh_value)


def _datetime(seconds: int, zone: Any, fold: int) -> datetime.datetime:
    return (_EPOCH + seconds * _SECOND).replace(tzinfo=zone, fold=fold)


def _date(days: int, zone: Any, fold: int) -> datetime.date:
    return datetime.date.fromordinal(days)


def _time(seconds: int, zone: Any, fold: int) -> datetime.time:
    seconds %= 86400
    return datetime.time(seconds // 3600, seconds // 60 % 60, seconds % 60, tzinfo=zone, fold=fold)


def _timedelta(microseconds: int, zone: Any, fold: int) -> datetime.timedelta:
    return microseconds * _MICROSECOND


_COUNTS: dict[str, tuple[Callable[[Any], int], Callable[[int, Any, int], Any]]] = {
    "datetime": (lambda value: (value.replace(tzinfo=None) - _EPOCH) // _SECOND, _datetime),
    "date": (lambda value: value.toordinal(), _date),
    "time": (lambda value: value.hour * 3600 + value.minute * 60 + value.second, _time),
    "timedelta": (lambda value: value // _MICROSECOND, _timedelta),
}
