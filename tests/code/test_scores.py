"""Readability scores from radon's real measures."""

from __future__ import annotations

import pytest

from coderefine.code.scores import WEIGHTS, bound_names, clear_name, file_score, measure

NESTED = """def grade(score: int) -> str:
    if score >= 0:
        if score >= 90:
            result = "A"
        else:
            if score >= 80:
                result = "B"
            else:
                result = "F"
    else:
        result = "invalid"
    return result
"""

FLAT = '''def grade(score: int) -> str:
    """The letter for a score; negative scores are invalid."""
    if score < 0:
        return "invalid"
    if score >= 90:
        return "A"
    return "B" if score >= 80 else "F"
'''


def test_flatter_documented_code_scores_higher() -> None:
    nested, flat = measure(NESTED), measure(FLAT)
    assert flat.score > nested.score
    assert flat.logical_lines < nested.logical_lines
    assert (nested.comment_lines, flat.comment_lines) == (0, 1)


def test_the_score_is_the_documented_weighted_mean_of_its_parts() -> None:
    measures = measure(NESTED)
    assert set(measures.parts) == set(WEIGHTS)
    assert sum(WEIGHTS.values()) == pytest.approx(1.0)
    expected = sum(WEIGHTS[name] * value for name, value in measures.parts.items())
    assert measures.score == pytest.approx(expected, abs=0.01)
    assert measures.complexity == 4  # three ifs
    assert measures.parts["complexity"] == pytest.approx(100 * (21 - 4) / 20)
    assert measures.parts["halstead"] == pytest.approx(100 * 10 / (10 + measures.halstead_difficulty), abs=0.01)


def test_complex_long_code_reaches_the_bottom_of_its_parts() -> None:
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(30))
    measures = measure(f"def f(x):\n{branches}    return -1\n")
    assert measures.complexity == 31
    assert measures.parts["complexity"] == 0
    assert measures.parts["size"] == 0
    assert 0 <= measures.score < 50


def test_file_score_weights_functions_by_their_logical_lines() -> None:
    short, long = measure("def f(x):\n    return x\n"), measure(NESTED)
    expected = (short.score * short.logical_lines + long.score * long.logical_lines) / (
        short.logical_lines + long.logical_lines
    )
    assert file_score([short, long]) == pytest.approx(expected, abs=0.01)
    assert file_score([]) is None


TERSE = """def mean_gap(values: list[float]) -> float:
    s = 0.0
    for i in range(1, len(values)):
        x2 = values[i] - values[i - 1]
        s += x2
    r = s / max(len(values) - 1, 1)
    return r
"""


def test_renaming_terse_variables_raises_the_names_part_and_the_score() -> None:
    terse = measure(TERSE)
    renamed = measure(
        TERSE.replace("x2", "gap")
        .replace("s ", "total ")
        .replace("r =", "mean =")
        .replace("return r", "return mean")
        .replace("s / ", "total / ")
    )
    assert terse.unclear_names == ("r", "s", "x2")  # the loop's `i` is conventional
    assert terse.parts["names"] == pytest.approx(100 * 1 / 4)
    assert renamed.unclear_names == () and renamed.parts["names"] == 100
    assert renamed.score > terse.score


@pytest.mark.parametrize(
    ("name", "in_loop", "clear"),
    [
        ("total", False, True),
        ("maxValue", False, True),
        ("HTTPServer", False, True),
        ("utf8_text", False, True),
        ("idx", False, True),
        ("x", True, True),
        ("q", True, True),
        ("q", False, False),
        ("tmp1", False, False),
        ("nxt", False, False),
        ("a_b", False, False),
        ("_", False, True),
    ],
)
def test_clear_names(name: str, in_loop: bool, clear: bool) -> None:
    assert clear_name(name, in_loop=in_loop) is clear


def test_the_parameters_are_not_judged_but_nested_and_loop_names_are() -> None:
    source = (
        "def f(a, b):\n    for k in a:\n        pass\n    pairs = [(p, q) for p, q in b]\n"
        "    def g(w):\n        return w\n    try:\n        pass\n    except ValueError as exc:\n        pass\n"
        "    return pairs, g\n"
    )
    assert bound_names(source) == {
        "k": True,
        "pairs": False,
        "p": True,
        "q": True,
        "g": False,
        "w": False,
        "exc": False,
    }
    assert measure(source).unclear_names == ("g", "w")


def test_a_drafts_helpers_names_and_parameters_are_judged_its_functions_are_not() -> None:
    source = (
        "def _h(v):\n    t = v * 2\n    return t\n\n\ndef _double(value):\n    return _h(value)\n\n\n"
        "def f(a, b):\n    total = _double(a)\n    return total + b\n"
    )
    assert bound_names(source) == {
        "_h": False,
        "v": False,
        "t": False,
        "_double": False,
        "value": False,
        "total": False,
    }
    measured = measure(source)
    assert measured.unclear_names == ("_h", "t") and measured.complexity == 1  # `v`, as in k, v: conventional
