"""PHP call sites tied to what their receivers' declared types name: each form below is one
marked call in a small real git repository of three namespaces (a parent class, an interface,
a promoted constructor parameter, ``use ... as``, two classes called ``Transport``), indexed as
a user's would be; the mark names the definition a PHP language server's "go to definition"
lands on (intelephense's, checked by hand with ``eval/php_references_truth.py --marks``), ``-``
where nothing in the code states the class (kept by name)."""

from __future__ import annotations

import re

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import committed, indexed

FILES = {
    "src/Core/HandlerInterface.php": (
        "<?php\n"
        "namespace App\\Core;\n"
        "\n"
        "interface HandlerInterface\n"
        "{\n"
        "    public function handle($record);\n"
        "    public function close();\n"
        "}\n"
    ),
    "src/Core/Handler.php": (
        "<?php\n"
        "namespace App\\Core;\n"
        "\n"
        "abstract class Handler implements HandlerInterface\n"
        "{\n"
        "    public function handle($record)\n"
        "    {\n"
        "        return $this->format($record); // @this-own format src/Core/Handler.php:Handler.format\n"
        "    }\n"
        "    protected function format($record)\n"
        "    {\n"
        "        return $record;\n"
        "    }\n"
        "    public static function create()\n"
        "    {\n"
        "        return 1;\n"
        "    }\n"
        "}\n"
    ),
    "src/Log/Transport.php": (
        "<?php\n"
        "namespace App\\Log;\n"
        "\n"
        "class Transport\n"
        "{\n"
        "    public function send($body)\n"
        "    {\n"
        "        return $body;\n"
        "    }\n"
        "}\n"
    ),
    "src/Net/Transport.php": (
        "<?php\n"
        "namespace App\\Net;\n"
        "\n"
        "class Transport\n"
        "{\n"
        "    public function send($body)\n"
        "    {\n"
        "        return $body;\n"
        "    }\n"
        "    public static function open($url)\n"
        "    {\n"
        "        return new self(); // @new-self self src/Net/Transport.php:Transport\n"
        "    }\n"
        "}\n"
    ),
    "src/Net/StreamHandler.php": (
        "<?php\n"
        "namespace App\\Net;\n"
        "\n"
        "use App\\Core\\Handler;\n"
        "use App\\Core\\HandlerInterface as Contract;\n"
        "use App\\Log;\n"
        "\n"
        "class StreamHandler extends Handler\n"
        "{\n"
        "    private Transport $transport;\n"
        "\n"
        "    public function __construct(private ?Transport $spare, Contract $next)\n"
        "    {\n"
        "        $this->transport = new Transport(); // @new-namespace Transport src/Net/Transport.php:Transport\n"
        "        $next->close(); // @parameter-alias-interface close src/Core/HandlerInterface.php:HandlerInterface.close\n"
        "    }\n"
        "    public function handle($record)\n"
        "    {\n"
        "        parent::handle($record); // @parent handle src/Core/Handler.php:Handler.handle\n"
        "        $this->format($record); // @this-inherited format src/Core/Handler.php:Handler.format\n"
        "        self::create(); // @self-inherited create src/Core/Handler.php:Handler.create\n"
        "        static::create(); // @static-inherited create src/Core/Handler.php:Handler.create\n"
        "        $this->transport->send($record); // @typed-property send src/Net/Transport.php:Transport.send\n"
        "        $this->spare?->send($record); // @promoted-nullable send src/Net/Transport.php:Transport.send\n"
        "        return $record;\n"
        "    }\n"
        "    public function close()\n"
        "    {\n"
        "    }\n"
        "    public function relay($any, Transport|Log\\Transport $either, Log\\Transport $log)\n"
        "    {\n"
        "        $any->send(1); // @untyped - send -\n"
        "        $either->send(2); // @union - send -\n"
        "        $log->send(3); // @partly-qualified send src/Log/Transport.php:Transport.send\n"
        "        $t = new Transport();\n"
        "        $t->send(4); // @local-new send src/Net/Transport.php:Transport.send\n"
        "        $u = Transport::open('x'); // @static open src/Net/Transport.php:Transport.open\n"
        "        $u->send(5); // @call-result - send -\n"
        "        $fn = function ($x) { return $x->send(6); }; // @closure-parameter - send -\n"
        "        $v = new Transport();\n"
        "        $v = $any;\n"
        "        $v->send(7); // @reassigned - send -\n"
        "        (new Log\\Transport())->send(8); // @new-receiver send src/Log/Transport.php:Transport.send\n"
        "        return $fn;\n"
        "    }\n"
        "}\n"
    ),
    "src/app.php": (
        "<?php\n"
        "namespace App;\n"
        "\n"
        "use App\\Net\\StreamHandler;\n"
        "use App\\Net\\Transport as Wire;\n"
        "\n"
        "function main(StreamHandler $h, ?Wire $w)\n"
        "{\n"
        "    $h->handle(1); // @parameter-override handle src/Net/StreamHandler.php:StreamHandler.handle\n"
        "    $h->close(); // @parameter close src/Net/StreamHandler.php:StreamHandler.close\n"
        "    $w->send(1); // @alias-nullable send src/Net/Transport.php:Transport.send\n"
        "    Wire::open('y'); // @static-alias open src/Net/Transport.php:Transport.open\n"
        "    $l = new \\App\\Log\\Transport(); // @new-absolute Transport src/Log/Transport.php:Transport\n"
        "    $l->send(2); // @absolute-local send src/Log/Transport.php:Transport.send\n"
        "    $n = new Net\\Transport(); // @new-relative Transport src/Net/Transport.php:Transport\n"
        "    $n->send(3); // @relative-local send src/Net/Transport.php:Transport.send\n"
        "    $d = $h;\n"
        "    $d->send(4); // @untyped-local - send -\n"
        "    $$d->send(5); // @variable-variable - send -\n"
        "    $a = new \\ArrayObject([]);\n"
        "    return $a->count();\n"
        "}\n"
    ),
}
MARKS = re.compile(r"// @([\w-]+) (?:- )?(\w+) (\S+)")


