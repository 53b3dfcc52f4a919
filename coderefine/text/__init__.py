"""Plain-text tasks (sentiment reversal, acronyms, dialogue, ...): the task (task), answer parsers,
measured evaluators, and loading and refining them (tasks).
"""
