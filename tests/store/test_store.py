"""IndexStore: BM25 + dense search fused by RRF, the per-file cap, save/load, damage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeagent.embed.embedders import HashEmbedder
from codeagent.records import Chunk
from codeagent.store.entry_files import CorruptIndexError
from codeagent.store.fusion import rrf_fuse
from codeagent.store.store import IndexStore

CHUNKS = [
    Chunk("app/parser.py", 1, 6, "def parse_header(line):\n    name, value = line.split(':')\n"
          "    return name.strip(), value.strip()", "parse_header", "function"),
    Chunk("app/parser.py", 8, 12, "def read_headers(lines):\n    return [parse_header(l) "
          "for l in lines]", "read_headers", "function"),
    Chunk("app/parser.py", 14, 16, "def headers_to_dict(lines):\n    return dict(read_headers"
          "(lines))  # calls parse_header for each", "headers_to_dict", "function"),
    Chunk("app/client.py", 1, 9, "class HttpClient:\n    def get(self, url):\n        return "
          "self.session.request('GET', url)", "HttpClient", "class"),
    Chunk("app/retry.py", 1, 7, "def retry_with_backoff(func, attempts=3):\n    for attempt in "
          "range(attempts):\n        time.sleep(2 ** attempt)", "retry_with_backoff", "function"),
    Chunk("README.md", 1, 3, "# demo\nAn HTTP client with retry and header parsing.", "", "window"),
]  # fmt: skip


def build(embedder: HashEmbedder | None = None) -> IndexStore:
    vectors = embedder.embed_documents([c.embed_text for c in CHUNKS]) if embedder else None
    return IndexStore.build(list(CHUNKS), embedder, vectors)


def test_rrf_matches_hand_computed_scores() -> None:
    fused = rrf_fuse({"bm25": [7, 3, 5], "dense": [3, 9]})
    assert [item for item, _, _ in fused] == [3, 7, 9, 5]
    scores = {item: score for item, score, _ in fused}
    assert scores[3] == pytest.approx(1 / 62 + 1 / 61)
    assert scores[7] == pytest.approx(1 / 61)
    assert scores[9] == pytest.approx(1 / 62)
    assert scores[5] == pytest.approx(1 / 63)
    assert fused[0][2] == {"bm25": 2, "dense": 1}
    assert fused[2][2] == {"dense": 2}


def test_identifier_query_finds_its_definition_first() -> None:
    store = build()
    hits = store.search("parse_header", k=3)
    assert hits[0].symbol == "parse_header"
    assert (hits[0].path, hits[0].start_line, hits[0].end_line) == ("app/parser.py", 1, 6)
    assert hits[0].ranks == {"bm25": 1}
    assert store.search("retry_with_backoff")[0].path == "app/retry.py"


def test_an_inflected_word_meets_its_stem_in_the_code() -> None:
    # "parsed" is nowhere in the code; only its stem matches parse_header (stemmed "pars").
    store = IndexStore.build([CHUNKS[0], CHUNKS[3], CHUNKS[4]], None, None)
    scores = store.bm25_scores("where are headers parsed")
    assert scores is not None
    assert scores[0] > 0
    assert scores[1] == 0
    assert scores[2] == 0


def test_words_match_identifier_parts() -> None:
    hits = build().search("how does the http client send a request", k=2)
    assert hits[0].symbol == "HttpClient"


def test_at_most_per_file_chunks_of_one_file() -> None:
    store = build()
    hits = store.search("parse header headers", k=10)
    assert [h.path for h in hits].count("app/parser.py") == 2
    one = store.search("parse header headers", k=10, per_file=1)
    assert [h.path for h in one].count("app/parser.py") == 1


def test_exclude_filters_paths() -> None:
    hits = build(HashEmbedder(64)).search("http", k=10, exclude=lambda p: p.endswith(".md"))
    assert hits
    assert all(not h.path.endswith(".md") for h in hits)


def test_dense_side_is_fused_when_an_embedder_exists() -> None:
    hits = build(HashEmbedder(64)).search("parse_header", k=3)
    assert hits[0].symbol == "parse_header"
    assert set(hits[0].ranks) == {"bm25", "dense"}
    assert hits[0].score == pytest.approx(sum(1 / (60 + r) for r in hits[0].ranks.values()))


def test_no_match_gives_no_hits_without_dense() -> None:
    assert build().search("zebra quantum", k=5) == []


def test_save_then_load_gives_the_same_results(tmp_path: Path) -> None:
    embedder = HashEmbedder(64)
    store = build(embedder)
    store.save(tmp_path / "idx", meta={"state_hash": "abc"})
    loaded = IndexStore.load(tmp_path / "idx", HashEmbedder(64))
    assert loaded.chunks == CHUNKS
    assert loaded.manifest["state_hash"] == "abc"
    for query in ("parse_header", "http client", "retry"):
        assert loaded.search(query, k=4) == store.search(query, k=4)


def test_load_is_lazy_about_numpy_and_faiss(tmp_path: Path) -> None:
    build(HashEmbedder(64)).save(tmp_path / "idx")
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from codeagent.store.store import IndexStore\n"
        "from codeagent.embed.embedders import HashEmbedder\n"
        f"s = IndexStore.load(Path({str(tmp_path / 'idx')!r}), HashEmbedder(64))\n"
        "print(len(s.chunks), 'numpy' in sys.modules, 'faiss' in sys.modules)\n"
        "s.search('parse_header')\n"
        "print('numpy' in sys.modules, 'faiss' in sys.modules, 'bm25s' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["6", "False", "False", "True", "True", "False"]


@pytest.mark.parametrize("damage", ["no_manifest", "truncated_chunks", "bad_json", "incomplete"])
def test_damaged_index_is_detected(tmp_path: Path, damage: str) -> None:
    directory = tmp_path / "idx"
    build().save(directory)
    if damage == "no_manifest":
        (directory / "manifest.json").unlink()
    elif damage == "truncated_chunks":
        data = (directory / "chunks.json").read_bytes()
        (directory / "chunks.json").write_bytes(data[: len(data) // 2])
    elif damage == "bad_json":
        (directory / "manifest.json").write_text("{not json", encoding="utf-8")
    else:
        manifest = json.loads((directory / "manifest.json").read_text(encoding="utf-8"))
        manifest["complete"] = False
        (directory / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with pytest.raises(CorruptIndexError):
        IndexStore.load(directory, None)


def test_embedder_mismatch_is_detected(tmp_path: Path) -> None:
    build().save(tmp_path / "idx")
    with pytest.raises(CorruptIndexError, match="embedder"):
        IndexStore.load(tmp_path / "idx", HashEmbedder(64))
