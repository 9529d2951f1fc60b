"""PHP call sites tied to what their receivers' declared types name: each form below is one
marked call in a small real git repository of three namespaces (a parent class, an interface,
a trait, a promoted constructor parameter, ``use ... as``, a declared return type, two classes
called ``Transport``), indexed as a user's would be; the mark names the definition a PHP
language server's "go to definition" lands on (intelephense 1.18.5's, checked by hand with
``eval/php_references_truth.py DIR --marks`` on these files), ``-`` where nothing in the code
states the class (kept by name: intelephense ties two of those by inferring, a union's to both
classes and ``Transport::open``'s result from its body, and none of the others; it also follows
a variable re-bound to another class line by line, which is kept by name here: a variable's
bindings in its function must agree, and a property assigned two classes in its class, which
it reads as the first; and it lists both classes of an intersection type whose two parts
declare the method, kept by name here: a site is tied to one definition)."""

from __future__ import annotations

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import assert_written_target, committed, indexed, target_marked

FILES = {
    "src/Core/Sink.php": r"""<?php
namespace App\Core;

interface Sink
{
    public function handle($record);
    public function close();
}
""",
    "src/Core/Handler.php": r"""<?php
namespace App\Core;

abstract class Handler implements Sink
{
    use Closes;

    protected ?\App\Log\Transport $log = null;
    protected ?\Countable $counter = null;
    /** @var \App\Net\Transport[] */
    protected array $pool = [];

    public function handle($record)
    {
        return $this->format($record); // @this-own format src/Core/Handler.php:Handler.format
    }
    protected function format($record)
    {
        return $record;
    }
    public static function create()
    {
        return 1;
    }
    public static function make(): static
    {
        return new static();
    }
}
""",
    "src/Core/Closes.php": r"""<?php
namespace App\Core;

trait Closes
{
    public function close()
    {
    }
}
""",
    "src/Core/Recorder.php": r"""<?php
namespace App\Core;

/**
 * Records what it is given; asked through __call.
 *
 * @method bool hasInfo(string $message)
 * @method static Recorder named(string $name)
 * @method close()
 * @property \App\Net\Transport $wire
 * @property-read \App\Net\Transport[] $wires
 */
class Recorder
{
    public function __get($name)
    {
        return null;
    }
    public function flush()
    {
        foreach ($this->wires as $w) {
            $w->send(37); // @magic-property-array send src/Net/Transport.php:Transport.send
        }
    }
    public function __call($name, $args)
    {
        return false;
    }
    public static function __callStatic($name, $args)
    {
        return new static();
    }
    public function close()
    {
        $this->hasInfo(1); // @doc-method-this hasInfo src/Core/Recorder.php:Recorder.hasInfo
    }
}
""",
    "src/Core/Level.php": r"""<?php
namespace App\Core;

enum Level: int
{
    case Debug = 100;
    case Error = 400;

    public function isLowerThan(Level $other): bool
    {
        return self::Error->above($other); // @enum-case-self above src/Core/Level.php:Level.above
    }
    public function above(Level $other): bool
    {
        return $this->value > $other->value;
    }
}
""",
    "src/Log/Transport.php": r"""<?php
namespace App\Log;

class Transport
{
    public function send($body)
    {
        return $body;
    }
}
""",
    "src/Net/Transport.php": r"""<?php
namespace App\Net;

class Transport
{
    public function send($body)
    {
        return $body;
    }
    public function again(): static
    {
        return $this;
    }
    public static function open($url)
    {
        return new self(); // @new-self self src/Net/Transport.php:Transport
    }
    public function copy(): Transport
    {
        return $this;
    }
    public function other(): \App\Log\Transport
    {
        return new \App\Log\Transport();
    }
}
""",
    "src/Net/Stream.php": r"""<?php
namespace App\Net;

use App\Core\Handler;
use App\Core\Sink as Contract;
use App\Log;

class Stream extends Handler
{
    private Transport $transport;

    public function __construct(private ?Transport $spare, Contract $next)
    {
        $this->transport = new Transport(); // @new-ns Transport src/Net/Transport.php:Transport
        $next->close(); // @parameter-alias-interface close src/Core/Sink.php:Sink.close
    }
    public function handle($record)
    {
        parent::handle($record); // @parent handle src/Core/Handler.php:Handler.handle
        $this->format($record); // @this-inherited format src/Core/Handler.php:Handler.format
        self::create(); // @self-inherited create src/Core/Handler.php:Handler.create
        static::create(); // @static-inherited create src/Core/Handler.php:Handler.create
        $this->transport->send($record); // @property send src/Net/Transport.php:Transport.send
        $this->spare?->send($record); // @promoted send src/Net/Transport.php:Transport.send
        $this->log->send($record); // @parent-property send src/Log/Transport.php:Transport.send
        return $record;
    }
    public function close()
    {
    }
    public function count()
    {
        $this->counter = new Transport();
    }
    public function counted()
    {
        $this->counter->send(44); // @declared-outside-assigned - send -
        foreach ($this->pool as $p) {
            $p->send(45); // @parent-array-property send src/Net/Transport.php:Transport.send
        }
        $this->pool[0]->send(46); // @parent-array-element send src/Net/Transport.php:Transport.send
    }
    public function relay($any, Transport|Log\Transport $either, Log\Transport $log)
    {
        $any->send(1); // @untyped - send -
        $either->send(2); // @union - send -
        $log->send(3); // @partly-qualified send src/Log/Transport.php:Transport.send
        $t = new Transport();
        $t->send(4); // @local-new send src/Net/Transport.php:Transport.send
        $u = Transport::open('x'); // @static open src/Net/Transport.php:Transport.open
        $u->send(5); // @call-result - send -
        $fn = function ($x) { return $x->send(6); }; // @closure-parameter - send -
        $v = new Transport();
        $v = $any;
        $v->send(7); // @reassigned - send -
        (new Log\Transport())->send(8); // @new-receiver send src/Log/Transport.php:Transport.send
        return $fn;
    }
}
""",
    "src/app.php": r"""<?php
namespace App;

use App\Net\Stream;
use App\Net\Transport as Wire;

function main(Stream $h, ?Wire $w)
{
    $h->handle(1); // @parameter-override handle src/Net/Stream.php:Stream.handle
    $h->close(); // @parameter close src/Net/Stream.php:Stream.close
    $w->send(1); // @alias-nullable send src/Net/Transport.php:Transport.send
    Wire::open('y'); // @static-alias open src/Net/Transport.php:Transport.open
    $l = new \App\Log\Transport(); // @new-absolute Transport src/Log/Transport.php:Transport
    $l->send(2); // @absolute-local send src/Log/Transport.php:Transport.send
    $n = new Net\Transport(); // @new-relative Transport src/Net/Transport.php:Transport
    $n->send(3); // @relative-local send src/Net/Transport.php:Transport.send
    $w->again()->send(6); // @declared-return send src/Net/Transport.php:Transport.send
    $r = $w->again();
    $r->send(7); // @declared-return-local send src/Net/Transport.php:Transport.send
    $h->shut(); // @missing - shut -
    Net\Stream::make()->handle(2); // @static-return handle src/Net/Stream.php:Stream.handle
    $d = $h;
    $d->send(4); // @untyped-local - send -
    $$d->send(5); // @variable-variable - send -
    $a = new \ArrayObject([]);
    return $a->count();
}

function shut(Core\Handler $x)
{
    $x->close(); // @trait-before-interface close src/Core/Closes.php:Closes.close
}

/**
 * Docblock types: what the code does not declare.
 *
 * @param Wire $t a transport
 * @param \App\Log\Transport|null $maybe
 * @param Wire[] $many
 * @param string $name
 */
function documented($t, $maybe, $many, $name, Net\Stream $typed)
{
    $t->send(1); // @param-docblock send src/Net/Transport.php:Transport.send
    $maybe->send(2); // @param-docblock-nullable send src/Log/Transport.php:Transport.send
    $many->send(3); // @param-docblock-array - send -
    /** @var Wire $w */
    $w = Wire::open('z');
    $w->send(4); // @var-docblock send src/Net/Transport.php:Transport.send
    /** @var Log\Transport */
    $l = $many;
    $l->send(5); // @var-docblock-unnamed send src/Log/Transport.php:Transport.send
    foreach ($many as $item) {
        /** @var Wire $item */
        $item->send(6); // @var-docblock-foreach send src/Net/Transport.php:Transport.send
    }
    return $name;
}

class Keeper
{
    /** @var Wire */
    private $wire;

    public function keep()
    {
        $this->wire->send(7); // @var-docblock-property send src/Net/Transport.php:Transport.send
        $held = $this->wire;
        $held->send(8); // @local-from-property send src/Net/Transport.php:Transport.send
    }
}
""",
    "src/checks.php": r"""<?php
namespace App;

use App\Core\Sink;
use App\Net\Stream;
use App\Net\Transport;

class Checked
{
    public Transport $wire;
    private Sink $sink;
    private Checked $inner;

    public function run(Sink $s, $any, $flag)
    {
        if ($s instanceof Stream) {
            $s->relay(1); // @instanceof-if relay src/Net/Stream.php:Stream.relay
        }
        if ($this->sink instanceof Stream) {
            $this->sink->relay(2); // @instanceof-property relay src/Net/Stream.php:Stream.relay
        }
        if ($flag && $any instanceof Transport
            && $any->send(3)) { // @instanceof-and send src/Net/Transport.php:Transport.send
            $any->again(); // @instanceof-and-body again src/Net/Transport.php:Transport.again
        }
        $t = $any instanceof Transport
            ? $any->send(4) // @instanceof-ternary send src/Net/Transport.php:Transport.send
            : null;
        if (!$any instanceof Transport) {
            $any->send(5); // @instanceof-negated - send -
        }
        if ($any instanceof Transport) {
            $t = 1;
        } else {
            $any->send(6); // @instanceof-else - send -
        }
        if ($any instanceof Transport || $flag) {
            $any->send(7); // @instanceof-or - send -
        }
        $s->relay(8); // @instanceof-after - relay -
        $this->inner->wire->send(9); // @prop-of-prop send src/Net/Transport.php:Transport.send
        return $t;
    }

    public function recorded(Core\Recorder $r)
    {
        $r->hasInfo('a'); // @doc-method hasInfo src/Core/Recorder.php:Recorder.hasInfo
        Core\Recorder::named('b'); // @doc-method-static named src/Core/Recorder.php:Recorder.named
        $r->close(); // @doc-method-in-code close src/Core/Recorder.php:Recorder.close
        $r->hasDebug('c'); // @doc-method-undeclared - hasDebug -
        $r->wire->send(38); // @magic-property send src/Net/Transport.php:Transport.send
    }

    /** @var Transport[] */
    private array $wires;
    /** @var list<Stream> */
    private $streams;

    /**
     * @param array<string, Transport> $byName
     */
    public function each(array $byName, array $plain)
    {
        foreach ($this->wires as $w) {
            $w->send(11); // @foreach-array-property send src/Net/Transport.php:Transport.send
        }
        foreach ($this->streams as $key => $s) {
            $s->relay(12); // @foreach-list-property relay src/Net/Stream.php:Stream.relay
        }
        foreach ($byName as $name => $t) {
            $t->send(13); // @foreach-generic-param send src/Net/Transport.php:Transport.send
            $name->send(14); // @foreach-key - send -
        }
        foreach ($plain as $p) {
            $p->send(15); // @foreach-undocumented - send -
        }
        /** @var Transport[] $local */
        $local = $plain;
        foreach ($local as $l) {
            $l->send(16); // @foreach-var-local send src/Net/Transport.php:Transport.send
        }
        foreach ($this->wires as $v) {
            $v = $p;
            $v->send(17); // @foreach-reassigned - send -
        }
        return $name;
    }

    public function rebound(Transport $t, Transport $w, Transport $u, Transport $d)
    {
        $t = $t->copy();
        $t->send(18); // @rebound-declared send src/Net/Transport.php:Transport.send
        $w = $w->again();
        $w->send(19); // @rebound-static send src/Net/Transport.php:Transport.send
        $u = $u->send(1);
        $u->send(20); // @rebound-undeclared - send -
        $d = $d->other();
        $d->send(21); // @rebound-other-class - send -
    }

    const TOP = null;

    public function levels(Core\Level $given, Checked $c)
    {
        Core\Level::Error->above($given); // @enum-case above src/Core/Level.php:Level.above
        $l = Core\Level::Debug;
        $l->above($given); // @enum-case-local above src/Core/Level.php:Level.above
        Checked::TOP->itself(); // @class-constant - itself -
        $c = $c->itself();
        $c->wire->send(22); // @rebound-property send src/Net/Transport.php:Transport.send
    }

    public function itself(): Checked
    {
        return $this;
    }

    public function held(Transport|null $n, array $plain)
    {
        $n->send(23); // @nullable-union send src/Net/Transport.php:Transport.send
        $fn = function () use ($n) {
            $n->send(24); // @closure-use send src/Net/Transport.php:Transport.send
        };
        $m = $n->copy();
        $m = $m->copy();
        $m->send(25); // @rebound-chain send src/Net/Transport.php:Transport.send
        $this->wires['a']->send(26); // @property-element send src/Net/Transport.php:Transport.send
        /** @var Transport[] $local */
        $local = $plain;
        $local[0]->send(27); // @variable-element send src/Net/Transport.php:Transport.send
        /** @var Transport[] $fresh */
        $fresh = [];
        $fresh->send(39); // @array-itself - send -
        $e = $this->wires[1];
        $e->send(28); // @element-local send src/Net/Transport.php:Transport.send
        $plain[0]->send(29); // @element-undocumented - send -
        self::$shared->send(30); // @static-property send src/Net/Transport.php:Transport.send
        static::$documented->relay(31); // @static-docblock relay src/Net/Stream.php:Stream.relay
        return $fn;
    }

    public function both(Transport&Sink $x)
    {
        $x->send(34); // @intersection send src/Net/Transport.php:Transport.send
        $x->close(); // @intersection-other close src/Core/Sink.php:Sink.close
        $this->twice->send(36); // @intersection-twice - send -
        $this->counted->send(35); // @intersected-property send src/Net/Transport.php:Transport.send
        return $this->counted->getIterator(); // @intersection-outside - getIterator -
    }

    private Transport&\IteratorAggregate $counted;
    private Transport&\App\Log\Transport $twice;
    private static Transport $shared;
    /** @var Stream */
    private static $documented;
}

class Legacy
{
    private $wire;
    private $given;
    private $either;

    public function __construct(Transport $t)
    {
        $this->wire = new Transport();
        $this->given = $t;
        $this->either = new Transport();
        $u = $t;
        $u->send(40); // @local-from-variable send src/Net/Transport.php:Transport.send
    }

    public function swap()
    {
        $this->either = new Log\Transport();
    }

    public function run()
    {
        $this->wire->send(41); // @assigned-property send src/Net/Transport.php:Transport.send
        $this->given->send(42); // @assigned-parameter send src/Net/Transport.php:Transport.send
        $this->either->send(43); // @assigned-two-classes - send -
    }
}

class Pool
{
    /**
     * @param Transport[] $wires
     * @param Transport $first
     */
    public function __construct(private iterable $wires, private $first)
    {
    }

    public function drain()
    {
        foreach ($this->wires as $w) {
            $w->send(32); // @promoted-array send src/Net/Transport.php:Transport.send
        }
        $this->first->send(33); // @promoted-docblock send src/Net/Transport.php:Transport.send
    }
}

function chained(Checked $c)
{
    $c->wire->send(10); // @variable-property send src/Net/Transport.php:Transport.send
}
""",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> SymbolGraph:
    return indexed(committed(tmp_path_factory, "php-calls", FILES))


@pytest.mark.parametrize(
    ("form", "path", "line", "name", "expected"), target_marked(FILES), ids=lambda v: str(v)
)
def test_a_call_resolves_where_the_language_server_lands(
    graph: SymbolGraph, form: str, path: str, line: int, name: str, expected: str
) -> None:
    assert_written_target(graph, form, path, line, name, expected)


def test_a_class_outside_the_repository_is_outside(graph: SymbolGraph) -> None:
    [site] = graph.callers("count")
    assert (site.target, site.outside, site.resolved) == ("ArrayObject.count", True, False)


def test_bases_are_found_by_their_whole_name(graph: SymbolGraph) -> None:
    handler = graph._by_full["src/Net/Stream.php.Stream"]
    assert graph.resolved_bases(handler) == ["src/Core/Handler.php.Handler"]
    [interface] = graph.resolved_bases(graph._by_full["src/Core/Handler.php.Handler"])
    assert interface == "src/Core/Sink.php.Sink"


def test_a_method_its_class_docblock_declares_is_defined_on_its_tag(graph: SymbolGraph) -> None:
    # where intelephense's "go to definition" lands from a call of it (checked with --marks)
    found = graph._by_full["src/Core/Recorder.php.Recorder.hasInfo"]
    assert (found.kind, found.line, found.start_line, found.end_line) == ("method", 7, 7, 7)
    assert found.signature == "@method bool hasInfo(string $message)"
    named = graph._by_full["src/Core/Recorder.php.Recorder.named"]
    assert named.line == 8
    close = graph._by_full["src/Core/Recorder.php.Recorder.close"]  # declared in code too
    assert (close.line, close.signature) == (33, "public function close()")
