"""The host/sandbox contract: `sandbox/contract.py`, the one file both sides read.

The sandbox ships the file into the box; the host loads the very same file
from the sandbox folder (package data when installed), so a job or a verdict
is never described twice.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING

from coderefine.sandbox import shipped

# The box's file names what it gives (its __all__): the type checker reads the same list.
if TYPE_CHECKING:
    from sandbox.contract import *  # noqa: F403
else:
    _box: ModuleType = shipped.load("contract.py")
    __all__ = list(_box.__all__)
    globals().update({name: getattr(_box, name) for name in __all__})
