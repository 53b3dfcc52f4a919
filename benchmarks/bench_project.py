"""A throwaway copy of a benchmark's functions and tests, as a project the sandbox can read."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def project_copy(source: Path, names: Sequence[str]) -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="coderefine-bench-"))
    try:
        folder.chmod(0o755)
        for name in names:
            shutil.copy(source / name, folder / name)
            (folder / name).chmod(0o644)
        (folder / "pyproject.toml").write_text("[project]\nname = 'bench'\n")
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
