"""The `coderefine` command: parses arguments, calls the library, prints a report.

Exit codes: 0 success, 1 suggestions found where asked to fail on them,
2 bad input or usage, 3 environment (model, endpoint or Docker unavailable).
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from coderefine import config
from coderefine.cache import default_cache_root
from coderefine.code import kinds
from coderefine.code.files import check_writable
from coderefine.commands import ci, code, hook, sandbox, tasks, text
from coderefine.commands.progress import MODES
from coderefine.commands.reviewing import ReviewInputs
from coderefine.errors import CoderefineError, EnvironmentProblem, UsageError
from coderefine.review import reports


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2 like every other error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _run_options(parser: argparse.ArgumentParser) -> None:
    """What every refine command takes: output form, and the model and loop settings."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--trace", type=Path, help="save every prompt and answer as JSON here")
    parser.add_argument("--quiet", action="store_true", help="no progress or summary lines")
    _model_options(parser)


def _code_options(parser: argparse.ArgumentParser, task: str) -> None:
    """What both code commands take: the target, the checks' inputs, where drafts run."""
    parser.add_argument("target", metavar="PATH[::NAME]", help="a file, or one function in it (NAME or Class.method)")
    parser.add_argument(
        "--example",
        action="append",
        default=[],
        metavar="ARGS",
        help="call arguments to test and time with, e.g. '[3, 1, 2], reverse=True' (repeatable)",
    )
    parser.add_argument("--size", type=int, help="also test and time with generated inputs this large")
    parser.add_argument("--max-examples", type=int, default=200, help="generated inputs to test with (default 200)")
    parser.add_argument("--sandbox", choices=("docker", "local"), help="where drafts run (default docker)")
    parser.add_argument("--apply", action="store_true", help="write the verified winner into the file")
    parser.add_argument("--task-file", type=Path, help=f"your own {task} task file")
    parser.add_argument("--include-tests", action="store_const", const=True, help=_INCLUDE_TESTS_HELP)
    parser.add_argument("--check-timeout", type=float, metavar="SECONDS", help=_CHECK_TIMEOUT_HELP)
    parser.add_argument("--baseline-tests", metavar="ARGS", help=_BASELINE_TESTS_HELP)
    parser.add_argument("--jobs", type=int, metavar="N", help=_JOBS_HELP)
    parser.add_argument("--analyzer-rules", metavar="RULES", help=_ANALYZER_HELP)


def _model_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("model")
    group.add_argument("--model", help="model name at the endpoint")
    group.add_argument("--base-url", help="OpenAI-compatible endpoint (else OPENAI_BASE_URL; else the embedded model)")
    group.add_argument("--model-path", type=Path, help="GGUF file for the embedded model")
    group.add_argument("--temperature", type=float)
    group.add_argument("--max-tokens", type=int, help="limit per answer")
    group.add_argument("--timeout", type=float, help="seconds per request")
    group.add_argument("--retries", type=int, help="retries on timeouts, 429 and 5xx")
    group.add_argument("--seed", type=int)
    group.add_argument("--no-cache", dest="cache", action="store_const", const=False,
                       help="do not answer requests from the response cache")  # fmt: skip
    group.add_argument("--cache-dir", type=Path)
    loop = parser.add_argument_group("loop")
    loop.add_argument("--max-iterations", type=int, help="drafts at most (default: the task's)")
    loop.add_argument("--plateau-patience", type=int, help="stop after this many drafts without a better score")
    loop.add_argument("--plateau-margin", type=float, help="what counts as better")
    loop.add_argument("--budget-calls", type=int, help="LLM calls at most")
    loop.add_argument("--budget-tokens", type=int, help="tokens at most")


_ALLOWANCE_HELP = ("readability: beyond the tolerance, a draft may still add this many nanoseconds per call, if "
                   "that does not grow with input size (default 100)")
