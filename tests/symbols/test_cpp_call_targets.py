"""C++ call sites tied to what their declared types and scopes name, against GCC: a small real
git repository (a library in a namespace, a program using it), indexed as a user's would be,
and GCC's call graph of every file (``g++ -fcallgraph-info``, read by
``eval/c_references_truth.py``). Each marked call must land where GCC lands; a mark ``-`` is a
call whose receiver's type the code does not state there (``auto``, a standard library's
type, a pointer to a function): it stays by name. And no call of the repository is tied
anywhere GCC does not tie it."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import (
    Answers,
    committed,
    compiler,
    gcc_answers,
    indexed,
    lands,
    marked,
    tied_only_where,
)

FILES = {
    "include/shop/item.h": (
        "#pragma once\n"
        "#define SHOP_API\n"
        "namespace shop {\n"
        "struct Item {\n"
        "  int price;\n"
        "  int cost() const { return price; }\n"
        "  void reset() { price = 0; }\n"
        "  int weigh(int a, int b) const { return a + b; }\n"
        "  int weigh(int a) const;\n"
        "  Item* next;\n"
        "};\n"
        "inline int blend(int a, int b) { return a + b; }\n"
        "SHOP_API inline Item* kept_item() { static Item kept{1, nullptr}; return &kept; }\n"
        "typedef Item Piece;\n"
        "using Part = Piece;\n"
        "}  // namespace shop\n"
    ),
    "include/shop/store.h": (
        "#pragma once\n"
        "#include <memory>\n"
        "#include <vector>\n"
        '#include "shop/item.h"\n'
        "namespace shop {\n"
        "class Base {\n"
        " public:\n"
        "  int base_total() const { return 1; }\n"
        "};\n"
        "\n"
        "class Store : public Base {\n"
        " public:\n"
        "  explicit Store(int n);\n"
        "  int total() const;\n"
        "  int add(const Item& item);\n"
        "  static Store* make();\n"
        "  Item first() const;\n"
        "  class Shelf {\n"
        "   public:\n"
        "    int count() const;\n"
        "    Item top;\n"
        "  };\n"
        "  Shelf shelf;\n"
        "\n"
        " private:\n"
        "  int helper() const { return count_; }\n"
        "  int count_;\n"
        "  Item last_;\n"
        "  std::unique_ptr<Item> spare_;\n"
        "};\n"
        "\n"
        "namespace util {\n"
        "int twice(int x);\n"
        "}\n"
        "\n"
        "int free_fn(int x);\n"
        "int blend(int a);\n"
        "int size(int x);\n"
        "\n"
        "class Queue : public std::vector<int> {\n"
        " public:\n"
        "  int count() const {\n"
        "    return size();  // @inherited-outside - size\n"
        "  }\n"
        "};\n"
        "}  // namespace shop\n"
    ),
    "src/store.cpp": (
        '#include "shop/store.h"\n'
        "\n"
        "namespace shop {\n"
        "Store::Store(int n) : count_(n), last_{n} {}\n"
        "\n"
        "int Store::total() const {\n"
        "  int sum = helper();  // @implicit-this helper\n"
        "  sum += this->helper();  // @this helper\n"
        "  sum += base_total();  // @inherited base_total\n"
        "  sum += last_.cost();  // @field cost\n"
        "  sum += this->last_.cost();  // @this-field cost\n"
        "  sum += spare_->cost();  // @owning-pointer cost\n"
        "  sum += last_.next->next->cost();  // @fields-on cost\n"
        "  sum += this->shelf.count();  // @outside-nested count\n"
        "  return sum + first().cost();  // @returned cost\n"
        "}\n"
        "\n"
        "int Store::add(const Item& item) {\n"
        "  count_ += item.cost();  // @parameter cost\n"
        "  count_ += Store(2).total();  // @constructed-here total\n"
        "  spare_.reset();  // @owning-pointer-own - reset\n"
        "  return count_;\n"
        "}\n"
        "\n"
        "Store* Store::make() { return new Store(1); }\n"
        "\n"
        "Item Store::first() const { return last_; }\n"
        "\n"
        "int Store::Shelf::count() const {\n"
        "  int n = top.cost();  // @nested-field cost\n"
        "  return n + top.next->cost();  // @nested-field-on cost\n"
        "}\n"
        "\n"
        "int size(int x) { return x; }\n"
        "\n"
        "int blend(int a) { return a; }\n"
        "\n"
        "int Item::weigh(int a) const { return a; }\n"
        "\n"
        "int util::twice(int x) { return 2 * x; }\n"
        "\n"
        "int free_fn(int x) {\n"
        "  Store s(x);\n"
        "  Store* p = Store::make();  // @static make\n"
        "  int (*size)(int) = free_fn;\n"
        "  int r = s.total();  // @constructed total\n"
        "  r += p->add(Item{x});  // @pointer add\n"
        "  r += util::twice(r);  // @namespace-function twice\n"
        "  return r + size(x);  // @function-pointer - size\n"
        "}\n"
        "}  // namespace shop\n"
    ),
    "app/tool.cpp": (
        '#include "shop/store.h"\n'
        "\n"
        "using shop::Store;\n"
        "\n"
        "namespace {\n"
        "int local_count() { return 1; }\n"
        "}  // namespace\n"
        "\n"
        "int tool() {\n"
        "  Store s(3);\n"
        "  return s.total();  // @using-declaration total\n"
        "}\n"
    ),
    "include/shop/ledger.h": ("#pragma once\nclass Ledger {\n public:\n  int sum() const;\n};\n"),
    "include/shop/counter.h": (  # one class or the other, as the preprocessor chooses
        "#pragma once\n"
        "#include <exception>\n"
        "inline int scale(int x) { return 2 * x; }\n"
        "inline int add() { return 0; }  // hidden in Counter by its own add\n"
        "#ifdef SHOP_SMALL\n"
        "class Counter {\n"
        " public:\n"
        "  int add() { return 1; }\n"
        "  int twice() { return add() * 2; }\n"
        "};\n"
        "#else\n"
        "class Counter {\n"
        " public:\n"
        "  int add() { return 2; }\n"
        "  int twice() { return add() * 3; }  // @two-classes-own - add\n"
        "  int scaled() { return scale(4); }  // @two-classes-function scale\n"
        "};\n"
        "#endif\n"
        "#ifdef SHOP_SMALL\n"
        "class Meter : public std::exception {\n"
        " public:\n"
        "  int read() const { return scale(1); }\n"
        "};\n"
        "#else\n"
        "class Meter : public std::exception {\n"
        " public:\n"
        "  int read() const { return scale(2); }  // @two-classes-outside - scale\n"
        "};\n"
        "#endif\n"
    ),
    "src/ledger.cpp": (  # a namespace a macro names, when it is defined: not here
        '#include "shop/ledger.h"\n'
        "\n"
        "#ifdef SHOP_LEGACY_NAMESPACE\n"
        "namespace SHOP_LEGACY_NAMESPACE {\n"
        "#endif\n"
        "\n"
        "int Ledger::sum() const { return 1; }\n"
        "\n"
        "class Book {\n"
        " public:\n"
        "  int total() const;\n"
        "  Ledger ledger;\n"
        "};\n"
        "\n"
        "int Book::total() const {\n"
        "  return ledger.sum();  // @macro-namespace-field sum\n"
        "}\n"
        "\n"
        "#ifdef SHOP_LEGACY_NAMESPACE\n"
        "}  // namespace SHOP_LEGACY_NAMESPACE\n"
        "#endif\n"
    ),
    "test/testing.h": (  # a test framework's macro, as googletest writes it
        "#pragma once\n"
        "namespace testing {\n"
        "class Test {\n"
        " public:\n"
        "  virtual ~Test() {}\n"
        "};\n"
        "}  // namespace testing\n"
        "#define TEST_F(fixture, name) \\\n"
        "  class fixture##_##name##_Test : public fixture { \\\n"
        "   public: \\\n"
        "    void TestBody(); \\\n"
        "  }; \\\n"
        "  void fixture##_##name##_Test::TestBody()\n"
    ),
    "test/store_test.cpp": (
        "#include <exception>\n"
        "\n"
        '#include "shop/store.h"\n'
        '#include "testing.h"\n'
        "\n"
        "namespace shop {\n"
        "namespace {\n"
        "class StoreTest : public testing::Test {\n"
        " protected:\n"
        "  int stocked() { return kept_.cost(); }  // @anonymous-namespace-field cost\n"
        "  Item kept_;\n"
        "};\n"
        "\n"
        "int stocked() { return 0; }\n"
        "}  // namespace\n"
        "\n"
        "class OutsideTest : public std::exception {};\n"
        "\n"
        "TEST_F(OutsideTest, Sizes) {\n"
        "  int n = size(1);  // @fixture-outside-base size\n"
        "  n += n;\n"
        "}\n"
        "\n"
        "#define ALIASED(name) using name##Alias = StoreTest\n"
        "ALIASED(Store);\n"
        "\n"
        "TEST_F(StoreAlias, Restocks) {  // a fixture a macro names\n"
        "  int n = stocked();  // @fixture-unknown - stocked\n"
        "  n += n;\n"
        "}\n"
        "\n"
        "TEST_F(StoreTest, Stocks) {\n"
        "  int n = stocked();  // @fixture stocked\n"
        "  n += kept_.cost();  // @fixture-field cost\n"
        "  n += size(n);  // @fixture-function size\n"
        "}\n"
        "}  // namespace shop\n"
    ),
    "include/shop/rack.h": (
        "#pragma once\n"
        "#include <memory>\n"
        "#include <vector>\n"
        '#include "shop/item.h"\n'
        "namespace shop {\n"
        "namespace detail {\n"
        "typedef std::vector<Item*> items;\n"
        "using item_ptr = std::shared_ptr<Item>;\n"
        "int weight(int x);\n"
        "}  // namespace detail\n"
        "class Rack {\n"
        " public:\n"
        "  int sum() const;\n"
        "  std::vector<Item> slots_;\n"
        "  std::vector<Item*> loose_;\n"
        "  detail::items listed_;\n"
        "  detail::item_ptr held_;\n"
        "  std::vector<detail::item_ptr> shared_;\n"
        "};\n"
        "}  // namespace shop\n"
    ),
    "src/rack.cpp": (
        '#include "shop/rack.h"\n'
        "\n"
        "namespace shop {\n"
        "namespace detail {\n"
        "int weight(int x) { return x; }\n"
        "}  // namespace detail\n"
        "\n"
        "using detail::weight;\n"
        "\n"
        "int heavy = weight(3);  // @top-level-using weight\n"
        "\n"
        "int Rack::sum() const {\n"
        "  std::vector<Item> local(1);\n"
        "  detail::items listed = listed_;\n"
        "  int n = local[0].cost();  // @local-element cost\n"
        "  n += slots_[0].cost();  // @field-element cost\n"
        "  n += this->loose_[0]->cost();  // @field-element-pointer cost\n"
        "  n += listed_[0]->cost();  // @alias-element cost\n"
        "  n += listed[0]->cost();  // @local-alias-element cost\n"
        "  n += held_->cost();  // @alias-owning cost\n"
        "  n += shared_[0]->cost();  // @element-alias-owning cost\n"
        "  for (auto* it : listed_) {\n"
        "    n += it->cost();  // @range-field cost\n"
        "  }\n"
        "  n += static_cast<int>(held_.use_count());  // @alias-owning-own - use_count\n"
        "  n += static_cast<int>(slots_.size());  // @field-container - size\n"
        "  return n + weight(n);  // @relative-using-declaration weight\n"
        "}\n"
        "}  // namespace shop\n"
    ),
    "tools/one.cpp": (  # two programs, each with a helper of the same name
        '#include "util.h"\n'
        "int check(int x) { return x; }\n"
        "int run_one() { return check(1); }  // @own-file check\n"
        "int open_log(int& fd) { return fd; }  // not the one a call without arguments makes\n"
        "int run_log() { return open_log(); }  // @default-argument-elsewhere - open_log\n"
    ),
    "amalgamated/shop_all.hpp": (  # the library's headers in one, as a release ships them
        "#pragma once\n"
        "namespace shop {\n"
        "class Lamp {\n"
        " public:\n"
        "  int on() { return 1; }\n"
        "};\n"
        "inline int lamp_count() { return 1; }\n"
        "}  // namespace shop\n"
    ),
    "include/shop/lamp.h": (
        "#pragma once\n"
        "namespace shop {\n"
        "class Lamp {\n"
        " public:\n"
        "  int on() { return 1; }\n"
        "};\n"
        "inline int lamp_count() { return 1; }\n"
        "struct Level {\n"
        "  int value;\n"
        "};\n"
        "int dim(int level, int step);  // defined in src/lamp.cpp\n"
        "inline int dim(const Level& level, int step) { return level.value - step; }\n"
        "}  // namespace shop\n"
    ),
    "src/lamp.cpp": (
        '#include "shop/lamp.h"\n'
        "namespace shop {\n"
        "int dim(int level, int step) { return level - step; }\n"
        "}  // namespace shop\n"
    ),
    "app/lamps.cpp": (
        '#include "shop/lamp.h"\n'
        "int light() {\n"
        "  shop::Lamp lamp;\n"
        "  int n = lamp.on();  // @included-copy on\n"
        "  n += shop::dim(3, 1);  // @overload-defined-elsewhere - dim\n"
        "  return n + shop::lamp_count();  // @included-copy-function lamp_count\n"
        "}\n"
    ),
    "src/markup.cpp": (  # namespaces a source file's own macros open and close
        '#include "shop/item.h"\n'
        "#ifdef SHOP_FLAT\n"
        "#define SHOP_DETAIL_BEGIN namespace shop { namespace detail {\n"
        "#define SHOP_DETAIL_END } }\n"
        "#else\n"
        "#define SHOP_DETAIL_BEGIN \\\n"
        "  namespace shop { namespace detail { namespace {\n"
        "#define SHOP_DETAIL_END } } }\n"
        "#endif\n"
        "\n"
        "SHOP_DETAIL_BEGIN\n"
        "int markup(int x) { return x * 2; }\n"
        "Item stocked(int n) { return Item{n}; }\n"
        "SHOP_DETAIL_END\n"
        "\n"
        "SHOP_DETAIL_BEGIN  // again\n"
        "int markdown(int x) { return markup(x) - 1; }  // @namespace-macro-inside markup\n"
        "SHOP_DETAIL_END\n"
        "\n"
        "namespace shop {\n"
        "int priced(int n) {\n"
        "  int r = detail::markup(n);  // @namespace-macro markup\n"
        "  Item made(detail::stocked(n));\n"
        "  r += made.cost();  // @constructed-from-call cost\n"
        "  Item copy(made);\n"
        "  return r + copy.cost() + detail::markdown(r);  // @constructed-from-name cost\n"
        "}\n"
        "}  // namespace shop\n"
    ),
    "src/wire.cpp": (  # a conditional group inside a call's arguments
        "#include <sys/socket.h>\n"
        '#include "shop/item.h"\n'
        "namespace shop {\n"
        "long wire_read(int sock, char* ptr, long size) {\n"
        "  return recv(sock,\n"
        "#ifdef _WIN32\n"
        "              static_cast<char*>(ptr), static_cast<int>(size),\n"
        "#else\n"
        "              ptr, size,\n"
        "#endif\n"
        "              0);\n"
        "}\n"
        "long wire_write(int sock, const char* ptr, long size) {\n"
        "  return send(sock,\n"
        "#ifdef _WIN32\n"
        "              static_cast<const char*>(ptr), static_cast<int>(size),\n"
        "#else\n"
        "              ptr, size,\n"
        "#endif\n"
        "              0);\n"
        "}\n"
        "int wire_cost(const Item& item) { return item.cost() + 1; }  // @after-branches cost\n"
        "}  // namespace shop\n"
    ),
    "include/till/config.h": (  # namespaces macros open, in a header the others include
        "#pragma once\n"
        "#define TILL_BEGIN_NAMESPACE \\\n"
        "  namespace till {         \\\n"
        "  inline namespace v2 {\n"
        "#define TILL_END_NAMESPACE } }\n"
        "#define TILL_BEGIN_DETAIL namespace detail {\n"
        "#define TILL_END_DETAIL }\n"
    ),
    "include/till/tally.h": (
        "#pragma once\n"
        '#include "till/config.h"\n'
        "TILL_BEGIN_NAMESPACE\n"
        "TILL_BEGIN_DETAIL\n"
        "inline int tally_of(int a) { return a + 1; }\n"
        "TILL_END_DETAIL\n"
        "class Tally {\n"
        " public:\n"
        "  int tally_of(int a) const {\n"
        "    return detail::tally_of(a) * 2;  // @hidden-detail tally_of\n"
        "  }\n"
        "  int count() const { return 3; }\n"
        "};\n"
        "inline int tally_twice(int a) { return detail::tally_of(a) + 1; }\n"
        "TILL_END_NAMESPACE\n"
    ),
    "app/tally_main.cpp": (
        '#include "till/tally.h"\n'
        "int tally_main() {\n"
        "  till::Tally t;\n"
        "  int n = t.count();  // @hidden-namespace-type count\n"
        "  return n + till::tally_twice(n) + t.tally_of(n);  // @hidden-namespace tally_twice\n"
        "}\n"
    ),
    "tools/util.h": "#pragma once\nint open_log(int* fd = nullptr);\n",
    "tools/util.cpp": '#include "util.h"\nint open_log(int* fd) { return fd ? *fd : 0; }\n',
    "tools/two.cpp": (
        "int check(int x) { return x + 1; }\n"
        "int run_two() { return check(2); }  // @own-file-two check\n"
    ),
    "app/main.cpp": (
        "#include <vector>\n"
        "\n"
        '#include "shop/counter.h"\n'
        '#include "shop/ledger.h"\n'
        '#include "shop/store.h"\n'
        "\n"
        "using namespace shop;\n"
        "\n"
        "namespace {\n"
        "int local_count() { return 2; }\n"
        "}  // namespace\n"
        "\n"
        "int main() {\n"
        "  int n = local_count();  // @anonymous-namespace local_count\n"
        "  Store s(2);\n"
        "  int r = s.total();  // @using-namespace total\n"
        "  r += shop::free_fn(r);  // @qualified free_fn\n"
        "  r += shop::util::twice(r);  // @qualified-twice twice\n"
        "  r += ::shop::free_fn(r);  // @global-qualified free_fn\n"
        "  r += ::local_count();  // @global-function - local_count (or ::close, the C library's)\n"
        "  r += free_fn(r);  // @used-function free_fn\n"
        "  std::vector<int> v;\n"
        "  v.push_back(r);  // @standard - push_back\n"
        "  auto q = Store::make();  // @static-used make\n"
        "  r += q->total();  // @auto-returned total\n"
        "  auto kept = kept_item();\n"
        "  r += kept->cost();  // @macro-returned cost (SHOP_API Item* kept_item())\n"
        "  auto* m = new Store(4);\n"
        "  r += m->total();  // @auto-new total\n"
        "  auto c = Store(5);\n"
        "  r += c.total();  // @auto-constructed total\n"
        "  auto i = Item{1};\n"
        "  r += i.cost();  // @auto-braces cost\n"
        "  auto o = std::make_unique<Item>();\n"
        "  r += o->cost();  // @auto-owning cost\n"
        "  o.reset();  // @auto-owning-own - reset\n"
        "  auto f = q->first();\n"
        "  r += f.cost();  // @auto-method cost\n"
        "  Piece p{2};\n"
        "  r += p.cost();  // @typedef cost\n"
        "  Part t{3};\n"
        "  r += t.cost();  // @alias-of-alias cost\n"
        "  r += q->shelf.top.cost();  // @auto-fields cost\n"
        "  delete m;\n"
        "  auto y = i;\n"
        "  r += y.cost();  // @auto-copy cost\n"
        "  std::vector<Item> items(2);\n"
        "  for (const auto& it : items) {\n"
        "    r += it.cost();  // @range-auto cost\n"
        "  }\n"
        "  r += static_cast<int>(items.size());  // @container - size\n"
        "  std::vector<std::unique_ptr<Item>> owned;\n"
        "  for (auto& o : owned) {\n"
        "    r += o->cost();  // @range-owning cost\n"
        "  }\n"
        "  r += blend(r);  // @overload-one blend\n"
        "  r += blend(r, 2);  // @overload-two blend\n"
        "  r += i.weigh(1);  // @method-overload-one weigh\n"
        "  r += i.weigh(1, 2);  // @method-overload-two weigh\n"
        "  Ledger l;\n"
        "  r += l.sum();  // @macro-namespace sum\n"
        "  Counter k;\n"
        "  r += k.add();  // @two-classes - add\n"
        "  r += k.twice() + k.scaled();\n"
        "  Meter meter;\n"
        "  r += meter.read();\n"
        "  return n + r + s.first().cost();  // @chain cost\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def cxx() -> str:
    """GCC's C++ compiler (its call graph is the truth)."""
    return compiler("CXX", "g++", "GCC's call graph is the truth")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "cpp-calls", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def calls(repo: Path, cxx: str) -> Answers:
    """(path, line, called name) -> the definitions GCC ties the call to (path, line)."""
    return gcc_answers(repo, sorted(FILES), cxx=cxx)


@pytest.mark.parametrize("mark", marked(FILES), ids=lambda m: f"{m[0]}-{m[1]}-{m[2]}")
def test_a_call_resolves_where_gcc_lands(
    graph: SymbolGraph, calls: Answers, mark: tuple[str, str, int, str, bool]
) -> None:
    lands(graph, calls, mark, "GCC")


def test_no_call_is_tied_where_gcc_does_not_tie_it(graph: SymbolGraph, calls: Answers) -> None:
    assert not tied_only_where(graph, calls, at_least=14)  # nothing is resolved outside
    # the standard library's method is answered, with no function of the repository
    assert calls[("app/main.cpp", _line("app/main.cpp", "v.push_back"), "push_back")] == set()
    # std::unique_ptr's own
    assert calls[("src/store.cpp", _line("src/store.cpp", "spare_.reset"), "reset")] == set()
    assert calls[("app/main.cpp", _line("app/main.cpp", "o.reset"), "reset")] == set()


def _line(path: str, text: str) -> int:
    """The line of ``path`` (in ``FILES``) that holds ``text``."""
    return next(n for n, line in enumerate(FILES[path].splitlines(), 1) if text in line)
