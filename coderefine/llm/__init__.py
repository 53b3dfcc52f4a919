"""The model: one chat client over `openai` for any OpenAI-compatible endpoint (client), the
embedded llama.cpp server started when no endpoint is set (embedded, server), and the choice
between them a run makes (open).
"""
