"""The host/sandbox contract: `sandbox/contract.py`, the one file both sides read.

The sandbox ships the file into the box; the host loads the very same file
from the sandbox folder (package data when installed), so a job or a verdict
is never described twice.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import TYPE_CHECKING

from coderefine.sandbox.image import sandbox_dir

_NAME = "_coderefine_sandbox_contract"


def _load() -> ModuleType:
    if _NAME not in sys.modules:
        spec = importlib.util.spec_from_file_location(_NAME, sandbox_dir() / "contract.py")
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {sandbox_dir() / 'contract.py'}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[_NAME] = module  # dataclasses look their module up while they are made
        spec.loader.exec_module(module)
    return sys.modules[_NAME]


# The box's file names what it gives (its __all__): the type checker reads the same list.
if TYPE_CHECKING:
    from sandbox.contract import *  # noqa: F403
else:
    __all__ = list(_load().__all__)
    globals().update({name: getattr(_load(), name) for name in __all__})
