"""The result cache: a no-change re-run of `coderefine ci` over a repository of 1,000 functions.

    python benchmarks/cache_rerun.py                  # 100 files of 10 functions
    python benchmarks/cache_rerun.py --files 10       # a quicker, smaller run

A generated git repository gets its functions in one commit; `coderefine ci
--base` the commit before reviews them all once (the cold run: a scripted
model proposes a faster version of every 20th function and nothing useful for
the rest; every draft is checked in the sandbox, as always),
then the same command runs again over the unchanged repository. Printed: the
cold run's time, each re-run's wall time (the whole `coderefine` process,
start-up included) and whether its reports equal the cold run's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from tests.scripted_llm import ScriptedLLM  # noqa: E402

FUNCTION = '''

def scaled_{n}(xs: list[int]) -> list[int]:
    """Each value times {k}."""
    result = []
    i = 0
    while i < len(xs):
        result.append(xs[i] * {k})
        i = i + 1
    return result
'''
FAST = "```python\ndef scaled_{n}(xs: list[int]) -> list[int]:\n    return [x * {k} for x in xs]\n```"


def make_repository(folder: Path, files: int, per_file: int) -> int:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)

    folder.chmod(0o755)
    git("init", "-q", "-b", "main")
    git("config", "user.email", "bench@example.com")
    git("config", "user.name", "bench")
    (folder / "pyproject.toml").write_text("[project]\nname = 'bench'\n")
    git("add", ".")
    git("commit", "-qm", "empty")
    package = folder / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    count = 0
    for index in range(files):
        body = "".join(FUNCTION.format(n=count + i, k=(count + i) % 7 + 2) for i in range(per_file))
        (package / f"module_{index:03}.py").write_text(f'"""Module {index}."""\n{body}')
        count += per_file
    git("add", ".")
    git("commit", "-qm", "functions")
    return count


def answer(request: dict[str, Any]) -> str:
    if request["messages"][0]["content"].startswith("You review"):
        return "NOTHING LEFT TO GAIN"
    text = request["messages"][-1]["content"]
    start = text.index("def scaled_") + len("def scaled_")
    n = int(text[start : text.index("(", start)])
    return FAST.format(n=n, k=n % 7 + 2) if n % 20 == 0 else "I cannot make it faster."


def run(folder: Path, env: dict[str, str], sandbox: str) -> float:
    started = time.perf_counter()
    subprocess.run(
        [
            "coderefine",
            "ci",
            "--base",
            "HEAD~1",
            "--sandbox",
            sandbox,
            "--max-iterations",
            "1",
            "--max-examples",
            "10",
            "--progress",
            "quiet",
            "--quiet",
            "--out",
            "report",
        ],
        cwd=folder,
        env=env,
        check=True,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--per-file", type=int, default=10)
    parser.add_argument("--reruns", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the repository and cache (their folder is printed)")
    parser.add_argument(
        "--sandbox", choices=("docker", "local"), default="docker", help="where the cold run's drafts run"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="coderefine-cache-bench-"))
    try:
        folder = work / "repo"
        folder.mkdir()
        functions = make_repository(folder, args.files, args.per_file)
        with ScriptedLLM(answer) as server:
            env = dict(
                os.environ,
                OPENAI_BASE_URL=server.url,
                OPENAI_API_KEY="none",
                CODEREFINE_MODEL="scripted-model",
                CODEREFINE_CACHE_DIR=str(work / "cache"),
            )
            cold = run(folder, env, args.sandbox)
            calls = len(server.requests)
            cold_report = json.loads((folder / "report" / "coderefine.json").read_text())
            print(
                f"cold run: {functions} functions in {args.files} files, {cold:.1f}s, {calls} LLM calls, "
                f"{cold_report['suggestions']} suggestions"
            )
            for attempt in range(1, args.reruns + 1):
                seconds = run(folder, env, args.sandbox)
                report = json.loads((folder / "report" / "coderefine.json").read_text())
                same = [r["final"] for r in report["results"]] == [r["final"] for r in cold_report["results"]]
                cached = sum(1 for r in report["results"] if r["cached"])
                print(
                    f"re-run {attempt}: {seconds:.2f}s; {len(server.requests) - calls} new LLM calls; "
                    f"{cached}/{len(report['results'])} results from the cache; same results: {same}; "
                    f"same patch: {report['patch'] == cold_report['patch']}"
                )
    finally:
        if args.keep:
            print(f"kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
