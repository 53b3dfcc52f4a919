"""The `coderefine` command: parses arguments, calls the library, prints a report.

Exit codes: 0 success, 1 suggestions found where asked to fail on them,
2 bad input or usage, 3 environment (model, endpoint or Docker unavailable).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from coderefine import config, settings
from coderefine.cache import default_cache_root
from coderefine.code import kinds
from coderefine.code.files import check_writable, folder_problem
from coderefine.code.kind import CodeKind
from coderefine.commands import ci, code, doctor, hook, mcp_server, sandbox, tasks, text
from coderefine.commands.progress import MODES
from coderefine.commands.reviewing import ReviewInputs
from coderefine.errors import CoderefineError, EnvironmentProblem, Interrupted, UsageError, signal_of
from coderefine.redact import ScrubbedStream
from coderefine.review import reports
from coderefine.review.quoting import terminal
from coderefine.version import package_version


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2 like every other error."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _run_options(parser: argparse.ArgumentParser) -> None:
    """What every refine command takes besides its settings' flags: the output's form."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--trace", type=Path, help="save every prompt and answer as JSON here")
    parser.add_argument("--quiet", action="store_true", help="no progress or summary lines")


def _code_options(parser: argparse.ArgumentParser, task: str) -> None:
    """What both code commands take besides their settings' flags: the target, the checks' inputs."""
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
    parser.add_argument("--apply", action="store_true", help="write the verified winner into the file")
    parser.add_argument("--task-file", type=Path, help=f"your own {task} task file")
    parser.add_argument(
        "--progress",
        choices=MODES,
        default="auto",
        help="a line per draft on stderr: live or plain (auto: on a terminal or in a log alike), or quiet",
    )


def _setting_flags(parser: argparse.ArgumentParser, *commands: settings.Commands, kind: CodeKind | None = None) -> None:
    """The flags of the settings (settings.FLAGS) that these commands take: those of `kind` if given,
    else those of every code task, each said to be its task's."""
    groups: dict[str, Any] = {}
    for name, flag in settings.FLAGS.items():
        owner = next((each for each in kinds.KINDS if name in each.settings), None)
        if flag.commands not in commands or (kind is not None and owner not in (None, kind)):
            continue
        if flag.group not in groups:
            groups[flag.group] = parser.add_argument_group(flag.group)
        help = flag.help if kind is not None or owner is None else f"{owner.command}: {flag.help}"
        options: dict[str, Any] = {"dest": name, "help": help}
        setting_type = settings.kind_of(name)
        if setting_type is bool:
            options.update(action="store_const", const=not settings.default_of(name))
        else:
            options.update(metavar=flag.metavar, choices=settings.choices_of(name) or None)
            if setting_type in (int, float, Path):
                options["type"] = setting_type
        groups[flag.group].add_argument(settings.spelling_of(name), **options)


def _build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks")
    parser = _Parser(prog="coderefine", description="Self-Refine for code and text.", parents=[common])
    parser.add_argument("--version", action="version", version=f"coderefine {package_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    text = commands.add_parser("text", parents=[common], help="refine text with a plain-text task")
    which = text.add_mutually_exclusive_group(required=True)
    which.add_argument("--task", help="a built-in task (see 'coderefine tasks')")
    which.add_argument("--task-file", type=Path, help="your own task file")
    text.add_argument("--input", help="the input text (else read from standard input)")
    _run_options(text)
    _setting_flags(text, "refine")

    for kind in kinds.KINDS:
        code = commands.add_parser(kind.command, parents=[common], help=kind.help)
        _code_options(code, kind.task)
        _run_options(code)
        _setting_flags(code, "refine", "code", "task", kind=kind)

    _ci_parser(commands, common)
    _hook_parser(commands, common)
    _report_parser(commands, common)

    tasks = commands.add_parser("tasks", parents=[common], help="list the built-in tasks")
    tasks.add_argument("--json", action="store_true", help="print one JSON object")

    checkup = commands.add_parser(
        "doctor", parents=[common], help="check everything a run needs: settings, cache, model, sandbox, tests"
    )
    checkup.add_argument("--json", action="store_true", help="print one JSON object")
    _trust_flag(checkup)

    mcp = commands.add_parser(
        "mcp",
        parents=[common],
        help="serve verify_rewrite, optimize_function and improve_readability to agents (stdio)",
    )
    mcp.add_argument(
        "--root", type=Path, metavar="DIR", help="the only folder the tools reach (default: the current folder)"
    )

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
    run.add_argument(
        "--sandbox",
        choices=("docker", "local"),
        default="docker",
        help="docker (default), or local where Docker cannot be had",
    )
    run.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _trust_flag(parser: argparse.ArgumentParser) -> None:
    """The one setting of the commands that take no others: whether the project's file is trusted."""
    name = "trust_project_settings"
    flag = settings.FLAGS[name]
    parser.add_argument(settings.spelling_of(name) or "", dest=name, action="store_const", const=True, help=flag.help)


def _review_options(parser: argparse.ArgumentParser) -> None:
    """What `ci` and `hook` take: which task, how checked, how long, where drafts run."""
    parser.add_argument(
        "--task",
        choices=kinds.COMMANDS,
        default=kinds.KINDS[0].command,
        help=f"what to improve (default {kinds.KINDS[0].command})",
    )
    parser.add_argument("--task-file", type=Path, help="your own task file for that task")
    parser.add_argument("--size", type=int, help="also test and time with generated inputs this large")
    parser.add_argument("--max-examples", type=int, default=200, help="generated inputs to test with (default 200)")
    parser.add_argument(
        "--progress", choices=MODES, default="auto", help="live (terminal), plain (log lines) or quiet; auto picks"
    )
    _setting_flags(parser, "refine", "code", "task", "review")


def _report_outputs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(ci.REPORT_FOLDER),
        help=f"folder for the reports (default {ci.REPORT_FOLDER}, ignored by git)",
    )
    parser.add_argument("--json", action="store_true", help="also print the JSON report")
    parser.add_argument("--quiet", action="store_true", help="no summary line")
    parser.add_argument("--fail-on-suggestions", action="store_true", help="exit 1 when something is suggested")
    parser.add_argument(
        "--fail-on-regression",
        action="store_true",
        help="check each changed function against the base's version; exit 1 when the change made one slower",
    )
    parser.add_argument(
        "--github-review",
        type=Path,
        metavar="FILE",
        help="also write the JSON body of GitHub's 'create a review for a pull request' request here",
    )
    parser.add_argument(
        "--gitlab-codequality", type=Path, metavar="FILE", help="also write a GitLab code-quality report here"
    )


