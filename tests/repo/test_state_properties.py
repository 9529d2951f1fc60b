"""The state key as a property: any change to a file the index reads changes it (the state
hash the cache is keyed by, and the server's cheap probe), whether the file is tracked, staged,
untracked or tracked though ``.gitignore`` matches it; the same files give the same hash back.

Truth: the contents the test wrote (a model of the work tree) and real git. The factory makes
a new repository per example (so the function-scoped fixture is safe to share)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codeagent.index.build import fingerprint
from codeagent.repo.discover import discover
from codeagent.repo.probe import Prober
from codeagent.repo.state import state_hash
from conftest import GitRepoFactory, git
from properties import fast

KINDS = ("tracked", "staged", "untracked", "ignored")
PATH = {
    "tracked": "src/tracked.py",
    "staged": "src/staged.py",
    "untracked": "new/untracked.py",
    "ignored": "logs/kept.log",  # tracked with add -f although *.log is ignored
}
edits = st.lists(
    st.tuples(st.sampled_from(KINDS), st.sampled_from(["", "x = 1\n", "x = 2\n", "y\n"])),
    min_size=1,
    max_size=5,
)


def indexed(path: str, text: str | None) -> str | None:
    """What the index reads of a file: an empty file is skipped, and an untracked one that
    is empty (or absent) is not there at all; a tracked one emptied is a change in the diff."""
    return None if path == PATH["untracked"] and not text else text


def files(model: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The work tree as the index reads it, from the model."""
    return tuple(sorted((p, v) for p, t in model.items() if (v := indexed(p, t)) is not None))


def key(root: Path) -> str:
    return state_hash(discover(root), fingerprint(None))


@settings(fast(8), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(edits)
def test_every_change_to_an_indexed_file_changes_the_key(
    git_repo: GitRepoFactory, steps: list[tuple[str, str]]
) -> None:
    root = git_repo({".gitignore": "*.log\n", **{PATH[k]: "start\n" for k in KINDS[:2]}})
    (root / "logs").mkdir()
    (root / PATH["ignored"]).write_text("start\n")
    git(root, "add", "-f", PATH["ignored"])
    git(root, "commit", "-qm", "an ignored file, tracked")
    model = {PATH[k]: "start\n" for k in KINDS if k != "untracked"}
    seen = {files(model): key(root)}
    prober = Prober(root)
    for kind, text in steps:
        path = PATH[kind]
        before_hash, before_probe = key(root), prober.probe().key
        changed = indexed(path, model.get(path)) != indexed(path, text)
        (root / path).parent.mkdir(exist_ok=True)
        (root / path).write_text(text)
        if kind == "staged":
            git(root, "add", path)
        model[path] = text
        now = key(root)
        if changed:
            assert now != before_hash, (kind, text)
            assert prober.probe().key != before_probe, (kind, text)
        state = files(model)
        assert seen.setdefault(state, now) == now  # the same files, the same key
        assert [k for k, v in seen.items() if v == now] == [state]  # and no other files
