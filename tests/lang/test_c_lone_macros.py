"""C written as portable libraries write it, with macros the grammar cannot know without the
preprocessor: a pointer qualifier between a type and its ``*`` (``FAR``), an export macro
between a return type and a function's name (``ZAPI``, no underscore in it), a storage macro
for ``static`` (``#define local static``: ``local void f(...)``), a ``const`` of its own
(``z_const``), and ``#ifdef`` branches the grammar reads as statements out of place
(``else if (..) {`` after an ``#endif``). universal-ctags, which reads such code by tokens, is
the truth: every function it tags is a definition clear of parse errors, with ctags' first
and last lines, and gets a chunk of its own; no definition is a statement (``if``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeagent.index.chunking import chunk_file
from codeagent.lang import parse_file
from eval_scripts import load_script

pytestmark = pytest.mark.usefixtures("needs_ctags")

SOURCE = """\
/* store.c -- a buffer store */
#include "store.h"

#define local static

typedef struct store_state FAR *store_statep;

/* ===========================================================================
 * Copies the pending bytes out of the state.
 */
local void flush_pending(struct store_state FAR *s) {
    unsigned len = s->pending;
    z_const unsigned char FAR *next = s->next;

    if (len == 0) return;
    s->pending = 0;
}

/* ========================================================================= */
int ZAPI store_write(store_statep s, const void *buf, unsigned len) {
    if (s == NULL)
        return -1;
    if (s->mode == 1) {
        s->check = sum(s->check, buf, len);
    }
#ifdef WITH_CRC
    else if (s->mode == 2) {
        s->check = crc(s->check, buf, len);
    }
#endif
    flush_pending(s);
    return (int)len;
}

const char * ZAPI store_error(store_statep s, int *code) {
    *code = s->err;
    return s->msg;
}

local unsigned ZAPIVA store_count(store_statep s) {
    unsigned n = 0;
#if WINDOW_BITS != 15
    Check the window size again here
#endif
    while (n < s->have)
        n++;
    return n;
}
"""


def _ctags_functions(tmp_path: Path) -> dict[str, tuple[int, int]]:
    compare = load_script("compare_ctags")
    (tmp_path / "store.c").write_text(SOURCE)
    tags = compare.ctags_tags(tmp_path, "c", ["store.c"])
    return {t["name"]: (int(t["line"]), int(t["end"])) for t in tags if t["kind"] == "function"}


def test_functions_around_macros_are_ctags_functions_clear_of_errors(tmp_path: Path) -> None:
    truth = _ctags_functions(tmp_path)
    assert set(truth) == {"flush_pending", "store_write", "store_error", "store_count"}
    parsed = parse_file("store.c", SOURCE)
    assert parsed is not None
    ours = {row[0]: (row[2], row[4]) for row in parsed.clear_defs() if row[1] == "function"}
    assert ours == truth
    assert all(row[0].rsplit(".", 1)[-1] not in {"if", "else", "while"} for row in parsed.defs)


def test_each_function_gets_its_own_chunk(tmp_path: Path) -> None:
    truth = _ctags_functions(tmp_path)
    chunks = chunk_file("store.c", SOURCE)
    spans = {c.symbol: (c.start_line, c.end_line) for c in chunks if c.kind == "function"}
    assert set(spans) == set(truth)
    for name, (line, end) in truth.items():
        start, last = spans[name]
        assert start <= line
        assert last == end


def test_no_parse_error_is_left_on_a_functions_head() -> None:
    # the macros of the heads (FAR in a parameter, ZAPI, local void) are no error any more;
    # what is left lies inside bodies: the #ifdef branches, and z_const with FAR in one
    # declaration, which the grammar reads as two
    parsed = parse_file("store.c", SOURCE)
    assert parsed is not None
    lines = SOURCE.split("\n")
    heads = {row[2] for row in parsed.defs if row[1] == "function"}
    assert len(heads) == 4
    assert parsed.error_lines
    for first, last in parsed.error_lines:
        assert not any(first <= head <= last for head in heads)
        assert all(
            not lines[n - 1].startswith(("local", "int", "const")) for n in range(first, last + 1)
        )
