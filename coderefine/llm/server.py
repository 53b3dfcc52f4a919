"""`python -m coderefine.llm.server ARGS`: llama-cpp-python's server (same arguments), with
the weights kept as the model file has them.

llama.cpp may repack weights into extra buffer types for the CPU it runs on; on CPUs with
AMX the AMX buffer of a Q4_1 model crashes the server at its first answer (a segmentation
fault). The embedded model is small: the plain CPU kernels serve it well everywhere.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any


def main() -> None:
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
