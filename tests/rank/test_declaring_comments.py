"""A file of declarations whose documentation holds examples with bodies (``try {``, ``if (x)
{``) is still a file that mostly declares; and such a file, moved out of a how-question's
first places, does not bring back a test the how rule keeps after them."""

from __future__ import annotations

from dataclasses import dataclass, field

from codeagent.index.chunking import chunk_file
from codeagent.rank.declarations import files_after, is_declaration
from codeagent.records import Chunk

OPTIONS = "".join(
    f"\t/**\n\tThe delay before retry {n}, in milliseconds.\n\n\t@example\n\t```\n"
    f"\ttry {{\n\t\tawait request(url);\n\t}} catch (error) {{\n\t\tif (error.retry) {{\n"
    f"\t\t\tlog(error);\n\t\t}}\n\t}}\n\t```\n\t*/\n\tdelay{n}?: number;\n\n"
    for n in range(6)
)
TYPES = f"/**\nOptions of a retry.\n*/\nexport type RetryOptions = {{\n{OPTIONS}}};\n"
CODE = "export function retry(request: Request): Promise<Response> {\n\treturn fetch(request);\n}\n"


def test_a_documented_example_is_no_body() -> None:
    chunks = chunk_file("source/types/retry.ts", TYPES)
    assert len(chunks) > 1  # the type is cut into windows, some starting inside a comment
    inside = [c for c in chunks if c.text.find("*/") < c.text.find("/**")]
    assert inside  # a window that starts inside a documentation comment
    assert all(is_declaration(c, past_comments=True) for c in chunks), [c.text[:60] for c in chunks]
    assert not all(is_declaration(c) for c in chunks)  # the example's braces read as a body
    assert not any(is_declaration(c) for c in chunk_file("source/retry.ts", CODE))


@dataclass
class _Store:
    """What :func:`files_after` reads of an index: its chunks (weakly referenced)."""

    chunks: list[Chunk] = field(default_factory=list)

    def __hash__(self) -> int:
        return id(self)


def test_a_declaring_file_moved_back_does_not_bring_a_test_forward() -> None:
    store = _Store()
    ids: dict[str, list[int]] = {}
    paths = ["source/types/retry.ts", "source/a.ts", "source/b.ts", "source/c.ts"]
    paths += ["source/d.ts", "test/retry.ts", "source/e.ts"]
    for path in paths:
        text = TYPES if path.startswith("source/types/") else CODE
        start = len(store.chunks)
        store.chunks += chunk_file(path, text)
        ids[path] = list(range(start, len(store.chunks)))
    files = [(path, 1.0 - n / 10) for n, path in enumerate(paths)]

    def order(kept_back: object = None) -> list[str]:
        extra = {} if kept_back is None else {"kept_back": kept_back}
        moved = files_after(store, files, ids.__getitem__, lambda path: False, **extra)
        return [path for path, _ in moved]

    # the types' file leaves the first five; without the test kept back it takes fifth place
    assert order()[:6] == [*paths[1:6], paths[0]]
    kept = order(lambda path: path.startswith("test/"))
    assert kept == ["source/a.ts", "source/b.ts", "source/c.ts", "source/d.ts", "source/e.ts",
                    "source/types/retry.ts", "test/retry.ts"]  # fmt: skip
