"""The box's modules the host reads too (the contract, the example parser), loaded from the very
files the image ships (package data when installed), so that each is written once and the host
refuses exactly what the box would. Only modules of the standard library alone are loaded so."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from coderefine.sandbox.image import sandbox_dir


def load(relative: str) -> ModuleType:
    """The box's module at `relative` (`"contract.py"`, `"inputs/examples.py"`), loaded once."""
    name = "_coderefine_box_" + relative.removesuffix(".py").replace("/", "_")
    if name not in sys.modules:
        path = sandbox_dir() / relative
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while they are made
        spec.loader.exec_module(module)
    return sys.modules[name]
