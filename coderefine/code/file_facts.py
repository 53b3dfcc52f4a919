"""What a file's functions are, remembered by the file's bytes so that an unchanged file is not parsed again.

Parsing with libcst takes tens of milliseconds per file; a re-run over an
unchanged repository reads these facts instead: the file's targets (with
their lines and source), each eligible target's context, and its imports.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.cache import JsonCache, cache_key
from coderefine.code.source import SourceFile, read_python
from coderefine.code.target import Target
from coderefine.version import package_version

Import = tuple[int, str, tuple[str, ...]]  # (leading dots, module, names imported from it)
FORMAT = 2  # of the stored facts (2: each target holds the names its module binds)


@dataclass(frozen=True)
class FileFacts:
    path: Path
    data: bytes
    targets: tuple[Target, ...]
    contexts: Mapping[str, str]  # of the eligible targets
    imports: tuple[Import, ...]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()


def facts_of(source: SourceFile, path: Path) -> FileFacts:
    targets = tuple(source.targets())
    contexts = {t.name: source.context(t) for t in targets if t.eligible}
    return FileFacts(path, source.data, targets, contexts, tuple(source.imports()))


def read_facts(path: Path, store: JsonCache | None) -> FileFacts:
    """The facts of the file at `path`: from `store` when its bytes were seen before, else parsed."""
    data = read_python(path)
    key = cache_key({"facts": hashlib.sha256(data).hexdigest(), "version": package_version(), "format": FORMAT})
    stored = store.get(key) if store is not None else None
    if stored is not None:
        return _decode(path, data, stored)
    facts = facts_of(SourceFile(data, str(path)), path)
    if store is not None:
        store.put(key, _encode(facts))
    return facts


def _encode(facts: FileFacts) -> dict[str, Any]:
    return {
        "targets": [{**dataclasses.asdict(t), "module_names": sorted(t.module_names)} for t in facts.targets],
        "contexts": dict(facts.contexts),
        "imports": [list(i) for i in facts.imports],
    }


def _decode(path: Path, data: bytes, stored: Mapping[str, Any]) -> FileFacts:
    targets = tuple(Target(**{**t, "module_names": frozenset(t["module_names"])}) for t in stored["targets"])
    imports = tuple((dots, module, tuple(names)) for dots, module, names in stored["imports"])
    return FileFacts(path, data, targets, stored["contexts"], imports)
