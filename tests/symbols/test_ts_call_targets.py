"""TypeScript call sites tied to what their syntax names: each binding form below is one
marked call in a small real git repository, indexed as a user's would be; the mark names the
definition the TypeScript compiler's "go to definition" lands on (checked by hand with
``eval/ts_calls.cjs``), ``-`` where nothing in the code states the type (kept by name)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from codeagent.symbols.graph import SymbolGraph
from conftest import git, write_files
from oracle_marks import assert_written_target, target_marked

FILES = {
    "src/base.ts": (
        "export class Base {\n"
        "  send(x: number): number {\n"
        "    return x;\n"
        "  }\n"
        "  close(): void {\n"
        "    this.send(1); // @this-inherited send src/base.ts:Base.send\n"
        "  }\n"
        "}\n"
    ),
    "src/transport.ts": (
        "export default class Transport {\n"
        "  send(r: string): string {\n"
        "    return r;\n"
        "  }\n"
        "  static create(): Transport {\n"
        "    return new Transport(); // @new-local-class Transport src/transport.ts:Transport\n"
        "  }\n"
        "}\n"
    ),
    "src/client.ts": (
        "import {Base} from './base';\n"
        "import Transport from './transport.js';\n"
        "\n"
        "export class Client extends Base {\n"
        "  private own = new Transport();\n"
        "  constructor(private readonly t: Transport) {\n"
        "    super();\n"
        "  }\n"
        "  send(x: number): number {\n"
        "    super.send(x); // @super send src/base.ts:Base.send\n"
        "    this.t.send('a'); // @parameter-property send src/transport.ts:Transport.send\n"
        "    this.own.send('b'); // @field-from-new send src/transport.ts:Transport.send\n"
        "    const run = () => this.close(); // @arrow-keeps-this close src/base.ts:Base.close\n"
        "    run();\n"
        "    return x;\n"
        "  }\n"
        "}\n"
        "\n"
        "export function helper(): number {\n"
        "  return 1;\n"
        "}\n"
    ),
    "src/server.ts": (
        "export class Server {\n"
        "  fetch = (r: string): string => this.route(r);"
        " // @this-field-arrow route src/server.ts:Server.route\n"
        "  route = function (r: string): string {\n"
        "    return r;\n"
        "  };\n"
        "}\n"
        "export function serve(): void {\n"
        "  const s = new Server();\n"
        "  s.fetch('/'); // @field-arrow fetch src/server.ts:Server.fetch\n"
        "}\n"
    ),
    "src/pool.ts": (
        "import {Base} from './base';\n"
        "import Transport from './transport';\n"
        "\n"
        "export class Pool {\n"
        "  make(): object {\n"
        "    return class {\n"
        "      conn = new Base();\n"
        "    };\n"
        "  }\n"
        "  conn: Transport = new Transport();\n"
        "  go(): void {\n"
        "    this.conn.send('z');"
        " // @outer-field-not-inner-class send src/transport.ts:Transport.send\n"
        "  }\n"
        "}\n"
    ),
    "src/intl.ts": (
        "export function grüßen(): void {}\n"
        "export function run(): void {\n"
        "  const ñ = {a: 1}; grüßen(); // @non-ascii-name grüßen src/intl.ts:grüßen\n"
        "}\n"
    ),
    "src/util.ts": "export function proto(x: number): number {\n  return x;\n}\n",
    "src/internal.ts": "export * from './traps';\nexport * from './util';\n",
    "src/traps.ts": (
        "import {proto} from './internal';\n"
        "export const traps = {\n"
        "  proto(s: number): number {\n"
        "    return proto(s); // @star-exports-only proto src/util.ts:proto\n"
        "  },\n"
        "};\n"
    ),
    "src/index.ts": (
        "export {Client as HttpClient, helper} from './client';\nexport * from './base';\n"
    ),
    "src/app.ts": (
        "import {HttpClient, helper, Base} from './index';\n"
        "import * as client from './client';\n"
        "import Transport from './transport';\n"
        "import {readFile} from 'node:fs';\n"
        "\n"
        "export function go(c: HttpClient, d: any, b: Base): void {\n"
        "  c.send(1); // @annotated-parameter-reexport send src/client.ts:Client.send\n"
        "  d.send(2); // @untyped - send -\n"
        "  b.close(); // @star-reexport-type close src/base.ts:Base.close\n"
        "  helper(); // @named-reexport helper src/client.ts:helper\n"
        "  client.helper(); // @namespace-import helper src/client.ts:helper\n"
        "  const t = Transport.create();"
        " // @static-default create src/transport.ts:Transport.create\n"
        "  t.send('x'); // @untyped-result - send -\n"
        "  const k: Transport = t;\n"
        "  k.send('y'); // @annotated-local send src/transport.ts:Transport.send\n"
        "  const n = new client.Client(k); // @new-namespace Client src/client.ts:Client\n"
        "  n.close(); // @new-local-inherited close src/base.ts:Base.close\n"
        "  function send(): void {}\n"
        "  send(); // @local-function send src/app.ts:go.send\n"
        "  [1].map((x) => x).forEach(() => 0); // @call-result - forEach -\n"
        "}\n"
        "\n"
        "export function shadow(helper: () => void): void {\n"
        "  helper(); // @parameter-shadows-import - helper -\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    root = tmp_path_factory.mktemp("ts-calls") / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write_files(root, dict(FILES))
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "initial")
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    return store.symbols


@pytest.mark.parametrize(
    ("form", "path", "line", "name", "expected"), target_marked(FILES), ids=lambda v: str(v)
)
def test_a_call_resolves_where_the_compiler_lands(
    graph: SymbolGraph, form: str, path: str, line: int, name: str, expected: str
) -> None:
    assert_written_target(graph, form, path, line, name, expected)


def test_a_package_import_is_outside_the_repository(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    write_files(root, {"a.ts": "import ky from 'ky';\nexport const f = () => ky.get('/');\n"})
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "initial")
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    [site] = store.symbols.callers("get")
    assert (site.target, site.outside, site.resolved) == ("ky.default.get", True, False)
