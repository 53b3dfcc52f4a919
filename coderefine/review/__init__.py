"""Reviews of changed functions: what git says changed (git), the review itself (review), its
results as a JSON document and the merge of shards' documents (document), and its reports (JSON
and summaries in reports, Markdown, SARIF).
"""
