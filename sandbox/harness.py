"""The verification harness: a candidate against the original, inside the sandbox.

It reads job.json from its working directory and prints one line
`@@coderefine-result@@ {json}` (anything else on stdout is the code under
test talking). Steps, each only if the one before succeeded:

1. load the original function (importing its module from the mounted project)
   and define the candidate in a copy of that module's namespace;
2. differential testing on the same inputs: the user's examples, then
   hypothesis strategies from the signature (type hints, defaults). Compared:
   return values (floats with a tolerance, containers deeply), exception
   types, how the arguments were mutated, printed output. Hypothesis shrinks
   a failure to its smallest counterexample;
3. timing: original and candidate interleaved over rounds in this process,
   pinned to one CPU, each round calibrated as pytest-benchmark calibrates;
   the speedup is the median of the per-round time ratios, with a bootstrap
   95% confidence interval;
4. a cProfile profile of the faster version, for the next feedback.
"""

import ast
import contextlib
import copy
import io
import json
import math
import os
import random
import signal
import statistics
import sys
import textwrap
import time
import typing

RESULT_MARKER = "@@coderefine-result@@"
DEFAULT_SIZE = 100
SMALL = 20


class Mismatch(Exception):
    """The candidate behaved differently from the original on one input."""


class CallTimeout(Exception):
    pass


def main():
    with open("job.json", encoding="utf-8") as handle:
        job = json.load(handle)
    try:
        result = run_job(job)
    except SetupError as problem:
        result = {"error": str(problem)}
    sys.__stdout__.write("\n" + RESULT_MARKER + " " + json.dumps(result) + "\n")
    sys.__stdout__.flush()


class SetupError(Exception):
    """The original could not be loaded or tested at all: not the candidate's fault."""


def run_job(job):
    original, owner = load_original(job)
    captured, covering = {"calls": [], "benchmark": []}, []
    if job.get("capture_tests") and job.get("project"):
        captured, covering = capture_from_tests(original, job["project"])
    elif job.get("captured"):
        captured = unpack(job["captured"])
    candidate, problem = define_candidate(job, owner)
    if problem:
        return {"correct": False, "mismatch": problem, "counterexample": None, "checked": 0}
    caller = Caller(job["target"], owner)
    inputs = Inputs(job, original, caller, captured)
    verdict = differential(job, original, candidate or original, caller, inputs)
    if job.get("capture_tests"):
        verdict.update(captured=pack(captured), captured_count=len(captured["calls"]), tests=covering)
    if verdict["correct"] and candidate is not None and job.get("tests"):
        failure = project_tests_fail(job, original, job["tests"])
        if failure:
            verdict.update(correct=False, mismatch=failure)
        else:
            verdict["tests_passed"] = len(job["tests"])
    if not verdict["correct"] or job.get("timing") is None:
        return verdict
    timing = job["timing"]
    workloads = inputs.workloads(timing.get("workloads", 24))
    if not workloads:
        raise SetupError("no inputs to time with")
    try:
        # The baseline (no candidate) is not timed: the original against itself says nothing new.
        if candidate is not None:
            verdict.update(measure(original, candidate, caller, workloads, timing, inputs.mutates))
        if job.get("profile", True):
            faster = candidate if candidate is not None and verdict["speedup"] >= 1 else original
            verdict["profile"] = profile(faster, caller, workloads, job["target"]["function_name"])
    except Exception as error:  # noqa: BLE001 - behaviour that changed between runs: not verified
        verdict.update(correct=False, mismatch="it failed while being timed: %s: %s" % (type(error).__name__, error))
    return verdict


# -- loading ---------------------------------------------------------------------------------


def load_original(job):
    import importlib

    module_name = job["module"]
    try:
        module = importlib.import_module(module_name)
    except BaseException as error:  # noqa: B036 - any failure of the user's module is reported
        raise SetupError("cannot import %s in the sandbox: %s: %s" % (module_name, type(error).__name__, error))
    target = job["target"]
    owner = module
    if target["class_name"]:
        owner = getattr(module, target["class_name"], None)
        if owner is None:
            raise SetupError("%s has no class %s" % (module_name, target["class_name"]))
    function = inspect_static(owner, target["function_name"])
    if function is None:
        raise SetupError("%s has no function %s" % (module_name, target["function_name"]))
    return function, owner


def inspect_static(owner, name):
    raw = owner.__dict__.get(name) if hasattr(owner, "__dict__") else None
    if isinstance(raw, (staticmethod, classmethod)):
        return raw.__func__  # a classmethod's function is called with the class first
    return getattr(owner, name, None)


