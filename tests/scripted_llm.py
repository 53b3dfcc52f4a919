"""A local chat-completions server that plays scripted answers.

It stands in for a paid remote API: tests drive the real `openai` client over
real HTTP against it. It listens on 127.0.0.1 only, records every request,
and can answer with errors (429, 500, 401, 404), too slowly (timeouts), or
with any raw body under any status and content type (faulty servers and proxies).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    text: str = ""
    status: int = 200
    delay: float = 0.0  # seconds to wait before answering
    error: str = ""
    body: bytes | None = None  # sent as is, with `status` and `content_type`, instead of a completion
    content_type: str = "application/json"


Script = Iterable["Reply | str"] | Callable[[dict[str, Any]], "Reply | str"]


def prompt_text(request: dict[str, Any]) -> str:
    """All message contents of a recorded request, joined."""
    return "\n".join(str(m.get("content", "")) for m in request.get("messages", []))


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out and hung up is expected here, not news


class ScriptedLLM:
    """Answers requests in order from a list, or by asking a function per request."""

    def __init__(
        self,
        script: Script,
        *,
        models: tuple[str, ...] = ("scripted-model",),
        api_key: str | None = None,
        models_reply: Reply | None = None,  # a raw answer to GET /models instead of the list of `models`
    ):
        self._function = script if callable(script) else None
        self._queue = [] if callable(script) else [r if isinstance(r, Reply) else Reply(r) for r in script]
        self.models = models
        self.models_reply = models_reply
        self.api_key = api_key
        self.requests: list[dict[str, Any]] = []  # chat requests that got a well-formed 200 answer
        self.attempts = 0  # every chat request, answered or not
        self._lock = threading.Lock()
        self._server = _QuietServer(("127.0.0.1", 0), self._handler())
        # Polled every 20 ms, not 0.5 s: shutdown waits for the next poll, and every test stops a server.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else host
        return f"http://{name}:{port}/v1"

    def __enter__(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def remaining(self) -> int:
        return len(self._queue)

    def _next_reply(self, request: dict[str, Any]) -> Reply:
        with self._lock:
            self.attempts += 1
            if self._function is not None:
                reply = self._function(request)
                return reply if isinstance(reply, Reply) else Reply(reply)
            if not self._queue:
                return Reply(status=500, error="the script has no more answers")
            return self._queue.pop(0)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _send(self, status: int, body: dict[str, Any] | bytes, content_type: str = "application/json") -> None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _authorised(self) -> bool:
                if owner.api_key is None or self.headers.get("Authorization") == f"Bearer {owner.api_key}":
                    return True
                self._send(401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
                return False

            def do_GET(self) -> None:
                if not self._authorised():
                    return
                reply = owner.models_reply
                if self.path.rstrip("/") == "/v1/models" and reply is not None and reply.body is not None:
                    self._send(reply.status, reply.body, reply.content_type)
                elif self.path.rstrip("/") == "/v1/models":
                    data = [{"id": name, "object": "model", "owned_by": "scripted"} for name in owner.models]
                    self._send(200, {"object": "list", "data": data})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                if not self._authorised():
                    return
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                if request.get("model") not in owner.models:
                    self._send(404, {"error": {"message": f"model {request.get('model')!r} not found"}})
                    return
                reply = owner._next_reply(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.body is not None:
                    self._send(reply.status, reply.body, reply.content_type)
                    return
                if reply.status != 200:
                    self._send(reply.status, {"error": {"message": reply.error or f"scripted {reply.status}"}})
                    return
                with owner._lock:
                    owner.requests.append(request)
                prompt_tokens = len(prompt_text(request).split())
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(owner.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": request["model"],
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": reply.text},
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt_tokens,
                            "completion_tokens": len(reply.text.split()),
                            "total_tokens": prompt_tokens + len(reply.text.split()),
                        },
                    },
                )

        return Handler
