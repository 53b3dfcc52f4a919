"""sandbox/inputs/grafts.py: a branch of one tree seen grafted into another."""

from __future__ import annotations

import copy
import inspect
from typing import Any

from tests.sandbox_modules import load

grafts = load("inputs.grafts")
examples = load("inputs.examples")


class Node:
    """A group of tokens that knows its text, as a parser's groups do (slots, no __dict__)."""

    __slots__ = ("children", "parent", "text")

    def __init__(self, children: list[Any]) -> None:
        self.children, self.parent = children, None
        self.text = "".join(getattr(child, "text", "") for child in children)
        for child in children:
            child.parent = self


class Leaf:
    def __init__(self, text: str) -> None:
        self.text, self.parent = text, None


def walk(node: Any) -> list[str]:
    """The texts of the groups below `node`; fails unless every child's parent is the node that
    holds it and every group's text is its children's."""
    found = []
    for child in getattr(node, "children", ()):
        assert child.parent is node
        if isinstance(child, Node):
            assert child.text == "".join(leaf.text for leaf in child.children)
            found += [child.text, *walk(child)]
    return found


def group(tree: Any) -> None:  # the signature grafts read
    pass


def trees() -> list[Any]:
    flat = Node([Leaf("a"), Leaf("::"), Leaf("int")])
    nested = Node([Leaf("f"), Node([Leaf("("), Leaf("x"), Leaf(")")])])
    other = Node([Leaf("g"), Node([Leaf("y")])])
    return [examples.Call((tree,), {}) for tree in (flat, nested, other)]


def test_a_whole_list_of_one_call_is_grafted_below_the_top_of_anothers() -> None:
    calls = trees()
    made = list(grafts.graft_variants(inspect.signature(group), calls, copy.deepcopy))
    assert made and all(kind == grafts.KIND and parameter == "tree" for parameter, kind, _ in made)
    below = [walk(call.args[0]) for _, _, call in made]
    assert any("a::int" in texts for texts in below)  # the flat call's tokens, inside another call's group


def test_the_calls_seen_are_left_as_they_were() -> None:
    calls = trees()
    before = [str([leaf.text for leaf in call.args[0].children]) for call in calls]
    list(grafts.graft_variants(inspect.signature(group), calls, copy.deepcopy))
    assert [str([leaf.text for leaf in call.args[0].children]) for call in calls] == before


def test_values_that_are_no_trees_give_no_grafts() -> None:
    calls = [examples.Call(([1, 2, 3],), {}), examples.Call(({"a": [Leaf("x")]},), {})]
    assert list(grafts.graft_variants(inspect.signature(group), calls, copy.deepcopy)) == []