_CHECK_TIMEOUT_HELP = "seconds for a run of the project's tests and for the check of the original (default 180)"
_BASELINE_TESTS_HELP = "pytest arguments selecting the tests run with the original, e.g. 'tests/unit -k \"not slow\"'"
_ANALYZER_HELP = "ruff's rules for the static analysis facts and fix drafts, e.g. 'PERF,SIM' ('none': off)"
_JOBS_HELP = "functions worked on at once (default: 4 with a model endpoint, 1 with the embedded model)"
_INCLUDE_TESTS_HELP = "also work on test files (tests/, test_*.py, *_test.py, conftest.py, pytest's python_files)"


# The flags of the settings only one code task reads (see CodeKind.settings), by setting.
_TASK_FLAGS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "speedup_threshold": (("--threshold",), {
        "type": float, "help": "claim a speedup only above this (lower bound of the 95%% CI; default 1.05)"}),
    "slowdown_tolerance": (("--slowdown-tolerance",), {
        "type": float, "help": "how much slower a clearer version may be (default 0.10: 10%%)"}),
    "slowdown_allowance_ns": (("--slowdown-allowance-ns",), {"type": float, "metavar": "NS", "help": _ALLOWANCE_HELP}),
}


def _build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                        help="show tracebacks")  # fmt: skip
    parser = _Parser(prog="coderefine", description="Self-Refine for code and text.", parents=[common])
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    text = commands.add_parser("text", parents=[common], help="refine text with a plain-text task")
    which = text.add_mutually_exclusive_group(required=True)
    which.add_argument("--task", help="a built-in task (see 'coderefine tasks')")
    which.add_argument("--task-file", type=Path, help="your own task file")
    text.add_argument("--input", help="the input text (else read from standard input)")
    _run_options(text)

    for kind in kinds.KINDS:
        code = commands.add_parser(kind.command, parents=[common], help=kind.help)
        _code_options(code, kind.task)
        for name in kind.settings:
            flags, options = _TASK_FLAGS[name]
            code.add_argument(*flags, dest=name, **options)
        _run_options(code)

    _ci_parser(commands, common)
    _hook_parser(commands, common)
    _report_parser(commands, common)

    tasks = commands.add_parser("tasks", parents=[common], help="list the built-in tasks")
    tasks.add_argument("--json", action="store_true", help="print one JSON object")

    sandbox = commands.add_parser("sandbox", parents=[common], help="set up, check or use the sandbox")
    actions = sandbox.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("setup", parents=[common], help="install Docker if needed and build the sandbox image")
    doctor = actions.add_parser("doctor", parents=[common], help="say what the sandbox lacks and how to fix it")
    doctor.add_argument("--json", action="store_true", help="print one JSON object")
    run = actions.add_parser("run", parents=[common], help="run a Python file in the sandbox")
    run.add_argument("file", type=Path, metavar="FILE.py")
    run.add_argument("--timeout", type=float, default=10.0, help="seconds (default 10)")
    run.add_argument("--memory", type=int, default=512, metavar="MB", help="memory limit (default 512)")
    run.add_argument("--project", type=Path, help="mounted read-only and importable (default: .)")
    run.add_argument("--sandbox", choices=("docker", "local"), default="docker",
                     help="docker (default), or local where Docker cannot be had")  # fmt: skip
    run.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _review_options(parser: argparse.ArgumentParser) -> None:
    """What `ci` and `hook` take: which task, how checked, how long, where drafts run."""
    parser.add_argument("--task", choices=kinds.COMMANDS, default=kinds.KINDS[0].command,
                        help=f"what to improve (default {kinds.KINDS[0].command})")  # fmt: skip
    parser.add_argument("--task-file", type=Path, help="your own task file for that task")
    parser.add_argument("--size", type=int, help="also test and time with generated inputs this large")
    parser.add_argument("--max-examples", type=int, default=200, help="generated inputs to test with (default 200)")
    parser.add_argument("--sandbox", choices=("docker", "local"), help="where drafts run (default docker)")
    parser.add_argument("--time-budget", dest="time_budget", type=float, metavar="SECONDS",
                        help="start no new work after this long")  # fmt: skip
    parser.add_argument("--threshold", dest="speedup_threshold", type=float, help="optimize: least speedup claimed")
    parser.add_argument("--slowdown-tolerance", type=float, help="readability: how much slower a draft may be")
    parser.add_argument("--slowdown-allowance-ns", type=float, metavar="NS", help=_ALLOWANCE_HELP)
    parser.add_argument("--progress", choices=MODES, default="auto",
                        help="live (terminal), plain (log lines) or quiet; auto picks")  # fmt: skip
    parser.add_argument("--include-tests", action="store_const", const=True, help=_INCLUDE_TESTS_HELP)
    parser.add_argument("--check-timeout", type=float, metavar="SECONDS", help=_CHECK_TIMEOUT_HELP)
    parser.add_argument("--baseline-tests", metavar="ARGS", help=_BASELINE_TESTS_HELP)
    parser.add_argument("--jobs", type=int, metavar="N", help=_JOBS_HELP)
    parser.add_argument("--analyzer-rules", metavar="RULES", help=_ANALYZER_HELP)
    _model_options(parser)


