"""The calls a check runs, from every source there is, in order:

the user's examples, the examples in the function's docstring, the calls
captured from the project's tests, then inputs hypothesis draws: first those
whose objects the tests' fixtures made, then from what is known of each
parameter (inputs/plan.py). This runs in the planner's process,
which imports the ORIGINAL's module (its signature, defaults and classes) as
the original's user; never in the judge's, never the new version.
Each call travels to the versions' processes as a pickle in which module-level
objects and default values are names, so sentinels keep their identity.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import inspect
import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Callable, Literal

from .. import contract
from ..inputs import boundaries, examples, fields, grafts, inherited, literals, parameters, stubs
from ..inputs.fixture_pool import Pool
from ..inputs.plan import STRAY_DRAWS, plan_inputs
from ..inputs.variants import call_variants
from ..version import versions
from . import replays

Differs = Callable[[bytes, str, str], bool]  # (payload, the call as text, its source): whether the versions differ
TIMED_DRAWS = 24  # inputs of the user's size, for a check that is timed
EXPLORED_DRAWS = 16  # calls per (parameter, kind) beyond those seen, the others' values everyday ones
EXPLORED_LARGE_DRAWS = 6  # and with the others' values of the largest size
STRUCTURED_DRAWS = 100  # calls whose integers are all structured ones
PATTERNED_DRAWS = 12  # calls per strategy of runs of one value at a size next to a literal
CROSSED_DRAWS = 3  # calls per value (or combination) of the parameters of small closed domains
FIXTURE_DRAWS = 4  # calls per value the tests' fixtures made (each with other values of the other parameters)


class CannotPlan(Exception):
    """The original's module cannot be imported, or its function found: it cannot be checked."""


class _Differs(Exception):
    """The judge found the versions differ on a call: what makes hypothesis shrink it."""


