"""Task files: the TOML format every task shares (format), its `{{name}}` templates, and where
the built-in task files are (builtin).
"""
