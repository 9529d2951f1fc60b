"""Compare the language layer's definitions with universal-ctags on real repositories.

    PYTHONPATH=src python eval/compare_ctags.py DIR [DIR ...] [--json OUT] [--show N]
        [--typescript NODE_MODULES/typescript]

Each DIR is a checkout (a read-only export is enough). For every language of the layer, the
files with its extensions are read by both: ``ctags --output-format=json --fields=+n+K+S+e
--language-force=LANG`` (the truth) and :func:`codeagent.lang.extract.parse`. A definition is
(path, name, line, kind group); kinds are compared in groups both tools name alike
(:data:`GROUPS`: ``callable``, ``type``, ``impl``, ``namespace``, ``macro``); ctags kinds
outside the groups (fields, variables, constants, enumerators, locals, properties, ...) are not
definitions of the layer and are left out on both sides. Prints recall and precision per
language and every difference, sorted into causes.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, NamedTuple

from codeagent.lang import language_for, parse_file

CTAGS_LANGUAGE = {
    "go": "Go", "rust": "Rust", "java": "Java", "javascript": "JavaScript",
    "typescript": "TypeScript", "c": "C", "cpp": "C++", "csharp": "C#", "ruby": "Ruby",
    "php": "PHP",
}  # fmt: skip

# ctags kind -> group, per language; the layer's kinds -> group (shared).
GROUPS: dict[str, dict[str, str]] = {
    "go": {"func": "callable", "methodSpec": "callable", "struct": "type",
           "interface": "type", "type": "type", "talias": "type"},
    "rust": {"function": "callable", "method": "callable", "struct": "type", "enum": "type",
             "interface": "type", "typedef": "type", "implementation": "impl",
             "module": "namespace", "macro": "macro"},
    "java": {"method": "callable", "class": "type", "interface": "type", "enum": "type",
             "annotation": "type"},
    "javascript": {"function": "callable", "method": "callable", "generator": "callable",
                   "getter": "callable", "setter": "callable", "class": "type"},
    "typescript": {"function": "callable", "method": "callable", "generator": "callable",
                   "class": "type", "interface": "type", "enum": "type", "alias": "type",
                   "namespace": "namespace"},
    "c": {"function": "callable", "struct": "type", "union": "type", "enum": "type",
          "typedef": "type", "macro": "macro"},
    "cpp": {"function": "callable", "class": "type", "struct": "type", "union": "type",
            "enum": "type", "typedef": "type", "namespace": "namespace", "macro": "macro"},
    "csharp": {"method": "callable", "class": "type", "struct": "type", "interface": "type",
               "enum": "type", "namespace": "namespace"},
    "ruby": {"method": "callable", "singletonMethod": "callable", "class": "type",
             "module": "namespace"},
    "php": {"function": "callable", "class": "type", "interface": "type", "trait": "type",
            "namespace": "namespace"},
}  # fmt: skip
OURS = {
    "function": "callable", "method": "callable", "constructor": "callable",
    "class": "type", "struct": "type", "interface": "type", "trait": "type", "enum": "type",
    "union": "type", "record": "type", "type": "type", "typedef": "type",
    "annotation": "type", "impl": "impl", "namespace": "namespace", "mod": "namespace",
    "macro": "macro",
}  # fmt: skip

Key = tuple[str, str, int, str]  # path, name, line, group


def files_by_language(root: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.is_symlink():
            rel = path.relative_to(root).as_posix()
            spec = language_for(rel)
            if spec is not None and not any(p.startswith(".") for p in rel.split("/")):
                name = spec.name
                if name == "c" and rel.endswith(".h"):  # read as parse_file() reads it
                    parsed = parse_file(rel, path.read_text(encoding="utf-8", errors="replace"))
                    name = parsed.language if parsed is not None else name
                out[name].append(rel)
    return out


def ctags_tags(root: Path, language: str, paths: list[str]) -> list[dict[str, Any]]:
    """ctags' tags of ``paths`` read as ``language`` (anonymous functions' made-up names
    aside)."""
    command = ["ctags", "--output-format=json", "--fields=+n+K+S+e", "-f", "-",
               f"--language-force={CTAGS_LANGUAGE[language]}", "-L", "-"]  # fmt: skip
    done = subprocess.run(
        command, cwd=root, input="\n".join(paths), capture_output=True, text=True, check=True
    )
    tags = [json.loads(line) for line in done.stdout.splitlines()]
    return [
        t
        for t in tags
        if t.get("_type") == "tag"
        and not t["name"].startswith(("AnonymousFunction", "AnonymousClass", "__anon"))
    ]


def ctags_definitions(root: Path, language: str, paths: list[str]) -> set[Key]:
    """ctags' definitions of the kinds the layer has (:data:`GROUPS`)."""
    groups = GROUPS[language]
    return {
        (t["path"], _plain(t["name"]), int(t["line"]), groups[t["kind"]])
        for t in ctags_tags(root, language, paths)
        if t.get("kind") in groups
    }


