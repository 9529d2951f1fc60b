"""Methods of a Java type against universal-ctags: overloads (one method per signature, all
listed as the type's own) and a default method inherited through an interface (a base that is
not a class: found breadth first, not by Python's C3 order over classes)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from codeagent.config import Settings
from codeagent.index.build import load_or_build
from conftest import GitRepoFactory

pytestmark = pytest.mark.usefixtures("needs_ctags")

JAVA = """\
interface Greeter {
    default void greet() {}
}

class Sender implements Greeter {
    void send(int n) {}
    void send(String s) {}
}

class Fancy extends Sender {
    void send(int n) {}
}
"""


def _ctags_methods(root: Path, path: str) -> dict[str, set[tuple[str, int]]]:
    """``{type: {(method, line)}}`` as ctags reads the file (its scope fields)."""
    done = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+n+K+S", "-f", "-", path],
        cwd=root, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found: dict[str, set[tuple[str, int]]] = {}
    for line in done.stdout.splitlines():
        tag = json.loads(line)
        if tag.get("kind") == "method":
            found.setdefault(tag["scope"], set()).add((tag["name"], tag["line"]))
    return found


def test_overloads_and_interface_defaults_are_ctags_methods(git_repo: GitRepoFactory) -> None:
    root = git_repo({"src/Sender.java": JAVA})
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    graph = store.symbols
    truth = _ctags_methods(root, "src/Sender.java")
    assert len(truth["Sender"]) == 2  # the two overloads of send
    listed = graph.methods("Sender")
    own = {(d.name, d.line) for d, via in listed if via is None}
    inherited = {(d.name, d.line) for d, via in listed if via is not None}
    assert own == truth["Sender"]
    assert inherited == truth["Greeter"]  # Sender implements Greeter: its default method
    fancy = graph.methods("Fancy")
    assert {(d.name, d.line) for d, via in fancy if via is None} == truth["Fancy"]
    assert truth["Greeter"] <= {(d.name, d.line) for d, via in fancy if via is not None}


ANNOTATION = """\
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;

@Retention(RetentionPolicy.RUNTIME)
public @interface Route {
    String value();

    String[] methods() default {"GET"};

    int timeout() default 30;
}
"""


def test_an_annotation_types_elements_are_its_ctags_methods(git_repo: GitRepoFactory) -> None:
    """An annotation type (``@interface``) is a type: its elements are its methods."""
    root = git_repo({"src/Route.java": ANNOTATION})
    store, _ = load_or_build(root, Settings.load(embed="none"), embedder=None)
    truth = _ctags_methods(root, "src/Route.java")
    assert len(truth["Route"]) == 3
    listed = store.symbols.methods("Route")
    assert {(d.name, d.line) for d, via in listed if via is None} == truth["Route"]
