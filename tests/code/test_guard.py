"""The static guard: hostile or signature-changing drafts are refused on the host, before they run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from coderefine.code.candidate import parse_candidate
from coderefine.code.guard import Guard, Refusal, check_draft
from coderefine.code.optimize import optimize
from coderefine.code.source import SourceFile
from coderefine.config import resolve
from coderefine.errors import UsageError
from tests.conftest import MakeProject
from tests.functions import DEDUPE_HEADER as HEADER
from tests.functions import FAST_BODY, SLOW_DEDUPE, fenced
from tests.scripted_llm import ScriptedLLM, prompt_text

MODULE = (
    '''\
"""Helpers with a slow function."""
import math
from collections import OrderedDict

_cache: dict[tuple[int, ...], list[int]] = {}


'''
    + SLOW_DEDUPE
    + """

def merge(a, b, /, key=None, *rest, reverse=False, **options) -> list:
    return sorted([*a, *b], key=key, reverse=reverse)


class Bag:
    def __init__(self) -> None:
        self.items: list[int] = []

    def unique(self, items: list[int]) -> list[int]:
        return [x for i, x in enumerate(items) if x not in items[:i]]

    @classmethod
    def build(cls, items: list[int]) -> list[int]:
        return [x for i, x in enumerate(items) if x not in items[:i]]

    @staticmethod
    def twice(items: list[int]) -> list[int]:
        return items + items
