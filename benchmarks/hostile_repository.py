"""The repository as an attacker: each class of attack of a stranger's repository (a fork's pull
request), played against a checkout of coderefine, and whether it reached the host, a secret or a
verdict.

    python benchmarks/hostile_repository.py                          # this checkout
    python benchmarks/hostile_repository.py --checkout /tmp/old      # another one (its image built)
    python benchmarks/hostile_repository.py --only box,endpoint --json rows.json

Every attack goes through coderefine's command line as a user runs it (`ci`, `optimize`, `mcp`),
in a subprocess whose import path starts with `--checkout`, with the operator's secrets in its
environment and models played by local scripted servers (tests/scripted_llm.py). Each row says
what the attack got ("REACHED: ...") or the line that refused it. The repository of the `ci`
attacks is the one `tests/commands/test_hostile_repository.py` plays. Run it on the code before
and after a change to the trust boundaries: the table is the change's figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.commands.test_hostile_repository import (  # noqa: E402
    API_KEY,
    CREDENTIAL,
    GITHUB_TOKEN,
    HOST_FILE_SECRET,
    hostile_repository,
    operator_answer,
)
from tests.review.test_untrusted_text import outside_code  # noqa: E402
from tests.scripted_llm import Reply, ScriptedLLM, prompt_text  # noqa: E402


@dataclass(frozen=True)
class Row:
    attack: str
    outcome: str  # "REACHED: ..." or how it was stopped

    @property
    def reached(self) -> bool:
        return self.outcome.startswith("REACHED")


@dataclass(frozen=True)
class Run:
    """How coderefine is started: the checkout first on the import path, the operator's environment."""

    checkout: Path

    def __call__(
        self, args: list[str], cwd: Path, env: dict[str, str], timeout: float = 900.0
    ) -> subprocess.CompletedProcess[str]:
        environment = {**_base_environment(cwd), **env, "PYTHONPATH": str(self.checkout)}
        return subprocess.run(
            [sys.executable, "-m", "coderefine", *args],
            cwd=cwd,
            env=environment,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=timeout,
        )


def _base_environment(work: Path) -> dict[str, str]:
    kept = {k: v for k, v in os.environ.items() if k.startswith(("PATH", "DOCKER_", "PIP_", "LANG"))}
    home = work.parent / "home"
    home.mkdir(exist_ok=True)
    return {**kept, "HOME": str(home), "CODEREFINE_CACHE_DIR": str(work.parent / "cache"), "GITHUB_TOKEN": GITHUB_TOKEN}


@contextmanager
def scripted(script: Any, **options: Any) -> Iterator[ScriptedLLM]:
    with ScriptedLLM(script, **options) as server:
        yield server


def reached(condition: bool, what: str, refused: str) -> str:
    return f"REACHED: {what}" if condition else refused


def said(stderr: str, needle: str) -> str:
    """The line of stderr that holds `needle`, shortened; or what was seen instead."""
    line = next((line for line in stderr.splitlines() if needle in line), "")
    return (line[:160] + "...") if len(line) > 160 else line or f"(no line with {needle!r})"


# -- a fork's pull request through `ci` ------------------------------------------------------------


def _review(run: Run, work: Path, requirements: str) -> tuple[subprocess.CompletedProcess[str], str, str, Path]:
    """A review of the hostile repository's pull request with the operator's endpoint in the
    environment: (what ci did, the prompts it sent, every output, the host folder its attacks aim at)."""
    work.mkdir(parents=True, exist_ok=True)
    with scripted(operator_answer, api_key=API_KEY) as operator:
        root, host = hostile_repository(work, None, requirements=requirements, url_dependency=False)
        out, review = work / "reports", work / "review.json"
        env = {
            "OPENAI_BASE_URL": operator.url,
            "OPENAI_API_KEY": API_KEY,
            "CODEREFINE_MODEL": "scripted-model",
            "CODEREFINE_GUARD_ALLOW_IMPORTS": "pathlib,sys",  # the operator's: so that the credentials draft runs
        }
        args = ["ci", "--base", "main", "--out", str(out), "--github-review", str(review), "--json"]
        args += ["--max-iterations", "2", "--max-examples", "40", "--rewrite-rules", "none", "--progress", "plain"]
        done = run(args, root, env)
        prompts = "\n".join(prompt_text(request) for request in operator.requests)
    outputs = done.stdout + done.stderr + "".join(p.read_text(errors="replace") for p in out.glob("*") if p.is_file())
    outputs += review.read_text() if review.exists() else ""
    return done, prompts, outputs, host


