"""`coderefine mcp`: the Model Context Protocol over stdio, for coding agents.

Three tools, each the library's own run with the same sandbox, guard and limits as the CLI:

- `verify_rewrite(path, function, new_code)`: is the agent's rewrite equivalent, and is it faster?
  Checked and timed as every draft is; nothing else is drafted (no model, no rules).
- `optimize_function(path, function, apply=False)` and `improve_readability(...)`: coderefine's own
  run with the configured model; the best verified draft and its diff. Files are written only with
  `apply`.

The server is confined to its workspace: the folder it was started in, or `--root`. A path is
taken relative to it, resolved (symbolic links and `..` followed), and refused when it lands
outside: a repository's link must not lead a write into another one.

Bad calls (a path outside the workspace, a missing file, an unknown function, code that does not
parse or defines another function) are tool errors of one line; so is an environment problem (no
Docker, no model). The server keeps serving either way. The settings are the CLI's: the
environment and the project's pyproject.toml.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coderefine.code.candidate import parse_candidate
from coderefine.code.kind import CodeKind
from coderefine.code.kinds import by_command
from coderefine.code.report import CodeReport
from coderefine.code.source import SourceFile
from coderefine.code.target import Target
from coderefine.engine.task import MalformedAnswer
from coderefine.errors import CoderefineError, EnvironmentProblem, UsageError
from coderefine.redact import scrub, scrub_all
from coderefine.review.reports import function_summary
from coderefine.syntax_trees import syntax_tree
from coderefine.version import package_version

INSTRUCTIONS = (
    "coderefine checks Python rewrites in a sandbox: the original and the new version run on the same "
    "inputs (captured from the project's tests, generated from hints, every kind of value the original "
    "accepts) and must agree on results, exceptions, argument changes and output; a symbolic search looks "
    "for a difference; the speed is measured with a 95% interval. Ask verify_rewrite before proposing an "
    "optimization; optimize_function and improve_readability write drafts themselves. Paths are relative "
    "to the workspace root (the server's folder); none outside it is reached."
)


class ToolProblem(Exception):
    """A call that cannot be answered, in one line (the MCP tool error's text)."""


@dataclass(frozen=True)
class Workspace:
    """The tools, confined to the folder `root` (resolved): every path they are given must lie in it."""

    root: Path

    @classmethod
    def at(cls, folder: Path) -> Workspace:
        """The workspace rooted at `folder`, which must be one (a usage error otherwise)."""
        root = folder.expanduser().resolve()
        if not root.is_dir():
            raise UsageError(f"the workspace root {folder} is not a folder")
        return cls(root)

    def verify_rewrite(self, path: str, function: str, new_code: str) -> dict[str, Any]:
        """Whether `new_code` (the whole function, with the imports it needs) behaves exactly like
        `function` in the file at `path`, and whether it is faster: checked and timed in the sandbox."""
        file = self._existing(path)
        target = _target(file, function, "optimized")
        try:
            parse_candidate(f"```python\n{new_code}\n```", target)
        except MalformedAnswer as problem:
            raise ToolProblem(f"new_code cannot be checked: {problem}") from None
        # An agent names what it rewrote: a function of another name is its mistake, not one to mend.
        try:
            body = syntax_tree(new_code).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            raise ToolProblem(
                "new_code cannot be checked: it is not Python on its own (give the whole function)"
            ) from None
        defined = [node.name for node in body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
        if target.function_name not in defined:
            names = ", ".join(defined) or "no function"
            raise ToolProblem(f"new_code cannot be checked: it defines {names}, not {target.function_name}")
        only = {"no_model": True, "rewrite_rules": (), "analyzer_rules": ()}  # the given draft alone
        report = _run(by_command("optimize"), file, function, drafts=(new_code,), **only)
        result = report.results[0]
        if result.refine is None:
            raise ToolProblem(f"{function} cannot be checked: {result.skipped}")
        given = next(it for it in result.refine.iterations if it.origin == "given")
        if given.error:
            raise ToolProblem(f"new_code cannot be checked: {given.error}")
        metrics = given.facts.metrics
        return {
            "verified": bool(metrics.get("correct")),
            "faster": bool(metrics.get("faster")),
            "offered": given.accepted,  # verified and faster: what coderefine itself would suggest
            "why": given.facts.summary,
            "counterexample": metrics.get("counterexample"),
            "speedup": metrics.get("speedup"),
            "speedup_ci": metrics.get("speedup_ci"),
            "checked_inputs": metrics.get("checked_inputs"),
            "facts": metrics,
        }

    def optimize_function(self, path: str, function: str, apply: bool = False) -> dict[str, Any]:
        """coderefine's own run on `function`: the best verified faster version and its diff."""
        return self._improve(by_command("optimize"), path, function, apply)

    def improve_readability(self, path: str, function: str, apply: bool = False) -> dict[str, Any]:
        """coderefine's own run on `function`: the best verified easier-to-read version and its diff."""
        return self._improve(by_command("readability"), path, function, apply)

    def _improve(self, kind: CodeKind, path: str, function: str, apply: bool) -> dict[str, Any]:
        report = _run(kind, self._existing(path), function, apply=apply)  # an unknown function is its UsageError
        result = report.results[0]
        return {
            "improved": result.improved,
            "summary": function_summary(f"{report.file}::{function}", kind.task, report.sandbox, result),
            "final": result.final if result.improved else None,
            "diff": report.diff if result.improved else "",
            "applied": report.applied,
            "metrics": result.metrics,
            "stop_reason": result.refine.stop_reason if result.refine else None,
        }

    def _existing(self, path: str) -> Path:
        file = self.inside(path)
        if not file.is_file():
            raise ToolProblem(f"no such file: {path}")
        return file

    def inside(self, path: str) -> Path:
        """`path` (relative to the root, or absolute) resolved, links and `..` followed; a tool error
        when that lands outside the root."""
        try:
            resolved = (self.root / Path(path).expanduser()).resolve()
        except (OSError, RuntimeError, ValueError):  # a loop of links, a NUL byte
            raise ToolProblem(f"path {path!r} cannot be resolved") from None
        if not resolved.is_relative_to(self.root):
            raise ToolProblem(f"path {path!r} is outside the workspace root {self.root}")
        return resolved


def _run(kind: CodeKind, file: Path, function: str, **options: Any) -> CodeReport:
    try:
        return kind.run(file, function, **options)
    except EnvironmentProblem as problem:
        raise ToolProblem(f"cannot check now (the environment): {problem}") from None
    except CoderefineError as problem:
        raise ToolProblem(str(problem)) from None


def _target(file: Path, function: str, purpose: str) -> Target:
    try:
        return SourceFile.read(file).target(function, purpose)
    except CoderefineError as problem:
        raise ToolProblem(str(problem)) from None


def serve(root: Path | None = None) -> int:
    """Serve the tools over stdio until the client hangs up, confined to `root` (else the current folder)."""
    workspace = Workspace.at(root or Path.cwd())
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        raise EnvironmentProblem("the MCP server needs the mcp package: pip install 'coderefine[mcp]'") from None
    server: Any = MCPServer("coderefine", instructions=INSTRUCTIONS, version=package_version())
    for tool in (workspace.verify_rewrite, workspace.optimize_function, workspace.improve_readability):
        server.add_tool(_as_tool(tool, ToolError), name=tool.__name__, description=tool.__doc__)
    server.run("stdio")
    return 0


def _as_tool(tool: Any, error: type[Exception]) -> Any:
    """`tool` run off the event loop (a check takes seconds), its ToolProblem the SDK's tool error; no
    secret of the environment in what it answers."""
    import functools

    import anyio

    @functools.wraps(tool)
    async def run(*args: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            answer: dict[str, Any] = await anyio.to_thread.run_sync(functools.partial(tool, *args, **kwargs))
        except ToolProblem as problem:
            raise error(scrub(str(problem))) from None
        return dict(scrub_all(answer))

    return run
