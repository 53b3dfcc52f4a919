"""Trees of the calls seen, with a branch of one grafted into another: a statement whose parenthesis
holds another statement's tokens, a document whose section holds another's paragraphs.

A parser's tests hand each function a few dozen trees, most of them flat: the cast at the top level,
the comparison alone. A draft that stops recursing into the groups, or handles a kind of node only
where the tests put it, agrees with the original on every one of them. Branches swapped between
the trees the tests built (the subtree crossover of grammar-based fuzzing) put what the tests
wrote in the places they did not.

A tree here is an object of the project whose attribute holds a list of objects of the project (its
children), at any depth. A graft replaces one such list, in a copy of one call's argument, by a
copy of another such list of the calls seen, and points the new children's back-references (an
attribute that held their old owner: `parent`) at their new owner. The owner is rebuilt by its
class where its constructor takes the list by the attribute's name (`TokenList(tokens)`), so that
what the constructor derives from its children (the group's text) agrees with them.

Each graft is an explored kind (inputs/kinds.py), "a branch of another call's": judged where the
original takes it.
"""

from __future__ import annotations

import inspect
import itertools
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .examples import Call
from .fields import attributes

MAX_GRAFTS = 64  # variants made per parameter, at most
MAX_SLOTS = 200  # lists of children found per argument, at most
MAX_DEPTH = 8  # steps from an argument down to a list of children
KIND = "a branch of another call's"

Path = tuple[tuple[str, int], ...]  # (attribute, index in its list) from the argument down to a node


def graft_variants(
    signature: inspect.Signature, calls: Sequence[Call], copy: Callable[[Any], Any]
) -> Iterator[tuple[str, str, Call]]:
    """(parameter, kind, call) for grafts between the trees in each positional parameter of `calls`
    (self too). `copy` copies a value as a call's pickle does: module-level objects stay themselves."""
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    names = list(itertools.takewhile(lambda name: signature.parameters[name].kind in positional, signature.parameters))
    for index, name in enumerate(names):
        trees = [(call, _slots(call.args[index])) for call in calls if len(call.args) > index]
        # Donors: each call's whole list first (what its test wrote), then the lists below it.
        donors: dict[str, list[tuple[Call, Path, str]]] = {}
        for top in (True, False):
            for call, slots in trees:
                for path, attribute in slots:
                    if (not path) == top:
                        donors.setdefault(attribute, []).append((call, path, attribute))
        # Recipients: the branches below the top (a graft at the top is another call's tree whole),
        # the calls in turn.
        per_call = [[slot for slot in slots if slot[0]] or slots for _, slots in trees]
        recipients = [(call, *slot) for (call, _), slot in _round_robin(list(zip(trees, per_call)))]
        made = 0
        for step in range(MAX_GRAFTS * 2 if recipients else 0):
            call, path, attribute = recipients[(step * 5) % len(recipients)]
            pool = donors.get(attribute, [])
            if made >= MAX_GRAFTS or len(pool) < 2:
                break
            donor = pool[step % len(pool)]
            if donor[0] is call:  # its own branch: into the next recipient (a donor of one step would go unused)
                call, path, attribute = recipients[(step * 5 + 1) % len(recipients)]
                if donor[0] is call or attribute != donor[2]:
                    continue
            try:
                grafted = _graft(call, index, path, attribute, donor, copy)
            except Exception:  # a copy that fails, a constructor that refuses the children: no graft
                continue
            if grafted is not None:
                made += 1
                yield name, KIND, grafted


def _round_robin(groups: list[tuple[tuple[Call, Any], list[tuple[Path, str]]]]) -> Iterator[tuple[Any, Any]]:
    """(tree, slot) taking one slot of each tree in turn."""
    for row in itertools.zip_longest(*(slots for _, slots in groups)):
        for (tree, _), slot in zip(groups, row):
            if slot is not None:
                yield tree, slot


def _graft(
    call: Call, index: int, path: Path, attribute: str, donor: tuple[Call, Path, str], copy: Callable[[Any], Any]
) -> Call | None:
    args, kwargs = copy((call.args, call.kwargs))
    args = list(args)
    source_owner = _follow(donor[0].args[index], donor[1])
    old_owner, children = copy((source_owner, getattr(source_owner, donor[2])))
    if not isinstance(children, list):
        return None
    root = args[index]
    owner = _follow(root, path)
    rebuilt = _rebuilt(owner, attribute, children)
    new_owner = owner if rebuilt is None else rebuilt
    if rebuilt is None:
        setattr(owner, attribute, children)
    for child in children:
        for name, value in attributes(child):
            if value is old_owner:
                setattr(child, name, new_owner)
    if rebuilt is not None:
        if not path:
            root = rebuilt
        else:
            parent = _follow(root, path[:-1])
            getattr(parent, path[-1][0])[path[-1][1]] = rebuilt
            for name, value in attributes(rebuilt):
                if value is None and getattr(owner, name, None) is parent:
                    setattr(rebuilt, name, parent)  # its own back-reference, as the old node had it
    args[index] = root
    return Call(tuple(args), dict(kwargs))


def _rebuilt(owner: Any, attribute: str, children: list[Any]) -> Any:
    """`type(owner)(attribute=children)` where its constructor takes the children by that name
    alone; None where it does not."""
    try:
        parameters = inspect.signature(type(owner)).parameters
    except (TypeError, ValueError):
        return None
    required = [
        p for p in parameters.values() if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if attribute not in parameters or any(p.name != attribute for p in required):
        return None
    return type(owner)(**{attribute: children})


def _follow(root: Any, path: Path) -> Any:
    node = root
    for attribute, position in path:
        node = getattr(node, attribute)[position]
    return node


def _slots(root: Any) -> list[tuple[Path, str]]:
    """(path to a node, attribute) for each list of children in the tree `root`, breadth first."""
    found: list[tuple[Path, str]] = []
    level: list[tuple[Path, Any]] = [((), root)]
    seen: set[int] = set()
    for _ in range(MAX_DEPTH):
        below: list[tuple[Path, Any]] = []
        for path, node in level:
            if id(node) in seen or not _of_project(node):
                continue
            seen.add(id(node))
            for attribute, value in attributes(node):
                if isinstance(value, list) and any(_of_project(item) for item in value):
                    found.append((path, attribute))
                    below.extend(((*path, (attribute, i)), item) for i, item in enumerate(value))
                if len(found) >= MAX_SLOTS:
                    return found
        level = below
    return found


def _of_project(value: Any) -> bool:
    """An instance of a class of the project's (not of the standard library's or builtins')."""
    if isinstance(value, type):
        return False
    module = type(value).__module__.partition(".")[0]
    return module not in ("builtins", *getattr(sys, "stdlib_module_names", ()))
