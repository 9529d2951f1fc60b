"""C#'s calls tied to what the compiler ties them to: a small real git repository of two
namespaces (an ``#if`` in a base list too), indexed, compiled with Mono's compiler, and each
method's calls read from the assembly's IL (``eval/CsCalls.cs``): every call the index resolves
must be the compiler's (a call of an override counts as the virtual method it overrides, as the
compiler binds it), and every call of the compiler's must be resolved, but those marked ``//
by-name NAME`` (a lambda's parameter, a value no declaration types): those stay calls by name.
File-scoped namespaces and global usings (C# 10, which Mono does not read) must resolve as the
forms the compiler read."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from codeagent.symbols.tables import CLASS_KINDS
from codeagent.tools.symbol_tool import SymbolArgs, run_symbol_query
from oracle_marks import EVAL, committed, indexed

FILES = {
    "src/Shop/Net/Transport.cs": """using System;

namespace Shop.Net
{
    public interface ITransport { void Send(string body); }

    public class Transport : ITransport
    {
        public void Send(string body) { Console.WriteLine(body); }
        public void Close() { }
        public static Transport Open(string url) { return new Transport(); }
    }

    public class Pool : ITransport
#if !LEGACY
        , IDisposable
#endif
#if !(OLD || LEGACY)
        , ICloneable
#endif
    {
        public void Send(string body) { Close(); }
        public void Close() { }
        public void Dispose() { }
        public object Clone() { return this; }
    }

    public static class Texts
    {
        public static string Twice(this string s) { return s + s; }
        public static string Trim(this string s) { return s; }
        public static void Shout(this Client c) { c.Log("!"); }
        public static void Shout(this Client c, int times) { }
    }
}
""",
    "src/Shop/Net/Client.cs": """using System;
using System.Collections.Generic;

namespace Shop.Net
{
    public partial class Client
    {
        private readonly ITransport transport;
        private readonly Transport[] pool = new Transport[0];
        public Transport Raw { get; set; }

        public Client(ITransport t) { transport = t; }

        public void Send(string body)
        {
            transport.Send(body);
            this.transport.Send(body);
            Raw.Close();
            Log(body);
            foreach (var each in pool) each.Close();
            Clock.Now();
            var retry = new Retry(2);
            retry.Again();
        }

        public void Send(string body, int times)
        {
            for (var i = 0; i < times; i++) Send(body);
        }

        public static Client Make() { return new Client(Transport.Open("x")); }

        public virtual void Log(string s) { }

        public Transport Current() { return Raw; }
    }
}
""",
    "src/Shop/Clock.cs": """namespace System
{
    static class Clock
    {
        public static long Now() { return 0; }
    }
}
""",
    "src/Shop/Net/Client.Retry.cs": """namespace Shop.Net
{
    public partial class Client
    {
        class Retry
        {
            readonly int times;
            public Retry(int times) { this.times = times; }
            public void Again() { }
        }
    }
}
""",
    "src/App/Program.cs": """using System;
using System.Collections.Generic;
using Shop.Net;
using static Shop.Net.Client;

namespace App
{
    class Program
    {
        static void Main(string[] args)
        {
            var c = new Client(new Transport());
            c.Send("x");
            c.Send("x", 2);
            Client.Make().Send("y");
            Make();
            Client other = Client.Make();
            other?.Send("z");
            other.Current().Close();
            c.Raw.Send("q");
            Shop.Net.Transport.Open("u");
            ((Client)Make()).Log("a");
            (other as Client).Log("b");
            List<Client> many = new List<Client>();
            foreach (var each in many) each.Send("w");
            foreach (Client one in many) one.Send("v");
            new Helper().Help(3);
            new Pool().Send("p");
            System.IO.StringWriter w = new System.IO.StringWriter();
            w.Write("x");
            Func<Client, int> size = z => { z.Send("l"); return 0; }; // by-name Send
            var made = Pick(other);
            made.Log("m"); // by-name Log
            "s".Twice();
            "s".Trim(); // not the repository's Trim
            var text = Name();
            text.Twice(); // by-name Twice
            c.Shout();
            object o = c;
            if (o is Client k) k.Log("p");
            var cast = (Client)o;
            cast.Log("c");
            var asked = o as Client;
            asked.Log("d");
            try { Make(); } catch (Oops e) { e.Explain(); }
        }

