"""coderefine: Self-Refine for code and text.

Example::

    import coderefine
    result = coderefine.refine_text("acronym", "Learning to Refine with Self-Feedback")
    print(result.final, result.status, result.usage.llm_calls)
"""

from coderefine.code.optimize import optimize
from coderefine.code.readability import improve_readability
from coderefine.code.report import CodeReport, FunctionResult
from coderefine.engine import Iteration, RefineResult, Usage
from coderefine.errors import (
    AuthenticationFailed,
    CoderefineError,
    EndpointUnavailable,
    EnvironmentProblem,
    LocalModelUnavailable,
    ModelNotFound,
    TaskError,
    UsageError,
)
from coderefine.text.tasks import refine_text

OptimizeReport = CodeReport  # the name of earlier releases

__version__ = "0.1.0"

__all__ = [
    "AuthenticationFailed",
    "CodeReport",
    "CoderefineError",
    "EndpointUnavailable",
    "EnvironmentProblem",
    "FunctionResult",
    "Iteration",
    "LocalModelUnavailable",
    "ModelNotFound",
    "OptimizeReport",
    "RefineResult",
    "TaskError",
    "Usage",
    "UsageError",
    "improve_readability",
    "optimize",
    "refine_text",
]
