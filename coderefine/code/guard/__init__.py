"""The static guard: drafts that change the signature or reach for the system are refused on the host.

A draft is untrusted text. Before it runs anywhere, its syntax tree is read
and compared with the original's; every rule is relative to the original:
what the original already does (or the original's module already imports)
a draft may do too. The rules, each with the id a refusal names:

- `same-signature`: parameter names, kinds, order and default values (as
  syntax trees), decorators, async-ness, generator-ness (a `yield` appears or
  disappears) and whether there is a return annotation stay the original's.
- `no-system-imports`: no import of a system or introspection module
  (`SYSTEM_MODULES`, with their submodules; `import os.path` binds `os`
  itself, so it counts as importing `os`), at the top or in the body, unless
  the original's module imports it or the setting `guard_allow_imports`
  lists it; no reaching such a module through another one's attribute
  (`random._os`, `typing.sys`, `from random import _os`). Relative imports
  (project modules) count only when they name such a module.
- `no-dangerous-calls`: no use of `DANGEROUS_BUILTINS` (eval, exec, open...),
  called or passed on; no `x.open(...)`; getattr, setattr, delattr and hasattr
  (and operator.attrgetter, methodcaller) only with string-literal names.
- `no-dunder-access`: no dunder attribute (`x.__class__`), name
  (`__builtins__`) or string (`getattr(f, "__globals__")`,
  `"{0.__globals__}".format(f)`) unless the original uses that same dunder.
- `no-introspection`: no frame or code objects: `sys._getframe`, `f_back`,
  `f_globals`, `gi_frame`, `tb_frame`... (`INTROSPECTION_ATTRIBUTES`).
- `no-global-state`: no `global` or `nonlocal`; no attributes set on the
  function itself (`f.calls = 0`); no assignment, augmented assignment, `del`
  or mutating method call (`append`, `update`, `setdefault`...) on an
  attribute or item of a name that is not local to the call (`math.pi = 3`,
  `_cache[key] = value`, `_seen.add(x)`), directly or through a local alias
  of it (`cache = _cache`).
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
- `one-function` and `parses`: the draft is import lines, helpers and the
  function, and it parses.
"""

from coderefine.code.guard.draft import Guard, Refusal, check_draft

__all__ = ["Guard", "Refusal", "check_draft"]