def _report_outputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", type=Path, default=Path("coderefine-report"),
                        help="folder for the reports (default coderefine-report)")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="also print the JSON report")
    parser.add_argument("--quiet", action="store_true", help="no summary line")
    parser.add_argument("--fail-on-suggestions", action="store_true", help="exit 1 when something is suggested")


def _ci_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    ci_parser = commands.add_parser(
        "ci",
        parents=[common],
        help="review the functions changed since a commit",
        description="Work on the functions changed since the merge base of REF and HEAD; write a Markdown "
        "comment, SARIF 2.1.0, JSON and a patch for git apply.",
    )
    ci_parser.add_argument("--base", required=True, metavar="REF", help="compare with this (e.g. origin/main)")
    ci_parser.add_argument("--shard", metavar="I/N", help="work on the I-th of N even shares (for a CI matrix)")
    _report_outputs(ci_parser)
    _review_options(ci_parser)


def _hook_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    hook_parser = commands.add_parser("hook", parents=[common], help="the pre-commit hooks: staged functions")
    hook_parser.add_argument("files", nargs="*", help="the files pre-commit passes (default: all staged)")
    hook_parser.add_argument("--fix", action="store_true", help="write the improvements; exit 1 if a file changed")
    hook_parser.add_argument("--strict", action="store_true", help="exit 1 when something is suggested")
    _review_options(hook_parser)


def _report_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    report = commands.add_parser("report", parents=[common], help="work with review reports")
    actions = report.add_subparsers(dest="action", metavar="ACTION", required=True)
    merge = actions.add_parser("merge", parents=[common], help="join the shards' JSON reports into one")
    merge.add_argument("documents", nargs="+", type=Path, metavar="SHARD.json")
    merge.add_argument("--root", type=Path, help="the checkout the shards ran on (default: the current folder)")
    _report_outputs(merge)


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the command's flags gave: a flag's dest is its setting's name."""
    return {name: getattr(args, name) for name in config.SETTING_NAMES if hasattr(args, name)}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = argparse.Namespace()
    # SIGTERM unwinds like Ctrl-C, so sandboxes and model servers are cleaned up.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        args = _build_parser().parse_args(argv)
        _check_outputs(args)
        return _dispatch(args)
    except CoderefineError as error:
        return _fail(args, argv, str(error), error.exit_code)
    except OSError as error:  # a disk or folder that failed mid-run: the environment's fault
        where = f": {error.filename}" if error.filename else ""
        return _fail(args, argv, f"{error.strerror or error}{where}", EnvironmentProblem.exit_code)
    except KeyboardInterrupt:
        return _fail(args, argv, "interrupted", 130)


