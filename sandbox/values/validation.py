"""`validate`: whether JSON data is a well-formed encoding (see nodes.py). It runs in the judge, on
the data alone: hostile data is refused, never run."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .nodes import NESTING_LIMIT, NODE_LIMIT, SAFE_INT, Json, MalformedEncoding

_FLOAT_TEXT = re.compile(r"-?(?:inf|nan|[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?)")
_HASH = re.compile(r"[0-9a-f]{64}")
_DIGITS, _HEX_DIGITS = b"0123456789", b"0123456789abcdef"
# A field's check: (its value, the node's depth) -> the nodes it holds, or None when it is malformed.
_Check = Callable[[Any, int], "list[Json] | None"]
_LEAF: list[Json] = []  # no nodes: shared, never changed


def _only(text: str, allowed: bytes) -> bool:
    """Whether every character of `text` is one of `allowed`, at C speed: a regex takes seconds on 100 MB."""
    return text.isascii() and not text.encode("ascii").translate(None, allowed)


def _is_int_text(text: object) -> bool:
    """Decimal or, for huge ints, hex ("-0x1f"), with no leading zeros: one text for one value."""
    if type(text) is not str:
        return False
    body = text[1:] if text.startswith("-") else text
    if body.startswith("0x"):
        return body[2:3] not in ("", "0") and _only(body[2:], _HEX_DIGITS)
    return body == "0" or (body[:1] not in ("", "0") and _only(body, _DIGITS))


def _is_raised(value: object) -> bool:
    return (
        type(value) is dict
        and value.keys() == {"type", "message"}
        and type(value["type"]) is str
        and type(value["message"]) is str
    )


def _pairs(value: object, str_keys: bool) -> list[Json] | None:
    """The nodes of [[key, value], ...]; None when it is not such a list."""
    if type(value) is not list:
        return None
    children: list[Json] = []
    for pair in value:
        if type(pair) is not list or len(pair) != 2 or (str_keys and type(pair[0]) is not str):
            return None
        children.extend(pair[1:] if str_keys else pair)
    return children


def _leaf(test: Callable[[Any], bool]) -> _Check:
    return lambda value, depth: _LEAF if test(value) else None


_CHECKS: dict[str, _Check] = {
    "str": _leaf(lambda value: type(value) is str),
    "str_or_null": _leaf(lambda value: value is None or type(value) is str),
    "bool": _leaf(lambda value: type(value) is bool),
    "int_text": _leaf(_is_int_text),
    "float_text": _leaf(lambda value: type(value) is str and len(value) <= 64 and bool(_FLOAT_TEXT.fullmatch(value))),
    "hash": _leaf(lambda value: type(value) is str and bool(_HASH.fullmatch(value))),
    "hex": _leaf(lambda value: type(value) is str and len(value) % 2 == 0 and _only(value, _HEX_DIGITS)),
    "view_kind": _leaf(lambda value: type(value) is str and value in ("keys", "values", "items")),
    "name_kind": _leaf(lambda value: type(value) is str and value in ("type", "function", "module")),
    "raised": _leaf(lambda value: value is None or _is_raised(value)),
    "up": lambda value, depth: _LEAF if type(value) is int and 1 <= value <= depth else None,
    "node": lambda value, depth: [value],
    "nodes": lambda value, depth: value if type(value) is list else None,
    "pairs": lambda value, depth: _pairs(value, False),
    "state": lambda value, depth: _LEAF if value is None else _pairs(value, True),
    "int": lambda value, depth: (
        [value] if type(value) is int or (type(value) is dict and value.get("t") == "int") else None
    ),
}


def _schema(required: dict[str, str], optional: dict[str, str] | None = None) -> tuple[Any, ...]:
    """(required fields, optional fields, every key allowed), each field with its check."""
    optional = {"type": "str"} if optional is None else optional
    return (
        tuple((key, _CHECKS[kind]) for key, kind in required.items()),
        tuple((key, _CHECKS[kind]) for key, kind in optional.items()),
        frozenset(["t", *required, *optional]),
    )


_SCHEMA: dict[str, tuple[Any, ...]] = {  # "type" is optional where nothing else is said
    "int": _schema({"v": "int_text"}),
    "float": _schema({"v": "float_text"}),
    "complex": _schema({"re": "float_text", "im": "float_text"}),
    "str": _schema({"v": "str", "type": "str"}, {}),
    **{tag: _schema({"v": "hex"}) for tag in ("bytes", "bytearray")},
    **{tag: _schema({"items": "nodes"}) for tag in ("list", "tuple", "set", "frozenset")},
    "dict": _schema({"items": "pairs"}),
    "view": _schema({"kind": "view_kind", "type": "str", "items": "nodes"}, {}),
    "range": _schema({"start": "int", "stop": "int", "step": "int"}, {}),
    "slice": _schema({"start": "node", "stop": "node", "step": "node"}, {}),
    "lazy": _schema({"type": "str", "items": "nodes", "more": "bool", "raised": "raised"}, {}),
    "name": _schema({"kind": "name_kind", "name": "str"}, {"self": "node"}),
    "enum": _schema({"type": "str", "name": "str"}, {}),
    "repr": _schema({"type": "str", "repr": "str"}, {}),
    "object": _schema({"type": "str", "state": "state", "repr": "str_or_null"}, {}),
    "exception": _schema({"type": "str", "args": "node"}, {}),
    "ref": _schema({"name": "str"}, {}),
    "cycle": _schema({"up": "up"}, {}),
    "cut": _schema({"repr": "str", "hash": "hash"}, {}),
    "unreadable": _schema({"type": "str", "error": "str", "message": "str"}, {}),
}


def validate(encoded: Json) -> None:
    """Raise MalformedEncoding unless `encoded` is a well-formed encoding.

    It walks the data without recursion and looks only at exact JSON types, so hostile data (other
    types, subclasses, 10,000-deep nesting, unknown tags or fields, too many nodes) is refused, never run.
    """
    _check_plain(encoded)
    pending: list[tuple[Json, int]] = [(encoded, 0)] if type(encoded) is dict else []
    count = 1
    while pending:
        node, depth = pending.pop()
        if depth > NESTING_LIMIT:
            raise MalformedEncoding(f"nested deeper than {NESTING_LIMIT} levels")
        children = _node_children(node, depth)
        count += len(children)
        if count > NODE_LIMIT:
            raise MalformedEncoding(f"more than {NODE_LIMIT} nodes")
        for child in children:
            if type(child) is dict:
                pending.append((child, depth + 1))
            else:
                _check_plain(child)


def _check_plain(node: Json) -> None:
    """A node that is not an object must be null, a boolean, a string or a JSON-safe integer."""
    kind = type(node)
    if kind is int and not -SAFE_INT < node < SAFE_INT:
        raise MalformedEncoding("a plain integer out of the safe range")
    if not (node is None or kind is bool or kind is str or kind is int or kind is dict):
        raise MalformedEncoding(f"a {kind.__name__} where a node belongs")


def _node_children(node: dict[Any, Any], depth: int) -> list[Json]:
    tag = node.get("t")
    schema = _SCHEMA.get(tag) if type(tag) is str else None
    if schema is None:
        raise MalformedEncoding(f"an unknown tag {short_text(tag)}")
    required, optional, allowed = schema
    if not node.keys() <= allowed:
        raise MalformedEncoding(f"a {tag!r} node with unknown fields")
    children: list[Json] = []
    for key, check in required:
        if key not in node:
            raise MalformedEncoding(f"a {tag!r} node without {key!r}")
        found = check(node[key], depth)
        if found is None:
            raise MalformedEncoding(f"a {tag!r} node with a malformed {key!r}")
        children.extend(found)
    for key, check in optional:
        found = check(node[key], depth) if key in node else _LEAF
        if found is None:
            raise MalformedEncoding(f"a {tag!r} node with a malformed {key!r}")
        children.extend(found)
    return children


def short_text(value: object) -> str:
    """A description of a piece of hostile data that calls nothing of it."""
    if type(value) is str:
        return repr(value[:40])
    return repr(value) if type(value) in (int, bool, type(None)) else f"of type {type(value).__name__}"
