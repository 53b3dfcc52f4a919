"""The model: what any chat model takes and gives (chat), one chat client over `openai` for any
OpenAI-compatible endpoint (client) with its reading of the endpoint's answers and failures
(answers) and the bounds of every exchange, a deadline and a cap on size (transport), the embedded
llama.cpp server started when no endpoint is set (embedded, server), and the choice between them a
run makes (open).
"""
