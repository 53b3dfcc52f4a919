"""A throwaway copy of a benchmark's functions and tests, as a project the sandbox can read."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any


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


def known_good(code: str, stop: str) -> Callable[[dict[str, Any]], str]:
    """A scripted model by the prompt's role: every draft it writes is `code`; its feedback asks
    for another until it has written it, then says `stop`. A draft of the analyzer's (ruff's
    fixes) comes first and is critiqued like any other."""
    written = [False]

    def reply(request: dict[str, Any]) -> str:
        messages = request.get("messages", [])
        if messages and str(messages[0].get("content", "")).startswith("You review"):
            return stop if written[0] else "Not there yet: rewrite it as the task asks."
        written[0] = True
        return f"```python\n{code.strip()}\n```"

    return reply
