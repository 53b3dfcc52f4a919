"""Results of finished functions, kept so that an unchanged function costs nothing next time.

A result is keyed by everything that could change it: the function's source,
the sources it depends on (its context in the file: imports, constants, the
helpers it calls, its class; and the project modules the file imports), the
task and its prompts, the model, the settings and the checks' options. A
result cut short (by the time budget, by an endpoint failure) is not kept.
"""

from __future__ import annotations

import ast
import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from coderefine.cache import JsonCache, cache_key, default_cache_root, secret_file
from coderefine.code import analyzer, catalogue, scores
from coderefine.code.check import VerifyOptions
from coderefine.code.file_facts import Import
from coderefine.code.files import PROJECT_MARKERS, read_regular
from coderefine.code.target import Target
from coderefine.engine import Facts, Iteration, Prompt, RefineResult, Usage
from coderefine.errors import UsageError
from coderefine.llm.chat import Message
from coderefine.settings import Settings
from coderefine.syntax_trees import syntax_tree
from coderefine.version import package_version

RESULTS_FORMAT = 1
# Settings that change how a result is reached, not what it is.
_NOT_IN_KEY = {"api_key", "cache", "cache_dir", "timeout", "retries", "backoff", "time_budget", "jobs"}


def result_store(settings: Settings) -> JsonCache | None:
    return _store(settings, "results")


def facts_store(settings: Settings) -> JsonCache | None:
    """Where `file_facts` remembers parsed files."""
    return _store(settings, "facts")


def baseline_store(settings: Settings) -> JsonCache | None:
    """Where `baseline_cache` keeps what the project's tests showed."""
    return _store(settings, "baselines")


def refuse_inside(settings: Settings, project: Path) -> None:
    """A UsageError when the cache folder or its secret is inside `project`: a repository's files
    (a fork's, say) would then be entries, or the key that signs them."""
    if not settings.cache or not any((project / marker).exists() for marker in PROJECT_MARKERS):
        return  # a loose file's folder is no repository
    root = project.resolve()
    for what, path in (("folder", settings.cache_dir or default_cache_root()), ("secret", secret_file())):
        if path is not None and path.resolve().is_relative_to(root):
            raise UsageError(
                f"the cache {what} {path} is inside the project {project}: a repository's files must not be "
                "its entries (give a folder outside it: --cache-dir or CODEREFINE_CACHE_DIR)"
            )


def _store(settings: Settings, folder: str) -> JsonCache | None:
    return JsonCache((settings.cache_dir or default_cache_root()) / folder) if settings.cache else None


def key_base(
    *,
    job: str,
    spec: object,
    settings: Settings,
    verify_options: VerifyOptions,
    checker: str,
    imported: Mapping[str, str],
) -> dict[str, Any]:
    """What the keys of one file's functions share."""
    chosen = {k: v for k, v in dataclasses.asdict(settings).items() if k not in _NOT_IN_KEY}
    return {
        "format": RESULTS_FORMAT,
        "version": package_version(),
        "checker": checker,  # the sandbox image: its harness decides what "verified" means
        "analyzer": analyzer.version() if settings.analyzer_rules else None,  # its fixes are drafts
        "catalogue": catalogue.digest(),  # so are its rewrites
        "scores": scores.VERSION,  # what "more readable" means
        "job": job,
        "spec": repr(spec),
        "settings": {k: str(v) if isinstance(v, Path) else v for k, v in chosen.items()},
        "checks": dataclasses.asdict(verify_options),
        "imported": dict(sorted(imported.items())),
    }


def result_key(base: Mapping[str, Any], target: Target, context: str) -> str:
    return cache_key({**base, "target": target.name, "source": target.source, "context": context})


# -- the project modules a file imports ----------------------------------------------------------


def imported_sources(imports: Sequence[Import], path: Path, project: Path) -> dict[str, str]:
    """{module: sha256 of its file} for each module of `project` that the file imports, and each that
    those import in turn (a verdict depends on all of them), packages' `__init__` included."""
    return {
        name: hashlib.sha256(data).hexdigest() for name, (_, data) in _imported_closure(imports, path, project).items()
    }


