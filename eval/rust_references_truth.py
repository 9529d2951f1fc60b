"""Rust call sites resolved by path, ``use`` and stated type, against rustc (its type-checked
tree, ``-Zunpretty=thir-tree``: the function or method the compiler ties each call to).

    PYTHONPATH=src:eval python eval/rust_references_truth.py DIR [DIR ...] [--sample 300] [--show 8]

Needs a Rust compiler (``rustc`` on the PATH, or ``RUSTC``; 1.95 here; its unstable printing is
turned on with ``RUSTC_BOOTSTRAP=1``). Each DIR is one crate: its ``Cargo.toml`` (the edition,
the default features that name no dependency) and its library's root, ``src/lib.rs``, compiled
alone: the repositories are crates that need none from outside. Chosen and written down before
the first run (none written here; each the commit named, the crate's tracked ``.rs`` files), and
why:

- seanmonstar/httparse ac44a38: an HTTP/1 parser: a `Bytes` cursor whose methods the parser
  calls on every byte, SIMD back ends in modules chosen at run time, free functions.
- rust-lang/regex 2b52759, its ``regex-syntax`` crate: a parser and a translator over an AST
  (`ast::parse::ParserI`, visitors, traits implemented for many types), a large module tree
  with ``use`` paths of every form (``crate::``, ``super::``, ``self::``, groups, globs).
- rust-lang/regex 2b52759, its ``regex-lite`` crate: a small regex engine in a few modules:
  a compiler, a Pike VM, ``Self::`` constructors, a struct's fields' methods.
- rust-lang/log 037d7a5: a logging facade: a ``Log`` trait called through ``&dyn Log``,
  builders (``Record::builder().level(..)``), macros (calls written inside a macro's
  arguments are not call expressions to the grammar, so not sites here).

(dtolnay/semver 8591f23 was the one the resolution was developed on; it is not scored.)

The sites are drawn as in ``eval/go_references_truth.py`` (seed 46, among those the compiler's
tree holds: a call in a macro's expansion, in a file the library does not compile (tests,
benches, examples) or behind a ``cfg`` that is off is left out). A call of a method of a
trait on a type of the crate is the impl's method where the crate implements it (the default
method or the declaration otherwise); a call on a generic or ``dyn`` receiver is the trait's
declaration; a call into the standard library is answered with no repository callable.
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path
from typing import Any

_OWNER = re.compile(r"^DefId\((\d+:\d+) ~ ([^)]*)\) => OwnerNodes \{")
_DEF = re.compile(r"DefId\((\d+:\d+) ~ ([^)]*)\)")
_SPAN = re.compile(r"span: (.+?):(\d+):(\d+): (\d+):(\d+) \(#(\d+)\)")
_FNDEF = re.compile(r"ty: FnDef\(DefId\((\d+):(\d+) ~ ([^)]*)\), \[(.*)\]\)$")


def _rustc(root: Path, what: str, rustc: str | None) -> list[str]:
    """rustc's printing of ``what`` (``thir-tree``, ``hir-tree``) for the crate at ``root``."""
    meta = tomllib.loads((root / "Cargo.toml").read_text())
    package = meta.get("package", {})
    edition = str(package.get("edition", "2015"))
    features = meta.get("features", {})
    on, todo = set(), list(features.get("default", []))
    while todo:  # the default features and those they turn on, none naming a dependency
        name = todo.pop()
        if name in on or name not in features or any(":" in f or "/" in f for f in features[name]):
            continue
        on.add(name)
        todo.extend(features[name])
    command = [
        rustc or os.environ.get("RUSTC", "rustc"),
        "--crate-type",
        "lib",
        "--edition",
        edition,
        f"-Zunpretty={what}",
    ]
    for name in sorted(on):
        command += ["--cfg", f'feature="{name}"']
    env = {**os.environ, "RUSTC_BOOTSTRAP": "1"}
    done = subprocess.run(
        [*command, "src/lib.rs"], cwd=root, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def _owners(lines: list[str]) -> tuple[dict[str, tuple[str, int]], dict[str, tuple[str, str]]]:
    """Each item's (file, line) by its DefId path, and each ``impl``'s (trait, self type)
    DefId paths ("" for an inherent impl's trait)."""
    where: dict[str, tuple[str, int]] = {}
    impls: dict[str, tuple[str, str]] = {}
    owner, kind, state = "", "", ""
    trait = own = ""
    for line in lines:
        found = _OWNER.match(line)
        if found:
            if owner and kind == "Impl":
                impls[owner] = (trait, own)
            owner, kind, state, trait, own = _strip(found.group(2)), "", "", "", ""
            continue
        stripped = line.strip()
        if line.startswith(" " * 16 + "kind: ") and not kind:
            kind = stripped[6:].rstrip("({ ")
        elif line.startswith(" " * 16 + "span: ") and owner not in where:
            span = _SPAN.search(line)
            if span and span.group(6) == "0":
                where[owner] = (span.group(1), int(span.group(2)))
        elif kind == "Impl":
            if stripped.startswith("of_trait: Some("):
                state = "trait"
            elif stripped.startswith("self_ty:"):
                state = "self"
            elif state and stripped.startswith("DefId("):
                got = _DEF.search(stripped)
                if got and state == "trait" and not trait:
                    trait = _strip(got.group(2))
                elif got and state == "self" and not own:
                    own = _strip(got.group(2))
                state = ""
    if owner and kind == "Impl":
        impls[owner] = (trait, own)
    return where, impls


def _strip(path: str) -> str:
    """A DefId's path without its crate's hash: ``lib[c6f5]::a::S`` is ``a::S``."""
    return path.partition("::")[2] if "::" in path else ""


def rust_truth(
    root: Path, paths: list[str], rustc: str | None = None
) -> dict[tuple[str, int, int], dict[str, Any]]:
    """(path, line, column) of each call the compiler's tree holds -> its answer (``rustc``:
    the compiler to run; default ``RUSTC``, else the one on the PATH)."""
    where, impls = _owners(_rustc(root, "hir-tree", rustc))
    by_trait = {(t, s): i for i, (t, s) in impls.items() if t}
    texts: dict[str, list[str]] = {}
    out: dict[tuple[str, int, int], dict[str, Any]] = {}
    lines = _rustc(root, "thir-tree", rustc)
    for i, line in enumerate(lines):
        if line.strip() != "Call {":
            continue
        head = lines[i + 1].strip()
        fun = next((n for n in range(i + 2, min(i + 8, len(lines))) if lines[n].strip() == "fun:"),
                   None)  # fmt: skip
        if fun is None:
            continue
        span = _SPAN.search(lines[fun + 4]) or _SPAN.search(lines[fun + 3])
        if span is None or span.group(6) != "0":
            continue  # written by a macro
        path, end_line, end_col = span.group(1), int(span.group(4)), int(span.group(5))
        name = _name_at(root, texts, path, end_line, end_col) if path in paths else ""
        if not name:
            continue  # not a file given, or a call whose name is not where the span ends
        called = _FNDEF.search(head)
        defs: list[list[Any]] = []
        if called is not None:
            crate, def_path, args = called.group(1), _strip(called.group(3)), called.group(4)
            defs = _declared(def_path if crate == "0" else f"@{def_path}", args, where, by_trait)
        text = _line(root, texts, path, end_line)
        column = len(text[: end_col - 1 - len(name)].encode("utf-16-le")) // 2
        out[(path, end_line, column)] = {
            "path": path,
            "line": end_line,
            "column": column,
            "name": name,
            "defs": defs,
            "answered": True,
        }
    return out


def _declared(
    def_path: str,
    args: str,
    where: dict[str, tuple[str, int]],
    by_trait: dict[tuple[str, str], str],
) -> list[list[Any]]:
    """The declaration a call of ``def_path`` (with generic arguments ``args``) reaches: a
    trait's method on a type of the crate is the impl's method where there is one."""
    outside = def_path.startswith("@")  # an item of another crate: only its impls here count
    owner, _, name = def_path.lstrip("@").rpartition("::")
    self_type = args.split(",")[0].strip().lstrip("&").removeprefix("mut ").partition("<")[0]
    impl = by_trait.get((owner, self_type))
    if impl is not None and f"{impl}::{name}" in where:
        return [list(where[f"{impl}::{name}"])]
    return [list(where[def_path])] if def_path in where and not outside else []


def _line(root: Path, texts: dict[str, list[str]], path: str, line: int) -> str:
    if path not in texts:
        texts[path] = (root / path).read_text(encoding="utf-8").split("\n")
    rows = texts[path]
    return rows[line - 1] if 0 < line <= len(rows) else ""


def _name_at(root: Path, texts: dict[str, list[str]], path: str, line: int, col: int) -> str:
    """The identifier that ends at (line, 1-based column ``col``, exclusive)."""
    text = _line(root, texts, path, line)[: col - 1]
    found = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", text)
    return found.group(0) if found else ""


def main(argv: list[str] | None = None) -> int:
    from oracle_truth import score

    description = __doc__.split("\n\n")[0] if __doc__ else ""
    return score(argv, description, ["*.rs"], "rustc", "rustc", rust_truth)


if __name__ == "__main__":
    raise SystemExit(main())