def _ci_parser(commands: Any, common: argparse.ArgumentParser) -> None:
    ci_parser = commands.add_parser(
        "ci",
        parents=[common],
        help="review the functions changed since a commit",
        description="Work on the functions changed since the merge base of REF and HEAD; write a Markdown "
        "comment, SARIF 2.1.0, JSON and a patch for git apply.",
    )
    which = ci_parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--base", metavar="REF", help="compare with this (e.g. origin/main)")
    which.add_argument("--all", action="store_true", help="every function of the repository, not only the changed")
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
    return {name: getattr(args, name) for name in settings.SETTING_NAMES if hasattr(args, name)}


def main(argv: Sequence[str] | None = None) -> int:
    # No secret of the environment is ever printed, whatever text reaches these streams.
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = ScrubbedStream(out), ScrubbedStream(err)
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = out, err


def _main(argv: list[str]) -> int:
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
    except KeyboardInterrupt as stop:
        return _fail(args, argv, "interrupted", 128 + signal_of(stop))


def entry() -> NoReturn:
    """The `coderefine` program: `main`, then exit with its code. After an interrupt the process
    ends at once (its output flushed, its sandbox closed): a model request still in flight on a
    worker thread must not hold it up until the endpoint answers."""
    code = main()
    if code in (Interrupted(signal.SIGINT).exit_code, Interrupted(signal.SIGTERM).exit_code):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    raise SystemExit(code)


def _dispatch(args: argparse.Namespace) -> int:
    """The command's typed request, made from the parsed flags, handed to its module."""
    if args.command == "tasks":
        return tasks.run(json=args.json)
    if args.command == "doctor":
        return doctor.run(json=args.json, overrides=_settings(args))
    if args.command == "mcp":
        return mcp_server.serve(args.root)
    if args.command == "sandbox":
        if args.action == "setup":
            return sandbox.setup()
        if args.action == "doctor":
            return sandbox.doctor(json=args.json)
        return sandbox.run_file(
            args.file,
            timeout=args.timeout,
            memory_mb=args.memory,
            project=args.project,
            where=args.sandbox,
            json=args.json,
        )
    if args.command in kinds.COMMANDS:
        request = code.CodeRun(
            target=args.target,
            examples=tuple(args.example),
            size=args.size,
            max_examples=args.max_examples,
            apply=args.apply,
            task_file=args.task_file,
            json=args.json,
            trace=args.trace,
            quiet=args.quiet,
            progress=args.progress,
        )
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
    return ReviewInputs(
        task=args.task, task_file=args.task_file, size=args.size, max_examples=args.max_examples, progress=args.progress
    )


def _outputs(args: argparse.Namespace) -> ci.ReportOutputs:
    return ci.ReportOutputs(
        out=args.out,
        json=args.json,
        quiet=args.quiet,
        fail_on_suggestions=args.fail_on_suggestions,
        fail_on_regression=args.fail_on_regression,
        github_review=args.github_review,
        gitlab_codequality=args.gitlab_codequality,
    )


def _fail(args: argparse.Namespace, argv: Sequence[str], message: str, exit_code: int) -> int:
    """One line on stderr; with --json also the one object stdout must hold."""
    if getattr(args, "debug", False):
        traceback.print_exc()
    print(f"coderefine: {terminal(message)}", file=sys.stderr)  # an endpoint's words may be in it
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
        for path, flag in ((args.github_review, "--github-review"), (args.gitlab_codequality, "--gitlab-codequality")):
            # Beside the reports, in a folder the run will make (checked as --out above): writable.
            if path is None:
                continue
            made_later = not args.out.exists() and path.parent.resolve() == args.out.resolve()
            if not made_later:
                _check_file(path, flag)
    if hasattr(args, "cache_dir"):
        resolved = config.resolve(_settings(args))  # every layer, so env and pyproject are checked too
        if resolved.cache:
            _check_folder(resolved.cache_dir or default_cache_root(), "the cache folder (--cache-dir)")
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
    problem = folder_problem(path.parent)
    if problem:
        raise UsageError(f"{what} {path} cannot be written: its folder {problem}")


def _check_folder(folder: Path, what: str) -> None:
    problem = folder_problem(folder)
    if problem:
        raise UsageError(f"{what} {problem}")


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)
