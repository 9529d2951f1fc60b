"""The HTTP side of :class:`ollama_stub.OllamaStub`: Ollama's endpoints and wire format."""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ollama_stub import OllamaStub

CHAT = "/api/chat"


@dataclass
class Reply:
    """One scripted answer. ``status`` >= 400 sends ``{"error": error}`` with that status."""

    text: str = ""
    status: int = 200
    error: str = ""
    drop_after: int | None = None
    error_after: int | None = None
    delay: float = 0.0
    pace: float = 0.0  # seconds between streamed chunks (a model that takes its time)
    not_found: bool = False


@dataclass
class StubRequest:
    method: str
    path: str
    body: dict[str, Any] | None

    def _get(self, key: str) -> Any:
        return (self.body or {}).get(key)

    @property
    def model(self) -> str | None:
        return self._get("model")

    @property
    def options(self) -> dict[str, Any]:
        return self._get("options") or {}

    @property
    def num_ctx(self) -> int | None:
        return self.options.get("num_ctx")

    @property
    def format(self) -> Any:
        """The ``format`` field: a JSON schema dict, ``"json"``, or None."""
        return self._get("format")

    @property
    def stream(self) -> bool:
        """Ollama streams unless the request says ``"stream": false``."""
        return self._get("stream") is not False

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self._get("messages") or []


def now() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def tokens(text: str) -> list[str]:
    """Split like a tokenizer would, roughly: words with their trailing whitespace."""
    return re.findall(r"\s*\S+\s*|\s+", text) or [""]


def fake_vector(text: str, dim: int) -> list[float]:
    """Deterministic unit vector from a hash of ``text``."""
    values: list[float] = []
    counter = 0
    while len(values) < dim:
        digest = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        values.extend((b - 127.5) / 127.5 for b in digest)
        counter += 1
    values = values[:dim]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    return [v / norm for v in values]


def not_found_error(model: str | None) -> str:
    return f'model "{model}" not found, try pulling it first'


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that gave up (timeout tests) is not an error of the stub


class StubHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "OllamaStub/1"

    @property
    def stub(self) -> OllamaStub:
        return self.server.stub  # type: ignore[attr-defined,no-any-return]

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def _handle(self, method: str) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except json.JSONDecodeError:
            body = None
        request = StubRequest(method, self.path.split("?")[0], body)
        self.stub.record(request)
        reply = self.stub.next_reply(request.path)
        if reply and reply.delay and self.stub._stopping.wait(reply.delay):
            return
        if reply and reply.status >= 400:
            error = not_found_error(request.model) if reply.not_found else reply.error
            self._send_json({"error": error}, reply.status)
            return
        routes = {
            ("GET", "/"): lambda: self._send_text("Ollama is running"),
            ("GET", "/api/tags"): self._tags,
            ("GET", "/api/version"): lambda: self._send_json({"version": self.stub.version}),
            ("POST", "/api/show"): lambda: self._show(request),
            ("POST", CHAT): lambda: self._chat(request, reply),
            ("POST", "/api/embed"): lambda: self._embed(request),
            ("POST", "/api/embeddings"): lambda: self._embeddings(request),
        }
        handler = routes.get((method, request.path))
        if handler is None:
            self._send_text("404 page not found", 404)
        else:
            handler()

    # -- endpoints ---------------------------------------------------------------------------
    def _tags(self) -> None:
        models = [
            {
                "name": name,
                "model": name,
                "modified_at": now(),
                "size": 1_000_000,
                "digest": hashlib.sha256(name.encode()).hexdigest(),
                "details": {
                    "parent_model": "",
                    "format": "gguf",
                    "family": "stub",
                    "families": ["stub"],
                    "parameter_size": "1B",
                    "quantization_level": "Q4_K_M",
                },
            }
            for name in self.stub.models
        ]
        self._send_json({"models": models})

    def _show(self, request: StubRequest) -> None:
        if not self.stub.has_model(request.model or ""):
            self._send_json({"error": f"model '{request.model}' not found"}, 404)
            return
        self._send_json(
            {
                "modelfile": f"FROM {request.model}",
                "parameters": "",
                "template": "{{ .Prompt }}",
                "details": {"format": "gguf", "family": "stub", "parameter_size": "1B"},
                "model_info": {"general.architecture": "stub", "stub.context_length": 32768},
                "capabilities": ["completion"],
                "modified_at": now(),
            }
        )

    def _chat(self, request: StubRequest, reply: Reply | None) -> None:
        if not self.stub.has_model(request.model or ""):
            self._send_json({"error": not_found_error(request.model)}, 404)
            return
        reply = reply or Reply(text=self.stub.default_text)
        parts = tokens(reply.text)
        base = {"model": request.model, "created_at": now()}
        final = {
            **base,
            "message": {"role": "assistant", "content": ""},
            "done_reason": "stop",
            "done": True,
            "total_duration": 1_000_000,
            "load_duration": 100_000,
            "prompt_eval_count": sum(len(m.get("content") or "") for m in request.messages) // 4,
            "prompt_eval_duration": 200_000,
            "eval_count": len(parts),
            "eval_duration": 700_000,
        }
        if not request.stream:
            final["message"] = {"role": "assistant", "content": reply.text}
            self._send_json(final)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for i, part in enumerate(parts):
            if reply.drop_after is not None and i >= reply.drop_after:
                self.wfile.flush()
                self.close_connection = True
                self.connection.shutdown(2)  # cut mid-body: the client sees a broken stream
                return
            if reply.error_after is not None and i >= reply.error_after:
                self._write_chunk({"error": reply.error})
                break
            if i and reply.pace and self.stub._stopping.wait(reply.pace):
                return
            content = {"role": "assistant", "content": part}
            self._write_chunk({**base, "message": content, "done": False})
        else:
            self._write_chunk(final)
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _embed(self, request: StubRequest) -> None:
        if not self.stub.has_model(request.model or ""):
            self._send_json({"error": not_found_error(request.model)}, 404)
            return
        inputs = request._get("input")
        texts = [inputs] if isinstance(inputs, str) else list(inputs or [])
        vectors = [fake_vector(t, self.stub.embed_dim) for t in texts]
        self._send_json(
            {
                "model": request.model,
                "embeddings": vectors,
                "total_duration": 1_000_000,
                "load_duration": 100_000,
                "prompt_eval_count": sum(len(t) for t in texts) // 4,
            }
        )

    def _embeddings(self, request: StubRequest) -> None:
        if not self.stub.has_model(request.model or ""):
            self._send_json({"error": not_found_error(request.model)}, 404)
            return
        prompt = request._get("prompt") or ""
        self._send_json({"embedding": fake_vector(prompt, self.stub.embed_dim)})

    # -- wire helpers ------------------------------------------------------------------------
    def _write_chunk(self, obj: dict[str, Any]) -> None:
        data = json.dumps(obj).encode() + b"\n"
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _send_json(self, obj: Any, status: int = 200) -> None:
        self._send_bytes(json.dumps(obj).encode(), "application/json; charset=utf-8", status)

    def _send_text(self, text: str, status: int = 200) -> None:
        self._send_bytes(text.encode(), "text/plain; charset=utf-8", status)

    def _send_bytes(self, data: bytes, content_type: str, status: int) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