def requirement_attacks(run: Run, work: Path) -> list[Row]:
    """The repository's requirements name a folder of its own (built by pip where it is fetched), or
    include a file of the host's (/proc/self/environ, the key in it): one review each."""
    done, _, _, host = _review(run, work / "folder", "pkgs/evil\n")
    built = any(host.iterdir())
    included, _, outputs, _ = _review(run, work / "include", "-r /proc/self/environ\n")
    return [
        Row(
            "requirements: a folder of the repository's (pkgs/evil) with its own setup.py",
            reached(built, "its setup.py ran on the host", said(done.stderr, "'pkgs/evil' refused")),
        ),
        Row(
            "requirements: -r /proc/self/environ, the key in a report",
            reached(API_KEY in outputs, "the API key is in an output", said(included.stderr, "/proc/self/environ")),
        ),
    ]


def box_attacks(run: Run, work: Path) -> list[Row]:
    """The repository's startup files, its module's import, untracked credentials and a link to a host
    file, against the box and the reports."""
    done, prompts, outputs, _ = _review(run, work, "")
    document = _json(done.stdout)
    squares: dict[str, Any] = next((r for r in document.get("results") or [] if r.get("target") == "squares"), {})
    return [
        Row(
            "sitecustomize.py and the module's import patch the judge's comparison",
            reached(
                squares.get("status") == "improved" or any(_verified(it) for it in squares.get("iterations") or []),
                f"the wrong draft was verified ({squares.get('status')})",
                f"the wrong draft refused: {_mismatch(squares)}",
            ),
        ),
        Row(
            "an untracked .git-credentials read by a draft",
            reached(CREDENTIAL.split("@")[0] in prompts, "the credential reached the prompt", "not in the box's copy"),
        ),
        Row(
            "a tracked link to a host file (leak.py)",
            reached(
                HOST_FILE_SECRET in prompts + outputs,
                "the host file's text was read",
                _skip_reason(document, "leak.py"),
            ),
        ),
        Row(
            "the operator's GitHub token in the reports",
            reached(GITHUB_TOKEN in outputs, "the token is in an output", "in no output"),
        ),
    ]


def settings_attacks(run: Run, work: Path) -> list[Row]:
    """The repository's pyproject.toml claims the endpoint, the sandbox and the cache, where the operator
    gave the key alone (as a workflow does for OpenAI)."""
    with scripted(lambda r: "```python\ndef squares(xs):\n    return xs\n```") as attacker:
        root, host = hostile_repository(work, attacker.url)
        env = {"OPENAI_API_KEY": API_KEY, "CODEREFINE_MODEL": "scripted-model"}
        args = ["ci", "--base", "main", "--out", str(work / "reports"), "--json", "--max-iterations", "1"]
        done = run([*args, "--max-examples", "40", "--rewrite-rules", "none", "--progress", "plain"], root, env)
    document, err = _json(done.stdout), done.stderr
    return [
        Row(
            "pyproject: base_url of the attacker's endpoint, the key from the environment",
            reached(
                attacker.attempts > 0, f"{attacker.attempts} requests with the key to it", said(err, "ignored base_url")
            ),
        ),
        Row(
            "pyproject: sandbox = local (the project's conftest.py on the host)",
            reached(
                document.get("sandbox") == "local" or any(host.iterdir()),
                "the local sandbox ran",
                "ignored (the line above)",
            ),
        ),
        Row(
            "pyproject: cache_dir inside the repository",
            reached((root / ".cache").exists(), "the cache was written in the repository", "ignored (the line above)"),
        ),
    ]


