"""Static analysis of one function: ruff's findings as facts, and its fixes as one more draft.

ruff knows many concrete improvements a small model does not find alone (a loop
that only appends, `in d.keys()`, a needless `else` after `return`, ...). Its
findings on the original go into the first prompt and its findings on every
draft into that draft's facts, by line within the function. Where its fixes
change the function (unsafe fixes included: they may change behaviour, which
is what the sandbox checks), the fixed function is a draft of its own.

ruff runs as a program (the `ruff` package's binary) on the function's text
alone, with no configuration file of the project's (`--isolated`): the rules
are coderefine's setting `analyzer_rules`, an empty list turns it off. Its
preview rules and fixes are on: several of the fixes worth a draft are still
preview-only (a loop that only appends becoming a comprehension, PERF401;
`result = result + part` becoming `result += part`, PLR6104), and the sandbox
checks whatever a fix changes.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass

from coderefine.settings import DEFAULT_RULES

# ruff finds its program through sysconfig, whose first use fills a cache that threads
# reading it at the same time can see half-filled: filled here, before functions run side by side.
sysconfig.get_config_vars()

# Noise for one function taken out of its file: magic numbers, the file's own imports, its layout.
IGNORED = ("PLR2004", "PLC0415", "E402", "F401", "I001")
TIMEOUT = 20.0  # seconds for one run of ruff on one function
LISTED = 8  # findings named in a draft's facts, at most


@dataclass(frozen=True)
class Finding:
    """One rule's finding, its line counted within the function (the `def` line is 1)."""

    code: str
    message: str
    line: int
    fixable: bool

    def describe(self) -> str:
        return f"line {self.line}: {self.code} {self.message}"


class AnalyzerUnavailable(RuntimeError):
    """ruff could not be run (not installed, crashed, timed out)."""


@functools.cache
def ruff_binary() -> str:
    try:
        from ruff.__main__ import find_ruff_bin  # type: ignore[import-untyped]
    except ImportError:
        raise AnalyzerUnavailable("the ruff package is not installed") from None
    try:
        return str(find_ruff_bin())
    except FileNotFoundError as error:
        raise AnalyzerUnavailable(f"ruff's program is missing: {error}") from None


@functools.cache
def version() -> str:
    """ruff's version (its findings and fixes differ between versions), or why it cannot run;
    asked once per process (each file's result keys hold it)."""
    try:
        command = [ruff_binary(), "--version"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired, AnalyzerUnavailable) as error:
        return f"unavailable: {error}"
    return done.stdout.strip()


def _ruff(source: str, rules: Sequence[str], *extra: str) -> subprocess.CompletedProcess[str]:
    command = [
        ruff_binary(),
        "check",
        "--isolated",
        "--no-cache",
        "--quiet",
        "--select",
        ",".join(rules),
        "--ignore",
        ",".join(IGNORED),
        "--target-version",
        _target_version(),
        "--stdin-filename",
        "function.py",
        "--preview",
        *extra,
        "-",
    ]
    try:
        done = subprocess.run(command, input=source, capture_output=True, text=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise AnalyzerUnavailable(f"ruff did not run: {error}") from None
    if done.returncode not in (0, 1):  # 1: findings; anything else: ruff itself failed
        raise AnalyzerUnavailable(f"ruff failed: {(done.stderr.strip().splitlines() or ['?'])[-1][:200]}")
    return done


def _target_version() -> str:
    return f"py{sys.version_info.major}{sys.version_info.minor}"


def findings(source: str, rules: Sequence[str]) -> tuple[Finding, ...]:
    """ruff's findings on a function's source, in line order; none when `rules` is empty."""
    if not rules or not source.strip():
        return ()
    done = _ruff(source, rules, "--output-format", "json")
    try:
        raw = json.loads(done.stdout or "[]")
        found = [
            Finding(
                str(item["code"]), str(item["message"]).rstrip("."), int(item["location"]["row"]), bool(item.get("fix"))
            )
            for item in raw
            if item.get("code")
        ]
    except (ValueError, KeyError, TypeError) as error:
        raise AnalyzerUnavailable(f"ruff's answer could not be read: {error}") from None
    return tuple(sorted(found, key=lambda finding: (finding.line, finding.code)))


def fixed(source: str, rules: Sequence[str]) -> str | None:
    """The function with ruff's fixes applied (unsafe ones too), or None when they change nothing."""
    if not rules or not source.strip():
        return None
    text = _ruff(source, rules, "--fix", "--unsafe-fixes").stdout
    return text if text.strip() and text != source else None


def facts(found: Sequence[Finding], *, of: str = "it") -> str:
    """The findings as a line of facts, e.g. `Static analysis (ruff) of it: line 3: SIM108 ...`."""
    if not found:
        return f"Static analysis (ruff) of {of}: nothing to report."
    listed = "; ".join(finding.describe() for finding in found[:LISTED])
    more = f"; and {len(found) - LISTED} more" if len(found) > LISTED else ""
    return f"Static analysis (ruff) of {of}: {listed}{more}."


def safe_facts(source: str, rules: Sequence[str], *, of: str = "it") -> str | None:
    """`facts` of the source, or None where ruff cannot run (the facts go without it)."""
    if not rules:
        return None
    try:
        return facts(findings(source, rules), of=of)
    except AnalyzerUnavailable:
        return None


__all__ = ["DEFAULT_RULES", "AnalyzerUnavailable", "Finding", "facts", "findings", "fixed", "safe_facts", "version"]
