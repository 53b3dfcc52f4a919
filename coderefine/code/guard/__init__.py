"""The static guard: drafts that change the signature or reach for the system are refused on the host.

A draft is untrusted text. Before it runs anywhere, its syntax tree is read
and compared with the original's; every rule is relative to the original:
what the original already does (or the original's module already imports)
a draft may do too. The rules, each with the id a refusal names:

- `same-signature`: parameter names, kinds, order and default values (as
  syntax trees), decorators, async-ness, generator-ness (a `yield` appears or
  disappears) and whether there is a return annotation stay the original's.
- `allowed-imports`: every module a draft imports (at the top or in the body) or
  reads by a name its module binds is on the allow-list of pure standard-library
  modules (`allowlist.PURE_MODULES`), or is used by the original function itself,
  or is imported by the original's module and is not the system, the clock or
  randomness, or is listed by the setting `guard_allow_imports` (`import os.path`
  binds `os` itself, so it counts as importing `os`). A module reached as another's
  attribute (`statistics.random`, `typing.sys`, `random._os`) is held to the same
  list. Relative imports (project modules) count like any other.
- `keeps-module-names`: no top-level import of the draft (nor helper) binds a name
  that the module binds otherwise, a builtin's name, or a name other code of the
  module reads without binding: spliced in, it would change them.
- `no-caches`: no functools cache (`lru_cache`, `cache`, `cached_property`) unless
  the original has one: timing repeats arguments, so a cache fakes speed.
- `no-dangerous-calls`: no use of `DANGEROUS_BUILTINS` (eval, exec, open, id,
  dir...), called or passed on; no `x.open(...)`; nothing that resolves names or
  runs code from strings (`STRING_RESOLVERS`: locate, import_module,
  get_type_hints...), from any module; getattr, setattr, delattr and hasattr
  (and operator.attrgetter, methodcaller) only with string-literal names.
- `no-dunder-access`: no dunder attribute (`x.__class__`), name
  (`__builtins__`) or string (`getattr(f, "__globals__")`,
  `"{0.__globals__}".format(f)`) unless the original uses that same dunder,
  or it is the special method's own name (`super().__init__()` in `__init__`).
  A private name (`self.__items`) is no dunder: it mangles in the class as
  the original's does.
- `no-introspection`: no frame or code objects: `sys._getframe`, `f_back`,
  `f_globals`, `gi_frame`, `tb_frame`... (`INTROSPECTION_ATTRIBUTES`), as
  attributes or named in strings.
- `no-global-state`: no `global` or `nonlocal`; no attributes set on the
  function itself (`f.calls = 0`); no assignment, augmented assignment, `del`
  or mutating method or function call (`append`, `update`, `operator.setitem`,
  `dict.update(d, ...)`...) on an attribute or item of a name that is not local
  to the call (`math.pi = 3`, `_cache[key] = value`, `_seen.add(x)`), directly
  or through a local alias of it (`cache = _cache`, `getattr(math, "tau")`); a
  module imported inside the function is not local to it.
- `no-mutable-defaults`: no default value that is a list, dict or set
  display, a comprehension, or a call other than of an immutable type
  (`list()`, `collections.deque()`, `itertools.count()`), in nested functions
  and lambdas too.
- `keeps-doctests`: the docstring's doctest examples (`>>>` lines and what
  they show) stay the original's, none dropped, changed or added: they are part
  of the function's contract, and the check compares the draft with the
  original on their calls, so an example kept is an example that still holds.
- `helpers`: besides the function, a draft may define helper functions at
  the top: each private (`_like_this`), a name the original's module does not
  bind, not async, not decorated, and calling nothing in its defaults or
  annotations (they run at import). Every rule above holds in their bodies
  too (no-global-state, keeps-doctests: a helper's docstring holds no `>>>`
  example, which no check would run).
- `plain-characters`: no character that changes how the code reads, anywhere
  in the text (comments and strings too), unless the original's text has it:
  bidirectional controls (Trojan Source), invisible format characters
  (category Cf: zero-width spaces, joiners, the byte-order mark...), Hangul
  fillers, variation selectors, control characters but tab, newline, carriage
  return and form feed, line and paragraph separators (`characters.py`). No
  name that is not ASCII unless the original or its module spells that very
  name: a lookalike letter (a Cyrillic `a`, U+0430) passes for another name,
  and Python folds names with NFKC, so a compatibility form (`file` spelled
  with the ligature U+FB01) is that other name.
- `no-future-imports`: no `from __future__ import`, at the top or anywhere: one
  must open its file, so spliced in below the file's imports it stops the file
  from compiling, and the file's own `__future__` imports already apply.
- `one-function` and `parses`: the draft is import lines, helpers and the
  function, and it parses.
"""

from coderefine.code.guard.draft import Guard, Refusal, check_draft

__all__ = ["Guard", "Refusal", "check_draft"]
