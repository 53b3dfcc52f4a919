"""Mappings whose keys are paths ("a.b", "a[b]", "a/b"): a key's parent path, and the mapping with
each parent put before its child. A draft that takes a falsy parent for a missing one parts from the
original only where a parent and its child are keys of one mapping, which drawn keys rarely make."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

# A key that joins a path's parts ("a.b", "a[b]", "a/b"): its parent path is the part before.
_PATH = re.compile(r"[.\[/:]")


def path_parent(key: Any) -> str | None:
    found = _PATH.search(key) if isinstance(key, str) else None
    return key[: found.start()] if found is not None and found.start() > 0 else None


def with_parents(
    mapping: Mapping[Any, Any], parent: Callable[[], Any], keep: Callable[[], bool] = lambda: True
) -> dict[Any, Any]:
    """`mapping` with each path key's parent put before it (where `keep()` says), holding what
    `parent()` makes: `{"a": 0, "a[b]": 1}`, where a draft that takes a falsy parent for a missing
    one parts from the original (which fails on it, or fills the caller's own `{}`)."""
    made: dict[Any, Any] = {}
    for key, value in mapping.items():
        above = path_parent(key)
        if above is not None and keep():
            made.setdefault(above, parent())
        made[key] = value
    return made
