"""What runs inside the sandbox: the runner, and the judge of a check with its parts.

Loaded under the name `_coderefine_sandbox` (see runner.py), so that no module
here can shadow a module of the project under check.
"""
