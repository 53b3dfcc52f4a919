"""How much slower a clearer draft may be: readability's speed rule.

In proportion, not by ratio alone. A draft within `tolerance` (the lower bound
of the speed ratio's 95% interval at least 1 / (1 + tolerance)) passes. A
slower one still passes when nobody would notice: the sandbox then times both
versions on the smallest and on the largest inputs apart (see
`TimingSpec.cost_by_size`), and the draft may add at most `allowance_ns` per
call on each, with a slowdown that does not grow with input size. So
0.69x of a function that takes a tenth of a microsecond ("40 ns more per
call") passes, and 0.69x of a loop over its input does not: what it adds grows
with the input.
"""

from __future__ import annotations

from dataclasses import dataclass

from coderefine.code.check import Verdict


@dataclass(frozen=True)
class Cost:
    """What a draft's speed costs, and whether the rule allows it."""

    allowed: bool
    reason: str  # e.g. "within the 10% allowed", as the prompts and reports say it
    added_ns: float | None = None  # per call, on the timed workload; negative when the draft is faster


@dataclass(frozen=True)
class SlowdownRule:
    tolerance: float = 0.10
    allowance_ns: float = 100.0

    def cost(self, verdict: Verdict) -> Cost:
        timing = verdict.found.timing
        added = _added_ns(timing.original_call_s, timing.candidate_call_s) if timing else None
        if verdict.faster:  # the check's threshold is 1 / (1 + tolerance): "faster" means fast enough
            return Cost(True, f"within the {self.tolerance:.0%} allowed", added)
        by_size = timing.by_size if timing else None
        if not by_size:
            return Cost(False, f"TOO SLOW: more than {self.tolerance:.0%} slower than the original", added)
        (small_original, small_new), (large_original, large_new) = by_size
        on_small, on_large = (small_new - small_original) * 1e9, (large_new - large_original) * 1e9
        # The most it adds on any of the inputs timed: the largest inputs may take a shorter path.
        most = max(on_small, on_large, added or 0.0)
        if most > self.allowance_ns:
            return Cost(
                False,
                f"TOO SLOW: more than {self.tolerance:.0%} slower than the original, and "
                f"{most:,.0f} ns more per call on some of the inputs timed (at most "
                f"{self.allowance_ns:,.0f} ns is allowed)",
                added,
            )
        # What it adds may grow with the input by less than the tolerance of what the original's own time
        # grows; below a quarter of the allowance, differences are the timer's noise.
        growth = on_large - on_small
        if growth > max(self.tolerance * (large_original - small_original) * 1e9, self.allowance_ns / 4):
            return Cost(
                False,
                f"TOO SLOW: the slowdown grows with input size ({on_small:,.0f} ns more per call "
                f"on the smallest inputs timed, {on_large:,.0f} ns on the largest)",
                added,
            )
        return Cost(
            True,
            f"at most {max(most, 0):,.0f} ns more per call on the inputs timed, not growing with "
            f"input size: allowed (up to {self.allowance_ns:,.0f} ns)",
            added,
        )


def _added_ns(original: float, candidate: float) -> float:
    return round((candidate - original) * 1e9, 1)
