"""A local chat-completions server that plays scripted answers.

It stands in for a paid remote API: tests drive the real `openai` client over
real HTTP against it. It listens on 127.0.0.1 only, records every request,
and can answer with errors (429, 500, 401, 404), too slowly (timeouts), with
any raw body under any status and content type (faulty servers and proxies),
a byte at a time (trickled headers or body), with a huge body streamed in
pieces, or claiming a length it never sends (hostile servers). It also serves
requests sent to it as a proxy (with the whole URL in the request line).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
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
    trickle: str = ""  # "headers" or "body": that part, and what follows, sent a byte at a time
    pause: float = 0.05  # seconds between trickled bytes
    size: int = 0  # a body of this many bytes, streamed in pieces with no Content-Length, instead of any other
    length: int | None = None  # the Content-Length claimed, instead of the body's own
    encoding: str = ""  # a Content-Encoding to claim (the body is sent as is)


_PIECE = b" " * 65536  # one piece of a streamed body, sent again and again: the server holds no more

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

            def _send(
                self,
                status: int,
                body: dict[str, Any] | bytes,
                content_type: str = "application/json",
                reply: Reply | None = None,
            ) -> None:
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                shape = reply or Reply()
                if shape.size:
                    self.wfile.write(self._head(status, content_type, shape, None))  # the close ends the body
                    for _ in range(shape.size // len(_PIECE)):
                        self.wfile.write(_PIECE)
                    self.wfile.write(_PIECE[: shape.size % len(_PIECE)])
                    return
                head = self._head(status, content_type, shape, len(data))
                if shape.trickle == "headers":
                    self._trickle(head + data, shape.pause)
                elif shape.trickle == "body":
                    self.wfile.write(head)
                    self._trickle(data, shape.pause)
                else:
                    self.wfile.write(head + data)

            def _head(self, status: int, content_type: str, shape: Reply, length: int | None) -> bytes:
                reason = self.responses.get(status, ("Scripted",))[0]
                lines = [f"{self.protocol_version} {status} {reason}", f"Content-Type: {content_type}"]
                if length is not None:
                    lines.append(f"Content-Length: {length if shape.length is None else shape.length}")
                if shape.encoding:
                    lines.append(f"Content-Encoding: {shape.encoding}")
                return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

            def _trickle(self, data: bytes, pause: float) -> None:
                for index in range(len(data)):
                    self.wfile.write(data[index : index + 1])
                    time.sleep(pause)

            @property
            def _route(self) -> str:
                # A request sent to a proxy names the whole URL: its path is what the route is.
                return urllib.parse.urlsplit(self.path).path.rstrip("/")

            def _authorised(self) -> bool:
                if owner.api_key is None or self.headers.get("Authorization") == f"Bearer {owner.api_key}":
                    return True
                self._send(401, {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
                return False

            def do_GET(self) -> None:
                if not self._authorised():
                    return
                reply = owner.models_reply
                if self._route == "/v1/models" and reply is not None and reply.body is not None:
                    self._send(reply.status, reply.body, reply.content_type, reply)
                elif self._route == "/v1/models":
                    data = [{"id": name, "object": "model", "owned_by": "scripted"} for name in owner.models]
                    self._send(200, {"object": "list", "data": data})
                else:
                    self._send(404, {"error": {"message": f"no route {self.path}"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                request = json.loads(self.rfile.read(length) or b"{}")
                if not self._authorised():
                    return
                if self._route != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                if request.get("model") not in owner.models:
                    self._send(404, {"error": {"message": f"model {request.get('model')!r} not found"}})
                    return
                reply = owner._next_reply(request)
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.body is not None or reply.size:
                    self._send(reply.status, reply.body or b"", reply.content_type, reply)
                    return
                if reply.status != 200:
                    error = {"error": {"message": reply.error or f"scripted {reply.status}"}}
                    self._send(reply.status, error, reply=reply)
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
                    reply=reply,
                )

        return Handler
