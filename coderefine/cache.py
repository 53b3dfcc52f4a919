"""A small on-disk key/value store of JSON documents.

Used for LLM responses (a deterministic request asked twice costs one call),
verdicts and the project's tests. Each entry is one file named by the SHA-256
of its key, written atomically so that a run killed mid-write never leaves a
torn entry behind, and signed: an HMAC of its key and value with a secret of
the user's (`cache_secret`), kept outside every project. An entry that does not
carry its signature (written by hand, committed to a repository, copied from
another machine or another user) is a miss, so that no file of a repository
can stand in for a verdict.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import secrets
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


SECRET_VARIABLE = "CODEREFINE_CACHE_SECRET"  # the operator's, e.g. a CI secret shared by its jobs


def secret_file() -> Path | None:
    """Where the signing secret is kept: `$XDG_CONFIG_HOME/coderefine/cache-secret`, else
    `~/.config/coderefine/cache-secret`: the user's, never a project's or the cache's own folder;
    None when the environment gives it (`CODEREFINE_CACHE_SECRET`)."""
    if os.environ.get(SECRET_VARIABLE):
        return None
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = Path(xdg) if xdg else Path.home() / ".config"
    return base / "coderefine" / "cache-secret"


def cache_secret() -> bytes:
    """The secret the cache's entries are signed with: `CODEREFINE_CACHE_SECRET`, else the bytes of
    `secret_file()`, made once (random, readable by its owner alone). Where it cannot be made, a
    secret of this process alone: entries are then good for this run only."""
    path = secret_file()
    if path is None:
        return os.environ[SECRET_VARIABLE].encode("utf-8")
    try:
        return _existing_or_new_secret(path)
    except OSError as error:
        _say_once(f"the cache's secret cannot be kept ({path}: {error.strerror or error}): entries last this run only")
        return _process_secret()


def _existing_or_new_secret(path: Path) -> bytes:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret-")  # made 0600
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(secrets.token_bytes(32))
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)  # never over a secret another run made meanwhile
        finally:
            os.unlink(temporary)
    data = path.read_bytes()
    if len(data) < 16:
        raise OSError(f"{path} holds too short a secret")
    return data


@functools.cache
def _process_secret() -> bytes:
    return secrets.token_bytes(32)


def cache_key(document: Any) -> str:
    """A stable hash of any JSON-serialisable document."""
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class JsonCache:
    """Stores JSON objects under `directory/<2 hex>/<64 hex>.json`, each signed with `secret`
    (`cache_secret()` when not given)."""

    def __init__(self, directory: Path, secret: bytes | None = None) -> None:
        self.directory = directory
        self._secret = secret if secret is not None else cache_secret()

    def _signature(self, key: str, document: str) -> str:
        return hmac.new(self._secret, f"{key}\n{document}".encode(), hashlib.sha256).hexdigest()

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            text = self._path(key).read_text(encoding="utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return None
        try:
            entry = json.loads(text)
            signature, document = entry["signature"], entry["document"]
            if not hmac.compare_digest(str(signature), self._signature(key, str(document))):
                return None  # not signed with this user's secret: written by someone else
            value = json.loads(document)
        except (json.JSONDecodeError, RecursionError, TypeError, KeyError):
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
            document = json.dumps(value, ensure_ascii=False)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"signature": self._signature(key, document), "document": document}, handle)
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