class CallSource:
    def __init__(self, job: contract.CheckJob) -> None:
        self.job = job
        try:
            self.version = versions.Version(job.target, None)
        except LookupError as error:  # the module imported; the function is not where it can be checked
            raise CannotPlan(str(error)) from None
        except BaseException as error:
            problem = f"{type(error).__name__}: {error}"
            raise CannotPlan(f"cannot import {job.target.module} in the sandbox: {problem}") from None
        self.refs = self.version.refs()
        self.captured: list[examples.Call] = []
        self.benchmark: list[int] = []
        self.fixtures = Pool()
        self.constructions: list[examples.Call] = []  # the tests' calls of the owner's constructor, self aside
        self.missing: str | None = None
        self.kinds: dict[bytes, tuple[str, str]] = {}  # an explored input's (parameter, kind)
        if job.captured:
            data = json.loads(base64.b64decode(job.captured))
            self.add_captured(data.get("calls", []), data.get("benchmark", []))
            self.add_fixtures(data.get("fixtures", []))
            self.constructions = [
                examples.Call(call.args[1:], call.kwargs) for call in self.loaded(data.get("constructions", []))
            ]
            self.add_met(data.get("tests", []))

    def add_captured(self, calls: list[str], benchmark: list[int]) -> None:
        self.captured.extend(self.loaded(calls))
        self.benchmark = [i for i in benchmark if isinstance(i, int)]

    def add_met(self, tests: Any) -> None:
        """The calls met while the tests that call the function run again (replays.py), after those
        the tests' run kept, as captured calls: the tests' own uses of it, seen further."""
        if not isinstance(tests, list):
            return
        wanted = [
            (key, [text for text in texts if isinstance(text, str)])
            for key, texts in (test for test in tests if isinstance(test, list) and len(test) == 2)
            if isinstance(key, str) and isinstance(texts, list)
        ]
        blank = self.first == "instance" and self.job.target.function_name == "__init__"
        code = getattr(self.version.inner, "__code__", None)
        if not wanted or code is None:
            return
        met = replays.met_calls(wanted, code, self.refs, blank)
        known = {self._pickled(call) for call in self.captured}
        for call in self.loaded([base64.b64encode(data).decode("ascii") for data in met]):
            payload = self._pickled(call)
            if payload is not None and payload not in known:  # one the tests' run kept already is there
                known.add(payload)
                self.captured.append(call)

    def _pickled(self, call: examples.Call) -> bytes | None:
        try:
            return self.payload(call)
        except Exception:  # a call that cannot travel
            return None

    def loaded(self, calls: list[str]) -> list[examples.Call]:
        """The calls that unpickle here; the others are left out."""
        found = []
        for text in calls:
            with contextlib.suppress(Exception):
                args, kwargs = versions.loads_with_refs(base64.b64decode(text), self.version)
                found.append(examples.Call(tuple(args), dict(kwargs)))
        return found

    def add_fixtures(self, values: list[str]) -> None:
        def load(data: bytes) -> Any:
            return versions.loads_with_refs(data, self.version)

        pickles = []
        for text in values:
            with contextlib.suppress(Exception):
                pickles.append(base64.b64decode(text))
        self.fixtures = Pool.of(pickles, load)

    def payload(self, call: examples.Call) -> bytes:
        """The call pickled; an `__init__`'s self as the blank instance it is (as recorded), never by
        its class's reduction, which may read what `__init__` has not set yet."""
        args = call.args
        if args and self.first == "instance" and self.job.target.function_name == "__init__":
            args = (versions.Unbuilt(args[0]), *args[1:])
        return versions.dumps_with_refs((args, call.kwargs), self.refs)

    def copied(self, value: Any) -> Any:
        """A copy of `value` as a call's pickle makes one: module-level objects stay themselves."""
        return versions.loads_with_refs(versions.dumps_with_refs(value, self.refs), self.version)

    def shown(self, call: examples.Call) -> str:
        parts = [_short(a) for a in call.args] + [f"{k}={_short(v)}" for k, v in call.kwargs.items()]
        return "{}({})".format(self.job.target.label, ", ".join(parts))

    def fixed_calls(self) -> Iterator[tuple[str, bytes, str]]:
        """(source, payload, shown) for the examples, doctests and captured calls, and every call of a
        small closed domain (inputs/finite.py)."""
        groups: list[tuple[str, list[examples.Call]]] = [
            ("example", [examples.parse_example(text) for text in self.job.examples]),
            ("doctest", self.doctests),
        ]
        for index, call in enumerate(self.captured):
            groups.append(("benchmark" if index in self.benchmark else "captured", [call]))
        # Last: a call seen already keeps its source (a captured one may be timed as the real workload).
        groups.append(("exhaustive", list(self.plan().exhaustive)))
        for source, group in groups:
            for call in group:
                with contextlib.suppress(Exception):  # a call that cannot be pickled is not checked
                    payload = self.payload(call)
                    yield source, payload, self.shown(call)

    @functools.cached_property
    def doctests(self) -> list[examples.Call]:
        """The docstring's calls, evaluated once: their arguments may run the user's code."""
        try:
            return list(examples.doctest_calls(self.version.original_code))
        except Exception:
            return []

    @functools.cached_property
    def untyped(self) -> bool:
        """Whether a parameter (self and cls aside) has no hint of its own: strays may come."""
        try:
            parameters = list(inspect.signature(self.version.original_code).parameters.values())
        except (TypeError, ValueError):
            return False
        skip = 1 if self.first else 0
        return any(parameter.annotation is parameter.empty for parameter in parameters[skip:])

    @functools.cached_property
    def first(self) -> Literal["instance", "class"] | None:
        """What the first parameter is: self ("instance"), cls ("class"), or an argument like the others."""
        target = self.job.target
        if target.is_classmethod:
            return "class"
        if target.class_name and not target.is_static:
            return "instance"
        return None

    def variants(self) -> list[tuple[str, bytes, str]]:
        """(source, payload, shown) for the variants of the calls seen (inputs/variants.py): checked
        as explored inputs, each named by its parameter and kind."""
        try:
            signature = inspect.signature(self.version.original_code)
        except (TypeError, ValueError):
            return []
        seen = [*[examples.parse_example(text) for text in self.job.examples], *self.doctests, *self.captured]
        found: list[tuple[str, bytes, str]] = []
        plan = self.plan()
        made = itertools.chain(
            call_variants(signature, seen, plan.sizes, bool(self.first), plan.protocols),
            fields.field_variants(signature, seen, bool(self.first)),
            grafts.graft_variants(signature, seen, self.copied),
        )
        for parameter, kind, call in made:
            with contextlib.suppress(Exception):  # an input that cannot travel is not checked
                payload = self.payload(call)
                self.kinds.setdefault(payload, (parameter, kind))
                found.append(("explored", payload, self.shown(call)))
        return found

    def boundaries(self) -> list[tuple[str, bytes, str]]:
        """(source, payload, shown) for each boundary value (inputs/boundaries.py) in the calls seen,
        else in a few everyday ones: the same calls for every check of the function."""
        try:
            signature = inspect.signature(self.version.original_code)
        except (TypeError, ValueError):
            return []
        seen = [*[examples.parse_example(text) for text in self.job.examples], *self.doctests, *self.captured]
        if not seen and self.plan().small is not None:
            _run(self.plan().small, boundaries.BASES, seen.append, shrink=False)
        found: list[tuple[str, bytes, str]] = []
        words = literals.string_literals(parameters.source_of(self.version.original_code), self.job.candidate)
        made = boundaries.boundary_variants(signature, seen, bool(self.first), words)
        calls: Iterator[examples.Call] = (call for _, _, call in made)
        if self.first == "instance" and self.constructions:
            owner = self.version.owner
            objects = boundaries.rebuilt_objects(owner, self.constructions, words)
            calls = itertools.chain(calls, boundaries.object_variants(owner, objects, seen))
        for call in calls:
            with contextlib.suppress(Exception):  # an input that cannot travel is not checked
                found.append(("boundary", self.payload(call), self.shown(call)))
        return found

    def symbolic_calls(self, found: list[dict[str, Any]]) -> list[tuple[bytes, str]]:
        """(payload, shown) for each difference the symbolic search suggested whose arguments read
        as literals (`ast.literal_eval`: nothing runs); the others are left out, and so is a method's
        call whose `self` is no instance of its class (no caller makes one). A classmethod's `cls`
        is its class (the search does not vary it)."""
        import ast

        try:
            signature = inspect.signature(self.version.original_code)
        except (TypeError, ValueError):
            return []
        made = []
        for item in found:
            texts = item.get("args")
            if not isinstance(texts, dict):
                continue
            try:
                values = {str(name): ast.literal_eval(str(text)) for name, text in texts.items()}
                first = (self.version.owner,) if self.first == "class" else ()
                bound = signature.bind(*first, **values)
                call = examples.Call(tuple(bound.args), dict(bound.kwargs))
                if self.first == "instance" and not (call.args and isinstance(call.args[0], self.version.owner)):
                    continue
                made.append((self.payload(call), self.shown(call)))
            except Exception:
                continue
        return made

    @functools.lru_cache(maxsize=1)  # noqa: B019 (one CallSource per check: it lives as long as the check)
    def plan(self) -> Any:
        target = self.job.target
        module_file = getattr(self.version.module, "__file__", None)
        stub = stubs.stub_hints(module_file, target.class_name, target.function_name) if module_file else {}
        # Type comments, like a stub, say what callers are meant to pass: read as the stub's hints are.
        stub.update(stubs.comment_hints(self.version.module, target.class_name, target.function_name))
        owner = self.version.owner if target.class_name else None
        name = target.function_name.rsplit(".", 1)[-1]
        return plan_inputs(
            inherited.forwarded(self.version.original_code, owner, name) or self.version.original_code,
            skip_first=self.first,
            owner=owner,
            captured=[*self.captured, *self.doctests],
            doctests=self.doctests,
            examples=[examples.parse_example(text) for text in self.job.examples],
            stub_hints=stub,
            sources=[parameters.source_of(self.version.original_code) or "", self.job.candidate or ""],
            size=self.job.size,
            fixtures=self.fixtures,
            constructions=self.constructions,
        )

    def generated(self, enough: Callable[[], bool]) -> Iterator[tuple[Any, int]]:
        """(strategy, how many to draw): everyday inputs, large ones, each large size alone (a few
        draws could miss the one size past a threshold), each value of a small closed domain with
        drawn values of the other parameters, runs of one value at the sizes next to a
        literal, strays (an untyped parameter given a value
        of another kind), inputs of the user's size to time with (when timed), then more everyday
        ones until `enough()`."""
        plan = self.plan()
        self.missing = plan.missing
        examples = self.job.max_examples
        if plan.fixtured is not None:
            yield Fixtures(plan.fixtured), FIXTURE_DRAWS * len(self.fixtures.values)
        if plan.small is not None:
            yield plan.small, examples
        if plan.scaled is not None:
            yield plan.scaled, max(5, examples // 8)
        for strategy in plan.by_size:
            yield strategy, 2
        for strategy in plan.crossed:
            yield strategy, CROSSED_DRAWS
        for strategy in plan.patterned:
            yield strategy, PATTERNED_DRAWS
        for strategy in plan.strays:
            yield Strays(strategy), STRAY_DRAWS
        for found in plan.explored:
            yield Explored(found.usual, found.parameter, found.kind), EXPLORED_DRAWS
            for large in found.large:  # at least twice each value of a kind of a few (Kind.each)
                yield Explored(large, found.parameter, found.kind), max(2, EXPLORED_LARGE_DRAWS // len(found.large))
            if found.strayed is not None:
                yield Strays(found.strayed), EXPLORED_DRAWS
        if plan.structured is not None:
            yield plan.structured, STRUCTURED_DRAWS
        if self.job.timing is not None and plan.timed is not None:
            yield plan.timed, TIMED_DRAWS  # checked like the others before any of them is timed
        # Small domains repeat themselves: draw further (the same sequence, longer) for distinct inputs.
        more = examples
        while plan.small is not None and not enough() and more < 8 * max(examples, self.job.min_inputs):
            more *= 2
            yield plan.small, more

    def collect(self, strategy: Any, count: int) -> list[tuple[str, bytes, str]]:
        """`count` draws of `strategy`, as (source, payload, shown), to be checked in batches."""
        found: list[tuple[str, bytes, str]] = []
        source, drawn = _labelled(strategy)

        def keep(call: examples.Call) -> None:
            with contextlib.suppress(Exception):  # an input that cannot travel is not checked
                found.append((source, self._payload_of(call, strategy), self.shown(call)))

        _run(drawn, count, keep, shrink=False)
        return found

    def _payload_of(self, call: examples.Call, strategy: Any) -> bytes:
        payload = self.payload(call)
        if isinstance(strategy, Explored):
            self.kinds.setdefault(payload, (strategy.parameter, strategy.kind))
        return payload

    def shrink(self, strategy: Any, count: int, differs: Differs) -> None:
        """The same draws again, one call at a time, each put to `differs` (the judge), so that
        hypothesis shrinks the first failure: the judge keeps the last one, the smallest."""
        source, drawn = _labelled(strategy)

        def check(call: examples.Call) -> None:
            try:
                payload = self._payload_of(call, strategy)
            except Exception:
                return
            if differs(payload, self.shown(call), source):
                raise _Differs()

        with contextlib.suppress(_Differs):
            _run(drawn, count, check, shrink=True)

    def version_source(self, baseline: bool) -> tuple[str | None, str, int]:
        """The source whose coverage counts, its function's name, and the lines before it in its file."""
        name = self.job.target.function_name
        if not baseline:
            return self.job.candidate, name, 0
        code = self.version.original_code.__code__
        return parameters.source_of(self.version.original_code), name, code.co_firstlineno - 1


@dataclass(frozen=True)
class Fixtures:
    """Calls whose objects of the project's classes are values the tests' fixtures made: checked as
    source "fixture"."""

    strategy: Any


@dataclass(frozen=True)
class Strays:
    """Calls where one untyped parameter gets a value of another kind (inputs.plan.STRAYS): checked
    as source "stray", which the judge compares only where the original does something of its
    own with it (Check._stray_counts)."""

    strategy: Any


@dataclass(frozen=True)
class Explored:
    """Calls where one parameter gets a kind of value beyond those seen (inputs/kinds.py): checked as
    source "explored", which the judge compares where the original accepts it (Check._accepts)."""

    strategy: Any
    parameter: str
    kind: str


def _labelled(strategy: Any) -> tuple[str, Any]:
    if isinstance(strategy, Strays):
        return "stray", strategy.strategy
    if isinstance(strategy, Explored):
        return "explored", strategy.strategy
    if isinstance(strategy, Fixtures):
        return "fixture", strategy.strategy
    return "generated", strategy


def _run(strategy: Any, count: int, test: Callable[[Any], None], *, shrink: bool) -> None:
    from hypothesis import HealthCheck, Phase, given, settings

    _skip_constants_of_the_checker()
    phases = (Phase.explicit, Phase.generate, Phase.shrink) if shrink else (Phase.explicit, Phase.generate)

    raised: list[BaseException] = []

    @settings(
        max_examples=count,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=phases,
        report_multiple_bugs=False,
        print_blob=False,
    )
    @given(strategy)
    def drawn(call: Any) -> None:
        try:
            test(call)
        except BaseException as error:
            raised.append(error)
            raise

    with contextlib.redirect_stdout(io.StringIO()):
        try:
            drawn()
        except Exception as error:
            if any(error is seen for seen in raised):
                raise
            # The strategy itself failed: a value the project's code refuses to make (a class whose
            # constructor wants arguments it was not given). What was drawn before it stays.


def _skip_constants_of_the_checker() -> None:
    """Hypothesis draws constants from every module outside site-packages: the project's are worth it
    (its literals), the checker's own are not (a second of parsing on every check)."""
    import os
    import sys

    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return
    seen = getattr(providers, "_seen_modules", None)
    if isinstance(seen, set):
        # The checker's modules are the files of the box's folder and its sub-folders, whatever their
        # names: the package's, and the runner, which is `__main__` in every process forked from it.
        box = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
        for module in list(sys.modules.values()):
            file = getattr(module, "__file__", None)
            if file and id(module) not in seen and os.path.abspath(file).startswith(box):
                seen.add(id(module))


_SEQUENCE_ITERATORS: tuple[type, ...] = (type(iter([])), type(iter(())))


def _short(value: Any, limit: int = 200) -> str:
    try:
        if type(value) in _SEQUENCE_ITERATORS:
            _, (items,), start = value.__reduce__()  # read without advancing it
            text = f"iter({items[start:]!r})"
        else:
            text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
