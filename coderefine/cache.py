"""A small on-disk key/value store of JSON documents.

Used for LLM responses (a deterministic request asked twice costs one call).
Each entry is one file named by the SHA-256 of its key, written atomically so
that a run killed mid-write never leaves a torn entry behind.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any


def default_cache_root() -> Path:
    """`$CODEREFINE_CACHE_DIR`, else `$XDG_CACHE_HOME/coderefine`, else `~/.cache/coderefine`."""
    explicit = os.environ.get("CODEREFINE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "coderefine"


def cache_key(document: Any) -> str:
    """A stable hash of any JSON-serialisable document."""
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class JsonCache:
    """Stores JSON objects under `directory/<2 hex>/<64 hex>.json`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            text = self._path(key).read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            return None  # a foreign or damaged file is a miss, never a crash
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Keep `value`; a cache that cannot be written (a full disk) is said once and passed over,
        so that the run, and what it verified, goes on."""
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        except OSError as error:
            _say_once(f"the cache cannot be written ({self.directory}: {error.strerror or error}): nothing is kept")
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(value, handle, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError as error:
            Path(tmp).unlink(missing_ok=True)
            _say_once(f"the cache cannot be written ({self.directory}: {error.strerror or error}): nothing is kept")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


@functools.cache
def _say_once(note: str) -> None:
    print(f"coderefine: {note}", file=sys.stderr)  # once a run: every later write would say the same
