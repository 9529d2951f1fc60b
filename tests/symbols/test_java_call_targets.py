"""Java call sites tied to what their declared types name, against javac: a small real git
repository of two packages, indexed as a user's would be, and javac's attribution of every
call in it (``eval/JavaCalls.java``, run by the JDK's source launcher). Each marked call must
land where javac lands; a mark ``-`` is a call javac ties but whose type the code does not
state where the call is (a lambda's parameter, a call inside an anonymous class): it stays
by name. And no call of the repository is tied anywhere javac does not tie it."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import Answers, answers, committed, indexed, lands, marked, tied_only_where

ORACLE = Path(__file__).resolve().parents[2] / "eval" / "JavaCalls.java"
NET = "src/main/java/com/ex/net"
APP = "src/main/java/com/ex/app"
FILES = {
    f"{NET}/Transport.java": (
        "package com.ex.net;\n"
        "\n"
        "public class Transport {\n"
        "    public static final Transport DEFAULT = new Transport(); // @new-own Transport\n"
        "\n"
        "    public String send(String r) {\n"
        "        return r;\n"
        "    }\n"
        "\n"
        "    public Transport copy() {\n"
        "        return this;\n"
        "    }\n"
        "\n"
        "    public static Transport create() {\n"
        "        return new Transport();\n"
        "    }\n"
        "}\n"
    ),
    f"{NET}/Base.java": (
        "package com.ex.net;\n"
        "\n"
        "public abstract class Base {\n"
        "    public int send(int x) {\n"
        "        return x;\n"
        "    }\n"
        "\n"
        "    public void close() {\n"
        "        send(1); // @unqualified-own send\n"
        "    }\n"
        "\n"
        "    public String label(String k) {\n"
        "        return k;\n"
        "    }\n"
        "\n"
        "    public String label(String k, String v) {\n"
        "        return k + v;\n"
        "    }\n"
        "}\n"
    ),
    f"{NET}/Pool.java": (
        "package com.ex.net;\n"
        "\n"
        "import java.util.Iterator;\n"
        "import java.util.List;\n"
        "\n"
        "public class Pool implements Iterable<Transport> {\n"
        "    public Iterator<Transport> iterator() {\n"
        "        return List.of(new Transport()).iterator();\n"
        "    }\n"
        "\n"
        "    public Pool copy() {\n"
        "        return this;\n"
        "    }\n"
        "}\n"
    ),
    f"{NET}/Util.java": (
        "package com.ex.net;\n"
        "\n"
        "public final class Util {\n"
        "    public static void check(boolean b) {\n"
        "    }\n"
        "}\n"
    ),
    f"{NET}/Client.java": (
        "package com.ex.net;\n"
        "\n"
        "import java.util.ArrayList;\n"
        "import java.util.List;\n"
        "\n"
        "public class Client extends Base {\n"
        "    private final Transport transport;\n"
        "    private final List<Transport> pool = new ArrayList<>();\n"
        "\n"
        "    public Client(Transport transport) {\n"
        "        this.transport = transport;\n"
        "    }\n"
        "\n"
        "    @Override\n"
        "    public int send(int x) {\n"
        "        super.send(x); // @super send\n"
        '        this.transport.send("a"); // @this-field send\n'
        "        transport.copy(); // @field copy\n"
        "        close(); // @unqualified-inherited close\n"
        "        pool.add(transport);\n"
        "        return x;\n"
        "    }\n"
        "\n"
        "    @Override\n"
        "    public String label(String k, String v) {\n"
        "        return v;\n"
        "    }\n"
        "\n"
        "    public static class Builder {\n"
        "        private Transport transport = Transport.DEFAULT;\n"
        "\n"
        "        public Builder transport(Transport t) {\n"
        "            this.transport = t;\n"
        "            return this;\n"
        "        }\n"
        "\n"
        "        public Client build() {\n"
        "            return new Client(transport); // @new-package Client\n"
        "        }\n"
        "    }\n"
        "}\n"
    ),
    f"{APP}/Wild.java": (
        "package com.ex.app;\n"
        "\n"
        "import com.ex.net.*;\n"
        "\n"
        "public class Wild {\n"
        "    private int count;\n"
        "\n"
        "    void go() {\n"
        "        Util.check(true); // @package-imported-whole check\n"
        "        this.stop(); // @this stop\n"
        "    }\n"
        "\n"
        "    void stop() {\n"
        "        count++;\n"
        "    }\n"
        "}\n"
    ),
    f"{APP}/App.java": (
        "package com.ex.app;\n"
        "\n"
        "import static com.ex.net.Util.check;\n"
        "\n"
        "import com.ex.net.Client;\n"
        "import com.ex.net.Transport;\n"
        "import java.util.function.Consumer;\n"
        "\n"
        "public class App {\n"
        "    private Client client;\n"
        "\n"
        "    void run(Transport p) {\n"
        '        p.send("x"); // @parameter send\n'
        "        Transport local = Transport.create(); // @static create\n"
        '        local.send("y"); // @local send\n'
        "        var made = new Transport(); // @new-imported Transport\n"
        "        made.copy(); // @var-new copy\n"
        '        Transport.DEFAULT.send("w"); // @static-field send\n'
        '        Transport.create().copy().send("v"); // @declared-return send\n'
        "        new Client.Builder().transport(p).build().close(); // @builder-chain close\n"
        "        Object o = client;\n"
        "        ((Client) o).close(); // @cast close\n"
        '        client.label("a"); // @overload-inherited label\n'
        '        client.label("a", "b"); // @overload-own label\n'
        "        check(true); // @static-import check\n"
        "        Runnable r = () -> client.close(); // @lambda-reads-field close\n"
        "        Consumer<Transport> c = x -> x.copy(); // @lambda-parameter - copy\n"
        "        for (var each : new com.ex.net.Pool()) {\n"
        "            each.copy(); // @for-each-var-element - copy\n"
        "        }\n"
        "        helper(); // @unqualified-static helper\n"
        "        Object anon = new Object() {\n"
        "            void go() {\n"
        "                helper(); // @in-anonymous-class - helper\n"
        "            }\n"
        "        };\n"
        "    }\n"
        "\n"
        "    static void helper() {\n"
        "    }\n"
        "}\n"
    ),
}

pytestmark = pytest.mark.usefixtures("needs_javac")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "java-calls", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def javac(repo: Path) -> Answers:
    """(path, line, called name) -> the declarations javac ties the call to (path, line)."""
    done = subprocess.run(
        ["java", str(ORACLE), str(repo)],
        input="\n".join(FILES), capture_output=True, text=True, check=True, timeout=120,
    )  # fmt: skip
    return answers(done.stdout)


@pytest.mark.parametrize("mark", marked(FILES), ids=lambda m: f"{m[0]}-{m[1]}-{m[2]}")
def test_a_call_resolves_where_javac_lands(
    graph: SymbolGraph, javac: Answers, mark: tuple[str, str, int, str, bool]
) -> None:
    lands(graph, javac, mark, "javac")


def test_no_call_is_tied_where_javac_does_not_tie_it(graph: SymbolGraph, javac: Answers) -> None:
    outside = tied_only_where(graph, javac, at_least=15)
    assert ("add", "java.util.List.add") in outside
