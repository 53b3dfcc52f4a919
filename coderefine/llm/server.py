"""`python -m coderefine.llm.server [--leases FOLDER] ARGS`: llama-cpp-python's server (same
arguments), with the weights kept as the model file has them; with `--leases`, shared by the runs
that hold a lease in FOLDER, and stopped when none is left (coderefine.llm.sharing).

llama.cpp may repack weights into extra buffer types for the CPU it runs on; on CPUs with
AMX the AMX buffer of a Q4_1 model crashes the server at its first answer (a segmentation
fault). The embedded model is small: the plain CPU kernels serve it well everywhere.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

from coderefine.llm import sharing


def main() -> None:
    if "--leases" in sys.argv:  # a shared server (coderefine.llm.sharing): it stops when no run holds a lease
        at = sys.argv.index("--leases")
        folder = Path(sys.argv[at + 1])
        del sys.argv[at : at + 2]
        sharing.watch(folder)
    bindings: Any = importlib.import_module("llama_cpp.llama_cpp")
    loader: Any = importlib.import_module("llama_cpp.llama")  # reads the function from `bindings` on each load
    server: Any = importlib.import_module("llama_cpp.server.__main__")
    default_params = bindings.llama_model_default_params

    def plain_params() -> Any:
        params = default_params()
        params.use_extra_bufts = False
        return params

    loader.llama_cpp.llama_model_default_params = plain_params
    sys.argv[0] = "llama_cpp.server"
    server.main()


if __name__ == "__main__":
    main()