def _json(text: str) -> dict[str, Any]:
    try:
        found = json.loads(text)
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _verified(iteration: dict[str, Any]) -> bool:
    """Whether a draft of the operator's wrong squares was called correct."""
    return "x + x" in str(iteration.get("output")) and (iteration.get("metrics") or {}).get("correct") is True


def _mismatch(result: dict[str, Any]) -> str:
    found = [str((it.get("metrics") or {}).get("mismatch") or "") for it in result.get("iterations") or []]
    return next((text for text in found if text), str(result.get("stop_reason")))[:120]


def _skip_reason(document: dict[str, Any], file: str) -> str:
    for item in document.get("skipped") or []:
        if item.get("file") == file:
            return str(item.get("reason"))
    return "not listed"


# -- the cache ---------------------------------------------------------------------------------------

SMALL = "def total(xs: list[int]) -> int:\n    t = 0\n    for x in xs:\n        t += x\n    return t\n"
# Quadratic: a draft that does its harm and sums is still verified faster.
QUADRATIC = (
    "def total(xs: list[int]) -> int:\n    t = 0\n    for i in range(len(xs)):\n        for j in range(len(xs)):\n"
    "            if i == j:\n                t += xs[i]\n    return t\n"
)


def cache_attacks(run: Run, work: Path) -> list[Row]:
    project = _project(
        work / "cached",
        {
            "sums.py": "from helpers import scale\n\n" + SMALL,
            "helpers.py": "from deep import K\n\n\ndef scale(x):\n    return x * K\n",
            "deep.py": "K = 1\n",
        },
    )
    args = ["optimize", "sums.py::total", "--no-model", "--json", "--symbolic-seconds", "0", "--max-examples", "40"]
    first = json.loads(run(args, project, {}).stdout)
    store = work / "cache" / "results"
    forged = 0
    for path in store.rglob("*.json"):
        text = path.read_text()
        entry = json.loads(text)
        if isinstance(entry, dict) and "document" in entry:  # signed: the document text under its signature
            entry["document"] = entry["document"].replace('"speedup": ', '"speedup": 99.0, "was": ')
            path.write_text(json.dumps(entry))
        else:
            path.write_text(text.replace('"speedup": ', '"speedup": 99.0, "was": '))
        forged += 1
    again = json.loads(run(args, project, {}).stdout)
    speedup = (again.get("metrics") or {}).get("speedup")
    (project / "deep.py").write_text("K = 2\n")
    third = json.loads(run(args, project, {}).stdout)
    return [
        Row(
            "a cache entry rewritten by someone else (speedup 99)",
            reached(
                speedup == 99.0, f"served: speedup {speedup}", f"a miss: checked again ({speedup}, {forged} forged)"
            ),
        ),
        Row(
            "a module two imports away changed, the verdict reused",
            # A result read back from the cache carries the very seconds of the run that made it.
            reached(
                third.get("seconds") == again.get("seconds") and first.get("status") == "improved",
                "the old verdict was served",
                "checked again",
            ),
        ),
    ]


