"""discover()'s rules one at a time, at their edges: the size cap and the minified-line
average on either side of their bounds, each minified suffix, a secret deep in the tree, names
and roots that end in characters a careless strip would eat, a symlink loop and a file whose
``lstat`` fails. Each expected answer is written from the rule in the module's docstring (and
the byte counts the test writes), not computed by the code under test."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from codeagent.repo import discover as discover_mod
from codeagent.repo.discover import discover
from conftest import write_files

CAP = 1_000_000  # discover's default max_bytes: "1 MB"


def kept(root: Path, **kwargs: int) -> list[str]:
    return [f.path for f in discover(root, **kwargs).files]


def test_the_size_cap_keeps_a_file_of_exactly_the_cap(tmp_path: Path) -> None:
    # Lines of 100 bytes: nothing minified, only the size decides.
    line = "x" * 99 + "\n"
    at_cap, over = line * (CAP // 100), line * (CAP // 100) + "\n"  # CAP and CAP + 1 bytes
    write_files(tmp_path, {"at_cap.txt": at_cap, "over_cap.txt": over})
    found = discover(tmp_path)  # the default cap
    assert [f.path for f in found.files] == ["at_cap.txt"]
    assert found.files[0].size == CAP
    assert found.skipped == {"too_large": 1}
    wider = discover(tmp_path, max_bytes=CAP + 1)
    assert [(f.path, f.size) for f in wider.files] == [
        ("at_cap.txt", CAP),
        ("over_cap.txt", CAP + 1),
    ]


def test_a_one_byte_file_is_kept_and_an_empty_one_is_not(tmp_path: Path) -> None:
    write_files(tmp_path, {"one.txt": "x", "none.txt": ""})
    found = discover(tmp_path)
    assert [(f.path, f.size) for f in found.files] == [("one.txt", 1)]
    assert found.skipped == {"empty": 1}


@pytest.mark.parametrize("name", ["app.min.js", "site.min.css", "mod.min.mjs", "Site.MIN.CSS"])
def test_every_minified_suffix_is_skipped(tmp_path: Path, name: str) -> None:
    write_files(tmp_path, {name: "a{b:c}\n", "plain.css": "a{b:c}\n"})
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["plain.css"]
    assert found.skipped == {"minified": 1}


def lines(count: int, width: int, last: int) -> str:
    """``count`` lines of ``width`` characters (each with its newline), then ``last`` more."""
    return ("a" * width + "\n") * count + "a" * last


def test_the_minified_average_line_bound(tmp_path: Path) -> None:
    """Minified: a sniffed head of at least 2,048 bytes whose characters per line (bytes over
    newlines + 1) are more than 400."""
    files = {
        "one_line_2048.js": "a" * 2048,  # 2,048 per line, at the size bound: minified
        "one_line_2047.js": "a" * 2047,  # one byte under the size bound: kept
        "avg_401.js": lines(9, 400, 401),  # 4,010 bytes, 10 lines: 401 per line
        "avg_400.js": lines(9, 399, 400),  # 4,000 bytes, 10 lines: 400 per line, kept
        "short_lines.js": lines(300, 9, 0),  # 3,000 bytes of short lines: kept
    }
    for name, text in files.items():
        assert name == "one_line_2047.js" or len(text) >= 2048, name
    write_files(tmp_path, files)
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["avg_400.js", "one_line_2047.js", "short_lines.js"]
    assert found.skipped == {"minified": 2}


def test_only_the_head_is_sniffed_for_a_nul_byte(tmp_path: Path) -> None:
    """The NUL-byte sniff reads the first SNIFF_BYTES; a NUL past them does not make a file
    binary (a text file with a stray NUL late in it stays indexed)."""
    head = ("x = 1\n" * (discover_mod.SNIFF_BYTES // 6 + 1)).encode()
    write_files(tmp_path, {"late_nul.py": head + b"\0\n", "early_nul.py": b"x\0" + head})
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["late_nul.py"]
    assert found.skipped == {"binary": 1}


def test_a_secret_deep_in_the_tree_is_skipped_by_its_own_name(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {"deploy/keys/id_rsa": "-----BEGIN-----\n", "deploy/keys/README": "keys live here\n"},
    )
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["deploy/keys/README"]
    assert found.skipped == {"secret": 1}


def test_names_ending_in_a_space_or_a_capital_x_are_kept(tmp_path: Path) -> None:
    write_files(tmp_path, {"notes ": "n\n", "docs/INDEX": "i\n", "LICENSE.X": "l\n"})
    assert kept(tmp_path) == ["LICENSE.X", "docs/INDEX", "notes "]


def test_a_root_whose_name_ends_in_a_space_keeps_its_files(tmp_path: Path) -> None:
    root = tmp_path / "repo "
    write_files(root, {"a.py": "a = 1\n", "sub/b.py": "b = 1\n"})
    (root / "link.py").symlink_to(root / "a.py")  # a link that stays inside
    found = discover(root)
    assert [f.path for f in found.files] == ["a.py", "link.py", "sub/b.py"]
    assert found.skipped == {}


def test_a_symlink_loop_is_not_regular(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.py": "a = 1\n"})
    (tmp_path / "loop1").symlink_to("loop2")
    (tmp_path / "loop2").symlink_to("loop1")
    with pytest.raises(OSError, match="Too many levels of symbolic links") as raised:
        os.stat(tmp_path / "loop1")
    assert raised.value.errno == errno.ELOOP  # what the system says of it
    found = discover(tmp_path)
    assert kept(tmp_path) == ["a.py"]
    assert found.skipped == {"not_regular": 2}


def test_a_file_that_cannot_be_examined_is_unreadable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``lstat`` failing with another error than ELOOP (EACCES on a folder on the way: root
    is not stopped by modes, so it is simulated) counts as unreadable."""
    write_files(tmp_path, {"a.py": "a = 1\n", "locked/b.py": "b = 1\n"})
    real_lstat = os.lstat

    def lstat(path: str, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).endswith("b.py"):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_lstat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(discover_mod.os, "lstat", lstat)
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["a.py"]
    assert found.skipped == {"unreadable": 1}
