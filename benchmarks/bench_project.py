"""A throwaway copy of a benchmark's functions and tests, as a project the sandbox can read."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.scripted_llm import Reply


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


def known_good(code: str, stop: str, latency: float = 0.0) -> Callable[[dict[str, Any]], Reply]:
    """A scripted model by the prompt's role: every draft it writes is `code`; its feedback asks
    for another until it has written it, then says `stop`. The analyzer's and the rewrite rules'
    drafts stand beside its first one. Each answer takes `latency` seconds, as a remote model's
    would (0: at once)."""
    written = [False]

    def reply(request: dict[str, Any]) -> Reply:
        messages = request.get("messages", [])
        if messages and str(messages[0].get("content", "")).startswith("You review"):
            return Reply(stop if written[0] else "Not there yet: rewrite it as the task asks.", delay=latency)
        written[0] = True
        return Reply(f"```python\n{code.strip()}\n```", delay=latency)

    return reply