def _marked() -> list[tuple[str, str, int, str, str]]:
    out = []
    for path, text in FILES.items():
        for number, line in enumerate(text.splitlines(), 1):
            found = MARKS.search(line)
            if found:
                out.append((found.group(1), path, number, found.group(2), found.group(3)))
    return out


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    return indexed(committed(tmp_path_factory, "php-calls", FILES))


@pytest.mark.parametrize(
    ("form", "path", "line", "name", "expected"), _marked(), ids=lambda v: str(v)
)
def test_a_call_resolves_where_the_language_server_lands(
    graph: SymbolGraph, form: str, path: str, line: int, name: str, expected: str
) -> None:
    [site] = [c for c in graph.callers(name) if (c.path, c.line) == (path, line)]
    if expected == "-":  # nothing in the code states the class: kept, marked by name
        assert (site.resolved, site.target) == (False, ""), form
        return
    assert site.resolved, f"{form}: {path}:{line} left by name"
    where, _, qualname = expected.partition(":")
    assert site.target == f"{where}.{qualname}", form


def test_a_class_outside_the_repository_is_outside(graph: SymbolGraph) -> None:
    [site] = graph.callers("count")
    assert (site.target, site.outside, site.resolved) == ("ArrayObject.count", True, False)


def test_bases_are_found_by_their_whole_name(graph: SymbolGraph) -> None:
    handler = graph._by_full["src/Net/StreamHandler.php.StreamHandler"]
    assert graph.resolved_bases(handler) == ["src/Core/Handler.php.Handler"]
    [interface] = graph.resolved_bases(graph._by_full["src/Core/Handler.php.Handler"])
    assert interface == "src/Core/HandlerInterface.php.HandlerInterface"
