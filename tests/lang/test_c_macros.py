"""C and C++ that tree-sitter cannot read without a preprocessor, against universal-ctags:
functions a test framework's macro names, statement macros that leave braces unbalanced,
macros that are types, annotation macros after a function's parameters, macro statements at
the top level, conversion operators and explicit specialisations. Each source is written
here; ctags' definitions of it are the truth (``make install-system`` installs ctags; CI
fails rather than skips without it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.lang import parse_file
from eval_scripts import load_script

pytestmark = pytest.mark.usefixtures("needs_ctags")

FIXTURE_TEST_C = """\
#include "unity_fixture.h"

TEST_GROUP(Parser);

static int counter;

TEST_SETUP(Parser)
{
    counter = 1;
}

TEST_TEAR_DOWN(Parser)
{
}

TEST(Parser, ReadsANumber)
{
    TEST_ASSERT_EQUAL(1, counter);
}

IGNORE_TEST(Parser, ReadsAString)
{
    TEST_ASSERT_EQUAL(2, counter);
}

TEST_GROUP_RUNNER(Parser)
{
    RUN_TEST_CASE(Parser, ReadsANumber);
}

static void walk(struct node *list)
{
    struct node *item;
    LIST_FOREACH(item, list)
    {
        visit(item);
    }
}
"""

SPY_TEST_C = """\
#include "unity.h"

#define EXPECT_ABORT_BEGIN \\
    start_spy();           \\
    if (TEST_PROTECT())    \\
    {

#define VERIFY_FAILS_END \\
    }                    \\
    end_spy();

typedef UNITY_UINT32 UNITY_UINT;

PARSER_PUBLIC(const char *) parser_version(void)
{
    return "1.0";
}

UNITY_INTERNAL_PTR number_to_pointer(const UNITY_INT num)
{
    return (UNITY_INTERNAL_PTR)num;
}

void testNotEqualInts(void)
{
    EXPECT_ABORT_BEGIN
    TEST_ASSERT_EQUAL_INT(1, 2);
    VERIFY_FAILS_END
}

void testNotEqualArrays(void)
{
    UNITY_UINT32 p0[1] = {1};
    UNITY_UINT32 p1[1] = {2};

    EXPECT_ABORT_BEGIN
    TEST_ASSERT_EQUAL_UINT32_ARRAY(p0, p1, 1);
    VERIFY_FAILS_END
}

void testEqualArrays(void)
{
    UNITY_UINT32 p0[1] = {1};
    TEST_ASSERT_EQUAL_UINT32_ARRAY(p0, p0, 1);
}

int CJSON_CDECL main(void)
{
    UNITY_BEGIN();
    RUN_TEST(testNotEqualInts);
    return UNITY_END();
}
"""

MOCK_HPP = """\
#include <mutex>

#define DECLARE_KIND_(type, kind) \\
  template <> struct KindOf<type> { enum { value = kind }; }

DECLARE_KIND_(unsigned char, kInteger);
DECLARE_KIND_(long double, kFloatingPoint);

#define EXPECT_KIND(value) \\
  CHECK_KIND_(value, NONFATAL_FAILURE_)
#define ASSERT_KIND(value) \\
  CHECK_KIND_(value, FATAL_FAILURE_)

namespace mock {

template <typename T> struct ConstRef { typedef const T& type; };
typedef Generator<int>(GeneratorFunc)();

template <typename T> constexpr auto digits10() noexcept -> int { return 10; }
template <> constexpr auto digits10<long long>() noexcept -> int { return 19; }

class MOCK_VISIBILITY("default") mock_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Expectation {
 public:
  explicit operator bool() const { return active_; }
  operator const char*() const { return "expectation"; }
  template <typename F> operator Action<F>() const { return Action<F>(); }
  template <typename R, typename... Args>
  operator Callback<R(Args...)>() const { return Callback<R(Args...)>(); }

  bool is_retired() const
      MOCK_LOCK_REQUIRED_(g_mutex) {
    return retired_;
  }

