"""`python -m coderefine`: the command line (coderefine.cli)."""

from coderefine.cli import entry

entry()