def ctags_other_kinds(
    root: Path, language: str, paths: list[str]
) -> dict[tuple[str, str, int], str]:
    """(path, name, line) -> kind of ctags' tags outside :data:`GROUPS` (a variable holding an
    arrow function, a property, ...)."""
    groups = GROUPS[language]
    return {
        (t["path"], _plain(t["name"]), int(t["line"])): t.get("kind", "")
        for t in ctags_tags(root, language, paths)
        if t.get("kind") not in groups
    }


def _plain(name: str) -> str:
    """ctags writes some names qualified (``A::b``, ``Foo.bar``): compare the last part."""
    for sep in ("::", "\\", "."):
        name = name.rsplit(sep, 1)[-1]
    return name.replace(" ", "") if name.startswith("operator") else name


class ParseErrors(NamedTuple):
    """Of the files with parse errors: how many, their definitions, and how many of those no
    error touches (chunked as definitions; the rest of such a file is line windows)."""

    files: int = 0
    definitions: int = 0
    chunked: int = 0


def layer_definitions(
    root: Path, language: str, paths: list[str], nested: set[Key] | None = None
) -> tuple[set[Key], ParseErrors]:
    """The layer's definitions of the kinds ctags has, and what the files with parse errors
    hold; ``nested`` receives those inside a function or method body."""
    found: set[Key] = set()
    errors = ParseErrors()
    for path in paths:
        text = (root / path).read_text(encoding="utf-8", errors="replace")
        parsed = parse_file(path, text)
        if parsed is None:
            continue
        if parsed.errors:
            errors = ParseErrors(
                errors.files + 1,
                errors.definitions + len(parsed.defs),
                errors.chunked + len(parsed.clear_defs()),
            )
        callables = {row[0] for row in parsed.defs if OURS.get(row[1]) == "callable"}
        for qualname, kind, line, *_ in parsed.defs:
            group = OURS.get(kind)
            if group is not None and group in GROUPS[language].values():
                name = qualname.rsplit(".", 1)[-1]
                key = (path, _plain(name), int(line), group)
                found.add(key)
                parts = qualname.split(".")
                scopes = {".".join(parts[:n]) for n in range(1, len(parts))}
                if nested is not None and scopes & callables:  # inside a function body
                    nested.add(key)
    return found, errors


def cause(key: Key, other: set[Key], side: str, nested: set[Key] | None = None) -> str:
    """Sort a difference: same name and line, other kind group; same name, other line; a
    definition inside a function body (the layer's side); or only one tool has it."""
    path, name, line, group = key
    if any(o[0] == path and o[1] == name and o[2] == line for o in other):
        return "kind group differs"
    if any(o[0] == path and o[1] == name and abs(o[2] - line) <= 3 for o in other):
        return "line differs (<=3)"
    if nested is not None and key in nested:
        return f"only {side}: inside a function body ({group})"
    if name.startswith("#"):
        return f"only {side}: a #private member ({group})"
    return f"only {side} ({group})"


