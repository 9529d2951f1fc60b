"""Which of a C++ function's overloads a call may reach, by its number of arguments
(``symbols.arity.fits``), against g++: for each signature and each number of arguments,
the call compiles (``g++ -fsyntax-only``) exactly when ``fits`` says the function takes that
many."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from codeagent.symbols.arity import fits
from codeagent.symbols.types import Definition
from oracle_marks import compiler

SIGNATURES = [
    "int f()",
    "int f(void)",
    "int f(int a)",
    "int f(int a, int b = 2)",
    "int f(int a = 1, int b = 2)",
    "int f(std::map<int, int> m, int b)",
    "int f(std::pair<int, int> p = {1, 2})",
    "int f(int (*g)(int, int), int b)",
    "int f(const char* text, ...)",
    "int f(int a, int b, int c)",
    "static int f(int a, char sep = ',')",
    'int f(const char* sep = ", (", int n = 1)',
]
COUNTS = range(4)
ARGUMENTS = {
    "int": "1",
    "std::map<int, int>": "std::map<int, int>{}",
    "std::pair<int, int>": "std::pair<int, int>{}",
    "int (*)(int, int)": "add",
    "const char*": '"x"',
    "char": "'c'",
}


@pytest.fixture(scope="module")
def cxx() -> str:
    return compiler("CXX", "g++", "g++ says which calls compile")


def _compiles(cxx: str, signature: str, count: int, tmp: Path) -> bool:
    """Whether g++ accepts a call of ``f`` with ``count`` arguments of the types it takes."""
    kinds = ["int (*)(int, int)" if "(*g)" in signature else "int"] * count
    if "std::map" in signature and count:
        kinds[0] = "std::map<int, int>"
    if "std::pair" in signature and count:
        kinds[0] = "std::pair<int, int>"
    if "const char*" in signature and count:
        kinds[0] = "const char*"
    if "(*g)" in signature and count > 1:
        kinds[1:] = ["int"] * (count - 1)
    if "char sep" in signature and count > 1:
        kinds[1] = "char"
    source = (
        "#include <map>\n#include <utility>\n"
        "static int add(int a, int b) { return a + b; }\n"
        f"{signature} {{ return 0; }}\n"
        f"int main() {{ (void)add; return f({', '.join(ARGUMENTS[k] for k in kinds)}); }}\n"
    )
    path = tmp / "call.cpp"
    path.write_text(source)
    done = subprocess.run(
        [cxx, "-std=c++17", "-fsyntax-only", "-w", str(path)], capture_output=True, text=True
    )
    return done.returncode == 0


@pytest.mark.parametrize("signature", SIGNATURES)
def test_a_call_fits_where_gcc_compiles_it(cxx: str, signature: str, tmp_path: Path) -> None:
    d = Definition("f", "f", "function", "a.cpp", 1, 1, signature)
    got = {n: fits(d, n) for n in COUNTS}
    truth = {n: _compiles(cxx, signature, n, tmp_path) for n in COUNTS}
    assert got == truth
    assert fits(d, None)  # a count not known fits every function


def test_a_signature_cut_short_fits_any_count() -> None:
    d = Definition("f", "f", "function", "a.cpp", 1, 1, "int f(int a, int b, ...")
    assert all(fits(d, n) for n in COUNTS)
