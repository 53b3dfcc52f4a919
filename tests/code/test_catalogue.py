"""The catalogue's rules, one by one: where each applies (and what it writes), and where its
preconditions do not hold in the syntax (it must not apply). Whether a rewrite behaves like the
original is the sandbox's to say: tests/code/test_catalogue_checked.py."""

from __future__ import annotations

import textwrap

import pytest

from coderefine.code.catalogue import RULES, Rule, rewrite_with, rewrites, rules_for


def only(name: str, source: str, taken: frozenset[str] = frozenset()) -> str | None:
    """The function rewritten by rule `name` alone (imports first), or None where it does not apply."""
    found = rewrite_with(textwrap.dedent(source), [name], taken)
    if found is None:
        return None
    return found.text.removeprefix("```python\n").removesuffix("```")


APPLIES = {
    "while-to-for": (
        """
        def f(xs):
            out = []
            i = 0
            while i < len(xs):
                out.append(xs[i])
                i = i + 1
            return out
        """,
        """
        def f(xs):
            out = []
            for i in range(len(xs)):
                out.append(xs[i])
            return out
        """,
    ),
    "index-to-item": (
        """
        def f(values):
            total = 0
            for i in range(len(values)):
                total += values[i] * 2
            return total
        """,
        """
        def f(values):
            total = 0
            for value in values:
                total += value * 2
            return total
        """,
    ),
    "dedupe-fromkeys": (
        """
        def f(items):
            seen = []
            for item in items:
                if item not in seen:
                    seen.append(item)
            return seen
        """,
        """
        def f(items):
            seen = list(dict.fromkeys(items))
            return seen
        """,
    ),
    "append-to-comprehension": (
        """
        def f(xs: list[int]) -> list[int]:
            # the squares of the even ones
            result: list[int] = []
            for x in xs:
                if x % 2 == 0:
                    result.append(x * x)
            return result
        """,
        """
        def f(xs: list[int]) -> list[int]:
            # the squares of the even ones
            result: list[int] = [x * x for x in xs if x % 2 == 0]
            return result
        """,
    ),
    "concat-to-join": (
        """
        def f(words):
            text = ""
            for word in words:
                text += word.upper()
            return text
        """,
        """
        def f(words):
            text = "".join([word.upper() for word in words])
            return text
        """,
    ),
    "loop-to-sum": (
        """
        def f(xs):
            n = 0
            for x in xs:
                n = n + x
            return n
        """,
        """
        def f(xs):
            n = sum(xs)
            return n
        """,
    ),
    "loop-to-min-max": (
        """
        def f(values):
            best = values[0]
            for value in values[1:]:
                if best < value:
                    best = value
            return best
        """,
        """
        def f(values):
            best = values[0]
            best = max(best, max(values[1:], default=best))
            return best
        """,
    ),
    "flag-to-any": (
        """
        def f(xs, limit):
            ok = True
            for x in xs:
                if x > limit:
                    ok = False
                    break
            return ok
        """,
        """
        def f(xs, limit):
            ok = not any(x > limit for x in xs)
            return ok
        """,
    ),
    "return-to-any": (
        """
        def f(xs):
            for i in range(len(xs)):
                for j in range(i + 1, len(xs)):
                    if xs[i] == xs[j]:
                        return True
            return False
        """,
        """
        def f(xs):
            return any(xs[i] == xs[j] for i in range(len(xs)) for j in range(i + 1, len(xs)))
        """,
    ),
    "count-to-counter": (
        """
        def f(xs):
            best = None
            for x in xs:
                if best is None or xs.count(x) > xs.count(best):
                    best = x
            return best
        """,
        """
        from collections import Counter


        def f(xs):
            best = None
            xs_counts = Counter(xs)
            for x in xs:
                if best is None or xs_counts[x] > xs.count(best):
                    best = x
            return best
        """,
    ),
    "sorted-to-min-max": (
        """
        def f(words):
            return sorted(words, key=len)[0], sorted(words)[-1]
        """,
        """
        def f(words):
            return min(words, key=len), max(words)
        """,
    ),
    "list-to-deque": (
        """
        def f(start, steps):
            queue = [start]
            seen = 0
            while queue:
                node = queue.pop(0)
                seen += node
                if node < steps:
                    queue.append(node + 1)
            return seen
        """,
        """
        from collections import deque


        def f(start, steps):
            queue = deque([start])
            seen = 0
            while queue:
                node = queue.popleft()
                seen += node
                if node < steps:
                    queue.append(node + 1)
            return seen
        """,
    ),
    "seen-set": (
        """
        def f(xs):
            out = []
            for x in xs:
                if x in out:
                    continue
                out.insert(0, x)
            return out
        """,
        """
        def f(xs):
            out = []
            out_seen = set()
            for x in xs:
                if x in out_seen:
                    continue
                out.insert(0, x)
                out_seen.add(x)
            return out
        """,
    ),
    "set-once": (
        """
        def f(a, b):
            return [x for x in a if x not in b]
        """,
        """
        def f(a, b):
            b_set = set(b)
            return [x for x in a if x not in b_set]
        """,
    ),
    "literal-set": (
        """
        def f(word):
            return word in ("a", "an", "the", None)
        """,
        """
        def f(word):
            return word in {"a", "an", "the", None}
        """,
    ),
    "hoist-method": (
        """
        def f(lines):
            out = []
            for line in lines:
                out.append(line.strip())
                out.append("")
            return out
        """,
        """
        def f(lines):
            out = []
            out_append = out.append
            for line in lines:
                out_append(line.strip())
                out_append("")
            return out
        """,
    ),
    "guard-clause": (
        """
        def f(user):
            if user.active:
                name = user.name
                return name.title()
            else:
                raise ValueError("inactive")
        """,
        """
        def f(user):
            if not user.active:
                raise ValueError("inactive")
            name = user.name
            return name.title()
        """,
    ),
    "elif-chain": (
        """
        def f(n):
            if n < 0:
                return "negative"
            else:
                if n == 0:
                    return "zero"
                else:
                    return "positive"
        """,
        """
        def f(n):
            if n < 0:
                return "negative"
            elif n == 0:
                return "zero"
            else:
                return "positive"
        """,
    ),
    "return-early": (
        """
        def f(x, low, high):
            if x < low:
                r = low
            else:
                if x > high:
                    log(x)
                    r = high
                else:
                    r = x
            return r
        """,
        """
        def f(x, low, high):
            if x < low:
                return low
            else:
                if x > high:
                    log(x)
                    return high
                else:
                    return x
        """,
    ),
}