def define_candidate(job, owner):
    """The candidate function, defined where the original's globals are; or why not."""
    source = job.get("candidate")
    if source is None:
        return None, None  # an A/A run: the original against itself
    module = sys.modules[job["module"]]
    namespace = dict(vars(module))
    try:
        exec(compile(source, "<new version>", "exec"), namespace)
    except BaseException as error:  # noqa: B036
        return None, "the new version fails to load: %s: %s" % (type(error).__name__, error)
    candidate = namespace.get(job["target"]["function_name"])
    if isinstance(candidate, (staticmethod, classmethod)):
        candidate = candidate.__func__
    if not callable(candidate):
        return None, "the new version defines no function %s" % job["target"]["function_name"]
    return candidate, None


class Caller:
    """Calls a function on (args, kwargs); a method's args start with the instance."""

    def __init__(self, target, owner):
        self.name = target["function_name"]
        self.label = (target["class_name"] + "." if target["class_name"] else "") + self.name
        self.owner = owner

    def describe(self, args, kwargs):
        parts = [short_repr(a) for a in args] + ["%s=%s" % (k, short_repr(v)) for k, v in kwargs.items()]
        return "%s(%s)" % (self.label, ", ".join(parts))


# -- the project's own tests -------------------------------------------------------------------


def capture_from_tests(original, project, limit=100):
    """Run the project's tests once with the original: the arguments it is called with, and
    the tests that call it and pass (the ones every new version must pass too).

    Arguments from pytest-benchmark tests are marked: they are the preferred timing workload.
    """
    import pickle

    target_code = original.__code__
    outcomes = Outcomes()
    calls, index, benchmarked, covering = [], {}, set(), set()

    def hook(frame, event, arg):
        if event != "call" or frame.f_code is not target_code:
            return
        current = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        if current:
            covering.add(current)
        try:
            item = copy.deepcopy(frame_arguments(frame))
            key = pickle.dumps(item)
        except Exception:  # noqa: BLE001 - arguments that cannot be copied are not kept
            return
        if key not in index and len(calls) < limit:
            index[key] = len(calls)
            calls.append(item)
        if key in index and current in outcomes.benchmarked:
            benchmarked.add(index[key])

    run_pytest(project, [], hook, outcomes)
    captured = {"calls": calls, "benchmark": sorted(benchmarked)}
    return captured, sorted(covering & outcomes.passed)


def project_tests_fail(job, original, tests):
    """Run the tests that call the target with the new version in its place; why they fail, or None."""
    namespace = vars(sys.modules[job["module"]])
    name = job["target"]["function_name"]
    missing = object()
    previous = namespace.get(name, missing)
    saved = (original.__code__, original.__defaults__, original.__kwdefaults__)
    try:
        exec(compile(job["candidate"], "<new version>", "exec"), namespace)  # its imports land in the module
        replacement = namespace[name]
        if isinstance(replacement, (staticmethod, classmethod)):
            replacement = replacement.__func__
        # Tests may hold the original by `from module import name`: give that object the new code.
        original.__code__ = replacement.__code__
        original.__defaults__ = replacement.__defaults__
        original.__kwdefaults__ = replacement.__kwdefaults__
        outcomes = run_pytest(job["project"], tests, None)
    finally:
        original.__code__, original.__defaults__, original.__kwdefaults__ = saved
        if previous is missing:
            namespace.pop(name, None)
        else:
            namespace[name] = previous
    broken = [test for test in tests if test not in outcomes.passed]
    if not broken:
        return None
    return "the project's test %s fails with the new version: %s" % (
        broken[0], outcomes.failures.get(broken[0], "it did not pass"))


class Outcomes:
    """A pytest plugin that notes what passed, what failed and why, and which tests benchmark."""

    def __init__(self):
        self.passed, self.failures, self.benchmarked = set(), {}, set()

    def pytest_collection_modifyitems(self, items):
        self.benchmarked = {item.nodeid for item in items if "benchmark" in getattr(item, "fixturenames", ())}

    def pytest_runtest_logreport(self, report):
        if report.when == "call" and report.passed:
            self.passed.add(report.nodeid)
        elif report.failed:
            lines = str(report.longreprtext).strip().splitlines()
            self.failures[report.nodeid] = short_repr(lines[-1] if lines else "failed", 300)


@contextlib.contextmanager
def profiled(hook):
    sys.setprofile(hook)
    try:
        yield
    finally:
        sys.setprofile(None)