  void Retire() MOCK_LOCK_REQUIRED_(g_mutex) {
    retired_ = true;
  }

 private:
  bool active_ = true;
  bool retired_ = false;
};

Expectation::operator int() const { return 1; }

}  // namespace mock
"""

MESSAGE_HPP = """\
#ifndef SHOP_MESSAGE_H_
#define SHOP_MESSAGE_H_

#include <string>

SHOP_DISABLE_WARNINGS_PUSH_(4251 \\
/* class A needs to have dll-interface to be used by clients of class B */)

namespace shop {

class SHOP_API_ Message {
 public:
  Message() {}
  Message(const Message& other) : text_(other.text_) {}

  template <typename T>
  Message& operator<<(const T& value) {
    text_ += value;
    return *this;
  }

  int size() const { return static_cast<int>(text_.size()); }

 private:
  std::string text_;
};

inline int operator<<(int a, const Message& m) { return a + m.size(); }

class SHOP_API_ [[nodiscard]] Result {
 public:
  friend class Message;
  Result() = default;
  virtual ~Result();
  bool ok() const { return ok_; }

 private:
  bool ok_ = true;
};

}  // namespace shop

SHOP_DISABLE_WARNINGS_POP_()  //  4251

#endif  // SHOP_MESSAGE_H_
"""

TYPEDEFS_H = """\
typedef int (*ini_handler)(void *user, const char *section);
typedef void *Handle;
typedef void unityfunction(void);
typedef char **Names;
typedef int Quad[4];
"""

LOOPS_C = """\
void walk(struct node *list)
{
    struct node *item;
    list_for_each(item, list)
    {
        visit(item);
    }
    list_for_each_reverse(item, list)
    {
        visit(item);
    }
}
"""


def many_spies() -> str:
    """Five copies of the spy tests, renamed, and two loop macros: read as it is, the whole
    file is one ERROR node; with the macros blanked only the loops' two missing semicolons
    are left, and that reading must win."""
    head, _, rest = SPY_TEST_C.partition("void testNotEqualInts")
    tests = "void testNotEqualInts" + rest.split("int CJSON_CDECL")[0]
    copies = [
        tests.replace("testNotEqual", f"testNotEqual{i}_").replace("testEqual", f"testEqual{i}_")
        for i in range(5)
    ]
    return head + "".join(copies) + LOOPS_C


# conditional compilation inside a call's arguments, branches that open a class's body
# differently, a branch that closes a block before it opens one (} else {), a branch that
# ends with a loop's head, a header's name in #if, a statement
# macro whose string holds parentheses (none of which the grammar reads as written); two
# branches that each define a function (both stay)
SOCKET_CPP = """\
#include <string>
#if defined(__has_include)
#if __has_include(<sys/un.h>)
#include <sys/un.h>
#endif
#endif

