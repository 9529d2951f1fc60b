"""A Java class that extends a nested class by its outer class's name (``extends
Converter.Factory``, retrofit's way): its base is that nested class, not another one of the
same last name (``CallAdapter.Factory``), in its package or in another. Against javac: a small
real git repository of two packages, compiled, and each class's superclass as ``javap`` reads
it from the class file. "which classes extend Converter.Factory?" listed none, and
``CallAdapter.Factory``'s subclasses listed the converters of its package."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from codeagent.symbols.graph import SymbolGraph
from oracle_marks import committed, indexed

FILES = {
    "src/shop/Converter.java": (
        "package shop;\n\npublic interface Converter<F, T> {\n"
        "  T convert(F value);\n\n  abstract class Factory {\n"
        "    public Converter<?, ?> make() { return null; }\n  }\n}\n"
    ),
    "src/shop/CallAdapter.java": (
        "package shop;\n\npublic interface CallAdapter<R> {\n"
        "  R adapt(Object call);\n\n  abstract class Factory {\n"
        "    public CallAdapter<?> get() { return null; }\n  }\n}\n"
    ),
    "src/shop/Json.java": "package shop;\n\nfinal class Json extends Converter.Factory {}\n",
    "src/shop/Direct.java": "package shop;\n\nfinal class Direct extends CallAdapter.Factory {}\n",
    "src/shop/Both.java": (
        "package shop;\n\nfinal class Both {\n"
        "  static final class Inner extends Converter.Factory {}\n"
        "  static final class Other extends CallAdapter.Factory {}\n}\n"
    ),
    "src/shop/other/Proto.java": (
        "package shop.other;\n\nimport shop.Converter;\n\n"
        "public final class Proto extends Converter.Factory {}\n"
    ),
    "src/shop/other/Rx.java": (
        "package shop.other;\n\nimport shop.CallAdapter;\n\n"
        "final class Rx extends CallAdapter.Factory {}\n"
    ),
    "src/shop/other/Wire.java": (
        "package shop.other;\n\npublic final class Wire extends shop.Converter.Factory {}\n"
    ),
}

pytestmark = pytest.mark.usefixtures("needs_javac")


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return committed(tmp_path_factory, "java-nested-bases", FILES)


@pytest.fixture(scope="module")
def graph(repo: Path) -> SymbolGraph:
    return indexed(repo)


@pytest.fixture(scope="module")
def superclasses(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each compiled class's simple name -> its superclass's binary name, as javap reads them."""
    out = tmp_path_factory.mktemp("classes")
    sources = [str(repo / p) for p in FILES]
    subprocess.run(["javac", "-d", str(out), *sources], check=True, capture_output=True)
    names = [
        str(p.relative_to(out).with_suffix("")).replace("/", ".") for p in out.rglob("*.class")
    ]
    done = subprocess.run(
        ["javap", "-cp", str(out), *names], check=True, capture_output=True, text=True
    )
    found = {}
    for line in done.stdout.splitlines():
        if m := re.search(r"class ([\w.$]+) extends ([\w.$]+)", line):
            found[m[1].rsplit(".", 1)[-1].rsplit("$", 1)[-1]] = m[2]
    return found


@pytest.mark.parametrize(
    ("base", "binary"),
    [
        ("Converter.Factory", "shop.Converter$Factory"),
        ("CallAdapter.Factory", "shop.CallAdapter$Factory"),
    ],
)
def test_the_subclasses_of_a_nested_class_are_javac_s(
    graph: SymbolGraph, superclasses: dict[str, str], base: str, binary: str
) -> None:
    truth = {name for name, sup in superclasses.items() if sup == binary}
    assert len(truth) >= 3  # in its package, nested, in another package
    assert {d.name for d in graph.subclasses(base)} == truth
