"""Seconds from an interrupt to the process's exit, and the functions kept.

Run: python benchmarks/interrupts.py [--runs 3]
A file of four functions, `coderefine optimize FILE --apply` against a scripted model (real HTTP)
that answers at once for `dedupe` and `total` and holds its answer about `squares` for two
minutes; once `dedupe` and `total` have finished and the request about `squares` is in flight,
SIGINT (one function at a time, `--jobs 1`) or SIGTERM (`--jobs 2`) is sent. Printed: the exit
code, the seconds from the signal to the exit, the functions reported as finished and written.
Target (issue #29): out within 3 s, every finished function kept, exit 130 / 143.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from tests.scripted_llm import Reply, ScriptedLLM, prompt_text  # noqa: E402

FUNCTIONS = {
    "dedupe": "    out = []\n    for x in xs:\n        if x not in out:\n            out.append(x)\n    return out\n",
    "total": "    t = 0\n    for x in xs:\n        t = t + x\n    return t\n",
    "squares": "    out = []\n    for x in xs:\n        out.append(x * x)\n    return out\n",
    "evens": "    out = []\n    for x in xs:\n        if x % 2 == 0:\n            out.append(x)\n    return out\n",
}
RETURNS = {"dedupe": "list[int]", "total": "int", "squares": "list[int]", "evens": "list[int]"}
FAST = {"dedupe": "list(dict.fromkeys(xs))", "total": "sum(xs)"}


class Model:
    """Fast drafts for dedupe and total, then the stop phrase; squares' answer held for two minutes."""

    def __init__(self) -> None:
        self.critiqued: set[str] = set()
        self.stalled = threading.Event()
        self.lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Reply | str:
        text = prompt_text(request)
        name = next(n for n in FUNCTIONS if f"def {n}(" in text)
        if name in ("squares", "evens"):
            self.stalled.set()
            return Reply("no answer", delay=120)
        if request["messages"][0]["content"].startswith("You review"):
            with self.lock:
                self.critiqued.add(name)
            return "Correct and fast. NOTHING LEFT TO GAIN"
        return f"```python\ndef {name}(xs: list[int]) -> {RETURNS[name]}:\n    return {FAST[name]}\n```"


def one_run(signum: int, jobs: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="coderefine-interrupt-"))
    folder.chmod(0o755)
    path = folder / "four.py"
    path.write_text("\n\n".join(f"def {n}(xs: list[int]) -> {RETURNS[n]}:\n{body}" for n, body in FUNCTIONS.items()))
    path.chmod(0o644)
    model = Model()
    with ScriptedLLM(model) as server:
        command = [sys.executable, "-m", "coderefine", "optimize", str(path), "--apply", "--json"]
        command += ["--base-url", server.url, "--model", "scripted-model", "--jobs", str(jobs), "--retries", "0"]
        command += ["--rewrite-rules", "none", "--analyzer-rules", "none", "--max-examples", "40", "--no-cache"]
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "CODEREFINE_"))}
        process = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        while not (model.stalled.is_set() and {"dedupe", "total"} <= model.critiqued):
            time.sleep(0.1)
        time.sleep(2.0)  # their runs end after their critiques
        sent = time.monotonic()
        process.send_signal(signum)
        out, _ = process.communicate(timeout=300)
        took = time.monotonic() - sent
    document = json.loads(out)
    written = path.read_text()
    return {
        "exit": process.returncode,
        "seconds": took,
        "finished": [r["target"] for r in document["results"]],
        "written": [n for n, fast in FAST.items() if f"return {fast}" in written],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    for signum, jobs in ((signal.SIGINT, 1), (signal.SIGTERM, 2)):
        runs = [one_run(signum, jobs) for _ in range(args.runs)]
        seconds = [run["seconds"] for run in runs]
        print(
            f"{signal.Signals(signum).name} (--jobs {jobs}): exit {sorted({r['exit'] for r in runs})}, "
            f"signal to exit median {statistics.median(seconds):.2f}s, max {max(seconds):.2f}s; "
            f"finished {runs[0]['finished']}, written {runs[0]['written']} (of {len(runs)} runs, "
            f"{sum(r['finished'] == ['dedupe', 'total'] for r in runs)} kept both)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