def Profiled(pytest, profile_hook):
    """A plugin that profiles the tests' own code only: pytest's machinery runs at full speed."""

    class Plugin:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_setup(self, item):
            with profiled(profile_hook):
                yield

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item):
            with profiled(profile_hook):
                yield

    return Plugin()


def run_pytest(project, tests, profile_hook, outcomes=None):
    """pytest in this process, in the project folder; the Outcomes plugin says how it went."""
    import importlib.util

    import pytest

    outcomes = outcomes or Outcomes()
    # Plain asserts: rewriting every plugin and test module costs seconds, and only pass or fail counts here.
    options = ["-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--assert=plain", "--rootdir", project]
    if importlib.util.find_spec("pytest_benchmark") is not None:
        options.append("--benchmark-disable")  # each benchmark test runs once: we time it ourselves
    plugins = [outcomes]
    if profile_hook is not None:
        plugins.append(Profiled(pytest, profile_hook))
    here = os.getcwd()
    os.chdir(project)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            pytest.main([*options, *tests], plugins=plugins)
    except BaseException:  # noqa: B036 - a project whose tests cannot run gives no captures
        pass
    finally:
        os.chdir(here)
    return outcomes


def frame_arguments(frame):
    """The (args, kwargs) a function was called with, read from its frame at the call."""
    code = frame.f_code
    values = frame.f_locals
    names = code.co_varnames
    positional = code.co_argcount
    keyword_only = code.co_kwonlyargcount
    args = [values[name] for name in names[:positional]]
    kwargs = {name: values[name] for name in names[positional : positional + keyword_only]}
    extra = positional + keyword_only
    if code.co_flags & 0x04:  # CO_VARARGS
        args.extend(values[names[extra]])
        extra += 1
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        kwargs.update(values[names[extra]])
    return tuple(args), kwargs


def pack(items):
    import base64
    import pickle

    return base64.b64encode(pickle.dumps(items)).decode("ascii")


def unpack(text):
    # Only the sandbox ever unpickles these: the host passes them along unread.
    import base64
    import pickle

    return pickle.loads(base64.b64decode(text))


# -- inputs ----------------------------------------------------------------------------------


class Inputs:
    """Examples given by the user, and hypothesis strategies from the signature."""

    def __init__(self, job, original, caller, captured):
        # The user's examples first, then arguments captured from the project's own tests.
        calls = captured["calls"]
        self.examples = [parse_example(text) for text in job.get("examples", [])] + list(calls)
        self.benchmark = [calls[i] for i in captured["benchmark"]]
        # Timing wants inputs large enough for the algorithm to matter: collections and text of
        # DEFAULT_SIZE items unless the user says; numbers only grow when the user says so.
        size = job.get("size")
        self.seen = []  # inputs the correctness checks passed on, for the timing workloads
        self.mutates = False
        numbers = Numbers(size, int_constants(function_source(original), job.get("candidate")))
        self.strategy = signature_strategy(original, caller, job["target"], None, numbers)
        self.scaled = signature_strategy(original, caller, job["target"], size or DEFAULT_SIZE, numbers)

    def workloads(self, count):
        """Inputs to time with: ones the original returned on (a raise would end a timing
        round). The project's benchmark inputs if it has any; else the given and captured
        examples first, then the largest generated ones."""

        def among(item, group):
            return any(item[0] is args and item[1] is kwargs for args, kwargs in group)

        preferred = [item for item in self.seen if among(item, self.benchmark)]
        if preferred:
            return preferred[:count]
        given = [item for item in self.seen if among(item, self.examples)]
        others = [item for item in self.seen if not among(item, self.examples)]
        others.sort(key=lambda item: len(short_repr(item, 10000)), reverse=True)
        return (given + others)[:count]


class Numbers:
    """How integers are drawn: from -10 up to the user's size (50 without one), and the literals of
    the code with their neighbours, where behaviour tends to change (`score >= 90` against
    `score > 90`). Literals far beyond the size are left out: a slow original may take too long on them."""

    def __init__(self, size, boundaries):
        self.low = -10
        self.high = max(50, size or 0)
        self.boundaries = [value for value in boundaries if abs(value) <= max(1000, self.high)]


def function_source(function):
    import inspect

    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return None


def int_constants(*sources, limit=10 ** 6):
    found = set()
    for source in sources:
        try:
            tree = ast.parse(textwrap.dedent(source or ""))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and type(node.value) is int and abs(node.value) <= limit:
                found.update((node.value - 1, node.value, node.value + 1))
    return sorted(found)