def _dispatch(args: argparse.Namespace) -> int:
    """The command's typed request, made from the parsed flags, handed to its module."""
    if args.command == "tasks":
        return tasks.run(json=args.json)
    if args.command == "sandbox":
        if args.action == "setup":
            return sandbox.setup()
        if args.action == "doctor":
            return sandbox.doctor(json=args.json)
        return sandbox.run_file(args.file, timeout=args.timeout, memory_mb=args.memory, project=args.project,
                                where=args.sandbox, json=args.json)  # fmt: skip
    if args.command in kinds.COMMANDS:
        request = code.CodeRun(target=args.target, examples=tuple(args.example), size=args.size,
                               max_examples=args.max_examples, apply=args.apply, task_file=args.task_file,
                               json=args.json, trace=args.trace, quiet=args.quiet)  # fmt: skip
        return code.run(kinds.by_command(args.command), request, _settings(args))
    if args.command == "ci":
        return ci.run_ci(args.base, args.shard, _review_inputs(args), _outputs(args), _settings(args))
    if args.command == "hook":
        return hook.run_hook(args.files, _review_inputs(args), _settings(args), fix=args.fix, strict=args.strict)
    if args.command == "report":
        return ci.merge_command(args.documents, args.root, _outputs(args))
    task = args.task_file if args.task_file else args.task
    request_text = text.TextRun(task=task, input=args.input, json=args.json, trace=args.trace, quiet=args.quiet)
    return text.run(request_text, _settings(args))


def _review_inputs(args: argparse.Namespace) -> ReviewInputs:
    return ReviewInputs(task=args.task, task_file=args.task_file, size=args.size, max_examples=args.max_examples,
                        progress=args.progress)  # fmt: skip


def _outputs(args: argparse.Namespace) -> ci.ReportOutputs:
    return ci.ReportOutputs(out=args.out, json=args.json, quiet=args.quiet,
                            fail_on_suggestions=args.fail_on_suggestions)  # fmt: skip


def _fail(args: argparse.Namespace, argv: Sequence[str], message: str, exit_code: int) -> int:
    """One line on stderr; with --json also the one object stdout must hold."""
    if getattr(args, "debug", False):
        traceback.print_exc()
    print(f"coderefine: {message}", file=sys.stderr)
    # A usage error may come before --json was parsed: then its presence in argv decides.
    if getattr(args, "json", "--json" in argv):
        print(reports.to_json(reports.error_document(message, exit_code)))
    return exit_code


def _check_outputs(args: argparse.Namespace) -> None:
    """Every path the command will write, checked before any work: a run is not wasted on a bad one."""
    if getattr(args, "trace", None) is not None:
        _check_file(args.trace, "--trace")
    if args.command == "ci" or (args.command == "report" and args.action == "merge"):
        _check_folder(args.out, "--out")
        for name in ci.REPORT_FILES.values():
            if (args.out / name).exists():
                _check_file(args.out / name, "--out")
    if hasattr(args, "cache_dir"):
        settings = config.resolve(_settings(args))  # every layer, so env and pyproject are checked too
        if settings.cache:
            _check_folder(settings.cache_dir or default_cache_root(), "the cache folder (--cache-dir)")
    if getattr(args, "apply", False):
        check_writable(code.split_target(args.target)[0])


def _check_file(path: Path, what: str) -> None:
    if path.is_dir():
        raise UsageError(f"{what} {path} is a folder, not a file")
    if path.exists():
        try:
            with path.open("ab"):  # opened to append, closed unwritten: the file stays as it is
                pass
        except OSError as error:
            raise UsageError(f"{what} {path} cannot be written: {error.strerror}") from None
        return
    if not path.parent.is_dir():
        raise UsageError(f"{what} {path} cannot be written: the folder {path.parent} does not exist")
    problem = _folder_problem(path.parent)
    if problem:
        raise UsageError(f"{what} {path} cannot be written: its folder {problem}")


def _check_folder(folder: Path, what: str) -> None:
    problem = _folder_problem(folder)
    if problem:
        raise UsageError(f"{what} {problem}")


def _folder_problem(folder: Path) -> str | None:
    """Why `folder` cannot take new files (it cannot be made, or written), or None."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{folder} cannot be made: {existing} is a file"
    try:
        # A real try, not os.access: root passes every permission check yet not a read-only mount.
        if existing == folder:
            with tempfile.TemporaryFile(dir=folder):
                pass
        else:
            with tempfile.TemporaryDirectory(dir=existing):
                pass
    except OSError as error:
        return f"{folder} is not writable: {error.strerror}"
    return None


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt
