"""`make mutate`: mutation testing (mutmut 3) of the modules listed in ``modules.toml``.

Each module runs alone, against only the test files mapped to it, in its own work folder
``.mutate/<module>/`` (git-ignored): ``src``, ``tests``, ``prompts`` and ``eval`` there are
links to this checkout, so the mutants are made from the working tree as it is now; mutmut
copies them into ``.mutate/<module>/mutants/`` and runs the tests there. ``PYTHONPATH`` points
at the mutated copy, so a test that starts ``python -m codeagent`` as a process runs the mutant
too.

By default only the modules that changed (the module or one of its test files) since the merge
base with ``main`` run, and none whose code and tests are exactly those of its last recorded run
(``.mutate/results.json``); ``--all`` runs every module. One mutant runs at a time.

The kill rate of a module is killed / (all mutants − those named equivalent in modules.toml);
a mutant no test reaches counts as surviving. Exit status 1 when a module is under ``--min``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import every_test

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / ".mutate"
RESULTS = WORK / "results.json"
MODULES = Path(__file__).with_name("modules.toml")
MARKERS = "not slow and not ollama and not llamacpp and not browser"
LOG_CALL = r"\blog\.(debug|info|warning|error|exception)\("
KILLED = {"killed", "timeout", "caught by type check"}
COPIED = ("src", "tests", "prompts", "eval")  # linked into each work folder; mutmut copies them


@dataclass
class Module:
    path: str
    tests: list[str]
    equivalent: dict[str, str] = field(default_factory=dict)  # not counted: reason
    harmless: dict[str, str] = field(default_factory=dict)  # counted as surviving: reason
    every_test: bool = False  # its code runs in other processes: see every_test.py

    @property
    def slug(self) -> str:
        return self.path.removeprefix("src/").removesuffix(".py").replace("/", ".")


def load_modules() -> list[Module]:
    data = tomllib.loads(MODULES.read_text(encoding="utf-8"))
    return [
        Module(
            path,
            list(entry["tests"]),
            dict(entry.get("equivalent", {})),
            dict(entry.get("harmless", {})),
            bool(entry.get("every_test", False)),
        )
        for path, entry in data["modules"].items()
    ]


def fingerprint(module: Module) -> str:
    """A hash of the module's code, its test files (the list and their text), and the shared
    test helpers."""
    digest = hashlib.sha256()
    shared = [*(ROOT / "tests").glob("*.py"), *(ROOT / "tests").rglob("conftest.py")]
    digest.update(json.dumps(module.tests).encode() + b"\0")
    for rel in [module.path, *module.tests, *sorted(rel_path(p) for p in shared)]:
        path = ROOT / rel
        digest.update(rel.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"<absent>")
    return digest.hexdigest()


def rel_path(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def changed_since(base: str) -> set[str]:
    """Paths that differ between ``base``'s merge base and the working tree (untracked too)."""

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout if done.returncode == 0 else ""

    merge_base = git("merge-base", "HEAD", base).strip()
    if not merge_base:
        return set()
    names = git("diff", "--name-only", merge_base) + git("ls-files", "-o", "--exclude-standard")
    return {line for line in names.splitlines() if line}


Recorded = dict[str, dict[str, object]]


def select(modules: list[Module], args: argparse.Namespace, recorded: Recorded) -> list[Module]:
    if args.module:
        wanted = set(args.module)
        unknown = wanted - {m.path for m in modules}
        if unknown:
            sys.exit(f"error: not in {MODULES.name}: {', '.join(sorted(unknown))}")
        return [m for m in modules if m.path in wanted]
    if args.all:
        return modules
    changed = changed_since(args.base)
    chosen = []
    for module in modules:
        touched = {module.path, *module.tests} & changed
        last = recorded.get(module.path, {})
        if touched and last.get("fingerprint") != fingerprint(module):
            chosen.append(module)
    return chosen


def code_hash(module: Module) -> str:
    return hashlib.sha256((ROOT / module.path).read_bytes()).hexdigest()