# Where a rule's preconditions do not hold, it must leave the function alone.
DOES_NOT_APPLY = {
    "while-to-for": """
        def f(xs):
            i = 0
            while i < len(xs):
                if xs[i] < 0:
                    break
                i += 1
            return i
        """,  # a break, and the counter read after the loop
    "index-to-item": """
        def f(xs):
            for i in range(len(xs)):
                xs[i] = xs[i] * 2
            return xs
        """,  # writes through the index
    "dedupe-fromkeys": """
        def f(items):
            seen = []
            for item in items:
                if item not in seen:
                    seen.append(item)
            return seen, item
        """,  # the loop variable outlives the loop
    "append-to-comprehension": """
        def f(xs):
            out = []
            for x in xs:
                out.append(len(out) + x)
            return out
        """,  # reads the list it builds
    "concat-to-join": """
        def f(words):
            text = "> "
            for word in words:
                text += word
            return text
        """,  # starts from a non-empty string
    "loop-to-sum": """
        def f(xs):
            n = 0
            for x in xs:
                n += x
                print(n)
            return n
        """,  # the loop does more than add
    "loop-to-min-max": """
        def f(values):
            best = values[0]
            for value in values:
                if value >= best:
                    best = value
            return best
        """,  # keeps the last of equal items, max keeps the first
    "flag-to-any": """
        def f(grid):
            found = False
            for row in grid:
                for cell in row:
                    if cell:
                        found = True
                        break
            return found
        """,  # the break leaves the inner loop only
    "return-to-any": """
        def f(xs):
            for x in xs:
                if x:
                    return True
            return None
        """,  # not True/False
    "count-to-counter": """
        def f(xs):
            for x in xs:
                if xs.count(x) > 1:
                    xs.remove(x)
            return xs
        """,  # the loop changes the list it counts
    "sorted-to-min-max": """
        def f(words):
            return sorted(words, reverse=True)[0], sorted(words)[1]
        """,  # another order, another position
    "list-to-deque": """
        def f(items):
            queue = list(items)
            while queue:
                queue.pop(0)
            return queue[1:]
        """,  # not a list display, and sliced
    "seen-set": """
        def f(xs):
            out = []
            for x in xs:
                if x not in out:
                    out.append(x)
                if x < 0:
                    out.remove(x)
            return out
        """,  # items leave the list too
    "set-once": """
        def f(a, b: set[int]):
            return [x for x in a if x in b]
        """,  # a set already
    "literal-set": """
        def f(word, other):
            return word in ["a", other]
        """,  # not all constants
    "hoist-method": """
        def f(groups):
            for group in groups:
                group.sort()
            return groups
        """,  # the object changes with each turn
    "guard-clause": """
        def f(user):
            if user.active:
                return user.name
            else:
                return "?"
        """,  # one statement on each side: nothing to un-nest
    "elif-chain": """
        def f(n):
            if n < 0:
                return "negative"
            else:
                # zero or more
                if n == 0:
                    return "zero"
            return "positive"
        """,  # a comment in the way
    "return-early": """
        def f(x, low):
            global r
            if x < low:
                r = low
            else:
                r = x
            return r
        """,  # setting a global is an effect of its own (and a path without an `else` sets nothing)
}


