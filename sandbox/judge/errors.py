"""How a check ends early: the versions differ on an input, or the original itself cannot be checked."""


class Mismatch(Exception):
    """The versions behaved differently on one input: (text, the call as text)."""


class SetupError(Exception):
    """The original itself cannot be checked: not the new version's fault."""
