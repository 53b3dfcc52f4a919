"""A catalogue of rewrite rules: the classic faster (or clearer) forms of a function, written with
no model. Each rule applies only where its preconditions hold in the syntax; whether the result
behaves like the original, and is faster, is the sandbox's to say, as for any draft.

    rewrites(source, "speed", taken=module_names) -> (Rewrite(rules, text), ...)

A rewrite is the function with every rule that applies applied in turn (until none applies), and,
when several did, each of them alone: one wrong rule (a set where items are unhashable) does not
sink the others. The text is a model's answer would be: one ```python block, imports first.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import libcst as cst

from coderefine.code.catalogue import builders, clarity, counting, hoisting, indexing, membership, ordering, reductions
from coderefine.code.catalogue.syntax import BlockRewrite, rewrite_block
from coderefine.errors import UsageError

Kind = Literal["speed", "readability"]
MAX_REWRITES = 3  # drafts from the catalogue per function: each costs a sandbox check
_MAX_STEPS = 12  # rule applications in one rewrite: every rule shrinks the code, this bounds a cycle


@dataclass(frozen=True)
class Rule:
    name: str
    kinds: tuple[Kind, ...]
    summary: str
    # (function, names the module binds) -> the function rewritten once, and the imports that needs
    apply: Callable[[cst.FunctionDef, frozenset[str]], tuple[cst.FunctionDef, tuple[str, ...]] | None]
    # Applied after every other rule, never before one: `append = out.append` hides from the others
    # that the loop changes `out` (a set made once of a list the loop shrinks would be wrong).
    finishing: bool = False


@dataclass(frozen=True)
class Rewrite:
    rules: tuple[str, ...]  # in the order they applied (a rule may apply more than once)
    text: str  # a ```python block: imports, then the function


def _block(
    rewrite: BlockRewrite,
) -> Callable[[cst.FunctionDef, frozenset[str]], tuple[cst.FunctionDef, tuple[str, ...]] | None]:
    def apply(function: cst.FunctionDef, taken: frozenset[str]) -> tuple[cst.FunctionDef, tuple[str, ...]] | None:
        changed = rewrite_block(function, rewrite)
        return (changed, ()) if changed is not None else None

    return apply


def _whole(
    rewrite: Callable[[cst.FunctionDef], cst.FunctionDef | None],
) -> Callable[[cst.FunctionDef, frozenset[str]], tuple[cst.FunctionDef, tuple[str, ...]] | None]:
    def apply(function: cst.FunctionDef, taken: frozenset[str]) -> tuple[cst.FunctionDef, tuple[str, ...]] | None:
        changed = rewrite(function)
        return (changed, ()) if changed is not None else None

    return apply


def _collections(
    name: str, rewrite: Callable[..., tuple[list[cst.BaseStatement], int] | None]
) -> Callable[[cst.FunctionDef, frozenset[str]], tuple[cst.FunctionDef, tuple[str, ...]] | None]:
    """A rule that needs `collections.<name>`: imported by its name, unless the module binds that
    name already (then through `collections`, unless that is bound too: no rewrite)."""

    def apply(function: cst.FunctionDef, taken: frozenset[str]) -> tuple[cst.FunctionDef, tuple[str, ...]] | None:
        if name not in taken:
            reach, imports = name, (f"from collections import {name}",)
        elif "collections" not in taken:
            reach, imports = f"collections.{name}", ("import collections",)
        else:
            return None
        changed = rewrite_block(function, functools.partial(_reaching, rewrite, reach))
        return (changed, imports) if changed is not None else None

    return apply


def _reaching(
    rewrite: Callable[..., tuple[list[cst.BaseStatement], int] | None],
    reach: str,
    statements: Sequence[cst.BaseStatement],
    index: int,
    function: cst.FunctionDef,
) -> tuple[list[cst.BaseStatement], int] | None:
    return rewrite(statements, index, function, reach)


BOTH: tuple[Kind, ...] = ("speed", "readability")
RULES: tuple[Rule, ...] = (
    Rule(
        "while-to-for",
        BOTH,
        "`while i < len(xs)` with `i += 1` -> `for i in range(len(xs))`",
        _block(indexing.while_to_for),
    ),
    Rule(
        "index-to-item",
        BOTH,
        "`for i in range(len(xs))` reading `xs[i]` -> iterate `xs` (or `enumerate(xs)`)",
        _block(indexing.range_len),
    ),
    Rule(
        "dedupe-fromkeys",
        ("speed",),
        "a loop that keeps first occurrences -> `list(dict.fromkeys(xs))`",
        _block(membership.dedupe),
    ),
    Rule(
        "append-to-comprehension",
        BOTH,
        "a loop that only appends -> a list comprehension",
        _block(builders.comprehension),
    ),
    Rule("concat-to-join", BOTH, '`s += piece` in a loop -> `"".join(...)`', _block(builders.join)),
    Rule("loop-to-sum", BOTH, "a loop that only adds -> `sum(...)`", _block(reductions.total)),
    Rule(
        "loop-to-min-max",
        BOTH,
        "a loop that keeps the largest or smallest -> `max(...)` / `min(...)`",
        _block(reductions.extreme),
    ),
    Rule("flag-to-any", BOTH, "a loop that sets a flag -> `any(...)`", _block(reductions.flag)),
    Rule(
        "return-to-any",
        BOTH,
        "a loop that returns True/False early -> `return any(...)`",
        _block(reductions.early_return),
    ),
    Rule(
        "count-to-counter",
        ("speed",),
        "`xs.count(x)` in a loop over `xs` -> one `Counter(xs)`",
        _collections("Counter", counting.counter),
    ),
    Rule(
        "sorted-to-min-max",
        BOTH,
        "`sorted(x)[0]` / `sorted(x)[-1]` -> `min(x)` / `max(x)`",
        _whole(ordering.sorted_extreme),
    ),
    Rule(
        "list-to-deque",
        ("speed",),
        "`pop(0)` / `insert(0, v)` on a list in a loop -> a `deque`",
        _collections("deque", ordering.queue),
    ),
    Rule(
        "seen-set", ("speed",), "`x in out` for a list the loop builds -> a set beside it", _block(membership.seen_set)
    ),
    Rule(
        "set-once",
        ("speed",),
        "`x in items` for a collection the loop never changes -> a set made before it",
        _block(membership.hoisted_set),
    ),
    Rule("literal-set", ("speed",), "`x in [1, 2, 3]` -> `x in {1, 2, 3}`", _whole(membership.literal_set)),
    Rule(
        "hoist-method",
        ("speed",),
        "`out.append` looked up once before a hot loop",
        _block(hoisting.bound_method),
        finishing=True,
    ),
    Rule(
        "guard-clause",
        ("readability",),
        "`if c: ... else: return x` -> `if not c: return x` first",
        _block(clarity.guard_clause),
    ),
    Rule("elif-chain", ("readability",), "`else: if` -> `elif`", _whole(clarity.elif_chain)),
    Rule(
        "return-early",
        ("readability",),
        "a value set on every path of an `if`, then returned -> a `return` on each path",
        _whole(clarity.return_early),
    ),
)


def check_names(names: Sequence[str] | None) -> None:
    """A UsageError for a name no rule has (a misspelt `rewrite_rules` entry), with the closest one."""
    known = [rule.name for rule in RULES]
    for name in names or ():
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"did you mean {close[0]}?" if close else f"known: {', '.join(known)}"
            raise UsageError(f"rewrite_rules: no rule {name!r} ({hint})")


def digest() -> str:
    """What the rules' code is: cached results name it, as they name the checker's."""
    folder = Path(__file__).parent
    hashed = hashlib.sha256()
    for path in sorted(folder.glob("*.py")):
        hashed.update(path.name.encode() + b"\0" + path.read_bytes())
    return hashed.hexdigest()[:16]


def rules_for(kind: Kind) -> tuple[Rule, ...]:
    return tuple(rule for rule in RULES if kind in rule.kinds)


def rewrites(
    source: str, kind: Kind, taken: frozenset[str] = frozenset(), chosen: Sequence[str] | None = None
) -> tuple[Rewrite, ...]:
    """The catalogue's drafts of the function in `source` (dedented, as a target's), at most
    MAX_REWRITES: every rule that applies, in turn; then each rule that applied, alone. A rule that
    cannot parse or rewrite what it meets is left out, never an error. `chosen`: the rules' names
    allowed to (None: all)."""
    function = _function(source)
    if function is None:
        return ()
    rules = tuple(rule for rule in rules_for(kind) if chosen is None or rule.name in chosen)
    together = _applied(function, rules, taken)
    found: list[Rewrite] = [together] if together is not None else []
    if together is not None and len(set(together.rules)) > 1:
        for rule in rules:
            if rule.name in together.rules:
                alone = _applied(function, (rule,), taken)
                if alone is not None and alone.text not in {each.text for each in found}:
                    found.append(alone)
    return tuple(found[:MAX_REWRITES])


def rewrite_with(source: str, names: Sequence[str], taken: frozenset[str] = frozenset()) -> Rewrite | None:
    """The function in `source` rewritten by the named rules alone (in the catalogue's order), or
    None where none of them applies."""
    function = _function(source)
    chosen = tuple(rule for rule in RULES if rule.name in names)
    return _applied(function, chosen, taken) if function is not None else None


def _function(source: str) -> cst.FunctionDef | None:
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError:
        return None
    functions = [node for node in module.body if isinstance(node, cst.FunctionDef)]
    return functions[0] if len(functions) == 1 else None


def _applied(function: cst.FunctionDef, rules: Sequence[Rule], taken: frozenset[str]) -> Rewrite | None:
    applied: list[str] = []
    imports: list[str] = []
    current = function
    for _ in range(_MAX_STEPS):
        if any(rule.finishing and rule.name in applied for rule in rules):
            rules = [rule for rule in rules if rule.finishing]
        for rule in rules:
            try:
                result = rule.apply(current, taken)
            except Exception:
                result = None
            if result is not None:
                current, needed = result
                applied.append(rule.name)
                imports.extend(each for each in needed if each not in imports)
                break
        else:
            break
    if not applied:
        return None
    text = cst.Module(body=[current.with_changes(leading_lines=[])]).code
    header = "".join(f"{line}\n" for line in imports) + ("\n\n" if imports else "")
    try:
        compile(header + text, "<rewrite>", "exec")
    except (SyntaxError, ValueError):
        return None
    return Rewrite(tuple(applied), f"```python\n{header}{text}```")


__all__ = [
    "MAX_REWRITES",
    "RULES",
    "Kind",
    "Rewrite",
    "Rule",
    "check_names",
    "digest",
    "rewrite_with",
    "rewrites",
    "rules_for",
]
