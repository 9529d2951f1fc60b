"""PHP call sites resolved by receiver, namespace and ``use``, against a PHP language server's
"go to definition" (intelephense, spoken to over LSP on stdio: a development-time oracle,
never a dependency of the project).

    npm install --prefix PREFIX intelephense
    PYTHONPATH=src python eval/php_references_truth.py DIR --server JS [--sample 400]
        [--seed 46] [--show 8] [--marks]

Indexes DIR's ``.php`` files (``vendor/`` aside) as the index extracts them, asks the server
where each sampled call site's name goes (the method or class, or a ``new T``'s class or its
constructor), and compares it with the repository definition the symbol graph ties the site
to: precision over the sites ours tie to the repository, recall over the sites the server
ties to a repository method or class (and over those but plain function calls, which stay by
name here by design). A site whose name is written more than once on its line is left out (a
line and a name say which call it is; a column does not). ``--marks``: each site's answer,
one a line (what tests/symbols/test_php_call_targets.py's marks were checked with).

The repositories, each chosen and written down before its first run (none written here), run
whole (their tests too: every ``.php`` file of the checkout):

- Seldaek/monolog (57eb1028; 217 files, 121 under ``src/``): handlers over an abstract base
  chain (``AbstractHandler``, ``AbstractProcessingHandler``), interfaces (``HandlerInterface``,
  ``FormatterInterface``), formatters and processors, typed properties, promoted constructor
  parameters, ``parent::`` calls, static factories.
- guzzle/guzzle (2779e868; 74 files, 41 under ``src/``): an HTTP client with middleware
  closures, handlers typed by interfaces, static helpers (``Utils``), exceptions with typed
  constructors.
- thephpleague/flysystem (072735c5; 180 files, 171 under ``src/`` with its adapters): a
  filesystem abstraction over adapters behind ``FilesystemAdapter``, typed properties and
  promoted parameters, ``use ... as``, exceptions made by static constructors
  (``UnableTo*::because``).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from codeagent import lang
from codeagent.symbols.call_targets import target_of
from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.symbols.types import pack_calls

# the server's script under an npm prefix: PREFIX/node_modules/intelephense/lib/intelephense.js
Site = tuple[str, int, str, int]  # (path, line, name, column)


class Server:
    """An LSP server on stdio: Content-Length framed JSON-RPC."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next_id = 0
        self.notes: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while (line := self.proc.stdout.readline().strip()) != b"":
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message: dict[str, Any] = json.loads(self.proc.stdout.read(length))
        if "id" in message and "method" in message:  # a request of the server's: answered
            self.send({"id": message["id"], "result": None})
        return message

    def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        while True:
            message = self.receive()
            if message.get("id") == self.next_id and "method" not in message:
                return message.get("result")
            self.notes.append(message)

    def wait_for(self, method: str, timeout: float = 600.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(n.get("method") == method for n in self.notes):
            if time.monotonic() > deadline:
                raise TimeoutError(method)
            self.notes.append(self.receive())

    def close(self) -> None:
        self.request("shutdown", {})
        self.send({"method": "exit"})
        self.proc.wait(timeout=30)


def graph_of(root: Path) -> SymbolGraph:
    """The symbol graph of every ``.php`` file under ``root`` (``vendor/`` aside)."""
    found = sorted(root.rglob("*.php"))
    return records_graph(root, [f for f in found if "vendor" not in f.relative_to(root).parts])


def records_graph(root: Path, files: list[Path]) -> SymbolGraph:
    """The symbol graph of ``files`` (under ``root``), extracted as the index extracts them
    (``eval/ruby_references_truth.py`` too)."""
    records = {}
    for file in files:
        path = file.relative_to(root).as_posix()
        parsed = lang.parse_file(path, file.read_text(encoding="utf-8", errors="replace"))
        if parsed is not None:
            record = parsed.record(path)
            record["c"] = pack_calls(record["c"])
            records[path] = record
    return SymbolGraph(records)


def sites_of(
    graph: SymbolGraph, root: Path, comment: str = " // ", edges: tuple[str, str] = (r"\b", r"\b")
) -> dict[Site, tuple[str, bool] | None]:
    """Each call site whose name is written once on its line (before a ``comment``, the name
    between the regular expressions ``edges``), with what ours tie it to."""
    out: dict[Site, tuple[str, bool] | None] = {}
    for path, rec in graph.files.items():
        lines = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()
        names, flat = rec["c"][0], rec["c"][1]
        written = rec["c"][2] if len(rec["c"]) > 2 else [-1] * (len(flat) // 3)
        for k in range(len(flat) // 3):
            line, name = flat[3 * k], names[flat[3 * k + 1]]
            code = lines[line - 1].partition(comment)[0]  # a comment after the code aside
            found = [m.start() for m in re.finditer(re.escape(name).join(edges), code)]
            if len(found) != 1:
                continue
            ours = target_of(graph, path, names[written[k]]) if written[k] >= 0 else None
            out[(path, line, name, found[0])] = ours
    return out


def oracle(root: Path, server: Path, sites: list[Site]) -> dict[Site, list[tuple[str, int]]]:
    """Where the server's "go to definition" lands from each site's name: (path, line) in
    the repository (0-based lines made 1-based); [] when nowhere in it."""
    with tempfile.TemporaryDirectory() as storage:
        lsp = Server(["node", str(server), "--stdio"])
        lsp.request("initialize", {
            "processId": None, "rootUri": root.as_uri(), "capabilities": {},
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            "initializationOptions": {"storagePath": storage, "clearCache": True},
        })  # fmt: skip
        lsp.send({"method": "initialized", "params": {}})
        lsp.wait_for("indexingEnded")
        out: dict[Site, list[tuple[str, int]]] = {}
        opened: set[str] = set()
        for site in sites:
            path, line, _name, column = site
            if path not in opened:  # the server answers for an open document
                opened.add(path)
                text = (root / path).read_text(encoding="utf-8", errors="replace")
                lsp.send({"method": "textDocument/didOpen", "params": {"textDocument": {
                    "uri": (root / path).as_uri(), "languageId": "php", "version": 1,
                    "text": text}}})  # fmt: skip
            answer = lsp.request("textDocument/definition", {
                "textDocument": {"uri": (root / path).as_uri()},
                "position": {"line": line - 1, "character": column},
            })  # fmt: skip
            found = answer if isinstance(answer, list) else [answer] if answer else []
            out[site] = []
            for place in found:
                uri = place.get("uri") or place.get("targetUri", "")
                where = place.get("range") or place.get("targetSelectionRange")
                file = Path(uri.removeprefix("file://"))
                if file.is_relative_to(root):
                    out[site].append(
                        (file.relative_to(root).as_posix(), where["start"]["line"] + 1)
                    )
        lsp.close()
    return out


def declared(graph: SymbolGraph, full: str) -> set[tuple[str, int]]:
    """The lines a definition's "go to definition" may land on: from its first line (a
    docblock or attribute aside) to its name's, and a class's constructors' too."""
    d = graph._by_full[full]
    found = {(d.path, line) for line in range(d.start_line, d.line + 1)}
    if d.kind in CLASS_KINDS:
        for m in graph.members(d):
            if m.kind in ("constructor", "method") and m.name.lower() == "__construct":
                found |= {(m.path, line) for line in range(m.start_line, m.line + 1)}
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("root", type=Path)
    parser.add_argument("--server", type=Path, required=True, help="intelephense.js, as above")
    parser.add_argument("--sample", type=int, default=400)
    parser.add_argument("--seed", type=int, default=46)
    parser.add_argument("--show", type=int, default=8)
    parser.add_argument("--marks", action="store_true")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if not args.server.is_file():
        print(f"error: {args.server}: no intelephense (npm install intelephense)", file=sys.stderr)
        return 2
    graph = graph_of(root) if root.is_dir() else None
    if graph is None or not graph.files:
        print(f"error: {args.root}: no .php file under it", file=sys.stderr)
        return 2
    ours = sites_of(graph, root)
    count = Counter(
        "by name" if t is None else "outside" if t[1] else "tied" for t in ours.values()
    )
    sites = sorted(ours)
    if 0 < args.sample < len(sites):
        sites = sorted(random.Random(args.seed).sample(sites, args.sample))
    theirs = oracle(root, args.server, sites)
    mine = {s for s in sites if (t := ours[s]) is not None and not t[1] and t[0] in graph._by_full}
    right = {s for s in mine if declared(graph, ours[s][0]) & set(theirs[s])}  # type: ignore[index]
    tied = {s for s in sites if theirs[s]}
    methods = {s for s in tied if not _function_call(root, s)}
    if args.marks:
        for s in sites:
            print(f"{s[0]}:{s[1]} {s[2]} -> {theirs[s]} (ours: {ours[s]})")
    print(f"{args.root}: {len(ours)} call sites read alone on their line: {count['tied']} tied "
          f"to the repository, {count['outside']} outside, {count['by name']} by name; "
          f"{len(sites)} asked")  # fmt: skip
    print(f"precision {100 * len(right) / max(len(mine), 1):.1f} % ({len(right)} of {len(mine)})")
    for label, over in (("recall", tied), ("recall but function calls", methods)):
        hit = len(over & right)
        print(f"{label} {100 * hit / max(len(over), 1):.1f} % ({hit} of {len(over)})")
    for label, shown in (("wrong", sorted(mine - right)), ("missed", sorted(methods - right))):
        for s in shown[: args.show]:
            print(f"  {label}: {s[0]}:{s[1]} {s[2]}: ours {ours[s]}, theirs {theirs[s]}")
    return 0


def _function_call(root: Path, site: Site) -> bool:
    """Whether the site is a plain function's call (``f(..)``: no ``->``, ``::`` or ``new``
    before the name)."""
    path, line, _name, column = site
    text = (root / path).read_text(encoding="utf-8", errors="replace").splitlines()[line - 1]
    before = text[:column].rstrip()
    return not before.endswith(("->", "::", "new", "\\"))


if __name__ == "__main__":
    raise SystemExit(main())