namespace net {

inline long read_some(int sock, char *ptr, long size, int flags) {
  return recv(sock,
#ifdef _WIN32
              static_cast<char *>(ptr), static_cast<int>(size),
#else
              ptr, size,
#endif
              flags);
}

inline long write_some(int sock, const char *ptr, long size, int flags) {
  return send(sock,
#ifdef _WIN32
              static_cast<const char *>(ptr), static_cast<int>(size),
#else
              ptr, size,
#endif
              flags);
}

class Reader
#ifdef NET_BASE
    : public Base {
#else
{
#endif
 public:
  long size() const { return 0; }
  bool empty() const { return size() == 0; }
};

inline bool ends_with_crlf(const Reader &r) { return r.size() >= 2; }

class Picker {
 public:
  int pick(int x) const {
    if (x > 0) {
      x += 1;
#ifdef NET_FAST
    } else {
      x -= 1;
#endif
    }
    return x;
  }
};

class NET_EXPORT NET_ALIGNED Stream {
 public:
  NET_DEPRECATED_MSG("use 'read(0)' instead")
  int peek() const { return 0; }
  int read() const { return 1; }
};

#ifdef _WIN32
inline int handle() { return 1; }
#else
inline int handle() { return 2; }
#endif

inline int drain(Reader &r) {
#ifdef NET_LOOP_MACROS
  NET_LOOP_BEGIN
#else
  while (!r.empty())
#endif
  {
    r.size();
  }
  return handle();
}

}  // namespace net
"""

SOCKETS_C = """\
#include <sys/socket.h>

static long read_some(int sock, char *ptr, long size, int flags)
{
    return recv(sock,
#ifdef _WIN32
                (char *)ptr, (int)size,
#else
                ptr, size,
#endif
                flags);
}

struct reader {
    long size;
};

static int reader_empty(const struct reader *r)
{
    return r->size == 0;
}
"""

# groups in groups: an inner group in a branch that is itself left out is counted once (the
# outer group is whole, both its branches stay)
NESTED_CPP = """\
#ifdef OUTER
int first() {
#ifdef MIDDLE
  if (1) {
#else
#ifdef INNER
  if (2) {
#else
  {
#endif
#endif
    return 1;
  }
}
#else
int other() { return 2; }
#endif

int after() { return 3; }
"""

SOURCES = {
    "fixture_test.c": FIXTURE_TEST_C,
    "spy_test.c": SPY_TEST_C,
    "many_spies.c": many_spies(),
    "typedefs.h": TYPEDEFS_H,
    "mock.hpp": MOCK_HPP,
    "message.hpp": MESSAGE_HPP,
    "socket.cpp": SOCKET_CPP,
    "sockets.c": SOCKETS_C,
    "nested.cpp": NESTED_CPP,
}


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    for name, text in SOURCES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("path", "language", "expected"),
    [
        # functions a macro names at the top level; the loop macro in walk() is none
        ("fixture_test.c", "c", {"TEST_SETUP", "TEST_TEAR_DOWN", "TEST", "IGNORE_TEST"}),
        # statement macros with unbalanced braces; macros that are types; int CDECL main
        ("spy_test.c", "c", {"UNITY_UINT", "number_to_pointer", "parser_version", "main"}),
        # typedefs of pointers, functions, pointers to functions and arrays
        ("typedefs.h", "c", {"ini_handler", "Handle", "unityfunction", "Names", "Quad"}),
        # the reading with fewer tokens left loose in ERROR nodes wins
        ("many_spies.c", "c", {"testNotEqual4_Arrays", "testEqual4_Arrays", "walk"}),
        # a class between two warning macros, the last with a comment after it (read as a
        # statement, it made the class's members the namespace's); an export macro before
        # an attribute
        ("message.hpp", "cpp", {"Message", "size", "operator<<", "Result", "ok"}),
        # #ifdef inside a call's arguments (the functions after it were lost), a class
        # whose branches open its body differently (its members were the namespace's)
        (
            "socket.cpp",
            "cpp",
            {"read_some", "write_some", "Reader", "empty", "drain", "Stream", "peek"},
        ),
        ("sockets.c", "c", {"read_some", "reader", "reader_empty"}),
        ("nested.cpp", "cpp", {"first", "other", "after"}),
        # conversion operators, a specialisation, annotations after the parameters, a macro
        # call continuing a #define (the repair leaves it)
        (
            "mock.hpp",
            "cpp",
            {
                "operator bool",
                "digits10",
                "is_retired",
                "ASSERT_KIND",
                "mock_error",
                "type",
                "GeneratorFunc",
            },
        ),
    ],
)
def test_definitions_are_ctags_definitions(
    sources: Path, path: str, language: str, expected: set[str]
) -> None:
    compare = load_script("compare_ctags")
    truth = compare.ctags_definitions(sources, language, [path])
    ours, _ = compare.layer_definitions(sources, language, [path])
    named = {compare._plain(name.replace(" ", "")) for name in expected}
    assert named <= {key[1] for key in truth}, "ctags no longer tags what this test is about"
    assert ours == truth


def test_a_function_a_macro_names_spans_its_body(sources: Path) -> None:
    parsed = parse_file("fixture_test.c", FIXTURE_TEST_C)
    assert parsed is not None
    rows = {(row[0], row[2]): row for row in parsed.defs}
    lines = FIXTURE_TEST_C.split("\n")
    _, _, _, start, end, signature, *_ = rows[("TEST", 16)]
    assert (start, end) == (16, 19)
    assert lines[end - 1] == "}"
    assert signature == "TEST(Parser, ReadsANumber)"
    callers = {(name, parsed.defs[i][0]) for _, name, i, *_ in parsed.calls if i >= 0}
    assert ("TEST_ASSERT_EQUAL", "TEST") in callers  # a call in the body belongs to it
    assert ("visit", "walk") in callers  # the loop macro's block stays walk()'s


def test_a_file_of_macro_named_functions_has_no_parse_error_and_their_chunks() -> None:
    from codeagent.index.chunking import chunk_file

    # the semicolon the grammar misses after TEST(...) at the top level is no error: the
    # file gets a chunk per function, not line windows
    parsed = parse_file("fixture_test.c", FIXTURE_TEST_C)
    assert parsed is not None
    assert parsed.errors == 0
    chunks = chunk_file("fixture_test.c", FIXTURE_TEST_C)
    named = {(c.symbol, c.start_line) for c in chunks if c.kind != "window"}
    assert {("TEST_SETUP", 7), ("TEST", 16), ("walk", 31)} <= named
    # a real error still counts; inside a function's body (line 9) it leaves the function its
    # chunk, over the lines it spans (as in C, where an #ifdef branch the grammar cannot read
    # is such an error), the others keep theirs
    broken = FIXTURE_TEST_C.replace("counter = 1;", "counter = 1 +;")
    again = parse_file("fixture_test.c", broken)
    assert again is not None
    assert again.errors > 0
    chunks = chunk_file("fixture_test.c", broken)
    spans = {(c.symbol, c.start_line, c.end_line) for c in chunks if c.kind != "window"}
    assert {("TEST_SETUP", 7, 10), ("TEST", 16, 19), ("walk", 31, 38)} <= spans
    # on the line of a function's name it leaves that function to the windows
    broken = FIXTURE_TEST_C.replace("walk(struct node *list)", "walk(struct node *list +)")
    chunks = chunk_file("fixture_test.c", broken)
    named = {(c.symbol, c.start_line) for c in chunks if c.kind != "window"}
    assert {("TEST_SETUP", 7), ("TEST", 16)} <= named
    assert all(c.kind in ("module", "window") for c in chunks if c.start_line <= 31 <= c.end_line)


@pytest.mark.parametrize(
    ("path", "text", "qualname"),
    [
        ("socket.cpp", SOCKET_CPP, "net.Reader.empty"),
        ("socket.cpp", SOCKET_CPP, "net.drain"),
        ("socket.cpp", SOCKET_CPP, "net.Stream.peek"),
        ("socket.cpp", SOCKET_CPP, "net.Picker.pick"),
        ("sockets.c", SOCKETS_C, "reader_empty"),
    ],
)
def test_code_the_grammar_cannot_read_as_written_leaves_no_parse_error(
    path: str, text: str, qualname: str
) -> None:
    parsed = parse_file(path, text)
    assert parsed is not None
    assert parsed.errors == 0
    assert qualname in {d[0] for d in parsed.defs}  # in its class and namespace


def test_the_repair_keeps_lines_and_columns() -> None:
    from codeagent.lang import c, cpp

    for text in SOURCES.values():
        for repaired in (c.SPEC.repair(text, ".c"), cpp.SPEC.repair(text, ".hpp")):
            assert [len(line) for line in repaired.split("\n")] == [
                len(line) for line in text.split("\n")
            ]
            for before, after in zip(text.split("\n"), repaired.split("\n"), strict=True):
                written = {b for a, b in zip(before, after, strict=True) if a != b}
                if "__has_include(" in before:  # a header's name in #if, written as a name
                    assert written <= {" ", "_"} | set(before)
                else:
                    assert written <= {" "}  # only blanks are written
