"""A symbolic search for an input where the original and the new version differ: CrossHair's behaviour
diff, run in a fresh child of the new version's process (the code under check runs there anyway, under
the versions' user, cut off from the judge), time-boxed. Parameters take the judge's annotations
(the hints, the stub's, or types inferred from the values seen) where the function has none of its
own. What it finds are candidates only: the arguments as text, which the judge reads as literals and
checks on both versions like any other input; a difference CrossHair reports that the real versions
do not show counts for nothing.

`reach` asks CrossHair for the new version's paths instead: inputs for the lines and conditions a
draft left unrun."""

from __future__ import annotations

import inspect
import time
from typing import Any, Callable

from .checked_call import in_child, short
from .versions import Version

MAX_DIFFERENCES = 5  # candidates sent back to the judge
MAX_TEXT = 10_000  # characters of one argument's text
MAX_REACHING = 24  # inputs sent back that take the new version down a path of its own
# Paths explored in a row that reach no new code before the search ends early: a loop over a
# list otherwise takes the whole time box to find nothing. Measured on the optimize suite's 22
# right drafts and 8 wrong ones (a threshold at 5000, prime squares, a slice, a list past 6 or 8
# items, an option ignored, split() against split(' ')): 100 found all 8 and searched the right
# ones for 6.5 s on average; 50 found all 8 in 3.9 s; 25 missed the list past 8 items.
UNINTERESTING = 50


def search(version: Version, annotations: dict[str, str], seconds: float) -> dict[str, Any]:
    """{"differences": [{"args": {name: text}}], "seconds": s}, or {"unavailable": why}."""
    return _in_child(lambda: _search(version, annotations, seconds), seconds)


def _in_child(search: Callable[[], dict[str, Any]], seconds: float) -> dict[str, Any]:
    answer = in_child(search, time.monotonic() + 2 * seconds + 30.0)
    if not isinstance(answer, dict):
        return {"unavailable": "the symbolic search gave no answer"}
    if "crashed" in answer:
        return {"unavailable": f"the symbolic search stopped: {answer['crashed']}"}
    return answer


def _options(seconds: float) -> Any:
    """CrossHair's options for a search of `seconds`: a path gets a tenth of it, and the search ends
    early after UNINTERESTING paths in a row that reach no new code."""
    from crosshair.options import DEFAULT_OPTIONS, AnalysisOptionSet

    return DEFAULT_OPTIONS.overlay(
        AnalysisOptionSet(
            per_condition_timeout=seconds,
            per_path_timeout=max(1.0, seconds / 10),
            max_uninteresting_iterations=UNINTERESTING,
        )
    )


def _search(version: Version, annotations: dict[str, str], seconds: float) -> dict[str, Any]:
    try:
        import crosshair.core_and_libs  # noqa: F401 (registers the symbolic builtins and standard library)
        from crosshair.diff_behavior import ExceptionEquivalenceType, diff_behavior_with_signature
        from crosshair.fnutil import FunctionInfo
    except ImportError as problem:
        return {"unavailable": f"CrossHair is not installed where the checks run ({problem})"}
    started = time.monotonic()
    try:
        # One order, the draft's decisions first: a wrong fast path is a branch of the draft's (a
        # size, a threshold), which this order reaches soonest. CrossHair's own diff runs both orders
        # with half the time each. On the drafts above, this order alone with 10 s found all 8 wrong
        # ones (the original's first found none it missed) and searched the right ones for 2.3 s on
        # average, against 4.3 s for both orders with 20 s.
        draft, signature = FunctionInfo.from_fn(_annotated(version.function, annotations, version, False)).callable()
        original, _ = FunctionInfo.from_fn(_annotated(version.original, annotations, version, True)).callable()
        found = list(
            diff_behavior_with_signature(
                draft, original, signature, _options(seconds), ExceptionEquivalenceType.TYPE_AND_MESSAGE
            )
        )
    except Exception as problem:
        return {"unavailable": f"the symbolic search could not start: {type(problem).__name__}: {short(problem)}"}
    spent = round(time.monotonic() - started, 1)
    differences = [
        {"args": {str(name): str(text)[:MAX_TEXT] for name, text in difference.args.items()}}
        for difference in found[:MAX_DIFFERENCES]
    ]
    return {"differences": differences, "seconds": spent}


def reach(version: Version, annotations: dict[str, str], seconds: float) -> dict[str, Any]:
    """{"calls": [{"args": {name: text}}], "seconds": s}: inputs that take the new version down the
    paths CrossHair finds in it (its branches, each decided both ways where it can), the smallest
    first, MAX_REACHING at most; or {"unavailable": why}. What the judge asks for when a draft left
    lines or conditions unrun: candidates again, checked as any input."""
    return _in_child(lambda: _reach(version, annotations, seconds), seconds)


def _reach(version: Version, annotations: dict[str, str], seconds: float) -> dict[str, Any]:
    try:
        import crosshair.core_and_libs  # noqa: F401
        from crosshair.fnutil import FunctionInfo
        from crosshair.path_cover import CoverageType, path_cover
    except ImportError as problem:
        return {"unavailable": f"CrossHair is not installed where the checks run ({problem})"}
    started = time.monotonic()
    try:
        draft = FunctionInfo.from_fn(_annotated(version.function, annotations, version, False))
        # Every path, not those that add opcodes: the coverage path_cover measures is the wrapper's.
        paths = path_cover(draft, _options(seconds), CoverageType.PATH)
    except Exception as problem:
        return {"unavailable": f"the symbolic search could not start: {type(problem).__name__}: {short(problem)}"}
    calls = [
        {"args": {str(name): repr(value)[:MAX_TEXT] for name, value in path.args.arguments.items()}}
        for path in paths[:MAX_REACHING]
    ]
    return {"calls": calls, "seconds": round(time.monotonic() - started, 1)}


def _annotated(
    function: Callable[..., Any], annotations: dict[str, str], version: Version, original: bool
) -> Callable[..., Any]:
    """`function` behind a wrapper whose parameters carry the judge's annotations where it has none.
    A method's `self` is an instance of its class (left unannotated, the search would call it with
    a string), a classmethod's `cls` is its class, given by the wrapper. The original runs with the
    module as it was before the new version took its place (its recursive calls reach itself)."""
    import builtins
    import typing

    names = {**vars(typing), **vars(builtins)}
    try:
        hints = typing.get_type_hints(function)
    except Exception:
        hints = {}
    signature = inspect.signature(function)
    parameters = []
    bound: tuple[Any, ...] = ()
    for index, parameter in enumerate(signature.parameters.values()):
        text = annotations.get(parameter.name)
        if index == 0 and version.first == "class":
            bound = (version.owner,)
            continue
        if index == 0 and version.first == "instance":
            parameter = parameter.replace(annotation=version.owner)
        elif parameter.name in hints:
            parameter = parameter.replace(annotation=hints[parameter.name])
        elif text:
            # The judge's text of a type (`list[int]`): the version's process trusts the judge.
            parameter = parameter.replace(annotation=eval(text, names))
        else:
            parameter = parameter.replace(annotation=inspect.Parameter.empty)
        parameters.append(parameter)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not original:
            return function(*bound, *args, **kwargs)
        with version.as_original():
            return function(*bound, *args, **kwargs)

    wrapper.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=parameters, return_annotation=inspect.Signature.empty
    )
    wrapper.__annotations__ = {p.name: p.annotation for p in parameters if p.annotation is not p.empty}
    wrapper.__name__ = wrapper.__qualname__ = function.__name__
    return wrapper
