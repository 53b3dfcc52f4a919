"""The project's test modules as pytest imported them, for a pickle that names one.

pytest's default import mode imports a test file of a folder without `__init__.py` by its base name,
its folder put first on the path (`tests/test_parse.py` is module `test_parse`). A call recorded
there carries the tests' own objects by that name: a unittest case's bound method, a helper class,
a function of the test file. A version's process has the project's root on its path, not the
tests' folders, so the name is found here as pytest found it: the shallowest `NAME.py` of the
project, its folder put first on the path, as pytest put it."""

from __future__ import annotations

import importlib
import os
import sys

from .. import project_path

SKIPPED = frozenset({"site-packages", "node_modules", "__pycache__", "venv", "build", "dist"})
FOLDER_LIMIT = 2000  # folders looked through, at most: a pickle's name is not worth a whole disk


def import_by_base_name(name: str) -> bool:
    """Import `name` from the project's file of that base name; False when there is none."""
    if not name.isidentifier() or name in sys.modules:
        return False
    roots = [path for path in os.environ.get(project_path.PROJECT_PATH, "").split(os.pathsep) if path]
    folder = _folder_holding(roots[0], name + ".py") if roots else None
    if folder is None:
        return False
    sys.path.insert(0, folder)
    importlib.import_module(name)
    return True


def _folder_holding(root: str, file_name: str) -> str | None:
    """The shallowest folder under `root` that holds `file_name` (of one depth, the first by name)."""
    level = [root]
    looked = 0
    while level and looked < FOLDER_LIMIT:
        deeper: list[str] = []
        for folder in level:
            looked += 1
            try:
                entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
            except OSError:
                continue
            if any(entry.name == file_name and entry.is_file() for entry in entries):
                return folder
            deeper += [
                entry.path
                for entry in entries
                if entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".") and entry.name not in SKIPPED
            ]
        level = deeper
    return None