def parse_example(text):
    """`[3, 1, 2], reverse=True` -> ((list,), {"reverse": True}): call arguments as literals."""
    call = ast.parse("f(%s)" % text, mode="eval").body
    args = tuple(ast.literal_eval(node) for node in call.args)
    kwargs = {keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords}
    return args, kwargs


def signature_strategy(function, caller, target, size, numbers):
    """A strategy of (args, kwargs) for the function, or None when a parameter has none."""
    import inspect

    from hypothesis import strategies as st

    try:
        hints = typing.get_type_hints(function)
    except Exception:  # noqa: BLE001 - unresolvable hints: fall back to defaults
        hints = {}
    parameters = list(inspect.signature(function).parameters.values())
    positional = []
    keywords = {}
    for index, parameter in enumerate(parameters):
        if index == 0 and target.get("is_classmethod"):
            strategy = st.just(caller.owner)
        elif index == 0 and target["class_name"] and not target.get("is_static"):
            strategy = instance_strategy(caller.owner)
        elif parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        else:
            strategy = strategy_for(hints.get(parameter.name), parameter.default, size, numbers)
        if strategy is None:
            if parameter.default is not parameter.empty:
                continue  # left to its default
            return None
        if parameter.kind == parameter.KEYWORD_ONLY:
            keywords[parameter.name] = strategy
        else:
            positional.append(strategy)
    return st.tuples(st.tuples(*positional), st.fixed_dictionaries(keywords))


def instance_strategy(cls):
    from hypothesis import strategies as st

    return validated(lambda: st.builds(cls))


def validated(make):
    """The strategy `make()` builds, or None when hypothesis cannot build one."""
    try:
        strategy = make()
        strategy.validate()
        return strategy
    except Exception:  # noqa: BLE001 - any failure means: no strategy for this
        return None


def strategy_for(annotation, default, size, numbers):
    """A strategy for one parameter: collections of exactly `size` items when given, else small."""
    from hypothesis import strategies as st

    if annotation is None:
        if default is None or default is inspect_empty():
            return None
        annotation = type(default)
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if annotation is int:
        drawn = st.integers(min_value=numbers.low, max_value=numbers.high)
        return st.one_of(st.sampled_from(numbers.boundaries), drawn) if numbers.boundaries else drawn
    if annotation is float:
        return st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
    if annotation is bool:
        return st.booleans()
    sized = {"min_size": size, "max_size": size} if size else {"min_size": 0, "max_size": SMALL}
    if annotation is str:
        return st.text(**sized)
    if annotation is bytes:
        return st.binary(**sized)
    if annotation in (list, tuple, set, dict):
        origin, arguments = annotation, ()
    items = [strategy_for(a, inspect_empty(), None, numbers) for a in arguments if a is not Ellipsis]
    element = items[0] if items and items[0] is not None else st.integers(-100, 100)
    if origin in (list, typing.List) or _is_abc(origin, "Sequence", "Iterable", "Collection"):  # noqa: UP006
        return st.lists(element, **sized)
    if origin in (set, frozenset):
        # Sets of exactly `size` distinct small items may not exist: ask for up to `size`.
        return st.sets(element, max_size=sized["max_size"]).map(origin)
    if origin is tuple:
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return st.lists(element, **sized).map(tuple)
        if items and all(item is not None for item in items):
            return st.tuples(*items)
        return st.lists(element, **sized).map(tuple)
    if origin is dict or _is_abc(origin, "Mapping"):
        value = items[1] if len(items) > 1 and items[1] is not None else st.integers(-100, 100)
        return st.dictionaries(element, value, max_size=sized["max_size"])
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        options = [strategy_for(a, inspect_empty(), size, numbers) for a in arguments]
        if all(option is not None for option in options):
            return st.one_of(*options)
        return None
    return validated(lambda: st.from_type(annotation))


def _is_abc(origin, *names):
    return origin is not None and getattr(origin, "__module__", "") == "collections.abc" and origin.__name__ in names


def inspect_empty():
    import inspect

    return inspect.Parameter.empty


# -- differential testing --------------------------------------------------------------------