def _project(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, mode=0o755)
    folder.chmod(0o755)
    (folder / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


# -- what is written is what was verified ---------------------------------------------------------------

WRITTEN = {
    "a __future__ import in the draft": (
        "from __future__ import annotations\n\n\ndef total(xs: list[int]) -> int:\n    return sum(xs)\n"
    ),
    "a draft that moves the caller's working directory": (
        "import contextlib\n\n\ndef total(xs: list[int]) -> int:\n"
        "    contextlib.ExitStack().enter_context(contextlib.chdir('/'))\n    return sum(xs)\n"
    ),
    "a draft with a bidirectional control (Trojan Source)": (
        "def total(xs: list[int]) -> int:\n    return sum(xs)  # \u202e fast \u202c\n"
    ),
}


def written_attacks(run: Run, work: Path) -> list[Row]:
    rows = []
    for index, (attack, draft) in enumerate(WRITTEN.items()):
        project = _project(work / f"written{index}", {"sums.py": "x = 1\n\n\n" + QUADRATIC})
        with scripted(
            lambda r, d=draft: (
                "NOTHING LEFT TO GAIN" if r["messages"][0]["content"].startswith("You review") else f"```python\n{d}```"
            )
        ) as model:
            env = {"OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": API_KEY, "CODEREFINE_MODEL": "scripted-model"}
            args = [
                "optimize",
                "sums.py::total",
                "--apply",
                "--json",
                "--rewrite-rules",
                "none",
                "--analyzer-rules",
                "none",
            ]
            done = run(
                [*args, "--max-iterations", "1", "--max-examples", "40", "--symbolic-seconds", "0"], project, env
            )
        text = (project / "sums.py").read_text()
        changed = text != "x = 1\n\n\n" + QUADRATIC
        rows.append(Row(attack, reached(changed, "written into the file", _why_refused(done.stdout))))
    return rows


def _why_refused(stdout: str) -> str:
    """The first draft's reason for not being offered, from `--json`."""
    try:
        iterations = json.loads(stdout).get("iterations") or []
    except ValueError:
        return stdout[-160:]
    metrics = (iterations[0].get("metrics") or {}) if iterations else {}
    return str(metrics.get("mismatch") or metrics.get("not_verified") or "not offered")[:160]


# -- the endpoint ----------------------------------------------------------------------------------------


def endpoint_attacks(run: Run, work: Path) -> list[Row]:
    rows = []
    work.mkdir(parents=True, exist_ok=True)
    with scripted([Reply("x", trickle="body", pause=2.0)] * 4) as model:
        env = {"OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": API_KEY, "CODEREFINE_MODEL": "scripted-model"}
        started = time.monotonic()
        try:
            done = run(["text", "--task", "acronym", "--input", "a", "--timeout", "5", "--retries", "0"], work, env, 60)
            took = time.monotonic() - started
            line = (done.stderr.strip().splitlines() or [""])[-1]
        except subprocess.TimeoutExpired:
            took, line = time.monotonic() - started, ""
    rows.append(
        Row(
            "an endpoint that trickles a byte every 2 s (timeout 5 s)",
            reached(took > 15, f"still running after {took:.0f} s", f"ended after {took:.1f} s: {line[:120]}"),
        )
    )
    with scripted([Reply(size=150 << 20)] * 4) as model:
        env = {"OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": API_KEY, "CODEREFINE_MODEL": "scripted-model"}
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.monotonic()
        try:
            done = run(
                ["text", "--task", "acronym", "--input", "a", "--timeout", "60", "--retries", "0"], work, env, 90
            )
            line = (done.stderr.strip().splitlines() or [""])[-1]
        except subprocess.TimeoutExpired:
            line = "killed after 90 s"
        took = time.monotonic() - started
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    megabytes = max(peak, before) / 1024
    rows.append(
        Row(
            "an answer of 150 MB",
            reached(
                megabytes > 300,
                f"{megabytes:.0f} MB at the peak, {took:.0f} s",
                f"{megabytes:.0f} MB at the peak, {took:.1f} s: {line[:100]}",
            ),
        )
    )
    return rows


# -- model prose in the review --------------------------------------------------------------------------------

HOSTILE_PROSE = "Faster. <details open><summary>x</summary>@team [click](https://evil.example) ![i](https://evil.example/i.png)</details>"


def prose_attacks(run: Run, work: Path) -> list[Row]:
    from tests.commands.test_ci import FAST, slowed_repository  # a repository whose branch slowed three functions

    root = slowed_repository(work)

    def answer(request: dict[str, Any]) -> str:
        if request["messages"][0]["content"].startswith("You review"):
            return HOSTILE_PROSE + " " + "x" * 80_000 + " NOTHING LEFT TO GAIN"
        last = request["messages"][-1]["content"]
        name = next((n for n in FAST if f"def {n}(" in last), "squares")
        return f"```python\n{FAST[name]}```"

    with scripted(answer) as model:
        env = {"OPENAI_BASE_URL": model.url, "OPENAI_API_KEY": API_KEY, "CODEREFINE_MODEL": "scripted-model"}
        out = work / "prose-reports"
        args = ["ci", "--base", "main", "--out", str(out), "--github-review", str(work / "prose-review.json")]
        run([*args, "--max-iterations", "1", "--max-examples", "40", "--rewrite-rules", "none"], root, env)
    markdown = (out / "coderefine.md").read_text() if (out / "coderefine.md").exists() else ""
    review = (work / "prose-review.json").read_text() if (work / "prose-review.json").exists() else "{}"
    bodies = [c["body"] for c in json.loads(review).get("comments", [])] + [json.loads(review).get("body", "")]
    # Outside code (fenced blocks, code spans), where GitHub renders Markdown and HTML.
    raw = any("<details open>" in outside_code(text) or "@team" in outside_code(text) for text in [markdown, *bodies])
    longest = max([len(markdown), *(len(b) for b in bodies)])
    return [
        Row(
            "the model's words carry HTML, links, images, @mentions",
            reached(raw, "rendered as written", "quoted (a code span)"),
        ),
        Row(
            "the model's words run to 80,000 characters",
            reached(
                longest > 65_536, f"a comment of {longest:,} characters", f"the longest body {longest:,} characters"
            ),
        ),
    ]


# -- MCP ------------------------------------------------------------------------------------------------------


def mcp_attacks(run: Run, work: Path) -> list[Row]:
    import anyio
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    workspace = _project(work / "workspace", {"mine.py": SMALL})
    other = _project(work / "other-repo", {"theirs.py": SMALL})
    environment = {**_base_environment(workspace), "PYTHONPATH": str(run.checkout), "CODEREFINE_NO_MODEL": "1"}
    parameters = StdioServerParameters(
        command=sys.executable, args=["-m", "coderefine", "mcp"], env=environment, cwd=str(workspace)
    )

    async def session() -> str:
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            result = await client.call_tool(
                "optimize_function", {"path": str(other / "theirs.py"), "function": "total", "apply": True}
            )
            return " ".join(str(getattr(item, "text", "")) for item in result.content)

    answer = anyio.run(session)
    written = (other / "theirs.py").read_text() != SMALL
    return [
        Row(
            "MCP: optimize_function on another repository's file, apply=True",
            reached(written, "that file was written", answer[:160]),
        )
    ]


ATTACKS: dict[str, Callable[[Run, Path], list[Row]]] = {
    "requirements": requirement_attacks,
    "box": box_attacks,
    "settings": settings_attacks,
    "cache": cache_attacks,
    "written": written_attacks,
    "endpoint": endpoint_attacks,
    "prose": prose_attacks,
    "mcp": mcp_attacks,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the coderefine checkout to attack")
    parser.add_argument("--only", default=",".join(ATTACKS), help=f"comma-separated, of {', '.join(ATTACKS)}")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()
    run = Run(args.checkout.resolve())
    rows: list[Row] = []
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory(prefix=f"hostile-{name}-") as folder:
            work = Path(folder) / "work"
            work.mkdir()
            started = time.monotonic()
            try:
                found = ATTACKS[name](run, work)
            except Exception as problem:  # one class's failure is its row, the others go on
                found = [Row(f"{name}: the attack itself failed", f"{type(problem).__name__}: {problem}"[:200])]
            rows += found
            print(f"# {name}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    width = max(len(row.attack) for row in rows)
    for row in rows:
        print(f"{row.attack:<{width}}  {row.outcome}")
    print(f"\n{sum(row.reached for row in rows)} of {len(rows)} attacks reached the host, a secret or a verdict")
    if args.json:
        args.json.write_text(json.dumps([asdict(row) for row in rows], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
