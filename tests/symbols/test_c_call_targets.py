"""C call sites tied to the function the program links, against GCC: a small real git
repository (a library, a program, one function per platform), indexed as a user's would be,
and GCC's call graph of every file (``-fcallgraph-info``, read by
``eval/c_references_truth.py``). Each marked call must land where GCC lands; a mark ``-`` is
a call of a value (a pointer to a function: a parameter, a local, a variable of the file, a
struct's field) or of a name two platforms define: it stays by name. And no call of the
repository is tied anywhere GCC does not tie it."""

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
    "include/shop.h": (
        "#ifndef SHOP_H\n"
        "#define SHOP_H\n"
        "struct ops { int (*run)(int); };\n"
        "int shared(int v);\n"
        "int os_read(int fd);\n"
        "static inline int sq(int x) { return x * x; }\n"
        "#endif\n"
    ),
    "src/shop.c": (
        '#include "shop.h"\n'
        "\n"
        "static int helper(int x) { return x + 1; }\n"
        "\n"
        "int shared(int v) {\n"
        "    return helper(v); // @own-static helper\n"
        "}\n"
        "\n"
        "int next(int v) { return v; }\n"
        "int cb(int v) { return v; }\n"
        "int hook(int v) { return v; }\n"
    ),
    "src/util.c": "int helper(int x) { return x * 2; }\n",
    "src/other.c": (
        "#include <stdio.h>\n"
        '#include "shop.h"\n'
        "\n"
        "static int helper(int x) { return x - 1; }\n"
        "static int (*hook)(int) = helper;\n"
        "\n"
        "int apply(struct ops *o, int v, int (*cb)(int)) {\n"
        "    int (*next)(int) = helper;\n"
        '    printf("%d\\n", v); // @libc - printf\n'
        "    v += o->run(v); // @field - run\n"
        "    v += next(v); // @local-pointer - next\n"
        "    v += cb(v); // @parameter - cb\n"
        "    v += hook(v); // @file-pointer - hook\n"
        "    v += helper(v); // @same-name-static helper\n"
        "    v += sq(v); // @header-inline sq\n"
        "    if (v) {\n"
        "        int shared = 2;\n"
        "        v += shared;\n"
        "    }\n"
        "    return shared(v); // @linked shared\n"
        "}\n"
        "\n"
        "int later(int v) {\n"
        "    int shared(int);\n"
        "    return shared(v) + os_read(v); // @local-prototype shared\n"
        "}\n"
    ),
    "src/unix/io.c": (
        '#include "shop.h"\n'
        "\n"
        "int os_read(int fd) { return fd; }\n"
        "int os_ready(int fd) {\n"
        "    return os_read(fd); // @own os_read\n"
        "}\n"
    ),
    "src/unix/poll.c": (
        '#include "shop.h"\n'
        "\n"
        "int poll_once(int fd) {\n"
        "    return os_read(fd); // @platform-folder os_read\n"
        "}\n"
    ),
    "src/win/io.c": (
        '#include "shop.h"\n#ifdef _WIN32\nint os_read(int fd) { return -fd; }\n#endif\n'
    ),
    "src/unity.c": (
        '#include "inner.c"\n\nint unity(int v) {\n    return inner(v); // @included inner\n}\n'
    ),
    "src/inner.c": "static int inner(int v) { return v; }\n",
    "app/main.c": (
        '#include "shop.h"\n'
        "\n"
        "int helper(int x);\n"
        "\n"
        "int main(void) {\n"
        "    int r = shared(1); // @program shared\n"
        "    r += helper(r); // @linked-not-static helper\n"
        "    return r + os_read(0); // @two-platforms - os_read\n"
        "}\n"
    ),
}


@pytest.fixture(scope="module")
def gcc() -> str:
    """GCC (its call graph is the truth)."""
    return compiler("CC", "gcc", "GCC's call graph is the truth")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "c-calls", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def calls(repo: Path, gcc: str) -> Answers:
    """(path, line, called name) -> the definitions GCC ties the call to (path, line)."""
    return gcc_answers(repo, sorted(FILES), cc=gcc)


@pytest.mark.parametrize("mark", marked(FILES), ids=lambda m: f"{m[0]}-{m[1]}-{m[2]}")
def test_a_call_resolves_where_gcc_lands(
    graph: SymbolGraph, calls: Answers, mark: tuple[str, str, int, str, bool]
) -> None:
    lands(graph, calls, mark, "GCC")


def test_no_call_is_tied_where_gcc_does_not_tie_it(graph: SymbolGraph, calls: Answers) -> None:
    assert not tied_only_where(graph, calls, at_least=8)  # nothing is resolved outside
    # GCC answers the calls through pointers too: with no function of the repository
    assert calls[("src/other.c", 11, "next")] == set()
    assert calls[("src/other.c", 12, "cb")] == set()