def module_files(imports: Sequence[Import], path: Path, project: Path) -> set[Path]:
    """The files of `project` that the file at `path` imports."""
    names = _imported_names(imports, _package_of(path, project))
    return {file for file in (_module_file(name, project) for name in names) if file is not None}


def _imported_closure(imports: Sequence[Import], path: Path, project: Path) -> dict[str, tuple[Path, bytes]]:
    found: dict[str, tuple[Path, bytes]] = {}
    # Importing the file's own module runs its packages' `__init__` first: they count as imported.
    package = _package_of(path, project)
    own: list[Import] = [(0, ".".join(package), ())] if package else []
    pending = [([*own, *imports], path)]
    while pending:
        imports, at = pending.pop()
        for name in sorted(_imported_names(imports, _package_of(at, project))):
            file = _module_file(name, project)
            if name in found or file is None:
                continue
            try:
                data = read_regular(file)
            except OSError:
                continue
            found[name] = (file, data)
            pending.append((imports_in(data), file))
    return found


def imports_in(data: bytes) -> list[Import]:
    """The import statements of a module's source, anywhere in it; none where it does not parse."""
    try:
        tree = syntax_tree(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(0, alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or "", tuple(alias.name for alias in node.names)))
    return found


def _package_of(path: Path, project: Path) -> list[str]:
    try:
        parts = list(path.resolve().relative_to(project.resolve()).parent.parts)
    except ValueError:
        return []
    return parts[1:] if parts[:1] == ["src"] else parts


def _imported_names(imports: Sequence[Import], package: list[str]) -> set[str]:
    """The modules the imports load: each named one, its members that may be modules, and the
    packages above them (`a.b.c` runs `a/__init__.py` and `a/b/__init__.py` first)."""
    names: set[str] = set()
    for dots, module, members in imports:
        base = module
        if dots:
            anchor = package[: len(package) - (dots - 1)] if dots - 1 <= len(package) else []
            base = ".".join([*anchor, module] if module else anchor)
        if base:
            names.add(base)
        names.update(f"{base}.{member}".lstrip(".") for member in members)
    return {".".join(name.split(".")[:n]) for name in names for n in range(1, name.count(".") + 2)}


def _module_file(name: str, project: Path) -> Path | None:
    parts = [part for part in name.split(".") if part]
    if not parts:
        return None
    for root in (project, project / "src"):
        for candidate in (root.joinpath(*parts).with_suffix(".py"), root.joinpath(*parts, "__init__.py")):
            if candidate.is_file():
                return candidate
    return None


# -- results to JSON and back ----------------------------------------------------------------


def decode_refine(data: Mapping[str, Any]) -> RefineResult:
    return RefineResult(
        task=data["task"],
        input=data["input"],
        status=data["status"],
        stop_reason=data["stop_reason"],
        final=data["final"],
        best_iteration=data["best_iteration"],
        iterations=tuple(_iteration(it) for it in data["iterations"]),
        usage=Usage(**data["usage"]),
        model=data["model"],
        seconds=data["seconds"],
        error=data["error"],
    )


def _iteration(data: Mapping[str, Any]) -> Iteration:
    return Iteration(
        index=data["index"],
        output=data["output"],
        raw_output=data["raw_output"],
        feedback=data["feedback"],
        facts=Facts(**data["facts"]),
        score=data["score"],
        accepted=data["accepted"],
        error=data["error"],
        prompt=_prompt(data["prompt"]),
        feedback_prompt=_prompt(data["feedback_prompt"]) if data["feedback_prompt"] else None,
        usage=Usage(**data["usage"]),
        seconds=data["seconds"],
        origin=data.get("origin", "model"),
        round=data.get("round", 0),
        repeat_of=data.get("repeat_of"),
        stop_signal=data.get("stop_signal", False),
        rules=tuple(data.get("rules", ())),
    )


def _prompt(data: Mapping[str, Any]) -> Prompt:
    messages = tuple(Message(role=m["role"], content=m["content"]) for m in data["messages"])
    return Prompt(messages=messages, max_tokens=data["max_tokens"], stop=tuple(data["stop"]))