"""
)


def guard_check(draft: str, name: str = "dedupe", module: str = MODULE, allow: tuple[str, ...] = ()) -> Refusal | None:
    """The guard's answer for a model's answer, shaped the way the run shapes it (`parse_candidate`)."""
    source = SourceFile(module.encode())
    target = source.target(name)
    return Guard.for_target(source, target, allow).check(parse_candidate(draft, target).source)


def refused(draft: str, rule: str, *words: str, **options: object) -> Refusal:
    refusal = guard_check(draft, **options)  # type: ignore[arg-type]
    assert refusal is not None, f"not refused: {draft}"
    assert refusal.rule == rule, refusal.message
    assert refusal.message.startswith(f"refused before it ran: [{rule}] line ")
    for word in words:
        assert word in refusal.detail, refusal.message
    return refusal


def allowed(draft: str, **options: object) -> None:
    refusal = guard_check(draft, **options)  # type: ignore[arg-type]
    assert refusal is None, refusal.message


# -- the attacks ------------------------------------------------------------------------------

PRODUCTION_BOMB = (
    "import os\n" + HEADER + "    if os.environ.get('DEPLOY_ENV') == 'production':\n"
    "        os.system('rm -rf ~')\n" + FAST_BODY
)


def test_a_draft_that_imports_os_to_act_in_production_is_refused() -> None:
    refusal = refused(PRODUCTION_BOMB, "allowed-imports", "it imports os, which is not on the allow-list")
    assert refusal.line == 1
    assert "guard_allow_imports" in refusal.message


# The original dedupe, reading the system and the clock itself.
USES_OS_AND_TIME = SLOW_DEDUPE.replace("    result = []\n", "    result = [] if os.sep and time.time() else []\n", 1)


def test_what_the_module_imports_a_draft_may_import_but_the_system_and_the_clock_only_if_the_original_uses_them() -> (
    None
):
    allowed("import sortedcontainers\n" + HEADER + FAST_BODY, module="import sortedcontainers\n" + MODULE)
    module = "import os\nimport time\n" + MODULE
    refused(
        PRODUCTION_BOMB,
        "allowed-imports",
        "it uses os, which the module imports but the original does not use",
        module=module,
    )
    # Read by name, without an import of its own: a time bomb on the module's import.
    bomb = HEADER + "    if time.time() > 1.9e9:\n        return []\n" + FAST_BODY
    refused(bomb, "allowed-imports", "it uses time, which the module imports", module=module)
    original_uses = "import os\nimport time\n" + MODULE.replace(SLOW_DEDUPE, USES_OS_AND_TIME)
    allowed(PRODUCTION_BOMB, module=original_uses)
    allowed(bomb, module=original_uses)
    allowed("from os import path\n" + HEADER + FAST_BODY, module=original_uses)


def test_the_project_may_allow_a_module() -> None:
    allowed("from os.path import join\n" + HEADER + FAST_BODY, allow=("os.path",))
    allowed("import os.path as osp\n" + HEADER + FAST_BODY, allow=("os.path",))
    # `import os.path` binds `os` itself: all of os, which "os.path" does not allow.
    refused("import os.path\n" + HEADER + FAST_BODY, "allowed-imports", "imports os,", allow=("os.path",))
    refused("from os import system\n" + HEADER + FAST_BODY, "allowed-imports", allow=("os.path",))


@pytest.mark.parametrize(
    ("imports", "shown"),
    [
        ("import builtins\n", "builtins"),
        ("from os import system\n", "os.system"),
        ("import os.path\n", "os"),
        ("from importlib import import_module\n", "importlib.import_module"),
        ("import ctypes, itertools\n", "ctypes"),
        ("import types\n", "types"),
        ("from random import _os\n", "random._os"),
    ],
)
def test_system_and_introspection_imports_are_refused(imports: str, shown: str) -> None:
    refused(imports + HEADER + FAST_BODY, "allowed-imports", f"it imports {shown},")


def test_an_import_inside_the_body_counts_too() -> None:
    draft = HEADER + "    import subprocess\n    subprocess.run(['id'])\n" + FAST_BODY
    assert refused(draft, "allowed-imports", "imports subprocess").line == 2


def test_reaching_a_system_module_through_another_one_is_refused() -> None:
    draft = "import random\n" + HEADER + "    random._os.system('id')\n" + FAST_BODY
    original_uses = "import random\n" + MODULE.replace(
        "    result = []\n", "    result = [] or [random.random()][:0]\n", 1
    )
    refused(draft, "allowed-imports", "reaches the os module", "._os", module=original_uses)
    # The module a pure module's attribute is, not the one it was reached through.
    draft = (
        "import statistics\n" + HEADER + "    if statistics.random.random() < 1e-6:\n        return []\n" + FAST_BODY
    )
    refused(draft, "allowed-imports", "reaches the module random through statistics.random")
    refused("from typing import sys\n" + HEADER + FAST_BODY, "allowed-imports", "module sys through typing.sys")


@pytest.mark.parametrize(
    ("imports", "shown"),
    [
        ("from pydoc import locate\n", "pydoc.locate"),
        ("import timeit\n", "timeit"),
        ("import logging\n", "logging"),
        ("import posixpath\n", "posixpath"),
        ("import random\n", "random"),
        ("from time import time\n", "time.time"),
        ("import datetime\n", "datetime"),
        ("from . import helpers\n", ".helpers"),
        ("import codecs\n", "codecs"),
    ],
)
def test_a_module_off_the_allow_list_is_refused(imports: str, shown: str) -> None:
    refused(imports + HEADER + FAST_BODY, "allowed-imports", f"it imports {shown}, which is not on the allow-list")


def test_names_resolved_from_strings_are_refused_whatever_they_come_from() -> None:
    module = "from pydoc import locate\nimport typing\n" + MODULE
    draft = HEADER + "    if locate('sys._getframe'):\n        pass\n" + FAST_BODY
    refused(draft, "no-dangerous-calls", "it uses locate, which resolves names", module=module)
    draft = HEADER + "    typing.get_type_hints(dedupe)\n" + FAST_BODY
    refused(draft, "no-dangerous-calls", "get_type_hints", module=module)
    refused(HEADER + "    print('{0.gi_frame.f_back}'.format(items))\n" + FAST_BODY, "no-introspection", ".f_back")


def test_reflective_builtins_are_refused() -> None:
    refused(HEADER + "    key = id(items)\n" + FAST_BODY, "no-dangerous-calls", "it uses id")
    refused(HEADER + "    help(items)\n" + FAST_BODY, "no-dangerous-calls", "it uses help")
    refused(HEADER + "    names = dir(items)\n" + FAST_BODY, "no-dangerous-calls", "it uses dir")


def test_caches_are_refused_unless_the_original_has_one() -> None:
    draft = (
        "from functools import lru_cache\n\n\n@lru_cache\ndef _seen(items):\n    return 1\n\n\n" + HEADER + FAST_BODY
    )
    refused(draft, "no-caches", "lru_cache, a cache that outlives the call")
    draft = "import functools\n" + HEADER + "    return list(functools.cache(dict.fromkeys)(tuple(items)))\n"
    refused(draft, "no-caches", "it uses cache")
    cached = "import functools\n" + MODULE.replace(
        "    result = []\n", "    functools.lru_cache(len)\n    result = []\n", 1
    )
    allowed(draft, module=cached)


def test_an_import_the_splice_would_turn_into_another_meaning_for_the_file_is_refused() -> None:
    module = "from math import sqrt\n" + MODULE + "\n\ndef root(x):\n    return sqrt(x) + floor(x)\n"
    draft = "from cmath import sqrt\n" + HEADER + FAST_BODY
    refused(draft, "keeps-module-names", "the module's sqrt is math.sqrt", module=module)
    refused("from math import floor\n" + HEADER + FAST_BODY, "keeps-module-names", "other code", module=module)
    refused("from itertools import filterfalse as filter\n" + HEADER + FAST_BODY, "keeps-module-names", "builtin")
    refused("from math import pi as _cache\n" + HEADER + FAST_BODY, "keeps-module-names", "the module binds _cache")
    allowed("from math import sqrt\n" + HEADER + FAST_BODY, module=module)  # the same binding
    allowed(HEADER + "    from cmath import sqrt\n" + FAST_BODY, module=module)  # inside: its own
    helper = "def floor(x):\n    return x\n\n\n".replace("def floor", "def _floor")
    module_reading_helper = module.replace("floor(x)", "_floor(x)")
    draft = helper + HEADER + "    _floor(0)\n" + FAST_BODY
    refused(draft, "keeps-module-names", "its helper _floor", module=module_reading_helper)


def test_what_models_write_is_not_mistaken_for_what_the_rules_refuse() -> None:
    memo = "    cache = {}\n    for item in items:\n        cache.setdefault(item, item)\n    return list(cache)\n"
    allowed(HEADER + memo)  # a local dict named cache: no functools cache
    allowed(HEADER + "    seen = set(items)\n    return [x for x in dict.fromkeys(items) if seen.__contains__(x)]\n")
    last = "    collections.deque(items, maxlen=1).pop() if items else 0\n"
    allowed("import collections\n" + HEADER + last + FAST_BODY)
    computed = "    result = [getattr(items, str(0), 0)][:0]\n"
    reads = "import operator\n" + MODULE.replace("    result = []\n", computed, 1)
    draft = "import operator\n" + HEADER + "    operator.attrgetter(str(len(items)))\n" + FAST_BODY
    allowed(draft, module=reads)  # an original that reads by a computed name allows attrgetter too
    refused(HEADER + "    items.__class__\n" + FAST_BODY, "no-dunder-access")
    refused(HEADER + "    seen = set()\n    seen.__setattr__('x', 1)\n" + FAST_BODY, "no-dunder-access")


def test_a_module_imported_in_the_body_is_no_local_object() -> None:
    refused(HEADER + "    import math\n    math.pi = 3\n" + FAST_BODY, "no-global-state", "math.pi")
    refused(HEADER + "    import string\n    setattr(string, 'digits', 'x')\n" + FAST_BODY, "no-global-state")


def test_a_type_or_operator_function_that_changes_outside_state_is_refused() -> None:
    refused(HEADER + "    dict.update(_cache, {(): items})\n" + FAST_BODY, "no-global-state", "_cache")
    draft = "import operator\n" + HEADER + "    operator.setitem(_cache, (), items)\n" + FAST_BODY
    refused(draft, "no-global-state", "_cache")
    refused(HEADER + "    found = getattr(math, 'tau')\n    found.real = 1\n" + FAST_BODY, "no-global-state")


def test_walking_the_stack_is_refused() -> None:
    walk = HEADER + "    frame = sys._getframe()\n    while frame.f_back:\n        frame = frame.f_back\n" + FAST_BODY
    refused("import sys\n" + walk, "allowed-imports", "it imports sys")
    # Even where the original uses sys: frames are out of bounds.
    uses_sys = "import sys\n" + MODULE.replace("    result = []\n", "    result = [] * sys.maxsize\n", 1)
    refused(walk, "no-introspection", "._getframe", module=uses_sys)
    generator_frame = HEADER + "    frame = (x for x in items).gi_frame\n" + FAST_BODY
    refused(generator_frame, "no-introspection", ".gi_frame")


def test_opening_another_process_output_is_refused() -> None:
    draft = HEADER + "    with open(f'/proc/{1}/fd/1', 'w') as out:\n        out.write('PASS')\n" + FAST_BODY
    refused(draft, "no-dangerous-calls", "it uses open")


@pytest.mark.parametrize(
    "call",
    [
        "eval('1')",
        "exec('x = 1')",
        "compile('1', 'f', 'eval')",
        "__import__('os')",
        "globals()",
        "locals()",
        "vars()",
        "breakpoint()",
        "input()",
    ],
)
def test_dangerous_builtins_are_refused(call: str) -> None:
    name = call.split("(")[0]
    refused(HEADER + f"    {call}\n" + FAST_BODY, "no-dangerous-calls", f"it uses {name}")


def test_dangerous_builtins_passed_on_are_refused_too() -> None:
    refused(HEADER + "    run = eval\n" + FAST_BODY, "no-dangerous-calls", "it uses eval")
    draft = "import codecs\n" + HEADER + "    codecs.open('x', 'w')\n" + FAST_BODY
    refused(draft, "no-dangerous-calls", "codecs.open", module="import codecs\n" + MODULE)


def test_a_mutable_default_on_a_new_parameter_is_refused() -> None:
    draft = "def dedupe(items: list[int], _n=[0]) -> list[int]:\n    _n[0] += 1\n" + FAST_BODY
    refused(draft, "same-signature", "it adds a parameter _n = [0]", "mutable default")


@pytest.mark.parametrize(
    "default",
    ["[]", "{}", "set()", "list()", "collections.deque()", "[i for i in ()]", "itertools.count()", "(dict(),)"],
)
def test_mutable_defaults_in_nested_functions_are_refused(default: str) -> None:
    draft = HEADER + f"    def seen(item, memo={default}):\n        return item in memo\n" + FAST_BODY
    refused(draft, "no-mutable-defaults", f"mutable default value {default}")


def test_immutable_defaults_in_nested_functions_are_allowed() -> None:
    allowed(
        HEADER + "    def seen(item, memo=(), empty=frozenset(), missing=object()):\n        return item\n" + FAST_BODY
    )


def test_global_and_nonlocal_are_refused() -> None:
    refused(HEADER + "    global _calls\n    _calls += 1\n" + FAST_BODY, "no-global-state", "global _calls")
    draft = HEADER + "    n = 0\n    def count():\n        nonlocal n\n        n += 1\n    count()\n" + FAST_BODY
    refused(draft, "no-global-state", "nonlocal n")


def test_computed_attribute_names_are_refused_and_literal_ones_allowed() -> None:
    refused(
        HEADER + "    name = 'fromkeys'\n    return list(getattr(dict, name)(items))\n",
        "no-dangerous-calls",
        "getattr with a name that is not a string literal",
    )
    for function in ("setattr(items, name, 1)", "hasattr(items, name)", "delattr(items, name)"):
        refused(HEADER + f"    name = 'x'\n    {function}\n" + FAST_BODY, "no-dangerous-calls")
    refused(
        "import operator\n" + HEADER + "    name = 'x'\n    operator.attrgetter(name)\n" + FAST_BODY,
        "no-dangerous-calls",
        "attrgetter",
    )
    allowed(HEADER + "    return list(getattr(dict, 'fromkeys')(items))\n")


def test_dunders_are_refused_in_attributes_names_and_strings() -> None:
    refused(HEADER + "    dedupe.__globals__\n" + FAST_BODY, "no-dunder-access", "__globals__")
    refused(HEADER + "    __builtins__\n" + FAST_BODY, "no-dunder-access", "__builtins__")
    refused(HEADER + "    getattr(dedupe, '__globals__')\n" + FAST_BODY, "no-dunder-access", "__globals__")
    refused(HEADER + "    '{0.__globals__}'.format(dedupe)\n" + FAST_BODY, "no-dunder-access", "__globals__")
    refused(HEADER + "    items.__class__\n" + FAST_BODY, "no-dunder-access", "__class__")


def test_a_dunder_the_original_uses_is_allowed() -> None:
    module = MODULE.replace("    result = []\n", "    result = []\n    kind = type(items).__name__\n", 1)
    # __name__ is the original's, __class__ is not.
    refused(
        HEADER + "    kind = items.__class__.__name__\n" + FAST_BODY, "no-dunder-access", "__class__", module=module
    )
    allowed(HEADER + "    kind = type(items).__name__\n" + FAST_BODY, module=module)
    allowed(HEADER + '    """Like __init__ would: a docstring may name a dunder."""\n' + FAST_BODY)


def test_module_state_and_monkeypatches_are_refused() -> None:
    refused(HEADER + "    math.pi = 3\n" + FAST_BODY, "no-global-state", "it changes math.pi")
    refused(HEADER + "    _cache[tuple(items)] = items\n" + FAST_BODY, "no-global-state", "_cache[tuple(items)]")
    refused(HEADER + "    del _cache[()]\n" + FAST_BODY, "no-global-state", "_cache[()]")
    refused(HEADER + "    _cache.setdefault((), items)\n" + FAST_BODY, "no-global-state", "_cache.setdefault()")
    alias = HEADER + "    memo = _cache\n    memo[()] = items\n" + FAST_BODY
    refused(alias, "no-global-state", "memo refers to an object from outside the call")
    refused(HEADER + "    dedupe.calls = 1\n" + FAST_BODY, "no-global-state", "attribute on the function itself")
    refused(HEADER + "    setattr(math, 'tau', 1)\n" + FAST_BODY, "no-global-state", "math.tau")


def test_local_state_is_allowed() -> None:
    allowed(SLOW_DEDUPE)
    allowed(HEADER + "    seen = {}\n    for item in items:\n        seen[item] = True\n    return list(seen)\n")
    allowed(
        HEADER + "    seen = set()\n    out = []\n    for item in items:\n        if item not in seen:\n"
        "            seen.add(item)\n            out.append(item)\n    return out\n"
    )


def test_ordinary_new_imports_are_allowed() -> None:
    allowed("import itertools\n" + HEADER + "    return list(dict.fromkeys(itertools.chain(items)))\n")
    allowed("import collections\n" + HEADER + "    return list(collections.OrderedDict.fromkeys(items))\n")
    allowed("from collections import OrderedDict\n" + HEADER + "    return list(OrderedDict.fromkeys(items))\n")
    allowed(HEADER + "    import functools\n" + FAST_BODY)


def test_the_state_the_original_keeps_a_draft_may_keep() -> None:
    module = MODULE.replace("    result = []\n", "    _cache[()] = []\n    result = []\n", 1)
    allowed(HEADER + "    _cache[()] = items\n" + FAST_BODY, module=module)


# -- the signature ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("draft", "reason"),
    [
        ("def merge(x, b, /, key=None, *rest, reverse=False, **options) -> list:", "renames the parameter a to x"),
        (
            "def merge(b, a, /, key=None, *rest, reverse=False, **options) -> list:",
            "reorders the parameters: (a, b, key, rest, reverse, options) became (b, a, key, rest, reverse, options)",
        ),
        (
            "def merge(a, b, /, key=0, *rest, reverse=False, **options) -> list:",
            "the default of `key` changed from None to 0",
        ),
        ("def merge(a, b, /, key, *rest, reverse=False, **options) -> list:", "drops the default of `key` (None)"),
        ("def merge(a, b=(), /, key=None, *rest, reverse=False, **options) -> list:", "gives `b` a default (())"),
        (
            "def merge(a, b, key=None, *rest, reverse=False, **options) -> list:",
            "the parameter a is positional-or-keyword, in the original positional-only",
        ),
        ("def merge(a, b, /, key=None, *, reverse=False, **options) -> list:", "removes the parameter *rest"),
        ("def merge(a, b, /, key=None, *rest, reverse=False, **options):", None),  # the original's comes back
        ("def merge(a, b, /, key=None, *rest, reverse=False, **options) -> list[int]:", None),
        ("def merge(a: list, b: list, /, key=None, *rest, reverse=False, **options) -> list:", None),
        (
            "def merge(a, b, /, key=None, *rest, reverse=False, extra=1, **options) -> list:",
            "adds a parameter extra = 1",
        ),
    ],
)
def test_signature_changes_are_refused(draft: str, reason: str | None) -> None:
    answer = draft + "\n    return sorted([*a, *b], key=key, reverse=reverse)\n"
    if reason is None:
        allowed(answer, name="merge")
    else:
        refused(answer, "same-signature", reason, name="merge")


def test_a_default_written_with_a_prefix_it_does_not_need_is_the_same_default() -> None:
    module = MODULE.replace("key=None, *rest", "key=u'', *rest")
    allowed(
        "def merge(a, b, /, key='', *rest, reverse=False, **options) -> list:\n    return []\n",
        module=module,
        name="merge",
    )
    refused(
        "def merge(a, b, /, key=b'', *rest, reverse=False, **options) -> list:\n    return []\n",
        "same-signature",
        "the default of `key` changed from u'' to b''",
        module=module,
        name="merge",
    )


def test_new_star_args_added_decorator_async_and_yield_are_refused() -> None:
    refused(
        "def dedupe(items: list[int], *args) -> list[int]:\n" + FAST_BODY, "same-signature", "adds a parameter *args"
    )
    refused(
        "import functools\n@functools.cache\n" + HEADER + FAST_BODY,
        "same-signature",
        "adds the decorator @functools.cache",
    )
    refused(HEADER + "    yield from dict.fromkeys(items)\n", "same-signature", "it yields")
    original = "def f(x):\n    return x\n"
    refusal = check_draft(original, "", "async def f(x):\n    return x\n", function_name="f")
    assert refusal is not None and refusal.rule == "same-signature" and "async" in refusal.detail
    # A generator's draft stays one: an eager list, or a generator only inside a helper, is refused.
    generator = "def f(x):\n    yield from x\n"
    for eager in ("def f(x):\n    return list(x)\n", "def f(x):\n    def g():\n        yield from x\n    return g()\n"):
        refusal = check_draft(generator, "", eager, function_name="f")
        assert refusal is not None and "no longer yields" in refusal.detail, eager
    assert check_draft(generator, "", "def f(x):\n    for item in x:\n        yield item\n", function_name="f") is None


def test_an_identical_signature_with_another_body_is_allowed() -> None:
    allowed(HEADER + FAST_BODY)
    allowed("def dedupe(items: list[int]) -> list[int]:\n    # fewer scans\n    return [*dict.fromkeys(items)]\n")


@pytest.mark.parametrize("name", ["Bag.unique", "Bag.build", "Bag.twice"])
def test_methods_keep_their_signature_too(name: str) -> None:
    method = name.split(".")[1]
    first = {"unique": "self, ", "build": "cls, ", "twice": ""}[method]
    body = "    return list(dict.fromkeys(items))\n"
    allowed(f"def {method}({first}items: list[int]) -> list[int]:\n{body}", name=name)
    # Also as the model often writes it: inside its class.
    allowed(f"class Bag:\n    def {method}({first}items: list[int]) -> list[int]:\n    {body}", name=name)
    refused(
        f"def {method}({first}items: list[int], limit=None) -> list[int]:\n{body}",
        "same-signature",
        "adds a parameter limit = None",
        name=name,
    )
    if first:
        refused(f"def {method}(items: list[int]) -> list[int]:\n{body}", "same-signature", name=name)


def test_a_method_may_change_its_own_object_but_not_its_class() -> None:
    allowed(
        "def unique(self, items: list[int]) -> list[int]:\n    self.items = list(dict.fromkeys(items))\n"
        "    return self.items\n",
        name="Bag.unique",
    )
    refused(
        "def build(cls, items: list[int]) -> list[int]:\n    cls.count = 1\n    return items\n",
        "no-global-state",
        "cls.count",
        name="Bag.build",
    )
    refused(
        "def unique(self, items: list[int]) -> list[int]:\n    type(self).count = 1\n    return items\n",
        "no-global-state",
        "type(self).count",
        name="Bag.unique",
    )


def test_staticmethod_and_classmethod_decorators_must_match() -> None:
    original = "@staticmethod\ndef twice(items):\n    return items + items\n"
    plain = check_draft(
        original, "", "def twice(items):\n    return items * 2\n", function_name="twice", class_name="Bag"
    )
    assert plain is not None and "removes the decorator @staticmethod" in plain.detail
    swapped = check_draft(
        original, "", "@classmethod\ndef twice(items):\n    return items * 2\n", function_name="twice", class_name="Bag"
    )
    assert swapped is not None and swapped.rule == "same-signature"
    same = check_draft(
        original,
        "",
        "@staticmethod\ndef twice(items):\n    return items * 2\n",
        function_name="twice",
        class_name="Bag",
    )
    assert same is None


def test_drafts_of_another_shape_are_refused() -> None:
    original = "def f(x):\n    return x\n"
    extra = check_draft(original, "", "def f(x):\n    return x\nprint('loaded')\n", function_name="f")
    assert extra is not None and extra.rule == "one-function" and extra.line == 3
    broken = check_draft(original, "", "def f(x:\n", function_name="f")
    assert broken is not None and broken.rule == "parses"


def test_a_future_import_is_refused_wherever_it_stands() -> None:
    # Spliced in below the file's own imports, it would stop the file from compiling.
    top = refused(
        "from __future__ import annotations\n" + HEADER + FAST_BODY,
        "no-future-imports",
        "it imports annotations from __future__",
        "must open its file",
    )
    assert top.line == 1
    # Even the very line the file has: the file's own __future__ imports already apply to the function.
    own = MODULE.replace("import math\n", "from __future__ import annotations\nimport math\n", 1)
    refused("from __future__ import annotations\n" + HEADER + FAST_BODY, "no-future-imports", module=own)
    inside = refused(HEADER + "    from __future__ import annotations\n" + FAST_BODY, "no-future-imports")
    assert inside.line == 2


# Trojan Source: a right-to-left override and isolates show the comment's text in another order,
# where a reader sees code.
TROJAN_COMMENT = HEADER + "    # \u202e } \u2066if items:\u2069 \u2066return []\n" + FAST_BODY


def test_trojan_source_characters_are_refused_in_comments_and_strings() -> None:
    comment = refused(TROJAN_COMMENT, "plain-characters", "U+202E RIGHT-TO-LEFT OVERRIDE", "bidirectional control")
    assert comment.line == 2
    assert "\u202e" not in comment.message  # named, never shown
    string = HEADER + '    if items == ["adm\u200bin"]:\n        return []\n' + FAST_BODY
    hidden = refused(string, "plain-characters", "U+200B ZERO WIDTH SPACE", "invisible")
    assert hidden.line == 2


@pytest.mark.parametrize(
    ("character", "shown"),
    [
        ("\u2067", "U+2067 RIGHT-TO-LEFT ISOLATE"),
        ("\u200f", "U+200F RIGHT-TO-LEFT MARK"),
        ("\u061c", "U+061C ARABIC LETTER MARK"),
        ("\u2060", "U+2060 WORD JOINER"),
        ("\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("\u3164", "U+3164 HANGUL FILLER"),
        ("\x1b", "U+001B <control>"),
        ("\x0b", "U+000B <control>"),
        ("\u2028", "U+2028 LINE SEPARATOR"),
    ],
)
def test_invisible_and_control_characters_are_refused(character: str, shown: str) -> None:
    refused(HEADER + f"    label = 'x{character}'\n" + FAST_BODY, "plain-characters", shown)


def test_a_name_spelled_with_a_lookalike_or_a_compatibility_letter_is_refused() -> None:
    # A Cyrillic a: the local reads as the module's _cache, which it is not.
    lookalike = HEADER + "    _c\u0430che = dict.fromkeys(items)\n    return list(_c\u0430che)\n"
    cyrillic = refused(lookalike, "plain-characters", "U+0430 CYRILLIC SMALL LETTER A", "looks like _cache")
    assert cyrillic.line == 2
    # The ligature fi: Python folds the name to filter, so the builtin below is dict.fromkeys.
    folded = HEADER + "    \ufb01lter = dict.fromkeys\n    return list(filter(items))\n"
    ligature = refused(folded, "plain-characters", "U+FB01 LATIN SMALL LIGATURE FI", "reads as the name filter")
    assert ligature.line == 2
    in_field = HEADER + '    assert f"{s\u043erted}"\n' + FAST_BODY
    refused(in_field, "plain-characters", "U+043E CYRILLIC SMALL LETTER O", "looks like sorted")
    # Comments and strings are text, not names; nor is an f-string's middle dot, which starts no name.
    allowed(HEADER + "    # caf\u00e9 \u2192 _c\u0430che\n    return list(dict.fromkeys(items, '\u00e9t\u00e9'))\n")
    allowed(HEADER + "    assert f'{len(items)} \u00b7 items'\n" + FAST_BODY)


# An original that spells names and strings in German, one string with a zero-width space.
GERMAN = '''\
def groesse(w\u00f6rter: list[str]) -> int:
    """Die Gr\u00f6\u00dfe."""
    z\u00e4hler = 0
    for wort in w\u00f6rter:
        z\u00e4hler += len(wort) if wort != "stra\u00dfe\u200b" else 0
    return z\u00e4hler
'''


def test_what_the_original_spells_a_draft_may_keep_but_not_add_to() -> None:
    header = 'def groesse(w\u00f6rter: list[str]) -> int:\n    """Die Gr\u00f6\u00dfe."""\n'
    kept = header + '    return sum(len(wort) for wort in w\u00f6rter if wort != "stra\u00dfe\u200b")\n'
    allowed(kept, name="groesse", module=GERMAN)
    # The same word in an f-string, whose text a tokenizer before Python 3.12 cannot tell from its names.
    formatted = header + '    return sum(len(w) for w in w\u00f6rter if w != f"stra\u00dfe\u200b")\n'
    allowed(formatted, name="groesse", module=GERMAN)
    added = header + "    l\u00e4nge = [len(wort) for wort in w\u00f6rter]\n    return sum(l\u00e4nge)\n"
    refused(added, "plain-characters", "the name l\\xe4nge", "U+00E4", name="groesse", module=GERMAN)


def test_a_draft_may_bring_private_helpers_under_the_same_rules() -> None:
    allowed(
        "def _seen_first(items):\n    return list(dict.fromkeys(items))\n\n\n"
        + HEADER
        + "    return _seen_first(items)\n"
    )
    original = "def f(x):\n    return x\n"

    def helper(code: str) -> Refusal | None:
        return check_draft(original, MODULE, f"{code}\n\ndef f(x):\n    return _g(x)\n", function_name="f")

    for code, words in [
        ("def g(x):\n    return x\n", "must be private"),
        ("def __g__(x):\n    return x\n", "must be private"),
        ("def _cache(x):\n    return x\n", "takes a name the module already binds"),
        ("import functools\n@functools.cache\ndef _g(x):\n    return x\n", "must not be decorated"),
        ("async def _g(x):\n    return x\n", "must not be async"),
        ("def _g(x):\n    return x\n\n\ndef _g(x):\n    return x\n", "another helper's"),
        ("def _g(x=dedupe([1])):\n    return x\n", "run when the module is imported"),
        ("def _g(x: dedupe([1])):\n    return x\n", "run when the module is imported"),
    ]:
        refusal = helper(code)
        assert refusal is not None and refusal.rule == "helpers" and words in refusal.detail, (code, refusal)
    # What a function may not do, its helper may not do either.
    kept = helper("def _g(x):\n    _cache[x] = [x]\n    return x\n")
    assert kept is not None and kept.rule == "no-global-state" and "_cache[x]" in kept.detail
    assert helper("import os\ndef _g(x):\n    return os.getpid()\n").rule == "allowed-imports"  # type: ignore[union-attr]
    assert helper("def _g(x):\n    return eval(x)\n").rule == "no-dangerous-calls"  # type: ignore[union-attr]
    example = helper('def _g(x):\n    """>>> _g(1)\n    1\n    """\n    return x\n')
    assert example is not None and example.rule == "keeps-doctests" and "no check runs" in example.detail


# -- the setting ------------------------------------------------------------------------------


def test_guard_allow_imports_from_pyproject_and_environment(isolated: Path) -> None:
    assert resolve(environ={}).guard_allow_imports == ()
    (isolated / "pyproject.toml").write_text('[tool.coderefine]\nguard_allow_imports = ["os.path", "io"]\n')
    assert resolve(environ={}).guard_allow_imports == ()  # what is trusted is the operator's
    trusted = resolve(environ={"CODEREFINE_TRUST_PROJECT_SETTINGS": "1"})
    assert trusted.guard_allow_imports == ("os.path", "io")
    environ = {"CODEREFINE_GUARD_ALLOW_IMPORTS": "os.path, pathlib ,"}
    assert resolve(environ=environ).guard_allow_imports == ("os.path", "pathlib")


@pytest.mark.parametrize("value", ["3", '"os path"', "[1, 2]"])
def test_bad_guard_allow_imports_name_their_source(isolated: Path, value: str) -> None:
    (isolated / "pyproject.toml").write_text(f"[tool.coderefine]\nguard_allow_imports = {value}\n")
    with pytest.raises(UsageError, match=r"guard_allow_imports: expected a list of module names"):
        resolve(environ={})


# -- end to end: the refusal reaches the model, the sandbox never sees the draft -----------------------

SLOW = MODULE.split("\n\n\ndef merge")[0] + "\n"


@pytest.mark.docker
def test_a_hostile_draft_is_refused_and_the_model_told_why(
    scripted: Callable[..., ScriptedLLM], make_project: MakeProject
) -> None:
    # Real Docker sandbox, as in test_optimize.py.
    project = make_project({"slow.py": SLOW})
    fast = fenced(HEADER + FAST_BODY)
    done = "It is as fast as it gets. NOTHING LEFT TO GAIN"
    server = scripted([fenced(PRODUCTION_BOMB), "feedback on the refusal", fast, done])
    report = optimize(
        project / "slow.py",
        "dedupe",
        base_url=server.url,
        model="scripted-model",
        backoff=0.01,
        max_examples=60,
        max_iterations=3,
        plateau_patience=10,
        rewrite_rules=(),  # the scripted drafts are the ones this test follows
    )
    result = report.results[0]
    assert result.refine is not None
    hostile, winner = result.refine.iterations
    assert not hostile.accepted
    assert hostile.facts.metrics["correct"] is False
    assert hostile.facts.metrics["checked_inputs"] == 0  # refused before any input ran
    assert hostile.facts.metrics["mismatch"].startswith("refused before it ran: [allowed-imports] line 1:")
    feedback_prompt = prompt_text(server.requests[1])
    assert "[allowed-imports]" in feedback_prompt and "it imports os" in feedback_prompt
    assert winner.accepted and winner.facts.metrics["correct"] is True
    assert result.improved and result.final.strip().endswith("return list(dict.fromkeys(items))")


# -- doctests -------------------------------------------------------------------------------------

DOCUMENTED = '''def clamp(value: int, low: int, high: int) -> int:
    """Value limited to [low, high].

    >>> clamp(5, 0, 3)
    3
    >>> clamp(-1, 0, 3)
    0
    """
    if value < low:
        return low
    if value > high:
        return high
    return value
'''
FASTER = "    return max(low, min(value, high))\n"


def documented(docstring: str) -> str:
    return f"def clamp(value: int, low: int, high: int) -> int:\n    {docstring}\n{FASTER}"


def test_a_draft_keeps_the_docstrings_doctests_as_they_are() -> None:
    start = DOCUMENTED.index('"""')
    kept = DOCUMENTED[start : DOCUMENTED.index('"""', start + 3) + 3]
    allowed(documented(kept.replace("Value limited", "The value, limited")), name="clamp", module=DOCUMENTED)
    refused(
        documented('"""Value limited to [low, high]."""'),
        "keeps-doctests",
        "drops",
        ">>> clamp(5, 0, 3)",
        "the original has 2, the draft 0",
        name="clamp",
        module=DOCUMENTED,
    )
    refused(
        documented(kept.replace("    3\n", "    4\n")),
        "keeps-doctests",
        "changes",
        ">>> clamp(5, 0, 3)",
        name="clamp",
        module=DOCUMENTED,
    )
    refused(
        documented(kept.replace('    0\n    """', '    0\n    >>> clamp(9, 0, 3)\n    3\n    """')),
        "keeps-doctests",
        "adds",
        ">>> clamp(9, 0, 3)",
        name="clamp",
        module=DOCUMENTED,
    )