def differential(job, original, candidate, caller, inputs):
    per_call = float(job.get("per_call_timeout", 2.0))
    checked = [0]

    def check(args, kwargs):
        checked[0] += 1
        compare_once(original, candidate, caller, args, kwargs, per_call, inputs)

    try:
        for args, kwargs in inputs.examples:
            check(args, kwargs)
        examples = int(job.get("max_examples", 200))
        if inputs.strategy is not None:
            run_hypothesis(inputs.strategy, check, examples)
        if inputs.scaled is not None:
            run_hypothesis(inputs.scaled, check, max(5, examples // 8))  # large inputs: fewer of them
    except Mismatch as mismatch:
        text, example = mismatch.args
        return {"correct": False, "mismatch": text, "counterexample": example, "checked": checked[0]}
    if not inputs.examples and inputs.strategy is None:
        raise SetupError("no inputs to test with: add type hints to the function or give examples")
    return {"correct": True, "mismatch": None, "counterexample": None, "checked": checked[0]}


def run_hypothesis(strategy, check, max_examples):
    from hypothesis import HealthCheck, Phase, given, settings

    failures = []

    @settings(max_examples=max_examples, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), phases=(Phase.explicit, Phase.generate, Phase.shrink),
              report_multiple_bugs=False, print_blob=False)
    @given(strategy)
    def property_holds(arguments):
        try:
            check(*arguments)
        except Mismatch as mismatch:
            failures.append(mismatch)  # the last one is the shrunk, smallest one
            raise

    try:
        with contextlib.redirect_stdout(io.StringIO()):
            property_holds()
    except Mismatch:
        raise failures[-1] from None


def compare_once(original, candidate, caller, args, kwargs, per_call, inputs):
    expected = call(original, args, kwargs, per_call)
    if expected.error == "CallTimeout":
        return  # the original is too slow on this input to compare: not the candidate's fault
    actual = call(candidate, args, kwargs, max(per_call, 10 * expected.seconds))
    where = caller.describe(args, kwargs)
    if expected.mutated:
        inputs.mutates = True
    if actual.error == "CallTimeout":
        raise Mismatch("the new version did not return within %.1fs (the original took %.3fs)"
                       % (max(per_call, 10 * expected.seconds), expected.seconds), where)
    if expected.error or actual.error:
        if expected.error != actual.error:
            raise Mismatch("%s but the new version %s" % (outcome(expected), outcome(actual)), where)
    elif not same(expected.value, actual.value):
        raise Mismatch("the original returned %s, the new version %s"
                       % (short_repr(expected.value), short_repr(actual.value)), where)
    if not same(expected.args_after, actual.args_after):
        raise Mismatch("the arguments were changed differently: after the original %s, after the new version %s"
                       % (short_repr(expected.args_after), short_repr(actual.args_after)), where)
    if expected.printed != actual.printed:
        raise Mismatch("the original printed %s, the new version %s"
                       % (short_repr(expected.printed), short_repr(actual.printed)), where)
    if expected.error is None and len(inputs.seen) < 400:
        inputs.seen.append((args, kwargs))


class Outcome:
    def __init__(self, value, error, message, args_after, printed, seconds, mutated):
        self.value, self.error, self.message = value, error, message
        self.args_after, self.printed, self.seconds, self.mutated = args_after, printed, seconds, mutated


def outcome(result):
    if result.error:
        return "raised %s (%s)" % (result.error, short_repr(result.message, 80))
    return "returned %s" % short_repr(result.value)


def call(function, args, kwargs, limit):
    """One call on copies of the arguments, with its output captured and a time limit."""
    args, kwargs = copy.deepcopy((args, kwargs))
    before = copy.deepcopy((args, kwargs))
    printed = io.StringIO()
    value, error, message = None, None, ""
    started = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        with contextlib.redirect_stdout(printed):
            value = function(*args, **kwargs)
    except CallTimeout:
        error = "CallTimeout"
    except RecursionError as problem:
        error, message = "RecursionError", str(problem)
    except Exception as problem:  # noqa: BLE001 - the exception type is part of the behaviour
        error, message = type(problem).__name__, str(problem)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - started
    mutated = not same(before, (args, kwargs))
    return Outcome(value, error, message, (args, kwargs), printed.getvalue(), seconds, mutated)


def _alarm(signum, frame):
    raise CallTimeout()


def same(a, b, depth=0):
    """Equal as results: floats within a tolerance, containers element by element, objects
    without an __eq__ of their own by their attributes (two copies of one instance are equal)."""
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)
    if type(a) is not type(b):
        return False  # 1 and 1.0 print differently: a different type is a different result
    if depth > 30:
        return repr(a) == repr(b)  # a deep or cyclic structure: its text is all that is left
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, depth + 1) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and list(a) == list(b) and all(same(a[k], b[k], depth + 1) for k in a)
    if a is not b and type(a).__eq__ is object.__eq__ and not isinstance(a, type):
        return same(object_state(a), object_state(b), depth + 1)
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects that cannot be compared: compare their text
        return repr(a) == repr(b)


