"""``codeagent mcp``'s server: MCP over stdio (newline-delimited JSON-RPC 2.0), read and
written with the standard library, so that ``initialize`` is answered before the MCP SDK
(seconds of imports) would have been imported.

A thread started with the server loads the tools (:mod:`codeagent.server.mcp_tools`, their
schemas as the SDK makes them: :mod:`codeagent.server.mcp_schema`), then the settings and the
served repositories (their index starts building). ``initialize`` and ``tools/list`` wait for
the tools only; ``tools/call`` runs in a worker thread of its own and waits for the
repositories. ``ping`` is answered at once.

The protocol is the SDK server's: the handshake protocol versions (``initialize`` answers the
client's version when it is one of them, the newest otherwise); before ``initialize`` only
``ping`` is served (``-32602`` otherwise, ``-32601`` for a method no one serves); a tool's
failure is an error result (``isError``), not a protocol error. A line that is not JSON, or
not a JSON-RPC message, is answered with ``-32700`` / ``-32600`` (``id`` null); the end of
stdin ends the server. A client that opens with the 2026-07-28 per-request envelope is told
``-32600``: this server speaks the handshake era only.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from codeagent import __version__

if TYPE_CHECKING:
    from codeagent.server.mcp_schema import ToolSchema
    from codeagent.server.mcp_tools import Served

log = logging.getLogger(__name__)

HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
ENVELOPE_KEY = "io.modelcontextprotocol/protocolVersion"  # the 2026-07-28 per-request envelope
CAPABILITIES = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}
EMPTY_LISTS = {"resources/list": "resources", "resources/templates/list": "resourceTemplates",
               "prompts/list": "prompts"}  # fmt: skip
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
ERA_REFUSED = (  # as the SDK's server says it on a connection opened with initialize
    "this connection serves the handshake protocol era; "
    "requests carrying the 2026-07-28 envelope are not accepted on it"
)
BAD_PARAMS = (INVALID_PARAMS, "Invalid request parameters", "")


class Loaded:
    """What a thread loads while the first messages are answered: the tools, then the
    served repositories (``served``; its failure ends the server, as a bad setting would
    have before it started)."""

    def __init__(self, load_served: Callable[[], Served], failed: threading.Event) -> None:
        self.tools: dict[str, ToolSchema] = {}
        self.instructions = ""
        self.served: Served | None = None
        self.tools_ready = threading.Event()
        self.served_ready = threading.Event()
        self.failure: BaseException | None = None
        self._load_served = load_served
        self._failed = failed
        threading.Thread(target=self._load, name="mcp-load", daemon=True).start()

    def _load(self) -> None:
        try:
            from codeagent.server.mcp_schema import catalog
            from codeagent.server.mcp_tools import instructions, mcp_entries

            entries = mcp_entries()
            self.tools = catalog(entries)
            self.instructions = instructions(entries)
            self.tools_ready.set()
            self.served = self._load_served()
        except BaseException as exc:  # raised by serve_stdio, which ends the server
            self.failure = exc
            self._failed.set()
        finally:
            self.tools_ready.set()
            self.served_ready.set()


class StdioServer:
    def __init__(self, loaded: Loaded, out: int) -> None:
        self.loaded = loaded
        self.out = out  # a file descriptor
        self.initialized = False
        self._write_lock = threading.Lock()

    def write(self, message: dict[str, Any]) -> None:
        data = (json.dumps({"jsonrpc": "2.0", **message}, separators=(",", ":")) + "\n").encode()
        with self._write_lock:
            while data:
                data = data[os.write(self.out, data) :]

    def error(self, id_: Any, code: int, message: str, data: Any = None) -> None:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self.write({"id": id_, "error": error})

    def handle_line(self, raw: bytes) -> None:
        """One line from the client: a request is answered, a notification taken note of."""
        if not raw.strip():
            return
        try:
            message = json.loads(raw)
        except (ValueError, RecursionError):
            self.error(None, PARSE_ERROR, "Parse error")
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self.error(None, INVALID_REQUEST, "Invalid Request")
            return
        method, params, id_ = message.get("method"), message.get("params"), message.get("id")
        if method is None and ("result" in message or "error" in message):
            return  # an answer to a request of ours: this server sends none
        valid_id = isinstance(id_, str | int) and not isinstance(id_, bool)
        if not isinstance(method, str) or ("id" in message and not valid_id):
            self.error(None, INVALID_REQUEST, "Invalid Request")
            return
        if params is not None and not isinstance(params, dict):
            if "id" in message:
                self.error(id_, *BAD_PARAMS)
            return
        if "id" not in message:
            if method == "notifications/initialized":
                self.initialized = True
            return  # notifications/cancelled: a call already running finishes (as the SDK's)
        self.request(id_, method, params or {})

    def request(self, id_: Any, method: str, params: dict[str, Any]) -> None:
        meta = params.get("_meta")
        if method != "initialize" and isinstance(meta, dict) and ENVELOPE_KEY in meta:
            self.error(id_, INVALID_REQUEST, ERA_REFUSED)
        elif method == "initialize":
            self.initialize(id_, params)
        elif method == "ping":
            self.write({"id": id_, "result": {}})
        elif method not in ("tools/list", "tools/call", *EMPTY_LISTS):
            self.error(id_, METHOD_NOT_FOUND, "Method not found", method)
        elif not self.initialized:
            self.error(id_, *BAD_PARAMS)
        elif method == "tools/list":
            self.loaded.tools_ready.wait()
            tools = [schema.listed for schema in self.loaded.tools.values()]
            self.write({"id": id_, "result": {"tools": tools}})
        elif method == "tools/call":
            self.call(id_, params)
        else:
            self.write({"id": id_, "result": {EMPTY_LISTS[method]: []}})

    def initialize(self, id_: Any, params: dict[str, Any]) -> None:
        version, client = params.get("protocolVersion"), params.get("clientInfo")
        if not (
            isinstance(version, str)
            and isinstance(params.get("capabilities"), dict)
            and isinstance(client, dict)
            and isinstance(client.get("name"), str)
            and isinstance(client.get("version"), str)
        ):
            self.error(id_, *BAD_PARAMS)
            return
        self.loaded.tools_ready.wait()
        result = {
            "capabilities": CAPABILITIES,
            "instructions": self.loaded.instructions,
            "protocolVersion": version if version in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
            "serverInfo": {"name": "codeagent", "version": __version__},
        }
        self.initialized = True  # as the SDK's: requests are served from here on
        self.write({"id": id_, "result": result})

    def call(self, id_: Any, params: dict[str, Any]) -> None:
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str) or not isinstance(arguments, dict | None):
            self.error(id_, *BAD_PARAMS)
            return
        self.loaded.tools_ready.wait()
        schema = self.loaded.tools.get(name)
        if schema is None:
            text = f"Unknown tool: {name}"
            self.write({"id": id_, "result": {"content": [{"type": "text", "text": text}],
                                              "isError": True}})  # fmt: skip
            return
        work = threading.Thread(
            target=self._call, args=(id_, schema, arguments or {}), name="mcp-call", daemon=True
        )
        work.start()

    def _call(self, id_: Any, schema: ToolSchema, arguments: dict[str, Any]) -> None:
        from pydantic import ValidationError

        from codeagent.errors import CodeAgentError, one_line
        from codeagent.server.mcp_schema import bad_arguments, error_result, text_result
        from codeagent.server.mcp_tools import CallRefused

        name = schema.entry.name
        try:
            values = schema.validate(arguments)
            self.loaded.served_ready.wait()
            if self.loaded.served is None:
                return  # the reader says why and ends the server
            result = text_result(schema.entry.plan(self.loaded.served, values)())
        except ValidationError as exc:
            result = bad_arguments(name, exc)
        except CodeAgentError as exc:
            why = str(exc) if isinstance(exc, CallRefused) else one_line(exc)
            result = error_result(f"Error executing tool {name}: {why}")
        except Exception:  # a crash: its text stays on the server, as the SDK's
            log.exception("tool %s failed", name)
            result = error_result(f"Error executing tool {name}")
        self.write({"id": id_, "result": result})


def lines(fd: int) -> Iterator[bytes]:
    """The lines read from ``fd``, unbuffered by Python's file objects (a thread blocked in
    one would hold its lock when the interpreter exits on Ctrl-C)."""
    pending = b""
    while chunk := os.read(fd, 1 << 16):
        pending += chunk
        *complete, pending = pending.split(b"\n")
        yield from complete
    if pending:
        yield pending


def serve_stdio(load_served: Callable[[], Served], stdin: int = 0, stdout: int = 1) -> None:
    """Serve MCP on ``stdin``/``stdout`` (file descriptors) until stdin ends; the tools and
    ``load_served()`` (the repositories) are loaded in a thread meanwhile, and a failure to
    load them is raised. The lines are read in a thread: this one waits, so Ctrl-C reaches it
    at once."""
    done = threading.Event()
    loaded = Loaded(load_served, done)
    server = StdioServer(loaded, stdout)

    def read() -> None:
        try:
            for raw in lines(stdin):
                server.handle_line(raw)
        finally:
            done.set()

    threading.Thread(target=read, name="mcp-read", daemon=True).start()
    done.wait()
    loaded.served_ready.wait()  # a bad repository is said even when stdin ended first
    if loaded.failure is not None:
        raise loaded.failure