@pytest.mark.parametrize("name", sorted(APPLIES))
def test_each_rule_writes_its_form(name: str) -> None:
    source, expected = APPLIES[name]
    assert only(name, source) == textwrap.dedent(expected).lstrip("\n")


@pytest.mark.parametrize("name", sorted(DOES_NOT_APPLY))
def test_each_rule_leaves_alone_what_its_preconditions_do_not_hold_for(name: str) -> None:
    assert only(name, DOES_NOT_APPLY[name]) is None


def test_every_rule_is_tested_both_ways() -> None:
    assert set(APPLIES) == set(DOES_NOT_APPLY) == {rule.name for rule in RULES}


def test_rules_compose_and_each_is_also_tried_alone() -> None:
    source = textwrap.dedent(
        """
        def squares(xs: list[int]) -> list[int]:
            result = []
            i = 0
            while i < len(xs):
                result.append(xs[i] ** 2)
                i = i + 1
            return result
        """
    )
    found = rewrites(source, "speed")
    assert found[0].rules == ("while-to-for", "index-to-item", "append-to-comprehension")
    assert "    result = [x ** 2 for x in xs]\n" in found[0].text
    assert [each.rules for each in found[1:]] == [("while-to-for",)]  # the others need it first


def test_a_name_the_module_binds_is_reached_another_way() -> None:
    source = DOES_NOT_APPLY["count-to-counter"].replace("xs.remove(x)", "pass")
    assert only("count-to-counter", source, frozenset({"Counter"})).startswith("import collections\n")  # type: ignore[union-attr]
    assert only("count-to-counter", source, frozenset({"Counter", "collections"})) is None


def test_what_cannot_be_read_gives_nothing() -> None:
    assert rewrites("def f(:\n", "speed") == ()
    assert rewrites("x = 1\n", "speed") == ()
    assert rewrites("def f(xs):\n    return xs\n", "speed") == ()


def test_the_readability_rules_leave_speed_tricks_out() -> None:
    names = {rule.name for rule in rules_for("readability")}
    assert "hoist-method" not in names and "guard-clause" in names
    assert all(isinstance(rule, Rule) for rule in rules_for("speed"))


def test_no_rule_applies_after_a_lookup_is_hoisted() -> None:
    # `remove = xs.remove` would hide from set-once that the loop shrinks `xs`: a set made of it
    # once would hold `value` for ever.
    source = "def remove_all(xs, value):\n    while value in xs:\n        xs.remove(value)\n    return xs\n"
    assert [each.rules for each in rewrites(source, "speed")] == [("hoist-method",)]
