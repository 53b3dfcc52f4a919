"""The `--example` parser: the box's own (`sandbox/inputs/examples.py`), loaded from the file the
image ships, so that the host refuses a text exactly when the box could not read it."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from coderefine.sandbox import shipped

if TYPE_CHECKING:
    from sandbox.inputs.examples import Call, parse_example
else:
    _box: ModuleType = shipped.load("inputs/examples.py")
    Call, parse_example = _box.Call, _box.parse_example

__all__ = ["Call", "parse_example"]
