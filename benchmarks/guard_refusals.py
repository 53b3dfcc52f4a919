"""The guard's false refusals: how many correct drafts the static guard refuses before they run.

    python benchmarks/guard_refusals.py
    python benchmarks/guard_refusals.py --source suite,readability
    python benchmarks/guard_refusals.py --source dictdiffer --json refusals.json

Every draft here is correct (it behaves exactly like its original), so every refusal is a false
one: a cost, since the draft never runs. Each draft goes through the guard as coderefine hands it a
model's answer: the answer's code block read by parse_candidate (which drops helpers the function
does not use), then Guard.for_target(source, target).check(...) against the original's module as
it is. Sources:

- suite: the optimize suite, benchmarks/slow_functions/slow.py, with the known-good fast
  versions of fast.py (FAST);
- readability: the readability suite, benchmarks/messy_functions/messy.py, with the clearer
  versions of clear.py (CLEAR);
- jaraco.itertools, dictdiffer: two real pure-Python libraries the project never used before,
  pinned (correct_rewrites.LIBRARIES), each downloaded as an sdist with pip into a temporary folder
  at each run; the drafts are hand-written optimizations and readability rewrites of their
  functions (correct_rewrites.REWRITES), each checked against its original with the library's own
  tests and a randomized differential comparison.

Prints one table (source | correct drafts | refused | refused %) with a total line, then each
refusal: source, function, the rule and the guard's detail (and, for a library draft, what the
rewrite does). The target is at most 5% refused in total (--target): the exit status is 1 above
it. The guard is static: a run takes seconds, plus pip's downloads.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT.parent), str(ROOT), str(ROOT / "slow_functions"), str(ROOT / "messy_functions")]

from clear import CLEAR  # noqa: E402
from correct_rewrites import LIBRARIES, REWRITES, Library  # noqa: E402
from fast import FAST  # noqa: E402

from coderefine.code.candidate import parse_candidate  # noqa: E402
from coderefine.code.guard import Guard  # noqa: E402
from coderefine.code.source import SourceFile  # noqa: E402
from coderefine.errors import EnvironmentProblem  # noqa: E402

SUITES = {
    "suite": (ROOT / "slow_functions" / "slow.py", FAST),
    "readability": (ROOT / "messy_functions" / "messy.py", CLEAR),
}
SOURCES = (*SUITES, *(library.name for library in LIBRARIES))


@dataclass(frozen=True)
class Draft:
    """One correct draft of one function, and where its original lives."""

    source: str
    module: Path
    function: str
    text: str
    description: str = ""


@dataclass(frozen=True)
class Outcome:
    source: str
    function: str
    refused: bool
    rule: str = ""
    detail: str = ""
    line: int | None = None
    description: str = ""


def sdist(library: Library, folder: Path) -> Path:
    """The pinned sdist of `library`, downloaded with pip and unpacked into `folder`: its root.
    (As benchmarks/mutation.py's sdist(), for any spelling of the archive's name: PEP 625 names
    jaraco.itertools' `jaraco_itertools-6.4.3.tar.gz`.)"""
    spec = f"{library.name}=={library.version}"
    downloads = folder / "download"
    pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", ":all:"]
    done = subprocess.run(
        [*pip, spec, "-d", str(downloads)], stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False
    )
    archives = sorted(downloads.glob("*.tar.gz"))
    if done.returncode != 0 or len(archives) != 1:
        tail = (done.stderr.strip().splitlines() or ["no sdist"])[-1]
        raise EnvironmentProblem(f"cannot download the sdist of {spec}: {tail}")
    with tarfile.open(archives[0]) as archive:
        roots = {Path(name).parts[0] for name in archive.getnames()}
        archive.extractall(folder, filter="data")
    if len(roots) != 1:
        raise EnvironmentProblem(f"the sdist of {spec} has no single root folder: {sorted(roots)}")
    return folder / roots.pop()


def suite_drafts(name: str, module: Path, drafts: Mapping[str, str]) -> Iterator[Draft]:
    for function, text in drafts.items():
        yield Draft(name, module, function, text)


def library_drafts(library: Library, root: Path) -> Iterator[Draft]:
    for rewrite in REWRITES:
        if rewrite.library == library.name:
            yield Draft(library.name, root / rewrite.path, rewrite.function, rewrite.draft, rewrite.description)


def check(draft: Draft) -> Outcome:
    """The guard's verdict on the draft, as coderefine reaches it from a model's answer."""
    source = SourceFile.read(draft.module)
    target = source.target(draft.function)
    candidate = parse_candidate(f"```python\n{draft.text.strip()}\n```", target)
    refusal = Guard.for_target(source, target).check(candidate.source)
    if refusal is None:
        return Outcome(draft.source, draft.function, False, description=draft.description)
    return Outcome(draft.source, draft.function, True, refusal.rule, refusal.detail, refusal.line, draft.description)


def run(sources: Sequence[str]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory() as scratch:
        for name in sources:
            if name in SUITES:
                drafts = list(suite_drafts(name, *SUITES[name]))
            else:
                library = next(library for library in LIBRARIES if library.name == name)
                folder = Path(scratch) / name
                folder.mkdir()
                drafts = list(library_drafts(library, sdist(library, folder)))
            outcomes.extend(check(draft) for draft in drafts)
    return outcomes


def percent(part: int, whole: int) -> float:
    return 100 * part / whole if whole else 0.0


def report(outcomes: Sequence[Outcome], sources: Sequence[str]) -> float:
    """Print the table and the refusals; the total refused %."""
    versions = {library.name: f"{library.name} {library.version}" for library in LIBRARIES}
    width = max(len("source"), len("total"), *(len(versions.get(name, name)) for name in sources))
    print(f"{'source':{width}} | correct drafts | refused | refused %")
    print(f"{'-' * width}-+----------------+---------+----------")
    for name in sources:
        rows = [outcome for outcome in outcomes if outcome.source == name]
        refused = sum(outcome.refused for outcome in rows)
        label = versions.get(name, name)
        print(f"{label:{width}} | {len(rows):14} | {refused:7} | {percent(refused, len(rows)):8.1f}%")
    refused = sum(outcome.refused for outcome in outcomes)
    total = percent(refused, len(outcomes))
    print(f"{'-' * width}-+----------------+---------+----------")
    print(f"{'total':{width}} | {len(outcomes):14} | {refused:7} | {total:8.1f}%")
    refusals = [outcome for outcome in outcomes if outcome.refused]
    print(f"\nrefusals of correct drafts: {len(refusals)}")
    for outcome in refusals:
        where = f" line {outcome.line}:" if outcome.line is not None else ""
        print(f"- {outcome.source} {outcome.function}: [{outcome.rule}]{where} {outcome.detail}")
        if outcome.description:
            print(f"    the rewrite: {outcome.description}")
    return total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--source", default="all", help=f"comma-separated, of {', '.join(SOURCES)}; or all (the default)"
    )
    parser.add_argument("--json", type=Path, help="also write every draft's outcome to this file")
    parser.add_argument("--target", type=float, default=5.0, help="the most refused %% allowed in total")
    args = parser.parse_args(argv)
    sources = list(SOURCES) if args.source == "all" else args.source.split(",")
    unknown = [name for name in sources if name not in SOURCES]
    if unknown:
        parser.error(f"unknown source {', '.join(unknown)}: choose among {', '.join(SOURCES)}")
    outcomes = run(sources)
    total = report(outcomes, sources)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(outcome) for outcome in outcomes], indent=2) + "\n", encoding="utf-8")
    return 0 if total <= args.target else 1


if __name__ == "__main__":
    raise SystemExit(main())
