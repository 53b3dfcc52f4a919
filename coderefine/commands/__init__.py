"""What runs reviews for a caller: `coderefine ci` and `report merge` (ci), the pre-commit hooks
(hook), and the progress lines they print (progress).
"""
