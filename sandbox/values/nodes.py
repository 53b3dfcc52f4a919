"""The encoding of what a call produced as plain JSON data: its node format, its limits, and what
both of its sides share.

The original and the draft each run in a process of their own. That process calls `encode` on what a
call produced (the value returned, the arguments afterwards); the judge, which never runs draft code,
calls `validate`, `compare` and `render` on the JSON data alone. `encode` makes whatever cannot be
read (a repr, an iteration, an attribute that raises) into data. The judge's functions raise
`MalformedEncoding` (a ValueError) on anything that is not a well-formed encoding, whatever its types,
size or nesting.

`encode` is encoding.py's, `validate` validation.py's, `compare` comparison.py's (which also says
what counts as the same) and `render` rendering.py's.

Node format. A value encodes to one node:

- JSON null, true, false: None, True, False;
- a JSON integer: an int with abs(i) < 2**53;
- a JSON string: a str (exactly str; a str subclass is a "str" node);
- anything else: an object whose tag "t" says its kind.

Builtin kinds: their optional "type" names a subclass ("module.qualname"), absent for the builtin itself.
    {"t": "int", "v": text}                   other ints: decimal text, or hex ("0x..") past 2000 bits
    {"t": "float", "v": repr}                 repr keeps nan, inf, -inf, -0.0 through JSON
    {"t": "complex", "re": repr, "im": repr}
    {"t": "str", "v": text}                   only for subclasses, which always carry "type"
    {"t": "bytes" | "bytearray", "v": hex}
    {"t": "list" | "tuple", "items": [node, ...]}   other sequences (deque, array) are lists with a type
    {"t": "dict", "items": [[key, value], ...]}     in order: key order is observable
    {"t": "set" | "frozenset", "items": [...]}      sorted by exact text: order is not observable
    {"t": "view", "kind": "keys" | "values" | "items", "type": name, "items": [...]}   dict views
    {"t": "range", "start": i, "stop": i, "step": i}                 ints as above
    {"t": "slice", "start": node, "stop": node, "step": node}
Other kinds ("type" always present where listed):
    {"t": "lazy", "type": name, "items": [...], "more": bool, "raised": null | {"type", "message"}}
    {"t": "name", "kind": "type" | "function" | "module", "name": qualified name [, "self": node]}
    {"t": "enum", "type": name, "name": member name}
    {"t": "repr", "type": name, "repr": text}    Decimal, Fraction, datetime kinds, UUID, paths, partial
    {"t": "object", "type": name, "state": null | [[attribute, node], ...], "repr": null | text}
    {"t": "exception", "type": name, "args": node}
    {"t": "ref", "name": name}                   an object whose identity matters (see `encode`)
    {"t": "cycle", "up": k}                      the object k levels up the current path
    {"t": "cut", "repr": text, "hash": sha256}   beyond max_depth or max_nodes
    {"t": "unreadable", "type": name, "error": exception type, "message": text}
"""

from __future__ import annotations

from typing import Any

NESTING_LIMIT = 100  # node depth `validate` accepts; `encode` keeps its max_depth below it
NODE_LIMIT = 1_000_000  # nodes `validate` accepts; `encode` keeps its limits such that it stays below
SAFE_INT = 2**53  # ints below this stay JSON numbers: every JSON reader keeps them exact

Json = Any  # None, bool, int, str, list and dict, nested


class MalformedEncoding(ValueError):
    """Data that is not an encoding made by `encode`."""


class Full(Exception):
    """A bounded text has reached its limit."""


def canonical(node: Json) -> str:
    """An exact text of JSON data, computed in C: repr of dicts, lists, strs, ints, bools and None
    tells True from 1, unlike ==. It orders set items and tells exactly equal data apart."""
    return repr(node)
