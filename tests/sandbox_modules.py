"""Import a module of the top-level sandbox/ folder, whose files run inside the sandbox.

The runner loads that folder as the package `_coderefine_sandbox` (so that none
of its modules can shadow one of the project under check); the tests load it
the same way, under the same name.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SANDBOX = Path(__file__).resolve().parent.parent / "sandbox"
PACKAGE = "_coderefine_sandbox"


def load(name: str) -> ModuleType:
    """sandbox/NAME.py (`judge.check` is sandbox/judge/check.py) as the module `_coderefine_sandbox.NAME`,
    loaded once per test session."""
    if PACKAGE not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            PACKAGE, SANDBOX / "__init__.py", submodule_search_locations=[str(SANDBOX)]
        )
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {SANDBOX} as a package")
        package = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{PACKAGE}.{name}")
