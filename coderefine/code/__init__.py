"""The code tasks: targets and splicing (source), the static guard, ruff's analysis, the
readability score, the check of a draft in the sandbox (check), the caches, the run both
tasks share (run, task) and the two tasks themselves (optimize, readability).
"""