def object_state(value):
    """An object's attributes, from its __dict__ and its __slots__."""
    state = dict(getattr(value, "__dict__", {}))
    for klass in type(value).__mro__:
        slots = getattr(klass, "__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(value, name):
                state[name] = getattr(value, name)
    return state


def short_repr(value, limit=200):
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001
        text = "<%s>" % type(value).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


# -- timing ----------------------------------------------------------------------------------


def measure(original, candidate, caller, workloads, timing, mutates):
    pin_to_one_cpu()
    rounds = int(timing.get("rounds", 20))
    deadline = time.perf_counter() + float(timing.get("max_seconds", 30))

    def runner(function, loops):
        batches = [copy.deepcopy(workloads) for _ in range(loops)] if mutates else [workloads] * loops
        started = time.perf_counter()
        for batch in batches:
            for args, kwargs in batch:
                function(*args, **kwargs)
        return time.perf_counter() - started

    with contextlib.redirect_stdout(io.StringIO()):
        loops = calibrate(lambda n: runner(original, n), float(timing.get("min_round_s", 0.02)))
        ratios, original_times, candidate_times = [], [], []
        for index in range(rounds):
            # Alternate who goes first, so that drift hits both alike.
            if index % 2 == 0:
                first, second = runner(original, loops), runner(candidate, loops)
            else:
                second, first = runner(candidate, loops), runner(original, loops)
            original_times.append(first)
            candidate_times.append(second)
            ratios.append(first / second if second > 0 else float("inf"))
            if time.perf_counter() > deadline and index >= 4:
                break
    low, high = bootstrap_median_ci(ratios)
    calls = loops * len(workloads)
    return {
        "speedup": statistics.median(ratios),
        "speedup_ci": [low, high],
        "faster": low > float(timing.get("threshold", 1.05)),
        "rounds": len(ratios),
        "loops": loops,
        "workloads": len(workloads),
        "original_call_s": statistics.median(original_times) / calls,
        "candidate_call_s": statistics.median(candidate_times) / calls,
    }


def calibrate(run, min_round):
    """Loops per round so that a round lasts at least `min_round` (pytest-benchmark's way)."""
    precision = timer_precision()
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


def timer_precision():
    """pytest-benchmark's measure of the timer, cached for the container's life."""
    cache = "/tmp/coderefine-timer-precision"
    try:
        with open(cache) as handle:
            return float(handle.read())
    except (OSError, ValueError):
        pass
    from pytest_benchmark.timers import compute_timer_precision

    precision = compute_timer_precision(time.perf_counter)
    with contextlib.suppress(OSError):
        with open(cache, "w") as handle:
            handle.write(repr(precision))
    return precision


def bootstrap_median_ci(values, resamples=2000, seed=0):
    generator = random.Random(seed)
    medians = sorted(
        statistics.median(generator.choices(values, k=len(values))) for _ in range(resamples)
    )
    return medians[int(0.025 * resamples)], medians[int(0.975 * resamples) - 1]


def pin_to_one_cpu():
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


# -- profile ---------------------------------------------------------------------------------


def profile(function, caller, workloads, name, top=8):
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    batch = copy.deepcopy(workloads)
    with contextlib.redirect_stdout(io.StringIO()):
        profiler.enable()
        for args, kwargs in batch:
            function(*args, **kwargs)
        profiler.disable()
    stats = pstats.Stats(profiler)
    rows = []
    for (filename, line, function_name), (_, calls, own, total, _) in stats.stats.items():
        if "harness.py" in filename or function_name == "<method 'disable' of '_lsprof.Profiler' objects>":
            continue
        rows.append((own, total, calls, function_name, filename, line))
    rows.sort(reverse=True)
    spent = sum(row[0] for row in rows) or 1.0
    lines = []
    for own, total, calls, function_name, filename, line in rows[:top]:
        where = "" if filename == "~" else " (%s:%d)" % (os.path.basename(filename), line)
        # Coarse shares, not milliseconds: the same code gives the same prompt on the next run.
        lines.append("%s%s: %d calls, about %d%% of the time in its own code, %d%% with what it calls"
                     % (function_name, where, calls, _share(own, spent), _share(total, spent)))
    return "\n".join(lines)


def _share(seconds, spent):
    return min(100, int(round(seconds / spent * 10)) * 10)


if __name__ == "__main__":
    main()
