"""`render`: a short Python-like text of an encoding (see nodes.py), for the judge's messages. It
runs in the judge, on the data alone, and reads only as much of the data as it shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .nodes import NESTING_LIMIT, SAFE_INT, Full, Json, MalformedEncoding
from .validation import short_text


def render(encoded: Json, limit: int = 200) -> str:
    """A short Python-like text of an encoding, e.g. "[1, 2, <lazy map: 1, 2, ...>]", at most `limit`
    characters. It reads only as much of the data as it shows, so a huge encoding renders fast."""
    limit = max(4, int(limit))
    writer = _Writer(limit)
    try:
        writer.node(encoded, 0)
    except Full:
        return "".join(writer.parts)[: limit - 3] + "..."
    return "".join(writer.parts)


def short_type(name: object) -> str:
    """ "Point" for "module.Point": reprs show a class by its name alone."""
    return str(name).rsplit(".", 1)[-1]


def _need(node: dict[Any, Any], key: str, kind: type) -> Any:
    value = node.get(key)
    if type(value) is not kind:
        raise MalformedEncoding(f"a {short_text(node.get('t'))} node with a malformed {key!r}")
    return value


def _type_of(node: dict[Any, Any]) -> str:
    return short_type(_need(node, "type", str))


class _Writer:
    """Python-like text into a bounded buffer: Full unwinds the rendering once the limit is passed."""

    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.left = limit

    def put(self, text: str) -> None:
        self.parts.append(text)
        self.left -= len(text)
        if self.left < 0:
            raise Full

    def text(self, value: str) -> None:
        self.put(repr(value[: max(0, self.left) + 1]))

    def clipped(self, value: str) -> None:
        self.put(value[: max(0, self.left) + 1])

    def join(self, items: list[Json], depth: int, opening: str, closing: str, pairs: bool = False) -> None:
        self.put(opening)
        for index, item in enumerate(items):
            if index:
                self.put(", ")
            if not pairs:
                self.node(item, depth + 1)
                continue
            if type(item) is not list or len(item) != 2:
                raise MalformedEncoding("a malformed pair")
            self.node(item[0], depth + 1)
            self.put(": ")
            self.node(item[1], depth + 1)
        self.put(closing)

    def node(self, node: Json, depth: int) -> None:
        if depth > NESTING_LIMIT:
            raise MalformedEncoding(f"nested deeper than {NESTING_LIMIT} levels")
        kind = type(node)
        if kind is int and not -SAFE_INT < node < SAFE_INT:
            raise MalformedEncoding("a plain integer out of the safe range")
        if node is None or kind is bool or kind is int:
            self.put(repr(node))
        elif kind is str:
            self.text(node)
        elif kind is dict and type(node.get("t")) is str and node["t"] in _RENDERERS:
            _RENDERERS[node["t"]](self, node, depth)
        else:
            raise MalformedEncoding(f"not a node: {short_text(node)}")

    def typed(self, node: dict[Any, Any], inner: Callable[[], None]) -> None:
        """A subclass shows as Name(...) around the builtin's text."""
        if "type" not in node:
            inner()
            return
        self.put(_type_of(node) + "(")
        inner()
        self.put(")")


