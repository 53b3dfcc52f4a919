"""A local HTTP server that stands in for GitHub's REST API: it records every request (method, path,
headers, JSON body) and answers each with the next status of its script (200 when the script is
spent). It listens on 127.0.0.1 only."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class GitHubStandIn:
    url: str
    statuses: list[int]
    requests: list[Recorded] = field(default_factory=list)


@contextmanager
def github_stand_in(*statuses: int) -> Iterator[GitHubStandIn]:
    state = GitHubStandIn("", list(statuses))

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw.decode(errors="replace")
            headers = {name.lower(): value for name, value in self.headers.items()}  # names are case-blind
            state.requests.append(Recorded("POST", self.path, headers, body))
            status = state.statuses.pop(0) if state.statuses else 200
            answer = {"id": len(state.requests)} if status < 400 else {"message": "Unprocessable Entity"}
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