        static Client Pick(Client c) { return c; }

        static string Name() { return "n"; }
    }

    class Oops : Exception
    {
        public void Explain() { }
    }

    class Base
    {
        public virtual void Go() { }
    }

    class Helper : Base
    {
        public override void Go() { base.Go(); }

        public void Help(int x) { Go(); this.Go(); }
    }

    class Loud : Client
    {
        public Loud() : base(new Transport()) { }

        public override void Log(string s) { base.Log(s); Send(s); }
    }
}
""",
}
MARK = re.compile(r"// by-name (\w+)")
Pair = tuple[str, str, str]  # (caller: its type and method, callee, "call" | "new")

pytestmark = pytest.mark.usefixtures("needs_mono")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "csharp-calls", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def compiler(compiled: list[list[str]]) -> Counter[Pair]:
    """The compiler's calls between the repository's methods, from the assembly's IL."""
    out: Counter[Pair] = Counter()
    for owner, method, callee, kind in compiled:
        if kind in ("call", "new"):  # not a type's line, nor another assembly's method's
            out[(f"{owner}.{method}", callee, kind)] += 1
    return out


@pytest.fixture(scope="module")
def compiled(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> list[list[str]]:
    """eval/CsCalls.cs's lines on the compiled fixture."""
    work = tmp_path_factory.mktemp("csharp-il")
    sources = [str(repo / path) for path in FILES]
    subprocess.run(["mcs", "-target:library", f"-out:{work / 'shop.dll'}", *sources], check=True)
    subprocess.run(["mcs", f"-out:{work / 'calls.exe'}", str(EVAL / "CsCalls.cs")], check=True)
    done = subprocess.run(
        ["mono", str(work / "calls.exe"), str(work / "shop.dll")],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [line.split("\t") for line in done.stdout.splitlines()]


def _ours(graph: SymbolGraph) -> tuple[Counter[Pair], Counter[tuple[str, str]]]:
    """The index's resolved calls as pairs, and its calls by name (caller, name)."""
    resolved: Counter[Pair] = Counter()
    by_name: Counter[tuple[str, str]] = Counter()
    names = set(graph.calls)  # the called names
    for name in names:
        for site in graph.callers(name):
            if site.resolved:
                d = graph._by_full[site.target]
                kind = "new" if d.kind in CLASS_KINDS else "call"
                resolved[(site.scope, d.qualname, kind)] += 1
            elif not site.outside:
                by_name[(site.scope, site.name)] += 1
    return resolved, by_name


def _overrides(graph: SymbolGraph, ours: Pair, theirs: Pair) -> bool:
    """Whether the method of ``ours`` is ``theirs``'s or overrides it."""
    if ours == theirs:
        return True
    if ours[0] != theirs[0] or ours[2] != "call" or theirs[2] != "call":
        return False
    owner, _, name = ours[1].rpartition(".")
    if name != theirs[1].rpartition(".")[2]:
        return False
    types = [d for d in graph.definitions(owner) if d.kind in CLASS_KINDS]
    bases = [b.qualname for d in types for b, _via in graph._mro(d, set())]
    return theirs[1].rpartition(".")[0] in bases


def test_every_resolved_call_is_the_compilers(graph: SymbolGraph, compiler: Counter[Pair]) -> None:
    resolved, _ = _ours(graph)
    left = Counter(compiler)
    wrong = []
    for pair in resolved.elements():
        match = next((t for t in left if left[t] and _overrides(graph, pair, t)), None)
        if match is None:
            wrong.append(pair)
        else:
            left[match] -= 1
    assert wrong == []
    assert resolved  # not every call left by name


def test_every_call_of_the_compilers_is_resolved_but_the_marked(
    graph: SymbolGraph, compiler: Counter[Pair]
) -> None:
    resolved, by_name = _ours(graph)
    missed = Counter(compiler)
    for pair in resolved.elements():
        match = next((t for t in missed if missed[t] and _overrides(graph, pair, t)), None)
        if match is not None:
            missed[match] -= 1
    missed = +missed
    marked = Counter(
        name for text in FILES.values() for line in text.splitlines() if (m := MARK.search(line))
        for name in [m.group(1)]
    )  # fmt: skip
    assert Counter(callee.rpartition(".")[2] for _c, callee, _k in missed.elements()) == marked
    for caller, callee, _kind in missed:  # and the index lists each of them by name
        assert by_name[(caller, callee.rpartition(".")[2])] >= 1


def _modern(files: dict[str, str]) -> dict[str, str]:
    """The same program in C# 10's forms, which Mono's compiler does not read: each file's
    namespace file-scoped (``namespace Shop.Net;``), its ``using Shop.Net;`` a ``global
    using`` of one file for all, its ``using System;`` left to the SDK (``ImplicitUsings``)."""
    out = {"src/GlobalUsings.cs": "global using Shop.Net;\n"}
    for path, text in files.items():
        text = text.replace("using Shop.Net;\n", "").replace("using System;\n", "")
        out[path] = re.sub(r"(?s)namespace ([\w.]+)\n\{\n(.*)\n\}\n$", r"namespace \1;\n\2\n", text)
        assert out[path] != text or "namespace" not in text  # the form was rewritten
    return out


def test_file_scoped_namespaces_and_global_usings_resolve_as_the_compiled_forms(
    graph: SymbolGraph, tmp_path_factory: pytest.TempPathFactory
) -> None:
    modern = indexed(committed(tmp_path_factory, "csharp-calls-modern", _modern(FILES)))
    assert _ours(modern) == _ours(graph)  # the compiler's answers, checked by the tests above
    types = {d.full_name.split(".cs.", 1)[1] for d in modern._defs if d.kind in CLASS_KINDS}
    assert {"Shop.Net.Client.Retry", "App.Program"} <= types


def test_who_calls_names_the_method_as_the_compiler_does(
    graph: SymbolGraph, repo: Path, compiler: Counter[Pair]
) -> None:
    """ "who calls Transport.Close?": the calls the compiler ties to it, under its name in the
    assembly (namespace and type), not its file's path."""
    result = run_symbol_query(graph, SymbolArgs(operation="callers", name="Transport.Close"), repo)
    theirs = sum(
        n for (_c, callee, _k), n in compiler.items() if callee == "Shop.Net.Transport.Close"
    )
    assert (
        result.render()
        .splitlines()[0]
        .startswith(
            f"Calls of `Transport.Close` in the repository: {theirs} resolved to "
            "`Shop.Net.Transport.Close`"
        )
    )


def test_a_call_on_a_librarys_type_is_outside_as_the_compiler_says(
    graph: SymbolGraph, compiled: list[list[str]]
) -> None:
    """A call on a value whose declared type no type of the repository has (``StringWriter``)
    is outside the repository, not by name: the compiler calls another assembly's method of
    that name from that method."""
    theirs = Counter((f"{o}.{m}", name) for o, m, name, kind in compiled if kind == "outside")
    ours: Counter[tuple[str, str]] = Counter()
    names = set(graph.calls)  # the called names
    for name in names:
        for site in graph.callers(name):
            if site.outside:
                ours[(site.scope, site.name)] += 1
    assert ("App.Program.Main", "Write") in ours  # the fixture's StringWriter
    assert ours - theirs == Counter()


def test_the_scoring_script_says_bad_input_in_one_line(repo: Path, tmp_path: Path) -> None:
    """eval/csharp_references_truth.py: a folder with no C# file, a file that is no assembly:
    one line and exit status 2, no traceback."""
    script = [sys.executable, str(EVAL / "csharp_references_truth.py")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(EVAL.parent / "src"), str(EVAL)])}
    junk = tmp_path / "junk.dll"
    junk.write_bytes(bytes(range(256)) * 4)
    for args, said in (
        ([str(tmp_path), "--assembly", str(junk)], "no .cs file under it"),
        ([str(repo), "--assembly", str(junk)], "the oracle failed on"),
    ):
        done = subprocess.run([*script, *args], capture_output=True, text=True, env=env)
        assert done.returncode == 2
        assert said in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