def _render_scalar(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    if tag in ("int", "float"):
        writer.typed(node, lambda: writer.clipped(_need(node, "v", str)))
    elif tag == "complex":
        real, imag = _need(node, "re", str)[:64], _need(node, "im", str)[:64]
        sign = "" if imag.startswith("-") else "+"
        writer.typed(node, lambda: writer.put(f"({real}{sign}{imag}j)"))
    elif tag == "str":
        writer.typed(node, lambda: writer.text(_need(node, "v", str)))
    else:
        digits = _need(node, "v", str)[: 2 * (writer.left + 1)]
        try:
            data = bytes.fromhex(digits)
        except ValueError:
            raise MalformedEncoding("bytes that are not hex") from None
        shown = repr(data) if tag == "bytes" else f"bytearray({data!r})"
        writer.typed(node, lambda: writer.put(shown))


def _render_container(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    items = _need(node, "items", list)
    if tag == "view":
        writer.put(_type_of(node) + "(")
        writer.join(items, depth, "[", "])")
    elif tag == "tuple" and "type" in node:
        writer.join(items, depth, _type_of(node) + "(", ")")  # a namedtuple: Point(1, 2)
    elif tag == "tuple":
        writer.join(items, depth, "(", ",)" if len(items) == 1 else ")")
    elif tag == "list":
        writer.typed(node, lambda: writer.join(items, depth, "[", "]"))
    elif tag == "dict":
        writer.typed(node, lambda: writer.join(items, depth, "{", "}", pairs=True))
    elif not items:
        writer.typed(node, lambda: writer.put(tag + "()"))
    elif tag == "set":
        writer.typed(node, lambda: writer.join(items, depth, "{", "}"))
    else:
        writer.typed(node, lambda: writer.join(items, depth, "frozenset({", "})"))


def _render_lazy(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    items = _need(node, "items", list)
    more = node.get("more") is True
    writer.put(f"<lazy {_type_of(node)}:")
    for index, item in enumerate(items):
        writer.put(", " if index else " ")
        writer.node(item, depth + 1)
    if more:
        writer.put(", ..." if items else " ...")
    raised = node.get("raised")
    if type(raised) is dict:
        writer.put(f" then raised {short_type(raised.get('type'))}")
    elif not items and not more:
        writer.put(" nothing")
    writer.put(">")


def _render_name(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    kind, name = _need(node, "kind", str), _need(node, "name", str)
    name = name[len("builtins.") :] if name.startswith("builtins.") else name
    if kind == "type":
        writer.put(f"<class {name!r}")
    elif kind == "module":
        writer.put(f"<module {name!r}")
    else:
        writer.put(f"<{kind} {name}")
    if "self" in node:
        writer.put(" of ")
        writer.node(node["self"], depth + 1)
    writer.put(">")


def _render_simple(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    if tag == "enum":
        writer.put(f"{_type_of(node)}.{_need(node, 'name', str)}")
    elif tag == "range":
        parts = [node.get("start"), node.get("stop")] + ([node.get("step")] if node.get("step") != 1 else [])
        writer.join(parts, depth, "range(", ")")
    elif tag == "slice":
        writer.join([node.get("start"), node.get("stop"), node.get("step")], depth, "slice(", ")")
    elif tag == "ref":
        writer.put(f"<{_need(node, 'name', str)}>")
    elif tag == "cycle":
        writer.put("<cycle>")
    else:
        writer.put(f"<unreadable {_type_of(node)}: {short_type(_need(node, 'error', str))}>")


def _render_object(writer: _Writer, node: dict[Any, Any], depth: int) -> None:
    tag = node["t"]
    if tag in ("repr", "cut") or (tag == "object" and type(node.get("repr")) is str):
        writer.clipped(_need(node, "repr", str))
    elif tag == "exception":
        args = node.get("args")
        items = args.get("items") if type(args) is dict and args.get("t") == "tuple" else None
        writer.join(items if type(items) is list else [args], depth, _type_of(node) + "(", ")")
    elif type(node.get("state")) is list:
        writer.put(_type_of(node) + "(")
        for index, pair in enumerate(node["state"]):
            if type(pair) is not list or len(pair) != 2 or type(pair[0]) is not str:
                raise MalformedEncoding("a malformed attribute")
            writer.put((", " if index else "") + pair[0][:100] + "=")
            writer.node(pair[1], depth + 1)
        writer.put(")")
    else:
        writer.put(f"<{_type_of(node)} object>")


_RENDERERS: dict[str, Callable[[_Writer, dict[Any, Any], int], None]] = {
    **dict.fromkeys(("int", "float", "complex", "str", "bytes", "bytearray"), _render_scalar),
    **dict.fromkeys(("list", "tuple", "dict", "set", "frozenset", "view"), _render_container),
    "lazy": _render_lazy,
    "name": _render_name,
    **dict.fromkeys(("enum", "range", "slice", "ref", "cycle", "unreadable"), _render_simple),
    **dict.fromkeys(("repr", "cut", "object", "exception"), _render_object),
}