def prepare(module: Module, *, keep_verdicts: bool = False) -> Path:
    """The module's work folder: links to the checkout and a pyproject naming the module
    (``keep_verdicts``: the mutants and their verdicts from the last run stay)."""
    work = WORK / module.slug
    work.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        link = work / name
        if not link.is_symlink():
            link.symlink_to(ROOT / name, target_is_directory=True)
    # Copies of the tests from an earlier run would hide tests that were since removed, and
    # mutmut keeps a surviving mutant's verdict even when new tests would now kill it: every
    # mutant of a module that runs again is judged again.
    shutil.rmtree(work / "mutants" / "tests", ignore_errors=True)
    # (the module's mutated copy and its verdicts go; mutmut makes them anew)
    for stale in (work / "mutants" / module.path, work / "mutants" / f"{module.path}.meta"):
        if not keep_verdicts:
            stale.unlink(missing_ok=True)
    # which tests reach which function: mutmut would keep the last run's map for tests that
    # changed since (and map only new ones), so a changed test could be left out
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    pyproject += "\n" + "\n".join(
        [
            "[tool.mutmut]",
            'source_paths = ["src"]',
            f"only_mutate = [{json.dumps(module.path)}]",
            # beside src and tests: prompts, and the eval scripts some tests load as modules
            f"also_copy = {json.dumps(list(COPIED[2:]))}",
            # a mutant that makes the tests hang is stopped at 5x their usual time (killed)
            "timeout_multiplier = 5.0",
            # log calls: their words guard nothing (docs/testing.md)
            f"do_not_mutate_patterns = {json.dumps([LOG_CALL])}",
            f"pytest_add_cli_args = {json.dumps(['-m', MARKERS, '-p', 'no:cacheprovider', '-q'])}",
            f"pytest_add_cli_args_test_selection = {json.dumps(module.tests)}",
            "",
        ]
    )
    (work / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    # PYTHONPATH names this folder: it must exist when Python starts, or the import system
    # caches it as absent and the tests import the unmutated package instead.
    (work / "mutants" / "src").mkdir(parents=True, exist_ok=True)
    return work


def mutmut(work: Path, *args: str, quiet: bool = False) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(work / "mutants" / "src")}
    env.pop("COVERAGE_PROCESS_START", None)
    command = [sys.executable, "-m", "mutmut", *args]
    if quiet:
        return subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
    return subprocess.run(command, cwd=work, env=env, text=True, stdout=sys.stderr)


def outcome(
    work: Path,
    module: Module,
    rerun: set[str] | None = None,
    judged: dict[str, str] | None = None,
) -> dict[str, object]:
    """The module's verdicts; with ``rerun`` (the names judged again by ``--survivors``),
    every other mutant keeps the last run's verdict: killed (the survivors were all re-run);
    ``judged``: verdicts given by :func:`every_test.judge`, which replace mutmut's."""
    listing = mutmut(work, "results", "--all", "true", quiet=True).stdout
    prefix = module.slug + "."
    statuses: dict[str, str] = {}
    for line in listing.splitlines():
        match = re.match(r"\s*(\S+): (.+)$", line)
        if match and match.group(1).startswith(prefix):
            name, status = match.group(1).removeprefix(prefix), match.group(2).strip()
            if rerun is not None and name not in rerun and status == "not checked":
                status = "killed"  # in the last run, whose code was this very code
            statuses[name] = (judged or {}).get(name, status)
    # a mutant named equivalent that a test kills after all counts as killed
    equivalent = {n for n in module.equivalent if n in statuses and statuses[n] not in KILLED}
    counted = {name: s for name, s in statuses.items() if name not in equivalent}
    killed = sum(1 for s in counted.values() if s in KILLED)
    survivors = sorted(name for name, s in counted.items() if s not in KILLED)
    return {
        "mutants": len(statuses),
        "equivalent": len(equivalent),
        "killed": killed,
        "kill_rate": round(100.0 * killed / len(counted), 1) if counted else 100.0,
        "survivors": {name: counted[name] for name in survivors},
        "stale_equivalent": sorted(set(module.equivalent) - equivalent),  # gone or killed
    }


