"""The installed package's version, read once."""

from __future__ import annotations

import functools
from importlib import metadata


@functools.cache
def package_version() -> str:
    return metadata.version("coderefine")  # reads the package's metadata: milliseconds, so once
