"""Reviews of changed functions: what git says changed (git), the review itself (review), and
its reports (JSON and summaries in reports, Markdown, SARIF).
"""