def report(modules: list[Module], recorded: Recorded) -> str:
    """A table of kill rates, then every surviving and every equivalent mutant with its reason."""
    lines = [
        "| module | mutants | equivalent | killed | kill rate | date |",
        "|---|---:|---:|---:|---:|---|",
    ]
    notes: list[str] = []
    for module in modules:
        result = recorded.get(module.path)
        if result is None:
            lines.append(f"| `{module.path}` | not measured | | | | |")
            continue
        counted = int(result["mutants"]) - int(result["equivalent"])  # type: ignore[call-overload]
        lines.append(
            f"| `{module.path}` | {result['mutants']} | {result['equivalent']} |"
            f" {result['killed']}/{counted} | {result['kill_rate']} % | {result['date']}"
            f"{' (survivors again)' if result.get('survivors_only') else ''} |"
        )
        survivors: dict[str, str] = result["survivors"]  # type: ignore[assignment]
        owed = [name for name in survivors if name not in module.harmless]
        entries = [
            f"- `{name}` ({survivors[name]}): {module.harmless[name]}"
            for name in survivors
            if name in module.harmless
        ]
        if len(owed) > 20:  # a module not worked through yet: where its gaps are
            by_function: dict[str, int] = {}
            for name in owed:
                function = name.rpartition("__mutmut_")[0]
                by_function[function] = by_function.get(function, 0) + 1
            entries += [
                f"- {count} not killed yet in `{function}`: tests are owed"
                for function, count in sorted(by_function.items(), key=lambda kv: -kv[1])
            ]
        else:
            entries += [
                f"- `{name}` ({survivors[name]}): not killed yet: a test is owed" for name in owed
            ]
        entries += [f"- `{name}` (equivalent): {why}" for name, why in module.equivalent.items()]
        if entries:
            notes += ["", f"`{module.path}` (mutmut show {module.slug}.NAME):", "", *entries]
    return "\n".join(lines + notes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every module, changed or not")
    parser.add_argument("--module", action="append", help="only this module (repeatable)")
    parser.add_argument("--base", default="main", help="the branch changes are counted from")
    parser.add_argument("--min", type=float, default=90.0, help="the kill rate a module needs")
    parser.add_argument("--list", action="store_true", help="print the modules that would run")
    parser.add_argument(
        "--survivors",
        action="store_true",
        help="judge again only the last run's survivors, against the tests as they are now"
        " (after tests were added; the module's code must be what that run mutated)",
    )
    parser.add_argument(
        "--report", action="store_true", help="the recorded results as Markdown (docs/testing.md)"
    )
    args = parser.parse_args()

    WORK.mkdir(exist_ok=True)
    recorded: Recorded = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    if args.report:
        print(report(load_modules(), recorded))
        return 0
    chosen = select(load_modules(), args, recorded)
    if args.list or not chosen:
        print("\n".join(m.path for m in chosen) or "no module changed: nothing to mutate (--all)")
        return 0
    failing = []
    for chosen_module in chosen:
        # read the list again: tests mapped while a long run goes are taken up by it
        module = next((m for m in load_modules() if m.path == chosen_module.path), chosen_module)
        print(f"== {module.path} ({len(module.tests)} test files)", file=sys.stderr)
        names: list[str] = []
        if args.survivors:
            last = recorded.get(module.path, {})
            if last.get("code") != code_hash(module) or not (WORK / module.slug).is_dir():
                print(f"error: {module.path} changed since its last run (or has none): run it all")
                failing.append(module.path)
                continue
            survivors: dict[str, str] = last["survivors"]  # type: ignore[assignment]
            names = [f"{module.slug}.{name}" for name in [*survivors, *module.equivalent]]
        work = prepare(module, keep_verdicts=args.survivors)
        started = time.monotonic()
        run = mutmut(work, "run", "--max-children", "1", *names)
        if run.returncode != 0 and not module.every_test:  # (none of its code reached here)
            print(f"error: mutmut failed on {module.path} (exit {run.returncode})")
            failing.append(module.path)
            continue
        rerun = {name.removeprefix(module.slug + ".") for name in names}
        judged = None
        if module.every_test:
            first = outcome(work, module, rerun if args.survivors else None)
            left = [*first["survivors"], *module.equivalent]  # type: ignore[misc]
            judged = every_test.judge(work, module.slug, left, module.tests, MARKERS)
        result = outcome(work, module, rerun if args.survivors else None, judged)
        result["seconds"] = round(time.monotonic() - started)
        result["date"] = time.strftime("%Y-%m-%d")
        result["fingerprint"] = fingerprint(module)
        result["code"] = code_hash(module)
        if args.survivors:
            result["survivors_only"] = True
        # read again before writing: a run of another module may have ended meanwhile
        recorded = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
        recorded[module.path] = result
        RESULTS.write_text(json.dumps(recorded, indent=2) + "\n")
        print(
            f"{module.path}: {result['killed']}/{result['mutants'] - result['equivalent']} killed"
            f" ({result['kill_rate']} %), {result['equivalent']} equivalent,"
            f" {result['seconds']} s"
        )
        for name, status in result["survivors"].items():  # type: ignore[attr-defined]
            print(f"    {status}: {name}   (mutmut show {module.slug}.{name}, in {work})")
        for name in result["stale_equivalent"]:  # type: ignore[attr-defined]
            print(f"    named equivalent but killed or no longer a mutant: {name}")
        if result["kill_rate"] < args.min:  # type: ignore[operator]
            failing.append(module.path)
    if failing:
        print(f"under {args.min} % or failed: {', '.join(failing)}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