def typescript_oracle(script: str, root: Path, paths: list[str], typescript: Path) -> list[Any]:
    """The JSON lines the node script ``eval/SCRIPT`` prints for ``paths`` of ``root``, with the
    TypeScript compiler at ``typescript``."""
    done = subprocess.run(
        ["node", str(Path(__file__).with_name(script)), str(typescript), str(root)],
        input="\n".join(paths),
        capture_output=True,
        text=True,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def compiler_definitions(root: Path, paths: list[str], typescript: Path) -> set[Key]:
    """The TypeScript compiler's declarations (``eval/ts_declarations.cjs``)."""
    rows = typescript_oracle("ts_declarations.cjs", root, paths, typescript)
    return {(r["path"], _plain(r["name"].strip("\"'")), int(r["line"]), r["group"]) for r in rows}


def compare(root: Path, show: int, typescript: Path | None = None) -> dict[str, Any]:
    report: dict[str, Any] = {}
    for language, paths in sorted(files_by_language(root).items()):
        by_compiler = typescript is not None and language in ("javascript", "typescript")
        if by_compiler:
            assert typescript is not None
            truth = compiler_definitions(root, paths, typescript)
            others: dict[tuple[str, str, int], str] = {}
        else:
            truth = ctags_definitions(root, language, paths)
            others = ctags_other_kinds(root, language, paths)
        nested: set[Key] = set()
        ours, errors = layer_definitions(root, language, paths, nested)
        hit = len(truth & ours)
        missed, extra = sorted(truth - ours), sorted(ours - truth)
        # ctags has a tag of another kind there (a variable holding a function, ...): the
        # same definition, named alike, kinds apart; counted as found, listed as a cause.
        agreed = [k for k in extra if k[:3] in others]
        extra = [k for k in extra if k[:3] not in others]
        causes = Counter(cause(k, ours, "ctags") for k in missed)
        causes.update(f"ctags calls it {others[k[:3]]} ({k[3]})" for k in agreed)
        causes.update(cause(k, truth, "layer", nested) for k in extra)
        report[language] = {
            "truth": "typescript compiler" if by_compiler else "ctags",
            "files": len(paths),
            "files_with_parse_errors": errors.files,
            "definitions_in_them": errors.definitions,
            "chunked_as_definitions": errors.chunked,
            "ctags": len(truth),  # the truth's count (ctags or the compiler)
            "layer": len(ours),
            "recall": hit / len(truth) if truth else 1.0,
            "precision": (hit + len(agreed)) / len(ours) if ours else 1.0,
            "precision_strict": hit / len(ours) if ours else 1.0,
            "causes": dict(causes.most_common()),
            "missed": [list(k) for k in missed[:show]],
            "extra": [list(k) for k in extra[:show]],
        }
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write the full report here")
    parser.add_argument("--show", type=int, default=10, help="differences listed per side")
    parser.add_argument("--typescript", type=Path, help="the typescript npm package's folder")
    args = parser.parse_args(argv)
    full: dict[str, Any] = {}
    for root in args.dirs:
        if not root.is_dir():
            print(f"error: {root} is not a directory", file=sys.stderr)
            return 2
        full[root.name] = report = compare(root, args.show, args.typescript)
        for language, r in report.items():
            print(
                f"{root.name:24} {language:11} files {r['files']:5} truth {r['ctags']:6}"
                f" layer {r['layer']:6} recall {r['recall']:.1%} precision {r['precision']:.1%}"
                f" (strict {r['precision_strict']:.1%})"
                f" parse-errors {r['files_with_parse_errors']}"
                f" (their definitions chunked as such: {r['chunked_as_definitions']}"
                f"/{r['definitions_in_them']})"
            )
            for why, n in r["causes"].items():
                print(f"    {n:5}  {why}")
            for k in r["missed"]:
                print(f"      missed {k}")
            for k in r["extra"]:
                print(f"      extra  {k}")
    if args.json:
        args.json.write_text(json.dumps(full, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
